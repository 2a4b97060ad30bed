"""The bots: legal moves through whole games, repeatable seeds, readable decisions, obvious moves."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from conftest import make_state

from patchwork_opt.ai.base import Bot, Decision
from patchwork_opt.ai.bots.registry import BOT_NAMES, UnknownBotError, make_bot
from patchwork_opt.ai.bots.solver_bot import SolverBot
from patchwork_opt.ai.heuristic import (
    HeuristicAdvisor,
    best_placement,
    greedy_plan,
    isolated,
    leather_cell,
    purchase_value,
)
from patchwork_opt.core.advice import PlacementAdvisor, RankedPlacement
from patchwork_opt.core.bitboard import FULL, WINDOW_MASKS, bit, has_full_window
from patchwork_opt.core.catalogue import PATCHES, legal_placements, placement
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State

FAST = {"iterations": 24}  # a fixed, small search budget: fast and repeatable


class LookaheadAdvisor:
    """A pure-Python stand-in for the CP-SAT advisor: prefers placements after which more of the
    upcoming patches still fit (a one-patch-deep lookahead), then the heuristic's order."""

    def __init__(self) -> None:
        self.calls = 0

    def rank_placements(
        self, quilt: int, patch_id: int, upcoming: Sequence[int], top_k: int
    ) -> list[RankedPlacement]:
        self.calls += 1
        heuristic = HeuristicAdvisor().rank_placements(quilt, patch_id, upcoming, 1000)
        ranked = []
        for order, rp in enumerate(heuristic):
            after = quilt | rp.mask
            fitting = sum(1 for pid in upcoming[:5] if legal_placements(pid, after))
            ranked.append(RankedPlacement(rp.mask, fitting - order / 1000, {"fitting": float(fitting)}))
        ranked.sort(key=lambda r: -r.score)
        return ranked[:top_k]

    def bonus_feasible(self, quilt: int, patches: Sequence[int]) -> bool | None:
        return HeuristicAdvisor().bonus_feasible(quilt, patches)


class WorstFirstAdvisor:
    """An advisor that never suggests a placement completing a 7x7 square."""

    def rank_placements(
        self, quilt: int, patch_id: int, upcoming: Sequence[int], top_k: int
    ) -> list[RankedPlacement]:
        masks = [m for m in legal_placements(patch_id, quilt) if not has_full_window(quilt | m)]
        return [RankedPlacement(m, 0.0) for m in masks[:top_k]]

    def bonus_feasible(self, quilt: int, patches: Sequence[int]) -> bool | None:
        return None


def _bot(name: str, seed: int | None = 1, advisor: PlacementAdvisor | None = None) -> Bot:
    return make_bot(name, seed=seed, advisor=advisor, **FAST)


def _play_checked(bots: Sequence[Bot], seed: int) -> tuple[State, list[Move]]:
    """A whole game where each move is checked against the generated legal moves."""
    state = State.new(seed=seed)
    moves = []
    while not state.is_terminal():
        decision = bots[state.to_move()].decide(state)
        assert isinstance(decision, Decision)
        assert decision.reason, "every decision explains itself"
        if decision.move.kind == "advance":
            assert decision.move == ADVANCE
        else:
            assert decision.move in set(state.legal_moves()), f"illegal {decision.move} in {state!r}"
        state.apply(decision.move)
        moves.append(decision.move)
    return state, moves


# --- registry -------------------------------------------------------------------------------------


def test_registry_builds_every_named_bot() -> None:
    for name in BOT_NAMES:
        bot = make_bot(name, seed=3, level=1)
        assert isinstance(bot, Bot)
        assert bot.name.startswith(name)


def test_unknown_bot_is_a_one_line_domain_error() -> None:
    with pytest.raises(UnknownBotError) as info:
        make_bot("alphazero")
    assert isinstance(info.value, PatchworkError)
    message = str(info.value)
    assert "\n" not in message and "alphazero" in message and "greedy" in message


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [({"level": 9}, "level"), ({"time_per_move": 0.0}, "time per move"), ({"iterations": 0}, "iterations")],
)
def test_bad_settings_are_refused(kwargs: dict[str, float], words: str) -> None:
    with pytest.raises(UnknownBotError, match=words):
        make_bot("mcts", **kwargs)  # type: ignore[arg-type]


