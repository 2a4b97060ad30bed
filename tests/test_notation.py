"""The one-line position notation: exact round trips and one clear error per malformed field."""

from __future__ import annotations

import random

import pytest
from conftest import ORDERED_CIRCLE, make_state

from patchwork_opt.ai.random_play import random_move
from patchwork_opt.core.bitboard import FULL, bit
from patchwork_opt.core.errors import NotationError, PatchworkError
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import from_notation, to_notation

START = " ".join(
    [
        ",".join(str(i) for i in ORDERED_CIRCLE),
        "0/5/0/000000000000000000000",
        "0/5/0/000000000000000000000",
        "0 - - 26,32,38,44,50 - 26,32,38,44,50",
    ]
)


def test_start_position_text() -> None:
    assert to_notation(State.new(ORDERED_CIRCLE)) == START
    assert from_notation(START) == State.new(ORDERED_CIRCLE)


def test_every_field_survives_a_round_trip() -> None:
    state = make_state(circle=[7, 3, 9], pos=(53, 40), buttons=(17, 0), income=(6, 2), last_mover=1)
    state.quilts = [FULL, bit(0, 0) | bit(8, 8)]
    state.bonus = 0
    state.first_end = 0
    state.leather = (1 << 44) | (1 << 50)
    state.pending = 1
    text = to_notation(state)
    back = from_notation(text)
    assert to_notation(back) == text
    assert back.circle == [7, 3, 9]
    assert (back.pos, back.buttons, back.income) == ([53, 40], [17, 0], [6, 2])
    assert back.quilts == [FULL, bit(0, 0) | bit(8, 8)]
    assert (back.last_mover, back.pending, back.bonus, back.first_end) == (1, 1, 0, 0)
    assert back.leather_left() == [44, 50]
    assert back.to_move() == 1
    assert back.count_moves() == 79


def test_classic_printing_and_empty_lists_round_trip() -> None:
    state = make_state(circle=[], leather="classic")
    state.leather = 0
    text = to_notation(state)
    assert text.split()[0] == "-" and text.split()[6] == "-"
    assert text.split()[8] == "20,26,32,44,50"
    assert from_notation(text) == state


def test_the_position_plays_on_identically_after_a_round_trip() -> None:
    rng = random.Random(3)
    state = State.new(seed=3, leather="classic")
    for _ in range(30):
        state.apply(random_move(state, rng))
    back = from_notation(to_notation(state))
    assert list(back.legal_moves()) == list(state.legal_moves())
    for move in list(state.legal_moves())[-4:]:
        a, b = state.clone(), back.clone()
        a.apply(move)
        b.apply(move)
        assert a == b


def field_replaced(index: int, value: str) -> str:
    fields = START.split()
    fields[index] = value
    return " ".join(fields)


def player_replaced(part: int, value: str, player: int = 0) -> str:
    parts = START.split()[1 + player].split("/")
    parts[part] = value
    return field_replaced(1 + player, "/".join(parts))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "9 space-separated fields, found 0"),
        (START + " extra", "found 10"),
        (" ".join(START.split()[:8]), "found 8"),
        (field_replaced(0, "1,2,x"), "circle\\[2\\]: expected a number, got 'x'"),
        (field_replaced(0, "1,2,33"), "circle\\[2\\]: 33 is outside 0..32"),
        (field_replaced(0, "1,2,1"), "circle: a patch id appears twice"),
        (field_replaced(1, "0/5/0"), "Player 1: expected position/buttons/income/quilt"),
        (player_replaced(0, "54"), "Player 1 position: 54 is outside 0..53"),
        (player_replaced(1, "-3", player=1), "Player 2 buttons: expected a number, got '-3'"),
        (player_replaced(2, "two"), "Player 1 income: expected a number"),
        (player_replaced(3, "xyz"), "Player 1 quilt: expected 21 hex digits, got 'xyz'"),
        (player_replaced(3, "0x" + "0" * 19), "Player 1 quilt: expected 21 hex digits"),
        (player_replaced(3, "1_" + "0" * 19), "Player 1 quilt: expected 21 hex digits"),
        (player_replaced(3, "4" + "0" * 20), "Player 1 quilt: '4" + "0" * 20 + "' sets bits beyond the 81 cells"),
        (player_replaced(3, "-1"), "Player 1 quilt"),
        (field_replaced(3, "-"), "on top: expected 0 or 1"),
        (field_replaced(3, "2"), "on top: expected 0, 1 or -, got '2'"),
        (field_replaced(4, "x"), "pending leather: expected 0, 1 or -"),
        (field_replaced(5, "3"), "bonus: expected 0, 1 or -"),
        (field_replaced(6, "26,33"), "leather left: \\[26, 33\\] are not all among"),
        (field_replaced(6, "0"), "leather left\\[0\\]: 0 is outside 1..52"),
        (field_replaced(7, "1"), "first at 53: Player 2 is not on space 53"),
        (field_replaced(8, "26,32,38,44"), "printing: leather needs 5 spaces, got 4"),
        (field_replaced(8, "26,32,38,44,53"), "printing\\[4\\]: 53 is outside 1..52"),
    ],
)
def test_malformed_fields_are_refused_naming_the_field(text: str, words: str) -> None:
    with pytest.raises(NotationError, match=words) as info:
        from_notation(text)
    assert isinstance(info.value, PatchworkError) and info.value.exit_code == 2


def test_a_pending_leather_on_a_full_quilt_is_refused() -> None:
    state = make_state(quilts=(FULL, 0))
    state.pending = 0
    with pytest.raises(NotationError, match="pending leather: Player 1's quilt is full"):
        from_notation(to_notation(state))
