"""The OpenSpiel game ``python_patchwork``: OpenSpiel's own checks and bots, replayed in our engine."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (the 'rl' extra: pip install -e '.[rl]')")

from open_spiel.python.algorithms import mcts  # noqa: E402

import patchwork_opt.rl.openspiel  # noqa: E402, F401  (registers python_patchwork)
from patchwork_opt.core.state import State  # noqa: E402
from patchwork_opt.formats.notation import to_notation  # noqa: E402
from patchwork_opt.rl.encoding import ACTION_COUNT, OBSERVATION_SIZE, action_to_move  # noqa: E402
from patchwork_opt.rl.openspiel import DEALT  # noqa: E402


@pytest.fixture(scope="module")
def game() -> Any:
    return pyspiel.load_game("python_patchwork")


def test_openspiel_random_simulation_test_passes(game: Any) -> None:
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_game_is_described_as_documented(game: Any) -> None:
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == ACTION_COUNT
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == DEALT


def _replay(game: Any, history: list[int]) -> State:
    """The OpenSpiel game's history played through our rules: the deal, then the moves."""
    ours = State.new([*history[:DEALT], 0])
    for action in history[DEALT:]:
        ours.apply(action_to_move(action))
    return ours


def _play_mcts(game: Any, seed: int) -> Any:
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, 1.4, 6, evaluator, random_state=rng, solve=False) for _ in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=chances)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def test_openspiel_mcts_plays_whole_games_our_engine_scores_alike(game: Any) -> None:
    for seed in (0, 1):
        state = _play_mcts(game, seed)
        ours = _replay(game, state.history())
        assert ours.is_terminal()
        assert to_notation(ours) == str(state)
        assert list(ours.returns()) == state.returns()
        assert sorted(state.returns()) == [-1.0, 1.0]  # a tie goes to the tie-break: never a draw


def test_a_state_serializes_through_its_history(game: Any) -> None:
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    while len(state.history()) < DEALT + 20:
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(int(rng.choice(actions)))
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert str(again) == str(state) and again.legal_actions() == state.legal_actions()
