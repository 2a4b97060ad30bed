"""The packing search's cells on ``core.bitwords``' two words: counted, the lowest, one taken out, the parts.

The quilt's layout is ``core.bitwords`` (the one for all compiled code): cells are two non-negative
``int64`` words, and every shift or split comes from there. This room holds what the packing
search asks of a set of cells beyond that: the lowest cell (the cell a node settles), a cell taken
out (the cell left empty), the 4-connected parts (the pockets bounded one by one), and for setting
a search up, the same counts and lowest cells over numpy arrays of words.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.core.bitwords import LOW_BITS, adjacent, bit_index, cell_words

_BITWISE_COUNT: Callable[[np.ndarray], np.ndarray] | None = getattr(np, "bitwise_count", None)


def popcount_array(words: np.ndarray) -> np.ndarray:
    """The set bits of each non-negative word (int64)."""
    if _BITWISE_COUNT is not None:  # numpy 2
        return np.asarray(_BITWISE_COUNT(words), dtype=np.int64)
    x = words.astype(np.uint64)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return ((x * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.int64)


def lowest_cells(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The lowest cell of each non-empty pair of words (anything for an empty one)."""
    def low_index(words: np.ndarray) -> np.ndarray:
        return popcount_array((words & -words) - 1)
    return np.where(lo != 0, low_index(lo), LOW_BITS + low_index(hi))


@njit(inline="always")
def lowest_cell(lo: int, hi: int) -> int:  # pragma: no cover - compiled
    """The lowest cell of a non-empty pair of words."""
    if lo:
        return bit_index(lo & -lo)
    return LOW_BITS + bit_index(hi & -hi)


@njit(inline="always")
def without_cell(lo: int, hi: int, cell: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """The words with ``cell`` taken out."""
    c_lo, c_hi = cell_words(cell)
    return lo & ~c_lo, hi & ~c_hi


@njit(cache=True, nogil=True)
def components(lo: int, hi: int, comp_lo: np.ndarray, comp_hi: np.ndarray) -> int:  # pragma: no cover - compiled
    """Split the cells (lo, hi) into 4-connected parts, written to ``comp_lo``/``comp_hi`` (lowest
    cell first); their count."""
    count = 0
    while lo or hi:
        if lo:
            g_lo = lo & -lo
            g_hi = 0
        else:
            g_lo = 0
            g_hi = hi & -hi
        while True:
            a_lo, a_hi = adjacent(g_lo, g_hi)
            n_lo = (g_lo | a_lo) & lo
            n_hi = (g_hi | a_hi) & hi
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
