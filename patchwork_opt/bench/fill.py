"""``patchwork bench solvers``: optimal fill against a naive CP-SAT model, in the same run.

The naive model is the textbook one: one Boolean per placement, at most one per patch and
per cell, maximise the covered area, 2 workers, nothing else. Each random instance (a quilt
made by placing random patches until 0-40% of its cells are covered, and a random set of
other patches) is solved by both under the same time limit; the ratio is naive time over
ours. A solver that does not prove optimality within the limit is charged the full limit,
so a ratio against an unproven naive run is a lower bound (marked ``>=``).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from ortools.sat.python import cp_model

from patchwork_opt.core.bitboard import CELLS
from patchwork_opt.core.catalogue import PATCH_COUNT, PATCHES, PLACEMENTS, legal_placements
from patchwork_opt.core.clock import Deadline
from solvers.fill import optimal_fill
from solvers.model import SolverConfig
from solvers.search.fastpack import warm_up


def random_instance(rng: random.Random, patches: int, filled: float) -> tuple[int, list[int]]:
    """A quilt with about ``filled`` of its cells covered by random placements of random
    patches, and ``patches`` other patch ids."""
    order = list(range(PATCH_COUNT))
    rng.shuffle(order)
    target = int(CELLS * filled)
    quilt = 0
    used: list[int] = []
    for pid in order:
        if quilt.bit_count() >= target or len(order) - len(used) <= patches:
            break
        if quilt.bit_count() + PATCHES[pid].area > target + 2:
            continue
        masks = legal_placements(pid, quilt)
        if masks:
            quilt |= rng.choice(masks)
            used.append(pid)
    rest = [pid for pid in order if pid not in used]
    return quilt, sorted(rng.sample(rest, patches))


def naive_fill(quilt: int, patch_ids: list[int], time_limit: float, workers: int = 2) -> tuple[bool, int, float]:
    """The baseline: (proven optimal, covered by the placements, wall seconds incl. building)."""
    started = time.perf_counter()
    model = cp_model.CpModel()
    by_cell: list[list[cp_model.IntVar]] = [[] for _ in range(CELLS)]
    terms = []
    for pid in patch_ids:
        literals = []
        for mask in PLACEMENTS[pid]:
            if mask & quilt:
                continue
            var = model.new_bool_var(f"x{pid}_{mask:x}")
            literals.append(var)
            terms.append(mask.bit_count() * var)
            rest = mask
            while rest:
                low = rest & -rest
                by_cell[low.bit_length() - 1].append(var)
                rest ^= low
        if literals:
            model.add_at_most_one(literals)
    for literals in by_cell:
        if len(literals) > 1:
            model.add_at_most_one(literals)
    model.maximize(sum(terms))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = 0
    code = solver.solve(model)
    wall = time.perf_counter() - started
    value = int(solver.objective_value) if code in (cp_model.OPTIMAL, cp_model.FEASIBLE) else 0
    return code == cp_model.OPTIMAL, value, wall


def bench_instances(
    sets: int = 40, min_patches: int = 4, max_patches: int = 18, max_filled: float = 0.4, seed: int = 1
) -> list[tuple[int, list[int]]]:
    """The instances of ``bench solvers`` (quilt, patch ids): ``sets`` random ones, from
    ``min_patches`` patches up to ``max_patches``, quilts 0 to ``max_filled`` covered. ``bench
    workshop`` submits the same ones through the service."""
    rng = random.Random(seed)
    out = []
    for i in range(sets):
        k = min_patches + round(i * (max_patches - min_patches) / max(1, sets - 1))
        out.append(random_instance(rng, k, rng.uniform(0.0, max_filled)))
    return out


def run_solver_bench(
    sets: int = 40,
    min_patches: int = 4,
    max_patches: int = 18,
    max_filled: float = 0.4,
    time_limit: float = 10.0,
    seed: int = 1,
    workers: int = 2,
    on_step: Callable[[int, dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Solve ``sets`` random instances both ways; per-instance rows and median figures."""
    rows: list[dict[str, Any]] = []
    naive_fill(0, [0, 1], 1.0, workers)  # warm CP-SAT up so that no first solve pays for loading
    warm_up()  # and load (or compile, once per install) the compiled search
    for i, (quilt, ids) in enumerate(bench_instances(sets, min_patches, max_patches, max_filled, seed)):
        row = _solve_both(quilt, ids, len(ids), time_limit, workers)
        rows.append(row)
        if on_step is not None:
            on_step(i, row)
    return {
        "sets": sets,
        "patches": [min_patches, max_patches],
        "max_filled": max_filled,
        "time_limit": time_limit,
        "seed": seed,
        "workers": workers,
        **_medians(rows),
        "rows": rows,
    }


