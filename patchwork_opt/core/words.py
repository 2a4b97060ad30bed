"""How text names things, so every command and page says it the same way.

A move in words is written here once: ``cells_words`` (where a patch lies, as rows and columns)
and ``move_words`` (what a player does: "buy #27 at rows 6-7, cols 1-3"); the AI's reasons
(``ai.explain.describe``) say the same move in the third person from these pieces.
"""

from __future__ import annotations

from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.move import Move


def player_name(p: int) -> str:
    """Seat ``p`` in text: "Player 1" and "Player 2" (JSON and the notation keep 0 and 1)."""
    return f"Player {p + 1}"


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 button``, ``2 buttons``; ``words`` for an irregular plural."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def _span(name: str, low: int, high: int) -> str:
    """``row 4`` or ``rows 6-7`` (0-based, inclusive)."""
    return f"{name} {low}" if low == high else f"{name}s {low}-{high}"


def cells_words(mask: int) -> str:
    """Where the cells of ``mask`` lie, as their bounding box: ``rows 6-7, cols 1-3``, ``row 4, col 4``
    (0-based, as the move notation and the board's labels count)."""
    cells = cells_of(mask)
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return f"{_span('row', min(rows), max(rows))}, {_span('col', min(cols), max(cols))}"


def move_words(move: Move, advance_spaces: int) -> str:
    """What a player does, in their words: ``buy #27 at rows 6-7, cols 1-3``, ``advance 3 spaces
    (+3 buttons)`` (``advance_spaces``: how far advancing takes them, which only the position
    knows), ``put the leather patch on row 4, col 4``."""
    if move.kind == "advance":
        return f"advance {plural(advance_spaces, 'space')} (+{plural(advance_spaces, 'button')})"
    if move.kind == "leather":
        return f"put the leather patch on {cells_words(move.mask)}"
    return f"buy #{move.patch} at {cells_words(move.mask)}"
