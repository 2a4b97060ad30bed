"""The searches: the exact search agrees with plain minimax; MCTS budgets and root statistics."""

from __future__ import annotations

import random

import pytest
from conftest import late_positions, make_state, minimax

from patchwork_opt.ai.bots.solver_bot import SolverBot
from patchwork_opt.ai.search.exact import ExactSearch
from patchwork_opt.ai.search.mcts import Mcts, child_state, find_subtree, macro_moves
from patchwork_opt.ai.search.policy import RolloutEvaluator, result_value, rollout
from patchwork_opt.core.bitboard import bit
from patchwork_opt.core.catalogue import placement
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import END, State
from patchwork_opt.core.symmetry import canonical


@pytest.mark.parametrize("seed", range(8))
def test_exact_search_agrees_with_plain_minimax_over_every_move(seed: int) -> None:
    for state in late_positions(seed, 49)[:2]:
        solved = ExactSearch().solve(state, every_move=True)
        assert solved is not None
        root = state.to_move()
        assert solved.best.value == minimax(state, root)
        for m in solved.moves:
            after = state.clone()
            after.apply(m.move)
            assert minimax(after, root) == m.value


def test_exact_search_gives_up_past_its_budget() -> None:
    assert ExactSearch(node_limit=5).solve(State.new(seed=1)) is None


def test_exact_search_buys_when_advancing_only_ties() -> None:
    # Player 0 on 52 trails by 1 point; advancing to 53 pays 1 button: a tie, broken for
    # player 1 (first on 53). Buying the 1x2 patch (2 buttons, 2 cells) gains 4 - 2 = 2 points.
    # The other offers cost 10 buttons: out of reach.
    state = make_state([0, 6, 19], pos=(52, 53), buttons=(5, 6), track_leather=False)
    state.first_end = 1
    solved = ExactSearch().solve(state)
    assert solved is not None and solved.best.move.kind == "buy" and solved.best.move.patch == 0
    assert solved.best.win == 1.0 and solved.best.margin == 1
    state.buttons = [5, 7]  # now the buy only ties (lost on the tie-break), advancing loses by 1
    solved = ExactSearch().solve(state)
    assert solved is not None and solved.best.move.patch == 0
    assert solved.best.win == 0.0 and solved.best.margin == 0 and solved.best.value == -1


def _cells(mask: int) -> list[tuple[int, int]]:
    return Move("leather", -1, mask).cells


def test_canonical_quilt_is_the_same_for_every_rotation_and_reflection() -> None:
    quilt = placement(9, 0, 0, 0) | placement(1, 1, 3, 5)
    images = {quilt}
    for _ in range(3):  # a quarter turn: (r, c) -> (c, 8 - r)
        quilt = sum(bit(c, 8 - r) for r, c in _cells(quilt))
        images.add(quilt)
    mirrored = {sum(bit(r, 8 - c) for r, c in _cells(q)) for q in images}
    assert len(images | mirrored) == 8
    assert len({canonical(q) for q in images | mirrored}) == 1
    assert canonical(quilt) != canonical(quilt | bit(4, 4) | bit(0, 8))  # different shapes differ


def test_solver_uses_the_exact_endgame_and_explains_it() -> None:
    state = next(s for s in late_positions(3, 46) if len(macro_moves(s)) > 1)
    decision = SolverBot(None, seed=1, iterations=20000).decide(state)
    assert "exactly" in decision.reason
    assert decision.move == ADVANCE or decision.move in set(state.legal_moves())


def test_mcts_spends_exactly_its_iterations_and_reports_root_visits() -> None:
    state = State.new(seed=4)
    result = Mcts(RolloutEvaluator(), random.Random(1)).search(state, iterations=60)
    assert result.iterations == 60
    assert sum(visits for _, visits, _, _ in result.moves) == 60
    assert all(-1.0 <= value <= 1.0 and 0.0 <= rate <= 1.0 for _, _, value, rate in result.moves)


def test_rollout_finishes_the_game_and_values_the_winner() -> None:
    state = State.new(seed=8)
    rollout(state, random.Random(2))
    assert state.is_terminal() and state.pos == [END, END]
    value = result_value(state)
    assert (value > 0) == (state.winner() == 0) and -1.0 <= value <= 1.0


def test_search_tree_is_found_again_and_its_visits_kept() -> None:
    state = State.new(seed=6)
    first = Mcts(RolloutEvaluator(), random.Random(1)).search(state, iterations=80)
    move = first.best[0]
    after, _ = child_state(state, move)
    node = find_subtree(first.tree, after)
    assert node is not None and node.n == first.best[1]
    second = Mcts(RolloutEvaluator(), random.Random(2)).search(after, iterations=30, reuse=node)
    assert second.reused == first.best[1]
    # the node's first visit was its own expansion, so its children hold one visit fewer
    assert sum(visits for _, visits, _, _ in second.moves) == second.reused - 1 + 30
    assert find_subtree(first.tree, State.new(seed=7)) is None
