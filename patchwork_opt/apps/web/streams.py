"""Live analyses for the analysis stream (``GET /api/analysis/stream``), in worker processes of their
own.

Why processes: the compiled sampling search holds the interpreter lock while it runs a slice, so a
stream thinking in the server's process would take the lock, slice after slice, from the hints and
AI moves the job queue runs. In processes of their own, at a lower scheduling priority
(``Limits.analysis_nice``), the streams think with what the server's own work leaves of the CPU:
hints keep their share, and a stream never takes a job queue slot.

The pool caps the analyses running at once (``Limits.max_analyses``: the next gets 503 with
``Retry-After``, the seconds until the first running analysis reaches its time limit), a client's
(``Limits.client_analyses``: 429) and every analysis's duration (``Limits.max_analysis_seconds``). An
analysis counts as running until its worker says it has ended: a stream whose client went away is
told to stop at once, its loop ends within one slice of its search, and only then is its place free.

The processes (``Limits.analysis_processes``) start with ``serve``, which waits for them to load
the compiled searches (``preload``) before it says it is ready, so its first stream answers as fast
as any later one; when the compiled searches are still to be compiled (a new install) they start
instead when the analysis board is first used (any of its requests calls ``start``: they load the
searches while the visitor looks at the position). A worker is ready once it has loaded them
(``ready_workers``, which the health endpoint reports); an analysis runs in a thread of the least
busy one. The messages between them are small tuples on a pipe: to the worker ``("start",
id, notation, seconds, lines, language)``, ``("stop", id)``, ``("quit",)``; back ``("ready",)``, ``("event", id,
json_text)``, ``("end", id, error_or_None)``. A worker that dies ends its analyses with an error and
is started again for the next stream.

The language: a stream's words (its moves, outcomes and lines, its error) follow the language of the
request that opened it (``?lang=``, the cookie, ``Accept-Language``); the request's context variable
does not cross into a worker process, so ``open`` sends the language code with the analysis and the
worker's thread says its words in it (``i18n.using``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from patchwork_opt.apps.web.jobs import ClientBusyError, QueueFullError
from patchwork_opt.apps.web.services import LiveEvents
from patchwork_opt.core.errors import PatchworkError, words
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.i18n import N_, current, ngettext, using

#: seconds a worker may take to start (import, load the compiled searches) before a stream gives up
START_SECONDS = 300.0
#: seconds between looks at a starting worker
READY_POLL_SECONDS = 0.05
#: seconds ``close`` waits for the workers to quit before they are killed
QUIT_SECONDS = 1.0


class AnalysesBusyError(QueueFullError):
    """Every live analysis this server runs at once is taken (503, with ``Retry-After``)."""


class ClientAnalysesError(ClientBusyError):
    """This client already runs as many live analyses as one client may (429, with ``Retry-After``)."""


class AnalysisFailedError(PatchworkError):
    """A worker could not run the analysis (it failed to start, or died)."""

    http_status = 503


# --- the worker process ---------------------------------------------------------------------------


def _worker_main(conn: Connection, live: LiveEvents, warm_up: Callable[[], None] | None, nice: int) -> None:
    """A worker process: lower its priority, load the compiled searches, then run each analysis it
    is sent in a thread of its own until told to quit (or the server is gone)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C on the server's terminal is the server's
    with contextlib.suppress(OSError):
        os.nice(nice)
    if warm_up is not None:
        warm_up()
    lock = threading.Lock()

    def send(message: tuple[Any, ...]) -> None:
        with lock:
            conn.send(message)

    stops: dict[int, StopSignal] = {}
    send(("ready",))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):  # the server is gone
            message = ("quit",)
        if message[0] == "start":
            _, sid, notation, seconds, lines, language = message
            stops[sid] = StopSignal()
            threading.Thread(target=_analyse, args=(send, live, stops, sid, notation, seconds, lines, language),
                             name=f"analysis-{sid}", daemon=True).start()
        elif message[0] == "stop" and message[1] in stops:
            stops[message[1]].set()
        elif message[0] == "quit":
            for stop in list(stops.values()):
                stop.set()
            return


