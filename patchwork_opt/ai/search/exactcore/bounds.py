"""Values and bounds for the exact search: what a position is worth, or must be worth, without a move.

A finished game is worth ``2 * margin`` to a player, or +1/-1 for a tie won/lost on the tie-break
(first to reach space 53): ``final_value``. Negamax maximises it, so the best value is the best
margin and a positive one a win.

* **Static bounds** (``score_bounds``, ``value_bounds``): each player's final score lies between
  advancing to the end and a knapsack of the patches left (those that still fit) by gain per
  space; a node whose bounds fall outside the search's window is settled without a move.
* **A last move valued on the spot** (``last_move_value``): a move that ends the game for a player
  whose opponent has finished.
* **A first guess** (``estimate_value``) where the null-window probes of a root move start.
"""

from __future__ import annotations

import numba as nb
import numpy as np

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.ai.search.exactcore.moves import N_PATCHES, fits_any, fitting
from patchwork_opt.ai.search.fastcore import (
    AFTER,
    AREA_A,
    BONUS,
    BUT,
    CIRCLE,
    CLEN,
    COST_A,
    FIRST_END,
    INC,
    INCOME_A,
    LEATHER,
    MARKS,
    PENDING,
    PL_HI,
    PL_LO,
    POS,
    QLO,
    TIME_A,
    full_window,
    score,
    to_move,
)
from patchwork_opt.core.bitwords import popcount
from patchwork_opt.core.state import END, OFFER_SIZE

_CACHE = True

INF = 30000  # beyond any value (|2 * margin| stays far below)
NO_VALUE = -(1 << 41)  # last_move_value: not a last move

# --- static bounds tables -----------------------------------------------------------------------------
MARKS_LEFT = int(MARKS[END])  # income marks ahead of space 0
#: GAIN[m, x]: what buying patch x can add to a score with m income marks still ahead: two points
#: per cell covered and its income at each mark, less its cost.
GAIN = np.array([[2 * int(AREA_A[x]) - int(COST_A[x]) + int(INCOME_A[x]) * m for x in range(N_PATCHES)]
                 for m in range(MARKS_LEFT + 1)], dtype=np.int64)


def _rate(m: int, x: int) -> float:
    return float(GAIN[m, x] - TIME_A[x]) / float(TIME_A[x])


#: BY_RATE[m]: the patches by (gain - time) per space of time, best first (advancing earns one a space).
BY_RATE = np.array([sorted(range(N_PATCHES), key=lambda x: -_rate(m, x)) for m in range(MARKS_LEFT + 1)],
                   dtype=np.int64)
#: BY_GAIN[m]: the patches by gain, best first.
BY_GAIN = np.array([sorted(range(N_PATCHES), key=lambda x: -int(GAIN[m, x])) for m in range(MARKS_LEFT + 1)],
                   dtype=np.int64)


@nb.njit(cache=_CACHE, inline="always")
def final_value(s: np.ndarray, p: int) -> int:
    """A finished game's value for ``p``: twice the margin, or +-1 for the tie-break."""
    margin = score(s, p) - score(s, 1 - p)
    if margin != 0:
        return 2 * margin
    return 1 if s[FIRST_END] == p else -1


@nb.njit(cache=_CACHE)
def circle_set(s: np.ndarray) -> int:
    """The patches left on the circle, as bits of their ids."""
    rem = 0
    for i in range(s[CLEN]):
        rem |= 1 << s[CIRCLE + i]
    return rem


@nb.njit(cache=_CACHE)
def estimate_value(s: np.ndarray, p: int) -> int:
    """A first guess of the value for ``p`` (the null-window probes start here): each player's score
    with the income still to come and a button per space left."""
    est = 0
    for q in range(2):
        pos = s[POS + q]
        own = (s[BUT + q] + s[INC + q] * (MARKS[END] - MARKS[pos]) + (END - pos)
               - 2 * (81 - popcount(s[QLO + 2 * q]) - popcount(s[QLO + 2 * q + 1])))
        if s[BONUS] == q:
            own += 7
        est += own if q == p else -own
    return 2 * est


@nb.njit(cache=_CACHE)
def _purchases_gain(m: int, rem: int, qlo: int, qhi: int, left: int) -> int:
    """The most the purchases still to come can add over advancing in ``left`` spaces (``m`` marks ahead),
    counting the patches left (``rem``) that fit the quilt now: every purchase but the last takes its
    time out of the spaces left (a fractional knapsack by gain per space, rounded up), and the last adds
    at most its gain less the one space it takes. Whether a patch fits is asked only of the patches the
    knapsack reaches (``fits_any`` is the costly part of the bounds)."""
    gain = 0
    cap = left - 1
    for j in range(N_PATCHES):
        x = BY_RATE[m, j]
        t = TIME_A[x]
        e = GAIN[m, x] - t
        if e <= 0 or cap == 0:
            break
        if (rem >> x) & 1 == 0 or not fits_any(x, qlo, qhi):
            continue
        if t <= cap:
            gain += e
            cap -= t
        else:
            gain += (e * cap + t - 1) // t
            cap = 0
    for j in range(N_PATCHES):
        x = BY_GAIN[m, j]
        if (rem >> x) & 1 and fits_any(x, qlo, qhi):
            if GAIN[m, x] > 1:
                gain += GAIN[m, x] - 1
            break
    return gain


