"""``PatchworkVsBot``: one seat against the project's bots, as a Gymnasium environment."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the 'rl' extra is not installed (pip install -e '.[rl]')")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from patchwork_opt.core.errors import PatchworkError  # noqa: E402
from patchwork_opt.rl import ENV_ID, PatchworkVsBot  # noqa: E402
from patchwork_opt.rl.encoding import ACTION_COUNT  # noqa: E402


def test_gymnasium_env_checker_passes() -> None:
    check_env(gymnasium.make(ENV_ID, bot="greedy", seat=0).unwrapped, skip_render_check=False)


def _random_game(env: Any, seed: int) -> tuple[float, dict[str, Any], int]:
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps, done, reward = 0, False, 0.0
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        steps += 1
    return float(reward), info, steps


def test_registered_env_plays_a_masked_game_to_a_win_or_a_loss() -> None:
    env = gymnasium.make(ENV_ID, bot="greedy", level=1)
    reward, info, steps = _random_game(env, 3)
    assert steps > 10
    assert reward in (1.0, -1.0)
    assert "illegal_action" not in info
    assert (reward > 0) == (info["score"] > info["opponent_score"]) or info["score"] == info["opponent_score"]


def test_the_solver_bot_plays_the_other_seat() -> None:
    env = PatchworkVsBot(bot="solver", level=1, seat=1, time_per_move=0.02)
    obs, info = env.reset(seed=1)
    assert env.state.to_move() == 1  # the bot moved first, the agent is to move
    assert obs.shape == env.observation_space.shape and info["action_mask"].shape == (ACTION_COUNT,)
    reward, info, _ = _random_game(env, 1)
    assert reward in (1.0, -1.0)


def test_an_illegal_action_ends_the_episode_with_minus_one() -> None:
    env = PatchworkVsBot(seat=0)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(PatchworkError, match="reset"):
        env.step(0)


def test_an_unknown_bot_is_refused_when_made() -> None:
    with pytest.raises(PatchworkError, match="unknown bot"):
        PatchworkVsBot(bot="nobody")
