"""The exact search compiled with Numba: the rest of the game over every legal move, as ``ai/search/exact.py``.

Same game, same values, same moves as the Python ``ExactSearch``, on the flat int64 position of
``ai/search/fastcore.py`` with its transitions (``advance``, ``buy``, ``place_leather``, ``score``: the rules
live there once). A finished game is worth ``2 * margin`` to a player, or +1/-1 for a tie won/lost on
the tie-break (first to reach space 53); negamax maximises it, so the best value is the best margin
and a positive one a win. ``solve`` is the entry point: every root move as an ``AnalysedMove``.

What makes it fast, beside being compiled:

* **A transposition table sized by memory** (``ExactTable``): a power of two of 64-byte entries in
  two-way buckets (one slot keeps the entry with the most work below it, or from this search; the
  other is always replaced). An entry holds a lower and an upper bound, so null-window probes share
  it. The key is the whole position with both quilts in canonical form (quilts equal up to the 8
  rotations/reflections play the same from here) and the circle as the set of patches left and the
  first one (the cyclic order never changes within a game: the table remembers it and starts afresh
  for another game). Entries are written without locks and carry the XOR of their words, so threads
  share one table and a half-written entry never reads as valid.
* **Null windows** (MTD(f)): a root move's exact value comes from yes/no probes ("at least v?") from a
  first guess, the table's bounds carried from probe to probe; with ``every_move`` False a move that
  cannot beat the best so far is refuted by one probe (and one more tells whether it still wins).
* **Static bounds**: each player's final score lies between advancing to the end and a knapsack of
  the patches left (those that still fit) by gain per space (``score_bounds``); a node whose bounds
  fall outside the window is settled without a move. A move
  that ends the game for a player whose opponent has finished is valued on the spot
  (``last_move_value``).
* **Anytime at the root**: each root move keeps the bounds its probes proved, so a stop loses nothing;
  searching every move, a first round asks only whether each move wins (``_RootWork``), so hints and
  reviews know every move's outcome long before every margin.
* **Fewer moves, all of them still**: placements whose quilts are images of each other are one move
  (the canonical form is computed only when the quilt comes close enough to one of its images for two
  placements to coincide: ``symmetry_slack``); a player reaching space 53 places nothing more, so
  their placements differ only in completing a 7x7 (or leaving one a leather patch completes).
* **Ordering** (``order_key``, the one place): a 7x7-completing placement first, then each offer's
  heuristic placement, advancing, the other placements by the placement score; the table's best move
  of an earlier visit before all.
* Plain machine work: fitting placements bit-parallel per orientation, an explicit stack (Numba's
  cache cannot hold a recursive function), arrays indexed in place (a row view costs an atomic
  reference count), the table entry prefetched as soon as a child's key is known
  (``numba_prefetch``, the one module on Numba's internals, with a plain fallback).

A node budget and a stop flag (raised at the deadline or by a caller's ``StopSignal``) end a search
cleanly: ``solve``'s result then has ``solved`` False and keeps what was proven before the stop (exact
values, and the moves only known to win or lose). ``SearchStats`` counts what the tree did (table
hits, cutoffs on the first move, nodes the bounds settled): the figures behind its size.
Searches release the GIL, so root moves are split over threads sharing the table (``threads=2``).
``estimate_nodes``/``estimate_seconds`` predict from a position's features (``estimate_features``) how
long a search takes (a fit on positions of mixed styles of play, ``bench/exact_fit.py``) so callers try
it where it can finish.
"""

from __future__ import annotations

import heapq
import itertools
import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numba as nb
import numpy as np

from patchwork_opt.ai.base import AnalysedMove, SearchedPosition
from patchwork_opt.ai.search.exact import exact_move, won_move
from patchwork_opt.ai.search.fastcore import (
    AFTER,
    AREA_A,
    BONUS,
    BUT,
    CIRCLE,
    CLEN,
    COST_A,
    FIRST_END,
    HIGH,
    INC,
    INCOME_A,
    LAST,
    LEATHER,
    LOW,
    LOW_BITS,
    MARKS,
    PENDING,
    PL_HI,
    PL_LO,
    PL_N,
    POS,
    QLO,
    SLEN,
    TIME_A,
    WIN_HI,
    WIN_LO,
    advance,
    buy,
    encode,
    full_window,
    holes_of,
    is_terminal,
    place_leather,
    placement_score,
    popcount,
    score,
    to_move,
)
from patchwork_opt.ai.search.numba_prefetch import prefetch_row
from patchwork_opt.core.bitboard import SIZE
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.errors import GameOverError, PatchworkError
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import END, OFFER_SIZE, State

_CACHE = True

# --- symmetry tables ------------------------------------------------------------------------------
_ROWS = 1 << SIZE
#: REV[r]: the 9-bit row r mirrored left to right.
REV = np.array([int(f"{r:09b}"[::-1], 2) for r in range(_ROWS)], dtype=np.int64)
#: T_LO[i, r] / T_HI[i, r]: row i's bits r laid into column i (the transpose of one row), as two words.
T_LO = np.zeros((SIZE, _ROWS), dtype=np.int64)
T_HI = np.zeros((SIZE, _ROWS), dtype=np.int64)
for _i in range(SIZE):
    for _r in range(_ROWS):
        _lo = _hi = 0
        for _c in range(SIZE):
            if _r >> _c & 1:
                _cell = _c * SIZE + _i
                if _cell < LOW_BITS:
                    _lo |= 1 << _cell
                else:
                    _hi |= 1 << (_cell - LOW_BITS)
        T_LO[_i, _r], T_HI[_i, _r] = _lo, _hi

# --- fitting placements, bit-parallel: per orientation, the anchors where every cell is empty ---------
N_PATCHES = len(PATCHES)
MAX_ORIENTATIONS = max(len(p.orientations) for p in PATCHES)
MAX_AREA = max(p.area for p in PATCHES)
ORI_N = np.array([len(p.orientations) for p in PATCHES], dtype=np.int64)
#: ORI_BASE[x, o]: index in PL_LO/PL_HI of orientation o's first placement; ORI_NW[x, o]: its
#: anchors per row (placements run orientation by orientation, anchors in cell order)
ORI_BASE = np.zeros((N_PATCHES, MAX_ORIENTATIONS), dtype=np.int64)
ORI_NW = np.zeros((N_PATCHES, MAX_ORIENTATIONS), dtype=np.int64)
ORI_ANC_LO = np.zeros((N_PATCHES, MAX_ORIENTATIONS), dtype=np.int64)
ORI_ANC_HI = np.zeros((N_PATCHES, MAX_ORIENTATIONS), dtype=np.int64)
ORI_OFF = np.zeros((N_PATCHES, MAX_ORIENTATIONS, MAX_AREA), dtype=np.int64)
for _x, _p in enumerate(PATCHES):
    _base = 0
    for _o, _ori in enumerate(_p.orientations):
        ORI_BASE[_x, _o] = _base
        ORI_NW[_x, _o] = SIZE - _ori.width + 1
        ORI_ANC_LO[_x, _o] = _ori.anchors & LOW
        ORI_ANC_HI[_x, _o] = _ori.anchors >> LOW_BITS
        ORI_OFF[_x, _o, : len(_ori.offsets)] = _ori.offsets
        _base += (SIZE - _ori.height + 1) * (SIZE - _ori.width + 1)
    assert _base == PL_N[_x]


@nb.njit(cache=_CACHE, inline="always")
def _tz(low: int) -> int:
    """The index of the one set bit of ``low``."""
    return popcount(low - 1)


@nb.njit(cache=_CACHE, inline="always")
def _anchors(pid: int, o: int, elo: int, ehi: int) -> tuple[int, int]:
    """The anchors (two words) where orientation ``o`` of the patch lies on empty cells only: the
    orientation's anchors, less those where one of its cells' offsets lands on a covered cell."""
    flo, fhi = ORI_ANC_LO[pid, o], ORI_ANC_HI[pid, o]
    for c in range(AREA_A[pid]):
        off = ORI_OFF[pid, o, c]
        if off == 0:
            flo &= elo
            fhi &= ehi
        else:
            flo &= (elo >> off) | ((ehi << (LOW_BITS - off)) & LOW)
            fhi &= ehi >> off
        if flo == 0 and fhi == 0:
            break
    return flo, fhi


