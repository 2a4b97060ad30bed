"""The CP-SAT-backed ``PlacementAdvisor`` the bots and the terminal ``hint`` plug in.

``rank_placements`` is best fit (``solvers.bestfit``) with the first ``lookahead`` upcoming
patches as the solver part and all upcoming patches as the pool still to come.
``bonus_feasible`` answers whether some 7x7 square can still be completed with the given
patches: cheap necessary conditions first (``FillOutlook.window_open``), then an exact
bitboard search per window, and CP-SAT only for windows the search could not settle.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from patchwork_opt.ai.base import RankedPlacement
from patchwork_opt.core.bitboard import CELLS, FULL, WINDOW_MASKS, has_full_window, iter_bits
from patchwork_opt.core.catalogue import PATCHES, PLACEMENTS, fits_anywhere
from solvers.bestfit import CoverSolver, ScoreWeights, best_fit
from solvers.bounds import Pool, outlook
from solvers.model import PlacementModel, SolverConfig, SolveStatus


def _distinct(ids: Sequence[int], drop: int | None = None) -> list[int]:
    seen: set[int] = set()
    out = []
    for pid in ids:
        if pid != drop and pid not in seen:
            seen.add(pid)
            out.append(pid)
    return out


class SolverAdvisor:
    """Placement advice from the solvers; ``config`` bounds each CP-SAT call.

    ``budget`` (seconds) bounds one ``rank_placements`` call's solver part (past it the
    remaining candidates are scored with the fast bound); lookahead CP-SAT calls get at
    most half of it. ``bonus_feasible`` uses ``config`` as given.
    """

    def __init__(
        self,
        config: SolverConfig | None = None,
        lookahead: int = 4,
        weights: ScoreWeights | None = None,
        budget: float | None = 0.25,
    ) -> None:
        self.config = config or SolverConfig(time_limit=0.1, workers=1)
        self.lookahead = lookahead
        self.weights = weights or ScoreWeights()
        self.budget = budget
        # each lookahead CP-SAT call gets a share of the budget, whatever the config allows
        cap = self.config.time_limit if budget is None else min(self.config.time_limit, max(budget / 2, 0.01))
        self.cover_config = self.config.model_copy(update={"time_limit": cap})
        self._covers: OrderedDict[tuple[int, ...], CoverSolver] = OrderedDict()

    def _cover_solver(self, ids: Sequence[int]) -> CoverSolver:
        """One cover solver (with its cache) per lookahead set, the most recent 32 kept."""
        key = tuple(sorted(ids))
        solver = self._covers.get(key)
        if solver is None:
            solver = CoverSolver(key, self.cover_config)
            self._covers[key] = solver
            if len(self._covers) > 32:
                self._covers.popitem(last=False)
        else:
            self._covers.move_to_end(key)
        return solver

    def rank_placements(
        self, quilt: int, patch_id: int, upcoming: Sequence[int], top_k: int
    ) -> list[RankedPlacement]:
        """Legal placements of ``patch_id`` on ``quilt``, best first (at most ``top_k``)."""
        if top_k < 1:
            return []
        if not fits_anywhere(patch_id, quilt):
            return []
        pool = _distinct(upcoming, drop=patch_id)
        ahead = pool[: self.lookahead]
        result = best_fit(
            quilt,
            patch_id,
            ahead,
            pool=pool,
            top_k=top_k,
            weights=self.weights,
            config=self.cover_config,
            budget=self.budget,
            covers=self._cover_solver(ahead),
        )
        return [RankedPlacement(mask=h.mask, score=h.score, parts=dict(h.parts)) for h in result.hints]

    def bonus_feasible(self, quilt: int, patches: Sequence[int]) -> bool | None:
        """Can some 7x7 square still be completed with these patches (each once)? None when unknown."""
        return bonus_feasible(quilt, _distinct(patches), self.config)


#: Placements of each patch containing each cell: the branching table of the window search.
_THROUGH: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(m for m in PLACEMENTS[pid] if m >> cell & 1) for cell in range(CELLS))
    for pid in range(len(PATCHES))
)


class _Found(Exception):
    pass


class _OutOfNodes(Exception):
    pass


def cover_window_search(quilt: int, need: int, patches: Sequence[int], node_limit: int = 20_000) -> bool | None:
    """Can ``patches`` (each once) cover every cell of ``need``? Exact when it returns a bool.

    The lowest uncovered needed cell must be covered by some placement through it, so
    branching on those placements (larger patches first) is complete; the search stops at a
    cover (True), when exhausted (False), or after ``node_limit`` nodes (None).
    """
    ids = sorted(set(patches), key=lambda i: (-PATCHES[i].area, i))
    areas = [PATCHES[i].area for i in ids]
    nodes = 0

    def search(q: int, rest: int, unused: int, room: int) -> None:
        nonlocal nodes
        if not rest:
            raise _Found
        if room < rest.bit_count():
            return
        nodes += 1
        if nodes > node_limit:
            raise _OutOfNodes
        cell = (rest & -rest).bit_length() - 1
        for slot, pid in enumerate(ids):
            if not unused >> slot & 1:
                continue
            for mask in _THROUGH[pid][cell]:
                if not mask & q:
                    search(q | mask, rest & ~mask, unused & ~(1 << slot), room - areas[slot])

    try:
        search(quilt, need & ~quilt, (1 << len(ids)) - 1, sum(areas))
    except _Found:
        return True
    except _OutOfNodes:
        return None
    return False


def bonus_feasible(
    quilt: int, patches: Sequence[int], config: SolverConfig, node_limit: int = 20_000
) -> bool | None:
    """True (a completion exists), False (proven impossible), None (time limit reached).

    Cheap necessary conditions first; then an exact search per open window (fewest empty
    cells first, with growing node budgets), which settles almost every case at once; CP-SAT
    only for the windows the search left open: a Boolean per such window, at least one true,
    its empty cells covered.
    """
    if has_full_window(quilt):
        return True
    patches = list(dict.fromkeys(patches))
    view = outlook(quilt, Pool.of(patches))
    if not view.window_open():
        return False
    total = view.pool.total_area
    dead = view.dead_mask
    open_windows = []
    for number, window in enumerate(WINDOW_MASKS):
        need = window & ~quilt & FULL
        if need.bit_count() <= total and not need & dead:
            open_windows.append((need.bit_count(), number, need))
    # growing node budgets over all windows: one easy window settles it, hard ones wait
    undecided = [(number, need) for _, number, need in sorted(open_windows)]
    for budget in sorted({min(300, node_limit), min(3000, node_limit), node_limit}):
        still = []
        for number, need in undecided:
            found = cover_window_search(quilt, need, patches, budget)
            if found:
                return True
            if found is None:
                still.append((number, need))
        undecided = still
        if not undecided:
            break
    if not undecided:
        return False
    model = PlacementModel(quilt, patches)
    chosen = []
    for _, need in undecided:
        if any(not model.by_cell[index] for index in iter_bits(need)):
            continue
        use = model.new_bools(1)
        for index in iter_bits(need):
            model.add_bool_or(model.by_cell[index], enforce=[use])
        chosen.append(use)
    if not chosen:
        return False
    model.add_bool_or(chosen)
    solution = model.solve(config)
    if solution.status in (SolveStatus.OPTIMAL, SolveStatus.FEASIBLE):
        return True
    if solution.status is SolveStatus.INFEASIBLE:
        return False
    return None  # UNKNOWN at the time limit; MODEL_INVALID would be a bug, reported as unknown