@nb.njit(cache=_CACHE)
def score_bounds(s: np.ndarray, q: int, rem: int) -> tuple[int, int]:
    """Bounds on player ``q``'s final score whatever both players do from ``s``.

    Lower: advancing to the end earns a button a space, on top of the score banked (income at each
    mark still ahead, a pending leather patch). Upper: every move covers some spaces; a purchase
    adds at most ``GAIN`` (cells, income at every mark left, less the cost) for its time, and only
    the last move may take less time than the patch's own (it stops at the end): a fractional
    knapsack of the patches left by gain per space in ``T - 1`` spaces, plus the best single
    patch as the last one, plus every leather patch ahead and the 7x7 bonus while it is free. Only
    patches that fit the quilt now are counted (``_purchases_gain``). A second knapsack by gain per
    empty cell (every purchase covers its cells) was tried (issue 35): 4% fewer nodes, 8% slower a
    node, so not kept."""
    pos = s[POS + q]
    left = END - pos
    m = MARKS[END] - MARKS[pos]
    empty = 81 - popcount(s[QLO + 2 * q]) - popcount(s[QLO + 2 * q + 1])
    low = s[BUT + q] + s[INC + q] * m - 2 * empty + left
    if s[BONUS] == q:
        low += 7
    if s[PENDING] == q:
        low += 2
    high = low
    if left > 0:
        high += _purchases_gain(m, rem, s[QLO + 2 * q], s[QLO + 2 * q + 1], left)
        high += 2 * popcount(s[LEATHER] & AFTER[pos])
    if s[BONUS] < 0 and (left > 0 or s[PENDING] == q):
        high += 7
    return low, high


@nb.njit(cache=_CACHE)
def value_bounds(s: np.ndarray, p: int, rem: int) -> tuple[int, int]:
    """Bounds on the value of ``s`` for ``p`` from both players' score bounds."""
    plow, phigh = score_bounds(s, p, rem)
    olow, ohigh = score_bounds(s, 1 - p, rem)
    d = phigh - olow
    upper = 2 * d if d < 0 else max(2 * d, 1)
    d = plow - ohigh
    lower = 2 * d if d > 0 else min(2 * d, -1)
    return lower, upper


@nb.njit(cache=_CACHE)
def last_move_value(s: np.ndarray, scratch: np.ndarray) -> int:
    """The exact value for the player to move when their move ends the game, else ``NO_VALUE``.

    That is when the other player has finished (so advancing goes straight to the end), no
    leather patch waits or lies ahead, and every affordable offer takes them to the end: the best
    of advancing and each offer that fits (its cells, income at the marks left, less its cost, and
    the 7x7 bonus when some placement completes one), against the other's final score."""
    p = to_move(s)
    o = 1 - p
    pos = s[POS + p]
    if s[POS + o] != END or s[PENDING] >= 0 or (s[LEATHER] & AFTER[pos]) != 0:
        return NO_VALUE
    buttons = s[BUT + p]
    offers = s[CLEN] if s[CLEN] < OFFER_SIZE else OFFER_SIZE
    for k in range(offers):
        pid = s[CIRCLE + k]
        if COST_A[pid] <= buttons and pos + TIME_A[pid] < END:
            return NO_VALUE
    m = MARKS[END] - MARKS[pos]
    qlo, qhi = s[QLO + 2 * p], s[QLO + 2 * p + 1]
    best = END - pos  # advancing
    bonus_free = s[BONUS] < 0
    for k in range(offers):
        pid = s[CIRCLE + k]
        if COST_A[pid] > buttons:
            continue
        n = fitting(pid, qlo, qhi, scratch)
        if n == 0:
            continue
        gain = 2 * AREA_A[pid] - COST_A[pid] + INCOME_A[pid] * m
        if bonus_free:
            for f in range(n):
                i = scratch[f]
                if full_window(qlo | PL_LO[pid, i], qhi | PL_HI[pid, i]):
                    gain += 7
                    break
        if gain > best:
            best = gain
    margin = score(s, p) + s[INC + p] * m + best - score(s, o)
    if margin != 0:
        return 2 * margin
    return 1 if s[FIRST_END] == p else -1
