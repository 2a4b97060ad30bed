"""What the unused patches could still add or cost, compiled: the packing search's bounds.

With values equal to areas, the best a set of patches adds within some open cells is the best
subset sum of their areas within those cells (``sums``, then ``best_sum``: a 128-bit set of the
reachable sums, 81 cells at most). With other values (the ``points`` objective) it is bounded by
a fractional knapsack by value density (``by_density``). Under a button budget, the fewest
buttons that can still cover the cells left to cover: each cell at its patch's price per cell
(``cover_cost``, cheap), or a 0/1 knapsack on the areas (``cover_cost_exact``, exact).
"""

from __future__ import annotations

import numpy as np
from numba import njit

import patchwork_opt.jitcache  # noqa: F401  (the compiled code's cache directory, before any @njit)

#: More buttons than any budget: what covering cells that the patches cannot cover costs.
BEYOND = 1 << 40


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
def best_sum(lo: np.uint64, hi: np.uint64, room: int | np.int64) -> int:  # pragma: no cover - compiled
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
def sums(unused: np.uint64, area: np.ndarray, n: int) -> tuple[np.uint64, np.uint64]:  # pragma: no cover
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
def by_density(  # pragma: no cover - compiled
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
def cover_cost(  # pragma: no cover - compiled
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
    return BEYOND


@njit(cache=True, nogil=True)
def cover_cost_exact(  # pragma: no cover - compiled
    unused: np.uint64, left: int, cheap: np.ndarray, area: np.ndarray, cost: np.ndarray, dp: np.ndarray
) -> int:
    """The fewest buttons a set of ``unused`` patches costs whose areas add up to ``left`` at
    least (a 0/1 knapsack on ``dp``, scratch of ``left + 1`` entries at least)."""
    one = np.uint64(1)
    dp[0] = 0
    for a in range(1, left + 1):
        dp[a] = BEYOND
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