def _analyse(send: Callable[[tuple[Any, ...]], None], live: LiveEvents, stops: dict[int, StopSignal], sid: int,
             notation: str, seconds: float, lines: int, language: str) -> None:
    """One analysis in a worker, in ``language``: each snapshot sent as it comes, then its end (with
    the error, if any)."""
    error = None
    try:
        with using(language):
            for event in live(notation, stops[sid], seconds, lines):
                send(("event", sid, json.dumps(event)))
    except PatchworkError as exc:
        with using(language):
            error = words(exc)
    except Exception as exc:  # the stream reports it; the worker goes on serving the others
        error = f"{type(exc).__name__}: {exc}"
    finally:
        stops.pop(sid, None)
        with contextlib.suppress(OSError):
            send(("end", sid, error))


# --- the server's side --------------------------------------------------------------------------------


@dataclass(eq=False)
class LiveStream:
    """One analysis as the route reads it: ``events()`` yields each snapshot's JSON text; ``stop()``
    (the client went away) tells its worker to stop."""

    sid: int
    client: str
    ends_at: float
    stop: Callable[[], None]
    queue: asyncio.Queue[tuple[str, str | None]] = field(default_factory=asyncio.Queue)

    async def events(self) -> AsyncIterator[str]:
        """The snapshots' JSON texts; raises ``AnalysisFailedError`` when the analysis failed."""
        while True:
            kind, payload = await self.queue.get()
            if kind == "event" and payload is not None:
                yield payload
            elif kind == "end":
                if payload is not None:
                    raise AnalysisFailedError(payload)
                return


class _Worker:
    """One worker process, its pipe and the thread that reads what it sends."""

    def __init__(self, pool: AnalysisPool) -> None:
        self.pool = pool
        self.running = 0
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(child, pool.live, pool.warm_up, pool.nice),
                                       name="patchwork-analysis", daemon=True)
        self.process.start()
        child.close()
        self.ready = threading.Event()
        self.alive = True
        self._lock = threading.Lock()
        threading.Thread(target=self._read, name="analysis-reader", daemon=True).start()

    def send(self, message: tuple[Any, ...]) -> None:
        with self._lock, contextlib.suppress(OSError, ValueError):
            self.conn.send(message)

    def _read(self) -> None:
        while True:
            try:
                message = self.conn.recv()
            except (EOFError, OSError):
                break
            if message[0] == "ready":
                self.ready.set()
            else:
                self.pool.deliver(self, message)
        self.alive = False
        self.ready.set()
        self.pool.deliver(self, ("died",))