def test_solver_without_advisor_says_it_uses_the_heuristic() -> None:
    assert make_bot("solver").name == "solver(heuristic)"
    assert make_bot("solver", advisor=LookaheadAdvisor()).name == "solver"


# --- whole games --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"), [("random", "greedy"), ("greedy", "mcts"), ("mcts", "solver"), ("solver", "random")]
)
def test_bots_play_only_legal_moves_through_whole_games(first: str, second: str) -> None:
    state, moves = _play_checked([_bot(first, 1), _bot(second, 2)], seed=11)
    assert state.is_terminal()
    assert state.winner() in (0, 1)
    assert any(m.kind == "buy" for m in moves)


def test_solver_with_a_plugged_advisor_plays_legal_games_and_consults_it() -> None:
    advisor = LookaheadAdvisor()
    state, _ = _play_checked([_bot("solver", 5, advisor), _bot("greedy", 6)], seed=4)
    assert state.is_terminal()
    assert advisor.calls > 0


@pytest.mark.parametrize("name", ["random", "mcts", "solver"])
def test_same_seed_same_game(name: str) -> None:
    _, a = _play_checked([_bot(name, 7), _bot("greedy", 8)], seed=3)
    _, b = _play_checked([_bot(name, 7), _bot("greedy", 8)], seed=3)
    assert a == b


def test_different_seeds_give_different_random_games() -> None:
    _, a = _play_checked([_bot("random", 1), _bot("random", 2)], seed=3)
    _, b = _play_checked([_bot("random", 3), _bot("random", 4)], seed=3)
    assert a != b


def test_decision_depends_on_position_and_seed_not_on_history() -> None:
    state = State.new(seed=9)
    bot = _bot("mcts", 5)
    first = bot.decide(state).move
    bot.decide(State.new(seed=10))
    assert bot.decide(state).move == first


# --- greedy and the heuristic -------------------------------------------------------------------


def test_purchase_value_counts_cells_income_and_cost_per_time() -> None:
    # patch 16: cost 0, time 3, income 1, 6 cells; at space 0 all 9 marks lie ahead
    assert purchase_value(16, 0) == pytest.approx((2 * 6 + 1 * 9 - 0) / 3)
    # at space 50 only the mark at 53 is ahead, and only 3 spaces of time are left anyway
    assert purchase_value(16, 50) == pytest.approx((12 + 1 - 0) / 3)


def test_greedy_buys_the_best_value_and_advances_when_broke() -> None:
    state = make_state([16, 1, 2, 3], buttons=(5, 5))
    decision = make_bot("greedy").decide(state)
    assert decision.move.kind == "buy" and decision.move.patch == 16
    assert "#16" in decision.reason and "because" in decision.reason
    broke = make_state([3, 6, 19, 16], buttons=(0, 0))  # 7, 10, 10 buttons: nothing affordable
    assert make_bot("greedy").decide(broke).move == ADVANCE


def test_greedy_skips_a_patch_that_fits_nowhere() -> None:
    # only a 1x3 strip is empty: patch 16 (a cross) cannot fit, patch 1 (1x3, cost 2) can
    quilt = FULL & ~(bit(8, 0) | bit(8, 1) | bit(8, 2))
    state = make_state([16, 1, 2], buttons=(5, 5), quilts=(quilt, 0))
    plan = greedy_plan(state, 0)
    assert state.circle[plan.offer_index] == 1


def test_heuristic_placement_hugs_a_corner_on_an_empty_quilt() -> None:
    mask = best_placement(0, 1)  # a 1x3 strip
    corners = bit(0, 0) | bit(0, 8) | bit(8, 0) | bit(8, 8)
    assert mask & corners


