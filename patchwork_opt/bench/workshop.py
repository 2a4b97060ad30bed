"""``patchwork bench workshop``: the workshop's API on a real server, as the page uses it.

A fresh ``patchwork serve`` on a free loopback port (``bench web``'s), warmed up first (its compiled
searches loaded, the first CP-SAT model built), then three figures, each beside a baseline run in
this process on the same inputs:

- **best placements**: ``POST /api/workshop/placements`` on ``bench hint``'s random mid-game
  requests (a quilt 25-55% covered, a patch, 3-6 next patches), one at a time as a page asks:
  p50/p95/max of the round trip, against ``hint_for`` on the same request in this process (the
  solver's own time). Target: p95 at most 0.5 s.
- **fills**: the instances of ``bench solvers`` (same seed: the same quilts and patches), each
  submitted as a job (``POST /api/workshop/fills``, asking ``bench solvers``' 10 s, which the server
  cuts to its cap, 5 s by default) and awaited with long polls: median of submit to answer, how many
  proven optimal, against ``optimal_fill`` in this process with the same limit. Target: median at
  most 2 s, every one proven.
- **cancel**: a slow fill (every patch, points, on an empty quilt: it runs to the server's cap)
  running, a second one of the same client waiting behind it (one client runs one job at a time
  while the slots are two), cancelled at a spread of moments into the solve: how long Cancel takes
  to answer, how long until the waiting job is running (the worker freed), and how long until the
  cancelled solver returned (``stopped_after``). Target: the worker freed within 0.2 s.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import httpx

from patchwork_opt.apps.hints import hint_for
from patchwork_opt.apps.web.services import Limits
from patchwork_opt.bench.fill import bench_instances
from patchwork_opt.bench.hint import random_midgame
from patchwork_opt.bench.loadtest import percentile
from patchwork_opt.bench.web import SLOW_FILL, BenchError, ServerCommand, _server
from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.quilt import Quilt
from patchwork_opt.formats.inputs import LoadedInput
from solvers.fill import optimal_fill
from solvers.model import SolverConfig

Progress = Callable[[str, float, float], None]
#: Seconds into the slow fill at which Cancel is pressed, in turn.
CANCEL_DELAYS = (0.05, 0.3, 0.8, 1.5, 3.0)
#: The fills' time limit asked for (``bench solvers``' default), and what the server (``patchwork serve``'s
#: defaults) cuts it to: the in-process baseline gets the same.
FILL_SECONDS = 10.0
SERVED_SECONDS = min(FILL_SECONDS, Limits().max_solver_seconds)
PLACEMENT_TOP = 5


def _ms(values: list[float]) -> dict[str, float]:
    if not values:
        return {"p50_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0}
    return {"p50_ms": round(statistics.median(values) * 1000, 1), "p95_ms": round(percentile(values, 95) * 1000, 1),
            "max_ms": round(max(values) * 1000, 1)}


def _finished(http: httpx.Client, job: dict[str, Any], limit: float = 120.0) -> dict[str, Any]:
    """The job once it has ended, by long polls."""
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline:
        view: dict[str, Any] = http.get(job["links"]["self"], params={"wait": 5}).json()
        if view["state"] not in ("queued", "running"):
            return view
    raise BenchError(f"job {job['id']} did not end within {limit:g} s")


def _submit(http: httpx.Client, route: str, body: dict[str, Any]) -> dict[str, Any]:
    response = http.post(f"/api/workshop/{route}", json=body)
    if response.status_code != 202:
        raise BenchError(f"{route}: HTTP {response.status_code} {response.text[:200]}")
    job: dict[str, Any] = response.json()
    return job


def _warm_up(http: httpx.Client) -> None:
    """Untimed: the compiled searches loaded (or compiled) on the server, CP-SAT's first model built."""
    placed = http.post("/api/workshop/placements", json={"patch": 12, "next": [3, 20, 25]}, timeout=600.0)
    if placed.status_code != 200:
        raise BenchError(f"placements: HTTP {placed.status_code} {placed.text[:200]}")
    _finished(http, _submit(http, "fills", {"patches": [1, 2, 5, 9, 13, 20], "objective": "points"}), 600.0)
    optimal_fill(0, [1, 2, 5, 9, 13, 20], deadline=Deadline.after(5), objective="points",
                 config=SolverConfig(workers=1))


