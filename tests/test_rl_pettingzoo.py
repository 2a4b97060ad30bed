"""The PettingZoo AEC environment and the one action encoding (``patchwork_opt.rl``)."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the 'rl' extra is not installed (pip install -e '.[rl]')")

from pettingzoo.test import api_test

from patchwork_opt import rl
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.rl.encoding import (
    ACTION_COUNT,
    LEATHER_BASE,
    OBSERVATION_SIZE,
    action_mask,
    action_to_move,
    legal_actions,
    move_to_action,
    observation,
)


def test_pettingzoo_api_test_passes() -> None:
    api_test(rl.env(), num_cycles=400)


def test_legal_actions_are_the_rules_legal_moves_over_whole_games() -> None:
    rng = random.Random(3)
    leathers = 0
    for game in range(12):
        state = State.new(seed=game)
        while not state.is_terminal():
            actions = legal_actions(state).tolist()
            assert actions == sorted(move_to_action(m) for m in state.legal_moves())
            assert all(move_to_action(action_to_move(a)) == a for a in actions)
            assert np.flatnonzero(action_mask(state)).tolist() == actions
            leathers += state.pending >= 0
            state.apply(action_to_move(rng.choice(actions)))
    assert leathers > 0  # the leather cells were among the actions checked


def test_action_numbers_name_the_documented_moves() -> None:
    assert action_to_move(0) == Move.advance()
    assert action_to_move(1) == Move("buy", 0, 3)  # patch 0 (two cells) on [0,0] and [0,1]
    assert action_to_move(LEATHER_BASE + 4 * 9 + 4) == Move.leather(4, 4)
    assert ACTION_COUNT == LEATHER_BASE + 81
    with pytest.raises(ValueError, match="outside"):
        action_to_move(ACTION_COUNT)


def test_observation_is_seen_from_the_observing_side() -> None:
    state = State.new(seed=5)
    state.apply(next(m for m in state.legal_moves() if m.kind == "buy"))
    mine, theirs = observation(state, 0), observation(state, 1)
    assert mine.shape == (OBSERVATION_SIZE,) and mine.dtype == np.float32
    assert mine.min() >= 0.0 and mine.max() <= 1.0
    assert mine[:81].sum() == state.quilts[0].bit_count() and theirs[:81].sum() == 0
    assert theirs[88:88 + 81].sum() == state.quilts[0].bit_count()


def _play(env: object, rng: random.Random) -> tuple[list[str], dict[str, float], dict[str, dict[str, int]]]:
    order: list[str] = []
    rewards: dict[str, float] = {}
    infos: dict[str, dict[str, int]] = {}
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, reward, terminated, truncated, info = env.last()  # type: ignore[attr-defined]
        if terminated or truncated:
            rewards[agent], infos[agent] = reward, info
            env.step(None)  # type: ignore[attr-defined]
            continue
        assert obs["action_mask"].any()
        order.append(agent)
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))  # type: ignore[attr-defined]
    return order, rewards, infos


def test_the_time_track_picks_the_agent_so_one_moves_twice_in_a_row() -> None:
    env = rl.env()
    env.reset(seed=11)
    order, rewards, infos = _play(env, random.Random(1))
    assert any(a == b for a, b in itertools.pairwise(order))
    assert sorted(rewards.values()) == [-1.0, 1.0]
    winner = max(rewards, key=lambda a: rewards[a])
    loser = min(rewards, key=lambda a: rewards[a])
    assert infos[winner]["score"] >= infos[loser]["score"]
    assert infos[winner]["score"] == infos[loser]["opponent_score"]


def test_a_game_replayed_in_the_engine_gives_the_env_s_scores() -> None:
    env = rl.raw_env()
    env.reset(options={"circle": State.new(seed=8).circle})
    state = State.new(seed=8)
    rng = random.Random(4)
    while not env.state.is_terminal():
        action = rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]).tolist())
        env.step(action)
        state.apply(action_to_move(action))
    assert state == env.state
    assert env.rewards["player_0"] == state.returns()[0]


def test_an_illegal_action_ends_the_game_against_its_agent() -> None:
    env = rl.env()
    env.reset(seed=2)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))  # PettingZoo logs the illegal move
    assert env.rewards[agent] == -1.0
    assert all(env.terminations.values())


def test_bench_env_reports_both_environments_from_the_same_run() -> None:
    from patchwork_opt.bench.env import render_env_bench, run_env_bench

    result = run_env_bench(seconds=0.05, repeats=1)
    assert result["steps_per_s"] > 0 and result["connect_four_steps_per_s"] > 0
    assert result["ratio"] == result["steps_per_s"] / result["connect_four_steps_per_s"]
    assert result["games"]["patchwork"] >= 1 and "connect_four_v3" in render_env_bench(result)
