"""Move generation for the exact search: every legal move of a position up to equivalence, in order.

``gen_moves`` lists a node's moves into the move arrays of its ply (``MI`` integer rows, ``MF``
float rows; the search indexes them in place: a row view costs an atomic reference count), each
with its root-order rank and placement score, and ``order_key`` is the one rule of how early the
tree tries each. The moves are those of the Python ``ExactSearch.moves`` (the same representative of
each class):

* **Fewer moves, all of them still**: placements whose quilts are images of each other are one move
  (the canonical form, ``symmetry.py``, is computed only when the quilt comes close enough to one of
  its images for two placements to coincide: ``symmetry_slack``); a player reaching space 53 places
  nothing more, so their placements differ only in completing a 7x7 (or leaving one a leather
  patch completes).
* **Fitting placements bit-parallel** per orientation (``fitting``, ``fits_any``): the anchors where
  every cell of the orientation is empty, as two words.
* **Ordering** (``order_key``): a 7x7-completing placement first, then each offer's heuristic
  placement, advancing, the other placements by the placement score; the table's best move of an
  earlier visit goes before all (``search.py``).

``root_moves`` is the same list from Python, in ``ExactSearch.moves``' order: what ``solve`` values.
"""

from __future__ import annotations

import numba as nb
import numpy as np

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.ai.search.exactcore.symmetry import canonical, symmetry_slack
from patchwork_opt.ai.search.fastcore import (
    AFTER,
    AREA_A,
    BONUS,
    BUT,
    CIRCLE,
    CLEN,
    COST_A,
    LEATHER,
    PENDING,
    PL_HI,
    PL_LO,
    PL_N,
    POS,
    QLO,
    TIME_A,
    WIN_HI,
    WIN_LO,
    advance,
    buy,
    encode,
    full_window,
    holes_of,
    place_leather,
    placement_score,
    to_move,
)
from patchwork_opt.core.bitboard import SIZE
from patchwork_opt.core.bitwords import (
    HIGH,
    LOW,
    LOW_BITS,
    bit_index,
    cell_words,
    covered,
    join,
    less,
    popcount,
    shift_back,
    split,
)
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import END, OFFER_SIZE, State

_CACHE = True

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
        ORI_ANC_LO[_x, _o], ORI_ANC_HI[_x, _o] = split(_ori.anchors)
        ORI_OFF[_x, _o, : len(_ori.offsets)] = _ori.offsets
        _base += (SIZE - _ori.height + 1) * (SIZE - _ori.width + 1)
    assert _base == PL_N[_x]

# --- move lists ------------------------------------------------------------------------------------
MAXM = 3 * int(PL_N.max()) + 2  # moves of one node at most (three offers' placements and advance)
ADVANCE_K, LEATHER_K = -1, -2  # move kinds besides an offer index 0..2
#: Root order ranks, as ``ExactSearch.moves``: completing placements, each offer's heuristic
#: placement, advance, the other placements; leather cells in cell order.
R_COMPLETE, R_BEST, R_ADVANCE, R_OTHER, R_LEATHER = 0, 1, 2, 3, 4
# move arrays: integer rows of MI[ply], float rows of MF[ply]
MK, MLO, MHI, MCLO, MCHI, MRANK = 0, 1, 2, 3, 4, 5
MI_ROWS = 6
FSCORE, FKEY = 0, 1


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
            slo, shi = shift_back(elo, ehi, off)
            flo &= slo
            fhi &= shi
        if flo == 0 and fhi == 0:
            break
    return flo, fhi


@nb.njit(cache=_CACHE)
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
            cell = bit_index(low)
            out[n] = base + (cell // SIZE) * nw + cell % SIZE
            n += 1
        while fhi != 0:
            low = fhi & -fhi
            fhi ^= low
            cell = LOW_BITS + bit_index(low)
            out[n] = base + (cell // SIZE) * nw + cell % SIZE
            n += 1
    return n


@nb.njit(cache=_CACHE)
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


@nb.njit(cache=_CACHE)
def near_window(qlo: int, qhi: int) -> bool:
    """Some 7x7 window misses exactly one cell (a leather patch could complete it)."""
    for w in range(WIN_LO.shape[0]):  # noqa: SIM110 (a plain loop: Numba compiles it best)
        if popcount(WIN_LO[w] & ~qlo) + popcount(WIN_HI[w] & ~qhi) == 1:
            return True
    return False


# Move lists live in MI[ply, row, i] / MF[ply, row, i]; the search indexes them in place: taking row
# views in the hot loop costs an atomic reference count each.
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
    return less(MI[ply, MLO, a], MI[ply, MHI, a], MI[ply, MLO, b], MI[ply, MHI, b])


@nb.njit(cache=_CACHE)
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
    lo, hi = cell_words(cell)
    if bonus_free and full_window(qlo | lo, qhi | hi):
        return 100.0
    r, c = cell // 9, cell % 9
    sc = 0.0
    for nb_cell, edge in ((cell - 9, r == 0), (cell + 9, r == 8), (cell - 1, c == 0), (cell + 1, c == 8)):
        if edge or covered(qlo, qhi, nb_cell):
            sc += 1.0
    return sc


@nb.njit(cache=_CACHE)
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
            lo, hi = cell_words(cell)
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
                    lo, hi = cell_words(cell)
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


# --- from Python ------------------------------------------------------------------------------------
def new_scratch() -> np.ndarray:
    """A scratch array for ``fitting`` (as long as any move list)."""
    return np.zeros(MAXM, dtype=np.int64)


def root_moves(state: State) -> list[Move]:
    """The moves ``solve`` values at ``state``: every legal move up to equivalence (placements equal
    up to the board's symmetries, a finishing player's placements by outcome class), in the
    order of ``ExactSearch.moves``."""
    return [m for m, *_ in root_move_rows(encode(state), list(state.circle))]


def root_move_rows(flat: np.ndarray, circle: list[int]) -> list[tuple[Move, int, int, int]]:
    """The root's moves in ``ExactSearch.moves`` order, as (move, k, lo, hi)."""
    MI = np.zeros((1, MI_ROWS, MAXM), dtype=np.int64)
    MF = np.zeros((1, 2, MAXM), dtype=np.float64)
    n = int(gen_moves(flat, MI, MF, 0, new_scratch()))
    w_mi, w_mf = MI[0], MF[0]
    rows = []
    for i in range(n):
        k, lo, hi, rank = (int(w_mi[MK, i]), int(w_mi[MLO, i]), int(w_mi[MHI, i]), int(w_mi[MRANK, i]))
        mask = join(lo, hi)
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
