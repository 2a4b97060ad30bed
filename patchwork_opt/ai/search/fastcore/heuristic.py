"""The heuristic compiled: where a bought patch goes (every fit scored, or a sample) and where leather goes.

Compiled copies of ``ai/heuristic.py``'s ``placement_score``, ``best_placement``,
``quick_placement`` and ``leather_cell`` (the Python ones stay for the ``mcts`` reference bot;
``tests/test_compiled_core.py`` holds the copies equal, ``quick_placement`` draw for draw).
``resolve_leather`` places every pending leather patch where ``leather_cell`` says, as the bots do.
"""

from __future__ import annotations

import numba as nb
import numpy as np

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)
from patchwork_opt.ai.heuristic import HOLE_PENALTY, LEATHER_IN_WINDOW, QUICK_SAMPLES, WINDOW_WEIGHT
from patchwork_opt.ai.search.fastcore.geometry import full_window, holes_of, isolated, window_progress
from patchwork_opt.ai.search.fastcore.position import BONUS, PENDING, QLO
from patchwork_opt.ai.search.fastcore.rules import place_leather
from patchwork_opt.ai.search.fastcore.tables import PL_HI, PL_LO, PL_N, WIN_HI, WIN_LO
from patchwork_opt.core.bitwords import (
    COL0_HI,
    COL0_LO,
    COL8_HI,
    COL8_LO,
    HIGH,
    LOW,
    ROW0_LO,
    ROW8_HI,
    cell_words,
    covered,
    down,
    left,
    popcount,
    right,
    up,
)
from patchwork_opt.core.state import BONUS_POINTS


@nb.njit(cache=True)
def placement_score(qlo: int, qhi: int, mlo: int, mhi: int, holes_before: int,
                    bonus_free: bool, progress: bool) -> float:
    """``heuristic.placement_score`` of placement (mlo, mhi) on the quilt (qlo, qhi): contact edges,
    less new one-cell holes (``holes_before``: the quilt's own), plus the 7x7 bonus when free (and the
    best window's progress when ``progress``)."""
    # contact planes: cells whose neighbour that way (up, down, left, right) is covered or off the quilt
    up_lo, up_hi = down(qlo, qhi)
    up_lo |= ROW0_LO
    down_lo, down_hi = up(qlo, qhi)
    down_hi |= ROW8_HI
    left_lo, left_hi = right(qlo, qhi)
    left_lo, left_hi = left_lo | COL0_LO, left_hi | COL0_HI
    right_lo, right_hi = left(qlo, qhi)
    right_lo, right_hi = right_lo | COL8_LO, right_hi | COL8_HI
    contact = (popcount(mlo & up_lo) + popcount(mhi & up_hi) + popcount(mlo & down_lo)
               + popcount(mhi & down_hi) + popcount(mlo & left_lo) + popcount(mhi & left_hi)
               + popcount(mlo & right_lo) + popcount(mhi & right_hi))
    alo, ahi = qlo | mlo, qhi | mhi
    ilo, ihi = isolated(LOW & ~alo, HIGH & ~ahi)
    holes = popcount(ilo) + popcount(ihi) - holes_before
    score = contact - HOLE_PENALTY * holes
    if bonus_free:
        if full_window(alo, ahi):
            score += 2.0 * BONUS_POINTS
        elif progress:
            score += WINDOW_WEIGHT * window_progress(alo, ahi)
    return score


@nb.njit(cache=True)
def best_placement(pid: int, qlo: int, qhi: int, bonus_free: bool) -> tuple[int, int]:
    """The heuristic's placement (every fit scored, 7x7 progress included; ties: lowest mask)."""
    hb = holes_of(qlo, qhi)
    best_lo, best_hi, best = 0, 0, -1e18
    for i in range(PL_N[pid]):
        mlo, mhi = PL_LO[pid, i], PL_HI[pid, i]
        if (mlo & qlo) != 0 or (mhi & qhi) != 0:
            continue
        s = placement_score(qlo, qhi, mlo, mhi, hb, bonus_free, True)
        if s > best or (s == best and (mhi < best_hi or (mhi == best_hi and mlo < best_lo))):
            best, best_lo, best_hi = s, mlo, mhi
    return best_lo, best_hi


