"""7x7 completion: can some 7x7 square of a quilt be fully covered with these patches?

Each of the nine windows is first put through cheap necessary conditions; a window fails
when one of them does:

- a missing cell that no legal placement of any given patch covers;
- the patches cannot cover enough missing cells even each on its best placement;
- with a button budget: the cheapest set of patches that could cover enough missing cells
  (each on its best placement) costs more than the budget;
- an empty region lying wholly inside the window must be tiled exactly, so its size must be
  a subset sum of the areas of the patches that fit in it (and those regions together must
  be a subset sum of disjoint patches' areas).

Windows that survive go to the packing search (``solvers.search``) with the window's missing
cells to cover (placements may spill onto empty cells outside the window; under a budget, a
branch ends when the cells left cost more than the buttons left): all of them at once with
growing node budgets, so that one easy window settles the question before a hard one has used
its budget. Windows whose missing cells a symmetry of the quilt maps onto each other are one
question (on an empty quilt the nine windows are three: corner, edge and centre); a search that
outlives the first budgets gets a transposition table. Past ``_SHORT_NODES`` nodes, a window the
search has not settled by its share of the deadline (``clock.BONUS_SEARCH_SHARE``) goes to CP-SAT
for the rest (on the open quilts where the search needs millions of nodes CP-SAT rarely settles
anything, but it has the rest of the time).

The answer is proven infeasible only when every window is refuted. Its reason then names the
numbers of a bound over all windows when one proves it (the patches' total area against the
fewest missing cells of any window; the cheapest completion's cost against the budget), and
otherwise the closest window's refutation.

This is the one 7x7 completion: ``patchwork bonus``, the web service's ``/api/bonus``, optimal
fill's ``--require-bonus`` (with its button budget) and the solver bot's advisor (with its own
small budgets) all call ``bonus_completion``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from patchwork_opt.core.bitboard import (
    FULL,
    WINDOW,
    WINDOW_MASKS,
    WINDOW_ORIGINS,
    cells_of,
    full_window,
    iter_bits,
    regions,
    window_progress,
)
from patchwork_opt.core.catalogue import PATCHES, legal_placements
from patchwork_opt.core.clock import BONUS_SEARCH_SHARE, Deadline
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.i18n import N_, _, ngettext
from solvers.bounds import subset_sums
from solvers.model import Instance, PlacedPatch, PlacementModel, SolveHandle, SolverConfig, SolveStatus
from solvers.search import Packer, PackingProblem
from solvers.symmetry import quilt_symmetries, transform

#: Search nodes per window before CP-SAT takes over (in effect no limit: the search's share
#: of the deadline decides; the bot's advisor gives its own small limit).
NODE_LIMIT = 10**12
#: The growing node budgets every open window gets in turn (each capped by the node limit),
#: the last growing tenfold until the node limit or the search's time.
_BUDGETS = (300, 3_000, 50_000)
#: Node budgets up to this run to the deadline; larger ones to the search's share of it
#: (``clock.BONUS_SEARCH_SHARE``).
_SHORT_NODES = 50_000
#: Transposition table bits of a search past the short budgets.
_TABLE_BITS = 16


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


def cheapest_cover(best_cover: Sequence[int], costs: Sequence[int], need: int) -> int | None:
    """The fewest buttons a set of patches costs whose ``best_cover`` (cells each can cover at
    most) adds up to ``need``; None when even all of them fall short (a 0/1 knapsack on cost)."""
    beyond = sum(costs) + 1
    cheapest = [0] + [beyond] * need  # cheapest[a]: fewest buttons for at least a cells
    for cover, cost in zip(best_cover, costs, strict=True):
        if cover <= 0:
            continue
        for a in range(need, 0, -1):
            through = cheapest[max(0, a - cover)] + cost
            if through < cheapest[a]:
                cheapest[a] = through
    return cheapest[need] if cheapest[need] < beyond else None


def _best_cover(missing: int, placements: Sequence[Sequence[int]]) -> list[int]:
    """Per patch, the most of the ``missing`` cells one of its placements covers."""
    return [max((mask & missing).bit_count() for mask in masks) if masks else 0 for masks in placements]


def cheapest_completion(quilt: int, ids: Sequence[int], placements: Sequence[Sequence[int]]) -> int | None:
    """The fewest buttons completing some 7x7 square costs at least: ``cheapest_cover`` of each
    window's missing cells, the least over the windows (None when no window's can be covered
    by the patches, ``placements`` their legal placements)."""
    costs = [PATCHES[pid].cost for pid in ids]
    known = []
    for window in WINDOW_MASKS:
        missing = window & ~quilt
        cost = cheapest_cover(_best_cover(missing, placements), costs, missing.bit_count())
        if cost is not None:
            known.append(cost)
    return min(known) if known else None


def _refute(
    quilt: int, missing: int, ids: Sequence[int], placements: Sequence[Sequence[int]], reach: int,
    budget: int | None = None,
) -> str | None:
    """The first cheap necessary condition the window fails, or None when all hold
    (``reach``: the cells some placement covers)."""
    unreachable = missing & ~reach
    if unreachable:
        # Translators: why a 7x7 square cannot be completed: a cell of it ({cell}: "[4, 4]") no patch reaches
        return _("cell {cell} cannot be covered by any of the patches", cell=_cell_name(unreachable))
    need = missing.bit_count()
    best_cover = _best_cover(missing, placements)
    if sum(best_cover) < need:
        # Translators: why a 7x7 square cannot be completed: the patches cover at most {count} of its {cells}
        return ngettext("the patches can cover at most {count} of the {cells}",
                        "the patches can cover at most {count} of the {cells}", sum(best_cover),
                        cells=ngettext("{count} missing cell", "{count} missing cells", need))
    if budget is not None:
        cost = cheapest_cover(best_cover, [PATCHES[pid].cost for pid in ids], need)
        if cost is not None and cost > budget:
            # Translators: why a 7x7 square cannot be completed: {cells} ("5 missing cells") cost at least
            # {buttons} ("7 buttons") and the button budget is {budget}
            return _("covering its {cells} costs at least {buttons}; the budget is {budget}",
                     cells=ngettext("{count} missing cell", "{count} missing cells", need),
                     buttons=ngettext("{count} button", "{count} buttons", cost), budget=budget)
    enclosed_total = 0
    enclosed_slots = 0
    for region in regions(FULL & ~quilt):
        if region & missing and region & ~missing == 0:
            size = region.bit_count()
            slots = [s for s, masks in enumerate(placements) if any(m & ~region == 0 for m in masks)]
            if not subset_sums(PATCHES[ids[s]].area for s in slots) >> size & 1:
                # Translators: why a 7x7 square cannot be completed: an empty region enclosed by patches, at
                # {cell} ("[4, 4]"), of {count} cells, which no set of the patches that fit in it fills exactly
                return ngettext("the enclosed empty region at {cell} ({count} cell) is no sum of the areas of the "
                                "patches that fit in it",
                                "the enclosed empty region at {cell} ({count} cells) is no sum of the areas of the "
                                "patches that fit in it", size, cell=_cell_name(region))
            enclosed_total += size
            for s in slots:
                enclosed_slots |= 1 << s
    if enclosed_total:
        areas = [PATCHES[ids[s]].area for s in range(len(ids)) if enclosed_slots >> s & 1]
        if not subset_sums(areas) >> enclosed_total & 1:
            # Translators: why a 7x7 square cannot be completed: its enclosed empty regions, {count} cells in all
            return ngettext("the enclosed empty regions ({count} cell) cannot be tiled by disjoint patches",
                            "the enclosed empty regions ({count} cells) cannot be tiled by disjoint patches",
                            enclosed_total)
    return None


def refutation(
    quilt: int, ids: Sequence[int], placements: Sequence[Sequence[int]], budget: int | None,
    verdicts: Sequence[WindowVerdict],
) -> str:
    """Why no square can be completed, once every window is refuted: a bound over all windows
    when one proves it (area, then cost), with its numbers, else the closest window's reason."""
    usable = [s for s, masks in enumerate(placements) if masks]
    total = sum(PATCHES[ids[s]].area for s in usable)
    need = WINDOW * WINDOW - window_progress(quilt)  # the fewest missing cells of any window
    if total < need:
        # Translators: why no 7x7 square can be completed: the patches' cells in all ({cells}: "12 cells") are
        # fewer than the {count} cells the closest square still needs
        return ngettext("the patches cover at most {cells}; every 7x7 square needs at least {count} more",
                        "the patches cover at most {cells}; every 7x7 square needs at least {count} more", need,
                        cells=ngettext("{count} cell", "{count} cells", total))
    if budget is not None:
        cheapest = cheapest_completion(quilt, ids, placements)
        if cheapest is not None and cheapest > budget:
            # Translators: why no 7x7 square can be completed: the cheapest completion costs {count} buttons,
            # more than the button budget
            return ngettext("completing a 7x7 square costs at least {count} button; the budget is {budget}",
                            "completing a 7x7 square costs at least {count} buttons; the budget is {budget}",
                            cheapest, budget=budget)
    closest = min(verdicts, key=lambda v: (v.missing, v.window))
    # Translators: why no 7x7 square can be completed: the one closest to complete, at {where} ("[0, 2]"),
    # with {count} cells missing, and why it cannot be ({reason}, one of the reasons above)
    return ngettext("every 7x7 square is refuted; the closest, at {where} ({count} cell missing): {reason}",
                    "every 7x7 square is refuted; the closest, at {where} ({count} cells missing): {reason}",
                    closest.missing, where=list(closest.window), reason=closest.reason)


