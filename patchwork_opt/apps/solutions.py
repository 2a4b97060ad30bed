"""Text for people: the quilts that fill and 7x7 completion found, one letter per placed patch, and
their verdicts in words (the one place for them: ``patchwork fill`` and ``bonus`` print them, the
workshop's API returns them)."""

from __future__ import annotations

import string
from collections.abc import Sequence

from patchwork_opt.core.bitboard import WINDOW, bit
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.quilt import label_grid, render_grid
from patchwork_opt.core.words import cells_words
from patchwork_opt.i18n import N_, _, all_of, ngettext, number
from solvers.bonus import BonusResult
from solvers.fill import FillResult
from solvers.model import PlacedPatch, SolveStatus

#: Letters for placed patches, then digits-free lowercase when more are needed.
LABELS = string.ascii_uppercase + string.ascii_lowercase


def placement_lines(quilt: int, placements: Sequence[PlacedPatch]) -> list[str]:
    """The quilt (covered cells as blocks) with each placement drawn in its own letter,
    followed by one legend line per placement."""
    pieces = [(LABELS[i % len(LABELS)], p.mask) for i, p in enumerate(placements)]
    lines = render_grid(label_grid(pieces, quilt))
    for (label, _mask), placed in zip(pieces, placements, strict=True):
        info = PATCHES[placed.patch]
        # Translators: a legend line under a drawn quilt: the letter {label} is patch {patch}, its cells,
        # its price in buttons and its button income
        lines.append(_("  {label} = patch {patch} ({area} cells, cost {cost}, income {income})", label=label,
                       patch=f"{placed.patch:>2}", area=info.area, cost=info.cost, income=info.income))
    return lines


#: What settled a fill (``FillResult.method``), in words (English; said through ``_``).
FILL_METHODS = {
    # Translators: what settled a fill: "settled by the area bounds alone"
    "bounds": N_("the area bounds alone"),
    # Translators: what settled a fill: "settled by the packing search"
    "dfs": N_("the packing search"),
    "cp-sat": "CP-SAT",
    # Translators: what settled a fill: "settled by the 7x7 completion" (the 7x7 square's own search)
    "bonus": N_("the 7x7 completion"),
}


#: A 7x7 square's status (``WindowVerdict.status``), in words (English; said through ``_``).
SQUARE_STATUS = {
    # Translators: a 7x7 square's status in the list of squares: it can be completed
    SolveStatus.FEASIBLE: N_("feasible"),
    SolveStatus.OPTIMAL: N_("feasible"),
    # Translators: a 7x7 square's status in the list of squares: it cannot be completed
    SolveStatus.INFEASIBLE: N_("impossible"),
    # Translators: a 7x7 square's status in the list of squares: not settled in the time given
    SolveStatus.UNKNOWN: N_("open"),
    SolveStatus.MODEL_INVALID: N_("open"),
}


#: What a fill is doing (the ``phase`` its progress reports), in words (English; said through ``_``).
FILL_PHASES = {
    "dfs": N_("the packing search"),
    # Translators: what a running fill is doing
    "dfs from two corners": N_("two packing searches, from opposite corners"),
    # Translators: what a running fill is doing
    "cp-sat beside dfs": N_("CP-SAT beside the packing search"),
    "cp-sat": "CP-SAT",
}


def fill_phase_words(phase: str) -> str:
    words = FILL_PHASES.get(phase, phase)
    return _(words) if phase in FILL_PHASES and words != "CP-SAT" else words


def fill_progress_words(best: float | None, bound: float | None, phase: str, unit: str) -> str:
    """A running fill in words: ``23 cells so far, at most 25 (the packing search)``."""
    cells = unit == "cells"
    if best is None:
        # Translators: a running fill that has found nothing yet
        so_far = _("no fill yet")
    elif cells:
        # Translators: a running fill's best so far, in cells covered
        so_far = ngettext("{count} cell so far", "{count} cells so far", best)
    else:
        # Translators: a running fill's best so far, in points
        so_far = ngettext("{count} point so far", "{count} points so far", best)
    if bound is not None:
        # Translators: follows a fill's best so far: the most the fill can reach
        so_far = _("{so_far}, at most {bound}", so_far=so_far, bound=number(bound))
    # Translators: follows a running fill's figures: what it is doing ("the packing search")
    return _("{so_far} ({phase})", so_far=so_far, phase=fill_phase_words(phase)) if phase else so_far


def fill_verdict(result: FillResult) -> str:
    """A fill's status in words, the same in the terminal and on the page: ``optimal (proven)``,
    ``the best found; at most 25 cells can be covered``, ``impossible: <reason>`` or ``not settled
    in time: <reason>``."""
    if result.status == SolveStatus.INFEASIBLE:
        # Translators: a fill's verdict; {reason} says why (the solver's words)
        return _("impossible: {reason}", reason=result.reason)
    if result.objective is None:
        # Translators: a fill's verdict; {reason} says what was left open (the solver's words)
        return _("not settled in time: {reason}", reason=result.reason)
    if result.optimal:
        return _("optimal (proven)")
    if result.objective_kind == "cells":
        # Translators: a fill's verdict when not proven optimal: the most cells any fill can cover
        return ngettext("the best found; at most {count} cell can be covered",
                        "the best found; at most {count} cells can be covered", result.bound)
    # Translators: a fill's verdict when not proven optimal: the most points any fill can gain
    return ngettext("the best found; at most {count} point can be gained",
                    "the best found; at most {count} points can be gained", result.bound)


