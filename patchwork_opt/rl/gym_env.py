"""``PatchworkVsBot``: one seat of Patchwork against one of the project's bots, as a Gymnasium
environment (docs/rl.md), registered as ``patchwork_opt/PatchworkVsBot-v0``.

The agent sees the observation tensor of ``encoding.observation`` from its seat and finds the
legal actions in ``info["action_mask"]``; the bot's moves (it often moves several times in a row,
as the time track says) are played inside ``reset`` and ``step`` until the agent is to move again.
The reward is 0 until the end, then +1 for a win and -1 for a loss (the final margin, the
tie-break deciding a tie); the final ``info`` carries both scores. An illegal action ends the
episode at once with -1 and ``info["illegal_action"]`` (so a sampled action never crashes it).
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from patchwork_opt.ai.base import Bot
from patchwork_opt.ai.bots.registry import make_bot
from patchwork_opt.apps.wiring import bot_advisor
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.state import State
from patchwork_opt.formats.render import render_position
from patchwork_opt.rl.encoding import ACTION_COUNT, OBSERVATION_SIZE, action_mask, action_to_move, observation

ENV_ID = "patchwork_opt/PatchworkVsBot-v0"


def register_gymnasium() -> None:
    """Register ``ENV_ID`` with Gymnasium (once per process)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="patchwork_opt.rl.gym_env:PatchworkVsBot")


class PatchworkVsBot(gymnasium.Env[np.ndarray, np.int64]):
    """The agent in ``seat`` (0: it moves first, 1: second, None: drawn at each reset) against the
    bot ``bot`` at ``level`` (``time_per_move`` seconds instead of the level's time, if given).
    The advised bots (solver, solver-rollout) get the CP-SAT advisor, as in every other use."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012  (Gymnasium declares it so)

    def __init__(self, bot: str = "greedy", level: int = 1, seat: int | None = None,
                 time_per_move: float | None = None, render_mode: str | None = None) -> None:
        if seat not in (None, 0, 1):
            raise PatchworkError(f"seat must be 0, 1 or None, got {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise PatchworkError(f"render_mode {render_mode!r}: expected one of {self.metadata['render_modes']}")
        make_bot(bot, level=level, time_per_move=time_per_move)  # refuse a bad name or level now
        self.bot_name, self.level, self.fixed_seat, self.time_per_move = bot, level, seat, time_per_move
        self.render_mode = render_mode
        self.observation_space = spaces.Box(low=0.0, high=1.0, shape=(OBSERVATION_SIZE,), dtype=np.float32)
        self.action_space = spaces.Discrete(ACTION_COUNT)
        self._advisor = bot_advisor(bot)
        self.state = State.new(seed=0)
        self.seat = 0 if seat is None else seat
        self._bot: Bot | None = None
        self._over = False  # the episode ended (the game, or an illegal action)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": action_mask(self.state) if not self.state.is_terminal()
                                else np.zeros(ACTION_COUNT, dtype=np.int8)}
        if self.state.is_terminal():
            info["score"] = self.state.score(self.seat)
            info["opponent_score"] = self.state.score(1 - self.seat)
        return info

    def _bot_moves(self) -> None:
        """The bot plays until the agent is to move or the game is over."""
        assert self._bot is not None
        while not self.state.is_terminal() and self.state.to_move() != self.seat:
            self.state.apply(self._bot.decide(self.state).move)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game: a circle drawn from the environment's generator (``options["circle"]``
        sets one), the agent's seat, and the bot's first moves when it moves first."""
        super().reset(seed=seed)
        rng = self.np_random
        circle = (options or {}).get("circle")
        self.state = State.new(list(circle)) if circle is not None else State.new(seed=int(rng.integers(1 << 62)))
        self.seat = int(rng.integers(2)) if self.fixed_seat is None else self.fixed_seat
        self._bot = make_bot(self.bot_name, level=self.level, seed=int(rng.integers(1 << 62)),
                             time_per_move=self.time_per_move, advisor=self._advisor)
        self._bot_moves()
        self._over = self.state.is_terminal()
        return observation(self.state, self.seat), self._info()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._over:
            raise PatchworkError("the episode is over: call reset() to start another")
        try:
            self.state.apply(action_to_move(int(action)))
        except (PatchworkError, ValueError):
            self._over = True
            info = self._info() | {"illegal_action": True}
            return observation(self.state, self.seat), -1.0, True, False, info
        self._bot_moves()
        reward = 0.0
        self._over = self.state.is_terminal()
        if self._over:
            reward = 1.0 if self.state.winner() == self.seat else -1.0
        return observation(self.state, self.seat), reward, self.state.is_terminal(), False, self._info()

    def render(self) -> str | None:
        return render_position(self.state) if self.render_mode == "ansi" else None
