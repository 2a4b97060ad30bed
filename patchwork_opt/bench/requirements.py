"""Fill requirements: how fast ``optimal_fill`` proves an impossible ``--require-bonus``.

Random requests as a user makes them, each with ``--require-bonus`` and half of them with a
``--budget``: an empty quilt, a lightly covered one (1-5 patches placed at random) and one with a
7x7 window 80-98% covered (``patchwork_opt.bench.bonus.near_complete_quilt``), 3-16 patches offered.
Each is solved once; the figures are per kind of proof (area, budget, shape: what the reason
names) over the requests proven infeasible, the ones left unknown, and the feasible ones. A
``tight`` family, on empty and lightly covered quilts, puts the budget at the cheapest completion's
lower bound plus 0-3 buttons: the search must then rule out every set of patches that cheap, the
hardest case there is; it is reported on its own.

The baseline, in the same run on ``baseline`` of the requests proven infeasible (taken in turn
from the three kinds of proof): the CP-SAT model of the fill with the requirement as a constraint,
which is what optimal fill ran before it settled requirements first; a request it does not prove
is charged its time limit. The ratio is the median of its time over ours, request by request.

    .venv/bin/python -m patchwork_opt.bench.requirements [requests] [seed] [time_limit] [baseline]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from patchwork_opt.bench.bonus import near_complete_quilt
from patchwork_opt.core.catalogue import PATCH_COUNT, PATCHES, legal_placements
from patchwork_opt.core.clock import Deadline
from solvers.bonus import cheapest_completion
from solvers.bounds import fill_bounds
from solvers.fill import optimal_fill
from solvers.fill_cp_sat import solve_fill_model
from solvers.model import SolverConfig, SolveStatus
from solvers.search.fastpack import warm_up
from solvers.symmetry import interchangeable_groups

Request = tuple[str, int, list[int], int | None]


def light_quilt(rng: random.Random) -> tuple[int, list[int]]:
    """A quilt with 1-5 random patches at random places, and the patches not on it."""
    order = list(range(PATCH_COUNT))
    rng.shuffle(order)
    quilt = 0
    used = []
    for pid in order[: rng.randint(1, 5)]:
        masks = legal_placements(pid, quilt)
        if masks:
            quilt |= rng.choice(masks)
            used.append(pid)
    return quilt, [pid for pid in order if pid not in used]


def random_requests(count: int, rng: random.Random) -> list[Request]:
    """``count`` requests of the three families, in turn: (family, quilt, patches, budget)."""
    out: list[Request] = []
    for i in range(count):
        family = ("empty", "light", "near")[i % 3]
        if family == "empty":
            quilt, pool = 0, rng.sample(range(PATCH_COUNT), PATCH_COUNT)
        elif family == "light":
            quilt, pool = light_quilt(rng)
        else:
            quilt, pool = near_complete_quilt(rng)
        ids = sorted(pool[: rng.randint(3, min(16, len(pool)))])
        budget = None if rng.random() < 0.5 else rng.randint(0, 15 if family == "near" else 40)
        out.append((family, quilt, ids, budget))
    return out


def tight_requests(count: int, rng: random.Random) -> list[Request]:
    """Budgets at the cheapest completion's lower bound plus 0-3 buttons (where it exists)."""
    out: list[Request] = []
    while len(out) < count:
        quilt, pool = (0, list(range(PATCH_COUNT))) if rng.random() < 0.5 else light_quilt(rng)
        ids = sorted(rng.sample(pool, rng.randint(8, 16)))
        cheapest = cheapest_completion(quilt, ids, [legal_placements(pid, quilt) for pid in ids])
        if cheapest is not None:
            out.append(("tight", quilt, ids, cheapest + rng.randint(0, 3)))
    return out


def kind_of(reason: str) -> str:
    """What proved an infeasible request, from its reason."""
    if reason.startswith("the patches cover at most"):
        return "area"
    if reason.startswith("completing a 7x7 square costs"):
        return "budget"
    return "shape"


def _figures(times: list[float]) -> dict[str, Any]:
    times = sorted(times)
    if not times:
        return {"count": 0}
    return {
        "count": len(times),
        "median_ms": round(statistics.median(times) * 1000, 2),
        "p90_ms": round(times[int(0.9 * (len(times) - 1))] * 1000, 2),
        "max_ms": round(times[-1] * 1000, 2),
        "under_1s": sum(1 for t in times if t < 1.0),
    }