def _placements(http: httpx.Client, count: int, seed: int, progress: Progress | None) -> dict[str, Any]:
    """Best placements through the API and in this process, alternately, on the same requests."""
    rng = random.Random(seed)
    served, local, exact = [], [], 0
    for i in range(count):
        quilt, patch, upcoming, pool = random_midgame(rng)
        body = {"quilt": cells_of(quilt), "patch": patch, "next": upcoming, "pool": pool, "top": PLACEMENT_TOP}
        started = time.perf_counter()
        response = http.post("/api/workshop/placements", json=body)
        served.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise BenchError(f"placements: HTTP {response.status_code} {response.text[:200]}")
        exact += response.json()["exact"]
        started = time.perf_counter()
        hint_for(LoadedInput(quilt=Quilt(quilt)), patch, upcoming, pool, top_k=PLACEMENT_TOP,
                 deadline=Deadline.after(Limits().placements_seconds))
        local.append(time.perf_counter() - started)
        if progress is not None:
            progress("best placements", i + 1, count)
    return {"requests": count, "proven": exact, **_ms(served), "in_process": _ms(local)}


def _fills(http: httpx.Client, sets: int, seed: int, progress: Progress | None) -> dict[str, Any]:
    """``bench solvers``' instances as jobs, and by ``optimal_fill`` in this process, alternately."""
    served, local, proven, agree, rows = [], [], 0, 0, []
    for i, (quilt, ids) in enumerate(bench_instances(sets, seed=seed)):
        started = time.perf_counter()
        job = _submit(http, "fills", {"quilt": cells_of(quilt), "patches": ids, "time_limit": FILL_SECONDS})
        done = _finished(http, job)
        served.append(time.perf_counter() - started)
        answer = done["fill"]["result"] if done["fill"] else None
        proven += bool(answer and answer["optimal"])
        started = time.perf_counter()
        mine = optimal_fill(quilt, ids, deadline=Deadline.after(SERVED_SECONDS), config=SolverConfig(workers=2, seed=0))
        local.append(time.perf_counter() - started)
        agree += bool(answer) and answer["objective"] == mine.objective  # type: ignore[index]
        rows.append({"patches": len(ids), "filled": quilt.bit_count(), "job_ms": round(served[-1] * 1000, 1),
                     "solve_ms": round((answer or {}).get("wall_time", 0.0) * 1000, 1),
                     "in_process_ms": round(local[-1] * 1000, 1), "method": (answer or {}).get("method")})
        if progress is not None:
            progress("fills as jobs", i + 1, sets)
    return {"sets": sets, "seed": seed, "proven": proven, "agree_with_in_process": agree,
            "median_ms": round(statistics.median(served) * 1000, 1), **_ms(served),
            "in_process": {"median_ms": round(statistics.median(local) * 1000, 1), **_ms(local)}, "rows": rows}


def _one_cancel(http: httpx.Client, delay: float) -> dict[str, float]:
    """A slow fill running, another waiting behind it; Cancel ``delay`` s into the first."""
    first = _submit(http, "fills", SLOW_FILL)
    deadline = time.perf_counter() + 60.0
    while http.get(first["links"]["self"]).json()["state"] != "running":
        if time.perf_counter() > deadline:
            raise BenchError("the slow fill never started")
        time.sleep(0.01)
    second = _submit(http, "fills", SLOW_FILL)
    time.sleep(delay)
    pressed = time.perf_counter()
    cancelled = http.post(first["links"]["cancel"]).json()
    answered = time.perf_counter() - pressed
    while http.get(second["links"]["self"]).json()["state"] != "running":
        if time.perf_counter() - pressed > 30.0:
            raise BenchError("the waiting fill never started after Cancel")
        time.sleep(0.002)
    freed = time.perf_counter() - pressed
    while cancelled["stopped_after"] is None and time.perf_counter() - pressed < 30.0:
        time.sleep(0.02)
        cancelled = http.get(first["links"]["self"]).json()
    http.post(second["links"]["cancel"])
    return {"delay": delay, "freed": cancelled["freed_after"], "answered": answered, "next_running": freed,
            "stopped": cancelled["stopped_after"] or 0.0}