@nb.njit(cache=_CACHE, inline="always")
def fitting(pid: int, qlo: int, qhi: int, out: np.ndarray) -> int:
    """The indices (into PL_LO/PL_HI) of the patch's placements on empty cells of the quilt, in
    placement order (``catalogue.legal_placements``'), into ``out``; returns how many."""
    elo, ehi = LOW & ~qlo, HIGH & ~qhi
    n = 0
    for o in range(ORI_N[pid]):
        flo, fhi = _anchors(pid, o, elo, ehi)
        base, nw = ORI_BASE[pid, o], ORI_NW[pid, o]
        while flo != 0:
            low = flo & -flo
            flo ^= low
            cell = _tz(low)
            out[n] = base + (cell // SIZE) * nw + cell % SIZE
            n += 1
        while fhi != 0:
            low = fhi & -fhi
            fhi ^= low
            cell = LOW_BITS + _tz(low)
            out[n] = base + (cell // SIZE) * nw + cell % SIZE
            n += 1
    return n


@nb.njit(cache=_CACHE, inline="always")
def fits_any(pid: int, qlo: int, qhi: int) -> bool:
    """The patch fits somewhere on the quilt's empty cells."""
    elo, ehi = LOW & ~qlo, HIGH & ~qhi
    if popcount(elo) + popcount(ehi) < AREA_A[pid]:
        return False
    for o in range(ORI_N[pid]):
        flo, fhi = _anchors(pid, o, elo, ehi)
        if flo != 0 or fhi != 0:
            return True
    return False


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

# --- search constants -----------------------------------------------------------------------------
INF = 30000  # beyond any value (|2 * margin| stays far below)
_OFF = 1 << 15  # values are stored as 16-bit offsets
MAXPLY = 128  # plies from a root: each move but a leather one moves a token; 5 leather patches
MAXM = 3 * int(PL_N.max()) + 2  # moves of one node at most (three offers' placements and advance)
ADVANCE_K, LEATHER_K = -1, -2  # move kinds besides an offer index 0..2
#: Root order ranks, as ``ExactSearch.moves``: completing placements, each offer's heuristic
#: placement, advance, the other placements; leather cells in cell order.
R_COMPLETE, R_BEST, R_ADVANCE, R_OTHER, R_LEATHER = 0, 1, 2, 3, 4
# move arrays: integer rows of MI[ply], float rows of MF[ply]
MK, MLO, MHI, MCLO, MCHI, MRANK = 0, 1, 2, 3, 4, 5
MI_ROWS = 6
_NO_VALUE = -(1 << 41)  # last_move_value: not a last move
FSCORE, FKEY = 0, 1
# entry words
ENTRY_WORDS = 8
ENTRY_BYTES = ENTRY_WORDS * 8
_VALID = 1 << 61
# the shared control array: stop flag, node limit, then per thread (two cache lines apart) its node
# counter and after it the counts of ``SEARCH_STATS`` (what the tree did: ``SearchStats``)
STOP, LIMIT, COUNTER0, COUNTER_STRIDE, MAX_THREADS = 0, 1, 8, 16, 8
_SHARED_LEN = COUNTER0 + COUNTER_STRIDE * MAX_THREADS
#: The statistics a search keeps beside its node count, in their offsets after the thread's counter.
SEARCH_STATS: tuple[str, ...] = ("table_found", "table_settled", "bounds_settled", "expanded", "cutoffs",
                                 "first_move_cutoffs", "moves_tried", "moves_listed", "last_move_leaves")
(ST_TABLE_FOUND, ST_TABLE_SETTLED, ST_BOUNDS_SETTLED, ST_EXPANDED, ST_CUTOFFS, ST_FIRST_CUTOFFS, ST_MOVES_TRIED,
 ST_MOVES_LISTED, ST_LAST_MOVE) = range(1, len(SEARCH_STATS) + 1)
_M1 = 0x9E3779B97F4A7C15 - (1 << 64)
_M2 = 0xC2B2AE3D27D4EB4F - (1 << 64)
_M3 = 0x165667B19E3779F9
_M4 = 0x27D4EB2F165667C5


# --- canonical quilts (a compiled copy of core.symmetry.canonical, compared in the tests) ----------
@nb.njit(cache=_CACHE, inline="always")
def _pack(a0: int, a1: int, a2: int, a3: int, a4: int, a5: int, a6: int, a7: int, a8: int) -> tuple[int, int]:
    lo = a0 | (a1 << 9) | (a2 << 18) | (a3 << 27) | (a4 << 36) | (a5 << 45) | (a6 << 54)
    return lo, a7 | (a8 << 9)


@nb.njit(cache=_CACHE, inline="always")
def _less(alo: int, ahi: int, blo: int, bhi: int) -> bool:
    """(alo, ahi) < (blo, bhi) as 81-bit numbers."""
    return ahi < bhi or (ahi == bhi and alo < blo)


@nb.njit(cache=_CACHE, inline="always")
def _rows(lo: int, hi: int) -> tuple[int, int, int, int, int, int, int, int, int]:
    return (lo & 511, (lo >> 9) & 511, (lo >> 18) & 511, (lo >> 27) & 511, (lo >> 36) & 511,
            (lo >> 45) & 511, (lo >> 54) & 511, hi & 511, (hi >> 9) & 511)


@nb.njit(cache=_CACHE, inline="always")
def _transposed(r0: int, r1: int, r2: int, r3: int, r4: int, r5: int, r6: int, r7: int,
                r8: int) -> tuple[int, int]:
    lo = (T_LO[0, r0] | T_LO[1, r1] | T_LO[2, r2] | T_LO[3, r3] | T_LO[4, r4] | T_LO[5, r5]
          | T_LO[6, r6] | T_LO[7, r7] | T_LO[8, r8])
    hi = (T_HI[0, r0] | T_HI[1, r1] | T_HI[2, r2] | T_HI[3, r3] | T_HI[4, r4] | T_HI[5, r5]
          | T_HI[6, r6] | T_HI[7, r7] | T_HI[8, r8])
    return lo, hi


@nb.njit(cache=_CACHE)
def _least4(r0: int, r1: int, r2: int, r3: int, r4: int, r5: int, r6: int, r7: int,
            r8: int) -> tuple[int, int]:
    """The smallest of the quilt with these rows, mirrored left-right, top-bottom and both."""
    blo, bhi = _pack(r0, r1, r2, r3, r4, r5, r6, r7, r8)
    f0, f1, f2, f3, f4 = REV[r0], REV[r1], REV[r2], REV[r3], REV[r4]
    f5, f6, f7, f8 = REV[r5], REV[r6], REV[r7], REV[r8]
    lo, hi = _pack(f0, f1, f2, f3, f4, f5, f6, f7, f8)
    if _less(lo, hi, blo, bhi):
        blo, bhi = lo, hi
    lo, hi = _pack(r8, r7, r6, r5, r4, r3, r2, r1, r0)
    if _less(lo, hi, blo, bhi):
        blo, bhi = lo, hi
    lo, hi = _pack(f8, f7, f6, f5, f4, f3, f2, f1, f0)
    if _less(lo, hi, blo, bhi):
        blo, bhi = lo, hi
    return blo, bhi


@nb.njit(cache=_CACHE)
def canonical(lo: int, hi: int) -> tuple[int, int]:
    """The smallest of the eight images of the quilt (two words) under rotations and reflections."""
    r0, r1, r2, r3, r4, r5, r6, r7, r8 = _rows(lo, hi)
    tlo, thi = _transposed(r0, r1, r2, r3, r4, r5, r6, r7, r8)
    t0, t1, t2, t3, t4, t5, t6, t7, t8 = _rows(tlo, thi)
    alo, ahi = _least4(r0, r1, r2, r3, r4, r5, r6, r7, r8)
    blo, bhi = _least4(t0, t1, t2, t3, t4, t5, t6, t7, t8)
    if _less(blo, bhi, alo, ahi):
        return blo, bhi
    return alo, ahi


@nb.njit(cache=_CACHE, inline="always")
def _outside(lo: int, hi: int, qlo: int, qhi: int) -> int:
    return popcount(lo & ~qlo) + popcount(hi & ~qhi)


@nb.njit(cache=_CACHE)
def _slack4(r0: int, r1: int, r2: int, r3: int, r4: int, r5: int, r6: int, r7: int, r8: int,
            qlo: int, qhi: int, identity: bool) -> int:
    f0, f1, f2, f3, f4 = REV[r0], REV[r1], REV[r2], REV[r3], REV[r4]
    f5, f6, f7, f8 = REV[r5], REV[r6], REV[r7], REV[r8]
    best = 81
    if identity:
        lo, hi = _pack(r0, r1, r2, r3, r4, r5, r6, r7, r8)
        best = _outside(lo, hi, qlo, qhi)
    lo, hi = _pack(f0, f1, f2, f3, f4, f5, f6, f7, f8)
    best = min(best, _outside(lo, hi, qlo, qhi))
    lo, hi = _pack(r8, r7, r6, r5, r4, r3, r2, r1, r0)
    best = min(best, _outside(lo, hi, qlo, qhi))
    lo, hi = _pack(f8, f7, f6, f5, f4, f3, f2, f1, f0)
    return min(best, _outside(lo, hi, qlo, qhi))


@nb.njit(cache=_CACHE)
def symmetry_slack(qlo: int, qhi: int) -> int:
    """The fewest cells any non-identity image of the quilt has outside it.

    Two different placements of one patch (area ``a``) leave quilts that are images of each other
    only if some non-identity symmetry g has ``g(quilt)`` inside ``quilt | mask``: at most ``a``
    cells of ``g(quilt)`` outside the quilt. When the slack exceeds ``a`` every placement is its own
    class and no canonical form is needed to tell them apart."""
    r0, r1, r2, r3, r4, r5, r6, r7, r8 = _rows(qlo, qhi)
    tlo, thi = _transposed(r0, r1, r2, r3, r4, r5, r6, r7, r8)
    t0, t1, t2, t3, t4, t5, t6, t7, t8 = _rows(tlo, thi)
    a = _slack4(r0, r1, r2, r3, r4, r5, r6, r7, r8, qlo, qhi, False)
    b = _slack4(t0, t1, t2, t3, t4, t5, t6, t7, t8, qlo, qhi, True)
    return min(a, b)


# --- positions ------------------------------------------------------------------------------------
@nb.njit(cache=_CACHE)
def near_window(qlo: int, qhi: int) -> bool:
    """Some 7x7 window misses exactly one cell (a leather patch could complete it)."""
    for w in range(WIN_LO.shape[0]):  # noqa: SIM110 (a plain loop: Numba compiles it best)
        if popcount(WIN_LO[w] & ~qlo) + popcount(WIN_HI[w] & ~qhi) == 1:
            return True
    return False


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


@nb.njit(cache=_CACHE, inline="always")
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


@nb.njit(cache=_CACHE, inline="always")
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


@nb.njit(cache=_CACHE, inline="always")
def value_bounds(s: np.ndarray, p: int, rem: int) -> tuple[int, int]:
    """Bounds on the value of ``s`` for ``p`` from both players' score bounds."""
    plow, phigh = score_bounds(s, p, rem)
    olow, ohigh = score_bounds(s, 1 - p, rem)
    d = phigh - olow
    upper = 2 * d if d < 0 else max(2 * d, 1)
    d = plow - ohigh
    lower = 2 * d if d > 0 else min(2 * d, -1)
    return lower, upper


@nb.njit(cache=_CACHE, inline="always")
def last_move_value(s: np.ndarray, scratch: np.ndarray) -> int:
    """The exact value for the player to move when their move ends the game, else ``_NO_VALUE``.

    That is when the other player has finished (so advancing goes straight to the end), no
    leather patch waits or lies ahead, and every affordable offer takes them to the end: the best
    of advancing and each offer that fits (its cells, income at the marks left, less its cost, and
    the 7x7 bonus when some placement completes one), against the other's final score."""
    p = to_move(s)
    o = 1 - p
    pos = s[POS + p]
    if s[POS + o] != END or s[PENDING] >= 0 or (s[LEATHER] & AFTER[pos]) != 0:
        return _NO_VALUE
    buttons = s[BUT + p]
    offers = s[CLEN] if s[CLEN] < OFFER_SIZE else OFFER_SIZE
    for k in range(offers):
        pid = s[CIRCLE + k]
        if COST_A[pid] <= buttons and pos + TIME_A[pid] < END:
            return _NO_VALUE
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


# --- moves ----------------------------------------------------------------------------------------
# Move lists live in MI[ply, row, i] / MF[ply, row, i] and positions in S[ply, :]; the search indexes
# them in place and works on one 1-D position buffer: taking row views (``S[ply]``) in the hot loop
# costs an atomic reference count each.
@nb.njit(cache=_CACHE, inline="always")
def _add(MI: np.ndarray, MF: np.ndarray, ply: int, n: int, k: int, lo: int, hi: int, rank: int, sc: float) -> int:
    MI[ply, MK, n], MI[ply, MLO, n], MI[ply, MHI, n] = k, lo, hi
    MI[ply, MCLO, n], MI[ply, MCHI, n], MI[ply, MRANK, n] = -1, -1, rank
    MF[ply, FSCORE, n] = sc
    return n + 1


@nb.njit(cache=_CACHE, inline="always")
def _better(MI: np.ndarray, MF: np.ndarray, ply: int, a: int, b: int) -> bool:
    """Placement a ranks before b: higher score, then the lower mask (``rank_placements``)."""
    if MF[ply, FSCORE, a] != MF[ply, FSCORE, b]:
        return MF[ply, FSCORE, a] > MF[ply, FSCORE, b]
    return _less(MI[ply, MLO, a], MI[ply, MHI, a], MI[ply, MLO, b], MI[ply, MHI, b])


@nb.njit(cache=_CACHE, inline="always")
def _distinct(MI: np.ndarray, MF: np.ndarray, ply: int, qlo: int, qhi: int, start: int, n: int,
              keep_best: bool) -> int:
    """Keep one move per canonical quilt among moves start..n-1 (the best placement of each class,
    or the first when ``keep_best`` is False); returns the new end."""
    for i in range(start, n):
        MI[ply, MCLO, i], MI[ply, MCHI, i] = canonical(qlo | MI[ply, MLO, i], qhi | MI[ply, MHI, i])
    end = start
    for i in range(start, n):
        dup = -1
        for j in range(start, end):
            if MI[ply, MCLO, j] == MI[ply, MCLO, i] and MI[ply, MCHI, j] == MI[ply, MCHI, i]:
                dup = j
                break
        if dup < 0:
            dup = end
            end += 1
        elif not (keep_best and _better(MI, MF, ply, i, dup)):
            continue
        for r in range(MI_ROWS):
            MI[ply, r, dup] = MI[ply, r, i]
        MF[ply, FSCORE, dup] = MF[ply, FSCORE, i]
    return end


@nb.njit(cache=_CACHE)
def _leather_score(qlo: int, qhi: int, cell: int, bonus_free: bool) -> float:
    """Ordering score of a leather cell: completing a 7x7 first, then the most enclosed cells."""
    lo = (1 << cell) if cell < LOW_BITS else 0
    hi = 0 if cell < LOW_BITS else 1 << (cell - LOW_BITS)
    if bonus_free and full_window(qlo | lo, qhi | hi):
        return 100.0
    r, c = cell // 9, cell % 9
    sc = 0.0
    for nb_cell, edge in ((cell - 9, r == 0), (cell + 9, r == 8), (cell - 1, c == 0), (cell + 1, c == 8)):
        if edge:
            sc += 1.0
        elif nb_cell < LOW_BITS:
            sc += float((qlo >> nb_cell) & 1)
        else:
            sc += float((qhi >> (nb_cell - LOW_BITS)) & 1)
    return sc


@nb.njit(cache=_CACHE, inline="always")
def gen_moves(s: np.ndarray, MI: np.ndarray, MF: np.ndarray, ply: int, scratch: np.ndarray) -> int:
    """Every legal move of ``s`` up to equivalence into move list ``ply``; returns how many.

    The moves are those of ``ExactSearch.moves`` (the same representative of each class), each with
    its root-order rank and placement score; ``order_key`` orders them inside the tree.

    Kept whole on purpose: it runs at every node of the search, and its two cases (a pending
    leather cell, each affordable offer's placements) share the quilt, its holes and the move list
    being filled, which helpers would take as a dozen arguments at every node; the steps that stand
    alone (``_add``, ``_distinct``, ``fitting``) are functions already."""
    p = to_move(s)
    qlo, qhi = s[QLO + 2 * p], s[QLO + 2 * p + 1]
    bonus_free = s[BONUS] < 0
    slack = symmetry_slack(qlo, qhi)
    n = 0
    if s[PENDING] >= 0:
        at_end = s[POS + p] == END
        complete_cell, other_cell = -1, -1
        for cell in range(81):
            lo = (1 << cell) if cell < LOW_BITS else 0
            hi = 0 if cell < LOW_BITS else 1 << (cell - LOW_BITS)
            if (lo & qlo) != 0 or (hi & qhi) != 0:
                continue
            if not at_end:
                n = _add(MI, MF, ply, n, LEATHER_K, lo, hi, R_LEATHER, _leather_score(qlo, qhi, cell, bonus_free))
                continue
            if not bonus_free:
                complete_cell = cell
                break
            if full_window(qlo | lo, qhi | hi):
                if complete_cell < 0:
                    complete_cell = cell
            elif other_cell < 0:
                other_cell = cell
            if complete_cell >= 0 and other_cell >= 0:
                break
        if at_end:
            for cell in (complete_cell, other_cell):
                if cell >= 0:
                    lo = (1 << cell) if cell < LOW_BITS else 0
                    hi = 0 if cell < LOW_BITS else 1 << (cell - LOW_BITS)
                    n = _add(MI, MF, ply, n, LEATHER_K, lo, hi, R_LEATHER,
                             _leather_score(qlo, qhi, cell, bonus_free))
        elif slack <= 1 and n > 1:
            n = _distinct(MI, MF, ply, qlo, qhi, 0, n, False)
        return n
    buttons, position = s[BUT + p], s[POS + p]
    offers = s[CLEN] if s[CLEN] < OFFER_SIZE else OFFER_SIZE
    holes = holes_of(qlo, qhi)
    leather_next = (s[LEATHER] & AFTER[position]) != 0
    for k in range(offers):
        pid = s[CIRCLE + k]
        if COST_A[pid] > buttons:
            continue
        start = n
        to_end = position + TIME_A[pid] >= END
        first0, first1, first2 = -1, -1, -1
        for f in range(fitting(pid, qlo, qhi, scratch)):
            i = scratch[f]
            lo, hi = PL_LO[pid, i], PL_HI[pid, i]
            if not to_end:
                n = _add(MI, MF, ply, n, k, lo, hi, R_OTHER,
                         placement_score(qlo, qhi, lo, hi, holes, bonus_free, True))
                continue
            # a player reaching the end places nothing more: one placement per outcome class
            if not bonus_free:
                first0 = i
                break
            alo, ahi = qlo | lo, qhi | hi
            if full_window(alo, ahi):
                if first0 < 0:
                    first0 = i
            elif leather_next and not (alo == LOW and ahi == HIGH) and near_window(alo, ahi):
                if first1 < 0:
                    first1 = i
            elif first2 < 0:
                first2 = i
            if first0 >= 0 and first1 >= 0 and first2 >= 0:
                break
        if to_end:
            for i in (first0, first1, first2):
                if i >= 0:
                    lo, hi = PL_LO[pid, i], PL_HI[pid, i]
                    n = _add(MI, MF, ply, n, k, lo, hi, R_OTHER,
                             placement_score(qlo, qhi, lo, hi, holes, bonus_free, True))
        elif slack <= AREA_A[pid] and n - start > 1:
            n = _distinct(MI, MF, ply, qlo, qhi, start, n, True)
        if n == start:
            continue
        top = start
        for i in range(start + 1, n):
            if _better(MI, MF, ply, i, top):
                top = i
        for i in range(start, n):
            if bonus_free and full_window(qlo | MI[ply, MLO, i], qhi | MI[ply, MHI, i]):
                MI[ply, MRANK, i] = R_COMPLETE
            elif i == top:
                MI[ply, MRANK, i] = R_BEST
    return _add(MI, MF, ply, n, ADVANCE_K, 0, 0, R_ADVANCE, 0.0)


@nb.njit(cache=_CACHE, inline="always")
def order_key(s: np.ndarray, p: int, k: int, rank: int, sc: float) -> float:
    """How early the search tries a move (higher first): the one move-ordering rule of the tree.

    A 7x7-completing placement, then each offer's heuristic placement (earlier offers first), then
    advancing, then the other placements by placement score; leather cells by their own score
    (completing a 7x7, then enclosure). A learned value may replace this function later."""
    if k == LEATHER_K:
        return sc
    if rank == R_COMPLETE:
        return 4e6 + sc
    if rank == R_BEST:
        return 3e6 - k
    if rank == R_ADVANCE:
        return 2e6
    return 1e6 - 1e4 * k + sc


# --- the transposition table ------------------------------------------------------------------------
@nb.njit(cache=_CACHE, inline="always")
def _key(s: np.ndarray, CQ: np.ndarray, ply: int, rem: int) -> tuple[int, int, int, int, int, int]:
    return _key_of(s, CQ[ply, 0], CQ[ply, 1], CQ[ply, 2], CQ[ply, 3], rem)


@nb.njit(cache=_CACHE, inline="always")
def _key_of(s: np.ndarray, c0: int, c1: int, c2: int, c3: int, rem: int) -> tuple[int, int, int, int, int, int]:
    """The table key of position ``s`` with canonical quilts (c0, c1) and (c2, c3) and circle set ``rem``."""
    first = s[CIRCLE] if s[CLEN] > 0 else 63
    # who moved last decides only between tokens on one space (every later move sets it anew)
    last = s[LAST] if s[POS] == s[POS + 1] else 0
    k2 = (c1 | (c3 << 18) | (s[POS] << 36) | (s[POS + 1] << 42) | ((s[PENDING] + 1) << 48)
          | (last << 50) | ((s[BONUS] + 1) << 51) | ((s[FIRST_END] + 1) << 53) | (first << 55) | _VALID)
    k3 = rem | (s[INC] << 33) | (s[INC + 1] << 41)
    k5 = s[BUT] | (s[BUT + 1] << 24)
    return c0, c2, k2, k3, s[LEATHER], k5


@nb.njit(cache=_CACHE, inline="always")
def _bucket(k0: int, k1: int, k2: int, k3: int, k4: int, k5: int, entries: int) -> int:
    h = k0 * _M1 + k1 * _M2 + k2 * _M3 + k3 * _M4 + k4 * _M1 + k5 * _M2
    h ^= (h >> 29) & 0x7FFFFFFFF
    h *= _M3
    h ^= (h >> 32) & 0xFFFFFFFF
    return h & (entries - 1) & ~1


@nb.njit(cache=_CACHE, inline="always")
def _matches(tt: np.ndarray, j: int, k0: int, k1: int, k2: int, k3: int, k4: int, k5: int) -> bool:
    return (tt[j, 0] == k0 and tt[j, 1] == k1 and tt[j, 2] == k2 and tt[j, 3] == k3 and tt[j, 4] == k4
            and tt[j, 5] == k5)


@nb.njit(cache=_CACHE, inline="always")
def _probe(tt: np.ndarray, b: int, k0: int, k1: int, k2: int, k3: int, k4: int, k5: int,
           salt: int) -> tuple[bool, int, int, int]:
    """(found, lower, upper, hint) of the position's entry (an entry whose words do not XOR to its
    check word was being written by another thread: not found)."""
    for j in (b, b + 1):
        w0, w1, w2, w3, w4, w5, w6, w7 = tt[j, 0], tt[j, 1], tt[j, 2], tt[j, 3], tt[j, 4], tt[j, 5], tt[j, 6], tt[j, 7]
        if (w0 == k0 and w1 == k1 and w2 == k2 and w3 == k3 and w4 == k4 and w5 == k5
                and (w0 ^ w1 ^ w2 ^ w3 ^ w4 ^ w5 ^ w6 ^ salt) == w7):
            return True, (w6 & 0xFFFF) - _OFF, ((w6 >> 16) & 0xFFFF) - _OFF, (w6 >> 32) & 0xFFF
    return False, -INF, INF, -1


@nb.njit(cache=_CACHE, inline="always")
def _store(tt: np.ndarray, b: int, k0: int, k1: int, k2: int, k3: int, k4: int, k5: int,
           lower: int, upper: int, hint: int, work: int, gen: int, salt: int) -> None:
    """Write an entry: over the same position's, else into the bucket's work-preferred slot when
    this search did more below it (or the slot's entry is from an older search; the old entry
    then moves to the other slot), else into the other, always-replaced slot."""
    data = (lower + _OFF) | ((upper + _OFF) << 16) | (hint << 32) | (work << 44) | (gen << 50)
    if _matches(tt, b, k0, k1, k2, k3, k4, k5):
        j = b
    elif _matches(tt, b + 1, k0, k1, k2, k3, k4, k5):
        j = b + 1
    else:
        old = tt[b, 6]
        if ((old >> 50) & 255) != gen or ((old >> 44) & 63) <= work:
            j = b
            if tt[b, 2] != 0:
                for w in range(ENTRY_WORDS):
                    tt[b + 1, w] = tt[b, w]
        else:
            j = b + 1
    tt[j, 7] = 0
    tt[j, 0], tt[j, 1], tt[j, 2], tt[j, 3], tt[j, 4], tt[j, 5], tt[j, 6] = k0, k1, k2, k3, k4, k5, data
    tt[j, 7] = k0 ^ k1 ^ k2 ^ k3 ^ k4 ^ k5 ^ data ^ salt


# --- the search -------------------------------------------------------------------------------------
@nb.njit(cache=_CACHE, inline="always")
def _count(shared: np.ndarray, slot: int) -> bool:
    """Count a node; False once the search must stop (stop flag, or the node budget spent)."""
    c = shared[slot] + 1
    shared[slot] = c
    if (c & 1023) == 0:
        total = 0
        for t in range(MAX_THREADS):
            total += shared[COUNTER0 + COUNTER_STRIDE * t]
        if total >= shared[LIMIT]:
            shared[STOP] = 1
    return shared[STOP] == 0


# frame fields of one ply of the explicit stack (Numba's cache cannot hold a recursive function)
F_ALPHA, F_BETA, F_ALPHA0, F_BETA0, F_LOWER, F_UPPER, F_BEST, F_BEST_I = 0, 1, 2, 3, 4, 5, 6, 7
F_N, F_BUCKET, F_STARTED, F_SIGN, F_P, F_MOVE, F_TRIED, F_K0 = 8, 9, 10, 11, 12, 13, 14, 15
FRAME = F_K0 + 6
_NOTHING = -(1 << 40)  # no child value to fold in
_TRIED = -1e300  # the ordering key of a move already searched


@nb.njit(cache=_CACHE, inline="always")
def _prepare(ply: int, s: np.ndarray, CQ: np.ndarray, REM: np.ndarray, FR: np.ndarray, tt: np.ndarray) -> None:
    """The table key and bucket of position ``s`` at ``ply`` into its frame, and the bucket's
    entries on their way into the cache (``numba_prefetch``)."""
    k0, k1, k2, k3, k4, k5 = _key(s, CQ, ply, REM[ply])
    b = _bucket(k0, k1, k2, k3, k4, k5, tt.shape[0])
    prefetch_row(tt, b)
    FR[ply, F_BUCKET] = b
    FR[ply, F_K0], FR[ply, F_K0 + 1], FR[ply, F_K0 + 2] = k0, k1, k2
    FR[ply, F_K0 + 3], FR[ply, F_K0 + 4], FR[ply, F_K0 + 5] = k3, k4, k5


@nb.njit(cache=_CACHE, inline="always")
def _enter(ply: int, s: np.ndarray, CQ: np.ndarray, REM: np.ndarray, MI: np.ndarray, MF: np.ndarray,
           FR: np.ndarray, scratch: np.ndarray, tt: np.ndarray, salt: int, shared: np.ndarray,
           slot: int) -> tuple[bool, int]:
    """Open the node at ``ply`` (position ``s``, window in its frame): (True, value) when the table
    or the static bounds settle it, else (False, 0) with its moves listed and ordered."""
    p = to_move(s)
    rem = REM[ply]
    b = FR[ply, F_BUCKET]
    k0, k1, k2 = FR[ply, F_K0], FR[ply, F_K0 + 1], FR[ply, F_K0 + 2]
    k3, k4, k5 = FR[ply, F_K0 + 3], FR[ply, F_K0 + 4], FR[ply, F_K0 + 5]
    found, lower, upper, hint = _probe(tt, b, k0, k1, k2, k3, k4, k5, salt)
    alpha, beta = FR[ply, F_ALPHA], FR[ply, F_BETA]
    if found:
        shared[slot + ST_TABLE_FOUND] += 1
        if lower >= beta:
            shared[slot + ST_TABLE_SETTLED] += 1
            return True, lower
        if upper <= alpha or lower == upper:
            shared[slot + ST_TABLE_SETTLED] += 1
            return True, upper
        if lower > alpha:
            alpha = lower
        if upper < beta:
            beta = upper
    vlo, vhi = value_bounds(s, p, rem)
    if vhi <= alpha:
        shared[slot + ST_BOUNDS_SETTLED] += 1
        return True, vhi
    if vlo >= beta:
        shared[slot + ST_BOUNDS_SETTLED] += 1
        return True, vlo
    FR[ply, F_ALPHA], FR[ply, F_BETA], FR[ply, F_ALPHA0], FR[ply, F_BETA0] = alpha, beta, alpha, beta
    FR[ply, F_LOWER], FR[ply, F_UPPER], FR[ply, F_BEST], FR[ply, F_BEST_I] = lower, upper, -INF, 0
    FR[ply, F_P], FR[ply, F_MOVE], FR[ply, F_TRIED] = p, 0, 0
    n = gen_moves(s, MI, MF, ply, scratch)
    shared[slot + ST_EXPANDED] += 1
    shared[slot + ST_MOVES_LISTED] += n
    for i in range(n):
        MF[ply, FKEY, i] = order_key(s, p, MI[ply, MK, i], MI[ply, MRANK, i], MF[ply, FSCORE, i])
    if 0 <= hint < n:
        MF[ply, FKEY, hint] = 1e18
    FR[ply, F_N] = n
    return False, 0


@nb.njit(cache=_CACHE, inline="always")
def _close(FR: np.ndarray, ply: int, tt: np.ndarray, gen: int, salt: int, done: int) -> int:
    """Store the node's result in the table (bounds merged with what the table knew); its value."""
    best = FR[ply, F_BEST]
    if best <= FR[ply, F_ALPHA0]:
        lower, upper = FR[ply, F_LOWER], best
    elif best >= FR[ply, F_BETA0]:
        lower, upper = best, FR[ply, F_UPPER]
    else:
        lower, upper = best, best
    work = 0
    while done > 1 and work < 63:
        done >>= 1
        work += 1
    _store(tt, FR[ply, F_BUCKET], FR[ply, F_K0], FR[ply, F_K0 + 1], FR[ply, F_K0 + 2], FR[ply, F_K0 + 3],
           FR[ply, F_K0 + 4], FR[ply, F_K0 + 5], lower, upper, FR[ply, F_BEST_I], work, gen, salt)
    return best


@nb.njit(cache=_CACHE, nogil=True)
def search_from(s0: np.ndarray, alpha: int, beta: int, S: np.ndarray, CQ: np.ndarray, REM: np.ndarray,
                MI: np.ndarray, MF: np.ndarray, FR: np.ndarray, s: np.ndarray, scratch: np.ndarray,
                tt: np.ndarray, gen: int, salt: int, shared: np.ndarray, slot: int) -> int:
    """The value of running position ``s0`` for its player to move: fail-soft alpha-beta with the
    table's bounds, on an explicit stack of plies (``s`` is the working position). Returns 0 at
    once when the search must stop (``shared[STOP]`` raised, or the node budget spent: the caller
    checks the flag).

    Kept whole on purpose: it is one loop that walks down and back up its own stack instead of
    recursing (no call per node, and a stop honoured at any depth), so opening a node, trying its
    next move and returning to the parent share that loop's state; the work at a node is in
    ``_prepare`` and ``gen_moves``."""
    for i in range(SLEN):
        S[0, i] = s0[i]
        s[i] = s0[i]
    CQ[0, 0], CQ[0, 1] = canonical(s0[QLO], s0[QLO + 1])
    CQ[0, 2], CQ[0, 3] = canonical(s0[QLO + 2], s0[QLO + 3])
    REM[0] = circle_set(s0)
    FR[0, F_ALPHA], FR[0, F_BETA] = alpha, beta
    _prepare(0, s, CQ, REM, FR, tt)
    ply = 0
    entering = True  # ``s`` holds S[ply], to be opened
    ret = _NOTHING
    while True:
        if entering:
            entering = False
            if not _count(shared, slot):
                return 0
            FR[ply, F_STARTED] = shared[slot]
            settled, v = _enter(ply, s, CQ, REM, MI, MF, FR, scratch, tt, salt, shared, slot)
            if settled:
                if ply == 0:
                    return v
                ply -= 1
                ret = v * FR[ply, F_SIGN]
            else:
                ret = _NOTHING
        n = FR[ply, F_N]
        if ret != _NOTHING:  # fold the value of the move just searched (from this node's side)
            if ret > FR[ply, F_BEST]:
                FR[ply, F_BEST], FR[ply, F_BEST_I] = ret, FR[ply, F_MOVE]
                if ret > FR[ply, F_ALPHA]:
                    FR[ply, F_ALPHA] = ret
            if FR[ply, F_ALPHA] >= FR[ply, F_BETA]:
                n = 0  # a cutoff: no further move
                shared[slot + ST_CUTOFFS] += 1
                if FR[ply, F_TRIED] == 1:
                    shared[slot + ST_FIRST_CUTOFFS] += 1
        j = -1
        top = _TRIED
        for i in range(n):
            if MF[ply, FKEY, i] > top:
                top, j = MF[ply, FKEY, i], i
        if j < 0:  # every move searched, or a cutoff: store and return to the parent
            v = _close(FR, ply, tt, gen, salt, shared[slot] - FR[ply, F_STARTED])
            if ply == 0:
                return v
            ply -= 1
            ret = v * FR[ply, F_SIGN]
            continue
        MF[ply, FKEY, j] = _TRIED
        FR[ply, F_MOVE] = j
        FR[ply, F_TRIED] += 1
        shared[slot + ST_MOVES_TRIED] += 1
        p = FR[ply, F_P]
        for i in range(SLEN):
            s[i] = S[ply, i]
        CQ[ply + 1, 0], CQ[ply + 1, 1] = CQ[ply, 0], CQ[ply, 1]
        CQ[ply + 1, 2], CQ[ply + 1, 3] = CQ[ply, 2], CQ[ply, 3]
        REM[ply + 1] = REM[ply]
        k = MI[ply, MK, j]
        if k == ADVANCE_K:
            advance(s, p)
        else:
            if k == LEATHER_K:
                place_leather(s, p, MI[ply, MLO, j], MI[ply, MHI, j])
            else:
                REM[ply + 1] = REM[ply] & ~(1 << s[CIRCLE + k])
                buy(s, p, k, MI[ply, MLO, j], MI[ply, MHI, j])
            if MI[ply, MCLO, j] >= 0:
                CQ[ply + 1, 2 * p], CQ[ply + 1, 2 * p + 1] = MI[ply, MCLO, j], MI[ply, MCHI, j]
            else:
                CQ[ply + 1, 2 * p], CQ[ply + 1, 2 * p + 1] = canonical(s[QLO + 2 * p], s[QLO + 2 * p + 1])
        if is_terminal(s):
            ret = final_value(s, p)
            continue
        _prepare(ply + 1, s, CQ, REM, FR, tt)
        v = last_move_value(s, scratch)
        if v != _NO_VALUE:
            if not _count(shared, slot):
                return 0
            shared[slot + ST_LAST_MOVE] += 1
            ret = v if to_move(s) == p else -v
            continue
        for i in range(SLEN):
            S[ply + 1, i] = s[i]
        if to_move(s) == p:
            FR[ply, F_SIGN] = 1
            FR[ply + 1, F_ALPHA], FR[ply + 1, F_BETA] = FR[ply, F_ALPHA], FR[ply, F_BETA]
        else:
            FR[ply, F_SIGN] = -1
            FR[ply + 1, F_ALPHA], FR[ply + 1, F_BETA] = -FR[ply, F_BETA], -FR[ply, F_ALPHA]
        ply += 1
        entering = True


@nb.njit(cache=_CACHE)
def play(s: np.ndarray, k: int, lo: int, hi: int) -> np.ndarray:
    """The position after move (k, lo, hi) of ``gen_moves``, as a new array."""
    c = s.copy()
    p = to_move(c)
    if k == ADVANCE_K:
        advance(c, p)
    elif k == LEATHER_K:
        place_leather(c, p, lo, hi)
    else:
        buy(c, p, k, lo, hi)
    return c


# --- Python side ------------------------------------------------------------------------------------
class ExactTable:
    """The transposition table: ``megabytes`` of memory as a power of two of 64-byte entries.

    Keep one for a whole game to reuse what earlier moves' searches found; a position from another
    game (another circle order) starts it afresh. The threads of one ``solve`` share it; two
    ``solve`` calls at once need a table each."""

    def __init__(self, megabytes: float = 128.0) -> None:
        if not megabytes > 0:
            raise PatchworkError(f"the exact search's table needs a positive size, got {megabytes} MB")
        entries = 1 << max(4, int(math.log2(megabytes * (1 << 20) / ENTRY_BYTES)))
        self.entries = entries
        # zero pages the system maps as they are first written: a short search pays only for the pages
        # it touches (touching all 128 MB up front took 0.23 s, more than a hint's probe of the search)
        self.tt = np.zeros((entries, ENTRY_WORDS), dtype=np.int64)
        self.generation = 0
        self.salt = 0  # XORed into every entry's check word: a new salt empties the table at once
        self._order: dict[int, int] = {}  # patch id -> place in the circle's cyclic order
        self._rng = random.Random()
        self._stacks: list[_Worker] = []

    def stacks(self, threads: int) -> list[_Worker]:
        """The search stacks of ``threads`` threads, made once and kept with the table (they are
        megabytes each: a new one per search would cost more than a small search)."""
        while len(self._stacks) < threads:
            self._stacks.append(_Worker(len(self._stacks)))
        return self._stacks[:threads]

    @property
    def megabytes(self) -> float:
        return self.entries * ENTRY_BYTES / (1 << 20)

    def clear(self) -> None:
        """Forget every entry (without touching the memory: no entry checks under a new salt)."""
        self.salt = self._rng.getrandbits(63)
        self.generation = 0

    def adopt(self, circle: list[int]) -> None:
        """Make the table ready for a search from a position with this circle: a new search
        generation, and an empty table when the circle's cyclic order is not the table's."""
        places = [self._order.get(pid, -1) for pid in circle]
        wraps = sum(1 for a, b in itertools.pairwise(places) if b < a)
        same_game = bool(places) and -1 not in places and (
            wraps == 0 or (wraps == 1 and places[-1] < places[0]))
        if not same_game:
            self.clear()
            self._order = {pid: i for i, pid in enumerate(circle)}
        self.generation = (self.generation + 1) % 256


class _Stopped(Exception):
    """The stop flag was raised (deadline, node budget, a caller) during a search."""


class _Worker:
    """One thread's search stack: positions, canonical quilts, circle sets and move lists per ply."""

    def __init__(self, slot: int) -> None:
        self.slot = COUNTER0 + COUNTER_STRIDE * slot
        self.S = np.zeros((MAXPLY + 1, SLEN), dtype=np.int64)
        self.CQ = np.zeros((MAXPLY + 1, 4), dtype=np.int64)
        self.REM = np.zeros(MAXPLY + 1, dtype=np.int64)
        self.MI = np.zeros((MAXPLY, MI_ROWS, MAXM), dtype=np.int64)
        self.MF = np.zeros((MAXPLY, 2, MAXM), dtype=np.float64)
        self.FR = np.zeros((MAXPLY + 1, FRAME), dtype=np.int64)
        self.s = np.zeros(SLEN, dtype=np.int64)
        self.scratch = new_scratch()


def new_scratch() -> np.ndarray:
    """A scratch array for ``fitting`` (as long as any move list)."""
    return np.zeros(MAXM, dtype=np.int64)


def root_moves(state: State) -> list[Move]:
    """The moves ``solve`` values at ``state``: every legal move up to equivalence (placements equal
    up to the board's symmetries, a finishing player's placements by outcome class), in the
    order of ``ExactSearch.moves``."""
    return [m for m, *_ in _root_moves(encode(state), list(state.circle))]


def _root_moves(flat: np.ndarray, circle: list[int]) -> list[tuple[Move, int, int, int]]:
    """The root's moves in ``ExactSearch.moves`` order, as (move, k, lo, hi)."""
    MI = np.zeros((1, MI_ROWS, MAXM), dtype=np.int64)
    MF = np.zeros((1, 2, MAXM), dtype=np.float64)
    n = int(gen_moves(flat, MI, MF, 0, new_scratch()))
    w_mi, w_mf = MI[0], MF[0]
    rows = []
    for i in range(n):
        k, lo, hi, rank = (int(w_mi[MK, i]), int(w_mi[MLO, i]), int(w_mi[MHI, i]), int(w_mi[MRANK, i]))
        mask = lo | (hi << LOW_BITS)
        if k == ADVANCE_K:
            move = ADVANCE
        elif k == LEATHER_K:
            move = Move("leather", -1, mask)
        else:
            move = Move("buy", circle[k], mask)
        # ExactSearch.moves: a stable sort by rank of the offers' placements in ranked order
        # (score, then the lower mask), advance between ranks 1 and 2; leather cells in cell order
        order = (rank, 0, 0.0, mask) if rank == R_LEATHER else (rank, k, -float(w_mf[FSCORE, i]), mask)
        rows.append((order, move, k, lo, hi))
    rows.sort(key=lambda r: r[0])
    return [(m, k, lo, hi) for _, m, k, lo, hi in rows]


@dataclass
class SearchStats:
    """What a ``solve`` did in its tree (pass one to ``solve`` to have it filled): the figures that tell
    why a search is as big as it is (issue 35). Counts over every thread and every probe of the solve.

    ``nodes``: positions visited (the node budget's count); ``table_found``: visits whose position the
    table held; ``table_settled``: visits the table's bounds decided without a move; ``bounds_settled``:
    visits the static score bounds decided; ``expanded``: visits whose moves were listed and searched;
    ``cutoffs``: expanded nodes left early because a move reached the window's top, ``first_move_cutoffs``
    those where the first move tried did (how good the ordering is); ``moves_tried`` and ``moves_listed``:
    moves searched and moves listed at expanded nodes; ``last_move_leaves``: positions valued on the spot
    as a last move. ``outcomes_seconds``: with ``every_move``, the seconds until every root move's win or
    loss was proven (the first round; None when the search stopped before)."""

    nodes: int = 0
    table_found: int = 0
    table_settled: int = 0
    bounds_settled: int = 0
    expanded: int = 0
    cutoffs: int = 0
    first_move_cutoffs: int = 0
    moves_tried: int = 0
    moves_listed: int = 0
    last_move_leaves: int = 0
    outcomes_seconds: float | None = None

    def add(self, shared: np.ndarray) -> None:
        """Add the counts a search left in its shared control array."""
        for t in range(MAX_THREADS):
            slot = COUNTER0 + COUNTER_STRIDE * t
            self.nodes += int(shared[slot])
            for offset, name in enumerate(SEARCH_STATS, start=1):
                setattr(self, name, getattr(self, name) + int(shared[slot + offset]))

    def as_dict(self) -> dict[str, float]:
        """The counts and the shares derived from them: table hit rate (visits the table held), first-move
        cutoff share, moves tried per expanded node, and the share of visits settled without a move."""
        out: dict[str, float] = {name: getattr(self, name) for name in ("nodes", *SEARCH_STATS)}
        out["table_hit_rate"] = self.table_found / self.nodes if self.nodes else 0.0
        out["first_move_cutoff_share"] = self.first_move_cutoffs / self.cutoffs if self.cutoffs else 0.0
        out["moves_tried_per_expanded"] = self.moves_tried / self.expanded if self.expanded else 0.0
        out["moves_listed_per_expanded"] = self.moves_listed / self.expanded if self.expanded else 0.0
        out["settled_share"] = (self.table_settled + self.bounds_settled) / self.nodes if self.nodes else 0.0
        return out


class _Run:
    """One ``solve``: the shared control array, the workers and the child searches."""

    def __init__(self, table: ExactTable, node_limit: int, threads: int) -> None:
        self.table = table
        self.shared = np.zeros(_SHARED_LEN, dtype=np.int64)
        self.shared[LIMIT] = node_limit
        self.workers = table.stacks(threads)

    @property
    def nodes(self) -> int:
        return int(sum(self.shared[COUNTER0 + COUNTER_STRIDE * t] for t in range(MAX_THREADS)))

    def stop(self) -> None:
        self.shared[STOP] = 1

    def value(self, worker: _Worker, child: np.ndarray, p: int, alpha: int, beta: int) -> int:
        """The value for ``p`` of position ``child`` (fail-soft within alpha, beta)."""
        if is_terminal(child):
            return int(final_value(child, p))
        same = int(to_move(child)) == p
        lo, hi = (alpha, beta) if same else (-beta, -alpha)
        v = int(search_from(child, lo, hi, worker.S, worker.CQ, worker.REM, worker.MI, worker.MF, worker.FR,
                            worker.s, worker.scratch, self.table.tt, self.table.generation, self.table.salt,
                            self.shared, worker.slot))
        if self.shared[STOP]:
            raise _Stopped
        return v if same else -v

    def exact(self, worker: _Worker, child: np.ndarray, p: int, guess: int, known: list[int]) -> int:
        """The exact value for ``p`` of ``child`` by null-window probes from ``guess`` (MTD(f)), knowing it
        lies in ``known`` = [lower, upper]; each probe narrows ``known`` in place, so a search stopped
        part way keeps what its probes proved."""
        g = min(max(guess, known[0]), known[1])
        while known[0] < known[1]:
            beta = g + 1 if g == known[0] else g
            g = self.value(worker, child, p, beta - 1, beta)
            if g < beta:
                known[1] = g
            else:
                known[0] = g
        return known[0]

    def line(self, worker: _Worker, flat: np.ndarray, circle_of: Callable[[np.ndarray], list[int]],
             value: int, plies: int) -> list[Move]:
        """A principal line from ``flat`` (whose value for its mover is ``value``): at each step
        the first move (in root order) whose value reaches the position's."""
        out: list[Move] = []
        s = flat
        while len(out) < plies and not is_terminal(s):
            p = int(to_move(s))
            for move, k, lo, hi in _root_moves(s, circle_of(s)):
                child = play(s, k, lo, hi)
                if self.value(worker, child, p, value - 1, value) >= value:
                    out.append(move)
                    if not is_terminal(child):
                        value = value if int(to_move(child)) == p else -value
                    s = child
                    break
            else:  # cannot happen with exact values; stop rather than loop
                break
        return out


def _circle_of(s: np.ndarray) -> list[int]:
    return [int(x) for x in s[CIRCLE : CIRCLE + int(s[CLEN])]]


def _check_range(state: State) -> None:
    """The table key packs buttons and income into fixed bit widths."""
    for p in (0, 1):
        if not 0 <= state.buttons[p] < 1 << 24 or not 0 <= state.income[p] < 256:
            raise PatchworkError(f"exact search: player {p + 1}'s buttons or income are out of range")


def solve(
    state: State,
    *,
    deadline: Deadline | None = None,
    node_limit: int | None = None,
    every_move: bool = False,
    threads: int = 1,
    table: ExactTable | None = None,
    pv_plies: int = 4,
    stop: Callable[[Callable[[], None]], None] | None = None,
    stats: SearchStats | None = None,
) -> SearchedPosition:
    """Solve the rest of the game from ``state`` over every legal move.

    Returns the root moves best first as ``AnalysedMove`` (``exact`` with the exact ``value``, ``win``
    1 or 0 and ``margin``; with ``every_move`` False the moves a better one refuted have ``bound`` True
    and an upper bound as ``value``, their ``win`` still proved 1 or 0). When ``deadline`` passed or
    ``node_limit`` ran out (or ``stop``'s callback was called: pass ``StopSignal.attach``) ``solved`` is
    False and ``moves`` holds what was proven before the stop, without lines: the root moves valued as
    above, then those only proven to win (``floor``: the value they reach at least) and those only
    proven to lose (``bound``: an upper bound at most 0); a caller keeps those and values the rest
    otherwise. With ``every_move`` a first round proves each move's win or loss before any margin.
    ``threads`` (1..8) split the root moves, sharing ``table`` (keep one per game to reuse it; by
    default the calling thread's own 128 MB one). ``stats``, when given, gains what the tree did."""
    if state.is_terminal():
        raise GameOverError("the game is over: there is nothing to solve")
    if not 1 <= threads <= MAX_THREADS:
        raise PatchworkError(f"exact search: threads must be 1..{MAX_THREADS}, got {threads}")
    _check_range(state)
    started = time.perf_counter()
    table = table if table is not None else _thread_table()
    table.adopt(list(state.circle))
    run = _Run(table, node_limit if node_limit is not None else 1 << 62, threads)
    if deadline is not None:
        left = deadline.remaining()  # the watcher keeps the real clock: the time left, on it
        if left <= 0:
            run.stop()
        else:
            _DEADLINES.add(time.perf_counter() + left, run.shared)
    if stop is not None:
        stop(run.stop)
    flat = encode(state)
    roots = _root_moves(flat, list(state.circle))
    rootwork = _RootWork(run, flat, roots, every_move)
    if every_move:  # whether each move wins first, then each one's value
        rootwork.run(range(len(roots)), threads, outcomes_only=True)
        if stats is not None and not rootwork.stopped:
            stats.outcomes_seconds = time.perf_counter() - started
        rootwork.run(range(len(roots)), threads)
    else:  # the first move's value first: the others are then only tested against it
        rootwork.run(range(1), 1)
        rootwork.run(range(1, len(roots)), threads)
    if rootwork.stopped:  # what was proven before the stop stands: those root moves, no lines
        if stats is not None:
            stats.add(run.shared)
        return SearchedPosition.of(state, rootwork.proven(), nodes=run.nodes, seconds=time.perf_counter() - started)
    moves = rootwork.moves(pv_plies)
    if stats is not None:
        stats.add(run.shared)
    return SearchedPosition.of(state, moves, exact=True, nodes=run.nodes, seconds=time.perf_counter() - started)


_LOCAL = threading.local()


def _thread_table() -> ExactTable:
    """The calling thread's own table, for searches not given one (made once per thread)."""
    table = getattr(_LOCAL, "table", None)
    if table is None:
        table = _LOCAL.table = ExactTable()
    return table


class _Deadlines:
    """One thread for every search's deadline in the process: it raises a search's stop flag when
    its time is up (a timer thread per search costs milliseconds to start on a busy machine)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._heap: list[tuple[float, int, np.ndarray]] = []
        self._order = itertools.count()
        self._thread: threading.Thread | None = None

    def add(self, deadline: float, shared: np.ndarray) -> None:
        """Raise ``shared[STOP]`` at ``deadline`` (``time.perf_counter``; harmless once the search
        is over, so nothing is ever cancelled)."""
        with self._cond:
            heapq.heappush(self._heap, (deadline, next(self._order), shared))
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="exact-search-deadlines", daemon=True)
                self._thread.start()
            self._cond.notify()

    def _watch(self) -> None:
        with self._cond:
            while True:
                now = time.perf_counter()
                while self._heap and self._heap[0][0] <= now:
                    heapq.heappop(self._heap)[2][STOP] = 1
                self._cond.wait(self._heap[0][0] - now if self._heap else None)


_DEADLINES = _Deadlines()


def _narrow(known: list[int], v: int) -> None:
    """Narrow a root move's proven [lower, upper] by a fail-soft probe at the window (0, 1): a value
    above 0 is a lower bound (a win), one at or below 0 an upper bound (a loss)."""
    if v > 0:
        known[0] = v
    else:
        known[1] = v


class _RootWork:
    """The root moves of one ``solve`` and their values, handed out to the threads one by one.

    Each root move keeps the bounds its probes proved (``known``: [lower, upper] for the player to
    move), so a stop part way loses nothing: a move whose lower bound is above 0 is a proven win, one
    whose upper bound is at most 0 a proven loss. With ``every_move`` the search is anytime in two
    rounds: first whether each move wins (one null-window probe at 0 each), then each move's exact
    value from there; hints and reviews then know every move's outcome long before every margin."""

    def __init__(self, run: _Run, flat: np.ndarray, roots: list[tuple[Move, int, int, int]], every_move: bool) -> None:
        self.run_ = run
        self.p = int(to_move(flat))
        self.roots = roots
        self.children = [play(flat, k, lo, hi) for _, k, lo, hi in roots]
        self.known = [[-INF, INF] for _ in roots]
        self.results: list[AnalysedMove | None] = [None] * len(roots)
        self.every_move = every_move
        self.alpha = -INF  # the best exact value so far
        self.stopped = False
        self.error: Exception | None = None
        self._lock = threading.Lock()
        self._queue: list[int] = []
        self._outcomes_only = False

    def run(self, indices: range, threads: int, *, outcomes_only: bool = False) -> None:
        """Value the root moves ``indices`` on ``threads`` threads (each with its own stack); with
        ``outcomes_only``, only whether each wins."""
        self._queue = list(indices)
        self._outcomes_only = outcomes_only
        workers = self.run_.workers[: max(1, min(threads, len(self._queue)))]
        if len(workers) == 1:
            self._work(workers[0])
        else:
            pool = [threading.Thread(target=self._work, args=(w,), daemon=True) for w in workers]
            for t in pool:
                t.start()
            for t in pool:
                t.join()
        if self.error is not None:  # a search failed: fail in the caller's thread
            raise self.error

    def _work(self, worker: _Worker) -> None:
        run, p = self.run_, self.p
        try:
            while True:
                with self._lock:
                    if not self._queue or self.stopped:
                        return
                    i = self._queue.pop(0)
                    alpha = self.alpha
                child, known = self.children[i], self.known[i]
                if is_terminal(child):
                    known[0] = known[1] = int(final_value(child, p))
                if self._outcomes_only:
                    if known[0] <= 0 < known[1]:
                        _narrow(known, run.value(worker, child, p, 0, 1))
                    continue
                guess = int(estimate_value(child, p)) if not is_terminal(child) else 0
                if self.every_move or alpha == -INF:
                    v, exact = run.exact(worker, child, p, guess, known), True
                else:  # is it better than the best so far? if so, by how much
                    v = run.value(worker, child, p, alpha, alpha + 1)
                    exact = v > alpha
                    if exact:
                        known[0] = v
                        v = run.exact(worker, child, p, max(guess, v), known)
                    else:
                        known[1] = v
                        if v > 0:  # refuted, and maybe still a win: prove which
                            w = run.value(worker, child, p, 0, 1)
                            _narrow(known, w)
                            v = v if w > 0 else w
                with self._lock:
                    if exact and v > self.alpha:
                        self.alpha = v
                    move = self.roots[i][0]
                    self.results[i] = exact_move(move, v, (move,), bound=not exact)
        except _Stopped:
            with self._lock:
                self.stopped = True
        except Exception as exc:
            with self._lock:  # stop the other threads; ``run`` raises it
                self.error, self.stopped = exc, True

    def _done(self) -> list[tuple[AnalysedMove, np.ndarray]]:
        """The root moves valued so far with their positions, best first (exact values before bounds)."""
        done = [(m, c) for m, c in zip(self.results, self.children, strict=True) if m is not None]
        done.sort(key=lambda mc: (not mc[0].exact, -(mc[0].value or 0)))
        return done

    def proven(self) -> list[AnalysedMove]:
        """What a stop leaves proven, best first, whatever the other moves turn out to be: the moves
        valued (exact values, refuted moves' bounds), then the moves only known to win (by at least
        their floor, highest first), then those only known to lose (their bound)."""
        valued = [m for m, _ in self._done()]
        wins, losses = [], []
        for (move, *_), m, (lower, upper) in zip(self.roots, self.results, self.known, strict=True):
            if m is not None:
                continue
            if lower > 0:
                wins.append(won_move(move, lower))
            elif upper <= 0:
                losses.append(exact_move(move, upper, (move,), bound=True))
        wins.sort(key=lambda m: -(m.floor or 0))
        losses.sort(key=lambda m: -(m.value or 0))
        return [*valued, *wins, *losses]

    def moves(self, pv_plies: int) -> list[AnalysedMove]:
        """The root moves best first (exact values before bounds), exact ones with their line."""
        out = []
        for m, child in self._done():
            if m.exact and m.value is not None and pv_plies > 1 and not is_terminal(child):
                value = m.value if int(to_move(child)) == self.p else -m.value
                try:
                    rest = self.run_.line(self.run_.workers[0], child, _circle_of, value, pv_plies - 1)
                except _Stopped:  # the budget ran out while reading lines: the values stand
                    rest = []
                m = exact_move(m.move, m.value, (m.move, *rest))
            out.append(m)
        return out


_warm = False


def warm_up() -> None:
    """Load the compiled search (from Numba's cache, or compile it) before any clock starts."""
    global _warm
    if not _warm:
        state = State.new(seed=0)
        state.pos = [49, 50]  # a few plies from the end: every compiled function runs once
        solve(state, every_move=True, table=ExactTable(1), pv_plies=2)
        final_value(play(encode(state), ADVANCE_K, 0, 0), 0)
        _warm = True


# --- how long a search takes ----------------------------------------------------------------------------
#: The features of a position that drive the tree (``estimate_features``), in the fit's order. Only the
#: players still moving count: a player on space 53 places nothing more, whatever their quilt.
ESTIMATE_FEATURES: tuple[str, ...] = ("constant", "spaces left", "empty cells", "buyable offers", "income",
                                      "buttons", "ln root moves")
#: A position with fewer root moves than this counts as having this many: a move or two still lead into
#: whole trees, which ln(root moves) alone would price at nearly nothing (issue 35: the worst
#: under-estimates were such positions). One root move is more: ``estimate_position``.
ROOT_FLOOR = 4
#: ln(nodes) = the coefficients . ``estimate_features``, per mode (``every_move`` False: the best move, as
#: the bot asks; True: every move, as hints and reviews ask). Least squares over positions of the four
#: styles of ``bench/exact_suite.py`` from seeds 45,000 on (disjoint from the held-out suite's), cut at
#: spaces 32-46 (two a style and space), each search capped at 1.5e6 nodes; a capped search is censored
#: (its ln(nodes) only known to exceed the cap's) and fitted as such (``bench/exact_fit.py``:
#: ``censored_least_squares``). ``ESTIMATE_SPREAD`` is the fit's standard deviation of ln(nodes) about it.
#: No feature weighs negatively (the fit holds a coefficient at 0 rather: buyable offers, which ln(root
#: moves) already counts for the mover). The fit: 128 searches of 64 positions, 43 of 74 (best move) and
#: 39 of 54 (every move) censored at the cap.
ESTIMATE_FIT: dict[bool, tuple[float, ...]] = {
    False: (-15.132, 0.6118, 0.1066, 0.0, 0.1575, 0.129, 0.9514),
    True: (-11.3734, 0.6023, 0.1319, 0.0, 0.0109, 0.0844, 1.407),
}
ESTIMATE_SPREAD: dict[bool, float] = {False: 1.186, True: 1.181}
NODES_PER_SECOND = 1.75e6  # one core: the median over those searches of more than 1e6 nodes
#: Wall-clock gain of 1 and 2 threads (more count as 2): the median of three positions from space 36
#: (1.3x-1.8x) on the 2-core machine with about one core's worth of other work; none when both cores
#: are already busy.
THREAD_SPEEDUP = (1.0, 1.0, 1.4)
_NORMAL_QUANTILE = {0.1: -1.2816, 0.25: -0.6745, 0.5: 0.0, 0.75: 0.6745, 0.9: 1.2816}


def estimate_position(state: State, every_move: bool) -> tuple[State, bool]:
    """The position and mode whose features price a search from ``state``: while the player to move has
    one root move, its search is the search of the position that move leads to (its value, not every
    move's: the mode of a search for the best move). A finished game is its own (nothing to search)."""
    while not state.is_terminal():
        moves = root_moves(state)
        if len(moves) != 1:
            break
        state = state.clone()
        state.apply(moves[0])
        every_move = False
    return state, every_move


def estimate_features(state: State) -> tuple[float, ...]:
    """The position's ``ESTIMATE_FEATURES``: over the players still moving, the spaces they have left,
    their empty cells, the offers each can buy now (``State.buyable_offers``), their income and
    buttons (what they will buy with), and ln(root moves) floored at ``ROOT_FLOOR``."""
    live = [p for p in (0, 1) if state.pos[p] < END]
    moves = len(root_moves(state)) if not state.is_terminal() else 1
    return (1.0,
            float(sum(END - state.pos[p] for p in live)),
            float(sum(81 - state.quilts[p].bit_count() for p in live)),
            float(sum(len(state.buyable_offers(p)) for p in live)),
            float(sum(state.income[p] for p in live)),
            float(sum(state.buttons[p] for p in live)),
            math.log(max(moves, ROOT_FLOOR)))


def estimate_nodes(state: State, *, every_move: bool = False, quantile: float = 0.5) -> float:
    """The nodes ``solve`` is expected to search from ``state``: the fit's ``quantile`` (0.5: the
    typical position; 0.75 or 0.9: three positions in four, nine in ten, need no more; 0.25 or 0.1:
    one in four, one in ten, need no more)."""
    z = _NORMAL_QUANTILE.get(quantile)
    if z is None:
        raise PatchworkError(f"estimate quantile must be one of {sorted(_NORMAL_QUANTILE)}, got {quantile}")
    priced, mode = estimate_position(state, every_move)
    if priced.is_terminal():
        return 1.0
    ln = sum(c * x for c, x in zip(ESTIMATE_FIT[mode], estimate_features(priced), strict=True))
    return math.exp(ln + z * ESTIMATE_SPREAD[mode])


def estimate_seconds(state: State, *, every_move: bool = False, threads: int = 1, quantile: float = 0.5) -> float:
    """The seconds ``solve`` is expected to take from ``state`` on ``threads`` threads."""
    speedup = THREAD_SPEEDUP[min(max(threads, 1), len(THREAD_SPEEDUP) - 1)]
    return estimate_nodes(state, every_move=every_move, quantile=quantile) / (NODES_PER_SECOND * speedup)


def worth_trying(state: State, seconds: float, *, every_move: bool = False, threads: int = 1) -> bool:
    """Whether ``solve`` will likely (three times in four) finish within ``seconds``: the AI, hints
    and reviews try the exact search from wherever this says so, not from a fixed space."""
    return estimate_seconds(state, every_move=every_move, threads=threads, quantile=0.75) <= seconds
