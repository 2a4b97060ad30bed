"""The fast playout policy (a noisy greedy player on the unchecked transitions) and the value scale.

Rollouts are where search spends its time, so this avoids ``legal_moves``/``apply``: it reads the
offer, prices it with the value-per-time rule (plus noise, so playouts differ), places with a few
sampled fits scored by the heuristic, and plays ``State._buy``/``_advance``/``_leather``.

The value scale every search backs up is defined here once: ``outcome_value`` (mostly who wins, a
little by how much) and the UCT constant tuned to it. The compiled search (``fastcore``) compiles
``outcome_value`` itself and plays a compiled copy of ``rollout`` that the tests replay move for
move against this one, so this module stays plain Python for the ``mcts`` reference bot.
"""

from __future__ import annotations

import math
import random
from typing import Protocol

from patchwork_opt.ai.heuristic import ADVANCE_VALUE, VALUE_PER_TIME, leather_cell, quick_placement
from patchwork_opt.core.state import END, State, turn_order

ROLLOUT_NOISE = 1.5  # spread of the noise added to each patch's value per time
MARGIN_WEIGHT = 0.1  # share of a result's value that rewards the winning margin
MARGIN_SCALE = 15.0  # points of margin that count as a clear win
EXPLORATION = 0.7  # the UCT constant of every tree search, for values on outcome_value's [-1, 1] scale


def rollout(state: State, rng: random.Random, noise: float = ROLLOUT_NOISE) -> None:
    """Play the noisy greedy policy to the end of the game, in place."""
    pos = state.pos
    while True:
        if state.pending >= 0:
            p = state.pending
            state.leather_unchecked(p, leather_cell(state.quilts[p], state.bonus < 0))
            continue
        a, b = pos
        if a == END and b == END:
            return
        p = turn_order(a, b, state.last_mover)
        circle = state.circle
        position = pos[p]
        best_k, best_value = -1, ADVANCE_VALUE
        second_k, second_value = -1, ADVANCE_VALUE
        for k in state.affordable_offers(p):
            value = VALUE_PER_TIME[circle[k]][position] + noise * (rng.random() - 0.5)
            if value > best_value:
                second_k, second_value = best_k, best_value
                best_k, best_value = k, value
            elif value > second_value:
                second_k, second_value = k, value
        bought = False
        quilt = state.quilts[p]
        bonus_free = state.bonus < 0
        for k in (best_k, second_k):
            if k < 0:
                break
            mask = quick_placement(quilt, circle[k], rng, bonus_free=bonus_free)
            if mask:
                state.buy_unchecked(p, k, mask)
                bought = True
                break
        if not bought:
            state.advance_unchecked(p)


def outcome_value(win: float, margin: float) -> float:
    """The value in [-1, 1], for one player, of a game they win with chance ``win`` (0-1) by an
    expected final ``margin`` (their points minus the opponent's): mostly who wins, a little by
    how much. A finished game has ``win`` 1 or 0. The one definition: ``result_value``, the
    compiled search (which compiles this very function) and the analysis's ranking use it."""
    return (1.0 - MARGIN_WEIGHT) * (2.0 * win - 1.0) + MARGIN_WEIGHT * math.tanh(margin / MARGIN_SCALE)


def result_value(state: State) -> float:
    """A finished game's ``outcome_value`` for player 0 (ties go to who reached the end first)."""
    return outcome_value(1.0 if state.winner() == 0 else 0.0, state.score(0) - state.score(1))


class Evaluator(Protocol):
    """Values a position for player 0 in [-1, 1] (> 0 means player 0 is expected to win)."""

    def evaluate(self, state: State, rng: random.Random) -> float: ...


class RolloutEvaluator:
    """Plays ``rollouts`` noisy-greedy games from the position and averages their values."""

    def __init__(self, rollouts: int = 1, noise: float = ROLLOUT_NOISE) -> None:
        self.rollouts = rollouts
        self.noise = noise

    def evaluate(self, state: State, rng: random.Random) -> float:
        total = 0.0
        for _ in range(self.rollouts):
            game = state.clone()
            rollout(game, rng, self.noise)
            total += result_value(game)
        return total / self.rollouts
