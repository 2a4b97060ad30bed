"""Jobs that outlive their request: the workshop's fills and 7x7 questions, submitted, then polled.

A solve that may take seconds does not hold a connection for its whole length: ``submit`` admits
the job to the bounded job queue at once (``BusyError`` then, as for any solver work: 429 or 503
with ``Retry-After``) and answers with the job's id; the page polls it (optionally waiting a little
for it to end), reads its progress, then its answer. ``cancel`` sets the job's stop signal, so the
solver returns what it has found (kept as the job's answer) and its slot goes to the next job; a
job still waiting in line leaves it at once. A solver that has not returned within
``SETTLE_SECONDS`` (one building a large CP-SAT model, which it cannot leave half-way) gives its
slot on then all the same, and finishes as an orphan of the queue (``jobs.py``), its answer kept
when it comes.

The board is this server's memory: a job lives on the server that took it (behind a load
balancer, route a job's polls to the server that answered its submission), and a finished job is
kept ``keep_seconds`` for its answer and exports, at most ``max_kept`` finished jobs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel

from patchwork_opt.apps.web.jobs import JobQueue
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.stop import StopSignal

JobState = Literal["queued", "running", "done", "cancelled", "failed"]
#: ``work(stop, progress)``: the job's answer, ending early when ``stop`` is set; ``progress(best,
#: bound, phase)`` reports how far it has got (from the worker thread).
Work = Callable[[StopSignal, Callable[[float | None, float, str], None]], BaseModel]

log = logging.getLogger(__name__)
#: How long a cancelled running job's solver has to return before its slot is handed on regardless.
SETTLE_SECONDS = 0.05


class JobNotFoundError(PatchworkError):
    """No job of that id on this server (never made here, forgotten, or kept past its time)."""

    http_status = 404


class NoAnswerError(PatchworkError):
    """An export of a job that has no answer (yet, or at all): the job's state is at fault."""

    exit_code = 1
    http_status = 409


@dataclass(slots=True)
class Progress:
    """How far a running job has got: written by its worker thread, read on the event loop (each
    assignment is one attribute: a reader sees a value that was true at some moment)."""

    best: float | None = None
    bound: float | None = None
    phase: str = ""

    def report(self, best: float | None, bound: float, phase: str) -> None:
        self.best, self.bound, self.phase = best, bound, phase


@dataclass(eq=False, slots=True)
class Job:
    """One submitted job and what is known of it."""

    id: str
    kind: str
    time_limit: float
    request: BaseModel
    stop: StopSignal = field(default_factory=StopSignal)
    progress: Progress = field(default_factory=Progress)
    submitted: float = field(default_factory=time.monotonic)
    started: float | None = None
    finished: float | None = None
    state: JobState = "queued"
    cancelled: bool = False
    result: BaseModel | None = None
    error: str | None = None
    task: asyncio.Task[BaseModel] | None = None
    #: when Cancel was asked, and when the solver returned (its thread's end, on the same clock)
    cancel_at: float | None = None
    returned_at: float | None = None
    #: seconds from Cancel until the job's slot was free (the solver returned, or was left as an orphan)
    freed_after: float | None = None

    @property
    def stopped_after(self) -> float | None:
        """Seconds from Cancel until the solver returned (None: not cancelled while running, or not yet)."""
        if self.cancel_at is None or self.returned_at is None or self.started is None:
            return None
        return max(0.0, self.returned_at - self.cancel_at)

    def run(self, work: Work) -> BaseModel:
        """``work`` in the worker thread; its answer is kept even when the job was given up meanwhile."""
        try:
            self.result = work(self.stop, self.progress.report)
            return self.result
        finally:
            self.returned_at = time.monotonic()

    @property
    def elapsed(self) -> float:
        """Seconds the job has been running (0 while it waits in line)."""
        if self.started is None:
            return 0.0
        return (self.finished or time.monotonic()) - self.started

    def ended(self, task: asyncio.Task[BaseModel]) -> None:
        """The task's end: its answer, or why it has none."""
        self.finished = time.monotonic()
        if task.cancelled():
            self.state = "cancelled"
            return
        error = task.exception()
        if error is None:
            self.state = "cancelled" if self.cancelled else "done"
        elif isinstance(error, PatchworkError):
            self.state, self.error = "failed", str(error)
        else:
            log.error("workshop job %s failed", self.id, exc_info=error)
            self.state, self.error = "failed", f"the solver failed ({type(error).__name__}); this is a server bug"


class JobBoard:
    """The jobs of this server, by id; each runs through ``queue``."""

    def __init__(self, queue: JobQueue, keep_seconds: float = 600.0, max_kept: int = 1000) -> None:
        self.queue = queue
        self.keep_seconds = keep_seconds
        self.max_kept = max_kept
        self._jobs: dict[str, Job] = {}

    def submit(self, client: str, kind: str, request: BaseModel, time_limit: float, work: Work) -> Job:
        """Admit ``work`` for ``client`` now (``BusyError`` when the queue cannot take it) and start it."""
        self._forget_old()
        job = Job(secrets.token_urlsafe(16), kind, time_limit, request)

        def started() -> None:
            job.started, job.state = time.monotonic(), "running"

        job.task = self.queue.start(client, lambda: job.run(work), job.stop, started)
        job.task.add_done_callback(job.ended)
        self._jobs[job.id] = job
        return job

    def get(self, job_id: str) -> Job:
        self._forget_old()
        job = self._jobs.get(job_id)
        if job is None:
            raise JobNotFoundError(
                f"no job {job_id} on this server (a finished job is kept {self.keep_seconds / 60:g} minutes)")
        return job

    async def wait(self, job: Job, seconds: float) -> None:
        """Until the job ends, or ``seconds`` have passed."""
        if job.task is not None and seconds > 0 and not job.task.done():
            await asyncio.wait({job.task}, timeout=seconds)

    async def cancel(self, job_id: str) -> Job:
        """Stop the job (one that has ended is left as it is); answers once its slot is free: a job
        waiting in line leaves it, a running one returns the best it has found, or after
        ``SETTLE_SECONDS`` gives its slot on and finishes as an orphan."""
        job = self.get(job_id)
        task = job.task
        if task is None or task.done():
            return job
        if job.cancel_at is None:  # a second Cancel meanwhile waits for the first's outcome
            job.cancelled, job.cancel_at = True, time.monotonic()
        job.stop.set()
        if job.state == "running":
            await asyncio.wait({task}, timeout=SETTLE_SECONDS)
        if not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        if job.freed_after is None:
            job.freed_after = time.monotonic() - job.cancel_at
        return job

    def _forget_old(self) -> None:
        """Drop finished jobs kept past ``keep_seconds``, and the oldest beyond ``max_kept``."""
        now = time.monotonic()
        done = [job for job in self._jobs.values() if job.finished is not None]
        stale = {job.id for job in done if now - job.finished > self.keep_seconds}  # type: ignore[operator]
        extra = len(done) - len(stale) - self.max_kept
        if extra > 0:
            kept = sorted((job for job in done if job.id not in stale), key=lambda job: job.finished or 0.0)
            stale.update(job.id for job in kept[:extra])
        for job_id in stale:
            del self._jobs[job_id]
