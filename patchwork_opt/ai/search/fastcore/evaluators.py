"""What values the compiled search's leaves: ``CompiledEvaluator``, and the rollout as the default one.

An evaluator is a compiled function the tree calls through its slot (``evaluator_slot``), with its
own parameters and UCT constant; the learned value (``ai/learned/value.py``) plugs in the same way
as the rollout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from patchwork_opt.ai.search.evaluator_slot import slot_for
from patchwork_opt.ai.search.fastcore.playout import rollout_value
from patchwork_opt.ai.search.policy import EXPLORATION, ROLLOUT_NOISE


@dataclass(frozen=True, slots=True)
class CompiledEvaluator:
    """A leaf evaluator of ``CompiledSearch``: ``function`` is an ``@numba.njit`` function
    ``evaluate(s, params, rng) -> (value, win, margin)`` on the flat int64 position ``s`` (not
    finished; it must not change ``s``), the float64 array of ``params`` and the search's
    ``numpy.random.Generator``, returning for player 0 the value UCT backs up (in [-1, 1], on
    ``policy.outcome_value``'s scale), the chance player 0 wins and the expected final margin.
    ``name`` says which evaluator a search used; ``exploration`` is the UCT constant that suits its
    values (a noisy rollout's one-game results need more exploring than a deterministic learned
    value, whose small differences are real)."""

    name: str
    function: Any  # a numba dispatcher
    params: tuple[float, ...] | np.ndarray = field(default=(), repr=False)  # kept as a tuple of floats
    exploration: float = EXPLORATION
    _array: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        params = tuple(float(x) for x in np.asarray(self.params, dtype=np.float64).ravel())
        object.__setattr__(self, "params", params)
        array = np.array(params, dtype=np.float64)
        array.flags.writeable = False
        object.__setattr__(self, "_array", array)

    def params_array(self) -> np.ndarray:
        """A fresh float64 array of the params (each search gets its own, writable as Numba wants)."""
        return self._array.copy()

    def slot(self) -> Any:
        """``function`` in the search's evaluator slot (``evaluator_slot.slot_for``: compiled on first
        use, refused with a TypeError when it is no evaluator); ``function`` must outlive it."""
        return slot_for(self.function, self.name)


def rollout_evaluator(noise: float = ROLLOUT_NOISE) -> CompiledEvaluator:
    """The noisy-greedy rollout as a leaf evaluator (the default of ``CompiledSearch``)."""
    return CompiledEvaluator("rollout", rollout_value, (noise,))


ROLLOUT = rollout_evaluator()
