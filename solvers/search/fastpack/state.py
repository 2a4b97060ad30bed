"""The packing search's state: what a problem gives, the explicit stack, the transposition table.

The kernels take three named tuples of arrays rather than some forty loose arrays: ``Instance``
(the problem as the search reads it, never written), ``Stack`` (one entry a depth, written as the
search goes, and the scratch it needs) and ``Memo`` (the transposition table). A named tuple is
the plainest state Numba compiles, and needs nothing compiled at start-up: its fields are read by
name at compile time, and as the loop counts no references (``loop.run``), a kernel inlined into
it reads them as if they were its own locals, at no cost a node. The search keeps no state but
these: it can pause after any node and go on in the next slice.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.core.bitboard import CELLS

#: Offsets a slot has in ``Instance.off``: one per first cell, plus the end of its last run.
STRIDE = CELLS + 1
#: The deepest the stack goes: each level settles at least one open cell.
DEPTH = CELLS + 2
#: What a slice of the search ends with: paused (nodes or stop), exhausted, or the bound reached.
PAUSED, EXHAUSTED, REACHED = 0, 1, 2
#: Fields of ``Stack.meta``: the depth to go on from, the best value, nodes so far, the best
#: packing's length (-1: the incumbent's own placements).
M_DEPTH, M_BEST, M_NODES, M_BEST_LEN = 0, 1, 2, 3
# multipliers of the transposition table's hash
_K1 = np.uint64(0x9E3779B97F4A7C15)
_K2 = np.uint64(0xC2B2AE3D27D4EB4F)
_K3 = np.uint64(0x165667B19E3779F9)
#: A word of cells, or an array of them; a set of slots (a bit each), or an array of them.
Words = int | np.ndarray
SlotSets = np.uint64 | np.ndarray


class Instance(NamedTuple):
    """The problem as the kernels read it. Per slot: ``area``, ``val`` (what it is worth),
    ``cost``, ``need`` (the twin to place first, or -1); slots in branching ``order``, by value
    density (``dens``) and by price per cell (``cheap``). Per placement: its words, ``gain`` and
    slot, in runs by (slot, cell it settles) that ``off`` indexes (``STRIDE`` a slot). The regions
    cells are settled in, with the slots fitting each; the cells to cover (``key_*``: every cell
    when there are none) and whether there are (``must``); the button budget (-1: none); whether
    values are not areas (``by_value``); the sets of slots to exclude."""

    area: np.ndarray
    val: np.ndarray
    cost: np.ndarray
    need: np.ndarray
    order: np.ndarray
    dens: np.ndarray
    cheap: np.ndarray
    off: np.ndarray
    pl_lo: np.ndarray
    pl_hi: np.ndarray
    pl_gain: np.ndarray
    slot_of: np.ndarray
    reg_lo: np.ndarray
    reg_hi: np.ndarray
    reg_fits: np.ndarray
    key_lo: int
    key_hi: int
    must: int
    button_budget: int
    by_value: int
    excluded: np.ndarray


class Stack(NamedTuple):
    """The search's stack, one entry a depth: the open cells (``lo``/``hi``: ``core.bitwords``'
    words, as every cell field), the unused slots (a bit a slot, as every slot field),
    value and buttons spent so far, the cell being settled, the slot and placement tried next
    there (``k``, ``j``), the phase (0: new, 1: placing, 2: done), whether a placement led here,
    the part in focus, the placement chosen. Scratch: the placements that fitted per depth
    (``fit_buf``, ``fit_count``, and where a depth's list is: ``list_src``), the open cells'
    parts and the slots fitting each, a placement known to fit per slot (``witness``), the cost
    bound's knapsack (``dp``). ``meta`` (``M_*``) and the best packing carry over between
    slices; ``stop`` is set from another thread."""

    lo: np.ndarray
    hi: np.ndarray
    focus_lo: np.ndarray
    focus_hi: np.ndarray
    comp_lo: np.ndarray
    comp_hi: np.ndarray
    unused: np.ndarray
    comp_fits: np.ndarray
    value: np.ndarray
    spent: np.ndarray
    cell: np.ndarray
    k: np.ndarray
    j: np.ndarray
    phase: np.ndarray
    placed: np.ndarray
    chosen: np.ndarray
    best_chosen: np.ndarray
    fit_count: np.ndarray
    list_src: np.ndarray
    meta: np.ndarray
    fit_buf: np.ndarray
    witness: np.ndarray
    dp: np.ndarray
    stop: np.ndarray


class Memo(NamedTuple):
    """The transposition table, ``2**bits`` entries (``bits`` 0: none): per entry the open cells,
    the unused slots (0: empty), what the state was found to add, the buttons spent on reaching it
    and, with sets to exclude, the slots placed on reaching it."""

    bits: int
    lo: np.ndarray
    hi: np.ndarray
    unused: np.ndarray
    gain: np.ndarray
    spent: np.ndarray
    used: np.ndarray


def new_stack(slots: int, placements: int) -> Stack:
    """An empty stack for ``slots`` slots and ``placements`` placements: two blocks (one allocation
    each), one row a field."""
    ints = np.zeros((18, DEPTH), dtype=np.int64)
    slot_sets = np.zeros((2, DEPTH), dtype=np.uint64)
    stack = Stack(
        lo=ints[0], hi=ints[1], focus_lo=ints[2], focus_hi=ints[3],
        comp_lo=ints[4], comp_hi=ints[5],  # DEPTH >= CELLS parts
        unused=slot_sets[0], comp_fits=slot_sets[1],
        value=ints[6], spent=ints[7], cell=ints[8], k=ints[9], j=ints[10], phase=ints[11], placed=ints[12],
        chosen=ints[13], best_chosen=ints[14], fit_count=ints[15], list_src=ints[16], meta=ints[17][:4],
        fit_buf=np.empty(max(1, DEPTH * placements), dtype=np.int64),
        witness=np.full(slots, -1, dtype=np.int64),
        dp=np.zeros(CELLS + 1, dtype=np.int64),
        stop=np.zeros(1, dtype=np.int64),
    )
    stack.chosen[:] = -1
    stack.best_chosen[:] = -1
    stack.list_src[:] = -1
    return stack


def memo_slot(lo: Words, hi: Words, unused: SlotSets, bits: int) -> SlotSets:
    """The entry of a state in a table of ``2**bits`` entries (on arrays too: a table resized)."""
    return ((np.uint64(lo) * _K1) ^ (np.uint64(hi) * _K2) ^ (unused * _K3)) >> np.uint64(64 - bits)


#: ``memo_slot`` compiled, for the kernels.
memo_slot_compiled = njit(inline="always")(memo_slot)


def new_memo(bits: int, keyed_on_used: bool, old: Memo | None = None) -> Memo:
    """A table of ``2**bits`` entries (0: none), keeping ``old``'s entries when it is larger;
    ``keyed_on_used``: its entries keep the slots placed (there are sets to exclude)."""
    if not 0 <= bits <= 24:
        raise ValueError("table bits: 0 (no table) to 24")
    size = 1 << bits if bits else 1
    memo = Memo(
        bits=bits,
        lo=np.empty(size, dtype=np.int64),
        hi=np.empty(size, dtype=np.int64),
        unused=np.zeros(size, dtype=np.uint64),  # 0: an empty entry (never a key)
        gain=np.empty(size, dtype=np.int64),
        spent=np.empty(size, dtype=np.int64),
        used=np.zeros(size if keyed_on_used else 1, dtype=np.uint64),
    )
    if old is not None and old.bits and bits > old.bits:
        kept = np.nonzero(old.unused)[0]
        at = memo_slot(old.lo[kept], old.hi[kept], old.unused[kept], bits)
        for field in ("lo", "hi", "unused", "gain", "spent") + (("used",) if keyed_on_used else ()):
            getattr(memo, field)[at] = getattr(old, field)[kept]
    return memo