def fill_summary(result: FillResult) -> str:
    """What the fill places and what it costs: ``4 patches cover 25 cells (75 covered, 6 empty);
    cost 19 buttons, income 4`` (points: with the points)."""
    if result.objective is None:
        return _("no fill")
    # Translators: a fill's placed cells ({cells}: "25 cells"), then the quilt's covered and empty cells
    placed = ngettext("{count} patch covers {cells} ({covered} covered, {empty} empty)",
                      "{count} patches cover {cells} ({covered} covered, {empty} empty)", len(result.placements),
                      cells=ngettext("{count} cell", "{count} cells", result.placed_cells), covered=result.covered,
                      empty=result.empty)
    if result.objective_kind == "points":
        # Translators: follows what a fill places: the points it gains
        placed = _("{placed}, {points} points", placed=placed, points=result.objective)
    # Translators: follows what a fill places: its price in buttons ({cost}: "19 buttons") and button income
    return _("{placed}; cost {cost}, income {income}", placed=placed,
             cost=ngettext("{count} button", "{count} buttons", result.cost), income=result.income)


def render_fill(quilt: int, result: FillResult, objective: str) -> str:
    """What ``patchwork fill`` prints: the filled quilt, its legend and the verdict (with the
    reason when no fill is given: what proves the requirements impossible, or what was left open)."""
    lines = placement_lines(quilt, result.placements)
    if result.objective is None:
        lines.append(fill_verdict(result))
    else:
        figures = {"value": result.objective, "verdict": fill_verdict(result), "covered": result.covered,
                   "empty": result.empty, "cost": result.cost, "income": result.income}
        if objective == "points":
            # Translators: a fill's figures when it counts points: {value} the points gained, {verdict} the fill's
            # verdict ("optimal (proven)"), then the quilt's covered and empty cells, the cost and income in buttons
            line = _("points {value}: {verdict}; covered {covered}, empty {empty}, cost {cost}, income {income}",
                     **figures)
        else:
            # Translators: a fill's figures when it counts cells: {value} the cells its patches cover, {verdict}
            # the fill's verdict ("optimal (proven)"), then the quilt's covered and empty cells, cost and income
            line = _("cells {value}: {verdict}; covered {covered}, empty {empty}, cost {cost}, income {income}",
                     **figures)
        if result.bonus_window:
            # Translators: follows a fill's figures: where its complete 7x7 square lies ({where}: "[0, 2]")
            line = _("{line}, 7x7 square at {where}", line=line, where=list(result.bonus_window))
        lines.append(line)
    settled_by = FILL_METHODS.get(result.method, result.method)
    settled_by = _(settled_by) if result.method in FILL_METHODS and settled_by != "CP-SAT" else settled_by
    seconds = number(result.wall_time, 2)
    if result.optimal or result.status == SolveStatus.INFEASIBLE:
        # Translators: what proved a fill's verdict ({method}: "the packing search"), in {seconds} seconds
        lines.append(_("settled by {method} in {seconds} s", method=settled_by, seconds=seconds))
    else:
        # Translators: what found a fill's best ({method}: "CP-SAT"), in {seconds} seconds
        lines.append(_("found by {method} in {seconds} s", method=settled_by, seconds=seconds))
    return "\n".join(lines)


def bonus_verdict(result: BonusResult) -> str:
    """Can a 7x7 square be completed, in words: ``feasible: the square at rows 0-6, cols 2-8 can be
    completed with #25 and #26 (cost 4 buttons)``, ``impossible: <reason>``, ``not settled in time: ...``."""
    if result.feasible is False:
        return _("impossible: {reason}", reason=result.reason)
    if result.feasible is None or result.window is None:
        return _("not settled in time: {reason}", reason=result.reason)
    top, left = result.window
    where = cells_words(bit(top, left) | bit(top + WINDOW - 1, left + WINDOW - 1))
    if not result.placements:
        # Translators: the 7x7 square at {where} ("rows 0-6, cols 2-8") is complete already
        return _("feasible: the square at {where} is already complete", where=where)
    ids = [f"#{p.patch}" for p in result.placements]
    named = str(all_of(ids))  # "#25 and #26"; "#25, #26 et #27"
    cost = sum(PATCHES[p.patch].cost for p in result.placements)
    # Translators: the 7x7 square at {where} ("rows 0-6, cols 2-8") can be completed with the patches
    # {patches} ("#25 and #26") for {count} buttons
    return ngettext("feasible: the square at {where} can be completed with {patches} (cost {count} button)",
                    "feasible: the square at {where} can be completed with {patches} (cost {count} buttons)", cost,
                    where=where, patches=named)


def render_bonus(quilt: int, result: BonusResult) -> str:
    """What ``patchwork bonus`` prints: the completed square (when feasible) and the verdict per window."""
    lines = placement_lines(quilt, result.placements) if result.feasible else []
    # Translators: the head of the 7x7 square's verdict ({verdict}: "feasible: ...")
    lines.append(_("7x7 square: {verdict}", verdict=bonus_verdict(result)))
    if result.feasible is not True:
        for v in result.windows:
            # Translators: one 7x7 square's verdict: where ("[0, 2]"), its missing cells, its status ("impossible")
            # and the solver's reason
            lines.append(_("  square at {where} ({missing} missing): {status}, {reason}", where=list(v.window),
                           missing=v.missing, status=_(SQUARE_STATUS[v.status]), reason=v.reason))
    return "\n".join(lines)