class AnalysisPool:
    """The live analyses of one server: its worker processes, its caps and the streams running."""

    def __init__(self, live: LiveEvents, warm_up: Callable[[], None] | None, *, processes: int, capacity: int,
                 per_client: int, max_seconds: float, nice: int) -> None:
        self.live, self.warm_up, self.nice = live, warm_up, nice
        self.processes = max(1, processes)
        self.capacity = max(0, capacity)
        self.per_client = max(1, per_client)
        self.max_seconds = max_seconds
        self._workers: list[_Worker] = []
        self._streams: dict[int, tuple[LiveStream, _Worker]] = {}
        self._ids = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    @property
    def running(self) -> int:
        """Analyses whose worker has not yet said they ended."""
        return len(self._streams)

    @property
    def ready_workers(self) -> int:
        """Worker processes running that have loaded the compiled searches."""
        return sum(1 for w in self._workers if w.alive and w.ready.is_set())

    def start(self) -> None:
        """Start the worker processes that are not running (each loads the compiled searches in the
        background); called on the event loop, whose thread the streams are fed on."""
        self._loop = asyncio.get_running_loop()
        with self._lock:
            self._workers = [w for w in self._workers if w.alive]
            while len(self._workers) < self.processes:
                self._workers.append(_Worker(self))

    async def preload(self) -> None:
        """Start the worker processes and wait until each has loaded the compiled searches (or died:
        the next stream starts another), at most ``START_SECONDS``."""
        self.start()
        waited = time.monotonic()
        while not all(w.ready.is_set() for w in self._workers) and time.monotonic() - waited < START_SECONDS:
            await asyncio.sleep(READY_POLL_SECONDS)

    def close(self) -> None:
        """Stop every analysis and the workers (one still loading the compiled searches, which reads
        no message until it is done, is killed: it holds nothing to save)."""
        with self._lock:
            workers, self._workers = self._workers, []
        for worker in workers:
            worker.send(("quit",))
        quit_by = time.monotonic() + QUIT_SECONDS
        for worker in workers:
            worker.process.join(max(0.0, quit_by - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(QUIT_SECONDS)
            worker.conn.close()

    def check(self, client: str) -> None:
        """Raise the busy error when an analysis for ``client`` cannot start now."""
        now = time.monotonic()
        if self.running >= self.capacity:
            raise AnalysesBusyError(
                ngettext("this server runs {count} live analysis at once, all taken; retry later",
                         "this server runs {count} live analyses at once, all taken; retry later", self.capacity),
                self._retry_after(now, None))
        if sum(1 for s, _ in self._streams.values() if s.client == client) >= self.per_client:
            raise ClientAnalysesError(
                ngettext("you already run {count} live analysis at once; close it or retry later",
                         "you already run {count} live analyses at once; close one or retry later", self.per_client),
                self._retry_after(now, client))

    def _retry_after(self, now: float, client: str | None) -> int:
        ends = [s.ends_at for s, _ in self._streams.values() if client is None or s.client == client]
        return max(1, math.ceil(min(ends, default=now + 1.0) - now))

    async def open(self, client: str, notation: str, seconds: float, lines: int) -> LiveStream:
        """A live analysis of ``notation`` for ``seconds`` (at most the server's), ``lines`` lines a
        snapshot; raises ``BusyError`` when it cannot start now (see ``check``)."""
        self.check(client)
        self.start()
        worker = min((w for w in self._workers if w.alive), key=lambda w: w.running)
        seconds = min(seconds, self.max_seconds)
        sid = next(self._ids)
        stream = LiveStream(sid, client, time.monotonic() + seconds, lambda: worker.send(("stop", sid)))
        self._streams[sid] = (stream, worker)
        worker.running += 1
        try:
            waited = time.monotonic()
            while not worker.ready.is_set() and time.monotonic() - waited < START_SECONDS:
                await asyncio.sleep(READY_POLL_SECONDS)  # only while the workers start
            if not worker.alive or not worker.ready.is_set():
                raise AnalysisFailedError(N_("the analysis worker could not start; retry later"))
        except BaseException:
            self._ended(sid)
            raise
        worker.send(("start", sid, notation, seconds, lines, current()))  # the request's language
        return stream

    def deliver(self, worker: _Worker, message: tuple[Any, ...]) -> None:
        """What a worker sent (from its reader thread), handed to the stream on the event loop."""
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: the server is stopping
                loop.call_soon_threadsafe(self._delivered, worker, message)

    def _delivered(self, worker: _Worker, message: tuple[Any, ...]) -> None:
        if message[0] == "died":
            for sid, (stream, owner) in list(self._streams.items()):
                if owner is worker:
                    stream.queue.put_nowait(("end", "the analysis worker stopped unexpectedly"))
                    self._ended(sid)
            return
        kind, sid, payload = message
        found = self._streams.get(sid)
        if found is not None:
            found[0].queue.put_nowait((kind, payload))
            if kind == "end":
                self._ended(sid)

    def _ended(self, sid: int) -> None:
        found = self._streams.pop(sid, None)
        if found is not None:
            found[1].running -= 1

