"""``patchwork bench stream``: the live analysis stream of a real server (``GET /api/analysis/stream``).

A fresh ``patchwork serve`` in a subprocess on loopback, its default limits. First, ``fresh`` servers
started one after another, each stopped after one stream: the seconds from its start until it says
it is ready (``/api/health`` answers: ``serve`` takes no request before its start-up is done, the
compiled searches loaded in it and in its analysis workers when cached), the analysis workers it
reports ready then, and its first stream's first event (a midgame position, the first request after
the readiness check). Then on one more server, after one stream (not timed), the figures:

- the first event's latency (from the request sent to the first ``data`` line read) and the
  events' spacing, over ``samples`` streams of midgame positions run one at a time;
- how soon a dropped stream frees its worker: the client reads the first event and closes the
  connection; the time until ``/api/health`` counts one analysis fewer (polled every 5 ms);
- hints while streams run: ``players`` clients play their games with hints (each hint of a
  position not analysed before, as ``bench web`` plays them) for ``seconds`` alone, then with
  ``streams`` streams running at once from clients of their own (each opening the next when one
  ends), then alone again: the hints' p50 and p95 in each run, and the events' spacing under load;
- a late position (both tokens past space 44): whether the stream shows a proven line, and when.

The machine's load average (1 minute) is read before each part: the figures mean little on a busy
machine, and the lead re-measures on a quiet one.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from patchwork_opt.bench.exact import cut_position
from patchwork_opt.bench.loadtest import LoadResult, client_address, percentile, run_sessions
from patchwork_opt.bench.web import BenchError, ServerCommand, _new_games, _server, hinting_player
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.formats.notation import to_notation

STREAM = "/api/analysis/stream"
#: where the midgame positions are cut (both tokens past it), and the late one (past 44)
MIDGAME_SPACES = (8, 14, 20, 26, 32)
LATE_SPACE = 45
POLL_SECONDS = 0.005


@dataclass(slots=True)
class StreamRun:
    """One stream as its client saw it: when each event came (seconds after the request), the last
    event's data, and when the client closed it."""

    status: int = 0
    times: list[float] = field(default_factory=list)
    last: dict[str, Any] | None = None
    first_proven: float | None = None
    closed_at: float = 0.0

    @property
    def gaps(self) -> list[float]:
        return [b - a for a, b in itertools.pairwise(self.times)]


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


def _spread(values: list[float]) -> dict[str, float | int]:
    """Median, p95 and max in milliseconds."""
    if not values:
        return {"count": 0}
    return {"count": len(values), "median_ms": round(1000 * statistics.median(values), 1),
            "p95_ms": round(1000 * percentile(values, 95), 1), "max_ms": round(1000 * max(values), 1)}


async def read_stream(http: httpx.AsyncClient, position: str, *, drop_after: int | None = None,
                      until: float | None = None) -> StreamRun:
    """Read a stream of ``position`` to its end, or close it after ``drop_after`` events (or at the
    ``until`` perf-counter time)."""
    run = StreamRun()
    started = time.perf_counter()
    async with http.stream("GET", STREAM, params={"position": position}) as response:
        run.status = response.status_code
        if response.status_code == 200:
            async for line in response.aiter_lines():
                if not line.startswith("data: "):
                    continue
                run.times.append(time.perf_counter() - started)
                run.last = json.loads(line[len("data: "):])
                if run.first_proven is None and any(x["outcome_proven"] for x in run.last["lines"]):
                    run.first_proven = run.times[-1]
                if (drop_after is not None and len(run.times) >= drop_after) or (
                        until is not None and time.perf_counter() >= until):
                    break
        else:
            await response.aread()
    run.closed_at = time.perf_counter()
    return run


async def _running(http: httpx.AsyncClient) -> int:
    return int((await http.get("/api/health")).json()["streams"]["running"])


async def _latency_and_drops(base_url: str, positions: list[str], samples: int) -> dict[str, Any]:
    """Streams one at a time: the first event's latency and the spacing (each read to its end, at
    most 4 s), then dropped streams and the time their worker took to be freed."""
    async with httpx.AsyncClient(base_url=base_url, timeout=120.0) as http:
        firsts, gaps, freed = [], [], []
        for i in range(samples):
            run = await read_stream(http, positions[i % len(positions)], until=time.perf_counter() + 4.0)
            if run.status != 200 or not run.times:
                raise BenchError(f"a stream answered HTTP {run.status}")
            firsts.append(run.times[0])
            gaps += run.gaps
        for i in range(samples):
            run = await read_stream(http, positions[i % len(positions)], drop_after=1)
            while await _running(http) and time.perf_counter() - run.closed_at < 10.0:
                await asyncio.sleep(POLL_SECONDS)
            freed.append(time.perf_counter() - run.closed_at)
    return {"first_event": _spread(firsts), "spacing": _spread(gaps), "dropped_freed": _spread(freed),
            "dropped_freed_within_200ms": sum(1 for f in freed if f <= 0.2)}


