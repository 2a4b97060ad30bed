"""`patchwork serve` as a process: a hard kill loses no answered move; the bounded load test; loopback only."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from cli import app
from patchwork_opt.apps.warmup import GROUPS
from patchwork_opt.apps.web.services import Limits
from patchwork_opt.bench.loadtest import check_loopback, percentile
from patchwork_opt.bench.stream import render_stream_bench
from patchwork_opt.bench.web import free_port
from patchwork_opt.core.errors import PatchworkError

runner = CliRunner()


@contextmanager
def serving(db: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            assert proc.poll() is None, "patchwork serve exited"
            try:
                if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield url, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(10)


def test_a_killed_server_loses_no_answered_move(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with serving(db) as (url, proc):
        game = httpx.post(f"{url}/api/games", json={"seed": 5, "ai": "greedy"}).json()
        for _ in range(3):
            response = httpx.post(f"{url}/api/games/{game['id']}/moves",
                                  json={"ply": game["ply"], "move": {"type": "advance"}})
            assert response.status_code == 200
            game = response.json()
            while game["ai_to_move"]:
                game = httpx.post(f"{url}/api/games/{game['id']}/ai-move", json={"ply": game["ply"]}).json()
        proc.send_signal(signal.SIGKILL)  # no shutdown, no flush: as a crash or a power cut
        proc.wait(10)
    with serving(db) as (url, _):
        again = httpx.get(f"{url}/api/games/{game['id']}").json()
        assert again["ply"] == game["ply"] and again["state"] == game["state"]
        assert again["moves"] == game["moves"]


def test_serve_says_it_is_ready_once_its_analysis_workers_have_loaded_the_searches(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "patchwork_opt.apps.warmup", *GROUPS], check=True)  # a warm cache
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port), "--db", str(tmp_path / "g.db")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        said = []
        for line in proc.stderr:
            said.append(line)
            if line.startswith("serving on"):
                break
        assert said and said[-1].startswith("serving on"), said
        health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5).json()  # the first request after it
        workers = Limits().analysis_processes
        assert health["streams"]["ready_workers"] == workers  # none loading any more: the first stream is fast
        assert [line for line in said[:-1] if line.startswith("compiled searches loaded in")
                and f"(this process and {workers} analysis workers)" in line], said
    finally:
        proc.terminate()
        proc.wait(10)


def test_loadtests_only_target_loopback() -> None:
    for url in ("http://127.0.0.1:8000", "http://localhost:1", "http://[::1]:80", "http://127.3.4.5"):
        check_loopback(url)
    for url in ("http://10.0.0.1:8000", "http://192.168.1.2", "http://example.com", "http://8.8.8.8"):
        with pytest.raises(PatchworkError, match="loopback"):
            check_loopback(url)


def test_percentiles() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == pytest.approx(50.5)
    assert 95 <= percentile(values, 95) <= 96
    assert percentile([], 50) == 0.0 and percentile([7.0], 95) == 7.0


@pytest.mark.slow
def test_bench_web_reports_latency_and_no_errors() -> None:
    result = runner.invoke(app, ["bench", "web", "--clients", "4", "--seconds", "2", "--baseline-seconds", "1",
                                 "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["errors"] == 0 and data["clients"] == 4
    assert data["hint"]["requests"] > 0 and data["read_during_load"]["requests"] > 0
    assert 0 < data["hint"]["p50_ms"] <= data["hint"]["p95_ms"]
    assert data["hints_per_second"] > 0 and 0 <= data["shed_share"] <= 1
    assert data["hint"]["served"] + data["hint"]["shed"] == data["hint"]["requests"]
    assert data["play_during_load"]["requests"] > 0  # the clients played the hinted moves
    # the hints of the load are of new positions; the cached phase reuses one analysis many times
    assert data["analyses"]["made"] >= data["hint"]["served"] and data["analyses"]["reused"] >= data["cached"]["served"]


@pytest.mark.slow
def test_bench_stream_reports_the_stream_and_the_hints_beside_it() -> None:
    result = runner.invoke(app, ["bench", "stream", "--streams", "1", "--players", "2", "--seconds", "2",
                                 "--samples", "1", "--pause", "0.5", "--fresh", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["pause"] == 0.5 and data["players"] == 2 and data["streams"] == 1
    fresh = data["fresh"]  # two servers, each timed from its start: readiness, then its first stream's first event
    assert fresh["servers"] == 2 and fresh["first_event"]["count"] == 2 and len(fresh["ready_s"]) == 2
    assert all(seconds > 0 for seconds in fresh["ready_s"]) and fresh["first_event"]["median_ms"] > 0
    assert len(fresh["ready_workers"]) == 2 and len(fresh["load_averages"]) == 2
    assert "first event on a fresh server (2 servers" in render_stream_bench(data)
    assert data["first_event"]["count"] == 1 and data["dropped_freed"]["count"] == 1
    for phase in ("alone", "with_streams", "alone_again"):
        hints = data["hints"][phase]
        assert hints["hints"]["served"] > 0 and 0 < hints["hint_p50_ms"] <= hints["hint_p95_ms"]
    assert data["hints"]["with_streams"]["streams_opened"] >= 1
    assert data["late"]["proven_line_shown"]  # a position past space 44 shows a proven line
    refused = runner.invoke(app, ["bench", "stream", "--pause", "-1"])
    assert refused.exit_code == 2 and "--pause" in refused.output
