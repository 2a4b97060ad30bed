"""How text names things, so every command and page says it the same way.

A move in words is written here once: ``cells_words`` (where cells lie, as rows and columns),
``placed_words`` (where a patch lies and, when its box alone does not say it, how it is turned:
"rows 6-8, cols 0-1, turned right") and ``move_words`` (what a player does: "buy #18 at rows 6-8,
cols 0-1, turned right"). The AI's reasons (``ai.explain.describe``), the terminal, hints, reviews,
puzzles and the service's ``words`` fields say moves from these pieces, so within a position two
different moves never read the same (tests/test_words.py checks every legal move of seeded games).

How a patch is turned is said against its picture, the patch as the page's offers and the
terminal draw it (orientation 0 of the catalogue): "flipped" is mirrored left to right (the page's
Flip), "turned right" a quarter turn clockwise (its Rotate), "upside down" a half turn, "turned
left" a quarter turn anticlockwise; "flipped, turned right" is flipped first, then turned. It is
said only for a patch with another orientation of the same box (an L in a 2x3 box lies four ways
there, a 1x3 bar one way), so most moves stay as short as the box.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, Self

from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.catalogue import PATCHES, orientation_of
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move


class Position(Protocol):
    """What the words read of a position (a ``core.state.State``, which imports this module)."""

    pos: list[int]

    def to_move(self) -> int: ...

    def advance_target(self, player: int) -> int: ...

    def clone(self) -> Self: ...

    def apply(self, move: Move) -> None: ...

#: How an orientation lies against the patch's picture, by (flipped, quarter turns clockwise).
TURN_WORDS: dict[tuple[bool, int], str] = {
    (False, 0): "as pictured", (False, 1): "turned right", (False, 2): "upside down", (False, 3): "turned left",
    (True, 0): "flipped", (True, 1): "flipped, turned right", (True, 2): "flipped upside down",
    (True, 3): "flipped, turned left",
}
#: _TURNED[patch][orientation]: how that orientation is turned, in words, or "" when no other
#: orientation of the patch has the same box (its box alone names it).
_TURNED: tuple[tuple[str, ...], ...] = tuple(
    tuple(
        TURN_WORDS[(o.flipped, o.turns)]
        if any((x.height, x.width) == (o.height, o.width) for x in p.orientations if x.index != o.index) else ""
        for o in p.orientations
    )
    for p in PATCHES
)


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


def turned_words(patch_id: int, mask: int) -> str:
    """How patch ``patch_id`` lies on ``mask`` against its picture (``turned right``), or "" when
    its box alone names the placement."""
    return _TURNED[patch_id][orientation_of(patch_id, mask)]


def placed_words(patch_id: int, mask: int) -> str:
    """Where patch ``patch_id`` lies on ``mask`` (a placement of it): its box, and how it is turned
    when another orientation has the same box: ``rows 6-8, cols 0-1, turned right``, ``row 4,
    cols 0-2``."""
    turned = turned_words(patch_id, mask)
    return f"{cells_words(mask)}, {turned}" if turned else cells_words(mask)


def patch_words(patch_id: int, mask: int) -> str:
    """A patch where it lies, named in passing: ``#18 at rows 6-8, cols 0-1, turned right``."""
    return f"#{patch_id} at {placed_words(patch_id, mask)}"


def move_words(move: Move, advance_spaces: int, *, third_person: bool = False) -> str:
    """What a player does, in their words: ``buy #27 at rows 6-7, cols 1-3, flipped``, ``advance 3
    spaces (+3 buttons)`` (``advance_spaces``: how far advancing takes them, which only the position
    knows), ``put the leather patch on row 4, col 4``; ``third_person`` for what another does
    (``buys``, ``advances``, ``puts``: the terminal's "AI buys #12 at ...")."""
    if move.kind == "advance":
        verb = "advances" if third_person else "advance"
        return f"{verb} {plural(advance_spaces, 'space')} (+{plural(advance_spaces, 'button')})"
    if move.kind == "leather":
        return f"{'puts' if third_person else 'put'} the leather patch on {cells_words(move.mask)}"
    return f"{'buys' if third_person else 'buy'} {patch_words(move.patch, move.mask)}"


def words_in(state: Position, move: Move, *, third_person: bool = False) -> str:
    """``move_words`` for the player to move in ``state``, which says how far advancing takes them:
    ``buy #12 at rows 3-5, cols 4-6, turned left``, ``advance 3 spaces (+3 buttons)``."""
    p = state.to_move()
    return move_words(move, state.advance_target(p) - state.pos[p], third_person=third_person)


def line_words(state: Position, line: Sequence[Move]) -> list[str]:
    """The moves of ``line`` played from ``state`` in turn, each in words for its mover. A search's
    line may leave out a leather patch its compiled search placed on its own: from there on the
    moves are said as far as the move alone says them (an advance without how far)."""
    walk: Position | None = state.clone()
    out = []
    for move in line:
        if walk is not None:
            try:
                said = words_in(walk, move)
                walk.apply(move)
            except PatchworkError:
                walk = None
        out.append(said if walk is not None else "advance" if move.kind == "advance" else move_words(move, 0))
    return out