def _streaming_client(positions: list[str], runs: list[StreamRun]) -> Callable[..., Any]:
    """A client keeping one stream open until the deadline (the next when one ends)."""

    async def session(http: httpx.AsyncClient, deadline: float, results: dict[str, LoadResult]) -> None:
        for position in itertools.cycle(positions):
            if time.perf_counter() >= deadline:
                return
            run = await read_stream(http, position, until=deadline)
            runs.append(run)
            results["stream"].requests += 1
            if run.status != 200:
                results["stream"].shed += 1
                await asyncio.sleep(1.0)

    return session


def _hints_under_streams(base_url: str, positions: list[str], *, players: int, streams: int, seconds: float,
                         pause: float, seed: int, tick: Callable[[str, float], Callable[[float], None] | None],
                         ) -> dict[str, Any]:
    games = asyncio.run(_new_games(base_url, players, seed, 16))
    seeds = itertools.count(seed + 1000 * (players + 1))
    hinting = [hinting_player(game, seeds, pause) for game in games]
    out: dict[str, Any] = {}
    for name, with_streams in (("alone", False), ("with_streams", True), ("alone_again", False)):
        runs: list[StreamRun] = []
        extra = [_streaming_client(positions[i::streams] or positions, runs) for i in range(streams)] if with_streams \
            else []
        load = load_average()
        found = asyncio.run(run_sessions(base_url, [*hinting, *extra], ["hint", "play", "stream"], seconds,
                                         timeout=120.0, on_tick=tick(name, seconds)))
        hint = found["hint"]
        out[name] = {"load_average": load, "hints": hint.summary(), "hint_p95_ms": round(hint.p95_ms, 1),
                     "hint_p50_ms": round(hint.p50_ms, 1)}
        if with_streams:
            out[name]["streams_opened"] = found["stream"].requests
            out[name]["streams_refused"] = found["stream"].shed
            out[name]["stream_spacing"] = _spread([g for run in runs for g in run.gaps])
            out[name]["stream_first_event"] = _spread([run.times[0] for run in runs if run.times])
    return out


async def _late(base_url: str, seed: int) -> dict[str, Any]:
    state = cut_position(seed, LATE_SPACE)
    async with httpx.AsyncClient(base_url=base_url, timeout=120.0) as http:
        run = await read_stream(http, to_notation(state))
    last = run.last or {}
    top = (last.get("lines") or [{}])[0]
    return {"position": to_notation(state), "spaces": list(state.pos), "events": len(run.times),
            "first_proven_line_s": None if run.first_proven is None else round(run.first_proven, 3),
            "end": last.get("end"), "search": last.get("search"), "top_line": top.get("words"),
            "top_outcome": top.get("outcome"), "proven_line_shown": run.first_proven is not None}


def _fresh_servers(argv_for: ServerCommand, positions: list[str], count: int,
                   tick: Callable[[float], None] | None) -> dict[str, Any]:
    """``count`` servers started one after another: each one's seconds to readiness, its analysis
    workers ready then, and its first stream's first event."""
    ready, workers, firsts, loads = [], [], [], []
    if tick is not None:
        tick(0)
    for i in range(count):
        loads.append(load_average())
        started = time.perf_counter()
        with _server(argv_for) as (base_url, _, health, _):
            ready.append(time.perf_counter() - started)
            workers.append(int(health.get("streams", {}).get("ready_workers", 0)))
            firsts.append(asyncio.run(_first_event(base_url, positions[i % len(positions)])))
        if tick is not None:
            tick(i + 1)
    return {"servers": count, "load_averages": loads, "ready_s": [round(r, 2) for r in ready],
            "ready_workers": workers, "first_event": _spread(firsts)}


async def _first_event(base_url: str, position: str) -> float:
    """Seconds from a stream's request to its first event."""
    async with httpx.AsyncClient(base_url=base_url, timeout=120.0) as http:
        run = await read_stream(http, position, drop_after=1)
    if run.status != 200 or not run.times:
        raise BenchError(f"a fresh server's first stream answered HTTP {run.status}")
    return run.times[0]


