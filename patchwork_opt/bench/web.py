"""``patchwork bench web``: the real server in a subprocess on loopback, under a bounded hint load.

Each client plays its own game as a person with hints would: asks the hint of the position, plays
its best move, waits for the AI's reply (the greedy AI: the load is the hints), asks again. Every
hint is of a position not analysed before, so the figures are the search's, not the cache's.
Figures: hints served per second, p50/p95 of served hints and the answers shed (503/429 with
``Retry-After``) for one client alone (the baseline, same server, same run), then with ``clients``
clients at once for ``seconds`` while one more client keeps reading a game (it must stay fast:
solver work runs off the event loop); then ``clients`` clients asking the hint of a position already
analysed (answered from the analysis cache). Every request must succeed or be shed.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import socket
import sqlite3
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx

from patchwork_opt.ai.bots.greedy import GreedyBot
from patchwork_opt.bench.loadtest import (
    LoadResult,
    Probe,
    Session,
    client_address,
    probe_session,
    run_load,
    run_sessions,
    timed,
)
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.formats.notation import from_notation

#: ``argv_for(port, db_path)``: the command line that serves the app on 127.0.0.1:port.
ServerCommand = Callable[[int, str], Sequence[str]]


class BenchError(PatchworkError):
    exit_code = 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_ready(base_url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 120.0) -> dict[str, Any]:
    """The server's health answer once it answers: ``serve`` answers nothing before it has loaded the
    compiled searches in itself and its analysis workers (seconds; tens of seconds on a loaded machine)."""
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
def _server(argv_for: ServerCommand) -> Iterator[tuple[str, int, dict[str, Any], Path]]:
    """A fresh ``patchwork serve`` on a free loopback port with a games file of its own, for the
    duration: yields (base URL, port, its health answer, the games file); stopped (killed if need
    be) afterwards."""
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="patchwork-bench-") as tmp:
        log = Path(tmp) / "server.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(list(argv_for(port, str(Path(tmp) / "games.db"))), stdout=out, stderr=out)
        try:
            yield base_url, port, _wait_ready(base_url, proc, log), Path(tmp) / "games.db"
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


def _greedy_move(game: dict[str, Any]) -> dict[str, Any]:
    """The greedy move of the position, computed here (setting a game up costs the server nothing)."""
    return GreedyBot().decide(from_notation(game["state"]["position"])).move.to_json()


async def _send(http: httpx.AsyncClient, method: str, path: str, body: dict[str, Any] | None,
                deadline: float, counted: LoadResult | None) -> httpx.Response | None:
    """A request of the players' (counted in ``counted`` when given); a shed answer is asked again."""
    while True:
        if counted is not None:
            response = await timed(http, counted, method, path, body, deadline)
            if response is not None or counted.errors or time.perf_counter() >= deadline:
                return response
            continue
        response = await http.request(method, path, json=body)
        if response.status_code not in (429, 503):
            return response
        await asyncio.sleep(1.0)


async def _move(http: httpx.AsyncClient, game: dict[str, Any], human: dict[str, Any] | None, deadline: float,
                counted: LoadResult | None = None) -> dict[str, Any]:
    """The human's move (``human``, when it is their turn), then the AI's until it is theirs again."""
    url = f"/api/games/{game['id']}"
    while not game["state"]["over"] and (human is not None or game["ai_to_move"]):
        if game["human_to_move"]:
            sent = {"ply": game["ply"], "move": human}
            response = await _send(http, "POST", f"{url}/moves", sent, deadline, counted)
            human = None
        else:
            response = await _send(http, "POST", f"{url}/ai-move", {"ply": game["ply"]}, deadline, counted)
        if response is None or response.status_code != 200:
            if counted is None:
                raise BenchError(f"setting a game up failed: {None if response is None else response.text[:200]}")
            return dict((await http.get(url)).json())  # counted as an error: carry on from the game as it is
        game = response.json()
    return game


async def _new_game(http: httpx.AsyncClient, seed: int, plies: int) -> dict[str, Any]:
    """A game against the greedy AI, played ``plies`` moves in (the human side playing the greedy
    move), so hints are asked of half-covered quilts, as in a real game."""
    created = await http.post("/api/games", json={"seed": seed, "ai": "greedy"})
    if created.status_code != 201:
        raise BenchError(f"cannot create a game: HTTP {created.status_code} {created.text[:200]}")
    game: dict[str, Any] = created.json()
    deadline = time.perf_counter() + 600.0
    while game["ply"] < plies and not game["state"]["over"]:
        game = await _move(http, game, _greedy_move(game) if game["human_to_move"] else None, deadline)
    return game


async def _new_games(base_url: str, count: int, seed: int, plies: int) -> list[dict[str, Any]]:
    """One game per client, each created from that client's own address (its share of new games)."""

    async def one(i: int) -> dict[str, Any]:
        source = client_address(base_url, i)
        transport = httpx.AsyncHTTPTransport(local_address=source) if source else None
        async with httpx.AsyncClient(base_url=base_url, timeout=60.0, transport=transport) as http:
            return await _new_game(http, seed + 1000 * i, plies)

    return list(await asyncio.gather(*(one(i) for i in range(count))))


