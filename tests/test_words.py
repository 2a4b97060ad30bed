"""A move in words: one sentence for what a player does, naming one move, and the bots' reasons,
the terminal and the service built from its pieces."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from conftest import make_state

from patchwork_opt.ai.explain import describe, short_words
from patchwork_opt.core.bitboard import bit, mask_of
from patchwork_opt.core.catalogue import PATCHES, PLACEMENTS
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State
from patchwork_opt.core.words import cells_words, move_words, placed_words, words_in

Cell = tuple[int, int]


def _placement_in(patch_id: int, rows: range, cols: range, shape: set[Cell] | None = None) -> int:
    """A placement of the patch whose bounding box is exactly ``rows`` x ``cols`` (with ``shape``'s
    cells, counted from the box's top-left, when given)."""
    box = mask_of((r, c) for r in rows for c in cols)
    for m in PLACEMENTS[patch_id]:
        cells = {(r - rows.start, c - cols.start) for r, c in Move("buy", patch_id, m).cells}
        if m & box == m and cells_words(m) == cells_words(box) and (shape is None or cells == shape):
            return m
    raise AssertionError("no such placement")


def test_a_move_reads_as_what_the_player_does() -> None:
    bar = _placement_in(1, range(0, 3), range(8, 9))  # a 1x3 bar lies one way in a 3x1 box
    assert move_words(Move("buy", 1, bar), 0) == "buy #1 at rows 0-2, col 8"
    # #18 (o.. / o##) upright as pictured, and the same box with the picture mirrored left to right
    pictured = _placement_in(18, range(6, 8), range(1, 4), {(0, 0), (1, 0), (1, 1), (1, 2)})
    mirrored = _placement_in(18, range(6, 8), range(1, 4), {(0, 2), (1, 0), (1, 1), (1, 2)})
    assert move_words(Move("buy", 18, pictured), 0) == "buy #18 at rows 6-7, cols 1-3, as pictured"
    assert move_words(Move("buy", 18, mirrored), 0) == "buy #18 at rows 6-7, cols 1-3, flipped"
    assert move_words(ADVANCE, 3) == "advance 3 spaces (+3 buttons)"
    assert move_words(ADVANCE, 1) == "advance 1 space (+1 button)"
    assert move_words(Move.leather(4, 4), 0) == "put the leather patch on row 4, col 4"
    assert move_words(Move.leather(4, 4), 0, third_person=True) == "puts the leather patch on row 4, col 4"
    assert move_words(ADVANCE, 2, third_person=True) == "advances 2 spaces (+2 buttons)"
    assert cells_words(mask_of([(0, 8), (1, 8), (2, 8)])) == "rows 0-2, col 8"


def _turned(cells: list[Cell], phrase: str) -> set[Cell]:
    """The picture's cells turned as ``phrase`` says (read here independently of the catalogue):
    flipped left to right first, then a quarter turn clockwise for each ``right``."""
    turns = {"": 0, "as pictured": 0, "turned right": 1, "upside down": 2, "turned left": 3}
    flipped = phrase.startswith("flipped")
    rest = phrase.removeprefix("flipped").removeprefix(",").strip()
    out = [(r, -c) if flipped else (r, c) for r, c in cells]
    for _ in range(turns[rest]):
        out = [(c, -r) for r, c in out]
    top, left = min(r for r, _ in out), min(c for _, c in out)
    return {(r - top, c - left) for r, c in out}


def test_the_words_say_how_the_patch_lies_against_its_picture() -> None:
    """Every placement of every patch: its words, where they say how it is turned, read back against
    the patch's picture (its ``shape``) give exactly its cells; where they do not, its box alone
    does (no two placements of a patch read the same)."""
    for patch in PATCHES:
        picture = [(r, c) for r, row in enumerate(patch.shape) for c, ch in enumerate(row) if ch in "#o"]
        said: dict[str, int] = {}
        for mask in PLACEMENTS[patch.id]:
            words = placed_words(patch.id, mask)
            assert words not in said, (patch.id, words)
            said[words] = mask
            cells = Move("buy", patch.id, mask).cells
            top, left = min(r for r, _ in cells), min(c for _, c in cells)
            phrase = words.removeprefix(cells_words(mask)).removeprefix(",").strip()
            if phrase:
                assert _turned(picture, phrase) == {(r - top, c - left) for r, c in cells}, (patch.id, words)


def _positions(games: int, seed: int) -> list[State]:
    """Every position of random games from seeded circles (pending leather patches included)."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = State.new(seed=rng.randrange(1 << 30))
        while not state.is_terminal():
            out.append(state.clone())
            state.apply(rng.choice(list(state.legal_moves())))
    return out


@pytest.mark.parametrize("third_person", [False, True])
def test_no_two_legal_moves_of_a_position_read_the_same(third_person: bool) -> None:
    positions = _positions(6, seed=40)
    assert any(s.pending >= 0 for s in positions)
    for state in positions:
        p = state.to_move()
        spaces = state.advance_target(p) - state.pos[p]
        said = Counter(move_words(m, spaces, third_person=third_person) for m in state.legal_moves())
        assert said and max(said.values()) == 1, [w for w, n in said.items() if n > 1]


def test_the_terminal_review_s_column_holds_every_move_whole() -> None:
    """``patchwork analyze`` lines moves up in a column: cut short, two moves could read the same."""
    from patchwork_opt.apps.review import WORDS_WIDTH

    longest = max(len(move_words(Move("buy", p.id, m), 0)) for p in PATCHES for m in PLACEMENTS[p.id])
    assert longest == WORDS_WIDTH


def test_the_position_says_how_far_advancing_goes() -> None:
    state = make_state(pos=(10, 14))  # player 0 advances to 15
    assert words_in(state, ADVANCE) == "advance 5 spaces (+5 buttons)"
    assert words_in(state, Move.leather(0, 3)) == move_words(Move.leather(0, 3), 0)


def test_a_bot_s_reason_says_the_same_placement_in_the_third_person() -> None:
    mask = _placement_in(27, range(6, 8), range(1, 4), {(0, 0), (0, 1), (1, 1), (1, 2)})
    p = PATCHES[27]
    assert describe(Move("buy", 27, mask)) == (
        f"buys #27 for {p.cost} buttons (time {p.time}, income {p.income}) at rows 6-7, cols 1-3, as pictured")
    assert describe(Move("leather", -1, bit(4, 4))) == "puts the leather patch on row 4, col 4"
    assert describe(ADVANCE) == "advances"
    assert short_words(Move("buy", 27, mask)) == "#27 at rows 6-7, cols 1-3, as pictured"
