"""One test per rule and per edge case of RULES.md, each on a position built for it."""

from __future__ import annotations

import pytest
from conftest import ORDERED_CIRCLE, cells_mask, full_except, make_state

from patchwork_opt.core.bitboard import FULL, bit
from patchwork_opt.core.catalogue import LEATHER_PRINTINGS, placement
from patchwork_opt.core.errors import IllegalMoveError, PatchworkError
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import END, INCOME_MARKS, State
from patchwork_opt.formats.notation import to_notation


def hbar(row: int, col: int, length: int) -> int:
    """Mask of a horizontal bar of ``length`` cells starting at (row, col)."""
    return cells_mask((row, col + i) for i in range(length))


def window(top: int, left: int) -> list[tuple[int, int]]:
    return [(top + r, left + c) for r in range(7) for c in range(7)]


def assert_refused(state: State, move: Move, words: str) -> None:
    """The move raises IllegalMoveError mentioning ``words`` and leaves the state as it was."""
    before = to_notation(state)
    with pytest.raises(IllegalMoveError, match=words):
        state.apply(move)
    assert to_notation(state) == before


# --- set-up -------------------------------------------------------------------------------------


def test_new_game_from_seed_is_the_standard_setup() -> None:
    state = State.new(seed=11)
    assert sorted(state.circle) == list(range(33))
    assert state.circle[-1] == 0, "patch 0 is the last one reached in the first lap"
    assert state.pos == [0, 0]
    assert state.buttons == [5, 5]
    assert state.income == [0, 0]
    assert state.quilts == [0, 0]
    assert state.pending == -1 and state.bonus == -1 and state.first_end == -1
    assert state.leather_left() == [26, 32, 38, 44, 50]
    assert state.offers() == state.circle[:3]
    assert not state.is_terminal()


def test_same_seed_same_circle_and_different_seeds_differ() -> None:
    assert State.new(seed=5).circle == State.new(seed=5).circle
    assert len({tuple(State.new(seed=s).circle) for s in range(10)}) == 10


def test_explicit_circle_is_kept_in_order() -> None:
    circle = [*range(32, -1, -1)]
    assert State.new(circle).circle == circle
    assert State.new(circle).offers() == [32, 31, 30]


@pytest.mark.parametrize(
    ("circle", "words"),
    [
        ([*range(1, 33)], "missing \\[0\\]"),
        ([*range(1, 33), 1], "missing \\[0\\]"),
        ([*range(1, 33), 33], "circle\\[32\\]: unknown patch id 33"),
        ([*range(1, 33), -1], "circle\\[32\\]"),
        ([*range(1, 33), True], "circle\\[32\\]"),
    ],
)
def test_bad_circle_is_refused_naming_the_entry(circle: list[object], words: str) -> None:
    with pytest.raises(PatchworkError, match=words):
        State.new(circle)  # type: ignore[arg-type]


def test_player_0_is_on_top_at_the_start() -> None:
    state = State.new(ORDERED_CIRCLE)
    assert state.to_move() == 0
    state.apply(ADVANCE)  # to the space after the opponent: 1
    assert state.pos == [1, 0] and state.buttons == [6, 5]
    assert state.to_move() == 1


# --- time track and buttons -----------------------------------------------------------------------


def test_income_marks_are_those_of_the_rules() -> None:
    assert INCOME_MARKS == (5, 11, 17, 23, 29, 35, 41, 47, 53)
    assert END == 53


def test_advance_goes_to_the_space_after_the_opponent_and_pays_one_per_space() -> None:
    state = make_state(pos=(0, 3), buttons=(2, 5))
    state.apply(ADVANCE)
    assert state.pos == [4, 3]
    assert state.buttons == [2 + 4, 5]


def test_reaching_a_mark_exactly_pays_income() -> None:
    state = make_state(pos=(3, 4), income=(2, 0))
    state.apply(ADVANCE)  # 3 -> 5: two spaces, mark 5 reached
    assert state.pos[0] == 5
    assert state.buttons[0] == 5 + 2 + 2


