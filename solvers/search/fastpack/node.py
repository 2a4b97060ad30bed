"""A new node of the packing search, compiled: its open cells pruned, its bounds, the cell it settles.

The loop (``loop.run``) counts a node it has just reached, keeps its value when it is the best,
then cuts it or readies its children with these kernels, in order: a quick bound from the open
cells' count (``quick_cut``); after a placement, the open cells no unused patch can cover are left
empty and the patches that fit nowhere drop out (``settle``), and the open cells are split into
their connected parts, the smallest put in focus (``focus_parts``); without one, the patches that
still fit are checked against a placement known to fit (``still_fitting``); the transposition table
(``seen``); the bound part by part or region by region (``bound``) and, for cells to cover under a
button budget, their cost (``too_dear``); last the cell to settle (``ready``, by ``first_cell``).
Each is inlined into the loop (``inline="always"``): it reads the state's fields as the one long
kernel did, and costs no call of its own. The loop calls each itself rather than through one
kernel holding them all: Numba copies an inlined function's code once per block with every
variable of it, so inlining the whole sequence as one function cost 2.5 of the first compile's 14
CPU-seconds, inlining its parts one by one 0.9 (measured).
"""

from __future__ import annotations

import numpy as np
from numba import njit

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.core.bitboard import CELLS
from patchwork_opt.core.bitwords import popcount
from solvers.search.fastpack.bounds import best_sum, by_density, cover_cost, cover_cost_exact, sums
from solvers.search.fastpack.cells import components, lowest_cell
from solvers.search.fastpack.state import STRIDE, Instance, Memo, Stack, memo_slot_compiled


@njit(inline="always")
def used_slots(p: Instance, s: Stack, d: int) -> np.uint64:  # pragma: no cover - compiled
    """The slots placed on the path to depth ``d``."""
    used = np.uint64(0)
    for t in range(d):
        if s.chosen[t] >= 0:
            used |= np.uint64(1) << np.uint64(p.slot_of[s.chosen[t]])
    return used


@njit(inline="always")
def is_excluded(p: Instance, s: Stack, d: int) -> bool:  # pragma: no cover - compiled
    """The slots placed on the path to depth ``d`` are one of the excluded sets."""
    used = used_slots(p, s, d)
    for i in range(p.excluded.shape[0]):  # noqa: SIM110  (compiled: no generators)
        if p.excluded[i] == used:
            return True
    return False


@njit(inline="always")
def quick_cut(p: Instance, lo: int, hi: int, unused: np.uint64, value: int, best: int) -> bool:  # pragma: no cover
    """Nothing left to place, or what the unused patches add within all the open cells (and the
    cells to cover left) cannot beat the best."""
    if (lo == 0 and hi == 0) or unused == 0:
        return True
    room = popcount(lo) + popcount(hi)
    if p.by_value:
        ahead = by_density(unused, room, p.dens, p.area, p.val)
    else:
        s_lo, s_hi = sums(unused, p.area, p.area.shape[0])
        ahead = best_sum(s_lo, s_hi, room)
    if p.must:
        ahead = min(ahead, int(popcount(lo & p.key_lo) + popcount(hi & p.key_hi)))
    return value + ahead <= best


@njit(inline="always")
def settle(  # pragma: no cover - compiled
    p: Instance, s: Stack, d: int, lo: int, hi: int, unused: np.uint64
) -> tuple[np.uint64, int]:
    """After a placement: list the placements of unused slots that fit the open cells (from the
    nearest ancestor's list when there is one), leave empty the cells none covers (``s.lo[d]``,
    ``s.hi[d]``); the slots that still fit, and the count of placements listed."""
    one = np.uint64(1)
    n_pl = p.pl_lo.shape[0]
    c_lo = 0
    c_hi = 0
    fitting = np.uint64(0)
    n_fit = 0
    base = d * n_pl
    src = s.list_src[d - 1] if d > 0 else -1
    if src < 0:
        for slot in range(p.area.shape[0]):
            if not (unused >> np.uint64(slot)) & one:
                continue
            for q in range(p.off[slot * STRIDE], p.off[slot * STRIDE + CELLS]):
                if (p.pl_lo[q] & ~lo) == 0 and (p.pl_hi[q] & ~hi) == 0:
                    c_lo |= p.pl_lo[q]
                    c_hi |= p.pl_hi[q]
                    fitting |= one << np.uint64(slot)
                    s.fit_buf[base + n_fit] = q
                    n_fit += 1
    else:
        # only what fitted at the nearest ancestor that listed it can fit now
        src_base = src * n_pl
        for t in range(s.fit_count[src]):
            q = s.fit_buf[src_base + t]
            if (p.pl_lo[q] & ~lo) == 0 and (p.pl_hi[q] & ~hi) == 0:
                bit = one << np.uint64(p.slot_of[q])
                if unused & bit:
                    c_lo |= p.pl_lo[q]
                    c_hi |= p.pl_hi[q]
                    fitting |= bit
                    s.fit_buf[base + n_fit] = q
                    n_fit += 1
    s.fit_count[d] = n_fit
    s.list_src[d] = d
    s.lo[d] = lo & c_lo
    s.hi[d] = hi & c_hi
    return fitting, n_fit


