"""Perft-style legal-move counts: stored counts recomputed, plus counts derived by hand from the rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import ORDERED_CIRCLE, full_except, make_state

from patchwork_opt.core.bitboard import FULL
from patchwork_opt.core.move import ADVANCE
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import from_notation, to_notation

DATA = Path(__file__).parent / "data" / "perft.json"


def stored() -> list[dict[str, Any]]:
    entries = json.loads(DATA.read_text(encoding="utf-8"))["positions"]
    assert isinstance(entries, list)
    return entries


def perft(state: State, depth: int) -> int:
    """Leaf count of the move tree, by enumeration (counts are checked by a second method)."""
    if depth == 1:
        return sum(1 for _ in state.legal_moves())
    total = 0
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        total += perft(child, depth - 1)
    return total


def test_the_data_file_has_varied_positions() -> None:
    entries = stored()
    assert len(entries) >= 20
    states = [from_notation(e["position"]) for e in entries]
    assert any(s.pending >= 0 for s in states), "a pending leather placement"
    assert any(s.bonus >= 0 for s in states), "a position after the 7x7 bonus"
    assert any(s.is_terminal() for s in states)
    assert any(s.printing == (20, 26, 32, 44, 50) for s in states)
    assert sum(1 for e in entries if "depth2" in e) >= 15


@pytest.mark.parametrize("entry", stored(), ids=lambda e: e["name"])
def test_stored_counts(entry: dict[str, Any]) -> None:
    state = from_notation(entry["position"])
    assert to_notation(state) == entry["position"]
    assert state.count_moves() == entry["depth1"]
    assert perft(state, 1) == entry["depth1"]
    if "depth2" in entry:
        assert perft(state, 2) == entry["depth2"]


# --- counts derived by hand ---------------------------------------------------------------------
# A straight bar of length n has 2 orientations: 9 * (10 - n) places each way.


def test_start_position_is_one_advance_plus_the_placements_of_affordable_offers() -> None:
    # Offers 1 (1x3, cost 2), 2 (1x4, cost 3) and 3 (1x5, cost 7); 5 buttons buy the first two.
    state = State.new(ORDERED_CIRCLE)
    assert state.count_moves() == 1 + 2 * 9 * 7 + 2 * 9 * 6 == 235
    assert perft(state, 1) == 235


def test_start_position_depth_2_by_hand() -> None:
    # Whatever player 0 does, player 1 (still on 0, behind) moves next with 5 buttons:
    # - after the advance the circle is unchanged: 235 replies;
    # - after buying patch 1 (126 ways) the offers are 2, 3, 4 (cost 3, 7, 6): 1 + 108 replies;
    # - after buying patch 2 (108 ways) the offers are 3, 4, 5 (cost 7, 6, 2); patch 5 is the
    #   P pentomino, 8 orientations of a 2x3 or 3x2 box, 8 * 56 = 448 places: 1 + 448 replies.
    expected = 235 + 126 * (1 + 108) + 108 * (1 + 448)
    assert expected == 62461
    assert perft(State.new(ORDERED_CIRCLE), 2) == expected


def test_square_patch_count_by_hand() -> None:
    # Offers 4 (2x2, cost 6), 3 (cost 7), 6 (cost 10): with 6 buttons only the square, 8 * 8 places.
    state = make_state(circle=[4, 3, 6], buttons=(6, 0))
    assert state.count_moves() == 1 + 64
    state.buttons[0] = 5
    assert state.count_moves() == 1


def test_pending_leather_count_is_the_number_of_empty_cells() -> None:
    state = make_state(pos=(25, 30), quilts=(full_except([(r, 0) for r in range(9)]), 0))
    state.apply(ADVANCE)  # 25 -> 31 crosses the leather on 26
    assert state.pending == 0
    assert state.count_moves() == perft(state, 1) == 9


def test_a_full_quilt_leaves_only_the_advance() -> None:
    state = make_state(buttons=(99, 0), quilts=(FULL, 0))
    assert state.count_moves() == perft(state, 1) == 1