def test_a_mark_already_stood_on_does_not_pay_again() -> None:
    state = make_state(pos=(5, 6), income=(2, 0))
    state.apply(ADVANCE)  # 5 -> 7
    assert state.buttons[0] == 5 + 2


def test_two_income_marks_crossed_by_one_advance_pay_twice() -> None:
    state = make_state(pos=(4, 11), income=(3, 0))
    state.apply(ADVANCE)  # 4 -> 12 crosses 5 and 11
    assert state.pos[0] == 12
    assert state.buttons[0] == 5 + 8 + 2 * 3


def test_income_of_the_patch_placed_in_the_same_move_is_paid() -> None:
    # Patch 2: cost 3, time 3, one button icon. 3 -> 6 crosses mark 5 with income now 1.
    state = make_state(pos=(3, 10), income=(0, 0))
    state.apply(Move.buy(2, hbar(0, 0, 4)))
    assert state.income[0] == 1
    assert state.pos[0] == 6
    assert state.buttons[0] == 5 - 3 + 1


def test_buy_moves_by_the_time_cost_without_paying_per_space() -> None:
    state = make_state(pos=(6, 20), income=(0, 0))
    state.apply(Move.buy(1, hbar(0, 0, 3)))  # patch 1: cost 2, time 2
    assert state.pos[0] == 8
    assert state.buttons[0] == 3


def test_advance_while_the_opponent_is_on_53_goes_to_53_and_pays_the_difference() -> None:
    state = make_state(pos=(40, END), buttons=(0, 9), income=(1, 0), track_leather=False)
    state.first_end = 1
    assert state.to_move() == 0
    state.apply(ADVANCE)
    assert state.pos == [END, END]
    # 53 - 40 = 13 spaces, marks 41, 47 and 53 pay income 1 each.
    assert state.buttons[0] == 13 + 3
    assert state.is_terminal()


def test_advance_behind_an_opponent_on_52_stops_at_53() -> None:
    state = make_state(pos=(50, 52), buttons=(0, 0), track_leather=False)
    state.apply(ADVANCE)
    assert state.pos[0] == END
    assert state.buttons[0] == 3


def test_time_past_53_is_lost() -> None:
    # Patch 2 (time 3) bought on 51: the token stops on 53, the extra space is simply lost;
    # mark 53 pays the income including the patch just placed.
    state = make_state(pos=(51, END), buttons=(5, 0), income=(0, 0), track_leather=False)
    state.first_end = 1
    state.apply(Move.buy(2, hbar(0, 0, 4)))
    assert state.pos[0] == END
    assert state.buttons[0] == 5 - 3 + 1
    assert state.is_terminal()


def test_a_player_on_53_no_longer_moves_and_the_other_plays_on_alone() -> None:
    state = make_state(circle=[0, 1, 2, 5], pos=(END, 30), buttons=(0, 20), track_leather=False)
    state.first_end = 0
    assert state.to_move() == 1
    state.apply(Move.buy(0, hbar(0, 0, 2)))  # time 1: 30 -> 31
    assert state.to_move() == 1
    state.apply(Move.buy(5, placement(5, 0, 4, 4)))  # time 2: 31 -> 33
    assert state.to_move() == 1 and state.pos == [END, 33]
    state.apply(ADVANCE)
    assert state.pos == [END, END]
    assert state.is_terminal()


# --- who moves ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("pos", "mover"), [((10, 3), 1), ((3, 10), 0), ((0, 52), 0), ((53, 0), 1)])
def test_the_player_behind_moves(pos: tuple[int, int], mover: int) -> None:
    for last in (0, 1):
        assert make_state(pos=pos, last_mover=last).to_move() == mover


