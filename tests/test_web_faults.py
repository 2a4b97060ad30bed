"""The service under slow clients and abandoned work, on loopback with a real uvicorn: a new client
is served while 200 connections hold half a request; a client that gives up frees its slot."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import BaseModel

from patchwork_opt.ai.base import Bot
from patchwork_opt.ai.bots.registry import make_bot
from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.server import ServeError, bind, make_server
from patchwork_opt.apps.web.services import AnalysisOf, Limits, PositionAnalysis, Services, SolverEndpoint
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.stop import StopSignal


class SleepRequest(BaseModel):
    seconds: float


class SleepResult(BaseModel):
    slept: float


def services(started: list[float]) -> Services:
    """A "solver" that blocks its worker thread as a slow CP-SAT solve does (it cannot be interrupted)."""

    def run(request: BaseModel, deadline: Deadline, stop: StopSignal, analysis: PositionAnalysis) -> SleepResult:
        assert isinstance(request, SleepRequest)
        started.append(time.monotonic())
        seconds = min(request.seconds, deadline.remaining())
        time.sleep(seconds)
        return SleepResult(slept=seconds)

    def run_stoppable(
        request: BaseModel, deadline: Deadline, stop: StopSignal, analysis: PositionAnalysis
    ) -> SleepResult:
        """Sleeps as a solver searches, until its time is up or it is told to stop."""
        assert isinstance(request, SleepRequest)
        begun = time.monotonic()
        woken = threading.Event()
        stop.attach(woken.set)
        woken.wait(min(request.seconds, deadline.remaining()))
        return SleepResult(slept=time.monotonic() - begun)

    def factory(name: str, level: int, seed: int, cap: float, analysis_of: AnalysisOf) -> Bot:
        return make_bot(name, level=level, seed=seed, time_per_move=0.02)

    return Services(
        solvers={
            "sleep": SolverEndpoint(SleepRequest, SleepResult, run, "sleeps"),
            "search": SolverEndpoint(SleepRequest, SleepResult, run_stoppable, "sleeps until stopped"),
        },
        make_bot=factory, ai_names=("greedy",), default_ai="greedy",
    )


@contextmanager
def serving(app: Any, read_timeout: float = 10.0) -> Iterator[str]:
    """The app under uvicorn on 127.0.0.1 in a thread, as ``patchwork serve`` runs it."""
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = make_server(app, read_timeout=read_timeout)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            if server.started:
                break
            time.sleep(0.05)
        assert server.started
        yield url
    finally:
        server.should_exit = True
        thread.join(15)
        sock.close()


def test_a_new_client_is_served_while_200_connections_hold_half_a_header(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.db", services([]))
    with serving(app, read_timeout=2.0) as url:
        port = int(url.rsplit(":", 1)[1])
        slow = []
        try:
            for _ in range(200):
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ")
                slow.append(s)
            started = time.monotonic()
            response = httpx.get(f"{url}/api/health", timeout=5)
            assert response.status_code == 200
            assert time.monotonic() - started < 1.0
            # and the slow ones are cut off once the read timeout passes
            slow[0].settimeout(5)
            assert slow[0].recv(100) == b""
        finally:
            for s in slow:
                s.close()


def test_an_abandoned_job_does_not_delay_the_next_caller(tmp_path: Path) -> None:
    started: list[float] = []
    limits = Limits(max_solver_seconds=3.0, solver_workers=2, client_jobs=20, max_queued=20, client_running=2)
    app = create_app(tmp_path / "g.db", services(started), limits)
    with serving(app) as url:

        def give_up() -> None:
            with pytest.raises(httpx.TimeoutException):
                httpx.post(f"{url}/api/sleep", json={"seconds": 3.0}, timeout=0.5)

        quitters = [threading.Thread(target=give_up) for _ in range(10)]
        for t in quitters:
            t.start()
        for t in quitters:
            t.join(10)
        time.sleep(0.5)  # the server notices the disconnects
        begun = time.monotonic()
        response = httpx.post(f"{url}/api/sleep", json={"seconds": 0.05}, timeout=10)
        assert response.status_code == 200, response.text
        assert time.monotonic() - begun < 1.0  # not behind ten 3 s jobs (or even one)
        stats = app.state.jobs.stats
        assert stats.queued == 0 and stats.running == 0


def test_running_work_is_told_to_stop_when_its_client_goes_away(tmp_path: Path) -> None:
    limits = Limits(max_solver_seconds=20.0, solver_workers=2, client_jobs=20, max_queued=20, client_running=2)
    app = create_app(tmp_path / "g.db", services([]), limits)
    with serving(app) as url:
        with pytest.raises(httpx.TimeoutException):
            httpx.post(f"{url}/api/search", json={"seconds": 20.0}, timeout=0.5)
        deadline = time.monotonic() + 5.0
        while app.state.jobs.stats.running and time.monotonic() < deadline:
            time.sleep(0.05)  # the server notices the disconnect
        assert app.state.jobs.stats.running == 0
        while app.state.jobs.stats.orphans and time.monotonic() < deadline:
            time.sleep(0.05)
        # the abandoned 20 s search stopped within moments: no orphan thread left running
        assert app.state.jobs.stats.orphans == 0


def test_a_full_queue_answers_503_with_retry_after_and_one_client_cannot_take_every_slot(tmp_path: Path) -> None:
    started: list[float] = []
    limits = Limits(max_solver_seconds=2.0, solver_workers=2, max_queued=1, client_jobs=2)
    app = create_app(tmp_path / "g.db", services(started), limits)
    with serving(app) as url:
        results: list[httpx.Response] = []

        def ask() -> None:
            results.append(httpx.post(f"{url}/api/sleep", json={"seconds": 1.0}, timeout=10))

        first = [threading.Thread(target=ask) for _ in range(2)]
        for t in first:
            t.start()
        time.sleep(0.3)
        # one client, one running slot of the two: its second job waits; a third is refused (429)
        third = httpx.post(f"{url}/api/sleep", json={"seconds": 1.0}, timeout=10)
        assert third.status_code == 429 and int(third.headers["Retry-After"]) >= 1
        assert len(started) == 1
        for t in first:
            t.join(10)
        assert [r.status_code for r in results] == [200, 200]


def test_a_busy_port_is_one_error_line(tmp_path: Path) -> None:
    taken = bind("127.0.0.1", 0)
    try:
        with pytest.raises(ServeError, match="already in use"):
            bind("127.0.0.1", taken.getsockname()[1])
    finally:
        taken.close()
