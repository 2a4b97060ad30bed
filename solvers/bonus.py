"""7x7 completion: can some 7x7 square of a quilt be fully covered with these patches?

Each of the nine windows is first put through cheap necessary conditions; a window fails
when one of them does:

- a missing cell that no legal placement of any given patch covers;
- the patches cannot cover enough missing cells even each on its best placement;
- an empty region lying wholly inside the window must be tiled exactly, so its size must be
  a subset sum of the areas of the patches that fit in it (and those regions together must
  be a subset sum of disjoint patches' areas).

Windows that survive go to an exact-cover search (every missing cell covered, placements may
spill onto empty cells outside the window), then to CP-SAT when the search hits its node
limit. The answer is proven infeasible only when every window is refuted.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from patchwork_opt.core.bitboard import FULL, WINDOW_MASKS, WINDOW_ORIGINS, cells_of, iter_bits, regions
from patchwork_opt.core.catalogue import PATCHES, legal_placements
from patchwork_opt.core.errors import PatchworkError
from solvers.bounds import subset_sums
from solvers.model import Instance, PlacedPatch, PlacementModel, SolverConfig, SolveStatus
from solvers.symmetry import interchangeable_groups

#: Exact-cover search nodes per window before CP-SAT takes over.
_NODE_LIMIT = 50_000


class WindowVerdict(BaseModel):
    """What was learnt about one window: refuted (with the reason), covered, or open."""

    model_config = ConfigDict(frozen=True)

    window: tuple[int, int]
    missing: int
    status: SolveStatus
    reason: str


class BonusResult(BaseModel):
    """``feasible`` is True (with ``window`` and ``placements``), False (proven) or None."""

    model_config = ConfigDict(frozen=True)

    feasible: bool | None
    status: SolveStatus
    window: tuple[int, int] | None = None
    placements: list[PlacedPatch] = Field(default_factory=list)
    reason: str = ""
    windows: list[WindowVerdict] = Field(default_factory=list)
    wall_time: float = 0.0

    def to_json(self) -> dict[str, object]:
        data = self.model_dump(mode="json")
        data["placements"] = [{"patch": p.patch, "cells": [list(c) for c in p.cells]} for p in self.placements]
        return data


def _cell_name(mask: int) -> str:
    r, c = cells_of(mask & -mask)[0]
    return f"[{r}, {c}]"


def _refute(
    quilt: int, missing: int, ids: Sequence[int], placements: Sequence[Sequence[int]]
) -> str | None:
    """The first cheap necessary condition the window fails, or None when all hold."""
    reach = 0
    best_cover = []
    for masks in placements:
        top = 0
        for mask in masks:
            inside = (mask & missing).bit_count()
            if inside:
                reach |= mask
                top = max(top, inside)
        best_cover.append(top)
    unreachable = missing & ~reach
    if unreachable:
        return f"cell {_cell_name(unreachable)} cannot be covered by any of the patches"
    need = missing.bit_count()
    if sum(best_cover) < need:
        return f"the patches can cover at most {sum(best_cover)} of the {need} missing cells"
    enclosed_total = 0
    enclosed_slots = 0
    for region in regions(FULL & ~quilt):
        if region & missing and region & ~missing == 0:
            size = region.bit_count()
            slots = [s for s, masks in enumerate(placements) if any(m & ~region == 0 for m in masks)]
            if not subset_sums(PATCHES[ids[s]].area for s in slots) >> size & 1:
                return (
                    f"the enclosed empty region at {_cell_name(region)} ({size} cells) is no sum of "
                    "the areas of the patches that fit in it"
                )
            enclosed_total += size
            for s in slots:
                enclosed_slots |= 1 << s
    if enclosed_total:
        areas = [PATCHES[ids[s]].area for s in range(len(ids)) if enclosed_slots >> s & 1]
        if not subset_sums(areas) >> enclosed_total & 1:
            return f"the enclosed empty regions ({enclosed_total} cells) cannot be tiled by disjoint patches"
    return None


def _exact_cover(
    missing: int,
    quilt: int,
    placements: Sequence[Sequence[int]],
    twins: Sequence[Sequence[int]],
    node_limit: int,
    deadline: float,
) -> tuple[bool | None, list[tuple[int, int]]]:
    """Cover every missing cell with disjoint placements: (found / None at the limit, placements)."""
    n = len(placements)
    by_first: list[dict[int, list[int]]] = [{} for _ in range(n)]
    for slot, masks in enumerate(placements):
        for mask in masks:
            inside = mask & missing
            if inside:
                by_first[slot].setdefault((inside & -inside).bit_length() - 1, []).append(mask)
    needs: dict[int, int] = {}
    for group in twins:
        for before, after in itertools.pairwise(group):
            needs[after] = before
    max_cover = [max(((m & missing).bit_count() for m in masks), default=0) for masks in placements]
    chosen: list[tuple[int, int]] = []
    nodes = 0

    class Stop(Exception):
        pass

    def search(open_cells: int, occupied: int, unused: int, capacity: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes % 512 == 0 and (nodes >= node_limit or time.perf_counter() > deadline):
            raise Stop
        if not open_cells:
            return True
        if capacity < open_cells.bit_count():
            return False
        cell = (open_cells & -open_cells).bit_length() - 1
        for s in range(n):
            if not unused >> s & 1:
                continue
            twin = needs.get(s)
            if twin is not None and unused >> twin & 1:
                continue
            for mask in by_first[s].get(cell, ()):
                if mask & occupied:
                    continue
                chosen.append((s, mask))
                if search(open_cells & ~mask, occupied | mask, unused & ~(1 << s), capacity - max_cover[s]):
                    return True
                chosen.pop()
        return False

    try:
        found = search(missing, quilt, (1 << n) - 1, sum(max_cover))
    except Stop:
        return None, []
    return found, list(chosen)


def _cp_sat_cover(
    quilt: int, ids: Sequence[int], missing: int, placements: Sequence[Sequence[int]], config: SolverConfig
) -> tuple[SolveStatus, list[tuple[int, int]]]:
    """CP-SAT on the placement model: every missing cell covered, patches at most once, no overlap."""
    model = PlacementModel(quilt, ids, placements=[[m for m in masks if m & missing] for masks in placements])
    cells = list(iter_bits(missing))
    if any(not model.by_cell[index] for index in cells):
        return SolveStatus.INFEASIBLE, []
    for index in cells:
        model.add_bool_or(model.by_cell[index])  # at least one; the model has at most one
    solution = model.solve(config)
    if solution.status in (SolveStatus.OPTIMAL, SolveStatus.FEASIBLE):
        slot_of = {pid: s for s, pid in enumerate(ids)}
        return SolveStatus.FEASIBLE, [(slot_of[p.patch], p.mask) for p in solution.placements]
    if solution.status == SolveStatus.INFEASIBLE:
        return SolveStatus.INFEASIBLE, []
    if solution.status == SolveStatus.MODEL_INVALID:
        raise PatchworkError("internal error: the 7x7 completion model is invalid")
    return SolveStatus.UNKNOWN, []


def bonus_completion(
    quilt: int, patch_ids: Sequence[int], config: SolverConfig | None = None
) -> BonusResult:
    """Can a 7x7 square be completed with ``patch_ids`` (each at most once)?"""
    config = config or SolverConfig()
    started = time.perf_counter()
    deadline = started + config.time_limit
    ids = list(Instance.of(quilt, patch_ids).patch_ids)  # validated
    for origin, wmask in zip(WINDOW_ORIGINS, WINDOW_MASKS, strict=True):
        if quilt & wmask == wmask:
            return BonusResult(
                feasible=True,
                status=SolveStatus.FEASIBLE,
                window=origin,
                reason="the square is already complete",
                wall_time=time.perf_counter() - started,
            )
    placements = [legal_placements(pid, quilt) for pid in ids]
    twins = interchangeable_groups(ids)
    verdicts: list[WindowVerdict] = []
    open_windows: list[tuple[tuple[int, int], int]] = []
    for origin, wmask in zip(WINDOW_ORIGINS, WINDOW_MASKS, strict=True):
        missing = wmask & ~quilt
        reason = _refute(quilt, missing, ids, placements)
        if reason is not None:
            verdicts.append(WindowVerdict(window=origin, missing=missing.bit_count(),
                                          status=SolveStatus.INFEASIBLE, reason=reason))
        else:
            open_windows.append((origin, missing))
    # fewest missing cells first: the likeliest to complete
    open_windows.sort(key=lambda w: w[1].bit_count())

    def done(feasible: bool | None, status: SolveStatus, window: tuple[int, int] | None,
             placed: Sequence[tuple[int, int]], reason: str) -> BonusResult:
        verdicts.sort(key=lambda v: v.window)
        return BonusResult(
            feasible=feasible,
            status=status,
            window=window,
            placements=[PlacedPatch.of(ids[s], m) for s, m in sorted(placed)],
            reason=reason,
            windows=verdicts,
            wall_time=time.perf_counter() - started,
        )

    unsettled: list[tuple[tuple[int, int], int]] = []
    refuted_masks: set[int] = set()  # windows missing the same cells share the verdict
    for origin, missing in open_windows:
        if missing in refuted_masks:
            verdicts.append(WindowVerdict(window=origin, missing=missing.bit_count(),
                                          status=SolveStatus.INFEASIBLE, reason="no exact cover (search exhausted)"))
            continue
        found, placed = _exact_cover(missing, quilt, placements, twins, _NODE_LIMIT, deadline)
        if found:
            verdicts.append(WindowVerdict(window=origin, missing=missing.bit_count(),
                                          status=SolveStatus.FEASIBLE, reason="covered"))
            return done(True, SolveStatus.FEASIBLE, origin, placed, f"square at {list(origin)} can be completed")
        if found is False:
            refuted_masks.add(missing)
            verdicts.append(WindowVerdict(window=origin, missing=missing.bit_count(),
                                          status=SolveStatus.INFEASIBLE, reason="no exact cover (search exhausted)"))
        else:
            unsettled.append((origin, missing))
    for i, (origin, missing) in enumerate(unsettled):
        remaining = deadline - time.perf_counter()
        if remaining <= 0.01:
            break
        share = remaining / (len(unsettled) - i)
        status, placed = _cp_sat_cover(
            quilt, ids, missing, placements, config.model_copy(update={"time_limit": share})
        )
        if status == SolveStatus.FEASIBLE:
            verdicts.append(WindowVerdict(window=origin, missing=missing.bit_count(),
                                          status=status, reason="covered (CP-SAT)"))
            return done(True, SolveStatus.FEASIBLE, origin, placed, f"square at {list(origin)} can be completed")
        verdicts.append(WindowVerdict(
            window=origin, missing=missing.bit_count(), status=status,
            reason="no exact cover (CP-SAT proof)" if status == SolveStatus.INFEASIBLE else "time limit",
        ))
    settled = {v.window for v in verdicts if v.status == SolveStatus.INFEASIBLE}
    if len(settled) == len(WINDOW_MASKS):
        return done(False, SolveStatus.INFEASIBLE, None, [], "every 7x7 square is refuted")
    open_count = len(WINDOW_MASKS) - len(settled)
    return done(None, SolveStatus.UNKNOWN, None, [], f"{open_count} square(s) undecided at the time limit")