@pytest.mark.parametrize("mover", [0, 1])
def test_tie_on_a_space_the_one_who_arrived_last_moves(mover: int) -> None:
    other = 1 - mover
    pos = [0, 0]
    pos[mover], pos[other] = 3, 5
    state = make_state(pos=(pos[0], pos[1]), last_mover=other)
    assert state.to_move() == mover
    state.apply(Move.buy(1, hbar(0, 0, 3)))  # time 2: lands on the opponent's space, on top
    assert state.pos == [5, 5]
    assert state.to_move() == mover, "the player who arrived last moves again"
    state.apply(ADVANCE)  # from a shared space: one space forward, one button
    assert state.pos[mover] == 6
    assert state.to_move() == other


def test_a_player_can_take_several_turns_in_a_row() -> None:
    state = make_state(circle=[0, 26, 25, 1], pos=(0, 10), buttons=(10, 5))
    state.apply(Move.buy(0, hbar(0, 0, 2)))  # -> 1
    assert state.to_move() == 0
    state.apply(Move.buy(26, placement(26, 0, 2, 0)))  # time 3: -> 4
    assert state.to_move() == 0
    assert state.pos[0] == 4


# --- leather patches --------------------------------------------------------------------------


def test_leather_printings_are_the_two_of_the_rules_and_revised_is_the_default() -> None:
    assert LEATHER_PRINTINGS["revised"] == (26, 32, 38, 44, 50)
    assert LEATHER_PRINTINGS["classic"] == (20, 26, 32, 44, 50)
    assert State.new(ORDERED_CIRCLE).printing == (26, 32, 38, 44, 50)
    assert State.new(ORDERED_CIRCLE, leather="classic").leather_left() == [20, 26, 32, 44, 50]


def test_leather_taken_on_crossing_is_placed_at_once_even_if_the_turn_passes() -> None:
    state = make_state(pos=(25, 30), buttons=(0, 0))
    state.apply(ADVANCE)  # 25 -> 31 crosses 26
    assert state.pos == [31, 30]
    assert state.leather_left() == [32, 38, 44, 50]
    assert state.pending == 0
    assert state.to_move() == 0, "player 0 is ahead but must place the leather patch first"
    moves = list(state.legal_moves())
    assert len(moves) == 81 == state.count_moves()
    assert all(m.kind == "leather" for m in moves)
    state.apply(Move.leather(4, 4))
    assert state.quilts[0] == bit(4, 4)
    assert state.placed[0] == [(-1, bit(4, 4))]
    assert state.pending == -1
    assert state.income[0] == 0 and state.buttons[0] == 6, "leather has no cost and no income"
    assert state.to_move() == 1


def test_leather_reached_exactly_is_taken() -> None:
    state = make_state(pos=(24, 30))
    state.apply(Move.buy(1, hbar(0, 0, 3)))  # time 2: 24 -> 26
    assert state.pos[0] == 26
    assert state.pending == 0
    assert 26 not in state.leather_left()


def test_leather_passed_by_buying_is_taken() -> None:
    state = make_state(pos=(29, 40), buttons=(10, 0))
    state.apply(Move.buy(2, hbar(0, 0, 4)))  # time 3: 29 -> 32, the leather space itself
    assert state.pending == 0
    assert state.leather_left() == [26, 38, 44, 50]


def test_only_the_first_to_reach_a_leather_space_takes_it() -> None:
    state = make_state(pos=(24, 25), last_mover=1)
    state.apply(ADVANCE)  # 24 -> 26, takes the leather on 26
    assert state.pending == 0
    state.apply(Move.leather(0, 0))
    assert state.to_move() == 1
    state.apply(ADVANCE)  # 25 -> 27 crosses 26, now empty
    assert state.pending == -1
    assert state.quilts[1] == 0
    assert state.leather_left() == [32, 38, 44, 50]


def test_at_most_one_leather_patch_per_move() -> None:
    state = make_state(pos=(25, 40))
    state.apply(ADVANCE)  # 25 -> 41 crosses 26, 32 and 38
    assert state.pending == 0
    assert len(state.leather_left()) == 4
    state.apply(Move.leather(0, 0))
    assert state.pending == -1
    assert state.quilts[0] == bit(0, 0), "only one leather patch is placed"


