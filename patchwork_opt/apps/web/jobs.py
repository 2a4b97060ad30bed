"""Solver and AI work through a bounded queue: a few slots, a short line, a fair share per client.

A job waits in line (FIFO, skipping a client already at its share of running slots) until a slot
is free, then runs in a worker thread. The line is full when it holds ``max_queued`` jobs or when a
new job would wait longer than ``max_wait`` seconds for its answer, judged by how long jobs have
been taking (a running mean): a line of quick hints may be long, a line of long AI moves short.
Then the caller gets ``QueueFullError`` (503) with that expected wait as when to retry; when the
client already has ``client_jobs`` jobs, ``ClientBusyError`` (429). If the client disconnects, a
waiting job leaves the line without running, and a running job gives its slot to the next caller
at once: its thread, which Python cannot kill, finishes within its time cap as an *orphan*.
Orphans are bounded too (at most ``3 * slots`` of them), so abandoned work cannot pile up on the
CPU without limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import math
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

from starlette.types import Receive

from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.i18n import _, ngettext

T = TypeVar("T")
#: A slot freed by an abandoned job is handed on after this long, so that when many clients give
#: up at once (a proxy timeout) the jobs queued behind it are dropped before any of them starts.
ABANDON_GRACE_SECONDS = 0.25
#: the weight of the last finished job in the running mean of job times
JOB_TIME_WEIGHT = 0.1


class BusyError(PatchworkError):
    """The service cannot take the job now; ``retry_after`` seconds is a fair wait (the answer
    carries it as ``Retry-After``)."""

    http_status = 503

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class QueueFullError(BusyError):
    http_status = 503


class ClientBusyError(BusyError):
    http_status = 429


class ClientGoneError(PatchworkError):
    """The client disconnected before its job finished (nobody reads the answer)."""

    http_status = 503


@dataclass(eq=False, slots=True)
class _Waiter:
    client: str
    ready: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(frozen=True, slots=True)
class QueueStats:
    running: int
    orphans: int
    queued: int


class JobQueue:
    """``await run(client, fn, receive)``: ``fn()`` in a worker thread once a slot is free."""

    def __init__(
        self, slots: int, max_queued: int, client_running: int, client_jobs: int, retry_after: float,
        max_wait: float | None = None, first_job_seconds: float = 1.0,
    ) -> None:
        """``retry_after``: the longest wait told (a job's time cap); ``max_wait``: the longest a
        new job may expect to wait for its answer (None: only ``max_queued`` bounds the line);
        ``first_job_seconds``: the job time assumed until jobs have finished."""
        self.slots = max(1, slots)
        self.max_orphans = 3 * self.slots
        self.max_queued = max(0, max_queued)
        self.client_running = max(1, client_running)
        self.client_jobs = max(1, client_jobs)
        self.retry_after = max(1, math.ceil(retry_after))
        self.max_wait = max_wait
        self.job_seconds = first_job_seconds  # the running mean of finished jobs' times
        self._executor = ThreadPoolExecutor(self.slots + self.max_orphans, thread_name_prefix="patchwork-job")
        self._running: dict[str, int] = {}
        self._jobs: dict[str, int] = {}
        self._orphans = 0
        self._line: deque[_Waiter] = deque()

    @property
    def stats(self) -> QueueStats:
        return QueueStats(sum(self._running.values()), self._orphans, len(self._line))

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)

    async def run(
        self, client: str, fn: Callable[[], T], receive: Receive | None = None, stop: StopSignal | None = None
    ) -> T:
        """The job's result; raises ``BusyError`` when it cannot be taken, and ``ClientGoneError``
        (its slot freed at once, ``stop`` set so that running work ends early) when ``receive``
        reports that the client went away."""
        self._admit(client)
        job = asyncio.ensure_future(self._run_admitted(client, fn, stop))
        watcher = asyncio.ensure_future(_disconnected(receive)) if receive is not None else None
        try:
            await asyncio.wait([t for t in (job, watcher) if t is not None], return_when=asyncio.FIRST_COMPLETED)
            if job.done():
                return job.result()
            job.cancel()
            with contextlib.suppress(BaseException):
                await job
            raise ClientGoneError(_("the client went away; its job was dropped"))
        finally:
            if watcher is not None:
                watcher.cancel()
            job.cancel()  # no-op once done; stops the job when this request is cancelled
            self._release(client)

    def start(
        self, client: str, fn: Callable[[], T], stop: StopSignal, on_start: Callable[[], None] | None = None
    ) -> asyncio.Task[T]:
        """``fn()`` as a job that outlives the request submitting it (the workshop's jobs: submit,
        then poll): admitted now (``BusyError`` raised here, as by ``run``), then run in the
        background as ``run`` runs it. ``on_start`` is called on the event loop as the job leaves
        the line for a worker. Cancelling the task (its owner's decision, never a vanished client's)
        drops a waiting job from the line, and hands a running job's slot to the next job at once,
        its thread told to stop (``stop``) and left to finish as an orphan."""
        self._admit(client)
        task = asyncio.ensure_future(self._run_admitted(client, fn, stop, on_start, grace=0.0))
        task.add_done_callback(lambda _: self._release(client))
        return task

    def _release(self, client: str) -> None:
        self._jobs[client] -= 1
        if not self._jobs[client]:
            del self._jobs[client]

    # --- accounting (all on the event loop: no locks) ------------------------------------------
    def _admit(self, client: str) -> None:
        if self._jobs.get(client, 0) >= self.client_jobs:
            raise ClientBusyError(
                ngettext("you already have {count} solver or AI job queued or running; retry later",
                         "you already have {count} solver or AI jobs queued or running; retry later",
                         self.client_jobs),
                self.retry_after,
            )
        if not self._can_start(client):
            queued = len(self._line)
            wait = self.expected_wait()
            too_long = self.max_wait is not None and queued >= self.slots and wait > self.max_wait
            if queued >= self.max_queued or too_long:
                retry = min(self.retry_after, max(1, math.ceil(wait)))
                raise QueueFullError(_("the solvers are busy (queue full); retry later"), retry)
        self._jobs[client] = self._jobs.get(client, 0) + 1

    def expected_wait(self) -> float:
        """Seconds a job joining the line now may expect to wait for its answer: the line ahead of
        it shared by the slots, then its own run, at the running mean of job times."""
        return (len(self._line) / self.slots + 1.0) * self.job_seconds

    def _can_start(self, client: str) -> bool:
        running = sum(self._running.values())
        return (
            running < self.slots
            and running + self._orphans < self.slots + self.max_orphans
            and self._running.get(client, 0) < self.client_running
        )

    def _wake(self) -> None:
        """Start the first waiters in line that may start (FIFO, skipping clients at their share)."""
        for waiter in list(self._line):
            if self._can_start(waiter.client):
                self._line.remove(waiter)
                self._running[waiter.client] = self._running.get(waiter.client, 0) + 1
                waiter.ready.set()

    def _finished(self, client: str) -> None:
        self._running[client] -= 1
        if not self._running[client]:
            del self._running[client]

    def _orphan_finished(self) -> None:
        self._orphans -= 1
        self._wake()

    async def _run_admitted(
        self, client: str, fn: Callable[[], T], stop: StopSignal | None, on_start: Callable[[], None] | None = None,
        grace: float = ABANDON_GRACE_SECONDS,
    ) -> T:
        if not self._line and self._can_start(client):
            self._running[client] = self._running.get(client, 0) + 1
        else:
            waiter = _Waiter(client)
            self._line.append(waiter)
            try:
                await waiter.ready.wait()
            except BaseException:
                if waiter in self._line:
                    self._line.remove(waiter)
                else:  # woken and cancelled in the same turn: hand the slot on
                    self._finished(client)
                    self._wake()
                raise
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        if on_start is not None:
            on_start()
        future = self._executor.submit(contextvars.copy_context().run, fn)  # the request's language (i18n)
        abandoned = False
        try:
            result = await asyncio.wrap_future(future)
            took = time.perf_counter() - started
            self.job_seconds += JOB_TIME_WEIGHT * (took - self.job_seconds)
            return result
        except BaseException:
            if not future.done():  # abandoned mid-run: the thread becomes an orphan, told to stop
                abandoned = True
                if stop is not None:
                    stop.set()
                self._orphans += 1
                future.add_done_callback(lambda _: _call_soon(loop, self._orphan_finished))
            raise
        finally:
            self._finished(client)
            if abandoned:  # clients that gave up together leave the line before it moves on
                loop.call_later(grace, self._wake)
            else:
                self._wake()


def _call_soon(loop: asyncio.AbstractEventLoop, fn: Callable[[], object]) -> None:
    """``fn`` on ``loop`` from a worker thread; nothing if the server has stopped meanwhile."""
    with contextlib.suppress(RuntimeError):  # the loop is closed
        loop.call_soon_threadsafe(fn)


async def _disconnected(receive: Receive) -> None:
    """Returns once the client disconnects (the request body is already read)."""
    while (await receive())["type"] != "http.disconnect":
        pass
