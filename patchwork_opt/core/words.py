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

Every phrase is a whole message of the language in effect (``patchwork_opt.i18n``), its numbers
placeholders: "Zeilen 6-8, Spalten 0-1", "купить #18: строки 6-8, столбцы 0-1". A move is one
message per kind and person, so each language says it in its own order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, Self

from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.catalogue import PATCHES, orientation_of
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.i18n import N_, _, ngettext


class Position(Protocol):
    """What the words read of a position (a ``core.state.State``, which imports this module)."""

    pos: list[int]

    def to_move(self) -> int: ...

    def advance_target(self, player: int) -> int: ...

    def clone(self) -> Self: ...

    def apply(self, move: Move) -> None: ...

#: How an orientation lies against the patch's picture, by (flipped, quarter turns clockwise).
#: In English, as the catalogues know them (``turned_words`` says them in the language in effect).
TURN_WORDS: dict[tuple[bool, int], str] = {
    # Translators: how a patch lies against its picture: not turned at all
    (False, 0): N_("as pictured"),
    # Translators: a patch turned a quarter turn clockwise against its picture
    (False, 1): N_("turned right"),
    # Translators: a patch turned a half turn against its picture
    (False, 2): N_("upside down"),
    # Translators: a patch turned a quarter turn anticlockwise against its picture
    (False, 3): N_("turned left"),
    # Translators: a patch mirrored left to right against its picture
    (True, 0): N_("flipped"),
    # Translators: a patch mirrored left to right, then turned a quarter turn clockwise
    (True, 1): N_("flipped, turned right"),
    # Translators: a patch mirrored left to right, then turned a half turn
    (True, 2): N_("flipped upside down"),
    # Translators: a patch mirrored left to right, then turned a quarter turn anticlockwise
    (True, 3): N_("flipped, turned left"),
}
#: _TURNED[patch][orientation]: how that orientation is turned, in English words, or "" when no
#: other orientation of the patch has the same box (its box alone names it).
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
    # Translators: a seat at the table, numbered 1 and 2
    return _("Player {number}", number=p + 1)


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 button``, ``2 buttons``; ``words`` for an irregular plural. English only: words a person
    reads in their language say their counts with ``i18n.ngettext`` instead."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def cells_words(mask: int) -> str:
    """Where the cells of ``mask`` lie, as their bounding box: ``rows 6-7, cols 1-3``, ``row 4, col 4``
    (0-based, as the move notation and the board's labels count)."""
    cells = cells_of(mask)
    top, bottom = min(r for r, _c in cells), max(r for r, _c in cells)
    left, right = min(c for _r, c in cells), max(c for _r, c in cells)
    if top == bottom and left == right:
        # Translators: where cells lie on the 9x9 quilt board, counted from 0: one row, one column
        return _("row {row}, col {col}", row=top, col=left)
    if top == bottom:
        # Translators: where cells lie on the 9x9 quilt board, counted from 0: one row, several columns
        return _("row {row}, cols {left}-{right}", row=top, left=left, right=right)
    if left == right:
        # Translators: where cells lie on the 9x9 quilt board, counted from 0: several rows, one column
        return _("rows {top}-{bottom}, col {col}", top=top, bottom=bottom, col=left)
    # Translators: where cells lie on the 9x9 quilt board, counted from 0: several rows and columns
    return _("rows {top}-{bottom}, cols {left}-{right}", top=top, bottom=bottom, left=left, right=right)


def turned_words(patch_id: int, mask: int) -> str:
    """How patch ``patch_id`` lies on ``mask`` against its picture (``turned right``), or "" when
    its box alone names the placement."""
    turned = _TURNED[patch_id][orientation_of(patch_id, mask)]
    return _(turned) if turned else ""


def placed_words(patch_id: int, mask: int) -> str:
    """Where patch ``patch_id`` lies on ``mask`` (a placement of it): its box, and how it is turned
    when another orientation has the same box: ``rows 6-8, cols 0-1, turned right``, ``row 4,
    cols 0-2``."""
    turned = turned_words(patch_id, mask)
    # Translators: where a patch lies ({where}: "rows 6-8, cols 0-1") and how it is turned ({turned}: "turned right")
    return _("{where}, {turned}", where=cells_words(mask), turned=turned) if turned else cells_words(mask)


def patch_words(patch_id: int, mask: int) -> str:
    """A patch where it lies, named in passing: ``#18 at rows 6-8, cols 0-1, turned right``."""
    # Translators: a patch (#{patch}: its number) where it lies ({where}: "rows 6-8, cols 0-1, turned right")
    return _("#{patch} at {where}", patch=patch_id, where=placed_words(patch_id, mask))


def move_words(move: Move, advance_spaces: int, *, third_person: bool = False) -> str:
    """What a player does, in their words: ``buy #27 at rows 6-7, cols 1-3, flipped``, ``advance 3
    spaces (+3 buttons)`` (``advance_spaces``: how far advancing takes them, which only the position
    knows), ``put the leather patch on row 4, col 4``; ``third_person`` for what another does
    (``buys``, ``advances``, ``puts``: the terminal's "AI buys #12 at ...")."""
    if move.kind == "advance" and third_person:
        # Translators: what another player (the AI) does: moves its time token on {count} spaces of the
        # time board and takes a button for each; said after its name ("AI advances ...")
        return ngettext("advances {count} space (+{count} button)", "advances {count} spaces (+{count} buttons)",
                        advance_spaces)
    if move.kind == "advance":
        # Translators: a move the player may make: move the time token on {count} spaces of the time
        # board and take a button for each (an instruction or a menu item, like "buy #18 at ...")
        return ngettext("advance {count} space (+{count} button)", "advance {count} spaces (+{count} buttons)",
                        advance_spaces)
    where = cells_words(move.mask) if move.kind == "leather" else placed_words(move.patch, move.mask)
    if move.kind == "leather" and third_person:
        # Translators: what another player (the AI) does: sews the 1x1 leather patch onto its quilt;
        # {where}: "row 4, col 4"
        return _("puts the leather patch on {where}", where=where)
    if move.kind == "leather":
        # Translators: a move the player may make: sew the 1x1 leather patch onto the quilt; {where}: "row 4, col 4"
        return _("put the leather patch on {where}", where=where)
    if third_person:
        # Translators: what another player (the AI) does: buys patch number {patch} and sews it where {where} says
        return _("buys #{patch} at {where}", patch=move.patch, where=where)
    # Translators: a move the player may make: buy patch number {patch} and sew it where {where} says
    # ("rows 6-8, cols 0-1, turned right")
    return _("buy #{patch} at {where}", patch=move.patch, where=where)


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
        # Translators: a move of a search's line, how far unknown: move the time token on (like "advance 3 spaces")
        out.append(said if walk is not None else _("advance") if move.kind == "advance" else move_words(move, 0))
    return out