def run_stream_bench(argv_for: ServerCommand, *, streams: int = 8, players: int = 12, seconds: float = 30.0,
                     samples: int = 10, pause: float = 0.0, seed: int = 0, fresh: int = 3,
                     on_phase: Callable[[str, float, float], None] | None = None) -> dict[str, Any]:
    """Start the servers, measure, stop them; raises BenchError if one cannot stream."""
    if not 1 <= streams <= 64 or not 0 <= players <= 200 or not 1 <= samples <= 200 or not 1 <= fresh <= 20:
        raise PatchworkError("streams must be 1..64, players 0..200, samples 1..200, fresh 1..20")
    if not 0 < seconds <= 600:
        raise PatchworkError("seconds must be in (0, 600]")
    if not 0 <= pause <= 600:
        raise PatchworkError("pause must be in [0, 600] seconds")

    def tick(name: str, total: float) -> Callable[[float], None] | None:
        return None if on_phase is None else (lambda done: on_phase(name, done, total))

    positions = [to_notation(cut_position(seed + i, space)) for i in range(4) for space in MIDGAME_SPACES]
    started = _fresh_servers(argv_for, positions, fresh, tick("fresh servers", fresh))
    with _server(argv_for) as (base_url, _, _, _):
        asyncio.run(_warm(base_url, positions[0]))
        result: dict[str, Any] = {"load_average_before": load_average(), "streams": streams, "players": players,
                                  "pause": pause, "seconds": seconds, "samples": samples, "fresh": started}
        result.update(asyncio.run(_latency_and_drops(base_url, positions, samples)))
        result["late"] = asyncio.run(_late(base_url, seed))
        result["hints"] = _hints_under_streams(base_url, positions, players=players, streams=streams,
                                               seconds=seconds, pause=pause, seed=seed, tick=tick)
    return result


async def _warm(base_url: str, position: str) -> None:
    """One stream to start the workers (they load the compiled searches): not timed."""
    address = client_address(base_url, 250)
    transport = httpx.AsyncHTTPTransport(local_address=address) if address else None
    async with httpx.AsyncClient(base_url=base_url, timeout=600.0, transport=transport) as http:
        run = await read_stream(http, position, drop_after=2)
        if run.status != 200:
            raise BenchError(f"the server does not stream (HTTP {run.status})")
        while await _running(http):
            await asyncio.sleep(POLL_SECONDS)


def render_stream_bench(result: dict[str, Any]) -> str:
    """The text of ``patchwork bench stream``."""

    def ms(spread: dict[str, Any]) -> str:
        if not spread.get("count"):
            return "none"
        return f"median {spread['median_ms']:.0f} ms, p95 {spread['p95_ms']:.0f} ms, max {spread['max_ms']:.0f} ms"

    hints, late, fresh = result["hints"], result["late"], result["fresh"]
    ready = ", ".join(f"{r:g}" for r in fresh["ready_s"])
    workers = ", ".join(str(w) for w in fresh["ready_workers"])
    lines = [
        f"first event on a fresh server ({fresh['servers']} servers, each ready after {ready} s with "
        f"{workers} analysis workers loaded; load {', '.join(f'{x:g}' for x in fresh['load_averages'])}): "
        f"{ms(fresh['first_event'])}",
        f"load average before: {result['load_average_before']}",
        f"first event ({result['samples']} streams): {ms(result['first_event'])}",
        f"events' spacing: {ms(result['spacing'])}",
        f"dropped stream, worker freed after: {ms(result['dropped_freed'])} "
        f"({result['dropped_freed_within_200ms']}/{result['samples']} within 200 ms)",
    ]
    for name in ("alone", "with_streams", "alone_again"):
        run = hints[name]
        paced = f" ({result['pause']:g} s between)" if result.get("pause") else ""
        label = f"{result['players']} players' hints{paced}" + (
            f" + {result['streams']} streams" if name == "with_streams" else f" ({name.replace('_', ' ')})")
        lines.append(f"{label}: p50 {run['hint_p50_ms']:.0f} ms, p95 {run['hint_p95_ms']:.0f} ms, "
                     f"{run['hints']['served']} served, {run['hints']['shed']} shed (load {run['load_average']})")
    under = hints["with_streams"]
    lines.append(f"streams under that load: {under['streams_opened']} opened, {under['streams_refused']} refused; "
                 f"spacing {ms(under['stream_spacing'])}")
    shown = f"shown after {late['first_proven_line_s']} s" if late["proven_line_shown"] else "NOT shown"
    lines.append(f"late position (tokens on {late['spaces']}): proven line {shown}, ends {late['end']} "
                 f"({late['search']}): {late['top_line']}: {late['top_outcome']}")
    return "\n".join(lines)
