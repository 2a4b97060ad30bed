"""The learned evaluation's view of a position: a fixed vector of numbers for the player to move.

Computed in compiled code from the flat int64 position of ``fastcore`` (its layout and its
tables: the rules are not copied here), so the search can value a leaf without leaving Numba;
``state_features`` is the same vector for a ``State``. Everything is seen from the mover's side:
the mover's figures first, then the opponent's, then what joins them, so one model serves both
seats (a value for player 0 is the mover's value turned round when player 1 moves).

The figures are the facts a player weighs, in the game's own units (spaces, buttons, cells;
the model standardises them): per player the position, buttons, income, income marks still
ahead and the income they will pay, empty cells and isolated holes, the best 7x7 window's
coverage and the bonus, the score now and projected (with the income to come, and the bonus when
an offered patch they can afford completes their 7x7), leather patches ahead, what the offered
patches are worth to them (``heuristic.VALUE_PER_TIME``), how many they can buy and whether one
completes their 7x7; then the gap between the tokens, who is on top, a
pending leather patch, whether the bonus is still free, the patches left, what advancing now
gives, the projected margin, and each offer's value and buyability for the mover.

``FEATURE_VERSION`` names this list: weights trained on another version are refused.
"""

from __future__ import annotations

import numba as nb
import numpy as np

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.ai.search.fastcore import (
    AFTER,
    AREA_A,
    BONUS,
    BUT,
    CIRCLE,
    CLEN,
    COST_A,
    INC,
    LEATHER,
    MARKS,
    PENDING,
    PL_HI,
    PL_LO,
    PL_N,
    POS,
    QLO,
    VPT,
    encode,
    fits_anywhere,
    full_window,
    holes_of,
    to_move,
    window_progress,
)
from patchwork_opt.core.bitwords import popcount
from patchwork_opt.core.errors import GameOverError
from patchwork_opt.core.state import BONUS_POINTS, END, OFFER_SIZE, State
from patchwork_opt.i18n import N_

FEATURE_VERSION = 2

PLAYER_FEATURES: tuple[str, ...] = (
    "position", "buttons", "income", "marks_ahead", "income_to_come", "empty", "holes", "window",
    "bonus", "score", "projected", "leather_ahead", "best_offer", "buyable", "completes_7x7",
)
SHARED_FEATURES: tuple[str, ...] = (
    "gap", "same_space", "pending", "bonus_free", "patches_left", "advance_spaces", "advance_leather",
    "projected_margin",
)
OFFER_FEATURES: tuple[str, ...] = tuple(
    f"offer{k}_{what}" for k in range(OFFER_SIZE) for what in ("value", "buyable")
)
FEATURE_NAMES: tuple[str, ...] = (
    *(f"me_{n}" for n in PLAYER_FEATURES),
    *(f"opp_{n}" for n in PLAYER_FEATURES),
    *SHARED_FEATURES,
    *OFFER_FEATURES,
)
N_FEATURES = len(FEATURE_NAMES)
N_PLAYER = len(PLAYER_FEATURES)
_SHARED = 2 * N_PLAYER
_OFFERS = _SHARED + len(SHARED_FEATURES)
_MARKS_TOTAL = int(MARKS[END])

_CACHE = True


@nb.njit(cache=_CACHE)
def completes_window(pid: int, qlo: int, qhi: int) -> bool:
    """Does some placement of patch ``pid`` on the quilt cover a whole 7x7 window?"""
    if window_progress(qlo, qhi) + AREA_A[pid] < 49:
        return False
    for i in range(PL_N[pid]):
        mlo, mhi = PL_LO[pid, i], PL_HI[pid, i]
        if (mlo & qlo) == 0 and (mhi & qhi) == 0 and full_window(qlo | mlo, qhi | mhi):
            return True
    return False


