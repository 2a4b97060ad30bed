"""Text for people: the quilts that fill and 7x7 completion found, one letter per placed patch."""

from __future__ import annotations

import string
from collections.abc import Sequence

from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.quilt import label_grid, render_grid
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


def render_fill(quilt: int, result: FillResult, objective: str) -> str:
    """What ``patchwork fill`` prints: the filled quilt, its legend and the verdict (with the
    reason when no fill is given: what proves the requirements impossible, or what was left open)."""
    lines = placement_lines(quilt, result.placements)
    proof = "optimal (proven)" if result.optimal else f"best found, bound {result.bound}"
    if result.status == SolveStatus.INFEASIBLE:
        lines.append(f"no fill meets the requirements (proven): {result.reason}")
    elif result.objective is None:
        lines.append(f"no fill meeting the requirements found ({result.status.value}): {result.reason}")
    else:
        lines.append(
            f"{objective} {result.objective}: {proof}; covered {result.covered}, empty {result.empty}, "
            f"cost {result.cost}, income {result.income}"
            + (f", 7x7 square at {list(result.bonus_window)}" if result.bonus_window else "")
        )
    settled_by = FILL_METHODS.get(result.method, result.method)
    settled = result.optimal or result.status == SolveStatus.INFEASIBLE
    lines.append(f"{'settled' if settled else 'found'} by {settled_by} in {result.wall_time:.2f} s")
    return "\n".join(lines)


def render_bonus(quilt: int, result: BonusResult) -> str:
    """What ``patchwork bonus`` prints: the completed square (when feasible) and the verdict per window."""
    lines = placement_lines(quilt, result.placements) if result.feasible else []
    verdict = {True: "feasible", False: "infeasible (proven)", None: "unknown"}[result.feasible]
    lines.append(
        f"7x7 square: {verdict}" + (f" at {list(result.window)}" if result.window else "") + f" - {result.reason}"
    )
    if result.feasible is not True:
        for v in result.windows:
            lines.append(f"  square at {list(v.window)} ({v.missing} missing): {v.status.value}, {v.reason}")
    return "\n".join(lines)
