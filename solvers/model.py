"""The one placement model every solver builds on, and the typed instance, config and solution.

One Boolean per (patch, placement) over the engine's precomputed masks, at most one
placement per patch, at most one patch per cell, placements touching covered cells left out.
Best fit, 7x7 completion, the advisor and optimal fill all add their own constraints and
objective to this model, in a fixed order: variables and the placement constraints here, then
the caller's constraints and objective, then ``solve``, which sets every parameter explicitly
and maps every CP-SAT status to ``SolveStatus``. The constraints a solver adds are built here
too, each once (a button budget, a region's cap, a no-good on a choice of patches, one ordering of
twins, the quilt's symmetries broken, a complete 7x7 square), so that the warm start can be mapped
onto the rules the model holds.

The callers speak in variable indices (a literal is a variable index, ``~v`` its negation);
the model is built through OR-Tools' public API (``cp_model.CpModel``), so no OR-Tools version
is pinned. Writing the proto directly built a large model up to nine times faster, but measured
end to end (docs/benchmarks/solvers.md, "CP-SAT model: proto writer against the public API") it bought
nothing: most best-fit and fill calls never build a model, and those that do spend their time
solving it.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from patchwork_opt.core.bitboard import CELLS, FULL, WINDOW_MASKS, cells_of, iter_bits, mask_of
from patchwork_opt.core.catalogue import PATCHES, PLACEMENTS, check_patch_ids
from patchwork_opt.core.clock import Deadline, solver_seconds
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.symmetry import transform
from patchwork_opt.i18n import N_
from solvers.symmetry import canonical_placements, quilt_symmetries

if TYPE_CHECKING:
    # OR-Tools (with the pandas it loads) takes about 0.25 s to import: the functions that build or
    # solve a model import it, so that the config and results here (a quilt's best fit, which
    # seldom builds a model; the CLI's other commands) do not pay for it.
    from ortools.sat.python import cp_model

#: (variable index, coefficient): one term of a linear expression.
Term = tuple[int, int]


class Instance(BaseModel):
    """A quilt (81-bit mask of covered cells) and the patches that may go on it, each once."""

    model_config = ConfigDict(frozen=True)

    quilt: int = Field(ge=0, le=FULL, description="Covered cells, bit r*9+c.")
    patch_ids: tuple[int, ...] = Field(description="Distinct patch ids, 0..32.")

    @classmethod
    def of(cls, quilt: int, patch_ids: Sequence[int]) -> Instance:
        """Validated with the project's one-line errors (not pydantic's report)."""
        if not isinstance(quilt, int) or not 0 <= quilt <= FULL:
            raise PatchworkError(N_("quilt must be an 81-bit mask"))
        return cls(quilt=quilt, patch_ids=tuple(check_patch_ids(patch_ids)))


class SolverConfig(BaseModel):
    """How a CP-SAT solve runs (how long is the caller's deadline: ``core.clock``). Tests use
    ``workers=1`` and a fixed seed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    workers: int = Field(default=2, ge=1, le=64, description="CP-SAT search workers.")
    seed: int = Field(default=0, ge=0, description="CP-SAT random seed.")
    log: bool = Field(default=False, description="Print the CP-SAT search log.")


class SolveStatus(StrEnum):
    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    UNKNOWN = "unknown"
    MODEL_INVALID = "model_invalid"


def _status(code: cp_model.CpSolverStatus) -> SolveStatus:
    """The CP-SAT status ``code`` as a ``SolveStatus`` (UNKNOWN for any other code)."""
    from ortools.sat.python import cp_model

    return {
        cp_model.OPTIMAL: SolveStatus.OPTIMAL,
        cp_model.FEASIBLE: SolveStatus.FEASIBLE,
        cp_model.INFEASIBLE: SolveStatus.INFEASIBLE,
        cp_model.UNKNOWN: SolveStatus.UNKNOWN,
        cp_model.MODEL_INVALID: SolveStatus.MODEL_INVALID,
    }.get(code, SolveStatus.UNKNOWN)


class PlacedPatch(BaseModel):
    """A patch and the cells (``[row, col]``) it covers."""

    model_config = ConfigDict(frozen=True)

    patch: int
    cells: list[tuple[int, int]]

    @classmethod
    def of(cls, patch_id: int, mask: int) -> PlacedPatch:
        return cls(patch=patch_id, cells=cells_of(mask))

    @property
    def mask(self) -> int:
        return mask_of(self.cells)


class Solution(BaseModel):
    """Status, objective and bound (None when no solution is known), wall time, placements."""

    status: SolveStatus
    objective: float | None = None
    bound: float | None = None
    wall_time: float = 0.0
    placements: list[PlacedPatch] = Field(default_factory=list)

    @property
    def proven(self) -> bool:
        return self.status in (SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE)


class SolveHandle:
    """Lets another thread stop a running ``PlacementModel.solve`` (a portfolio partner that
    finished first). Stopping before the solve starts makes it return at once."""

    def __init__(self) -> None:
        self._solver: cp_model.CpSolver | None = None
        self.stopped = False

    def attach(self, solver: cp_model.CpSolver) -> None:
        self._solver = solver
        if self.stopped:
            solver.stop_search()

    def stop(self) -> None:
        self.stopped = True
        if self._solver is not None:
            self._solver.stop_search()


class PlacementModel:
    """Booleans ``x[patch, placement]`` over the empty cells of ``quilt``, by variable index.

    ``allowed`` restricts placements to lie inside that mask (for example the cells reachable
    at all); ``placements`` gives each patch's candidate masks outright (already filtered by
    the caller, one list per patch id in order). ``slots[k]`` lists ``(mask, variable)`` for
    ``patch_ids[k]``; ``by_cell[i]`` the variables of the placements covering cell ``i``.
    """

    def __init__(
        self,
        quilt: int,
        patch_ids: Sequence[int],
        *,
        allowed: int | None = None,
        placements: Sequence[Sequence[int]] | None = None,
    ) -> None:
        self.instance = Instance.of(quilt, patch_ids)
        self.quilt = quilt
        self.patch_ids = list(self.instance.patch_ids)
        from ortools.sat.python import cp_model

        self.model = cp_model.CpModel()
        self._vars: list[cp_model.IntVar] = []
        self._has_objective = False
        # the rules a warm start is mapped onto (``order_twins``, ``break_symmetry``)
        self._twins: list[list[int]] = []
        self._chain: list[int] = []
        self._symmetries: tuple[int, ...] = ()
        # variables
        if placements is None:
            forbidden = quilt if allowed is None else quilt | (FULL & ~allowed)
            placements = [[m for m in PLACEMENTS[pid] if not m & forbidden] for pid in self.patch_ids]
        elif len(placements) != len(self.patch_ids):
            raise ValueError("placements: one list of masks per patch id")
        self.slots, self.by_cell = _index(placements)
        self.placement_count = sum(len(row) for row in self.slots)
        self.new_bools(self.placement_count)
        # constraints: each patch at most once, each cell at most once
        for row in self.slots:
            if len(row) > 1:
                self.add_at_most_one([v for _, v in row])
        for literals in self.by_cell:
            if len(literals) > 1:
                self.add_at_most_one(literals)

    # --- variables and expressions -----------------------------------------------------------

    def new_bools(self, count: int) -> int:
        """Append ``count`` Boolean variables; the index of the first."""
        first = len(self._vars)
        new = self.model.new_bool_var
        self._vars.extend([new("") for _ in range(count)])
        return first

    @property
    def variable_count(self) -> int:
        return len(self._vars)

    def _literals(self, literals: Iterable[int]) -> list[cp_model.LiteralT]:
        return [self._vars[v] if v >= 0 else ~self._vars[~v] for v in literals]

    def _sum(self, terms: Sequence[Term]) -> cp_model.LinearExpr:
        from ortools.sat.python import cp_model

        return cp_model.LinearExpr.weighted_sum([self._vars[v] for v, _ in terms], [c for _, c in terms])

    def choices(self) -> Iterable[tuple[int, int, int]]:
        """(slot, mask, variable) of every placement variable."""
        for slot, row in enumerate(self.slots):
            for mask, var in row:
                yield slot, mask, var

    def used(self, slot: int) -> list[Term]:
        """1 when the patch in ``slot`` (index into ``patch_ids``) is placed."""
        return [(v, 1) for _, v in self.slots[slot]]

    def covered_cells(self) -> list[Term]:
        return [(v, mask.bit_count()) for row in self.slots for mask, v in row]

    def cell_covered(self, index: int) -> list[Term]:
        return [(v, 1) for v in self.by_cell[index]]

    # --- constraints ----------------------------------------------------------------------

    def add_linear(self, terms: Sequence[Term], lo: int, hi: int, enforce: Sequence[int] = ()) -> None:
        """lo <= sum(coef * var) <= hi, when all ``enforce`` literals hold."""
        constraint = self.model.add_linear_constraint(self._sum(terms), lo, hi)
        if enforce:
            constraint.only_enforce_if(self._literals(enforce))

    def add_at_most_one(self, literals: Sequence[int]) -> None:
        self.model.add_at_most_one(self._literals(literals))

    def add_bool_or(self, literals: Sequence[int], enforce: Sequence[int] = ()) -> None:
        constraint = self.model.add_bool_or(self._literals(literals))
        if enforce:
            constraint.only_enforce_if(self._literals(enforce))

    def forbid(self, var: int) -> None:
        self.model.add_bool_and(self._literals([~var]))

    # --- the solvers' own constraints ------------------------------------------------------

    def limit_cost(self, budget: int) -> None:
        """The patches placed cost at most ``budget`` buttons."""
        ids = self.patch_ids
        self.add_linear([(v, PATCHES[ids[s]].cost) for s, _, v in self.choices()], 0, budget)

    def cap_region(self, region: int, cap: int) -> None:
        """The cells covered by placements touching ``region`` at most ``cap``: for an empty region of
        the cells the placements may use, the cells covered in it (a placement is connected, so it
        lies inside one region)."""
        self.add_linear([(v, mask.bit_count()) for _, mask, v in self.choices() if mask & region], 0, cap)

    def exclude_choice(self, chosen: int, worth: Sequence[int]) -> None:
        """A no-good: not every patch of ``chosen`` (bit ``s``: slot ``s``) placed with no other patch
        worth something (``worth[s] > 0``) placed: the sum over the set less the sum over the others
        worth something is at most the set's size less one."""
        terms = [(v, 1 if chosen >> s & 1 else -1) for s, _, v in self.choices() if chosen >> s & 1 or worth[s] > 0]
        self.add_linear(terms, -len(worth), chosen.bit_count() - 1)

    def order_twins(self, twins: Sequence[Sequence[int]]) -> None:
        """One ordering for each group of interchangeable slots (patches equal for the question):
        a twin is placed only when the one before it is, and on a later lowest cell. Before
        ``break_symmetry``, which leaves the twins out of its chain."""
        if self._chain:
            raise ValueError("order_twins comes before break_symmetry")
        slots = self.slots
        for group in twins:
            self._twins.append(list(group))
            for a, b in itertools.pairwise(group):
                # when b is placed, a is placed too ...
                self.add_linear([(v, 1) for _, v in slots[b]] + [(v, -1) for _, v in slots[a]], -1, 0)
                # ... and on an earlier lowest cell: pos_a - pos_b + 82 * used_b <= 81
                terms = [(v, (mask & -mask).bit_length()) for mask, v in slots[a]]
                terms += [(v, 82 - (mask & -mask).bit_length()) for mask, v in slots[b]]
                self.add_linear(terms, 0, 81)

    def break_symmetry(self, chain_length: int) -> None:
        """The quilt's symmetries broken on a chain of the ``chain_length`` largest patches that can
        be placed (twins ordered by ``order_twins`` left out; ties by slot): the first of them placed
        lies on a canonical placement (the smallest mask of its orbit). Nothing on an asymmetric
        quilt."""
        symmetries = quilt_symmetries(self.quilt)
        if len(symmetries) <= 1:
            return
        twin_slots = {s for group in self._twins for s in group}
        chain = [s for s, row in enumerate(self.slots) if s not in twin_slots and row]
        chain.sort(key=lambda s: (-PATCHES[self.patch_ids[s]].area, s))
        self._chain, self._symmetries = chain[:chain_length], symmetries
        for i, s in enumerate(self._chain):
            canonical = canonical_placements(self.patch_ids[s], symmetries)
            earlier = [v for t in self._chain[:i] for _, v in self.slots[t]]
            for mask, var in self.slots[s]:
                if mask not in canonical:
                    if earlier:
                        self.add_bool_or(earlier, enforce=[var])
                    else:
                        self.forbid(var)

    def require_window(self, reachable: int) -> bool:
        """Some 7x7 square completely covered (a Boolean per square whose missing cells are all in
        ``reachable``). False, with nothing added, when no square can be: the requirement cannot be
        met."""
        choose = []
        for wmask in WINDOW_MASKS:
            missing = wmask & ~self.quilt
            if missing & ~reachable:
                continue
            w = self.new_bools(1)
            for cell in iter_bits(missing):
                self.add_linear(self.cell_covered(cell), 1, 1, enforce=[w])
            choose.append(w)
        if not choose:
            return False
        self.add_bool_or(choose)
        return True

    # --- objective and warm start --------------------------------------------------------

    def maximize(self, terms: Sequence[Term], at_most: int | None = None, at_least: int | None = None) -> None:
        """Maximise sum(coef * var); ``at_most`` / ``at_least`` bound it (a proven bound, an
        incumbent's value) as the objective's domain, which CP-SAT uses directly."""
        self.model.maximize(self._sum(terms))
        if at_most is not None or at_least is not None:
            high = sum(c for _, c in terms if c > 0) if at_most is None else at_most
            low = sum(c for _, c in terms if c < 0) if at_least is None else min(at_least, high)
            # CpModel has no call for it: the domain of the documented objective proto, which CP-SAT
            # minimises as the negated sum (scaling factor -1), hence the negated bounds
            self.model.proto.objective.domain.extend([-high, -low])
        self._has_objective = True

    def add_hint(self, placements: Iterable[tuple[int, int]]) -> None:
        """Warm start: the (patch id, mask) pairs of a known solution, mapped first onto the image of
        it that the model's twins ordering and symmetry breaking allow, when it has them."""
        chosen = set(placements)
        ids = self.patch_ids
        if self._chain or self._twins:
            slot_of = {pid: s for s, pid in enumerate(ids)}
            by_slot = self._allowed_image({slot_of[pid]: mask for pid, mask in chosen})
            chosen = {(ids[s], mask) for s, mask in by_slot.items()}
        add = self.model.add_hint
        for slot, mask, var in self.choices():
            add(self._vars[var], int((ids[slot], mask) in chosen))

    def _allowed_image(self, by_slot: dict[int, int]) -> dict[int, int]:
        """A solution (mask by slot) mapped by a quilt symmetry so that the first patch of the chain
        it places lies on a canonical placement, then with each group of twins' masks in order."""
        for slot in self._chain:
            if slot in by_slot:
                mask = by_slot[slot]
                best = min(self._symmetries, key=lambda s: transform(mask, s))
                by_slot = {k: transform(m, best) for k, m in by_slot.items()}
                break
        for group in self._twins:
            masks = sorted((by_slot[s] for s in group if s in by_slot), key=lambda m: m & -m)
            for s in group:
                by_slot.pop(s, None)
            for s, m in zip(group, masks, strict=False):
                by_slot[s] = m
        return by_slot

    # --- solve ----------------------------------------------------------------------------

    def solve(
        self,
        config: SolverConfig,
        deadline: Deadline,
        on_solution: Callable[[float, float], None] | None = None,
        handle: SolveHandle | None = None,
        parameters: dict[str, int | bool | float] | None = None,
    ) -> Solution:
        """Solve by ``deadline`` with explicit parameters; ``on_solution(objective, bound)`` for
        progress.

        CP-SAT keeps its own time: it gets ``clock.solver_seconds(deadline)``. It releases the GIL
        while it searches, so a solve can run in a thread beside Python work; ``handle`` lets that
        work stop it.
        """
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        if handle is not None:
            handle.attach(solver)
            if handle.stopped:
                return Solution(status=SolveStatus.UNKNOWN)
        solver.parameters.max_time_in_seconds = solver_seconds(deadline)
        solver.parameters.num_workers = config.workers
        solver.parameters.random_seed = config.seed
        solver.parameters.log_search_progress = config.log
        for name, setting in (parameters or {}).items():
            setattr(solver.parameters, name, setting)
        started = time.perf_counter()
        # no callback unless asked: each one has to take the GIL
        callback = _progress(on_solution) if on_solution is not None else None
        code = solver.solve(self.model, callback)
        wall = time.perf_counter() - started
        status = _status(code)
        if status not in (SolveStatus.OPTIMAL, SolveStatus.FEASIBLE):
            return Solution(status=status, wall_time=wall)
        values = solver.response_proto.solution
        ids = self.patch_ids
        return Solution(
            status=status,
            objective=solver.objective_value if self._has_objective else None,
            bound=solver.best_objective_bound if self._has_objective else None,
            wall_time=wall,
            placements=[PlacedPatch.of(ids[slot], mask) for slot, mask, var in self.choices() if values[var]],
        )


def _index(placements: Sequence[Sequence[int]]) -> tuple[list[list[tuple[int, int]]], list[list[int]]]:
    """Number the placements in order: per slot its ``(mask, variable)`` pairs, per cell the
    variables of the placements covering it."""
    slots: list[list[tuple[int, int]]] = []
    by_cell: list[list[int]] = [[] for _ in range(CELLS)]
    index = 0
    for masks in placements:
        row = []
        for mask in masks:
            row.append((mask, index))
            for cell in iter_bits(mask):
                by_cell[cell].append(index)
            index += 1
        slots.append(row)
    return slots, by_cell


def _progress(report: Callable[[float, float], None]) -> cp_model.CpSolverSolutionCallback:
    """A callback that hands each solution's objective and bound to ``report``."""
    from ortools.sat.python import cp_model

    class Progress(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            report(self.objective_value, self.best_objective_bound)

    return Progress()
