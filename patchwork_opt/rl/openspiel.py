"""Patchwork as an OpenSpiel game: importing this module registers ``python_patchwork``
(docs/rl.md; ``pyspiel.load_game("python_patchwork")``).

Sequential, perfect information, zero-sum, terminal rewards. A game opens with 32 chance nodes
that lay out the circle: each deals the next patch from the neutral token (uniformly among the
patches not dealt yet; the chance outcome is the patch id, patch 0 always last, as the set-up
puts it), so a state is its history of actions and serializes as OpenSpiel's own games do. Then
the players' actions follow, in the one encoding of ``encoding.py`` (advance, buy as patch x
placement, leather cell), the player to move set by the time track. Returns are +1 and -1 on the
final margin with the tie-break (the first to reach space 53 wins a tie), never a draw. The
observation tensor is ``encoding.observation`` from the observing player's side.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from patchwork_opt.core.bitboard import CELLS
from patchwork_opt.core.catalogue import PATCH_COUNT
from patchwork_opt.core.state import END, State
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.rl.encoding import ACTION_COUNT, OBSERVATION_SIZE, action_to_move, legal_actions, observation

GAME_NAME = "python_patchwork"
DEALT = PATCH_COUNT - 1  # chance nodes: patches 1..32 in a random order, then patch 0
#: an upper bound on the players' actions: each advance moves a token a space or more, each buy
#: and leather patch covers a cell or more
MAX_GAME_LENGTH = 2 * (END + CELLS)

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Patchwork (patchwork-opt)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={},
)
GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=ACTION_COUNT,
    max_chance_outcomes=PATCH_COUNT,
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=MAX_GAME_LENGTH,
)


class PatchworkGame(pyspiel.Game):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(GAME_TYPE, GAME_INFO, params or {})

    def new_initial_state(self) -> PatchworkState:
        return PatchworkState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return TensorObserver(params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class PatchworkState(pyspiel.State):
    """The deal so far, then the position (``self.game_state``, a rules ``State``)."""

    def __init__(self, game: PatchworkGame) -> None:
        super().__init__(game)
        self.dealt: list[int] = []
        self.game_state: State | None = None

    def current_player(self) -> int:
        if self.game_state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.game_state.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.game_state.to_move()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [pid for pid in range(1, PATCH_COUNT) if pid not in self.dealt]
        return [(pid, 1.0 / len(left)) for pid in left]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.game_state is not None
        return legal_actions(self.game_state).tolist()

    def _apply_action(self, action: int) -> None:
        if self.game_state is None:
            self.dealt.append(int(action))
            if len(self.dealt) == DEALT:
                self.game_state = State.new([*self.dealt, 0])
            return
        self.game_state.apply(action_to_move(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal #{action}"
        return str(action_to_move(action))

    def is_terminal(self) -> bool:
        return self.game_state is not None and self.game_state.is_terminal()

    def returns(self) -> list[float]:
        if self.game_state is None:
            return [0.0, 0.0]
        return list(self.game_state.returns())

    def view(self) -> State:
        """The position as the rules see it (during the deal: a start with the patches dealt so far)."""
        if self.game_state is not None:
            return self.game_state
        start = State.new(seed=0)
        start.circle = list(self.dealt)
        return start

    def __str__(self) -> str:
        if self.game_state is None:
            return f"dealing: {','.join(map(str, self.dealt)) or '-'}"
        return to_notation(self.game_state)


class TensorObserver:
    """OpenSpiel's observer: ``tensor`` (and ``dict["observation"]``, a view of it) is the
    observation of ``encoding.observation``; the string is the position's one-line notation."""

    def __init__(self, params: Any) -> None:
        if params:
            raise ValueError(f"python_patchwork takes no observation parameters, got {params}")
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PatchworkState, player: int) -> None:
        self.tensor[:] = observation(state.view(), player)

    def string_from(self, state: PatchworkState, player: int) -> str:
        return str(state)


pyspiel.register_game(GAME_TYPE, PatchworkGame)
