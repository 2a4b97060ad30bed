"""The one placement model every solver builds on, and the typed instance, config and solution.

One Boolean per (patch, placement) over the engine's precomputed masks, at most one
placement per patch, at most one patch per cell, placements touching covered cells left out.
Best fit, 7x7 completion, the advisor and optimal fill all add their own constraints and
objective to this model, in a fixed order: variables and the placement constraints here, then
the caller's constraints and objective, then ``solve``, which sets every parameter explicitly
and maps every CP-SAT status to ``SolveStatus``.

The model is written straight into CP-SAT's proto by variable index (a literal is a variable
index, ``~v`` its negation): no Python variable objects, no names, Booleans added in cached
blocks. Building then takes a few milliseconds where the object API takes tens, which counts
when the whole solve takes less (most best-fit and fill calls).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum

from ortools.sat.python import cp_model, cp_model_helper
from pydantic import BaseModel, ConfigDict, Field

from patchwork_opt.core.bitboard import CELLS, FULL, cells_of
from patchwork_opt.core.catalogue import PLACEMENTS, check_patch_ids
from patchwork_opt.core.errors import PatchworkError

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
            raise PatchworkError("quilt must be an 81-bit mask")
        return cls(quilt=quilt, patch_ids=tuple(check_patch_ids(patch_ids)))


class SolverConfig(BaseModel):
    """How long and how a CP-SAT solve runs. Tests use ``workers=1`` and a fixed seed."""

    model_config = ConfigDict(frozen=True)

    time_limit: float = Field(default=10.0, gt=0, le=3600, description="Wall-clock limit in seconds.")
    workers: int = Field(default=2, ge=1, le=64, description="CP-SAT search workers.")
    seed: int = Field(default=0, ge=0, description="CP-SAT random seed.")
    log: bool = Field(default=False, description="Print the CP-SAT search log.")


class SolveStatus(StrEnum):
    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    UNKNOWN = "unknown"
    MODEL_INVALID = "model_invalid"


_STATUS = {
    cp_model.OPTIMAL: SolveStatus.OPTIMAL,
    cp_model.FEASIBLE: SolveStatus.FEASIBLE,
    cp_model.INFEASIBLE: SolveStatus.INFEASIBLE,
    cp_model.UNKNOWN: SolveStatus.UNKNOWN,
    cp_model.MODEL_INVALID: SolveStatus.MODEL_INVALID,
}


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
        out = 0
        for r, c in self.cells:
            out |= 1 << (r * 9 + c)
        return out


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


class _Proto:
    """What ``CpSolver.solve`` reads: ``.proto``. ``cp_model.CpModel()`` itself costs
    milliseconds (it installs its camelCase aliases), more than many whole solves."""

    def __init__(self) -> None:
        self.proto = cp_model_helper.CpModelProto()


#: _BOOL_BLOCKS[k]: a proto of ``2**k`` Booleans, grown on demand and shared by every model (the
#: web service builds models in two solver threads at once: a block is appended under the lock,
#: complete, and never changed after).
_BOOL_BLOCKS: list[cp_model_helper.CpModelProto] = []
_BOOL_BLOCKS_LOCK = threading.Lock()


def _bool_block(size_log2: int) -> cp_model_helper.CpModelProto:
    """A proto holding ``2**size_log2`` Booleans, built by doubling and cached: merging these
    blocks adds variables far faster than one call per variable."""
    if size_log2 < len(_BOOL_BLOCKS):  # the usual case: already built, read without the lock
        return _BOOL_BLOCKS[size_log2]
    with _BOOL_BLOCKS_LOCK:
        while len(_BOOL_BLOCKS) <= size_log2:
            block = cp_model_helper.CpModelProto()
            if not _BOOL_BLOCKS:
                block.variables.add().domain.extend([0, 1])
            else:
                block.merge_from(_BOOL_BLOCKS[-1])
                block.merge_from(_BOOL_BLOCKS[-1])
            _BOOL_BLOCKS.append(block)
        return _BOOL_BLOCKS[size_log2]


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
        self._model = _Proto()
        self.proto = self._model.proto
        self._has_objective = False
        # variables
        if placements is None:
            forbidden = quilt if allowed is None else quilt | (FULL & ~allowed)
            placements = [[m for m in PLACEMENTS[pid] if not m & forbidden] for pid in self.patch_ids]
        elif len(placements) != len(self.patch_ids):
            raise ValueError("placements: one list of masks per patch id")
        self.slots: list[list[tuple[int, int]]] = []
        self.by_cell: list[list[int]] = [[] for _ in range(CELLS)]
        index = 0
        for masks in placements:
            row = []
            for mask in masks:
                row.append((mask, index))
                rest = mask
                while rest:
                    low = rest & -rest
                    self.by_cell[low.bit_length() - 1].append(index)
                    rest ^= low
                index += 1
            self.slots.append(row)
        self.placement_count = index
        self.new_bools(index)
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
        first = len(self.proto.variables)
        k = 0
        while count:
            if count & 1:
                self.proto.merge_from(_bool_block(k))
            count >>= 1
            k += 1
        return first

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
        ct = self.proto.constraints.add()
        if enforce:
            ct.enforcement_literal.extend(enforce)
        ct.linear.vars.extend([v for v, _ in terms])
        ct.linear.coeffs.extend([c for _, c in terms])
        ct.linear.domain.extend([lo, hi])

    def add_at_most_one(self, literals: Sequence[int]) -> None:
        self.proto.constraints.add().at_most_one.literals.extend(literals)

    def add_bool_or(self, literals: Sequence[int], enforce: Sequence[int] = ()) -> None:
        ct = self.proto.constraints.add()
        if enforce:
            ct.enforcement_literal.extend(enforce)
        ct.bool_or.literals.extend(literals)

    def forbid(self, var: int) -> None:
        self.proto.constraints.add().bool_and.literals.append(~var)

    # --- objective and warm start --------------------------------------------------------

    def maximize(self, terms: Sequence[Term], at_most: int | None = None, at_least: int | None = None) -> None:
        """Maximise sum(coef * var); ``at_most`` / ``at_least`` bound it (a proven bound, an
        incumbent's value) as the objective's domain, which CP-SAT uses directly."""
        # CP-SAT minimises scaling_factor * sum: both are negated
        objective = self.proto.objective
        objective.vars.extend([v for v, _ in terms])
        objective.coeffs.extend([-c for _, c in terms])
        objective.scaling_factor = -1
        if at_most is not None or at_least is not None:
            high = sum(c for _, c in terms if c > 0) if at_most is None else at_most
            low = sum(c for _, c in terms if c < 0) if at_least is None else min(at_least, high)
            objective.domain.extend([-high, -low])
        self._has_objective = True

    def add_hint(self, placements: Iterable[tuple[int, int]]) -> None:
        """Warm start: the (patch id, mask) pairs of a known solution."""
        chosen = set(placements)
        ids = self.patch_ids
        hint = self.proto.solution_hint
        hint.vars.extend(range(self.placement_count))
        hint.values.extend([int((ids[slot], mask) in chosen) for slot, mask, _ in self.choices()])

    # --- solve ----------------------------------------------------------------------------

    def solve(
        self,
        config: SolverConfig,
        on_solution: Callable[[float, float], None] | None = None,
        handle: SolveHandle | None = None,
        parameters: dict[str, int | bool | float] | None = None,
    ) -> Solution:
        """Solve with explicit parameters; ``on_solution(objective, bound)`` for progress.

        CP-SAT releases the GIL while it searches, so a solve can run in a thread beside
        Python work; ``handle`` lets that work stop it.
        """
        solver = cp_model.CpSolver()
        if handle is not None:
            handle.attach(solver)
            if handle.stopped:
                return Solution(status=SolveStatus.UNKNOWN)
        solver.parameters.max_time_in_seconds = config.time_limit
        solver.parameters.num_workers = config.workers
        solver.parameters.random_seed = config.seed
        solver.parameters.log_search_progress = config.log
        for name, setting in (parameters or {}).items():
            setattr(solver.parameters, name, setting)
        started = time.perf_counter()
        # no callback unless asked: each one has to take the GIL
        if on_solution is not None:
            code = solver.solve(self._model, _Progress(on_solution))  # type: ignore[arg-type]
        else:
            code = solver.solve(self._model)  # type: ignore[arg-type]
        wall = time.perf_counter() - started
        status = _STATUS.get(code, SolveStatus.UNKNOWN)
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


class _Progress(cp_model.CpSolverSolutionCallback):
    def __init__(self, report: Callable[[float, float], None]) -> None:
        super().__init__()
        self._report = report

    def on_solution_callback(self) -> None:
        self._report(self.objective_value, self.best_objective_bound)
