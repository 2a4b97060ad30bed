"""Canonical quilts for the exact search: a compiled copy of ``core.symmetry.canonical``.

Quilts equal up to the board's 8 rotations and reflections play the same from any position, so the
search keys its table on both quilts in canonical form (the smallest of the eight images, as an
81-bit number in two words) and lists one placement per class of equal quilts. ``symmetry_slack``
says when a quilt is far enough from all its images that no two placements can coincide, so the
canonical form need not be computed at all (most positions). ``tests/test_exactcore.py`` compares
``canonical`` with ``core.symmetry`` on thousands of random quilts.

Rows are the unit: a quilt is nine 9-bit rows (seven in the low word, two in the high one); a
mirror is ``REV`` on each row, a flip reverses the rows, and the transpose is one table lookup per
row (``T_LO``/``T_HI``).
"""

from __future__ import annotations

import numba as nb
import numpy as np

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.core.bitboard import SIZE, mask_of
from patchwork_opt.core.bitwords import from_rows, less, popcount, rows, split

_CACHE = True

_ROWS = 1 << SIZE
#: REV[r]: the 9-bit row r mirrored left to right.
REV = np.array([int(f"{r:09b}"[::-1], 2) for r in range(_ROWS)], dtype=np.int64)
#: T_LO[i, r] / T_HI[i, r]: row i's bits r laid into column i (the transpose of one row), as two words.
T_LO = np.zeros((SIZE, _ROWS), dtype=np.int64)
T_HI = np.zeros((SIZE, _ROWS), dtype=np.int64)
for _i in range(SIZE):
    for _r in range(_ROWS):
        T_LO[_i, _r], T_HI[_i, _r] = split(mask_of((_c, _i) for _c in range(SIZE) if _r >> _c & 1))


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
    blo, bhi = from_rows(r0, r1, r2, r3, r4, r5, r6, r7, r8)
    f0, f1, f2, f3, f4 = REV[r0], REV[r1], REV[r2], REV[r3], REV[r4]
    f5, f6, f7, f8 = REV[r5], REV[r6], REV[r7], REV[r8]
    lo, hi = from_rows(f0, f1, f2, f3, f4, f5, f6, f7, f8)
    if less(lo, hi, blo, bhi):
        blo, bhi = lo, hi
    lo, hi = from_rows(r8, r7, r6, r5, r4, r3, r2, r1, r0)
    if less(lo, hi, blo, bhi):
        blo, bhi = lo, hi
    lo, hi = from_rows(f8, f7, f6, f5, f4, f3, f2, f1, f0)
    if less(lo, hi, blo, bhi):
        blo, bhi = lo, hi
    return blo, bhi


@nb.njit(cache=_CACHE)
def canonical(lo: int, hi: int) -> tuple[int, int]:
    """The smallest of the eight images of the quilt (two words) under rotations and reflections."""
    r0, r1, r2, r3, r4, r5, r6, r7, r8 = rows(lo, hi)
    tlo, thi = _transposed(r0, r1, r2, r3, r4, r5, r6, r7, r8)
    t0, t1, t2, t3, t4, t5, t6, t7, t8 = rows(tlo, thi)
    alo, ahi = _least4(r0, r1, r2, r3, r4, r5, r6, r7, r8)
    blo, bhi = _least4(t0, t1, t2, t3, t4, t5, t6, t7, t8)
    if less(blo, bhi, alo, ahi):
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
        lo, hi = from_rows(r0, r1, r2, r3, r4, r5, r6, r7, r8)
        best = _outside(lo, hi, qlo, qhi)
    lo, hi = from_rows(f0, f1, f2, f3, f4, f5, f6, f7, f8)
    best = min(best, _outside(lo, hi, qlo, qhi))
    lo, hi = from_rows(r8, r7, r6, r5, r4, r3, r2, r1, r0)
    best = min(best, _outside(lo, hi, qlo, qhi))
    lo, hi = from_rows(f8, f7, f6, f5, f4, f3, f2, f1, f0)
    return min(best, _outside(lo, hi, qlo, qhi))


@nb.njit(cache=_CACHE)
def symmetry_slack(qlo: int, qhi: int) -> int:
    """The fewest cells any non-identity image of the quilt has outside it.

    Two different placements of one patch (area ``a``) leave quilts that are images of each other
    only if some non-identity symmetry g has ``g(quilt)`` inside ``quilt | mask``: at most ``a``
    cells of ``g(quilt)`` outside the quilt. When the slack exceeds ``a`` every placement is its own
    class and no canonical form is needed to tell them apart."""
    r0, r1, r2, r3, r4, r5, r6, r7, r8 = rows(qlo, qhi)
    tlo, thi = _transposed(r0, r1, r2, r3, r4, r5, r6, r7, r8)
    t0, t1, t2, t3, t4, t5, t6, t7, t8 = rows(tlo, thi)
    a = _slack4(r0, r1, r2, r3, r4, r5, r6, r7, r8, qlo, qhi, False)
    b = _slack4(t0, t1, t2, t3, t4, t5, t6, t7, t8, qlo, qhi, True)
    return min(a, b)
