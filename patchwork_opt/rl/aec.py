"""Patchwork as a PettingZoo AEC environment (docs/rl.md), pure Python over the rules engine.

The agent to act is the player the time track puts to move (``State.to_move``): the one behind,
or the one on top of a shared space, or the one placing a leather patch just taken, so an agent
often acts several times in a row. Each observation is a dict of ``observation`` (the tensor of
``encoding.observation``, seen by that agent) and ``action_mask`` (``encoding.action_mask``; all
zero for the agent not to move). At the end both agents get the result: +1 for the winner (on
the final margin, the tie-break deciding a tie), -1 for the loser; ``infos`` carry the scores.

``raw_env`` raises ``IllegalMoveError`` on an illegal action; ``env()`` wraps it as PettingZoo's
own classic games are (an illegal action ends the game, -1 for its agent).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import from_notation
from patchwork_opt.formats.render import render_position
from patchwork_opt.rl.encoding import (
    ACTION_COUNT,
    OBSERVATION_SIZE,
    action_mask,
    action_to_move,
    observation,
    play_legal,
)

AGENTS = ("player_0", "player_1")  # Player 1 (who starts) and Player 2


def observation_space() -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(low=0.0, high=1.0, shape=(OBSERVATION_SIZE,), dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(ACTION_COUNT,), dtype=np.int8),
    })


def new_state(seed: int | None, options: dict[str, Any] | None) -> State:
    """The game ``reset`` starts: ``options`` may name a ``circle`` (every patch id once) or a
    ``position`` in the one-line notation; otherwise a random circle from ``seed``."""
    options = options or {}
    if "position" in options:
        return from_notation(str(options["position"]))
    if "circle" in options:
        return State.new(list(options["circle"]))
    return State.new(seed=seed)


class raw_env(AECEnv[str, dict[str, np.ndarray], int]):
    """The AEC environment without wrappers."""

    metadata: ClassVar[dict[str, Any]] = {"name": "patchwork_v0", "render_modes": ["human", "ansi"],
                                          "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: expected one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self._observation_space = observation_space()
        self._action_space = spaces.Discrete(ACTION_COUNT)
        self.state = State.new(seed=0)
        self._mask: np.ndarray | None = None  # the legal actions' mask of the position now, made once

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.state = new_state(seed, options)
        self._mask = None
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = AGENTS[self.state.to_move()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = AGENTS.index(agent)
        if self.state.is_terminal() or AGENTS[self.state.to_move()] != agent:
            mask = np.zeros(ACTION_COUNT, dtype=np.int8)
        else:
            if self._mask is None:
                self._mask = action_mask(self.state)
            mask = self._mask.copy()
        return {"observation": observation(self.state, player), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: step needs an action, got None")
        if self._mask is not None and 0 <= action < ACTION_COUNT and self._mask[action]:
            play_legal(self.state, int(action))  # the mask just observed says it is legal
        else:
            self.state.apply(action_to_move(int(action)))  # checked: an illegal action raises
        self._mask = None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.state.is_terminal():
            first, second = self.state.returns()
            self.rewards = {AGENTS[0]: first, AGENTS[1]: second}
            self.terminations = dict.fromkeys(self.agents, True)
            for p, a in enumerate(AGENTS):
                self.infos[a] = {"score": self.state.score(p), "opponent_score": self.state.score(1 - p)}
        else:
            self.agent_selection = AGENTS[self.state.to_move()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = render_position(self.state)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


def env(render_mode: str | None = None) -> AECEnv[str, dict[str, np.ndarray], int]:
    """The AEC environment as PettingZoo's classic games come: an illegal action ends the game
    with -1 for its agent, an action out of range is refused, the call order is enforced."""
    wrapped: AECEnv[str, dict[str, np.ndarray], int] = raw_env(render_mode=render_mode)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
