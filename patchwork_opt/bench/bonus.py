"""``patchwork bench bonus``: 7x7 completion on random near-complete quilts, with the CLI's and the
bot's budgets.

Each quilt has one 7x7 window nearly covered by random patches at snug placements, a few
more patches elsewhere, and 6-12 patches offered that are not on it: about what the solver
bot asks when a window is nearly covered. The figures are per call; run the same seed
against another checkout to compare.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from patchwork_opt.apps.wiring import solver_advisor
from patchwork_opt.core.bitboard import WINDOW_MASKS
from patchwork_opt.core.catalogue import PATCHES, legal_placements
from patchwork_opt.core.clock import Deadline
from solvers.bonus import bonus_completion
from solvers.model import SolverConfig
from solvers.search.fastpack import warm_up


def near_complete_quilt(rng: random.Random) -> tuple[int, list[int]]:
    """(quilt, patches offered): one window covered to 80-98% by patches placed inside it."""
    window = WINDOW_MASKS[rng.randrange(len(WINDOW_MASKS))]
    target = rng.uniform(0.80, 0.98) * window.bit_count()
    ids = list(range(len(PATCHES)))
    rng.shuffle(ids)
    quilt = 0
    used: list[int] = []
    for pid in ids:
        if (quilt & window).bit_count() >= target:
            break
        inside = [m for m in legal_placements(pid, quilt) if m & window == m]
        if inside:
            inside.sort(key=lambda m: (m & -m))
            quilt |= inside[rng.randrange(min(3, len(inside)))]
            used.append(pid)
    for pid in ids[len(used) : len(used) + rng.randint(0, 4)]:
        masks = [m for m in legal_placements(pid, quilt) if not m & window]
        if masks and pid not in used:
            quilt |= rng.choice(masks)
            used.append(pid)
    rest = [pid for pid in ids if pid not in used]
    return quilt, rest[: rng.randint(6, 12)]


def bench_bonus(
    quilts: int = 100, seed: int = 3, time_limit: float = 10.0, progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    """Median and 90th-percentile time per call of ``bonus_completion`` (the CLI's ``time_limit``,
    one worker) and of ``SolverAdvisor.bonus_feasible`` (the bot's budget), and how the answers split."""
    rng = random.Random(seed)
    cases = [near_complete_quilt(rng) for _ in range(quilts)]
    config = SolverConfig(workers=1, seed=0)
    advisor = solver_advisor()
    warm_up()  # load the compiled search before timing
    out: dict[str, Any] = {"quilts": quilts, "seed": seed, "time_limit": time_limit}
    for name, call in (
        ("cli", lambda q, ids: bonus_completion(q, ids, deadline=Deadline.after(time_limit), config=config).feasible),
        ("bot", advisor.bonus_feasible),
    ):
        times = []
        answers = {"true": 0, "false": 0, "unknown": 0}
        for index, (quilt, ids) in enumerate(cases):
            started = time.perf_counter()
            found = call(quilt, ids)
            times.append(time.perf_counter() - started)
            answers["unknown" if found is None else str(found).lower()] += 1
            if progress is not None:
                progress(name, index + 1, quilts)
        times.sort()
        out[name] = {
            "median_ms": round(statistics.median(times) * 1000, 3),
            "p90_ms": round(times[int(0.9 * (len(times) - 1))] * 1000, 3),
            "mean_ms": round(statistics.fmean(times) * 1000, 3),
            "max_ms": round(times[-1] * 1000, 3),
            "answers": answers,
        }
    return out


def render_bonus_bench(result: dict[str, Any]) -> str:
    """The text of ``patchwork bench bonus``."""
    lines = [f"7x7 completion, {result['quilts']} near-complete quilts (seed {result['seed']}), per call:"]
    for name, label in (("cli", f"patchwork bonus (--time-limit {result['time_limit']:g})"),
                        ("bot", "the solver bot's advisor")):
        row = result[name]
        answers = row["answers"]
        lines.append(
            f"  {label}: median {row['median_ms']:.3f} ms   p90 {row['p90_ms']:.3f} ms   max {row['max_ms']:.1f} ms"
            f"   ({answers['true']} feasible, {answers['false']} refuted, {answers['unknown']} unknown)"
        )
    return "\n".join(lines)
