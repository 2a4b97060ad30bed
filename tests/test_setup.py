"""A position set up from a physical game (``formats/setup.py``): every position of real games reads
back exactly, and a set-up that cannot occur is refused with one line naming what is wrong."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from conftest import late_positions
from pydantic import ValidationError

from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.setup import PhysicalSetup, SetupError, setup_state


def table_of(state: State) -> dict[str, Any]:
    """What a player reads off the table for ``state``."""
    return {
        "circle": list(state.circle),
        "players": [{"position": state.pos[p], "buttons": state.buttons[p], "income": state.income[p],
                     "quilt": [list(c) for c in cells_of(state.quilts[p])]} for p in (0, 1)],
        "leather_left": state.leather_left(), "bonus": None if state.bonus < 0 else state.bonus,
        "on_top": state.last_mover, "pending_leather": None if state.pending < 0 else state.pending,
        "first_at_end": None if state.first_end < 0 else state.first_end,
    }


def read(table: dict[str, Any]) -> State:
    return setup_state(PhysicalSetup.model_validate(table))


@pytest.mark.parametrize("seed", range(6))
def test_every_position_of_a_game_reads_back_exactly(seed: int) -> None:
    for state in [State.new(seed=seed), *late_positions(seed, 0)[::5]]:
        assert to_notation(read(table_of(state))) == to_notation(state)


def test_on_top_and_first_at_end_are_asked_only_when_they_decide_something() -> None:
    state = late_positions(1, 30)[0]
    table = table_of(state)
    table["on_top"] = None
    if state.pos[0] != state.pos[1]:
        assert read(table).to_move() == state.to_move()  # the one behind moves: on top decides nothing
    table["players"][1]["position"] = table["players"][0]["position"]
    with pytest.raises(SetupError, match=r"both tokens are on space \d+: say whose token is on top"):
        read(table)


def _changed(change: Any) -> dict[str, Any]:
    table = copy.deepcopy(table_of(late_positions(3, 30)[0]))
    change(table)
    return table


@pytest.mark.parametrize(("change", "message"), [
    (lambda t: t["players"][0].update(income=t["players"][0]["income"] + 1),
     r"the players' income adds up to \d+, but the patches off the circle carry \d+ buttons"),
    (lambda t: t["players"][0]["quilt"].pop(),
     r"the quilts cover \d+ cells, but the \d+ patches off the circle cover \d+"),
    (lambda t: t.update(leather_left=[]), r"leather space \d+: no token has reached it"),
    (lambda t: t.update(bonus=0), r"Player 1 holds the bonus but their quilt has no complete 7x7 square"),
    (lambda t: t.update(first_at_end=1), r"first at 53: Player 2 is not on space 53"),
    (lambda t: t.update(pending_leather=0, leather_left=[26, 32, 38, 44, 50]),
     r"Player 1 cannot have a leather patch to place"),
    (lambda t: [t["players"][0].update(quilt=[[r, c] for r in range(7) for c in range(7)])],
     r"complete 7x7 square, so someone holds the bonus"),
])
def test_an_impossible_set_up_is_refused_naming_what_is_wrong(change: Any, message: str) -> None:
    with pytest.raises(SetupError, match=message) as caught:
        read(_changed(change))
    assert "\n" not in str(caught.value) and caught.value.exit_code == 1


def test_no_share_of_the_patches_gives_both_players_their_quilts() -> None:
    state = State.new(seed=4)
    state.buttons[0] = 20  # Player 1 buys a patch with buttons on it
    state.apply(next(m for m in state.legal_moves() if m.kind == "buy" and PATCHES[m.patch].income))
    table = table_of(state)
    table["players"][0]["quilt"], table["players"][1]["quilt"] = (  # the patch drawn on the wrong quilt
        table["players"][1]["quilt"], table["players"][0]["quilt"])
    with pytest.raises(SetupError, match="no share of the patches off the circle gives Player 1 a quilt"):
        read(table)


@pytest.mark.parametrize("field", ["circle", "leather_left"])
def test_a_list_of_things_that_exist_once_may_not_repeat_one(field: str) -> None:
    table = table_of(late_positions(3, 30)[0])
    table[field] = [*table[field][:1], *table[field]] or [26, 26]
    with pytest.raises(ValidationError, match="listed twice"):
        PhysicalSetup.model_validate(table)
