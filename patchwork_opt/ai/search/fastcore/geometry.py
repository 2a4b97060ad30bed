"""The quilt's geometry compiled, on two words: full and best-covered 7x7 windows, isolated holes, whether a patch fits.

Compiled copies of ``core.bitboard.full_window`` and ``window_progress``, ``ai.heuristic.isolated``
and ``core.catalogue.fits_anywhere`` (``tests/test_compiled_core.py`` holds them equal on thousands of
quilts), for the rules (the 7x7 bonus), the heuristic, the exact search and the learned features.
"""

from __future__ import annotations

import numba as nb

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.ai.search.fastcore.tables import AREA_A, PL_HI, PL_LO, PL_N, WIN_HI, WIN_LO
from patchwork_opt.core.bitwords import HIGH, LOW, adjacent, popcount


@nb.njit(cache=True)
def full_window(lo: int, hi: int) -> bool:
    """Whether some 7x7 window of the quilt is fully covered."""
    if popcount(lo) + popcount(hi) < 49:
        return False
    for w in range(WIN_LO.shape[0]):  # noqa: SIM110 (a plain loop: Numba compiles it best)
        if (lo & WIN_LO[w]) == WIN_LO[w] and (hi & WIN_HI[w]) == WIN_HI[w]:
            return True
    return False


@nb.njit(cache=True)
def window_progress(lo: int, hi: int) -> int:
    """Covered cells of the best-covered 7x7 window."""
    best = 0
    for w in range(WIN_LO.shape[0]):
        c = popcount(lo & WIN_LO[w]) + popcount(hi & WIN_HI[w])
        if c > best:
            best = c
    return best


@nb.njit(cache=True, inline="always")
def isolated(elo: int, ehi: int) -> tuple[int, int]:
    """Empty cells none of whose neighbours is empty (``empty`` as two words)."""
    slo, shi = adjacent(elo, ehi)
    return elo & ~slo, ehi & ~shi


@nb.njit(cache=True)
def holes_of(qlo: int, qhi: int) -> int:
    """Isolated empty cells of the quilt (one-cell holes)."""
    ilo, ihi = isolated(LOW & ~qlo, HIGH & ~qhi)
    return popcount(ilo) + popcount(ihi)


@nb.njit(cache=True)
def fits_anywhere(pid: int, qlo: int, qhi: int) -> bool:
    """Whether patch ``pid`` has a placement on empty cells of the quilt."""
    if 81 - popcount(qlo) - popcount(qhi) < AREA_A[pid]:
        return False
    for i in range(PL_N[pid]):  # noqa: SIM110 (a plain loop: Numba compiles it best)
        if (PL_LO[pid, i] & qlo) == 0 and (PL_HI[pid, i] & qhi) == 0:
            return True
    return False
