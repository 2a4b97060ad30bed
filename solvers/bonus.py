"""7x7 completion: can some 7x7 square of a quilt be fully covered with these patches?

Each of the nine windows is first put through cheap necessary conditions; a window fails
when one of them does:

- a missing cell that no legal placement of any given patch covers;
- the patches cannot cover enough missing cells even each on its best placement;
- an empty region lying wholly inside the window must be tiled exactly, so its size must be
  a subset sum of the areas of the patches that fit in it (and those regions together must
  be a subset sum of disjoint patches' areas).

Windows that survive go to the packing search (``solvers.search``) with the window's missing
cells to cover (placements may spill onto empty cells outside the window): all of them at
once with growing node budgets, so that one easy window settles the question before a hard
one has used its budget; then to CP-SAT for the windows the search left open. The answer is
proven infeasible only when every window is refuted.

This is the one 7x7 completion: ``patchwork bonus``, the web service's ``/api/bonus`` and the
solver bot's advisor (with its own small budgets) all call ``bonus_completion``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from patchwork_opt.core.bitboard import FULL, WINDOW_MASKS, WINDOW_ORIGINS, cells_of, iter_bits, regions
from patchwork_opt.core.catalogue import PATCHES, legal_placements
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.stop import StopSignal
from solvers.bounds import subset_sums
from solvers.model import Instance, PlacedPatch, PlacementModel, SolveHandle, SolverConfig, SolveStatus
from solvers.search import Packer, PackingProblem

#: Search nodes per window before CP-SAT takes over.
NODE_LIMIT = 50_000
#: The growing node budgets every open window gets in turn (each capped by the node limit).
_BUDGETS = (300, 3_000)


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
    quilt: int, missing: int, ids: Sequence[int], placements: Sequence[Sequence[int]], reach: int
) -> str | None:
    """The first cheap necessary condition the window fails, or None when all hold
    (``reach``: the cells some placement covers)."""
    unreachable = missing & ~reach
    if unreachable:
        return f"cell {_cell_name(unreachable)} cannot be covered by any of the patches"
    need = missing.bit_count()
    best_cover = [max((mask & missing).bit_count() for mask in masks) if masks else 0 for masks in placements]
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


def _cp_sat_cover(
    quilt: int, ids: Sequence[int], missing: int, placements: Sequence[Sequence[int]], config: SolverConfig,
    stop: StopSignal,
) -> tuple[SolveStatus, list[tuple[int, int]]]:
    """CP-SAT on the placement model: every missing cell covered, patches at most once, no overlap."""
    model = PlacementModel(quilt, ids, placements=[[m for m in masks if m & missing] for masks in placements])
    cells = list(iter_bits(missing))
    if any(not model.by_cell[index] for index in cells):
        return SolveStatus.INFEASIBLE, []
    for index in cells:
        model.add_bool_or(model.by_cell[index])  # at least one; the model has at most one
    handle = SolveHandle()
    stop.attach(handle.stop)
    solution = model.solve(config, handle=handle)
    if solution.status in (SolveStatus.OPTIMAL, SolveStatus.FEASIBLE):
        slot_of = {pid: s for s, pid in enumerate(ids)}
        return SolveStatus.FEASIBLE, [(slot_of[p.patch], p.mask) for p in solution.placements]
    if solution.status == SolveStatus.INFEASIBLE:
        return SolveStatus.INFEASIBLE, []
    if solution.status == SolveStatus.MODEL_INVALID:
        raise PatchworkError("internal error: the 7x7 completion model is invalid")
    return SolveStatus.UNKNOWN, []


def bonus_completion(
    quilt: int,
    patch_ids: Sequence[int],
    config: SolverConfig | None = None,
    node_limit: int = NODE_LIMIT,
    stop: StopSignal | None = None,
) -> BonusResult:
    """Can a 7x7 square be completed with ``patch_ids`` (each at most once)?

    ``config.time_limit`` bounds the whole answer; ``node_limit`` the search on each window
    before CP-SAT takes over; ``stop``, set from another thread, ends it early as the time
    limit would (undecided windows stay undecided).
    """
    config = config or SolverConfig()
    stop = stop or StopSignal()
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
    reach = 0
    for masks in placements:
        for mask in masks:
            reach |= mask
    verdicts: list[WindowVerdict] = []
    open_windows: list[tuple[tuple[int, int], int]] = []
    for origin, wmask in zip(WINDOW_ORIGINS, WINDOW_MASKS, strict=True):
        missing = wmask & ~quilt
        reason = _refute(quilt, missing, ids, placements, reach)
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

    # one search per distinct set of missing cells (windows missing the same cells share
    # the verdict), all resumed with growing node budgets: an easy window settles it at once
    searches: dict[int, Packer] = {}
    for _, missing in open_windows:
        if missing not in searches:
            searches[missing] = Packer(PackingProblem(FULL & ~quilt, tuple(ids), cover=missing))
            stop.attach(searches[missing].request_stop)
    pending = list(searches)
    spent = dict.fromkeys(searches, 0)
    refuted: set[int] = set()

    def record_refuted() -> None:
        for origin, missing in open_windows:
            if missing in refuted:
                verdicts.append(WindowVerdict(window=origin, missing=missing.bit_count(), status=SolveStatus.INFEASIBLE,
                                              reason="no exact cover (search exhausted)"))

    for budget in sorted({min(b, node_limit) for b in (*_BUDGETS, node_limit)}):
        still = []
        for missing in pending:
            found = searches[missing].run(node_limit=budget - spent[missing], deadline=deadline)
            spent[missing] = found.nodes
            if found.covered:
                record_refuted()
                origin = next(o for o, m in open_windows if m == missing)
                verdicts.append(WindowVerdict(window=origin, missing=missing.bit_count(),
                                              status=SolveStatus.FEASIBLE, reason="covered"))
                return done(True, SolveStatus.FEASIBLE, origin, found.placements,
                            f"square at {list(origin)} can be completed")
            if found.covered is None:
                still.append(missing)
            else:
                refuted.add(missing)
        pending = still
        if not pending or time.perf_counter() >= deadline or stop.is_set():
            break
    record_refuted()
    unsettled = [(origin, missing) for origin, missing in open_windows if missing not in refuted]
    for i, (origin, missing) in enumerate(unsettled):
        remaining = deadline - time.perf_counter()
        if remaining <= 0.01 or stop.is_set():
            break
        share = remaining / (len(unsettled) - i)
        status, placed = _cp_sat_cover(
            quilt, ids, missing, placements, config.model_copy(update={"time_limit": share}), stop
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