def _cp_sat_cover(
    quilt: int, ids: Sequence[int], missing: int, placements: Sequence[Sequence[int]], config: SolverConfig,
    deadline: Deadline, stop: StopSignal, budget: int | None = None,
) -> tuple[SolveStatus, list[tuple[int, int]]]:
    """CP-SAT on the placement model by ``deadline``: every missing cell covered, patches at most
    once, no overlap, and the patches used cost at most ``budget``."""
    model = PlacementModel(quilt, ids, placements=[[m for m in masks if m & missing] for masks in placements])
    cells = list(iter_bits(missing))
    if any(not model.by_cell[index] for index in cells):
        return SolveStatus.INFEASIBLE, []
    for index in cells:
        model.add_bool_or(model.by_cell[index])  # at least one; the model has at most one
    if budget is not None:
        model.limit_cost(budget)
    handle = SolveHandle()
    stop.attach(handle.stop)
    solution = model.solve(config, deadline, handle=handle)
    if solution.status in (SolveStatus.OPTIMAL, SolveStatus.FEASIBLE):
        slot_of = {pid: s for s, pid in enumerate(ids)}
        return SolveStatus.FEASIBLE, [(slot_of[p.patch], p.mask) for p in solution.placements]
    if solution.status == SolveStatus.INFEASIBLE:
        return SolveStatus.INFEASIBLE, []
    if solution.status == SolveStatus.MODEL_INVALID:
        raise PatchworkError("internal error: the 7x7 completion model is invalid")
    return SolveStatus.UNKNOWN, []


