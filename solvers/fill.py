"""Optimal fill's pipeline: the subset of patches and placements that covers the most of a quilt.

The pipeline goes from cheap to expensive and stops as soon as something proves optimality. Its
races of two searches on two cores are ``solvers.fill_races``; its CP-SAT model is
``solvers.fill_cp_sat``, on the placement model's own constraints:

0. with ``require_bonus``, the requirement is settled first, by the one 7x7 completion
   (``solvers.bonus.bonus_completion``, what ``patchwork bonus`` answers) under the button
   budget, given its share of the deadline (``FILL_BONUS_SHARE``): its cheap bounds (the
   patches' area against the fewest missing cells of any square, the cheapest completion against
   the budget) and its packing search prove most impossible requests in milliseconds, and the answer is ``infeasible``
   with the completion's reason. A completion found is a fill that meets the requirement: it
   warm-starts CP-SAT, bounds its objective from below, and is the answer if CP-SAT finds
   nothing better in time. Only a completion left open by the deadline leaves the answer
   ``unknown`` (when CP-SAT, step 5, settles nothing either);
1. bounds from areas alone (largest subset sum of areas that fits the reachable cells, and
   the same per empty region; a knapsack on values for the ``points`` objective);
2. the compiled packing search (``solvers.search``, about 1.5 million nodes a second) on the
   fill's ``PackingProblem`` (values are areas for ``cells``, points for ``points``), given
   5 ms alone (``FILL_ALONE_SECONDS``), which settles most instances outright, dense ones
   included, and otherwise leaves a good incumbent;
3. with several empty regions, each region packed on its own (``region_caps``): a tighter
   bound, which the incumbent may already reach;
4. for ``cells``, the race of ``fill_races.race_corners``: the compiled search goes on in a thread while the
   same search on the quilt turned half a turn runs in this one, each on a core (both
   release the GIL); the first to settle the fill stops the other. How long a search takes
   depends on how soon its cell order meets the tight pockets, so the two scans, from
   opposite corners, often differ tenfold either way. If neither has settled it after 30%
   of the time (``TURNED_SHARE``), CP-SAT (step 5, one worker) takes over the second core;
5. CP-SAT on the shared placement model (``solvers.model.PlacementModel``) with one ordering
   for patches sharing a shape, the quilt's symmetries broken on a few patches, the bound
   and the incumbent's value as the objective's domain, the per-region caps as constraints
   and the incumbent as a hint. For ``points`` the compiled search goes on beside CP-SAT (each
   on a core); the first to prove optimality stops the other.

``exclude_sets`` asks for the best fill of another choice of patches: a fill whose patches worth
something (all of them for ``cells``) are exactly one of the sets does not count. Both the
compiled search (``PackingProblem.exclude``) and CP-SAT (a no-good on the placed patches)
honour it, so what settles the fill does not change the answer. The area bounds know nothing of
it, and when the excluded choice is the optimum they are reached by it alone: a bound of the
other choices (``_other_choice_upper``: each leaves a patch of the set out or adds to all of
it) replaces them when lower. It is how a fill puzzle proves its best choice of patches the
only one.

Objective ``cells`` counts the cells the placed patches cover. Objective ``points`` counts,
for each placed patch, 2 per cell (an empty cell costs 2 at the end) plus its income times
the income marks still ahead, minus its button cost: the change in final score the fill
brings. ``bound`` is always a proven upper bound on the objective.

Every step ends by the caller's deadline (``core.clock``), each taking the share of it named
below (``FILL_BONUS_SHARE`` to ``TURNED_SECONDS``: the one place the fill's time is cut); CP-SAT is
handed the seconds left (``clock.solver_seconds``) as it starts.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from patchwork_opt.core.bitboard import CELLS, full_window
from patchwork_opt.core.catalogue import PATCHES, patch_worth
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.i18n import N_, _, ngettext
from solvers import fill_cp_sat, fill_races
from solvers.bonus import bonus_completion
from solvers.bounds import FillBounds, fill_bounds, knapsack_bound
from solvers.fill_cp_sat import CpOutcome, CpSolve
from solvers.fill_races import RaceOutcome
from solvers.model import Instance, PlacedPatch, SolveHandle, SolverConfig, SolveStatus
from solvers.search import Packer, PackingProblem, PackResult
from solvers.symmetry import interchangeable_groups

Objective = Literal["cells", "points"]
#: progress(best objective or None, proven bound, phase)
ProgressFn = Callable[[float | None, float, str], None]

# --- the steps' shares of the caller's deadline (``Deadline.share``, ``within``) ------------------
#: The share of its time the 7x7 completion gets to settle ``require_bonus`` (CP-SAT, which
#: optimizes under the requirement, has what it leaves).
FILL_BONUS_SHARE = 0.5
#: The compiled search alone, before anything joins it: these seconds, at most this share (most
#: fills are settled in it).
FILL_ALONE_SECONDS = 0.005
FILL_ALONE_SHARE = 0.5
#: The bounds of the empty regions packed one by one: these seconds, at most this share.
REGION_BOUNDS_SECONDS = 0.02
REGION_BOUNDS_SHARE = 0.1
#: The second search (the quilt turned half a turn) has the second core for this share of the time
#: left, and at least these seconds; CP-SAT then takes that core over.
TURNED_SHARE = 0.3
TURNED_SECONDS = 0.5

#: At most this many CP-SAT workers on our side (None: as configured). One: the other core
#: runs the compiled search beside it.
_CP_WORKERS: int | None = 1
#: Transposition table of the compiled search from the start (small: cheap to allocate for the
#: many instances settled in a millisecond) and once it outlives its time alone.
_FIRST_TABLE_BITS = 12
_TABLE_BITS = 18
#: Search nodes (per region) for the per-region bounds of ``region_caps``.
_REGION_NODES = 100_000


class FillResult(BaseModel):
    """The best fill found; ``optimal`` is True only when proven."""

    model_config = ConfigDict(frozen=True)

    status: SolveStatus
    objective_kind: Objective = "cells"
    objective: int | None = Field(description="Cells covered by the placed patches, or points.")
    bound: int = Field(description="Proven upper bound on the objective.")
    optimal: bool
    covered: int = Field(description="Covered cells of the quilt after the fill.")
    empty: int = Field(description="Empty cells of the quilt after the fill.")
    placed_cells: int = 0
    cost: int = 0
    income: int = 0
    bonus_window: tuple[int, int] | None = None
    wall_time: float = 0.0
    method: str = Field(default="", description="What settled it: bounds, dfs, cp-sat or bonus (the 7x7 completion).")
    reason: str = Field(
        default="",
        description="Why no fill is given: what proves the requirements impossible (status infeasible), "
        "or what the time limit left open (status unknown); empty otherwise.",
    )
    placements: list[PlacedPatch] = Field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        data = self.model_dump(mode="json")
        data["placements"] = [{"patch": p.patch, "cells": [list(c) for c in p.cells]} for p in self.placements]
        return data


def patch_value(patch_id: int, objective: Objective, marks: int) -> int:
    if objective == "cells":
        return PATCHES[patch_id].area
    return patch_worth(patch_id, marks)


def _upper_bound(
    bounds: FillBounds, patch_ids: Sequence[int], values: Sequence[int], budget: int | None
) -> int:
    usable = [s for s, masks in enumerate(bounds.placements) if masks]
    areas = [PATCHES[patch_ids[s]].area for s in usable]
    costs = [PATCHES[patch_ids[s]].cost for s in usable]
    vals = [values[s] for s in usable]
    if all(values[s] == PATCHES[patch_ids[s]].area for s in usable):
        upper = bounds.upper
        if budget is not None:
            upper = min(upper, knapsack_bound(areas, vals, bounds.reachable.bit_count(), costs, budget))
        return upper
    # points: per region a knapsack would double count patches; the global one is safe
    return knapsack_bound(areas, vals, bounds.reachable.bit_count(), costs, budget)


@dataclass
class _Fill:
    """One ``optimal_fill`` call as it goes: the validated instance and its bounds, its deadline, the
    best fill known to meet the requirements (``incumbent``, None: none known; found by
    ``found_by``), and how every answer is made (``finish``)."""

    quilt: int
    ids: list[int]
    values: list[int]
    objective: Objective
    budget: int | None
    require_bonus: bool
    config: SolverConfig
    deadline: Deadline
    progress: ProgressFn | None
    stop: StopSignal
    started: float
    bounds: FillBounds
    upper: int
    twins: list[list[int]]
    exclude: tuple[int, ...] = ()
    incumbent: PackResult | None = field(default_factory=lambda: PackResult(value=0))
    found_by: str = "dfs"
    caps: list[int] = field(default_factory=list)

    @property
    def problem(self) -> PackingProblem:
        values = None if self.objective == "cells" else tuple(self.values)
        return PackingProblem(self.bounds.reachable, tuple(self.ids), values, self.budget, exclude=self.exclude)

    @property
    def part_masks(self) -> list[int]:
        return [region.mask for region in self.bounds.regions]

    @property
    def reasons(self) -> tuple[str, str]:
        """What CP-SAT may still prove, and what the time limit may leave open (each a whole message
        per requirement: the button budget, the patches excluded)."""
        budget = self.budget
        if budget is None and not self.exclude:
            return (_("CP-SAT proved that no 7x7 square can be completed"),
                    _("the time limit left open whether a 7x7 square can be completed"))
        if budget is None:
            # Translators: an impossible fill: no 7x7 square with a choice of patches other than the excluded ones
            return (_("CP-SAT proved that no 7x7 square can be completed by a choice of patches not excluded"),
                    _("the time limit left open whether a 7x7 square can be completed by a choice of patches not "
                      "excluded"))
        if not self.exclude:
            # Translators: an impossible fill: no 7x7 square for at most {count} buttons
            return (ngettext("CP-SAT proved that no 7x7 square can be completed within the budget of {count} button",
                             "CP-SAT proved that no 7x7 square can be completed within the budget of {count} buttons",
                             budget),
                    ngettext("the time limit left open whether a 7x7 square can be completed within the budget of "
                             "{count} button",
                             "the time limit left open whether a 7x7 square can be completed within the budget of "
                             "{count} buttons", budget))
        return (ngettext("CP-SAT proved that no 7x7 square can be completed within the budget of {count} button by a "
                         "choice of patches not excluded",
                         "CP-SAT proved that no 7x7 square can be completed within the budget of {count} buttons by "
                         "a choice of patches not excluded", budget),
                ngettext("the time limit left open whether a 7x7 square can be completed within the budget of "
                         "{count} button by a choice of patches not excluded",
                         "the time limit left open whether a 7x7 square can be completed within the budget of "
                         "{count} buttons by a choice of patches not excluded", budget))

    def cp_sat_config(self, **update: object) -> SolverConfig:
        """The config for CP-SAT (to the deadline): at most ``_CP_WORKERS`` workers."""
        workers = self.config.workers if _CP_WORKERS is None else min(self.config.workers, _CP_WORKERS)
        return self.config.model_copy(update={"workers": workers, **update})

    def cp_sat(self, best: PackResult | None) -> CpSolve:
        """The CP-SAT model of this fill (``solvers.fill_cp_sat``), warm-started from ``best`` (its
        value a lower bound)."""
        progress = self.progress
        on_solution = None if progress is None else lambda value, bound: progress(value, bound, "cp-sat")
        return fill_cp_sat.prepare_fill_model(
            self.quilt, self.ids, self.values, self.bounds, self.upper,
            budget=self.budget, require_bonus=self.require_bonus, twins=self.twins,
            hint=best.placements if best is not None else [], on_solution=on_solution,
            lower=best.value if best is not None else None, region_caps=self.caps, exclude=self.exclude,
        )

    def report(self, value: float | None, phase: str, bound: float | None = None) -> None:
        """Progress: the best value known as ``phase`` starts, against the proven bound (by default
        the fill's)."""
        if self.progress is not None:
            self.progress(value, self.upper if bound is None else bound, phase)

    def finish(
        self, status: SolveStatus, value: int | None, bound: int, placed: Sequence[tuple[int, int]], method: str,
        reason: str = "",
    ) -> FillResult:
        """The result from a status, value, bound, ``(slot, mask)`` placements, method and reason."""
        placed_mask = 0
        for _slot, mask in placed:
            placed_mask |= mask
        final = self.quilt | placed_mask
        return FillResult(
            status=status,
            objective_kind=self.objective,
            objective=value,
            bound=max(bound, value) if value is not None else bound,
            optimal=status == SolveStatus.OPTIMAL,
            covered=final.bit_count(),
            empty=CELLS - final.bit_count(),
            placed_cells=placed_mask.bit_count(),
            cost=sum(PATCHES[self.ids[s]].cost for s, _ in placed),
            income=sum(PATCHES[self.ids[s]].income for s, _ in placed),
            bonus_window=full_window(final),
            wall_time=time.perf_counter() - self.started,
            method=method,
            reason=reason,
            placements=[PlacedPatch.of(self.ids[slot], mask) for slot, mask in sorted(placed)],
        )

    def settled(self, result: PackResult) -> FillResult:
        """A search's proven optimum."""
        return self.finish(SolveStatus.OPTIMAL, result.value, result.value, result.placements, "dfs")

    def out_of_time(self) -> FillResult:
        """The best fill known when no time is left for CP-SAT."""
        if self.incumbent is None:
            return self.finish(SolveStatus.UNKNOWN, None, self.upper, [], "bonus", self.reasons[1])
        return self.finish(SolveStatus.FEASIBLE, self.incumbent.value, self.upper, self.incumbent.placements,
                           self.found_by)

    def finish_cp_sat(self, outcome: CpOutcome, incumbent: PackResult | None, found_by: str) -> FillResult:
        """Map CP-SAT's answer to the result, or the ``incumbent`` (a fill known to meet the
        requirements, found by ``found_by``; None: none known) when it is better or CP-SAT found
        nothing."""
        status, value, bound, placed = outcome
        if status in (SolveStatus.OPTIMAL, SolveStatus.FEASIBLE):
            if incumbent is not None and value is not None and value < incumbent.value:
                value, placed = incumbent.value, incumbent.placements
            return self.finish(status, value, bound, placed, "cp-sat")
        if status == SolveStatus.INFEASIBLE and incumbent is None:
            # only a requirement makes the fill impossible: the empty fill meets all others
            return self.finish(SolveStatus.INFEASIBLE, None, self.upper, [], "cp-sat", self.reasons[0])
        if incumbent is not None:
            return self.finish(SolveStatus.FEASIBLE, incumbent.value, self.upper, incumbent.placements, found_by)
        return self.finish(SolveStatus.UNKNOWN, None, self.upper, [], "cp-sat", self.reasons[1])


def optimal_fill(
    quilt: int,
    patch_ids: Sequence[int],
    *,
    deadline: Deadline,
    objective: Objective = "cells",
    marks: int = 9,
    budget: int | None = None,
    require_bonus: bool = False,
    config: SolverConfig | None = None,
    progress: ProgressFn | None = None,
    stop: StopSignal | None = None,
    exclude_sets: Sequence[Collection[int]] = (),
    packing: bool = True,
) -> FillResult:
    """Choose patches (each at most once) and placements maximising the objective, by ``deadline``
    (with the best fill found then). ``stop``, when set from another thread, ends the solve early
    with the best fill found (as at the deadline); ``config`` says how CP-SAT runs (workers, seed).
    ``exclude_sets``: sets of patch ids (each non-empty, of ``patch_ids``) whose fills do not
    count: the patches a fill places that are worth something must not be exactly one of them.
    ``packing`` False leaves the compiled packing search out (it is compiling for first use, in
    the background: ``apps.warmup.answer_while_compiling``): CP-SAT alone, from the area bounds,
    the 7x7 requirement among its constraints.

    The steps of the module's pipeline, each its own function: the 7x7 requirement, the search
    alone, then CP-SAT alone (a requirement left to it), the race (``cells``) or CP-SAT beside
    the search (``points``).
    """
    fill = _start(quilt, patch_ids, objective, marks, budget, require_bonus, config or SolverConfig(),
                  deadline, progress, stop or StopSignal())
    fill.exclude = _excluded_slots(fill.ids, exclude_sets)
    fill.twins = [group for group in fill.twins if not _splits(group, fill.exclude)]
    fill.upper = min([fill.upper] + [_other_choice_upper(fill, slots) for slots in fill.exclude])
    if not packing:
        return _cp_sat_alone(fill)
    if fill.require_bonus:
        answered = _settle_bonus(fill)
        if answered is not None:
            return answered
    packer: Packer | None = None
    if not fill.require_bonus:
        first = _search_alone(fill)
        if isinstance(first, FillResult):
            return first
        packer = first
    if fill.deadline.remaining() <= 0.01 or fill.stop.is_set():
        return fill.out_of_time()
    if packer is None:
        return _cp_sat_alone(fill)
    if fill.objective == "cells":
        return _race(fill, packer)
    return _cp_sat_beside_search(fill, packer)


def _start(
    quilt: int, patch_ids: Sequence[int], objective: Objective, marks: int, budget: int | None,
    require_bonus: bool, config: SolverConfig, deadline: Deadline, progress: ProgressFn | None, stop: StopSignal,
) -> _Fill:
    """The arguments checked (one-line errors), the values, the area bounds and the twins."""
    started = time.perf_counter()
    if objective not in ("cells", "points"):
        raise PatchworkError(N_("objective must be 'cells' or 'points', not {objective!r}"), objective=objective)
    instance = Instance.of(quilt, patch_ids)  # the quilt and the ids, validated
    if marks < 0 or marks > 9:
        raise PatchworkError(N_("marks must be 0..9, not {marks}"), marks=marks)
    if budget is not None and budget < 0:
        raise PatchworkError(N_("budget must be at least 0, not {budget}"), budget=budget)
    ids = list(instance.patch_ids)
    values = [patch_value(pid, objective, marks) for pid in ids]
    bounds = fill_bounds(quilt, ids)
    return _Fill(
        quilt=quilt, ids=ids, values=values, objective=objective, budget=budget, require_bonus=require_bonus,
        config=config, deadline=deadline, progress=progress, stop=stop, started=started, bounds=bounds,
        upper=_upper_bound(bounds, ids, values, budget),
        twins=interchangeable_groups(ids, _same_for(objective, budget, marks)),
    )


def _excluded_slots(ids: Sequence[int], exclude_sets: Sequence[Collection[int]]) -> tuple[int, ...]:
    """The sets of patch ids to exclude as slot masks (bit ``s``: ``ids[s]``), checked: one line
    naming the set and the patch otherwise."""
    slot_of = {pid: s for s, pid in enumerate(ids)}
    out = []
    for i, patches in enumerate(exclude_sets):
        if not patches:
            raise PatchworkError(N_("exclude_sets[{index}]: a set to exclude names at least one patch"), index=i)
        mask = 0
        for pid in patches:
            if pid not in slot_of:
                raise PatchworkError(N_("exclude_sets[{index}]: patch {patch} is not one of the patches {patches}"),
                                     index=i, patch=pid, patches=list(ids))
            mask |= 1 << slot_of[pid]
        out.append(mask)
    return tuple(out)


def _other_choice_upper(fill: _Fill, excluded: int) -> int:
    """A bound on the fills whose choice of patches is not ``excluded`` (slots worth something):
    such a choice leaves out a patch of it (the area bound of the patches less that one) or adds
    patches to all of it (its value and the best knapsack of the others in the cells and buttons
    it leaves). It lets the search stop early, often at once, where the area bound (reached by
    the excluded optimum) would make it prove every other choice short: a choice of every patch
    offered has no proper superset, and each subset loses a patch's area."""
    slots = [s for s in range(len(fill.ids)) if excluded >> s & 1]
    if any(fill.values[s] <= 0 or not fill.bounds.placements[s] for s in slots):
        return fill.upper  # no fill's choice can be that set: the exclusion excludes nothing
    bounds: list[int] = [0]
    for left_out in slots:
        ids = [pid for s, pid in enumerate(fill.ids) if s != left_out]
        values = [v for s, v in enumerate(fill.values) if s != left_out]
        bounds.append(_upper_bound(fill_bounds(fill.quilt, ids), ids, values, fill.budget))
    room = fill.bounds.reachable.bit_count() - sum(PATCHES[fill.ids[s]].area for s in slots)
    cost = sum(PATCHES[fill.ids[s]].cost for s in slots)
    if room > 0 and (fill.budget is None or cost <= fill.budget):
        others = [s for s in range(len(fill.ids)) if not excluded >> s & 1 and fill.bounds.placements[s]]
        more = knapsack_bound([PATCHES[fill.ids[s]].area for s in others], [fill.values[s] for s in others], room,
                              [PATCHES[fill.ids[s]].cost for s in others],
                              None if fill.budget is None else fill.budget - cost)
        if more > 0:  # some patch worth something can join the set
            bounds.append(sum(fill.values[s] for s in slots) + more)
    return max(bounds)


def _splits(group: Sequence[int], exclude: Sequence[int]) -> bool:
    """Some excluded set holds some of these twins but not all: ordering them (one packing of
    each class equal up to swapping twins) could exclude more than that set."""
    return any(len({e >> s & 1 for s in group}) > 1 for e in exclude)


def _is_excluded(fill: _Fill, placed: Sequence[tuple[int, int]]) -> bool:
    """The patches worth something among ``(slot, mask)`` placements are an excluded set."""
    used = 0
    for slot, _mask in placed:
        if fill.values[slot] > 0:
            used |= 1 << slot
    return used in fill.exclude


def _settle_bonus(fill: _Fill) -> FillResult | None:
    """Step 0: the 7x7 requirement within the budget, by the one 7x7 completion given its share of
    the deadline (``FILL_BONUS_SHARE``). The answer when it proves the requirement
    impossible; otherwise None, with the completion found as the incumbent (none when left open),
    or the requirement dropped when a square is complete already."""
    completion = bonus_completion(
        fill.quilt, fill.ids, deadline=fill.deadline.share(FILL_BONUS_SHARE), config=fill.config,
        stop=fill.stop, budget=fill.budget,
    )
    if completion.status == SolveStatus.INFEASIBLE:
        return fill.finish(SolveStatus.INFEASIBLE, None, fill.upper, [], "bonus", completion.reason)
    if completion.feasible and not completion.placements:
        fill.require_bonus = False  # a square is complete already: every fill keeps it
    elif completion.feasible:
        slot_of = {pid: s for s, pid in enumerate(fill.ids)}
        placed = [(slot_of[p.patch], p.mask) for p in completion.placements]
        if _is_excluded(fill, placed):
            fill.incumbent = None  # a completion, but of an excluded choice: CP-SAT looks for another
        else:
            fill.incumbent = PackResult(value=sum(fill.values[s] for s, _ in placed), placements=placed)
            fill.found_by = "bonus"
    else:
        fill.incumbent = None
    return None


def _search_alone(fill: _Fill) -> FillResult | Packer:
    """Steps 1-3: the area bound, the compiled search alone (``FILL_ALONE_SECONDS``, at most
    ``FILL_ALONE_SHARE`` of the time), and the per-region caps (``REGION_BOUNDS_SECONDS``, at most
    ``REGION_BOUNDS_SHARE``). The answer when one of them settles the fill, else the search to go on."""
    if fill.upper <= 0:
        return fill.finish(SolveStatus.OPTIMAL, 0, 0, [], "bounds")
    # most instances are settled here, before CP-SAT is even built
    packer = Packer(fill.problem, upper=fill.upper, regions=fill.part_masks, table_bits=_FIRST_TABLE_BITS)
    fill.stop.attach(packer.request_stop)
    incumbent = packer.run(deadline=fill.deadline.share(FILL_ALONE_SHARE).within(FILL_ALONE_SECONDS))
    fill.incumbent = incumbent
    fill.report(incumbent.value, "dfs")
    if incumbent.exhausted:
        return fill.settled(incumbent)
    packer.use_table(_TABLE_BITS)  # not trivial after all: remember searched states
    if fill.objective == "cells" and len(fill.bounds.regions) > 1:
        # each empty region on its own, with every patch available: a tighter bound
        limit = fill.deadline.share(REGION_BOUNDS_SHARE).within(REGION_BOUNDS_SECONDS)
        fill.caps = region_caps(fill.bounds, fill.ids, limit)
        fill.upper = min(fill.upper, sum(fill.caps))
        packer.tighten(fill.upper)
        if incumbent.value >= fill.upper:
            return fill.finish(SolveStatus.OPTIMAL, incumbent.value, fill.upper, incumbent.placements, "bounds")
    return packer


def _cp_sat_alone(fill: _Fill) -> FillResult:
    """Step 5 with a 7x7 requirement left open, or without the packing search: CP-SAT to the end,
    warm-started from the completion when there is one."""
    solve = fill.cp_sat(fill.incumbent)
    alone = fill.cp_sat_config()
    handle = SolveHandle()
    fill.stop.attach(handle.stop)
    return fill.finish_cp_sat(solve(handle, alone, fill.deadline), fill.incumbent, fill.found_by)


def _race(fill: _Fill, packer: Packer) -> FillResult:
    """Step 4, for ``cells``: the search in a thread against the same search on the quilt turned half
    a turn in this one (``fill_races.race_corners``), the turned one for ``TURNED_SHARE`` of the
    time left (at least ``TURNED_SECONDS``); CP-SAT (one worker, warm-started from the better
    packing) then has this core to the deadline."""
    assert fill.incumbent is not None  # the search alone has run: its packing
    turned = _turned_search(fill)
    switch_at = fill.deadline.share(TURNED_SHARE, at_least=TURNED_SECONDS)
    raced = fill_races.race_corners(
        packer, turned, fill.incumbent, deadline=fill.deadline, switch_at=switch_at, stop=fill.stop,
        cp_sat=lambda best, handle: fill.cp_sat(best)(handle, fill.cp_sat_config(), fill.deadline),
        on_phase=fill.report,
    )
    if raced.best.exhausted:
        fill.report(raced.best.value, "dfs", bound=raced.best.value)
    return _after_race(fill, raced)


def _turned_search(fill: _Fill) -> Packer:
    """The same search on the quilt turned half a turn: it scans from the opposite corner."""
    turned = fill_races.turned_search(fill.problem, fill.upper, fill.part_masks, _TABLE_BITS)
    fill.stop.attach(turned.request_stop)
    return turned


def _cp_sat_beside_search(fill: _Fill, packer: Packer) -> FillResult:
    """Step 5 for ``points``: CP-SAT (one worker, another seed) in a thread beside the search in this
    one (``fill_races.cp_sat_beside``); the first to prove optimality stops the other."""
    solve = fill.cp_sat(fill.incumbent)
    again = fill.cp_sat_config(workers=1, seed=fill.config.seed + 1)
    raced = fill_races.cp_sat_beside(
        packer, lambda handle: solve(handle, again, fill.deadline), deadline=fill.deadline, stop=fill.stop
    )
    return _after_race(fill, raced)


def _after_race(fill: _Fill, raced: RaceOutcome) -> FillResult:
    """The answer of a race: the search that settled the fill, else CP-SAT's answer or the best
    packing found, whichever is better."""
    if raced.best.exhausted:
        return fill.settled(raced.best)
    outcome: CpOutcome = raced.cp_sat or (SolveStatus.UNKNOWN, None, fill.upper, [])
    return fill.finish_cp_sat(outcome, raced.best, "dfs")


def region_caps(bounds: FillBounds, patch_ids: Sequence[int], deadline: Deadline) -> list[int]:
    """Per empty region, the most cells the patches can cover in it with the others ignored.

    Every fill covers at most that in each region, so the sum bounds the covered cells (a
    patch may count in several regions: it stays a bound). Each region but the largest is
    packed by the compiled search, smallest first (the largest alone is nearly the whole
    problem: its area bound stays); a region it cannot settle by ``deadline`` keeps its
    area bound.
    """
    caps = [region.best for region in bounds.regions]
    largest = max(range(len(caps)), key=lambda k: bounds.regions[k].size, default=-1)
    for k in sorted(range(len(caps)), key=lambda k: bounds.regions[k].size):
        if k == largest:
            continue
        region = bounds.regions[k]
        if deadline.expired():
            break
        found = Packer(PackingProblem(region.mask, tuple(patch_ids)), upper=region.best).run(
            node_limit=_REGION_NODES, deadline=deadline
        )
        if found.exhausted:
            caps[k] = found.value
    return caps


def _same_for(objective: Objective, budget: int | None, marks: int) -> Callable[[int, int], bool]:
    def same(a: int, b: int) -> bool:
        pa, pb = PATCHES[a], PATCHES[b]
        if budget is not None and pa.cost != pb.cost:
            return False
        return objective == "cells" or patch_value(a, objective, marks) == patch_value(b, objective, marks)

    return same
