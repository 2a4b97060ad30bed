"""Optimal fill's CP-SAT model: the placement model with what the fill adds, and the solve it runs.

The model is the shared one (``solvers.model.PlacementModel``) over the reachable placements of the
fill's bounds, its variables, then in a fixed order what the fill adds, each constraint the
placement model's own: the per-region caps, a no-good per excluded choice of patches, the button
budget, one ordering for twins, the quilt's symmetries broken on a few patches, the 7x7
requirement; then the objective (over the placement literals, not per patch: CP-SAT's LP is much
stronger that way) with the proven bound, and a known fill's value, as its domain; then the warm
start. ``prepare_fill_model`` builds it and returns the solve, which a race (``solvers.fill_races``)
runs with a handle to stop it; ``solve_fill_model`` does both in one go.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from patchwork_opt.core.clock import Deadline
from solvers.bounds import FillBounds
from solvers.model import PlacementModel, SolveHandle, SolverConfig, SolveStatus

#: CP-SAT's answer for a fill: status, value (None: no fill found), bound, ``(slot, mask)`` placements.
CpOutcome = tuple[SolveStatus, int | None, int, list[tuple[int, int]]]
#: ``prepare_fill_model``'s answer: the solve to run, given a handle to stop it, a config and a deadline.
CpSolve = Callable[[SolveHandle | None, SolverConfig, Deadline], CpOutcome]

#: Symmetry breaking is applied to this many patches (largest first), as a chain.
SYMMETRY_CHAIN = 3
#: What the model adds to the plain placement model (switches kept for measuring): twins
#: ordering, symmetry breaking, the warm start, and the objective's domain.
FEATURES = frozenset({"twins", "symmetry", "hint", "upper"})
#: Extra CP-SAT parameters for the model (none: linearization level 0 or 2 and quick restarts
#: were each measured; each loses on some instances).
PARAMETERS: dict[str, int | bool | float] = {}


def prepare_fill_model(
    quilt: int,
    ids: list[int],
    values: list[int],
    bounds: FillBounds,
    upper: int,
    *,
    budget: int | None,
    require_bonus: bool,
    twins: list[list[int]],
    hint: Sequence[tuple[int, int]],
    on_solution: Callable[[float, float], None] | None = None,
    features: frozenset[str] = FEATURES,
    lower: int | None = 0,
    region_caps: Sequence[int] = (),
    exclude: Sequence[int] = (),
) -> CpSolve:
    """Build the model of the fill of ``quilt`` with the patches ``ids`` (worth ``values``) whose
    objective is at most ``upper`` and at least ``lower`` (a known fill's value; None: no floor);
    ``hint``, ``(slot, mask)`` placements, warm-starts it; ``on_solution(value, bound)`` hears of
    each solution. Return the solve to run."""
    model = PlacementModel(quilt, ids, placements=bounds.placements)
    for region, cap in zip(bounds.regions, region_caps, strict=False):
        if cap < region.size:
            model.cap_region(region.mask, cap)
    for slots in exclude:
        model.exclude_choice(slots, values)
    if budget is not None:
        model.limit_cost(budget)
    if "twins" in features:
        model.order_twins(twins)
    if "symmetry" in features:
        model.break_symmetry(SYMMETRY_CHAIN)
    if require_bonus and not model.require_window(bounds.reachable):
        return lambda handle, config, deadline: (SolveStatus.INFEASIBLE, None, upper, [])
    objective = [(v, values[s]) for s, _, v in model.choices()]
    if "upper" in features and upper < sum(max(0, v) for v in values):
        model.maximize(objective, at_most=upper, at_least=None if lower is None else min(lower, upper))
    else:
        model.maximize(objective)
    if hint and "hint" in features:
        model.add_hint((ids[s], mask) for s, mask in hint)
    return _solve(model, ids, upper, on_solution)


def solve_fill_model(*args: Any, config: SolverConfig, deadline: Deadline, **kwargs: Any) -> CpOutcome:
    """Build and solve the model in one go, by ``deadline`` (``prepare_fill_model``'s arguments)."""
    return prepare_fill_model(*args, **kwargs)(None, config, deadline)


def _solve(
    model: PlacementModel, ids: Sequence[int], upper: int, on_solution: Callable[[float, float], None] | None
) -> CpSolve:
    """The solve of the built model: its status, value, bound (at most ``upper``) and placements."""
    slot_of = {pid: s for s, pid in enumerate(ids)}

    def run(handle: SolveHandle | None, config: SolverConfig, deadline: Deadline) -> CpOutcome:
        solution = model.solve(config, deadline, on_solution=on_solution, handle=handle, parameters=PARAMETERS)
        if solution.status not in (SolveStatus.OPTIMAL, SolveStatus.FEASIBLE):
            return solution.status, None, upper, []
        placed = [(slot_of[p.patch], p.mask) for p in solution.placements]
        value = round(solution.objective or 0)
        bound = int((solution.bound if solution.bound is not None else upper) + 1e-6)
        return solution.status, value, min(bound, upper), placed

    return run