def _schedule(node_limit: int) -> Iterator[int]:
    """The growing node budgets: ``_BUDGETS``, then tenfold each time, capped by ``node_limit``."""
    nodes = 0
    for step in _BUDGETS:
        nodes = min(step, node_limit)
        yield nodes
        if nodes == node_limit:
            return
    while nodes < node_limit:
        nodes = min(nodes * 10, node_limit)
        yield nodes


def _questions(quilt: int, question: dict[int, int], refuted: set[int]) -> dict[int, int]:
    """``question`` (missing cells -> the search answering them) with the cells a symmetry of the
    quilt maps onto each other answered by one search: a refuted one when there is one (the
    others have the same answer), else the first of them, in order."""
    symmetries = quilt_symmetries(quilt)
    if len(symmetries) == 1:
        return question
    key = {missing: min(transform(answered, s) for s in symmetries) for missing, answered in question.items()}
    first: dict[int, int] = {}
    for missing in sorted(question, key=lambda m: question[m] not in refuted):  # refuted ones first
        first.setdefault(key[missing], question[missing])
    return {missing: first[key[missing]] for missing in question}


def bonus_completion(
    quilt: int,
    patch_ids: Sequence[int],
    *,
    deadline: Deadline,
    config: SolverConfig | None = None,
    node_limit: int = NODE_LIMIT,
    stop: StopSignal | None = None,
    budget: int | None = None,
) -> BonusResult:
    """Can a 7x7 square be completed with ``patch_ids`` (each at most once), the patches used
    costing at most ``budget`` buttons (None: any)?

    The whole answer ends by ``deadline``; ``node_limit`` bounds the search on each window
    before CP-SAT takes over; ``stop``, set from another thread, ends it early as the deadline
    would (undecided windows stay undecided). ``config`` says how CP-SAT runs (workers, seed).
    The steps: the cheap refutations of every window, the packing search on the open ones,
    CP-SAT on what it leaves open, the verdict.
    """
    config = config or SolverConfig()
    stop = stop or StopSignal()
    started = time.perf_counter()
    ids = list(Instance.of(quilt, patch_ids).patch_ids)  # validated
    if budget is not None and budget < 0:
        raise PatchworkError(N_("budget must be at least 0, not {budget}"), budget=budget)
    complete = full_window(quilt)
    if complete is not None:
        return BonusResult(
            feasible=True,
            status=SolveStatus.FEASIBLE,
            window=complete,
            reason=_("the square is already complete"),
            wall_time=time.perf_counter() - started,
        )
    windows = _Windows.triage(quilt, ids, budget, config, deadline, stop, started)
    return windows.search(node_limit) or windows.cp_sat() or windows.verdict()


