"""Text for people: the quilts that fill and 7x7 completion found, one letter per placed patch, and
their verdicts in words (the one place for them: ``patchwork fill`` and ``bonus`` print them, the
workshop's API returns them)."""

from __future__ import annotations

import string
from collections.abc import Sequence

from patchwork_opt.core.bitboard import WINDOW, bit
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.quilt import label_grid, render_grid
from patchwork_opt.core.words import cells_words, plural
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
    for (label, _), placed in zip(pieces, placements, strict=True):
        info = PATCHES[placed.patch]
        lines.append(
            f"  {label} = patch {placed.patch:>2} ({info.area} cells, cost {info.cost}, "
            f"income {info.income})"
        )
    return lines


#: What settled a fill (``FillResult.method``), in words.
FILL_METHODS = {
    "bounds": "the area bounds alone", "dfs": "the packing search", "cp-sat": "CP-SAT", "bonus": "the 7x7 completion",
}


#: What a fill is doing (the ``phase`` its progress reports), in words.
FILL_PHASES = {
    "dfs": "the packing search", "dfs from two corners": "two packing searches, from opposite corners",
    "cp-sat beside dfs": "CP-SAT beside the packing search", "cp-sat": "CP-SAT",
}


def fill_phase_words(phase: str) -> str:
    return FILL_PHASES.get(phase, phase)


def fill_progress_words(best: float | None, bound: float | None, phase: str, unit: str) -> str:
    """A running fill in words: ``23 cells so far, at most 25 (the packing search)``."""
    so_far = f"{best:g} {unit} so far" if best is not None else "no fill yet"
    most = f", at most {bound:g}" if bound is not None else ""
    return f"{so_far}{most} ({fill_phase_words(phase)})" if phase else f"{so_far}{most}"


def _unit(result: FillResult) -> str:
    return "cells" if result.objective_kind == "cells" else "points"


def fill_verdict(result: FillResult) -> str:
    """A fill's status in words, the same in the terminal and on the page: ``optimal (proven)``,
    ``the best found; at most 25 cells can be covered``, ``impossible: <reason>`` or ``not settled
    in time: <reason>``."""
    if result.status == SolveStatus.INFEASIBLE:
        return f"impossible: {result.reason}"
    if result.objective is None:
        return f"not settled in time: {result.reason}"
    if result.optimal:
        return "optimal (proven)"
    gained = "can be covered" if result.objective_kind == "cells" else "can be gained"
    return f"the best found; at most {result.bound} {_unit(result)} {gained}"


def fill_summary(result: FillResult) -> str:
    """What the fill places and what it costs: ``4 patches cover 25 cells (75 covered, 6 empty);
    cost 19 buttons, income 4`` (points: with the points)."""
    if result.objective is None:
        return "no fill"
    placed = plural(len(result.placements), "patch", "patches")
    points = f", {result.objective} points" if result.objective_kind == "points" else ""
    verb = "covers" if len(result.placements) == 1 else "cover"
    return (f"{placed} {verb} {plural(result.placed_cells, 'cell')} ({result.covered} covered, {result.empty} empty)"
            f"{points}; cost {plural(result.cost, 'button')}, income {result.income}")


def render_fill(quilt: int, result: FillResult, objective: str) -> str:
    """What ``patchwork fill`` prints: the filled quilt, its legend and the verdict (with the
    reason when no fill is given: what proves the requirements impossible, or what was left open)."""
    lines = placement_lines(quilt, result.placements)
    if result.objective is None:
        lines.append(fill_verdict(result))
    else:
        lines.append(
            f"{objective} {result.objective}: {fill_verdict(result)}; covered {result.covered}, empty {result.empty}, "
            f"cost {result.cost}, income {result.income}"
            + (f", 7x7 square at {list(result.bonus_window)}" if result.bonus_window else "")
        )
    settled_by = FILL_METHODS.get(result.method, result.method)
    settled = result.optimal or result.status == SolveStatus.INFEASIBLE
    lines.append(f"{'settled' if settled else 'found'} by {settled_by} in {result.wall_time:.2f} s")
    return "\n".join(lines)


def bonus_verdict(result: BonusResult) -> str:
    """Can a 7x7 square be completed, in words: ``feasible: the square at rows 0-6, cols 2-8 can be
    completed with #25 and #26 (cost 4 buttons)``, ``impossible: <reason>``, ``not settled in time: ...``."""
    if result.feasible is False:
        return f"impossible: {result.reason}"
    if result.feasible is None or result.window is None:
        return f"not settled in time: {result.reason}"
    top, left = result.window
    square = f"the square at {cells_words(bit(top, left) | bit(top + WINDOW - 1, left + WINDOW - 1))}"
    if not result.placements:
        return f"feasible: {square} is already complete"
    ids = [f"#{p.patch}" for p in result.placements]
    named = ", ".join(ids[:-1]) + f" and {ids[-1]}" if len(ids) > 1 else ids[0]
    cost = sum(PATCHES[p.patch].cost for p in result.placements)
    return f"feasible: {square} can be completed with {named} (cost {plural(cost, 'button')})"


def render_bonus(quilt: int, result: BonusResult) -> str:
    """What ``patchwork bonus`` prints: the completed square (when feasible) and the verdict per window."""
    lines = placement_lines(quilt, result.placements) if result.feasible else []
    lines.append(f"7x7 square: {bonus_verdict(result)}")
    if result.feasible is not True:
        for v in result.windows:
            lines.append(f"  square at {list(v.window)} ({v.missing} missing): {v.status.value}, {v.reason}")
    return "\n".join(lines)
