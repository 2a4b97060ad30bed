"""The one placement model every solver builds on, and the typed config and solution.

One Boolean per (patch, placement) over the engine's precomputed masks, at most one
placement per patch, at most one patch per cell, placements touching covered cells left out.
The model is built in a fixed order: variables, constraints; the caller adds its objective,
then ``solve`` sets the parameters explicitly and maps every CP-SAT status.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum

from ortools.sat.python import cp_model
from pydantic import BaseModel, ConfigDict, Field

from patchwork_opt.bitboard import CELLS, cells_of, iter_bits
from patchwork_opt.catalogue import PLACEMENTS, patch


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


class PlacementModel:
    """Booleans ``x[patch, placement]`` over the empty cells of ``quilt``.

    ``allowed`` restricts placements to lie inside that mask (for example one 7x7 window
    plus what surrounds it); by default any empty cell may be covered.
    """

    def __init__(self, quilt: int, patch_ids: Sequence[int], allowed: int | None = None) -> None:
        self.quilt = quilt
        self.patch_ids = list(patch_ids)
        for pid in self.patch_ids:
            patch(pid)  # raises UnknownPatchError
        self.model = cp_model.CpModel()
        forbidden = quilt if allowed is None else quilt | ~allowed
        # variables
        self.choices: list[tuple[int, int, cp_model.IntVar]] = []
        self.by_patch: dict[int, list[cp_model.IntVar]] = {}
        self.by_cell: list[list[cp_model.IntVar]] = [[] for _ in range(CELLS)]
        for slot, pid in enumerate(self.patch_ids):
            literals = []
            for mask in PLACEMENTS[pid]:
                if mask & forbidden:
                    continue
                var = self.model.new_bool_var("")  # no names: formatting one per variable costs
                self.choices.append((pid, mask, var))
                literals.append(var)
                for index in iter_bits(mask):
                    self.by_cell[index].append(var)
            self.by_patch[slot] = literals
        # constraints
        for literals in self.by_patch.values():
            if len(literals) > 1:
                self.model.add_at_most_one(literals)
        for literals in self.by_cell:
            if len(literals) > 1:
                self.model.add_at_most_one(literals)

    def used(self, slot: int) -> cp_model.LinearExprT:
        """1 when the patch in ``slot`` (index into ``patch_ids``) is placed."""
        return sum(self.by_patch[slot]) if self.by_patch[slot] else 0

    def covered_cells(self) -> cp_model.LinearExprT:
        return sum(mask.bit_count() * var for _, mask, var in self.choices)

    def cell_covered(self, index: int) -> cp_model.LinearExprT:
        return sum(self.by_cell[index])

    def add_hint(self, placements: Iterable[tuple[int, int]]) -> None:
        """Warm start: the (patch, mask) pairs of a known solution."""
        chosen = set(placements)
        for pid, mask, var in self.choices:
            self.model.add_hint(var, (pid, mask) in chosen)

    def solve(
        self,
        config: SolverConfig,
        on_solution: Callable[[float, float], None] | None = None,
        handle: SolveHandle | None = None,
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
        started = time.perf_counter()
        callback = _Progress(on_solution) if on_solution is not None else None
        code = solver.solve(self.model, callback) if callback is not None else solver.solve(self.model)
        wall = time.perf_counter() - started
        status = _STATUS.get(code, SolveStatus.UNKNOWN)
        if status in (SolveStatus.OPTIMAL, SolveStatus.FEASIBLE):
            placements = [
                PlacedPatch.of(pid, mask) for pid, mask, var in self.choices if solver.boolean_value(var)
            ]
            return Solution(
                status=status,
                objective=solver.objective_value if self.model.has_objective() else None,
                bound=solver.best_objective_bound if self.model.has_objective() else None,
                wall_time=wall,
                placements=placements,
            )
        return Solution(status=status, wall_time=wall)


class _Progress(cp_model.CpSolverSolutionCallback):
    def __init__(self, report: Callable[[float, float], None]) -> None:
        super().__init__()
        self._report = report

    def on_solution_callback(self) -> None:
        self._report(self.objective_value, self.best_objective_bound)
