"""A move in words: one sentence for what a player does, and the bots' reasons built from its pieces."""

from __future__ import annotations

from conftest import make_state

from patchwork_opt.ai.analysis.position import move_words as position_words
from patchwork_opt.ai.explain import describe, short_words
from patchwork_opt.core.bitboard import bit, mask_of
from patchwork_opt.core.catalogue import PATCHES, PLACEMENTS
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.words import cells_words, move_words


def _placement_in(patch_id: int, rows: range, cols: range) -> int:
    """A placement of the patch whose bounding box is exactly ``rows`` x ``cols``."""
    box = mask_of((r, c) for r in rows for c in cols)
    return next(m for m in PLACEMENTS[patch_id] if m & box == m and cells_words(m) == cells_words(box))


def test_a_move_reads_as_what_the_player_does() -> None:
    mask = _placement_in(27, range(6, 8), range(1, 4))
    assert move_words(Move("buy", 27, mask), 0) == "buy #27 at rows 6-7, cols 1-3"
    assert move_words(ADVANCE, 3) == "advance 3 spaces (+3 buttons)"
    assert move_words(ADVANCE, 1) == "advance 1 space (+1 button)"
    assert move_words(Move.leather(4, 4), 0) == "put the leather patch on row 4, col 4"
    assert cells_words(mask_of([(0, 8), (1, 8), (2, 8)])) == "rows 0-2, col 8"


def test_the_position_says_how_far_advancing_goes() -> None:
    state = make_state(pos=(10, 14))  # player 0 advances to 15
    assert position_words(state, ADVANCE) == "advance 5 spaces (+5 buttons)"
    assert position_words(state, Move.leather(0, 3)) == move_words(Move.leather(0, 3), 0)


def test_a_bot_s_reason_says_the_same_cells_in_the_third_person() -> None:
    mask = _placement_in(27, range(6, 8), range(1, 4))
    p = PATCHES[27]
    assert describe(Move("buy", 27, mask)) == (
        f"buys #27 for {p.cost} buttons (time {p.time}, income {p.income}) at rows 6-7, cols 1-3")
    assert describe(Move("leather", -1, bit(4, 4))) == "places the leather patch on row 4, col 4"
    assert describe(ADVANCE) == "advances"
    assert short_words(Move("buy", 27, mask)) == "#27 at rows 6-7, cols 1-3"