def test_leather_on_a_full_quilt_is_discarded() -> None:
    state = make_state(pos=(25, 30), quilts=(FULL, 0))
    state.apply(ADVANCE)
    assert state.pending == -1
    assert 26 not in state.leather_left(), "discarded, not left for the opponent"
    assert state.to_move() == 1


def test_leather_with_one_empty_cell_fills_it() -> None:
    state = make_state(pos=(25, 30), quilts=(full_except([(8, 8)]), 0))
    state.apply(ADVANCE)
    assert state.pending == 0
    assert [str(m) for m in state.legal_moves()] == ["L@88"]
    state.apply(Move.leather(8, 8))
    assert state.quilts[0] == FULL


def test_a_pending_leather_placement_comes_before_anything_else() -> None:
    state = make_state(pos=(25, 30), quilts=(bit(0, 0), 0))
    state.apply(ADVANCE)
    assert state.count_moves() == 80
    assert_refused(state, ADVANCE, "leather")
    assert_refused(state, Move.buy(1, hbar(4, 0, 3)), "leather")
    assert_refused(state, Move.leather(0, 0), "already covered")


def test_a_leather_move_without_a_pending_leather_is_refused() -> None:
    assert_refused(make_state(), Move.leather(0, 0), "no leather patch")


@pytest.mark.parametrize(
    ("printing", "start", "target", "taken"),
    [
        ("classic", 19, 20, True),
        ("revised", 19, 20, False),
        ("classic", 37, 38, False),
        ("revised", 37, 38, True),
        ("classic", 25, 26, True),
        ("revised", 25, 26, True),
    ],
)
def test_classic_and_revised_printings_differ_on_20_and_38(printing: str, start: int, target: int, taken: bool) -> None:
    state = make_state(pos=(start, target - 1), leather=printing, last_mover=0)
    state.apply(ADVANCE)
    assert state.pos[0] == target
    assert (state.pending == 0) is taken


def test_custom_leather_spaces() -> None:
    state = State.new(ORDERED_CIRCLE, leather=[3, 9, 27, 40, 52])
    assert state.printing == (3, 9, 27, 40, 52)
    state.pos = [2, 2]
    state.apply(ADVANCE)  # 2 -> 3
    assert state.pending == 0


@pytest.mark.parametrize(
    ("leather", "words"),
    [
        ("bogus", "unknown leather printing 'bogus'"),
        ([26, 32, 38, 44], "5 spaces, got 4"),
        ([0, 26, 32, 38, 44], "leather space 0"),
        ([26, 32, 38, 44, 53], "leather space 53"),
        ([26, 26, 32, 38, 44], "repeat"),
    ],
)
def test_bad_leather_spaces_are_refused(leather: object, words: str) -> None:
    with pytest.raises(PatchworkError, match=words):
        State.new(ORDERED_CIRCLE, leather=leather)  # type: ignore[arg-type]


def test_a_pending_leather_is_placed_before_the_game_ends() -> None:
    state = make_state(pos=(49, END), income=(0, 0))
    state.first_end = 1
    state.apply(ADVANCE)  # 49 -> 53 crosses the leather on 50
    assert state.pos == [END, END]
    assert state.pending == 0
    assert not state.is_terminal()
    assert state.winner() is None and state.returns() == (0.0, 0.0)
    assert state.count_moves() == 81
    state.apply(Move.leather(3, 3))
    assert state.is_terminal()


# --- the 7x7 bonus ------------------------------------------------------------------------------


def test_bonus_taken_when_a_bought_patch_completes_a_7x7_square() -> None:
    quilt = cells_mask(window(0, 0)) & ~hbar(0, 0, 2)
    state = make_state(circle=[0, 1, 2], quilts=(quilt, 0))
    state.apply(Move.buy(0, hbar(0, 0, 2)))
    assert state.bonus == 0
    assert state.player(0).bonus and not state.player(1).bonus


def test_bonus_completed_by_a_leather_patch() -> None:
    quilt = cells_mask(window(2, 2)) & ~bit(8, 8)
    state = make_state(pos=(25, 30), quilts=(quilt, 0))
    state.apply(ADVANCE)
    assert state.bonus == -1
    state.apply(Move.leather(8, 8))
    assert state.bonus == 0
    assert state.score(0) == state.buttons[0] + 7 - 2 * (81 - 49)