def hinting_player(game: dict[str, Any], seeds: Iterator[int], pause: float = 0.0) -> Session:
    """A person playing with hints: asks the hint of the position (counted under ``hint``), plays
    its best move and waits for the AI's reply (under ``play``), looks at the board for about
    ``pause`` seconds, and asks again; a new game when one ends. Every hint is of a position not
    analysed before. With no pause each player asks as fast as the server answers: the heaviest load
    a number of players can make, not the pace of people at a board. A pause is drawn each turn
    between half and one and a half times ``pause`` (and the first hint comes after a draw up to
    ``pause``), from a generator seeded by the player's game: people at their own boards do not ask
    in step."""
    rng = random.Random(game["id"])

    async def session(http: httpx.AsyncClient, deadline: float, results: dict[str, LoadResult]) -> None:
        nonlocal game

        async def look(seconds: float) -> None:
            await asyncio.sleep(min(seconds, max(0.0, deadline - time.perf_counter())))

        if pause > 0:
            await look(rng.uniform(0.0, pause))
        while time.perf_counter() < deadline:
            if game["state"]["over"]:
                game = await _new_game(http, next(seeds), 0)
            hint = await timed(http, results["hint"], "GET", f"/api/games/{game['id']}/hint", None, deadline)
            if hint is not None and hint.json()["hints"]:
                game = await _move(http, game, _hint_move(hint.json()["hints"][0]), deadline, results["play"])
            if pause > 0:
                await look(rng.uniform(0.5 * pause, 1.5 * pause))

    return session


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

    def tick(name: str, total: float) -> Callable[[float], None] | None:
        return None if on_phase is None else (lambda done: on_phase(name, done, total))

    with _server(argv_for) as (base_url, _, health, _):
        if "hint" not in health.get("solvers", []):
            raise BenchError("the server has no hint solver")
        *games, spare = asyncio.run(_new_games(base_url, clients + 1, seed, plies))  # spare: read, hinted again
        seeds = itertools.count(seed + 1000 * (clients + 1))
        httpx.get(f"{base_url}/api/games/{spare['id']}/hint", timeout=60.0)  # warm-up, and now cached
        players = [hinting_player(game, seeds) for game in games]  # each keeps its game as it goes on
        alone = asyncio.run(run_sessions(base_url, players[:1], ["hint", "play"], baseline_seconds,
                                         on_tick=tick("baseline", baseline_seconds)))
        read = Probe("GET", f"/api/games/{spare['id']}")
        loaded = asyncio.run(run_sessions(base_url, [*players, probe_session(read, "read")],
                                          ["hint", "play", "read"], seconds, on_tick=tick("load", seconds)))
        cached_seconds = min(5.0, seconds)
        again = Probe("GET", f"/api/games/{spare['id']}/hint")
        cached = asyncio.run(run_load(base_url, {"cached": (again, clients)}, cached_seconds,
                                      on_tick=tick("cached", cached_seconds)))
        analyses = httpx.get(f"{base_url}/api/health", timeout=10.0).json().get("analyses", {})
    return _summary(clients, plies, alone["hint"], loaded, cached["cached"], analyses)


def _summary(clients: int, plies: int, base: LoadResult, loaded: dict[str, LoadResult], cached: LoadResult,
             analyses: dict[str, int]) -> dict[str, Any]:
    under, reads, play = loaded["hint"], loaded["read"], loaded["play"]
    for result in (base, under):
        result.clients = 1 if result is base else clients
    return {
        "clients": clients,
        "plies_before": plies,
        "seconds": round(under.seconds, 1),
        "hints_per_second": round(under.served_per_second, 2),
        "p50_ms": round(under.p50_ms, 1),
        "p95_ms": round(under.p95_ms, 1),
        "shed": under.shed,
        "shed_share": round(under.shed / under.requests, 3) if under.requests else 0.0,
        "baseline": base.summary(),
        "hint": under.summary(),
        "cached": cached.summary(),
        "read_during_load": reads.summary(),
        "play_during_load": play.summary(),
        "errors": base.errors + under.errors + reads.errors + play.errors + cached.errors,
        "analyses": analyses,
        "p50_ratio_vs_alone": round(under.p50_ms / base.p50_ms, 2) if base.p50_ms else None,
        "throughput_ratio_vs_alone": round(under.per_second / base.per_second, 2) if base.per_second else None,
    }