@dataclass
class _Windows:
    """The nine windows of one ``bonus_completion`` call as they are settled: the verdicts so far,
    the windows still open (fewest missing cells first: the likeliest to complete), and one
    packing search per distinct set of missing cells (windows missing the same cells share the
    verdict); ``question`` maps missing cells to the search answering them."""

    quilt: int
    ids: list[int]
    budget: int | None
    config: SolverConfig
    deadline: Deadline
    stop: StopSignal
    started: float
    placements: list[list[int]]
    verdicts: list[WindowVerdict]
    open_windows: list[tuple[tuple[int, int], int]]
    searches: dict[int, Packer] = field(default_factory=dict)
    refuted: set[int] = field(default_factory=set)
    question: dict[int, int] = field(default_factory=dict)

    @classmethod
    def triage(cls, quilt: int, ids: list[int], budget: int | None, config: SolverConfig, deadline: Deadline,
               stop: StopSignal, started: float) -> _Windows:
        """Every window through the cheap necessary conditions (``_refute``)."""
        placements = [legal_placements(pid, quilt) for pid in ids]
        reach = 0
        for masks in placements:
            for mask in masks:
                reach |= mask
        verdicts: list[WindowVerdict] = []
        open_windows: list[tuple[tuple[int, int], int]] = []
        for origin, wmask in zip(WINDOW_ORIGINS, WINDOW_MASKS, strict=True):
            missing = wmask & ~quilt
            reason = _refute(quilt, missing, ids, placements, reach, budget)
            if reason is not None:
                verdicts.append(WindowVerdict(window=origin, missing=missing.bit_count(),
                                              status=SolveStatus.INFEASIBLE, reason=reason))
            else:
                open_windows.append((origin, missing))
        open_windows.sort(key=lambda w: w[1].bit_count())
        return cls(quilt, ids, budget, config, deadline, stop, started, placements, verdicts, open_windows)

    def no_cover(self, proof: str) -> str:
        """Why a window is refuted: no placement covers it (within the budget), by ``proof``
        ("search" or "cp-sat")."""
        searched = proof == "search"
        if self.budget is None:
            if searched:
                return _("no placement of the patches covers its missing cells (search exhausted)")
            return _("no placement of the patches covers its missing cells (CP-SAT proof)")
        # Translators: why a 7x7 square cannot be completed: no placement within the button budget covers it
        if searched:
            return ngettext("no placement of the patches within the budget of {count} button covers its missing cells "
                            "(search exhausted)",
                            "no placement of the patches within the budget of {count} buttons covers its missing cells "
                            "(search exhausted)", self.budget)
        return ngettext("no placement of the patches within the budget of {count} button covers its missing "
                        "cells (CP-SAT proof)",
                        "no placement of the patches within the budget of {count} buttons covers its missing "
                        "cells (CP-SAT proof)", self.budget)

    def done(self, feasible: bool | None, status: SolveStatus, window: tuple[int, int] | None,
             placed: Sequence[tuple[int, int]], reason: str) -> BonusResult:
        self.verdicts.sort(key=lambda v: v.window)
        return BonusResult(
            feasible=feasible,
            status=status,
            window=window,
            placements=[PlacedPatch.of(self.ids[s], m) for s, m in sorted(placed)],
            reason=reason,
            windows=self.verdicts,
            wall_time=time.perf_counter() - self.started,
        )

    def completed(self, origin: tuple[int, int], missing: int, placed: Sequence[tuple[int, int]],
                  how: str) -> BonusResult:
        self.verdicts.append(WindowVerdict(window=origin, missing=missing.bit_count(),
                                           status=SolveStatus.FEASIBLE, reason=how))
        # Translators: the 7x7 square at {where} ("[0, 2]") can be completed
        return self.done(True, SolveStatus.FEASIBLE, origin, placed,
                         _("square at {where} can be completed", where=list(origin)))

    def record_refuted(self) -> None:
        for origin, missing in self.open_windows:
            if self.question[missing] in self.refuted:
                self.verdicts.append(WindowVerdict(
                    window=origin, missing=missing.bit_count(), status=SolveStatus.INFEASIBLE,
                    reason=self.no_cover("search"),
                ))

    def search(self, node_limit: int) -> BonusResult | None:
        """The packing search on every open window at once, resumed with growing node budgets
        (an easy window settles it at once); the answer when a window is covered."""
        free = FULL & ~self.quilt
        for _origin, missing in self.open_windows:
            if missing not in self.searches:
                problem = PackingProblem(free, tuple(self.ids), budget=self.budget, cover=missing)
                self.searches[missing] = Packer(problem)
                self.stop.attach(self.searches[missing].request_stop)
        pending = list(self.searches)
        spent = dict.fromkeys(self.searches, 0)
        self.question = {missing: missing for missing in self.searches}
        search_deadline = self.deadline.share(BONUS_SEARCH_SHARE)
        long_run = False
        for nodes in _schedule(node_limit):
            if nodes > _SHORT_NODES and not long_run:
                long_run = True
                # not easy after all: one search per question, each with a table
                self.question = _questions(self.quilt, self.question, self.refuted)
                pending = list(dict.fromkeys(self.question[m] for m in pending if self.question[m] not in self.refuted))
                for missing in pending:
                    self.searches[missing].use_table(_TABLE_BITS)
            still = []
            for missing in pending:
                found = self.searches[missing].run(
                    node_limit=nodes - spent[missing],
                    deadline=self.deadline if nodes <= _SHORT_NODES else search_deadline,
                )
                spent[missing] = found.nodes
                if found.covered:
                    self.record_refuted()
                    origin = next(o for o, m in self.open_windows if m == missing)
                    # Translators: a 7x7 square's verdict: the packing search covered its missing cells
                    return self.completed(origin, missing, found.placements, _("covered"))
                if found.covered is None:
                    still.append(missing)
                else:
                    self.refuted.add(missing)
            pending = still
            if not pending or self.deadline.expired() or self.stop.is_set() or (
                nodes >= _SHORT_NODES and search_deadline.expired()
            ):
                break
        self.record_refuted()
        return None

    def cp_sat(self) -> BonusResult | None:
        """CP-SAT on what the search left open, one window per question, sharing the time left;
        the answer when a window is covered."""
        unsettled = [(origin, missing) for origin, missing in self.open_windows
                     if self.question[missing] == missing and missing not in self.refuted]
        for i, (origin, missing) in enumerate(unsettled):
            if self.deadline.remaining() <= 0.01 or self.stop.is_set():
                break
            share = self.deadline.share(1 / (len(unsettled) - i))  # the time left, shared equally
            status, placed = _cp_sat_cover(
                self.quilt, self.ids, missing, self.placements, self.config, share, self.stop, self.budget,
            )
            if status == SolveStatus.FEASIBLE:
                # Translators: a 7x7 square's verdict: CP-SAT covered its missing cells
                return self.completed(origin, missing, placed, _("covered (CP-SAT)"))
            for other, cells in self.open_windows:
                if self.question[cells] == missing:  # the window itself and those its answer covers
                    self.verdicts.append(WindowVerdict(
                        window=other, missing=cells.bit_count(), status=status,
                        # Translators: a 7x7 square left open: the time ran out
                        reason=self.no_cover("cp-sat") if status == SolveStatus.INFEASIBLE else _("time limit"),
                    ))
        return None

    def verdict(self) -> BonusResult:
        """No window covered: infeasible when every window is refuted, else undecided."""
        settled = {v.window for v in self.verdicts if v.status == SolveStatus.INFEASIBLE}
        if len(settled) == len(WINDOW_MASKS):
            reason = refutation(self.quilt, self.ids, self.placements, self.budget, self.verdicts)
            return self.done(False, SolveStatus.INFEASIBLE, None, [], reason)
        open_count = len(WINDOW_MASKS) - len(settled)
        # Translators: how many of the nine 7x7 squares were left open when the time ran out
        return self.done(None, SolveStatus.UNKNOWN, None, [],
                         ngettext("{count} square undecided at the time limit",
                                  "{count} squares undecided at the time limit", open_count))