@njit(inline="always")
def focus_parts(p: Instance, s: Stack, d: int, n_fit: int) -> int:  # pragma: no cover - compiled
    """The open cells' connected parts (``s.comp_*``), the slots fitting inside each and the
    smallest part in focus: a tight pocket decides more than open space. Their count."""
    one = np.uint64(1)
    n_comp = components(s.lo[d], s.hi[d], s.comp_lo, s.comp_hi)
    f_lo = 0
    f_hi = 0
    if n_comp > 1:
        small = CELLS + 1
        for c in range(n_comp):
            size = popcount(s.comp_lo[c]) + popcount(s.comp_hi[c])
            if size < small:
                small = size
                f_lo = s.comp_lo[c]
                f_hi = s.comp_hi[c]
        for c in range(n_comp):
            s.comp_fits[c] = 0
        base = d * p.pl_lo.shape[0]
        for t in range(n_fit):
            q = s.fit_buf[base + t]
            for c in range(n_comp):
                if (p.pl_lo[q] & s.comp_lo[c]) or (p.pl_hi[q] & s.comp_hi[c]):
                    s.comp_fits[c] |= one << np.uint64(p.slot_of[q])
                    break
    s.focus_lo[d] = f_lo
    s.focus_hi[d] = f_hi
    return n_comp


@njit(inline="always")
def still_fitting(p: Instance, s: Stack, d: int, lo: int, hi: int, unused: np.uint64) -> np.uint64:  # pragma: no cover
    """After a cell left empty: the unused slots with a placement still inside the open cells
    (the one that fitted last time first), the part in focus and the ancestor's list carried."""
    one = np.uint64(1)
    s.list_src[d] = s.list_src[d - 1] if d > 0 else -1
    s.focus_lo[d] = s.focus_lo[d - 1] & lo
    s.focus_hi[d] = s.focus_hi[d - 1] & hi
    fitting = np.uint64(0)
    for slot in range(p.area.shape[0]):
        if not (unused >> np.uint64(slot)) & one:
            continue
        w = s.witness[slot]
        if w >= 0 and (p.pl_lo[w] & ~lo) == 0 and (p.pl_hi[w] & ~hi) == 0:
            fitting |= one << np.uint64(slot)
            continue
        for q in range(p.off[slot * STRIDE], p.off[slot * STRIDE + CELLS]):
            if (p.pl_lo[q] & ~lo) == 0 and (p.pl_hi[q] & ~hi) == 0:
                s.witness[slot] = q
                fitting |= one << np.uint64(slot)
                break
    return fitting


@njit(inline="always")
def seen(p: Instance, s: Stack, m: Memo, d: int, value: int, best: int) -> bool:  # pragma: no cover - compiled
    """The table holds this state (the same open cells and patches, reached another way) and what
    it was found to add cannot beat the best (reached with no fewer buttons, the same slots placed)."""
    if not m.bits:
        return False
    lo = s.lo[d]
    hi = s.hi[d]
    unused = s.unused[d]
    h = memo_slot_compiled(lo, hi, unused, m.bits)
    return bool(
        m.unused[h] == unused and m.lo[h] == lo and m.hi[h] == hi and value + m.gain[h] <= best
        and (p.button_budget < 0 or m.spent[h] <= s.spent[d])
        and (p.excluded.shape[0] == 0 or m.used[h] == used_slots(p, s, d))
    )


