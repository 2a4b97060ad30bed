"""``patchwork bench hint``: best-fit and position-hint latency on random mid-game requests,
against the plain CP-SAT baseline (``best_fit(..., use_shortcuts=False)``) in the same process.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from patchwork_opt.ai.analysis.position import candidate_moves
from patchwork_opt.ai.random_play import random_move
from patchwork_opt.apps.wiring import solver_advisor
from patchwork_opt.core.catalogue import PATCHES, legal_placements
from patchwork_opt.core.clock import ADVISOR_SHARE, Deadline
from patchwork_opt.core.state import State
from solvers.bestfit import best_fit, contact
from solvers.model import SolverConfig


def random_midgame(rng: random.Random, lookahead: tuple[int, int] = (3, 6)) -> tuple[int, int, list[int], list[int]]:
    """A mid-game hint request: (quilt, patch, next patches, pool).

    The quilt is 25-55% covered by random patches, each put at one of its three snuggest
    placements (as a sensible player would); the patch to place and the 3-6 next ones are
    the following patches of the random order, the pool is everything not yet placed.
    """
    ids = list(range(len(PATCHES)))
    rng.shuffle(ids)
    target = rng.uniform(0.25, 0.55) * 81
    quilt = 0
    used: list[int] = []
    for pid in ids:
        if quilt.bit_count() >= target:
            break
        masks = legal_placements(pid, quilt)
        if not masks:
            continue
        masks.sort(key=lambda m: (-contact(m, quilt), m))
        quilt |= masks[rng.randrange(min(3, len(masks)))]
        used.append(pid)
    rest = [pid for pid in ids if pid not in used and legal_placements(pid, quilt)]
    rest += [pid for pid in ids if pid not in used and pid not in rest]
    count = rng.randint(*lookahead)
    return quilt, rest[0], rest[1 : 1 + count], rest[1:]


def random_midgame_position(rng: random.Random) -> State:
    """A position from a random game once both tokens passed space 15 (no leather pending)."""
    while True:
        state = State.new(seed=rng.randrange(1 << 30))
        stop = rng.randint(15, 35)
        while not state.is_terminal() and (min(state.pos) < stop or state.pending >= 0):
            state.apply(random_move(state, rng))
        if not state.is_terminal():
            return state


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def run_hint_bench(
    *,
    quilts: int = 200,
    baseline_quilts: int = 8,
    positions: int = 50,
    seed: int = 0,
    top_k: int = 3,
    lookahead: tuple[int, int] = (3, 6),
    baseline_time_limit: float = 1.0,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    """Best-fit latency on ``quilts`` random mid-game requests, and against the plain baseline.

    Also the placement part of a position hint on ``positions`` random positions: every affordable
    offer's best distinct placements from the CP-SAT advisor (``candidate_moves``), which the AI's
    search then values within its own time budget.
    Our solver runs on every request (p50, p95, max in ms); the baseline (CP-SAT on every
    legal placement, no search or pruning, 1 worker) runs on the first ``baseline_quilts``,
    where both medians and their ratio are reported, and where the top scores are compared
    (``agree`` counts requests whose best score is the same in both).
    """
    rng = random.Random(seed)
    requests = [random_midgame(rng, lookahead) for _ in range(quilts)]
    times, exact, best_scores = _time_best_fit(requests, top_k, SolverConfig(workers=1, seed=seed),
                                               progress)
    position_times = _time_positions(rng, positions, progress)
    count = min(baseline_quilts, quilts)
    base_config = SolverConfig(workers=1, seed=seed)
    base_times, agree = _time_baseline(requests[:count], top_k, base_config, baseline_time_limit, best_scores,
                                       progress)
    ours_subset = times[:count]
    ms = 1000.0
    return {
        "quilts": quilts,
        "lookahead": list(lookahead),
        "p50_ms": round(_percentile(times, 0.5) * ms, 2),
        "p95_ms": round(_percentile(times, 0.95) * ms, 2),
        "max_ms": round(max(times) * ms, 2),
        "mean_ms": round(statistics.fmean(times) * ms, 2),
        "exact": exact,
        "positions": positions,
        "position_p50_ms": round(_percentile(position_times, 0.5) * ms, 2) if positions else None,
        "position_p95_ms": round(_percentile(position_times, 0.95) * ms, 2) if positions else None,
        "baseline_quilts": count,
        "baseline_p50_ms": round(statistics.median(base_times) * ms, 2) if base_times else None,
        "ours_p50_ms_on_baseline_quilts": round(statistics.median(ours_subset) * ms, 2) if count else None,
        "ratio": (
            round(statistics.median(base_times) / statistics.median(ours_subset), 1)
            if base_times and statistics.median(ours_subset) > 0
            else None
        ),
        "baseline_agree": agree,
    }


Request = tuple[int, int, list[int], list[int]]  # quilt, patch, next patches, pool (``random_midgame``)
Progress = Callable[[str, int, int], None]
#: Seconds one best-fit request has (its deadline, made as it starts): an advised bot's budget per call.
BEST_FIT_SECONDS = 0.25


def _time_best_fit(requests: list[Request], top_k: int, config: SolverConfig,
                   progress: Progress | None) -> tuple[list[float], int, list[float | None]]:
    """Our best fit on each request, after one untimed warm-up (imports, the catalogue's caches,
    CP-SAT's first model): the seconds each took, how many were proven, each best score."""
    quilt, pid, upcoming, pool = requests[0]
    best_fit(quilt, pid, upcoming, deadline=Deadline.after(BEST_FIT_SECONDS), pool=pool, config=config)
    times: list[float] = []
    exact = 0
    best_scores: list[float | None] = []
    for index, (quilt, pid, upcoming, pool) in enumerate(requests):
        start = time.perf_counter()
        result = best_fit(quilt, pid, upcoming, deadline=Deadline.after(BEST_FIT_SECONDS), pool=pool, top_k=top_k,
                          config=config)
        times.append(time.perf_counter() - start)
        exact += result.exact
        best_scores.append(result.hints[0].score if result.hints else None)
        if progress is not None:
            progress("ours", index + 1, len(requests))
    return times, exact, best_scores


def _time_positions(rng: random.Random, positions: int, progress: Progress | None) -> list[float]:
    """The seconds of the placement part of a position hint (``candidate_moves`` with the CP-SAT
    advisor, given the share a hint with the default 1 s gives it) on ``positions`` random ones."""
    times: list[float] = []
    for index in range(positions):
        state = random_midgame_position(rng)
        advisor = solver_advisor(budget=ADVISOR_SHARE)
        start = time.perf_counter()
        candidate_moves(state, advisor)
        times.append(time.perf_counter() - start)
        if progress is not None:
            progress("positions", index + 1, positions)
    return times


def _time_baseline(requests: list[Request], top_k: int, config: SolverConfig, call_seconds: float,
                   best_scores: list[float | None], progress: Progress | None) -> tuple[list[float], int]:
    """The plain CP-SAT baseline on ``requests`` (each CP-SAT call at most ``call_seconds``, no deadline):
    the seconds each took, and on how many its best score is ours (``best_scores``, in the same order)."""
    times: list[float] = []
    agree = 0
    for index, (quilt, pid, upcoming, pool) in enumerate(requests):
        start = time.perf_counter()
        result = best_fit(quilt, pid, upcoming, deadline=None, pool=pool, top_k=top_k, config=config,
                          call_seconds=call_seconds, use_shortcuts=False)
        times.append(time.perf_counter() - start)
        top = result.hints[0].score if result.hints else None
        agree += top == best_scores[index]
        if progress is not None:
            progress("baseline", index + 1, len(requests))
    return times, agree


# --- text for people -----------------------------------------------------------------------------


def render_hint_bench(result: dict[str, Any]) -> str:
    """The text of ``patchwork bench hint``."""
    lines = [
        f"hint, {result['quilts']} mid-game quilts, lookahead {result['lookahead'][0]}-{result['lookahead'][1]}: "
        f"p50 {result['p50_ms']:.1f} ms   p95 {result['p95_ms']:.1f} ms   max {result['max_ms']:.1f} ms   "
        f"({result['exact']} of {result['quilts']} proven)"
    ]
    if result["positions"]:
        lines.append(
            f"hint POSITION, placements of every offer, {result['positions']} random positions: "
            f"p50 {result['position_p50_ms']:.1f} ms   p95 {result['position_p95_ms']:.1f} ms"
        )
    if result["baseline_quilts"]:
        lines.append(
            f"plain CP-SAT baseline on the first {result['baseline_quilts']}: median "
            f"{result['baseline_p50_ms']:.0f} ms vs ours {result['ours_p50_ms_on_baseline_quilts']:.1f} ms"
            f"   ratio {result['ratio']}x   same best score {result['baseline_agree']}/{result['baseline_quilts']}"
        )
    return "\n".join(lines)
