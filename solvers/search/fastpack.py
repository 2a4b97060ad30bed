"""The one packing search, compiled with Numba: it answers every ``PackingProblem``.

Cells are settled one at a time: the first open cell is covered by a placement whose first
cell it is, or left empty, so every packing is reached exactly once and an exhausted search
proves its best optimal. A node is cut when what it has plus what the unused patches could
still add cannot beat the best found: with values equal to areas, the best subset sum of
their areas within the open cells (over all open cells, and part by part); with other values
(the ``points`` objective), a fractional knapsack by value density within those cells. After
a placement, open cells no unused patch can cover are left empty, the patches that fit
nowhere drop out, and the open cells are split into their connected parts, each bounded by
the patches fitting inside it (a pocket a little larger than what fits it wastes cells: seen
there, not when the search reaches it); patches sharing a shape (and value) are used in slot
order only. The smallest part is settled first (then the given regions, smallest first): a
tight pocket takes the patches that fit it before open space does, which finds perfect
packings and proofs alike in far fewer nodes. An optional transposition table
(``use_table``) cuts states reached again by other placements.

Sets of patches to exclude (``PackingProblem.exclude``, a no-good on the choice of patches)
change only which packings count as found: one whose placed slots are an excluded set is not
kept, what extends it is still searched. Every bound stays a bound; a transposition table entry
also keys on the patches placed, and twins an excluded set splits are no longer placed in slot
order.

A problem with cells to cover (7x7 completion) is the same search branching on those cells
only: the first uncovered one is covered by a placement whose first such cell it is (the
placement may spill onto other free cells), never left empty, and a branch ends as soon as
one of them can no longer be covered; reaching all of them covered ends the search. With a
button budget, a branch also ends when the cells still to cover cost more than the buttons left
even at the unused patches' best price per cell (a fractional knapsack: a fill's ``--budget``
with ``--require-bonus``, where only the cheapest sets of patches can complete a square).

The quilt (81 cells) is two ``uint64`` words. The search keeps its stack in arrays, so it
runs in slices of a node budget: the caller checks its clock and its stop flag between
slices, and as the kernel releases the GIL (``nogil``), a slice runs beside another search or a
CP-SAT solve on the other core. Compiled once, cached on disk (``cache=True``, in the per-user
cache directory ``patchwork_opt.jitcache`` sets before the first ``@njit``). Setting up a
search costs some 50 microseconds, its nodes well under one each: best fit's many small
lookahead covers and the bonus windows go through it too.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numba import njit

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.core.bitboard import CELLS, NOT_COL0, NOT_COL8
from patchwork_opt.core.catalogue import PATCHES, PLACEMENTS
from patchwork_opt.core.clock import Deadline
from solvers.search.problem import PackingProblem, PackResult
from solvers.symmetry import interchangeable_groups

_STRIDE = CELLS + 1  # offsets per slot: one per first cell, plus the end
_DEPTH = CELLS + 2  # each level settles at least one open cell
PAUSED, EXHAUSTED, REACHED = 0, 1, 2

# meta fields of the resumable state
_M_DEPTH, _M_BEST, _M_NODES, _M_BEST_LEN = 0, 1, 2, 3

# column masks as (low word, high word): module constants, frozen into the compiled code
_NC0_LO = np.uint64(NOT_COL0 & 0xFFFFFFFFFFFFFFFF)
_NC0_HI = np.uint64(NOT_COL0 >> 64)
_NC8_LO = np.uint64(NOT_COL8 & 0xFFFFFFFFFFFFFFFF)
_NC8_HI = np.uint64(NOT_COL8 >> 64)
# multipliers of the transposition table's hash
_K1 = np.uint64(0x9E3779B97F4A7C15)
_K2 = np.uint64(0xC2B2AE3D27D4EB4F)
_K3 = np.uint64(0x165667B19E3779F9)


@njit(cache=True, nogil=True)
def _popcount(x: np.uint64) -> np.int64:  # pragma: no cover - compiled
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, nogil=True)
def _highest(x: np.uint64) -> int:  # pragma: no cover - compiled
    """Index of the highest set bit of a non-zero word."""
    n = 0
    for step in (32, 16, 8, 4, 2, 1):
        if x >> np.uint64(step):
            x = x >> np.uint64(step)
            n += step
    return n


@njit(cache=True, nogil=True)
def _best_sum(lo: np.uint64, hi: np.uint64, room: int | np.int64) -> int:  # pragma: no cover - compiled
    """Largest subset sum <= room from a 128-bit set of sums (bit k: sum k reachable)."""
    if room >= 64:
        keep = room - 63  # bits 64..room of hi: room - 63 bits, at most 18
        h = hi & ((np.uint64(1) << np.uint64(keep)) - np.uint64(1))
        if h:
            return 64 + _highest(h)
        return _highest(lo) if lo else 0
    if room < 0:
        return 0
    m = lo if room == 63 else lo & ((np.uint64(1) << np.uint64(room + 1)) - np.uint64(1))
    return _highest(m) if m else 0


@njit(cache=True, nogil=True)
def _sums(unused: np.uint64, area: np.ndarray, n: int) -> tuple[np.uint64, np.uint64]:  # pragma: no cover
    """Subset sums of the areas of the slots in ``unused``, as a 128-bit set."""
    lo = np.uint64(1)
    hi = np.uint64(0)
    for s in range(n):
        if (unused >> np.uint64(s)) & np.uint64(1):
            a = np.uint64(area[s])
            hi = hi | (hi << a) | (lo >> (np.uint64(64) - a))
            lo = lo | (lo << a)
    return lo, hi


@njit(cache=True, nogil=True)
def _by_density(  # pragma: no cover - compiled
    unused: np.uint64, room: int | np.int64, dens: np.ndarray, area: np.ndarray, val: np.ndarray
) -> int:
    """Fractional knapsack of the slots in ``unused`` by value density within ``room`` cells:
    a bound on what they add when values are not areas (floored: the objective is whole)."""
    total = 0
    for i in range(dens.shape[0]):
        s = dens[i]
        if (unused >> np.uint64(s)) & np.uint64(1):
            a = area[s]
            if a <= room:
                total += val[s]
                room -= a
            else:
                total += val[s] * room // a
                break
    return total


@njit(cache=True, nogil=True)
def _components(lo: np.uint64, hi: np.uint64, comp_lo: np.ndarray, comp_hi: np.ndarray) -> int:  # pragma: no cover
    """Split the cells (lo, hi) into 4-connected parts; their count."""
    not_col0_lo = _NC0_LO
    not_col0_hi = _NC0_HI
    not_col8_lo = _NC8_LO
    not_col8_hi = _NC8_HI
    one = np.uint64(1)
    count = 0
    while lo or hi:
        if lo:
            g_lo = lo & (~lo + one)
            g_hi = np.uint64(0)
        else:
            g_lo = np.uint64(0)
            g_hi = hi & (~hi + one)
        while True:
            # east (+1), west (-1), south (+9), north (-9), across the two words
            e_lo = g_lo & not_col8_lo
            e_hi = g_hi & not_col8_hi
            w_lo = g_lo & not_col0_lo
            w_hi = g_hi & not_col0_hi
            n_lo = g_lo | (e_lo << one) | (w_lo >> one) | (w_hi << np.uint64(63))
            n_hi = g_hi | (e_hi << one) | (e_lo >> np.uint64(63)) | (w_hi >> one)
            n_lo |= (g_lo << np.uint64(9)) | (g_lo >> np.uint64(9)) | (g_hi << np.uint64(55))
            n_hi |= (g_hi << np.uint64(9)) | (g_lo >> np.uint64(55)) | (g_hi >> np.uint64(9))
            n_lo &= lo
            n_hi &= hi
            if n_lo == g_lo and n_hi == g_hi:
                break
            g_lo = n_lo
            g_hi = n_hi
        comp_lo[count] = g_lo
        comp_hi[count] = g_hi
        count += 1
        lo &= ~g_lo
        hi &= ~g_hi
    return count


@njit(cache=True, nogil=True)
def _cover_cost(  # pragma: no cover - compiled
    unused: np.uint64, left: int, cheap: np.ndarray, area: np.ndarray, cost: np.ndarray
) -> int:
    """The fewest buttons the ``unused`` patches could cover ``left`` more cells for, each cell at
    its patch's price per cell, cheapest first (a lower bound: a patch bought covers at most its
    area); more than any budget when they cannot cover that many."""
    one = np.uint64(1)
    spent = 0
    for k in range(cheap.shape[0]):
        s = cheap[k]
        if not (unused >> np.uint64(s)) & one:
            continue
        if area[s] >= left:
            return spent + (cost[s] * left + area[s] - 1) // area[s]
        spent += cost[s]
        left -= area[s]
    return 1 << 40


@njit(cache=True, nogil=True)
def _cover_cost_exact(  # pragma: no cover - compiled
    unused: np.uint64, left: int, cheap: np.ndarray, area: np.ndarray, cost: np.ndarray, dp: np.ndarray
) -> int:
    """The fewest buttons a set of ``unused`` patches costs whose areas add up to ``left`` at
    least (a 0/1 knapsack on ``dp``, scratch of ``left + 1`` entries at least)."""
    one = np.uint64(1)
    beyond = 1 << 40
    dp[0] = 0
    for a in range(1, left + 1):
        dp[a] = beyond
    for k in range(cheap.shape[0]):
        s = cheap[k]
        if not (unused >> np.uint64(s)) & one:
            continue
        w = area[s]
        c = cost[s]
        for a in range(left, 0, -1):
            b = a - w
            through = (dp[b] if b > 0 else 0) + c
            if through < dp[a]:
                dp[a] = through
    return dp[left]


@njit(cache=True, nogil=True)
def _used(chosen: np.ndarray, d: int, slot_of: np.ndarray) -> np.uint64:  # pragma: no cover - compiled
    """The slots placed on the path to depth ``d``."""
    used = np.uint64(0)
    for t in range(d):
        if chosen[t] >= 0:
            used |= np.uint64(1) << np.uint64(slot_of[chosen[t]])
    return used


@njit(cache=True, nogil=True)
def _is_excluded(chosen: np.ndarray, d: int, slot_of: np.ndarray, excluded: np.ndarray) -> bool:  # pragma: no cover
    """The slots placed on the path to depth ``d`` are one of the ``excluded`` sets."""
    used = _used(chosen, d, slot_of)
    for i in range(excluded.shape[0]):  # noqa: SIM110  (compiled: no generators)
        if excluded[i] == used:
            return True
    return False


@njit(cache=True, nogil=True)
def _run(  # pragma: no cover - compiled
    budget_nodes: int,
    upper: int,
    area: np.ndarray,
    val: np.ndarray,
    by_value: int,
    dens: np.ndarray,
    key_lo: np.uint64,
    key_hi: np.uint64,
    must: int,
    cost: np.ndarray,
    button_budget: int,
    cheap: np.ndarray,
    dp: np.ndarray,
    need: np.ndarray,
    order: np.ndarray,
    off: np.ndarray,
    pl_lo: np.ndarray,
    pl_hi: np.ndarray,
    pl_gain: np.ndarray,
    reg_lo: np.ndarray,
    reg_hi: np.ndarray,
    reg_fits: np.ndarray,
    witness: np.ndarray,
    st_lo: np.ndarray,
    st_hi: np.ndarray,
    st_unused: np.ndarray,
    st_value: np.ndarray,
    st_spent: np.ndarray,
    st_cell: np.ndarray,
    st_k: np.ndarray,
    st_j: np.ndarray,
    st_phase: np.ndarray,
    st_placed: np.ndarray,
    st_focus_lo: np.ndarray,
    st_focus_hi: np.ndarray,
    chosen: np.ndarray,
    best_chosen: np.ndarray,
    meta: np.ndarray,
    slot_of: np.ndarray,
    fit_buf: np.ndarray,
    fit_count: np.ndarray,
    list_src: np.ndarray,
    comp_lo: np.ndarray,
    comp_hi: np.ndarray,
    comp_fits: np.ndarray,
    tt_bits: int,
    tt_lo: np.ndarray,
    tt_hi: np.ndarray,
    tt_unused: np.ndarray,
    tt_gain: np.ndarray,
    tt_spent: np.ndarray,
    tt_used: np.ndarray,
    stop_flag: np.ndarray,
    excluded: np.ndarray,
) -> int:
    """Search on from the state in the stack arrays for at most ``budget_nodes`` nodes; PAUSED,
    EXHAUSTED or REACHED (``upper`` reached, or for cells to cover, all covered).

    Kept whole on purpose: the search is one loop over an explicit stack (``st_*``, by depth, a
    phase per level), so that it can pause after any node and resume in the next slice; a node
    costs well under a microsecond, and split into compiled helpers every step would pass
    dozens of these arrays down at every node. The bounds it calls (``_sums``, ``_by_density``,
    ``_components``, the cost bounds) are functions of their own.
    """
    n = area.shape[0]
    n_order = order.shape[0]
    n_reg = reg_lo.shape[0]
    n_pl = pl_lo.shape[0]
    one = np.uint64(1)
    done = 0
    d = meta[_M_DEPTH]
    best = meta[_M_BEST]
    while d >= 0:
        phase = st_phase[d]
        if phase == 0:
            if done >= budget_nodes or ((done & 1023) == 0 and stop_flag[0]):
                meta[_M_DEPTH] = d
                meta[_M_BEST] = best
                return PAUSED
            done += 1
            meta[_M_NODES] += 1
            value = st_value[d]
            if value > best and excluded.shape[0] and _is_excluded(chosen, d, slot_of, excluded):
                pass  # an excluded choice of patches: no packing to keep (what extends it may be)
            elif value > best:
                best = value
                length = 0
                for t in range(d):
                    if chosen[t] >= 0:
                        best_chosen[length] = chosen[t]
                        length += 1
                meta[_M_BEST_LEN] = length
                if best >= upper:
                    meta[_M_DEPTH] = -1
                    meta[_M_BEST] = best
                    return REACHED
            lo = st_lo[d]
            hi = st_hi[d]
            unused = st_unused[d]
            if (lo == 0 and hi == 0) or unused == 0:
                d -= 1
                continue
            room = _popcount(lo) + _popcount(hi)
            if by_value:
                ahead = _by_density(unused, room, dens, area, val)
            else:
                s_lo, s_hi = _sums(unused, area, n)
                ahead = _best_sum(s_lo, s_hi, room)
            if must:
                ahead = min(ahead, int(_popcount(lo & key_lo) + _popcount(hi & key_hi)))
            if value + ahead <= best:
                d -= 1
                continue
            fitting = np.uint64(0)
            n_comp = 0
            if st_placed[d]:
                # cells no unused patch can cover are left empty; patches fitting nowhere drop out
                c_lo = np.uint64(0)
                c_hi = np.uint64(0)
                n_fit = 0
                base = d * n_pl
                src = list_src[d - 1] if d > 0 else -1
                if src < 0:
                    for s in range(n):
                        if not (unused >> np.uint64(s)) & one:
                            continue
                        for p in range(off[s * _STRIDE], off[s * _STRIDE + CELLS]):
                            if (pl_lo[p] & ~lo) == 0 and (pl_hi[p] & ~hi) == 0:
                                c_lo |= pl_lo[p]
                                c_hi |= pl_hi[p]
                                fitting |= one << np.uint64(s)
                                fit_buf[base + n_fit] = p
                                n_fit += 1
                else:
                    # only what fitted at the nearest ancestor that listed it can fit now
                    src_base = src * n_pl
                    for t in range(fit_count[src]):
                        p = fit_buf[src_base + t]
                        if (pl_lo[p] & ~lo) == 0 and (pl_hi[p] & ~hi) == 0:
                            bit = one << np.uint64(slot_of[p])
                            if unused & bit:
                                c_lo |= pl_lo[p]
                                c_hi |= pl_hi[p]
                                fitting |= bit
                                fit_buf[base + n_fit] = p
                                n_fit += 1
                fit_count[d] = n_fit
                list_src[d] = d
                lo &= c_lo
                hi &= c_hi
                st_lo[d] = lo
                st_hi[d] = hi
                if lo == 0 and hi == 0:
                    d -= 1
                    continue
                room = _popcount(lo) + _popcount(hi)
                # the open cells' connected parts now, and the patches fitting inside each
                n_comp = _components(lo, hi, comp_lo, comp_hi)
                # the smallest part is settled first: a tight pocket decides more than open space
                f_lo = np.uint64(0)
                f_hi = np.uint64(0)
                if n_comp > 1:
                    small = np.int64(CELLS + 1)
                    for c in range(n_comp):
                        size = _popcount(comp_lo[c]) + _popcount(comp_hi[c])
                        if size < small:
                            small = size
                            f_lo = comp_lo[c]
                            f_hi = comp_hi[c]
                    for c in range(n_comp):
                        comp_fits[c] = 0
                    for t in range(n_fit):
                        p = fit_buf[base + t]
                        for c in range(n_comp):
                            if (pl_lo[p] & comp_lo[c]) or (pl_hi[p] & comp_hi[c]):
                                comp_fits[c] |= one << np.uint64(slot_of[p])
                                break
                st_focus_lo[d] = f_lo
                st_focus_hi[d] = f_hi
            else:
                list_src[d] = list_src[d - 1] if d > 0 else -1
                st_focus_lo[d] = st_focus_lo[d - 1] & lo
                st_focus_hi[d] = st_focus_hi[d - 1] & hi
                for s in range(n):
                    if not (unused >> np.uint64(s)) & one:
                        continue
                    w = witness[s]
                    if w >= 0 and (pl_lo[w] & ~lo) == 0 and (pl_hi[w] & ~hi) == 0:
                        fitting |= one << np.uint64(s)
                        continue
                    for p in range(off[s * _STRIDE], off[s * _STRIDE + CELLS]):
                        if (pl_lo[p] & ~lo) == 0 and (pl_hi[p] & ~hi) == 0:
                            witness[s] = p
                            fitting |= one << np.uint64(s)
                            break
            unused = fitting
            st_unused[d] = unused
            if unused == 0:
                d -= 1
                continue
            if tt_bits:
                # seen before (the same open cells and patches, reached another way)?
                h = ((lo * _K1) ^ (hi * _K2) ^ (unused * _K3)) >> np.uint64(64 - tt_bits)
                if (
                    tt_unused[h] == unused and tt_lo[h] == lo and tt_hi[h] == hi and value + tt_gain[h] <= best
                    and (button_budget < 0 or tt_spent[h] <= st_spent[d])
                    and (excluded.shape[0] == 0 or tt_used[h] == _used(chosen, d, slot_of))
                ):
                    d -= 1
                    continue
            if by_value:
                bound = _by_density(unused, room, dens, area, val)
                if n_comp > 1:
                    # part by part (a patch may count in several parts: still a bound)
                    by_part = 0
                    for c in range(n_comp):
                        size = _popcount(comp_lo[c]) + _popcount(comp_hi[c])
                        by_part += _by_density(comp_fits[c], size, dens, area, val)
                    bound = min(bound, by_part)
                elif n_reg > 1:
                    by_region = 0
                    for r in range(n_reg):
                        cells = _popcount(lo & reg_lo[r]) + _popcount(hi & reg_hi[r])
                        if cells:
                            by_region += _by_density(unused & reg_fits[r], cells, dens, area, val)
                    bound = min(bound, by_region)
            else:
                s_lo, s_hi = _sums(unused, area, n)
                bound = _best_sum(s_lo, s_hi, room)
                if n_comp > 1:
                    # part by part: a pocket smaller than what fits it wastes cells
                    by_part = 0
                    for c in range(n_comp):
                        r_lo, r_hi = _sums(comp_fits[c], area, n)
                        by_part += _best_sum(r_lo, r_hi, _popcount(comp_lo[c]) + _popcount(comp_hi[c]))
                    # the cells coverable all told, and a sum of the unused patches' areas within them
                    if by_part < bound:
                        bound = _best_sum(s_lo, s_hi, by_part)
                elif n_reg > 1:
                    by_region = 0
                    for r in range(n_reg):
                        cells = _popcount(lo & reg_lo[r]) + _popcount(hi & reg_hi[r])
                        if cells:
                            r_lo, r_hi = _sums(unused & reg_fits[r], area, n)
                            by_region += _best_sum(r_lo, r_hi, cells)
                    if by_region < bound:
                        bound = _best_sum(s_lo, s_hi, by_region)
            if must:
                # a cell to cover that nothing can cover any more ends the branch
                bound = min(bound, int(_popcount(lo & key_lo) + _popcount(hi & key_hi)))
            if value + bound <= best:
                d -= 1
                continue
            if must and button_budget >= 0 and (
                st_spent[d] + _cover_cost(unused, best + 1 - value, cheap, area, cost) > button_budget
                or st_spent[d] + _cover_cost_exact(unused, best + 1 - value, cheap, area, cost, dp) > button_budget
            ):
                # the cells still to cover cost more than the buttons left
                d -= 1
                continue
            # the lowest open cell of the part in focus, else of the first region (smallest
            # first) with open cells
            m_lo = st_focus_lo[d] & lo & key_lo
            m_hi = st_focus_hi[d] & hi & key_hi
            if not (m_lo or m_hi):
                for r in range(n_reg):
                    m_lo = lo & reg_lo[r] & key_lo
                    m_hi = hi & reg_hi[r] & key_hi
                    if m_lo or m_hi:
                        break
            cell = _popcount((m_lo & (~m_lo + one)) - one) if m_lo else 64 + _popcount((m_hi & (~m_hi + one)) - one)
            st_cell[d] = cell
            st_k[d] = 0
            st_j[d] = off[order[0] * _STRIDE + cell] if n_order else 0
            st_phase[d] = 1
            phase = 1
        if phase == 1:
            lo = st_lo[d]
            hi = st_hi[d]
            unused = st_unused[d]
            cell = st_cell[d]
            spent = st_spent[d]
            pushed = False
            while st_k[d] < n_order:
                s = order[st_k[d]]
                ok = ((unused >> np.uint64(s)) & one) != 0
                if ok and need[s] >= 0 and ((unused >> np.uint64(need[s])) & one) != 0:
                    ok = False  # its twin first
                if ok and button_budget >= 0 and spent + cost[s] > button_budget:
                    ok = False
                if ok:
                    end = off[s * _STRIDE + cell + 1]
                    while st_j[d] < end:
                        p = st_j[d]
                        st_j[d] = p + 1
                        if (pl_lo[p] & ~lo) == 0 and (pl_hi[p] & ~hi) == 0:
                            chosen[d] = p
                            st_lo[d + 1] = lo & ~pl_lo[p]
                            st_hi[d + 1] = hi & ~pl_hi[p]
                            st_unused[d + 1] = unused & ~(one << np.uint64(s))
                            st_value[d + 1] = st_value[d] + pl_gain[p]
                            st_spent[d + 1] = spent + cost[s]
                            st_placed[d + 1] = 1
                            st_phase[d + 1] = 0
                            pushed = True
                            break
                    if pushed:
                        break
                st_k[d] += 1
                if st_k[d] < n_order:
                    st_j[d] = off[order[st_k[d]] * _STRIDE + cell]
            if pushed:
                d += 1
                continue
            st_phase[d] = 2
            chosen[d] = -1
        if phase == 1 and not must:
            # leave the cell empty (a cell to cover never is)
            lo = st_lo[d]
            hi = st_hi[d]
            cell = st_cell[d]
            if cell < 64:
                st_lo[d + 1] = lo & ~(one << np.uint64(cell))
                st_hi[d + 1] = hi
            else:
                st_lo[d + 1] = lo
                st_hi[d + 1] = hi & ~(one << np.uint64(cell - 64))
            st_unused[d + 1] = st_unused[d]
            st_value[d + 1] = st_value[d]
            st_spent[d + 1] = st_spent[d]
            st_placed[d + 1] = 0
            st_phase[d + 1] = 0
            d += 1
            continue
        # phase 2: both branches done; from this state nothing adds more than best - value
        if tt_bits:
            lo = st_lo[d]
            hi = st_hi[d]
            unused = st_unused[d]
            h = ((lo * _K1) ^ (hi * _K2) ^ (unused * _K3)) >> np.uint64(64 - tt_bits)
            tt_lo[h] = lo
            tt_hi[h] = hi
            tt_unused[h] = unused
            tt_gain[h] = best - st_value[d]
            tt_spent[h] = st_spent[d]
            if excluded.shape[0]:
                tt_used[h] = _used(chosen, d, slot_of)
        d -= 1
    meta[_M_DEPTH] = -1
    meta[_M_BEST] = best
    return EXHAUSTED


def _split(mask: int) -> tuple[int, int]:
    return mask & 0xFFFFFFFFFFFFFFFF, mask >> 64


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every patch's placements on an empty quilt, patch by patch, each sorted by first cell:
    (start of each patch's run, first cell, low word, high word)."""
    starts = [0]
    firsts: list[int] = []
    los: list[int] = []
    his: list[int] = []
    for masks in PLACEMENTS:
        for m in sorted(masks, key=lambda m: (m & -m)):
            firsts.append((m & -m).bit_length() - 1)
            lo, hi = _split(m)
            los.append(lo)
            his.append(hi)
        starts.append(len(firsts))
    return (
        np.array(starts, dtype=np.int64),
        np.array(firsts, dtype=np.int64),
        np.array(los, dtype=np.uint64),
        np.array(his, dtype=np.uint64),
    )