@njit(inline="always")
def bound(p: Instance, s: Stack, d: int, n_comp: int) -> int:  # pragma: no cover - compiled
    """What the unused patches can still add: within all the open cells, and part by part when
    they are split (else region by region); for cells to cover, at most those left."""
    lo = s.lo[d]
    hi = s.hi[d]
    unused = s.unused[d]
    room = popcount(lo) + popcount(hi)
    n_reg = p.reg_lo.shape[0]
    if p.by_value:
        total = by_density(unused, room, p.dens, p.area, p.val)
        if n_comp > 1:
            # part by part (a patch may count in several parts: still a bound)
            by_part = 0
            for c in range(n_comp):
                size = popcount(s.comp_lo[c]) + popcount(s.comp_hi[c])
                by_part += by_density(s.comp_fits[c], size, p.dens, p.area, p.val)
            total = min(total, by_part)
        elif n_reg > 1:
            by_region = 0
            for r in range(n_reg):
                cells = popcount(lo & p.reg_lo[r]) + popcount(hi & p.reg_hi[r])
                if cells:
                    by_region += by_density(unused & p.reg_fits[r], cells, p.dens, p.area, p.val)
            total = min(total, by_region)
    else:
        n = p.area.shape[0]
        s_lo, s_hi = sums(unused, p.area, n)
        total = best_sum(s_lo, s_hi, room)
        if n_comp > 1:
            # part by part: a pocket smaller than what fits it wastes cells
            by_part = 0
            for c in range(n_comp):
                r_lo, r_hi = sums(s.comp_fits[c], p.area, n)
                by_part += best_sum(r_lo, r_hi, popcount(s.comp_lo[c]) + popcount(s.comp_hi[c]))
            # the cells coverable all told, and a sum of the unused patches' areas within them
            if by_part < total:
                total = best_sum(s_lo, s_hi, by_part)
        elif n_reg > 1:
            by_region = 0
            for r in range(n_reg):
                cells = popcount(lo & p.reg_lo[r]) + popcount(hi & p.reg_hi[r])
                if cells:
                    r_lo, r_hi = sums(unused & p.reg_fits[r], p.area, n)
                    by_region += best_sum(r_lo, r_hi, cells)
            if by_region < total:
                total = best_sum(s_lo, s_hi, by_region)
    if p.must:
        # a cell to cover that nothing can cover any more ends the branch
        total = min(total, int(popcount(lo & p.key_lo) + popcount(hi & p.key_hi)))
    return total


@njit(inline="always")
def too_dear(p: Instance, s: Stack, d: int, left: int) -> bool:  # pragma: no cover - compiled
    """Under a button budget, covering the ``left`` cells still to cover costs more than the
    buttons left (cheap bound first, then the exact one)."""
    if not p.must or p.button_budget < 0:
        return False
    unused = s.unused[d]
    spent = s.spent[d]
    return bool(
        spent + cover_cost(unused, left, p.cheap, p.area, p.cost) > p.button_budget
        or spent + cover_cost_exact(unused, left, p.cheap, p.area, p.cost, s.dp) > p.button_budget
    )


@njit(inline="always")
def first_cell(p: Instance, s: Stack, d: int) -> int:  # pragma: no cover - compiled
    """The cell to settle: the lowest open one (to cover) of the part in focus, else of the first
    region (smallest first) with one."""
    lo = s.lo[d]
    hi = s.hi[d]
    m_lo = s.focus_lo[d] & lo & p.key_lo
    m_hi = s.focus_hi[d] & hi & p.key_hi
    if not (m_lo or m_hi):
        for r in range(p.reg_lo.shape[0]):
            m_lo = lo & p.reg_lo[r] & p.key_lo
            m_hi = hi & p.reg_hi[r] & p.key_hi
            if m_lo or m_hi:
                break
    return lowest_cell(m_lo, m_hi)


@njit(inline="always")
def ready(p: Instance, s: Stack, d: int) -> None:  # pragma: no cover - compiled
    """The node at depth ``d`` readied for its children: the cell it settles (``first_cell``), its
    first slot and placement to try, the placing phase."""
    cell = first_cell(p, s, d)
    s.cell[d] = cell
    s.k[d] = 0
    s.j[d] = p.off[p.order[0] * STRIDE + cell] if p.order.shape[0] else 0
    s.phase[d] = 1