def _solve_both(quilt: int, ids: list[int], k: int, time_limit: float, workers: int) -> dict[str, Any]:
    """One instance by the naive model and by ours: the row of the table. An unproven run is
    charged the full time limit."""
    n_proven, n_value, n_wall = naive_fill(quilt, ids, time_limit, workers)
    result = optimal_fill(quilt, ids, deadline=Deadline.after(time_limit), config=SolverConfig(workers=workers, seed=0))
    ours_wall = result.wall_time
    value = result.objective or 0
    n_charge = n_wall if n_proven else max(n_wall, time_limit)
    o_charge = ours_wall if result.optimal else max(ours_wall, time_limit)
    return {
        "patches": k,
        "filled": quilt.bit_count(),
        "ids": ids,
        "naive_proven": n_proven,
        "naive_value": n_value,
        "naive_s": round(n_wall, 4),
        "ours_proven": result.optimal,
        "ours_value": value,
        "ours_bound": result.bound,
        "ours_s": round(ours_wall, 4),
        "method": result.method,
        "ratio": round(n_charge / max(o_charge, 1e-4), 2),
        "ratio_is_lower_bound": not n_proven and result.optimal,
        "agree": (not (n_proven and result.optimal)) or n_value == value,
    }


def _medians(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The summary figures over the rows."""
    ratios = [r["ratio"] for r in rows]
    return {
        "median_ratio": statistics.median(ratios),
        "min_ratio": min(ratios),
        "max_ratio": max(ratios),
        "median_naive_s": statistics.median(r["naive_s"] for r in rows),
        "median_ours_s": statistics.median(r["ours_s"] for r in rows),
        "naive_proven": sum(r["naive_proven"] for r in rows),
        "ours_proven": sum(r["ours_proven"] for r in rows),
        "slower": sum(r["ratio"] < 1.0 for r in rows),
        "disagreements": sum(not r["agree"] for r in rows),
    }


def render_solver_bench(result: dict[str, Any], time_limit: float, seed: int) -> str:
    """The text of ``patchwork bench solvers``: one row per instance, then the medians."""
    lines = [f"{'k':>3} {'fill':>4} {'naive s':>9} {'ours s':>9} {'ratio':>8}  value  how"]
    for row in result["rows"]:
        naive = f"{row['naive_s']:.3f}" + ("" if row["naive_proven"] else "*")
        ours = f"{row['ours_s']:.3f}" + ("" if row["ours_proven"] else "*")
        ratio = (">=" if row["ratio_is_lower_bound"] else "") + f"{row['ratio']:.1f}x"
        lines.append(f"{row['patches']:>3} {row['filled']:>4} {naive:>9} {ours:>9} {ratio:>8}  "
                     f"{row['ours_value']:>5}  {row['method']}")
    sets = len(result["rows"])
    lines += [
        f"median ratio {result['median_ratio']:.1f}x (min {result['min_ratio']:.2f}x, max {result['max_ratio']:.0f}x); "
        f"median time naive {result['median_naive_s']:.3f}s, ours {result['median_ours_s']:.4f}s",
        f"proven optimal: ours {result['ours_proven']}/{sets}, naive {result['naive_proven']}/{sets}; "
        f"slower than naive on {result['slower']}; value disagreements {result['disagreements']}",
        f"(* = not proven within {time_limit:g}s, charged the full limit; seed {seed}; naive 2 CP-SAT workers, ours 1)",
    ]
    return "\n".join(lines)
