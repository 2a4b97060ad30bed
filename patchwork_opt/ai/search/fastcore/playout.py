"""The rollout compiled: the noisy-greedy player to the end of the game, and the rollout as a leaf evaluator.

A compiled copy of ``policy.rollout`` (``tests/test_compiled_core.py`` plays both move for move when
they draw the same uniform numbers): each turn the player buys the affordable offer valued best
(``tables.VPT`` plus uniform noise) above advancing, placed by ``heuristic.quick_placement``, or the
second best when the best fits nowhere, else advances; leather goes where ``heuristic.leather_cell``
says.
"""

from __future__ import annotations

import numba as nb
import numpy as np

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.ai.heuristic import ADVANCE_VALUE
from patchwork_opt.ai.search.fastcore.heuristic import quick_placement, resolve_leather
from patchwork_opt.ai.search.fastcore.position import BONUS, BUT, CIRCLE, CLEN, PENDING, POS, QLO
from patchwork_opt.ai.search.fastcore.rules import advance, buy, outcome, to_move
from patchwork_opt.ai.search.fastcore.tables import COST_A, VPT
from patchwork_opt.core.state import END


@nb.njit(cache=True)
def rollout(s: np.ndarray, noise: float, rng: np.random.Generator) -> None:
    """``policy.rollout``: the noisy greedy player to the end, in place, drawing ``rng.random()``
    where the Python one draws ``rng.random()`` (same numbers, same game)."""
    while True:
        if s[PENDING] >= 0:
            resolve_leather(s)
            continue
        if s[POS] == END and s[POS + 1] == END:
            return
        p = to_move(s)
        n = s[CLEN]
        buttons = s[BUT + p]
        position = s[POS + p]
        best_k, best_v = -1, ADVANCE_VALUE
        second_k, second_v = -1, ADVANCE_VALUE
        for k in range(3 if n >= 3 else n):
            pid = s[CIRCLE + k]
            if COST_A[pid] > buttons:
                continue
            v = VPT[pid, position] + noise * (rng.random() - 0.5)
            if v > best_v:
                second_k, second_v = best_k, best_v
                best_k, best_v = k, v
            elif v > second_v:
                second_k, second_v = k, v
        qlo, qhi = s[QLO + 2 * p], s[QLO + 2 * p + 1]
        bought = False
        for k in (best_k, second_k):
            if k < 0:
                break
            mlo, mhi = quick_placement(s[CIRCLE + k], qlo, qhi, s[BONUS] < 0, rng)
            if mlo != 0 or mhi != 0:
                buy(s, p, k, mlo, mhi)
                bought = True
                break
        if not bought:
            advance(s, p)


@nb.njit(cache=True)
def rollout_value(s: np.ndarray, params: np.ndarray, rng: np.random.Generator) -> tuple[float, float, float]:
    """The rollout evaluator (``params = [noise]``): one noisy-greedy game from a copy of ``s``,
    valued for player 0 as ``policy.RolloutEvaluator`` values it (win 1 or 0)."""
    game = s.copy()
    rollout(game, params[0], rng)
    return outcome(game)