_T_START, _T_FIRST, _T_LO, _T_HI = _tables()


_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_NONE = np.zeros(0, dtype=np.int64)
_BITWISE_COUNT: Callable[[np.ndarray], np.ndarray] | None = getattr(np, "bitwise_count", None)


@dataclass(frozen=True)
class _Shape:
    """What the search needs of a list of patches and their values, whatever the cells: the
    placements on an empty quilt slot by slot, and per slot its area, value, cost, the twin
    to place first, and the branching and density orders (slots worth placing only), and
    all slots by price per cell (``cheap``: the cost bound of a cover under a budget)."""

    slot_of: np.ndarray
    first: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    area: np.ndarray
    val: np.ndarray
    cost: np.ndarray
    cheap: np.ndarray
    need: np.ndarray
    order: np.ndarray
    dens: np.ndarray
    by_value: int
    worth: int  # bit per slot worth placing


@lru_cache(maxsize=256)
def _shape(ids: tuple[int, ...], values: tuple[int, ...] | None, by_cost: bool, cover: bool) -> _Shape:
    n = len(ids)
    problem = PackingProblem(1, ids, values, 0 if by_cost else None, 1 if cover else 0)
    rows = np.concatenate([np.arange(_T_START[pid], _T_START[pid + 1]) for pid in ids]) if n else _NONE
    slot_of = np.repeat(np.arange(n, dtype=np.int64), [_T_START[pid + 1] - _T_START[pid] for pid in ids])
    areas = [PATCHES[pid].area for pid in ids]
    worth = [problem.value(s) for s in range(n)]
    need = [-1] * n
    for group in interchangeable_groups(ids):
        while group:
            same = [s for s in group if problem.interchangeable(group[0], s)]
            for before, after in itertools.pairwise(same):
                need[after] = before
            group = [s for s in group if s not in same]
    usable = [s for s in range(n) if cover or worth[s] > 0]
    bits = 0
    for s in usable:
        bits |= 1 << s
    return _Shape(
        slot_of=slot_of,
        first=_T_FIRST[rows],
        lo=_T_LO[rows],
        hi=_T_HI[rows],
        area=np.array(areas, dtype=np.int64),
        val=np.array(worth, dtype=np.int64),
        cost=np.array([PATCHES[pid].cost for pid in ids], dtype=np.int64),
        cheap=np.array(sorted(range(n), key=lambda s: (PATCHES[ids[s]].cost / areas[s], s)), dtype=np.int64),
        need=np.array(need, dtype=np.int64),
        order=np.array(sorted(usable, key=lambda s: (-areas[s], -worth[s], s)), dtype=np.int64),
        dens=np.array(sorted(usable, key=lambda s: (-worth[s] / areas[s], s)), dtype=np.int64),
        by_value=0 if cover or problem.by_area else 1,
        worth=bits,
    )