def test_heuristic_placement_avoids_cutting_off_a_hole() -> None:
    # Open: four cells at the start of row 0 (a strip of 3 there leaves one cell cut off) and
    # the whole of row 5 (a strip at its end leaves a run of six).
    gap = bit(0, 0) | bit(0, 1) | bit(0, 2) | bit(0, 3)
    row5 = ((1 << 9) - 1) << (9 * 5)
    quilt = FULL & ~(gap | row5)
    mask = best_placement(quilt, 1)
    assert mask & row5
    assert isolated(FULL & ~(quilt | mask)) == 0


def test_leather_fills_an_isolated_hole() -> None:
    quilt = FULL & ~(bit(4, 4) | bit(0, 0) | bit(0, 1))
    assert leather_cell(quilt, bonus_free=False) == bit(4, 4)


def test_heuristic_advisor_is_a_placement_advisor() -> None:
    advisor = HeuristicAdvisor()
    assert isinstance(advisor, PlacementAdvisor)
    ranked = advisor.rank_placements(0, 5, [1, 2, 3], 3)
    assert len(ranked) == 3 and ranked[0].score >= ranked[-1].score
    assert all(r.mask in set(legal_placements(5, 0)) for r in ranked)
    assert advisor.bonus_feasible(WINDOW_MASKS[0], []) is True
    assert advisor.bonus_feasible(0, [0]) is False  # 2 cells cannot cover a 7x7


# --- the solver bot finds the obvious move ------------------------------------------------------

CROSS = placement(16, 0, 2, 2)  # patch 16 (cost 0) inside the top-left 7x7 window
ALMOST = WINDOW_MASKS[0] & ~CROSS


@pytest.mark.parametrize("advisor", [None, LookaheadAdvisor(), WorstFirstAdvisor()])
def test_solver_takes_a_free_patch_that_completes_its_7x7(advisor: PlacementAdvisor | None) -> None:
    # midgame, as a game reaches it (the learned value knows positions games reach: 43 cells
    # covered on space 0 with no income is none of them)
    state = make_state([16, 1, 2, 4, 5, 6, 7, 8], pos=(20, 20), buttons=(5, 5), income=(5, 5), quilts=(ALMOST, 0))
    decision = SolverBot(advisor, seed=1, iterations=300).decide(state)
    assert decision.move == Move("buy", 16, CROSS)
    after = state.clone()
    after.apply(decision.move)
    assert after.bonus == 0
    assert "7x7" in decision.reason


def test_solver_notices_the_opponent_could_complete_their_7x7() -> None:
    state = make_state([16, 24, 10, 4, 5, 6, 7, 8], buttons=(5, 5), quilts=(0, ALMOST))
    decision = SolverBot(None, seed=2, iterations=50).decide(state)
    assert "the opponent could complete their 7x7 with #16" in decision.reason


def test_every_patch_is_placed_where_it_fits() -> None:
    for p in PATCHES:
        mask = best_placement(0, p.id)
        assert mask in set(p.placements)


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_refuse_a_finished_game(name: str) -> None:
    state = State.new(seed=1)
    state.playout(random.Random(1))
    with pytest.raises(PatchworkError, match="game is over"):
        _bot(name).decide(state)


class LastPlacementAdvisor:
    """Ranks the last legal placement first: easy to recognise in the bot's move."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def rank_placements(
        self, quilt: int, patch_id: int, upcoming: Sequence[int], top_k: int
    ) -> list[RankedPlacement]:
        self.asked.append(patch_id)
        return [RankedPlacement(legal_placements(patch_id, quilt)[-1], 1.0)]

    def bonus_feasible(self, quilt: int, patches: Sequence[int]) -> bool | None:
        return None


def test_solver_places_its_buys_where_the_plugged_advisor_ranks_first() -> None:
    bottom = FULL & ~((1 << (9 * 7)) - 1)  # rows 7 and 8 covered: 18 cells
    state = make_state([16, 1, 2, 4, 5, 6, 7, 8], buttons=(5, 5), quilts=(bottom, 0))
    advisor = LastPlacementAdvisor()
    decision = SolverBot(advisor, seed=3, iterations=300).decide(state)
    assert decision.move.kind == "buy"
    assert decision.move.patch in advisor.asked
    assert decision.move.mask == legal_placements(decision.move.patch, bottom)[-1]
