"""The packing search's loop, compiled: one slice of nodes over the explicit stack, resumable.

Each depth of ``Stack`` goes through three phases. New (0): the node is counted, its value kept
when it is the best (``keep_best``), and ``node``'s kernels cut it or ready it. Placing (1): its
cell is covered by the next placement whose first cell it is (``push_placement``), each child in
turn, then, unless the cell must be covered, left empty (``push_empty``). Done (2): nothing from
this state adds more than the best less its value, which the transposition table remembers
(``remember``). The loop returns after ``budget_nodes`` nodes or when ``Stack.stop`` is set
(``PAUSED``: the next slice goes on from the stack), when the search is over (``EXHAUSTED``) or
when ``upper`` is reached (``REACHED``). Released from the GIL (``nogil``): a slice runs beside
another search or a CP-SAT solve.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from solvers.search.fastpack.cells import without_cell
from solvers.search.fastpack.node import (
    bound,
    focus_parts,
    is_excluded,
    quick_cut,
    ready,
    seen,
    settle,
    still_fitting,
    too_dear,
    used_slots,
)
from solvers.search.fastpack.state import (
    EXHAUSTED,
    M_BEST,
    M_BEST_LEN,
    M_DEPTH,
    M_NODES,
    PAUSED,
    REACHED,
    STRIDE,
    Instance,
    Memo,
    Stack,
    memo_slot_compiled,
)


@njit(inline="always")
def keep_best(s: Stack, d: int) -> None:  # pragma: no cover - compiled
    """The placements on the path to depth ``d`` as the best packing."""
    length = 0
    for t in range(d):
        if s.chosen[t] >= 0:
            s.best_chosen[length] = s.chosen[t]
            length += 1
    s.meta[M_BEST_LEN] = length


@njit(inline="always")
def push_placement(p: Instance, s: Stack, d: int) -> bool:  # pragma: no cover - compiled
    """The next child of depth ``d``: the next placement of a usable slot (unused, its twin
    placed, within the budget) covering its cell and inside the open cells, pushed at ``d + 1``;
    False when there is none left."""
    one = np.uint64(1)
    lo = s.lo[d]
    hi = s.hi[d]
    unused = s.unused[d]
    cell = s.cell[d]
    spent = s.spent[d]
    n_order = p.order.shape[0]
    while s.k[d] < n_order:
        slot = p.order[s.k[d]]
        ok = ((unused >> np.uint64(slot)) & one) != 0
        if ok and p.need[slot] >= 0 and ((unused >> np.uint64(p.need[slot])) & one) != 0:
            ok = False  # its twin first
        if ok and p.button_budget >= 0 and spent + p.cost[slot] > p.button_budget:
            ok = False
        if ok:
            end = p.off[slot * STRIDE + cell + 1]
            while s.j[d] < end:
                q = s.j[d]
                s.j[d] = q + 1
                if (p.pl_lo[q] & ~lo) == 0 and (p.pl_hi[q] & ~hi) == 0:
                    s.chosen[d] = q
                    s.lo[d + 1] = lo & ~p.pl_lo[q]
                    s.hi[d + 1] = hi & ~p.pl_hi[q]
                    s.unused[d + 1] = unused & ~(one << np.uint64(slot))
                    s.value[d + 1] = s.value[d] + p.pl_gain[q]
                    s.spent[d + 1] = spent + p.cost[slot]
                    s.placed[d + 1] = 1
                    s.phase[d + 1] = 0
                    return True
        s.k[d] += 1
        if s.k[d] < n_order:
            s.j[d] = p.off[p.order[s.k[d]] * STRIDE + cell]
    return False


@njit(inline="always")
def push_empty(s: Stack, d: int) -> None:  # pragma: no cover - compiled
    """The child of depth ``d`` that leaves its cell empty, pushed at ``d + 1``."""
    s.lo[d + 1], s.hi[d + 1] = without_cell(s.lo[d], s.hi[d], s.cell[d])
    s.unused[d + 1] = s.unused[d]
    s.value[d + 1] = s.value[d]
    s.spent[d + 1] = s.spent[d]
    s.placed[d + 1] = 0
    s.phase[d + 1] = 0


@njit(inline="always")
def remember(p: Instance, s: Stack, m: Memo, d: int, best: int) -> None:  # pragma: no cover - compiled
    """Both branches of depth ``d`` done: the table keeps that its state adds at most
    ``best - value`` (at the buttons spent, with the slots placed)."""
    lo = s.lo[d]
    hi = s.hi[d]
    unused = s.unused[d]
    h = memo_slot_compiled(lo, hi, unused, m.bits)
    m.lo[h] = lo
    m.hi[h] = hi
    m.unused[h] = unused
    m.gain[h] = best - s.value[d]
    m.spent[h] = s.spent[d]
    if p.excluded.shape[0]:
        m.used[h] = used_slots(p, s, d)


@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # (_nrt: see below)
def run(budget_nodes: int, upper: int, p: Instance, s: Stack, m: Memo) -> int:  # pragma: no cover - compiled
    """Search on from the stack for at most ``budget_nodes`` nodes; PAUSED, EXHAUSTED or REACHED
    (``upper`` reached, or for cells to cover, all covered).

    Compiled without reference counting (``_nrt=False``): the loop allocates nothing, and its arrays
    live in the caller's named tuples for the whole call. With it, each inlined kernel handed the
    state would count a reference to every array of it in and out, at every node: the loop ran 2.4
    times slower than with loose arrays (measured); without, as fast."""
    meta = s.meta
    done = 0
    d = meta[M_DEPTH]
    best = meta[M_BEST]
    while d >= 0:
        phase = s.phase[d]
        if phase == 0:
            if done >= budget_nodes or ((done & 1023) == 0 and s.stop[0]):
                meta[M_DEPTH] = d
                meta[M_BEST] = best
                return PAUSED
            done += 1
            meta[M_NODES] += 1
            value = s.value[d]
            # an excluded choice of patches is no packing to keep (what extends it may be)
            if value > best and not (p.excluded.shape[0] and is_excluded(p, s, d)):
                best = value
                keep_best(s, d)
                if best >= upper:
                    meta[M_DEPTH] = -1
                    meta[M_BEST] = best
                    return REACHED
            # cut the node (d -= 1), or ready it for its children (``node``'s kernels, in order)
            lo = s.lo[d]
            hi = s.hi[d]
            unused = s.unused[d]
            if quick_cut(p, lo, hi, unused, value, best):
                d -= 1
                continue
            n_comp = 0
            if s.placed[d]:
                fitting, n_fit = settle(p, s, d, lo, hi, unused)
                if fitting == 0:  # no open cell is coverable any more
                    d -= 1
                    continue
                n_comp = focus_parts(p, s, d, n_fit)
            else:
                fitting = still_fitting(p, s, d, lo, hi, unused)
            s.unused[d] = fitting
            if (fitting == 0 or seen(p, s, m, d, value, best) or value + bound(p, s, d, n_comp) <= best
                    or too_dear(p, s, d, best + 1 - value)):
                d -= 1
                continue
            ready(p, s, d)
            phase = 1
        if phase == 1:
            if push_placement(p, s, d):
                d += 1
                continue
            s.phase[d] = 2
            s.chosen[d] = -1
            if not p.must:  # leave the cell empty (a cell to cover never is)
                push_empty(s, d)
                d += 1
                continue
        # phase 2: both branches done
        if m.bits:
            remember(p, s, m, d, best)
        d -= 1
    meta[M_DEPTH] = -1
    meta[M_BEST] = best
    return EXHAUSTED
