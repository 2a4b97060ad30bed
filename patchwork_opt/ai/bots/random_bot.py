"""The random player: a uniformly random move kind, then a uniformly random placement."""

from __future__ import annotations

import random

from patchwork_opt.ai.base import Decision
from patchwork_opt.ai.explain import describe
from patchwork_opt.ai.random_play import random_move
from patchwork_opt.ai.seeding import decision_rng, require_running
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.i18n import _


class RandomBot:
    """Plays ``random_play.random_move``; the baseline every other bot must beat."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def decide(self, state: State, stop: StopSignal | None = None) -> Decision:
        """A random move (at once: ``stop`` has nothing to end)."""
        require_running(state)
        rng: random.Random = decision_rng(self.seed, state)
        move = random_move(state, rng)
        # Translators: why the random AI plays {move}
        return Decision(move, _("{move} at random", move=describe(move)))