def _unlinked(need: np.ndarray, exclude: Sequence[int]) -> np.ndarray:
    """``need`` (each twin's twin to place first) without the groups of twins an excluded set
    splits. Placing twins in slot order keeps one packing of each class of packings equal up
    to swapping twins; a set with some twins of a group but not all is alone in its class no
    longer, and excluding it must not exclude the rest of its class with it."""
    if not exclude:
        return need
    group = list(range(len(need)))  # each slot's first twin
    for s, before in enumerate(need.tolist()):
        if before >= 0:
            group[s] = group[before]
    split = {group[s] for s in range(len(need)) for e in exclude
             if any(group[t] == group[s] and (e >> t & 1) != (e >> s & 1) for t in range(len(need)))}
    return np.array([-1 if group[s] in split else b for s, b in enumerate(need.tolist())], dtype=np.int64)


def _parts(free: int, regions: Sequence[int], cover: int) -> list[int]:
    """The order cells are settled in: the given regions within the free cells, smallest first,
    then the rest (one part when there are no regions, or cells to cover)."""
    parts = [] if cover else sorted((r & free for r in regions if r & free), key=lambda r: (r.bit_count(), r & -r))
    rest = free
    for r in parts:
        rest &= ~r
    if rest or not parts:
        parts.append(rest)
    return parts