def render_web_bench(result: dict[str, Any], clients: int) -> str:
    """The text of ``patchwork bench web`` (error samples go to stderr separately)."""
    rows = [
        ("hint, 1 client alone", result["baseline"]),
        (f"hint, {clients} clients", result["hint"]),
        (f"hint from the cache, {clients}", result["cached"]),
        ("game reads meanwhile", result["read_during_load"]),
        ("moves, AI replies", result["play_during_load"]),
    ]
    lines = [
        f"{label:<26} p50 {row['p50_ms']:8.1f} ms   p95 {row['p95_ms']:8.1f} ms   "
        f"{row['served_per_second']:6.1f}/s served   {row['requests']} requests, {row['shed']} shed (503/429), "
        f"{row['errors']} errors"
        for label, row in rows
    ]
    made, reused = result["analyses"].get("made", 0), result["analyses"].get("reused", 0)
    lines.append(
        f"hints served {result['hints_per_second']:.1f}/s with {clients} clients (p50 {result['p50_ms']:.0f} ms, "
        f"p95 {result['p95_ms']:.0f} ms), {result['shed']} shed ({result['shed_share']:.0%} of asked); "
        f"analyses made {made}, reused {reused}; {result['errors']} errors"
    )
    lines.append(f"ratios vs alone: p50 {result['p50_ratio_vs_alone']}x, throughput "
                 f"{result['throughput_ratio_vs_alone']}x   ({result['seconds']:g}s on loopback)")
    return "\n".join(lines)


async def _hinted_game(base_url: str, seed: int, level: int) -> dict[str, Any]:
    """A whole game against the solver AI at ``level``, the human side playing the best hint of
    every position it moves in: each position is analysed once, by a hint or by the AI."""
    async with httpx.AsyncClient(base_url=base_url, timeout=120.0) as http:
        created = await http.post("/api/games", json={"seed": seed, "ai": "solver", "level": level})
        if created.status_code != 201:
            raise BenchError(f"cannot create a game: HTTP {created.status_code} {created.text[:200]}")
        game: dict[str, Any] = created.json()
        deadline = time.perf_counter() + 1800.0
        while not game["state"]["over"]:
            human = None
            if game["human_to_move"]:
                hint = (await _send(http, "GET", f"/api/games/{game['id']}/hint", None, deadline, None))
                assert hint is not None
                human = _hint_move(hint.json()["hints"][0])
            game = await _move(http, game, human, deadline)
        return game


def run_review_bench(
    argv_for: ServerCommand, *, seed: int = 0, level: int = 3, repeats: int = 3,
    on_phase: Callable[[str, float, float], None] | None = None,
) -> dict[str, Any]:
    """The review of a finished game whose every position a hint or the AI analysed (the analysis
    cache holds them all), against the same review once the cache is emptied: same server, same
    game, same ``time_per_move`` (the default); medians of ``repeats`` cached reviews."""
    with _server(argv_for) as (base_url, _, _, db):
        if on_phase is not None:
            on_phase("playing a game with hints", 0, 1)
        game = asyncio.run(_hinted_game(base_url, seed, level))
        url = f"{base_url}/api/games/{game['id']}/review"

        def review() -> tuple[float, dict[str, Any]]:
            started = time.perf_counter()
            response = httpx.get(url, timeout=600.0)
            if response.status_code != 200:
                raise BenchError(f"the review failed: HTTP {response.status_code} {response.text[:200]}")
            return time.perf_counter() - started, response.json()

        cached = [review() for _ in range(repeats)]
        with contextlib.closing(sqlite3.connect(db, timeout=30.0)) as conn, conn:
            conn.execute("DELETE FROM analyses")
        if on_phase is not None:
            on_phase("reviewing with an empty cache", 0, 1)
        empty_seconds, empty = review()
    cached_seconds = statistics.median(seconds for seconds, _ in cached)
    agree = sum(a["label"] == b["label"] for a, b in zip(cached[0][1]["plies"], empty["plies"], strict=True))
    return {
        "plies": game["ply"], "level": level, "seconds_per_move": empty["seconds_per_move"],
        "cached_seconds": round(cached_seconds, 3), "empty_cache_seconds": round(empty_seconds, 3),
        "speedup": round(empty_seconds / cached_seconds, 1) if cached_seconds else None,
        "labels_agreeing": round(agree / len(empty["plies"]), 3),
    }


def render_review_bench(result: dict[str, Any]) -> str:
    return (
        f"review of a {result['plies']}-ply game (solver AI level {result['level']}, every human move hinted), "
        f"{result['seconds_per_move']:g} s per position:\n"
        f"  from the analysis cache  {result['cached_seconds']:8.3f} s (median)\n"
        f"  with an empty cache      {result['empty_cache_seconds']:8.3f} s\n"
        f"  speed-up {result['speedup']}x   ({result['labels_agreeing']:.0%} of the labels agree: a sampled "
        f"analysis made again differs a little)"
    )


#: a fill that runs to the server's time cap (points over every patch on an empty quilt)
SLOW_FILL = {"patches": list(range(33)), "objective": "points", "time_limit": 60.0}


def run_fault_bench(argv_for: ServerCommand, *, half_open: int = 200, quitters: int = 10) -> dict[str, Any]:
    """Two faults of issue #14 against a fresh server: a health read while ``half_open``
    connections hold half a header, and a hint right after ``quitters`` slow fills whose clients
    gave up after 0.5 s. Loopback only, every loop bounded."""
    import threading

    result: dict[str, Any] = {}
    with _server(argv_for) as (base_url, port, _, _):
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
