"""Readable words for moves, so every Decision carries a sentence a player can follow."""

from __future__ import annotations

from patchwork_opt.ai.base import AnalysedMove
from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.move import Move


def where(mask: int) -> str:
    """The cells a mask covers, as its bounding box (rows/cols inclusive, 0-based)."""
    cells = cells_of(mask)
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    r0, r1, c0, c1 = min(rows), max(rows), min(cols), max(cols)
    row_text = f"row {r0}" if r0 == r1 else f"rows {r0}-{r1}"
    col_text = f"col {c0}" if c0 == c1 else f"cols {c0}-{c1}"
    return f"{row_text}, {col_text}"


def describe(move: Move) -> str:
    """``buys #12 for 3 buttons (time 6, income 2) at rows 0-2, cols 0-2`` and the like."""
    if move.kind == "advance":
        return "advances"
    if move.kind == "leather":
        r, c = cells_of(move.mask)[0]
        return f"places the leather patch on [{r}, {c}]"
    p = PATCHES[move.patch]
    return (
        f"buys #{p.id} for {p.cost} button{'s' if p.cost != 1 else ''} "
        f"(time {p.time}, income {p.income}) at {where(move.mask)}"
    )


def _short(move: Move) -> str:
    if move.kind == "buy":
        return f"#{move.patch} at {where(move.mask)}"
    return "advancing" if move.kind == "advance" else "leather"


def reason(chosen: AnalysedMove, runner_up: AnalysedMove | None, exact_nodes: int | None = None) -> str:
    """Why the AI plays ``chosen``, in one sentence: ``buys #7 ... because the search gives it a 64%
    chance of winning over 812 simulations (next best, advancing: 41%)``, or after an exact search
    (``exact_nodes`` positions, when counted) what best play leads to."""
    move = chosen.move
    if chosen.exact:
        margin = chosen.margin
        if margin == 0:
            outcome = "wins on the tie-break" if chosen.win else "loses on the tie-break"
        else:
            outcome = f"wins by {margin:g}" if margin > 0 else f"loses by {-margin:g}"
        searched = f" ({exact_nodes} positions)" if exact_nodes is not None else ""
        return f"{describe(move)} because searching the rest of the game exactly{searched} shows best play {outcome}"
    if not chosen.valued:
        return f"{describe(move)} because it is the only move"
    text = (f"{describe(move)} because the search gives it a {chosen.win:.0%} chance of winning over "
            f"{chosen.visits} simulations")
    if runner_up is not None and runner_up.valued:
        text += f" (next best, {_short(runner_up.move)}: {runner_up.win:.0%})"
    return text
