"""The rules compiled: who moves, the transitions (advance, buy, leather placed), the score, a finished game's value.

The same game as ``core.state.State`` on the flat position (``position``): ``tests/test_ai_exact.py``
and ``tests/test_compiled_core.py`` replay compiled games through ``State.apply``. Which cell a
pending leather patch takes is a player's choice, so it is not here but with the heuristic
(``heuristic.resolve_leather``); the exact search tries every cell with ``place_leather``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.ai.search.fastcore.geometry import full_window
from patchwork_opt.ai.search.fastcore.position import (
    BONUS,
    BUT,
    CIRCLE,
    CLEN,
    FIRST_END,
    INC,
    LAST,
    LEATHER,
    PENDING,
    POS,
    QLO,
)
from patchwork_opt.ai.search.fastcore.tables import AFTER, COST_A, INCOME_A, MARKS, TIME_A
from patchwork_opt.ai.search.policy import outcome_value as _outcome_value_py
from patchwork_opt.core.bitwords import HIGH, LOW, popcount
from patchwork_opt.core.state import BONUS_POINTS, END


@nb.njit(cache=True, inline="always")
def to_move(s: np.ndarray) -> int:
    if s[PENDING] >= 0:
        return s[PENDING]
    if s[POS] < s[POS + 1]:
        return 0
    if s[POS + 1] < s[POS]:
        return 1
    return s[LAST]


@nb.njit(cache=True, inline="always")
def is_terminal(s: np.ndarray) -> bool:
    return s[POS] == END and s[POS + 1] == END and s[PENDING] < 0


@nb.njit(cache=True)
def token_to(s: np.ndarray, p: int, new: int) -> None:
    old = s[POS + p]
    crossed = MARKS[new] - MARKS[old]
    if crossed:
        s[BUT + p] += crossed * s[INC + p]
    taken = s[LEATHER] & AFTER[old] & ~AFTER[new]
    taken = taken & -taken
    if taken:
        s[LEATHER] ^= taken
        if s[QLO + 2 * p] != LOW or s[QLO + 2 * p + 1] != HIGH:
            s[PENDING] = p
    s[POS + p] = new
    s[LAST] = p
    if new == END and s[FIRST_END] < 0:
        s[FIRST_END] = p


@nb.njit(cache=True)
def advance(s: np.ndarray, p: int) -> None:
    target = s[POS + 1 - p] + 1
    if target > END:
        target = END
    s[BUT + p] += target - s[POS + p]
    token_to(s, p, target)


@nb.njit(cache=True)
def buy(s: np.ndarray, p: int, k: int, mlo: int, mhi: int) -> None:
    n = s[CLEN]
    pid = s[CIRCLE + k]
    s[BUT + p] -= COST_A[pid]
    qlo = s[QLO + 2 * p] | mlo
    qhi = s[QLO + 2 * p + 1] | mhi
    s[QLO + 2 * p] = qlo
    s[QLO + 2 * p + 1] = qhi
    s[INC + p] += INCOME_A[pid]
    rotated = np.empty(n - 1, dtype=np.int64)
    j = 0
    for i in range(k + 1, n):
        rotated[j] = s[CIRCLE + i]
        j += 1
    for i in range(k):
        rotated[j] = s[CIRCLE + i]
        j += 1
    for i in range(n - 1):
        s[CIRCLE + i] = rotated[i]
    s[CIRCLE + n - 1] = 0
    s[CLEN] = n - 1
    if s[BONUS] < 0 and full_window(qlo, qhi):
        s[BONUS] = p
    target = s[POS + p] + TIME_A[pid]
    token_to(s, p, target if target < END else END)


@nb.njit(cache=True)
def place_leather(s: np.ndarray, p: int, mlo: int, mhi: int) -> None:
    qlo = s[QLO + 2 * p] | mlo
    qhi = s[QLO + 2 * p + 1] | mhi
    s[QLO + 2 * p] = qlo
    s[QLO + 2 * p + 1] = qhi
    s[PENDING] = -1
    if s[BONUS] < 0 and full_window(qlo, qhi):
        s[BONUS] = p


@nb.njit(cache=True)
def score(s: np.ndarray, p: int) -> int:
    empty = 81 - popcount(s[QLO + 2 * p]) - popcount(s[QLO + 2 * p + 1])
    return s[BUT + p] + (BONUS_POINTS if s[BONUS] == p else 0) - 2 * empty


#: ``policy.outcome_value`` compiled: the one definition of the value a game is worth.
outcome_value = nb.njit(cache=True)(_outcome_value_py)


@nb.njit(cache=True)
def outcome(s: np.ndarray) -> tuple[float, float, float]:
    """(value, win, margin) of a finished game for player 0, as an evaluator returns them: the
    value is ``policy.result_value``'s, win 1 or 0 (a tie goes to who reached the end first)."""
    diff = score(s, 0) - score(s, 1)
    winner = (0 if diff > 0 else 1) if diff != 0 else s[FIRST_END]
    win = 1.0 if winner == 0 else 0.0
    return outcome_value(win, float(diff)), win, float(diff)