@pytest.mark.parametrize(("top", "left"), [(r, c) for r in range(3) for c in range(3)])
def test_any_of_the_nine_windows_gives_the_bonus(top: int, left: int) -> None:
    missing = (top + 3, left + 3)
    quilt = cells_mask(window(top, left)) & ~bit(*missing)
    state = make_state(pos=(25, 30), quilts=(quilt, 0))
    state.apply(ADVANCE)
    state.apply(Move.leather(*missing))
    assert state.bonus == 0


def test_no_bonus_while_every_window_has_a_hole() -> None:
    # (4, 4) lies in all nine windows.
    quilt = full_except([(4, 4), (0, 0), (0, 1)])
    state = make_state(circle=[0, 1, 2], quilts=(quilt, 0))
    state.apply(Move.buy(0, hbar(0, 0, 2)))
    assert state.bonus == -1


def test_only_the_first_player_to_complete_a_square_gets_the_bonus() -> None:
    quilt1 = cells_mask(window(0, 0)) & ~hbar(0, 0, 2)
    state = make_state(circle=[0, 1, 2], pos=(10, 5), quilts=(cells_mask(window(0, 0)), quilt1))
    state.bonus = 0
    state.apply(Move.buy(0, hbar(0, 0, 2)))  # player 1 completes a square too
    assert state.bonus == 0
    assert state.score(1) == state.buttons[1] - 2 * 32


def test_the_bonus_is_never_lost() -> None:
    state = make_state(pos=(0, 10), buttons=(50, 5), quilts=(cells_mask(window(0, 0)), 0))
    state.bonus = 0
    for _ in range(3):
        state.apply(Move.buy(state.circle[0], _first_placement(state)))
        assert state.bonus == 0


def _first_placement(state: State) -> int:
    pid = state.circle[0]
    return next(m.mask for m in state.legal_moves() if m.kind == "buy" and m.patch == pid)


# --- buying -------------------------------------------------------------------------------------


def test_only_the_first_three_patches_of_the_circle_are_on_offer() -> None:
    state = make_state(buttons=(100, 5))
    assert state.offers() == [1, 2, 3]
    assert {m.patch for m in state.legal_moves() if m.kind == "buy"} == {1, 2, 3}
    assert_refused(state, Move.buy(4, placement(4, 0, 0, 0)), "not on offer")


def test_only_affordable_patches_can_be_bought() -> None:
    state = make_state(buttons=(2, 5))  # offers cost 2, 3, 7
    assert state.buyable() == [1]
    assert {m.patch for m in state.legal_moves() if m.kind == "buy"} == {1}
    assert_refused(state, Move.buy(2, hbar(0, 0, 4)), "costs 3 buttons, Player 1 has 2")


def test_spending_every_button_is_allowed_and_buttons_never_go_negative() -> None:
    state = make_state(buttons=(7, 5))
    state.apply(Move.buy(3, hbar(0, 0, 5)))  # cost 7
    assert state.buttons[0] == 0


def test_a_patch_that_costs_nothing_can_be_bought_with_no_buttons() -> None:
    state = make_state(circle=[16, 1, 2], buttons=(0, 5))
    assert state.buyable() == [16]
    state.apply(next(m for m in state.legal_moves() if m.kind == "buy"))
    assert state.buttons[0] == 0 and state.income[0] == 1 and state.pos[0] == 3


def test_only_patches_that_fit_somewhere_can_be_bought() -> None:
    quilt = full_except([(0, 0), (0, 1), (5, 5)])  # room for a 1x2 only
    state = make_state(buttons=(50, 5), quilts=(quilt, 0))
    assert state.buyable() == []
    assert list(state.legal_moves()) == [ADVANCE]
    assert state.count_moves() == 1
    state.circle = [5, 0, 1]
    assert state.buyable() == [0]
    assert [str(m) for m in state.legal_moves()] == ["0@00,01", "A"]