def _cancels(http: httpx.Client, count: int, progress: Progress | None) -> dict[str, Any]:
    rows = []
    for i in range(count):
        rows.append(_one_cancel(http, CANCEL_DELAYS[i % len(CANCEL_DELAYS)]))
        if progress is not None:
            progress("cancels", i + 1, count)
    return {
        "cancels": count, "delays": list(CANCEL_DELAYS),
        "worker_freed": _ms([r["freed"] for r in rows]), "cancel_answered": _ms([r["answered"] for r in rows]),
        "next_job_seen_running": _ms([r["next_running"] for r in rows]),
        "solver_returned": _ms([r["stopped"] for r in rows]),
        "rows": [{k: round(v, 4) for k, v in r.items()} for r in rows],
    }


def run_workshop_bench(
    argv_for: ServerCommand, *, placements: int = 200, sets: int = 40, cancels: int = 10, seed: int = 1,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Start the server, warm it up, measure the three figures, stop it."""
    with _server(argv_for) as (base_url, _, _, _), httpx.Client(base_url=base_url, timeout=120.0) as http:
        if progress is not None:
            progress("warming up", 0, 1)
        _warm_up(http)
        return {
            "placements": _placements(http, placements, seed, progress),
            "fills": _fills(http, sets, seed, progress),
            "cancel": _cancels(http, cancels, progress),
        }


def render_workshop_bench(result: dict[str, Any]) -> str:
    """The text of ``patchwork bench workshop``."""
    placed, fills, cancel = result["placements"], result["fills"], result["cancel"]
    local = placed["in_process"]
    freed, answered, returned = cancel["worker_freed"], cancel["cancel_answered"], cancel["solver_returned"]
    seen = cancel["next_job_seen_running"]
    return "\n".join([
        f"best placements via the API   p50 {placed['p50_ms']:7.1f} ms  p95 {placed['p95_ms']:7.1f} ms  max "
        f"{placed['max_ms']:7.1f} ms  ({placed['requests']} requests, {placed['proven']} proven; in process p50 "
        f"{local['p50_ms']:.1f} ms, p95 {local['p95_ms']:.1f} ms)   target p95 <= 500 ms",
        f"fills as jobs (bench solvers, seed {fills['seed']})  median {fills['median_ms']:7.1f} ms  p95 "
        f"{fills['p95_ms']:7.1f} ms  max {fills['max_ms']:7.1f} ms  proven {fills['proven']}/{fills['sets']} "
        f"(in process median {fills['in_process']['median_ms']:.1f} ms; same value {fills['agree_with_in_process']}/"
        f"{fills['sets']})   target median <= 2000 ms, all proven",
        f"cancel of a running fill ({cancel['cancels']}, {', '.join(f'{d:g}' for d in cancel['delays'])} s in): "
        f"worker freed p50 {freed['p50_ms']:.1f} ms, max {freed['max_ms']:.1f} ms (server's clock)   target <= 200 ms",
        f"  seen by the client: Cancel answered p50 {answered['p50_ms']:.1f} ms, max {answered['max_ms']:.1f} ms; "
        f"the waiting job seen running p50 {seen['p50_ms']:.1f} ms, max {seen['max_ms']:.1f} ms; the cancelled "
        f"solver returned p50 {returned['p50_ms']:.1f} ms, max {returned['max_ms']:.1f} ms",
    ])
