"""The searches: exact endgame agrees with plain minimax; MCTS budgets and root statistics."""

from __future__ import annotations

import random

import pytest
from conftest import make_state

from patchwork_opt.ai.endgame import WIN, EndgameSearch
from patchwork_opt.ai.heuristic import greedy_plan, leather_cell
from patchwork_opt.ai.mcts import Mcts, child_state, find_subtree, macro_moves
from patchwork_opt.ai.policy import RolloutEvaluator, result_value, rollout
from patchwork_opt.ai.solver_bot import SolverBot
from patchwork_opt.core.move import ADVANCE
from patchwork_opt.core.state import END, State


def _late_positions(seed: int, from_space: int) -> list[State]:
    """Positions of a noisy greedy game once both tokens have reached ``from_space``."""
    state = State.new(seed=seed)
    rng = random.Random(seed)
    found = []
    while not state.is_terminal():
        p = state.to_move()
        if state.pending >= 0:
            state.leather_unchecked(p, leather_cell(state.quilts[p]))
            continue
        if min(state.pos) >= from_space:
            found.append(state.clone())
        plan = greedy_plan(state, p, exhaustive=False, rng=rng, noise=1.0)
        if plan.offer_index < 0:
            state.advance_unchecked(p)
        else:
            state.buy_unchecked(p, plan.offer_index, plan.mask)
    return found


def _minimax(state: State, root: int) -> float:
    """Plain minimax over the same moves (no pruning): the reference for alpha-beta."""
    if state.is_terminal():
        margin = state.score(root) - state.score(1 - root)
        return (WIN if state.winner() == root else -WIN) + margin
    values = [_minimax(child_state(state, m)[0], root) for m in macro_moves(state)]
    return max(values) if state.to_move() == root else min(values)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_endgame_alpha_beta_agrees_with_minimax(seed: int) -> None:
    for state in _late_positions(seed, 44)[:4]:
        solved = EndgameSearch(node_limit=10**6).solve(state)
        assert solved is not None
        assert solved.value == _minimax(state, state.to_move())
        after = child_state(state, solved.move)[0]
        assert _minimax(after, state.to_move()) == solved.value


def test_endgame_gives_up_past_its_budget() -> None:
    assert EndgameSearch(node_limit=5).solve(State.new(seed=1)) is None


def test_endgame_buys_when_advancing_only_ties() -> None:
    # Player 0 on 52 trails by 1 point; advancing to 53 pays 1 button: a tie, broken for
    # player 1 (first on 53). Buying the 1x2 patch (2 buttons, 2 cells) gains 4 - 2 = 2 points.
    # The other offers cost 10 buttons: out of reach.
    state = make_state([0, 6, 19], pos=(52, 53), buttons=(5, 6), track_leather=False)
    state.first_end = 1
    solved = EndgameSearch().solve(state)
    assert solved is not None and solved.move.kind == "buy" and solved.move.patch == 0
    assert solved.wins and solved.margin == 1
    state.buttons = [5, 7]  # now the buy only ties (lost on the tie-break), advancing loses by 1
    solved = EndgameSearch().solve(state)
    assert solved is not None and solved.move.patch == 0
    assert not solved.wins and solved.margin == 0


def test_solver_uses_the_exact_endgame_and_explains_it() -> None:
    state = next(s for s in _late_positions(3, 40) if len(macro_moves(s)) > 1)
    decision = SolverBot(None, seed=1, iterations=50).decide(state)
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
