"""The one two-word layout of the 81-bit quilt for all compiled code: how it splits, joins and shifts.

Numba has no 81-bit integer, so every compiled search (the tree search ``ai/search/fastcore``, the
exact search ``ai/search/exactcore``, the packing search ``solvers/search``) holds a quilt as two
words, always this way, written here once:

* the **low word** holds rows 0-6, cells 0-62 (bit ``row * 9 + col`` as in ``core.bitboard``), 63
  bits; the **high word** rows 7-8, cells 63-80 at bits 0-17 (bit ``cell - 63``);
* both words are non-negative ``int64`` (the low word leaves the sign bit clear): no unsigned
  arithmetic, whose mixing with signed integers Numba turns into floats;
* a word boundary falls between two rows, so the column masks repeat row by row in each word
  (``COL0_LO``...), a column shift (``left``, ``right``) never crosses words, and a row shift
  (``up``, ``down``) moves only row 6 or row 7 from one word to the other; ``rows`` and
  ``from_rows`` take a quilt apart into its nine 9-bit rows and back (symmetries work row by row).

The compiled helpers are ``@njit(inline="always")``: a caller's compiled code inlines them, so
writing them once costs no speed. ``split`` and ``join`` are for Python (tables, encoding,
decoding). ``tests/test_bitwords.py`` holds every helper to its ``core.bitboard`` original on
random quilts. This module loads Numba: the engine's other modules do not import it (importing
``patchwork_opt.core`` loads no compiler), only compiled code does.
"""

from __future__ import annotations

import numba as nb

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.core.bitboard import CELLS, COL0, COL8, NOT_COL0, NOT_COL8, ROW0, ROW8, SIZE

#: Rows 0-6 in the low word, rows 7-8 in the high one.
LOW_ROWS = 7
LOW_BITS = LOW_ROWS * SIZE  # 63
HIGH_BITS = CELLS - LOW_BITS  # 18
#: Every cell of each word (the full quilt as two words).
LOW = (1 << LOW_BITS) - 1
HIGH = (1 << HIGH_BITS) - 1
#: One row's cells at bits 0-8 (a row taken out of its word by ``rows``).
_ROW_BITS = (1 << SIZE) - 1
_LAST_ROW_SHIFT = LOW_BITS - SIZE  # 54: where row 6 starts in the low word


def split(mask: int) -> tuple[int, int]:
    """The 81-bit ``mask`` as (low word, high word)."""
    return mask & LOW, mask >> LOW_BITS


def join(lo: int, hi: int) -> int:
    """The two words (Python or NumPy integers) as one 81-bit int."""
    return int(lo) | (int(hi) << LOW_BITS)


#: The board's edges per word (``core.bitboard``'s masks, split).
COL0_LO, COL0_HI = split(COL0)
COL8_LO, COL8_HI = split(COL8)
NOT_COL0_LO, NOT_COL0_HI = split(NOT_COL0)
NOT_COL8_LO, NOT_COL8_HI = split(NOT_COL8)
ROW0_LO = ROW0  # the top row lies in the low word alone
ROW8_HI = ROW8 >> LOW_BITS  # the bottom row in the high word alone


@nb.njit(cache=True, inline="always")
def popcount(x: int) -> int:
    """Set bits of one word (SWAR: a few multiplies, faster in Numba than a loop)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


@nb.njit(cache=True, inline="always")
def bit_index(low: int) -> int:
    """The index of the one set bit of ``low`` (a word's lowest bit, ``x & -x``)."""
    return popcount(low - 1)


@nb.njit(cache=True, inline="always")
def cell_words(cell: int) -> tuple[int, int]:
    """Cell ``cell`` (0-80, ``row * 9 + col``) as two words."""
    if cell < LOW_BITS:
        return 1 << cell, 0
    return 0, 1 << (cell - LOW_BITS)


@nb.njit(cache=True, inline="always")
def covered(lo: int, hi: int, cell: int) -> bool:
    """Whether cell ``cell`` (0-80) is set in the quilt (lo, hi)."""
    if cell < LOW_BITS:
        return (lo >> cell) & 1 == 1
    return (hi >> (cell - LOW_BITS)) & 1 == 1


@nb.njit(cache=True, inline="always")
def less(alo: int, ahi: int, blo: int, bhi: int) -> bool:
    """(alo, ahi) < (blo, bhi) as 81-bit numbers."""
    return ahi < bhi or (ahi == bhi and alo < blo)


@nb.njit(cache=True, inline="always")
def rows(lo: int, hi: int) -> tuple[int, int, int, int, int, int, int, int, int]:
    """The quilt's nine rows, each as 9 bits (bit ``col``), top first."""
    return (lo & _ROW_BITS, (lo >> 9) & _ROW_BITS, (lo >> 18) & _ROW_BITS, (lo >> 27) & _ROW_BITS,
            (lo >> 36) & _ROW_BITS, (lo >> 45) & _ROW_BITS, (lo >> 54) & _ROW_BITS, hi & _ROW_BITS,
            (hi >> 9) & _ROW_BITS)


@nb.njit(cache=True, inline="always")
def from_rows(r0: int, r1: int, r2: int, r3: int, r4: int, r5: int, r6: int, r7: int,
              r8: int) -> tuple[int, int]:
    """The quilt with these nine 9-bit rows, top first (``rows`` undone)."""
    return r0 | (r1 << 9) | (r2 << 18) | (r3 << 27) | (r4 << 36) | (r5 << 45) | (r6 << 54), r7 | (r8 << 9)


@nb.njit(cache=True, inline="always")
def down(lo: int, hi: int) -> tuple[int, int]:
    """Every cell one row down (``(mask << 9) & FULL``): row 6 crosses into the high word, row 8 falls off."""
    return (lo << SIZE) & LOW, ((hi << SIZE) | (lo >> _LAST_ROW_SHIFT)) & HIGH


@nb.njit(cache=True, inline="always")
def up(lo: int, hi: int) -> tuple[int, int]:
    """Every cell one row up (``mask >> 9``): row 7 crosses into the low word, row 0 falls off."""
    return (lo >> SIZE) | ((hi & _ROW_BITS) << _LAST_ROW_SHIFT), hi >> SIZE


@nb.njit(cache=True, inline="always")
def right(lo: int, hi: int) -> tuple[int, int]:
    """Every cell one column right (``(mask & NOT_COL8) << 1``): the right column falls off."""
    return (lo & NOT_COL8_LO) << 1, (hi & NOT_COL8_HI) << 1


@nb.njit(cache=True, inline="always")
def left(lo: int, hi: int) -> tuple[int, int]:
    """Every cell one column left (``(mask & NOT_COL0) >> 1``): the left column falls off."""
    return (lo & NOT_COL0_LO) >> 1, (hi & NOT_COL0_HI) >> 1


@nb.njit(cache=True, inline="always")
def adjacent(lo: int, hi: int) -> tuple[int, int]:
    """``bitboard.adjacent``: cells orthogonally next to a cell of the quilt (lo, hi)."""
    dlo, dhi = down(lo, hi)
    ulo, uhi = up(lo, hi)
    rlo, rhi = right(lo, hi)
    llo, lhi = left(lo, hi)
    return dlo | ulo | rlo | llo, dhi | uhi | rhi | lhi


@nb.njit(cache=True, inline="always")
def shift_back(lo: int, hi: int, n: int) -> tuple[int, int]:
    """``mask >> n`` for 0 < n < 63: every cell ``n`` places lower (an anchor under a patch's cell
    ``n`` places past its first), across the word boundary."""
    return (lo >> n) | ((hi << (LOW_BITS - n)) & LOW), hi >> n