def test_a_buy_before_its_cells_are_chosen_is_judged_by_the_rules_naming_the_rule_broken() -> None:
    """``check_buy``: what a client that picks the patch first asks; each refusal names its rule."""
    quilt = full_except([(0, 0), (0, 1), (5, 5)])  # room for a 1x2 only
    state = make_state(circle=[3, 5, 0, 1], buttons=(2, 7), quilts=(quilt, 0))  # offers cost 7, 2, 2
    before = to_notation(state)
    refusals = {1: ("not_offered", "not on offer"), 3: ("too_dear", "costs 7 buttons, Player 1 has 2"),
                5: ("fits_nowhere", "patch 5 fits nowhere on Player 1's quilt")}
    for pid, (why, words) in refusals.items():
        with pytest.raises(IllegalMoveError, match=words) as refused:
            state.check_buy(pid)
        assert (refused.value.why, refused.value.patch) == (why, pid)
    state.check_buy(0)  # fits the 1x2: no refusal
    assert to_notation(state) == before
    state = make_state(pos=(25, 30), quilts=(bit(0, 0), 0))
    state.apply(ADVANCE)  # takes the leather patch on 26
    with pytest.raises(IllegalMoveError, match="must first place the leather patch") as refused:
        state.check_buy(state.offers()[0])
    assert refused.value.why == "leather_first"
    with pytest.raises(IllegalMoveError) as refused:
        state.check(ADVANCE)
    assert refused.value.why == "leather_first"


def test_each_player_s_affordable_and_buyable_offers_are_offer_indices_in_circle_order() -> None:
    quilt = full_except([(0, 0), (0, 1), (5, 5)])  # room for a 1x2 only
    state = make_state(circle=[3, 5, 0, 1], buttons=(2, 7), quilts=(quilt, 0))  # offers cost 7, 2, 2
    assert state.affordable_offers(0) == [1, 2]
    assert state.buyable_offers(0) == [2]  # #5 is affordable but has no room; #0 fits the 1x2
    assert state.affordable_offers(1) == state.buyable_offers(1) == [0, 1, 2]  # not to move: asked all the same
    state.circle = [0, 3]  # two patches left
    assert state.buyable_offers(0) == [0] and state.affordable_offers(1) == [0, 1]
    assert state.buyable() == [0] and state.can_buy(0) and not state.can_buy(3)


def test_a_placement_over_covered_cells_is_refused() -> None:
    state = make_state(quilts=(bit(0, 2), 0))
    assert_refused(state, Move.buy(1, hbar(0, 0, 3)), "overlaps covered cells \\[\\[0, 2\\]\\]")


@pytest.mark.parametrize(("index", "after"), [(0, [*range(2, 33), 0]), (2, [*range(4, 33), 0, 1, 2])])
def test_the_circle_continues_after_the_bought_patch(index: int, after: list[int]) -> None:
    state = make_state(buttons=(20, 5))
    pid = state.circle[index]
    state.apply(next(m for m in state.legal_moves() if m.kind == "buy" and m.patch == pid))
    assert state.circle == after, "skipped patches go to the end, behind the neutral token"
    assert state.offers() == after[:3]


def test_buying_pays_places_and_moves() -> None:
    state = make_state(pos=(0, 10), buttons=(5, 5))
    mask = hbar(2, 3, 4)
    state.apply(Move.buy(2, mask))
    assert state.buttons[0] == 2 and state.pos[0] == 3 and state.income[0] == 1
    assert state.quilts[0] == mask and state.placed[0] == [(2, mask)]
    assert state.quilts[1] == 0 and state.buttons[1] == 5


def test_fewer_than_three_patches_left() -> None:
    state = make_state(circle=[5], buttons=(10, 5))
    assert state.offers() == [5]
    state.apply(next(m for m in state.legal_moves() if m.kind == "buy"))
    assert state.circle == []
    assert list(state.legal_moves()) == [ADVANCE]