class Packer:
    """The packing search on one ``PackingProblem``: best packing, or a cover of its cells.

    ``upper`` is a proven bound on the value (the search stops as soon as it is reached;
    by default the values of all the patches); ``regions`` (disjoint masks, for instance the
    connected parts of the free cells) set the cell order and the per-region bound;
    ``incumbent`` is a packing to beat. A problem with cells to cover branches on those
    cells only (each covered by a placement whose first such cell it is, never left empty)
    and asks whether all can be covered: ``upper`` and ``incumbent`` do not apply.
    ``run`` may be called again after it returns unexhausted, and goes on where it stopped.
    """

    def __init__(
        self,
        problem: PackingProblem,
        *,
        upper: int | None = None,
        regions: Sequence[int] = (),
        incumbent: PackResult | None = None,
        table_bits: int = 0,
    ) -> None:
        self.problem = problem
        cover = problem.cover
        shape = _shape(problem.patch_ids, problem.values, problem.budget is not None, bool(cover))
        counts = self._index_placements(shape)
        self._index_regions(_parts(problem.free, regions, cover))
        self._area, self._val, self._cost = shape.area, shape.val, shape.cost
        self._need = _unlinked(shape.need, problem.exclude)
        self._excluded = np.array(problem.exclude, dtype=np.uint64)
        self._cheap = shape.cheap
        self._dp = np.zeros(CELLS + 1, dtype=np.int64)  # scratch of the cost bound
        self._order, self._dens, self._by_value = shape.order, shape.dens, shape.by_value
        key_lo, key_hi = (np.uint64(x) for x in _split(cover))
        self._key_lo, self._key_hi = (key_lo, key_hi) if cover else (_ALL, _ALL)
        self._must = 1 if cover else 0
        self._budget = -1 if problem.budget is None else problem.budget
        n = len(problem.patch_ids)
        # slots worth placing (in ``order``) with a placement inside the free cells
        placed = np.flatnonzero(np.add.reduceat(counts, np.arange(0, n * _STRIDE, _STRIDE))) if n else _NONE
        unused = 0
        for slot in placed.tolist():
            if shape.worth >> slot & 1:
                unused |= 1 << slot
        if cover:
            upper = cover.bit_count()
            incumbent = PackResult(value=upper - 1)  # only a full cover beats it
        elif upper is None:
            upper = sum(int(shape.val[s]) for s in range(n) if unused >> s & 1)
        self._upper = upper
        self._witness = np.full(n, -1, dtype=np.int64)
        self._allocate_stack()
        self._tt_bits = 0
        self._tt_lo = self._tt_hi = self._tt_unused = np.zeros(1, dtype=np.uint64)
        self._tt_gain = self._tt_spent = np.zeros(1, dtype=np.int64)
        self._tt_used = np.zeros(1, dtype=np.uint64)
        self.use_table(table_bits)
        self._stop = np.zeros(1, dtype=np.int64)  # set from another thread: the kernel pauses
        self._start(unused, incumbent if incumbent is not None else PackResult(value=0))

    def _index_placements(self, shape: _Shape) -> np.ndarray:
        """Every placement of every slot inside the free cells, slot by slot, by the cell it
        settles (its first cell, or with cells to cover its first cell to cover), with what it
        gains and the offsets of each (slot, cell) run; the count of each run."""
        free, cover = self.problem.free, self.problem.cover
        free_lo, free_hi = (np.uint64(x) for x in _split(free))
        lo, hi = shape.lo, shape.hi
        inside = ((lo & ~free_lo) == 0) & ((hi & ~free_hi) == 0)
        if cover:
            key_lo, key_hi = (np.uint64(x) for x in _split(cover))
            inside &= ((lo & key_lo) | (hi & key_hi)) != 0
        lo, hi, slot_of = lo[inside], hi[inside], shape.slot_of[inside]
        if cover:
            k_lo, k_hi = lo & key_lo, hi & key_hi
            first = np.where(k_lo != 0, _low_index(k_lo), 64 + _low_index(k_hi))
            ordering = np.lexsort((first, slot_of))
            first, lo, hi, slot_of = first[ordering], lo[ordering], hi[ordering], slot_of[ordering]
            # worth the cells to cover it covers: all covered is the value to reach
            self._pl_gain = _popcount_array(lo & key_lo) + _popcount_array(hi & key_hi)
        else:
            first = shape.first[inside]
            self._pl_gain = shape.val[slot_of]
        n = len(self.problem.patch_ids)
        counts = np.bincount(slot_of * _STRIDE + first, minlength=n * _STRIDE)
        off = np.zeros(n * _STRIDE + 1, dtype=np.int64)
        np.cumsum(counts, out=off[1:])
        self._off = off
        self._pl_lo = lo
        self._pl_hi = hi
        self._slot_of = slot_of
        return counts

    def _index_regions(self, parts: list[int]) -> None:
        """The regions as word pairs, and per region the slots with a placement inside it."""
        lo, hi, slot_of = self._pl_lo, self._pl_hi, self._slot_of
        reg_fits = []
        for r in parts if len(parts) > 1 else ():  # one region: its fits are never read
            r_lo, r_hi = (np.uint64(x) for x in _split(r))
            inside = ((lo & ~r_lo) == 0) & ((hi & ~r_hi) == 0)
            fits = 0
            for slot in np.unique(slot_of[inside]):
                fits |= 1 << int(slot)
            reg_fits.append(fits)
        self._reg_lo = np.array([_split(r)[0] for r in parts], dtype=np.uint64)
        self._reg_hi = np.array([_split(r)[1] for r in parts], dtype=np.uint64)
        self._reg_fits = np.array(reg_fits or [0], dtype=np.uint64)

    def _allocate_stack(self) -> None:
        """The search's stack and scratch: two blocks (one allocation each), one row a field."""
        words = np.zeros((8, _DEPTH), dtype=np.uint64)
        (self._st_lo, self._st_hi, self._st_unused, self._st_focus_lo, self._st_focus_hi,
         self._comp_lo, self._comp_hi, self._comp_fits) = words  # _DEPTH >= CELLS parts
        ints = np.zeros((12, _DEPTH), dtype=np.int64)
        (self._st_value, self._st_spent, self._st_cell, self._st_k, self._st_j, self._st_phase,
         self._st_placed, self._chosen, self._best_chosen, self._fit_count, self._list_src, meta) = ints
        self._chosen[:] = -1
        self._best_chosen[:] = -1
        self._list_src[:] = -1
        self._meta = meta[:4]
        # per depth, the placements that fitted there (a child scans its ancestor's list only)
        self._fit_buf = np.empty(max(1, _DEPTH * len(self._pl_lo)), dtype=np.int64)

    def _start(self, unused: int, incumbent: PackResult) -> None:
        """The root: all free cells open, the ``unused`` slots available, ``incumbent`` to beat."""
        self._incumbent = incumbent
        free_lo, free_hi = (np.uint64(x) for x in _split(self.problem.free))
        self._st_lo[0] = free_lo
        self._st_hi[0] = free_hi
        self._st_unused[0] = np.uint64(unused)
        self._st_placed[0] = 1
        self._meta[_M_BEST] = self._incumbent.value
        self._meta[_M_BEST_LEN] = -1  # the incumbent's own placements
        self._meta[_M_DEPTH] = 0 if self._incumbent.value < self._upper else -1
        self._status = PAUSED if self._meta[_M_DEPTH] == 0 else REACHED

    def use_table(self, bits: int) -> None:
        """A transposition table of ``2**bits`` states (0: none): a state already searched
        (the same open cells and unused patches, reached by other placements) is cut when
        what it was found to add cannot beat the best. It can be switched on or resized
        between runs (a larger table keeps the entries of the smaller one): its 40 bytes an
        entry are worth it once a search is known not to be trivial. Under a button budget an
        entry also keeps the buttons spent on reaching it (the patches left do not tell them: a
        patch that fits nowhere leaves the set, used or not) and cuts the state reached again
        only at that spending or more, which allows no more. With sets to exclude, an entry also
        keeps the patches placed on reaching it, and cuts only a state reached with the same: whether
        a packing is excluded depends on all it placed, which the patches left do not tell either."""
        if not 0 <= bits <= 24:
            raise ValueError("table bits: 0 (no table) to 24")
        old_bits = self._tt_bits
        if old_bits:
            kept = np.nonzero(self._tt_unused)[0]
            old = (self._tt_lo[kept], self._tt_hi[kept], self._tt_unused[kept], self._tt_gain[kept],
                   self._tt_spent[kept], self._tt_used[kept] if self.problem.exclude else None)
        size = 1 << bits if bits else 1
        self._tt_bits = bits
        self._tt_lo = np.empty(size, dtype=np.uint64)
        self._tt_hi = np.empty(size, dtype=np.uint64)
        self._tt_unused = np.zeros(size, dtype=np.uint64)  # 0: an empty entry (never a key)
        self._tt_gain = np.empty(size, dtype=np.int64)
        self._tt_spent = np.empty(size, dtype=np.int64)
        self._tt_used = np.zeros(size if self.problem.exclude else 1, dtype=np.uint64)
        if old_bits and bits > old_bits:
            lo, hi, unused, gain, spent, used = old
            at = ((lo * _K1) ^ (hi * _K2) ^ (unused * _K3)) >> np.uint64(64 - bits)  # the kernel's hash
            self._tt_lo[at] = lo
            self._tt_hi[at] = hi
            self._tt_unused[at] = unused
            self._tt_gain[at] = gain
            self._tt_spent[at] = spent
            if used is not None:
                self._tt_used[at] = used

    def tighten(self, upper: int) -> None:
        """A better proven bound (the search stops as soon as it is reached)."""
        self._upper = min(self._upper, upper)
        if self._status == PAUSED and self._meta[_M_BEST] >= self._upper:
            self._status = REACHED

    def request_stop(self) -> None:
        """Make a ``run`` in another thread, and every later one, return within about a
        thousand nodes: the compiled kernel reads this flag itself, so that run can be one
        long slice that never needs the GIL."""
        self._stop[0] = 1

    @property
    def finished(self) -> bool:
        return self._status != PAUSED

    def run(
        self,
        node_limit: int = 10**12,
        deadline: Deadline | None = None,
        stop: Callable[[], bool] | None = None,
        slice_nodes: int = 5_000,
    ) -> PackResult:
        """Search on until exhausted, ``upper`` reached, ``node_limit`` more nodes, the
        deadline or ``stop()``; the best packing so far (proven optimal when exhausted). The
        deadline and ``stop`` are read between slices of ``slice_nodes`` nodes."""
        left = node_limit
        while self._status == PAUSED and left > 0 and not self._stop[0]:
            if deadline is not None and deadline.expired():
                break
            if stop is not None and stop():
                break
            chunk = min(slice_nodes, left)
            before = int(self._meta[_M_NODES])
            self._status = _run(
                chunk, self._upper, self._area, self._val, self._by_value, self._dens,
                self._key_lo, self._key_hi, self._must, self._cost, self._budget, self._cheap, self._dp, self._need,
                self._order,
                self._off, self._pl_lo, self._pl_hi, self._pl_gain, self._reg_lo, self._reg_hi, self._reg_fits,
                self._witness,
                self._st_lo, self._st_hi, self._st_unused, self._st_value, self._st_spent, self._st_cell,
                self._st_k, self._st_j, self._st_phase, self._st_placed, self._st_focus_lo, self._st_focus_hi,
                self._chosen, self._best_chosen,
                self._meta, self._slot_of, self._fit_buf, self._fit_count, self._list_src,
                self._comp_lo, self._comp_hi, self._comp_fits,
                self._tt_bits, self._tt_lo, self._tt_hi, self._tt_unused, self._tt_gain, self._tt_spent,
                self._tt_used, self._stop, self._excluded,
            )
            left -= int(self._meta[_M_NODES]) - before
        return self.result()

    def result(self) -> PackResult:
        value = int(self._meta[_M_BEST])
        length = int(self._meta[_M_BEST_LEN])
        if length < 0:
            placements = list(self._incumbent.placements)
        else:
            placements = [
                (int(self._slot_of[p]), int(self._pl_lo[p]) | int(self._pl_hi[p]) << 64)
                for p in (int(x) for x in self._best_chosen[:length])
            ]
        exhausted = self._status != PAUSED
        covered = None
        if self._must:
            covered = self._status == REACHED if exhausted else None
            if not covered:
                value, placements = 0, []
            else:
                value = sum(mask.bit_count() for _, mask in placements)
        return PackResult(
            value=value,
            placements=placements,
            exhausted=exhausted,
            nodes=int(self._meta[_M_NODES]),
            covered=covered,
        )


def _low_index(words: np.ndarray) -> np.ndarray:
    """Index of the lowest set bit of each non-zero word (anything for zero)."""
    low = words & (~words + np.uint64(1))
    return _popcount_array(low - np.uint64(1))


def _popcount_array(words: np.ndarray) -> np.ndarray:
    if _BITWISE_COUNT is not None:  # numpy 2
        return np.asarray(_BITWISE_COUNT(words), dtype=np.int64)
    x = words.astype(np.uint64)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return ((x * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.int64)


def pack(
    problem: PackingProblem,
    *,
    upper: int | None = None,
    regions: Sequence[int] = (),
    incumbent: PackResult | None = None,
    node_limit: int = 10**12,
    deadline: Deadline | None = None,
    table_bits: int = 0,
) -> PackResult:
    """One call of the search (see ``Packer``): the best packing, or whether the cells to
    cover can be covered (``covered``: True, False, or None when the limits came first)."""
    packer = Packer(problem, upper=upper, regions=regions, incumbent=incumbent, table_bits=table_bits)
    return packer.run(node_limit=node_limit, deadline=deadline)


def warm_up() -> None:
    """Compile (or load the cached compilation) before anything is timed."""
    pack(PackingProblem(0b111, (0,)), upper=2)
