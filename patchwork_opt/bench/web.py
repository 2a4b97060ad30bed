"""``patchwork bench web``: the real server in a subprocess on loopback, under a bounded hint load.

Figures: hint latency for one client alone (the baseline, same server, same run), then p50/p95
with ``clients`` clients asking at once for ``seconds``, while one more client keeps reading the
game (it must stay fast: solver work runs off the event loop). Every request must succeed.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx

from patchwork_opt.bench.loadtest import Probe, run_load
from patchwork_opt.core.errors import PatchworkError

#: ``argv_for(port, db_path)``: the command line that serves the app on 127.0.0.1:port.
ServerCommand = Callable[[int, str], Sequence[str]]


class BenchError(PatchworkError):
    exit_code = 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_ready(base_url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise BenchError(f"the server exited with code {proc.returncode}: {log.read_text()[-500:]}")
        try:
            response = httpx.get(f"{base_url}/api/health", timeout=2.0)
            if response.status_code == 200:
                health: dict[str, Any] = response.json()
                return health
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise BenchError(f"the server did not answer within {timeout:g}s")


@contextlib.contextmanager
def _server(argv_for: ServerCommand) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """A fresh ``patchwork serve`` on a free loopback port with a games file of its own, for the
    duration: yields (base URL, port, its health answer); stopped (killed if need be) afterwards."""
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="patchwork-bench-") as tmp:
        log = Path(tmp) / "server.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(list(argv_for(port, str(Path(tmp) / "games.db"))), stdout=out, stderr=out)
        try:
            yield base_url, port, _wait_ready(base_url, proc, log)
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


def _hint_move(hint: dict[str, Any]) -> dict[str, Any]:
    """The best hint as a move object of RULES.md."""
    if hint["type"] == "advance":
        return {"type": "advance"}
    if hint["type"] == "leather":
        return {"type": "leather", "cell": hint["cells"][0]}
    return {"type": "buy", "patch": hint["patch"], "cells": hint["cells"]}


def _play_into_midgame(base_url: str, game: dict[str, Any], plies: int) -> None:
    """Play ``plies`` moves (the human side follows the hints, the AI answers) so hints are asked
    on a half-covered quilt, as in a real game, not on the empty opening quilt."""
    with httpx.Client(base_url=base_url, timeout=60.0) as http:
        while game["ply"] < plies and not game["state"]["over"]:
            gid, ply = game["id"], game["ply"]
            if game["human_to_move"]:
                best = http.get(f"/api/games/{gid}/hint").json()["hints"][0]
                response = http.post(f"/api/games/{gid}/moves", json={"ply": ply, "move": _hint_move(best)})
            else:
                response = http.post(f"/api/games/{gid}/ai-move", json={"ply": ply})
            if response.status_code != 200:
                raise BenchError(f"setting up the game failed: HTTP {response.status_code} {response.text[:200]}")
            game = response.json()


def run_web_bench(
    argv_for: ServerCommand,
    *,
    clients: int = 20,
    seconds: float = 30.0,
    baseline_seconds: float = 5.0,
    seed: int = 0,
    plies: int = 16,
    on_phase: Callable[[str, float, float], None] | None = None,
) -> dict[str, Any]:
    """Start the server, measure, stop it; raises BenchError if it cannot serve hints."""
    if not 1 <= clients <= 200:
        raise PatchworkError(f"clients must be 1..200, got {clients}")
    if not 0 < seconds <= 600 or not 0 < baseline_seconds <= 600:
        raise PatchworkError("seconds must be in (0, 600]")
    with _server(argv_for) as (base_url, _, health):
        if "hint" not in health.get("solvers", []):
            raise BenchError("the server has no hint solver")
        created = httpx.post(f"{base_url}/api/games", json={"seed": seed, "ai": "greedy"}, timeout=30.0)
        if created.status_code != 201:
            raise BenchError(f"cannot create a game: HTTP {created.status_code} {created.text[:200]}")
        game_id = created.json()["id"]
        _play_into_midgame(base_url, created.json(), plies)
        hint = Probe("GET", f"/api/games/{game_id}/hint")
        read = Probe("GET", f"/api/games/{game_id}")

        def phase(name: str) -> Callable[[float], None] | None:
            if on_phase is None:
                return None
            total = baseline_seconds if name == "baseline" else seconds
            return lambda done: on_phase(name, done, total)

        httpx.get(f"{base_url}{hint.path}", timeout=60.0)  # warm-up: imports, first CP-SAT model
        alone = asyncio.run(run_load(base_url, {"hint": (hint, 1)}, baseline_seconds, on_tick=phase("baseline")))
        loaded = asyncio.run(
            run_load(base_url, {"hint": (hint, clients), "read": (read, 1)}, seconds, on_tick=phase("load"))
        )
    base, under, reads = alone["hint"], loaded["hint"], loaded["read"]
    return {
        "clients": clients,
        "plies_before": plies,
        "seconds": round(under.seconds, 1),
        "baseline": base.summary(),
        "hint": under.summary(),
        "read_during_load": reads.summary(),
        "errors": base.errors + under.errors + reads.errors,
        "p50_ratio_vs_alone": round(under.p50_ms / base.p50_ms, 2) if base.p50_ms else None,
        "throughput_ratio_vs_alone": round(under.per_second / base.per_second, 2) if base.per_second else None,
    }


def render_web_bench(result: dict[str, Any], clients: int) -> str:
    """The text of ``patchwork bench web`` (error samples go to stderr separately)."""
    base, hint, read = result["baseline"], result["hint"], result["read_during_load"]
    rows = [("hint, 1 client alone", base), (f"hint, {clients} clients", hint), ("game reads meanwhile", read)]
    lines = [
        f"{label:<22} p50 {row['p50_ms']:8.1f} ms   p95 {row['p95_ms']:8.1f} ms   "
        f"{row['per_second']:6.1f}/s   {row['requests']} requests, {row['shed']} shed (503/429), "
        f"{row['errors']} errors"
        for label, row in rows
    ]
    lines.append(f"ratios vs alone: p50 {result['p50_ratio_vs_alone']}x, throughput "
                 f"{result['throughput_ratio_vs_alone']}x   ({result['seconds']:g}s on loopback)")
    return "\n".join(lines)


#: a fill that runs to the server's time cap (points over every patch on an empty quilt)
SLOW_FILL = {"patches": list(range(33)), "objective": "points", "time_limit": 60.0}


def run_fault_bench(argv_for: ServerCommand, *, half_open: int = 200, quitters: int = 10) -> dict[str, Any]:
    """Two faults of issue #14 against a fresh server: a health read while ``half_open``
    connections hold half a header, and a hint right after ``quitters`` slow fills whose clients
    gave up after 0.5 s. Loopback only, every loop bounded."""
    import threading

    result: dict[str, Any] = {}
    with _server(argv_for) as (base_url, port, _):
        game = httpx.post(f"{base_url}/api/games", json={"seed": 0, "ai": "greedy"}, timeout=30.0).json()
        hint_url = f"{base_url}/api/games/{game['id']}/hint"
        httpx.get(hint_url, timeout=60.0)  # warm-up
        started = time.perf_counter()
        httpx.get(hint_url, timeout=60.0)
        result["hint_idle_ms"] = round((time.perf_counter() - started) * 1000, 1)
        held = []
        try:
            for _ in range(half_open):
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ")
                held.append(s)
            started = time.perf_counter()
            status: int | str
            try:
                status = httpx.get(f"{base_url}/api/health", timeout=10.0).status_code
            except httpx.HTTPError as exc:
                status = type(exc).__name__
            result["health_with_half_open"] = {
                "status": status, "ms": round((time.perf_counter() - started) * 1000, 1)
            }
        finally:
            for s in held:
                s.close()

        def give_up(source: str) -> None:
            """One of ``quitters`` clients, each from its own loopback address."""
            transport = httpx.HTTPTransport(local_address=source)
            with contextlib.suppress(httpx.HTTPError), httpx.Client(transport=transport) as client:
                client.post(f"{base_url}/api/fill", json=SLOW_FILL, timeout=0.5)

        threads = [threading.Thread(target=give_up, args=(f"127.0.0.{2 + i}",)) for i in range(quitters)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        time.sleep(0.3)
        started = time.perf_counter()
        response = httpx.get(hint_url, timeout=120.0)
        result["hint_after_abandoned_fills"] = {
            "status": response.status_code, "ms": round((time.perf_counter() - started) * 1000, 1)
        }
    return result


def render_fault_bench(result: dict[str, Any]) -> str:
    """The text of ``patchwork bench web --faults``."""
    health, after = result["health_with_half_open"], result["hint_after_abandoned_fills"]
    return "\n".join([
        f"game hint, idle server                      {result['hint_idle_ms']:9.1f} ms",
        f"health while 200 connections hold half a header: HTTP {health['status']} in {health['ms']:.1f} ms",
        f"game hint right after 10 abandoned slow fills:   HTTP {after['status']} in {after['ms']:.1f} ms",
    ])