@nb.njit(cache=_CACHE)
def _player_features(s: np.ndarray, p: int, out: np.ndarray, at: int) -> None:
    pos = s[POS + p]
    buttons = s[BUT + p]
    income = s[INC + p]
    qlo, qhi = s[QLO + 2 * p], s[QLO + 2 * p + 1]
    marks = _MARKS_TOTAL - MARKS[pos]
    empty = 81 - popcount(qlo) - popcount(qhi)
    bonus = 1.0 if s[BONUS] == p else 0.0
    score = buttons + BONUS_POINTS * bonus - 2.0 * empty
    best, buyable, completes = 0.0, 0.0, 0.0
    if pos < END:
        n = s[CLEN]
        for k in range(OFFER_SIZE if n >= OFFER_SIZE else n):
            pid = s[CIRCLE + k]
            if COST_A[pid] > buttons or not fits_anywhere(pid, qlo, qhi):
                continue
            value = VPT[pid, pos]
            if buyable == 0.0 or value > best:
                best = value
            buyable += 1.0
            if s[BONUS] < 0 and completes_window(pid, qlo, qhi):
                completes = 1.0
    out[at + 0] = pos
    out[at + 1] = buttons
    out[at + 2] = income
    out[at + 3] = marks
    out[at + 4] = income * marks
    out[at + 5] = empty
    out[at + 6] = holes_of(qlo, qhi)
    out[at + 7] = window_progress(qlo, qhi)
    out[at + 8] = bonus
    out[at + 9] = score
    out[at + 10] = score + income * marks + BONUS_POINTS * completes
    out[at + 11] = popcount(s[LEATHER] & AFTER[pos])
    out[at + 12] = best
    out[at + 13] = buyable
    out[at + 14] = completes


@nb.njit(cache=_CACHE)
def features_into(s: np.ndarray, out: np.ndarray) -> None:
    """The features of position ``s`` for its player to move, written into ``out`` (N_FEATURES)."""
    me = to_move(s)
    opp = 1 - me
    _player_features(s, me, out, 0)
    _player_features(s, opp, out, N_PLAYER)
    mine, theirs = s[POS + me], s[POS + opp]
    target = theirs + 1 if theirs + 1 < END else END
    out[_SHARED + 0] = theirs - mine
    out[_SHARED + 1] = 1.0 if mine == theirs else 0.0
    out[_SHARED + 2] = 1.0 if s[PENDING] >= 0 else 0.0
    out[_SHARED + 3] = 1.0 if s[BONUS] < 0 else 0.0
    out[_SHARED + 4] = s[CLEN]
    out[_SHARED + 5] = target - mine
    out[_SHARED + 6] = popcount(s[LEATHER] & AFTER[mine] & ~AFTER[target])
    out[_SHARED + 7] = out[10] - out[N_PLAYER + 10]
    n = s[CLEN]
    for k in range(OFFER_SIZE):
        value, buyable = 0.0, 0.0
        if k < n:
            pid = s[CIRCLE + k]
            qlo, qhi = s[QLO + 2 * me], s[QLO + 2 * me + 1]
            if COST_A[pid] <= s[BUT + me] and fits_anywhere(pid, qlo, qhi):
                value, buyable = VPT[pid, mine], 1.0
        out[_OFFERS + 2 * k] = value
        out[_OFFERS + 2 * k + 1] = buyable


@nb.njit(cache=_CACHE)
def features(s: np.ndarray) -> np.ndarray:
    out = np.empty(N_FEATURES, dtype=np.float64)
    features_into(s, out)
    return out


@nb.njit(cache=_CACHE)
def features_of_positions(positions: np.ndarray) -> np.ndarray:
    """The features of each row of ``positions`` (flat positions, one a row)."""
    out = np.empty((positions.shape[0], N_FEATURES), dtype=np.float64)
    for i in range(positions.shape[0]):
        features_into(positions[i], out[i])
    return out


def state_features(state: State) -> np.ndarray:
    """The features of ``state`` for its player to move (a running game)."""
    if state.is_terminal():
        raise GameOverError(N_("the game is over: a finished game has no player to move"))
    return features(encode(state))