@nb.njit(cache=True)
def quick_placement(pid: int, qlo: int, qhi: int, bonus_free: bool, rng: np.random.Generator) -> tuple[int, int]:
    """``heuristic.quick_placement``: the best of ``QUICK_SAMPLES`` random fits (every fit when
    sampling misses), without 7x7 progress; it draws ``rng.random()`` as the Python one does."""
    n = PL_N[pid]
    found = np.empty(QUICK_SAMPLES, dtype=np.int64)
    nf = 0
    for _ in range(3 * QUICK_SAMPLES):
        i = int(rng.random() * n)
        if (PL_LO[pid, i] & qlo) == 0 and (PL_HI[pid, i] & qhi) == 0:
            found[nf] = i
            nf += 1
            if nf == QUICK_SAMPLES:
                break
    hb = holes_of(qlo, qhi)
    best_lo, best_hi, best = 0, 0, -1e18
    if nf == 0:
        for i in range(n):
            mlo, mhi = PL_LO[pid, i], PL_HI[pid, i]
            if (mlo & qlo) == 0 and (mhi & qhi) == 0:
                s = placement_score(qlo, qhi, mlo, mhi, hb, bonus_free, False)
                if s > best:
                    best, best_lo, best_hi = s, mlo, mhi
        return best_lo, best_hi
    if nf == 1:
        return PL_LO[pid, found[0]], PL_HI[pid, found[0]]
    for j in range(nf):
        i = found[j]
        s = placement_score(qlo, qhi, PL_LO[pid, i], PL_HI[pid, i], hb, bonus_free, False)
        if s > best:
            best, best_lo, best_hi = s, PL_LO[pid, i], PL_HI[pid, i]
    return best_lo, best_hi


@nb.njit(cache=True)
def leather_cell(qlo: int, qhi: int, bonus_free: bool) -> tuple[int, int]:
    """``heuristic.leather_cell``: a 7x7-completing cell, else the most enclosed empty one."""
    elo, ehi = LOW & ~qlo, HIGH & ~qhi
    if elo == 0 and ehi == 0:
        return 0, 0
    preferred = -1
    if bonus_free:
        best_cov = -1
        for w in range(WIN_LO.shape[0]):
            mlo, mhi = WIN_LO[w] & elo, WIN_HI[w] & ehi
            if popcount(mlo) + popcount(mhi) == 1:
                return mlo, mhi
            cov = popcount(qlo & WIN_LO[w]) + popcount(qhi & WIN_HI[w])
            if cov > best_cov:
                best_cov, preferred = cov, w
    best_lo, best_hi, best = 0, 0, -1.0
    for cell in range(81):
        clo, chi = cell_words(cell)
        if (clo & elo) == 0 and (chi & ehi) == 0:
            continue
        r, c = cell // 9, cell % 9
        s = 0.0
        s += 1.0 if r == 0 or covered(qlo, qhi, cell - 9) else 0.0
        s += 1.0 if r == 8 or covered(qlo, qhi, cell + 9) else 0.0
        s += 1.0 if c == 0 or covered(qlo, qhi, cell - 1) else 0.0
        s += 1.0 if c == 8 or covered(qlo, qhi, cell + 1) else 0.0
        if preferred >= 0 and ((clo & WIN_LO[preferred]) != 0 or (chi & WIN_HI[preferred]) != 0):
            s += LEATHER_IN_WINDOW
        if s > best:
            best, best_lo, best_hi = s, clo, chi
    return best_lo, best_hi


@nb.njit(cache=True)
def resolve_leather(s: np.ndarray) -> None:
    """Every pending leather patch placed where ``leather_cell`` says."""
    while s[PENDING] >= 0:
        p = s[PENDING]
        mlo, mhi = leather_cell(s[QLO + 2 * p], s[QLO + 2 * p + 1], s[BONUS] < 0)
        place_leather(s, p, mlo, mhi)