def test_advance_is_always_allowed_before_53() -> None:
    state = make_state(buttons=(0, 0), quilts=(FULL, FULL))
    assert list(state.legal_moves()) == [ADVANCE]


def test_a_buy_whose_cells_are_not_the_patch_is_refused() -> None:
    # Move.parse / from_json refuse such cells; apply must refuse a Move built directly too.
    state = make_state()
    assert_refused(state, Move("buy", 1, cells_mask([(0, 0), (0, 1), (1, 1), (1, 2)])), "not a placement")
    assert_refused(state, Move("buy", 1, 0), "not a placement")


def test_a_leather_move_covering_several_cells_is_refused() -> None:
    state = make_state(pos=(25, 30))
    state.apply(ADVANCE)
    assert_refused(state, Move("leather", -1, hbar(0, 0, 2)), "one cell")
    assert_refused(state, Move("leather", -1, 0), "one cell")


# --- scoring and the end ------------------------------------------------------------------------


def test_score_is_buttons_plus_bonus_minus_two_per_empty_cell() -> None:
    state = make_state(buttons=(10, 3), quilts=(full_except([(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]), 0))
    state.bonus = 0
    assert state.score(0) == 10 + 7 - 2 * 5
    assert state.score(1) == 3 - 2 * 81, "scores may be negative"
    view = state.player(1)
    assert (view.empty, view.score, view.bonus) == (81, -159, False)


def test_the_game_ends_only_when_both_are_on_53() -> None:
    state = make_state(pos=(END, 52), track_leather=False)
    assert not state.is_terminal()
    assert state.winner() is None
    assert state.returns() == (0.0, 0.0)
    assert state.count_moves() >= 1


def test_a_finished_game_has_no_moves() -> None:
    state = make_state(pos=(END, END))
    assert state.is_terminal()
    assert list(state.legal_moves()) == []
    assert state.count_moves() == 0
    assert_refused(state, ADVANCE, "over")


def test_the_higher_score_wins() -> None:
    state = make_state(pos=(END, END), buttons=(10, 11))
    state.first_end = 0
    assert state.winner() == 1
    assert state.returns() == (-1.0, 1.0)


@pytest.mark.parametrize("first", [0, 1])
def test_equal_scores_the_first_to_reach_53_wins(first: int) -> None:
    state = make_state(pos=(52, 52), buttons=(5, 5), last_mover=first, track_leather=False)
    state.apply(ADVANCE)  # the player on top moves first: 52 -> 53, one button
    assert state.first_end == first
    state.apply(ADVANCE)  # the other one follows: 52 -> 53, one button
    assert state.is_terminal()
    assert state.score(0) == state.score(1) == 6 - 162
    assert state.winner() == first
    assert state.returns() == ((1.0, -1.0) if first == 0 else (-1.0, 1.0))


def test_the_first_to_reach_53_by_buying_is_recorded() -> None:
    state = make_state(pos=(50, 52), buttons=(5, 5), track_leather=False)
    state.apply(Move.buy(2, hbar(0, 0, 4)))  # time 3: 50 -> 53
    assert state.first_end == 0
    state.apply(ADVANCE)  # player 1: 52 -> 53
    assert state.first_end == 0 and state.is_terminal()


def test_leather_left_behind_by_a_long_move_is_taken_by_the_next_to_cross_it() -> None:
    # Custom spaces 1, 2, 3: one buy crosses all three but takes only one of them.
    state = State.new(ORDERED_CIRCLE, leather=[1, 2, 3, 40, 50])
    state.apply(Move.buy(2, hbar(0, 0, 4)))  # time 3: 0 -> 3
    assert state.pending == 0
    assert len(state.leather_left()) == 4
    state.apply(Move.leather(8, 8))
    assert state.to_move() == 1
    state.apply(ADVANCE)  # player 1: 0 -> 4 crosses the two left
    assert state.pending == 1
    assert len(state.leather_left()) == 3
    state.apply(Move.leather(8, 8))
    assert state.quilts == [hbar(0, 0, 4) | bit(8, 8), bit(8, 8)]