def baseline_fill(quilt: int, ids: list[int], budget: int | None, time_limit: float) -> tuple[SolveStatus, float]:
    """The CP-SAT model of the fill with the requirement as a constraint, nothing settled first."""
    started = time.perf_counter()
    bounds = fill_bounds(quilt, ids)
    status, _, _, _ = solve_fill_model(
        quilt, ids, [PATCHES[pid].area for pid in ids], bounds, bounds.upper, budget=budget, require_bonus=True,
        twins=interchangeable_groups(ids), hint=[], lower=None,
        config=SolverConfig(workers=1, seed=0), deadline=Deadline.after(time_limit),
    )
    return status, time.perf_counter() - started


def run_requirements_bench(
    requests: int = 90, tight: int = 12, seed: int = 0, time_limit: float = 10.0, baseline: int = 6,
    baseline_limit: float = 10.0,
) -> dict[str, Any]:
    """Solve the random requests (and the tight ones); figures per kind of proof."""
    rng = random.Random(seed)
    cases = random_requests(requests, rng) + tight_requests(tight, rng)
    warm_up()
    config = SolverConfig(workers=1, seed=0)
    proven: dict[str, list[float]] = {"area": [], "budget": [], "shape": []}
    tight_proven: list[float] = []
    outcomes: dict[str, dict[str, int]] = {}
    feasible_times: list[float] = []
    slow: list[dict[str, Any]] = []
    infeasible_cases: dict[str, list[tuple[Request, float]]] = {"area": [], "budget": [], "shape": []}
    for family, quilt, ids, budget in cases:
        result = optimal_fill(quilt, ids, deadline=Deadline.after(time_limit), budget=budget, require_bonus=True,
                              config=config)
        counts = outcomes.setdefault(family, {})
        counts[result.status.value] = counts.get(result.status.value, 0) + 1
        if result.status == SolveStatus.INFEASIBLE:
            (tight_proven if family == "tight" else proven[kind_of(result.reason)]).append(result.wall_time)
            if family != "tight":
                infeasible_cases[kind_of(result.reason)].append(((family, quilt, ids, budget), result.wall_time))
        elif result.objective is not None:
            feasible_times.append(result.wall_time)
        left_open = result.status != SolveStatus.INFEASIBLE and result.objective is None
        if left_open or (result.status == SolveStatus.INFEASIBLE and result.wall_time >= 1.0):
            slow.append({"family": family, "quilt": quilt, "patches": ids, "budget": budget,
                         "status": result.status.value, "seconds": round(result.wall_time, 3)})
    base: dict[str, dict[str, Any]] = {}
    ratios = []
    for k in range(baseline):
        kind = ("area", "budget", "shape")[k % 3]
        if k // 3 >= len(infeasible_cases[kind]):
            continue
        (_, quilt, ids, budget), ours = infeasible_cases[kind][k // 3]
        status, seconds = baseline_fill(quilt, ids, budget, baseline_limit)
        row = base.setdefault(kind, {"requests": 0, "proven": 0, "seconds": []})
        row["requests"] += 1
        row["proven"] += status == SolveStatus.INFEASIBLE
        row["seconds"].append(round(seconds if status == SolveStatus.INFEASIBLE else baseline_limit, 3))
        ratios.append((seconds if status == SolveStatus.INFEASIBLE else baseline_limit) / max(ours, 1e-6))
    return {
        "requests": requests, "tight": tight, "seed": seed, "time_limit": time_limit,
        "outcomes": outcomes,
        "infeasible": {kind: _figures(times) for kind, times in proven.items()},
        "tight_infeasible": _figures(tight_proven),
        "feasible": _figures(feasible_times),
        "left_open_or_slow": slow,
        "baseline": {"time_limit": baseline_limit, "by_kind": base,
                     "median_ratio": round(statistics.median(ratios), 1) if ratios else None},
    }


if __name__ == "__main__":  # pragma: no cover - a measuring script
    import json

    args = [float(a) for a in sys.argv[1:]]
    count = int(args[0]) if args else 90
    print(json.dumps(run_requirements_bench(
        requests=count, seed=int(args[1]) if len(args) > 1 else 0, time_limit=args[2] if len(args) > 2 else 10.0,
        baseline=int(args[3]) if len(args) > 3 else 6,
    ), indent=2))
