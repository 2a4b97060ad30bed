"""A packing problem as the compiled search reads it: its placements indexed, its slots ordered.

``instance`` builds the ``Instance`` of a ``PackingProblem``: every placement of every slot inside
the free cells, in runs by (slot, cell it settles: its first cell, or with cells to cover its
first cell to cover) with what each gains; per slot its area, value, cost and the twin to place
first; the branching order (largest first), the order by value density and by price per cell;
the regions cells are settled in (smallest first) and the slots fitting each. What depends only
on the list of patches, not on the cells (``_shape``), is cached.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from patchwork_opt.core.bitwords import HIGH, LOW, split
from patchwork_opt.core.catalogue import PATCHES, PLACEMENTS
from solvers.search.fastpack.cells import lowest_cells, popcount_array
from solvers.search.fastpack.state import STRIDE, Instance
from solvers.search.problem import PackingProblem
from solvers.symmetry import interchangeable_groups

_NONE = np.zeros(0, dtype=np.int64)


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every patch's placements on an empty quilt, patch by patch, each sorted by first cell:
    (start of each patch's run, first cell, low word, high word)."""
    starts = [0]
    masks = []
    for placements in PLACEMENTS:
        masks.extend(sorted(placements, key=lambda m: (m & -m)))
        starts.append(len(masks))
    words = [split(m) for m in masks]
    lo = np.array([w[0] for w in words], dtype=np.int64)
    hi = np.array([w[1] for w in words], dtype=np.int64)
    return np.array(starts, dtype=np.int64), lowest_cells(lo, hi).astype(np.int64), lo, hi


_T_START, _T_FIRST, _T_LO, _T_HI = _tables()


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
    split_groups = {group[s] for s in range(len(need)) for e in exclude
                    if any(group[t] == group[s] and (e >> t & 1) != (e >> s & 1) for t in range(len(need)))}
    return np.array([-1 if group[s] in split_groups else b for s, b in enumerate(need.tolist())], dtype=np.int64)


def parts(free: int, regions: Sequence[int], cover: int) -> list[int]:
    """The order cells are settled in: the given regions within the free cells, smallest first,
    then the rest (one part when there are no regions, or cells to cover)."""
    found = [] if cover else sorted((r & free for r in regions if r & free), key=lambda r: (r.bit_count(), r & -r))
    rest = free
    for r in found:
        rest &= ~r
    if rest or not found:
        found.append(rest)
    return found


@dataclass(frozen=True)
class _Placements:
    """The placements inside the free cells, by (slot, cell settled): their words, gain and slot,
    the offsets of each (slot, cell) run, and the count of each run."""

    lo: np.ndarray
    hi: np.ndarray
    gain: np.ndarray
    slot_of: np.ndarray
    off: np.ndarray
    counts: np.ndarray


def _index_placements(problem: PackingProblem, shape: _Shape) -> _Placements:
    """Every placement of every slot inside the free cells, slot by slot, by the cell it
    settles (its first cell, or with cells to cover its first cell to cover)."""
    free_lo, free_hi = split(problem.free)
    lo, hi = shape.lo, shape.hi
    inside = ((lo & ~free_lo) == 0) & ((hi & ~free_hi) == 0)
    key_lo, key_hi = split(problem.cover)
    if problem.cover:
        inside &= ((lo & key_lo) | (hi & key_hi)) != 0
    lo, hi, slot_of = lo[inside], hi[inside], shape.slot_of[inside]
    if problem.cover:
        first = lowest_cells(lo & key_lo, hi & key_hi)
        ordering = np.lexsort((first, slot_of))
        first, lo, hi, slot_of = first[ordering], lo[ordering], hi[ordering], slot_of[ordering]
        # worth the cells to cover it covers: all covered is the value to reach
        gain = popcount_array(lo & key_lo) + popcount_array(hi & key_hi)
    else:
        first = shape.first[inside]
        gain = shape.val[slot_of]
    n = len(problem.patch_ids)
    counts = np.bincount(slot_of * STRIDE + first, minlength=n * STRIDE)
    off = np.zeros(n * STRIDE + 1, dtype=np.int64)
    np.cumsum(counts, out=off[1:])
    return _Placements(lo=lo, hi=hi, gain=gain, slot_of=slot_of, off=off, counts=counts)


def _region_fits(placements: _Placements, regions: list[int]) -> np.ndarray:
    """Per region, the slots with a placement inside it (one region: never read)."""
    reg_fits = []
    for r in regions if len(regions) > 1 else ():
        r_lo, r_hi = split(r)
        inside = ((placements.lo & ~r_lo) == 0) & ((placements.hi & ~r_hi) == 0)
        fits = 0
        for slot in np.unique(placements.slot_of[inside]):
            fits |= 1 << int(slot)
        reg_fits.append(fits)
    return np.array(reg_fits or [0], dtype=np.uint64)


def instance(problem: PackingProblem, regions: Sequence[int]) -> tuple[Instance, int]:
    """The problem as the kernels read it, and the slots worth placing that have a placement
    inside the free cells (a bit each: the root's unused slots)."""
    cover = problem.cover
    shape = _shape(problem.patch_ids, problem.values, problem.budget is not None, bool(cover))
    placements = _index_placements(problem, shape)
    settled = parts(problem.free, regions, cover)
    n = len(problem.patch_ids)
    placed = np.flatnonzero(np.add.reduceat(placements.counts, np.arange(0, n * STRIDE, STRIDE))) if n else _NONE
    unused = 0
    for slot in placed.tolist():
        if shape.worth >> slot & 1:
            unused |= 1 << slot
    key_lo, key_hi = split(cover) if cover else (LOW, HIGH)  # no cells to cover: every cell counts
    words = [split(r) for r in settled]
    return Instance(
        area=shape.area, val=shape.val, cost=shape.cost,
        need=_unlinked(shape.need, problem.exclude),
        order=shape.order, dens=shape.dens, cheap=shape.cheap,
        off=placements.off, pl_lo=placements.lo, pl_hi=placements.hi, pl_gain=placements.gain,
        slot_of=placements.slot_of,
        reg_lo=np.array([w[0] for w in words], dtype=np.int64),
        reg_hi=np.array([w[1] for w in words], dtype=np.int64),
        reg_fits=_region_fits(placements, settled),
        key_lo=key_lo, key_hi=key_hi, must=1 if cover else 0,
        button_budget=-1 if problem.budget is None else problem.budget,
        by_value=shape.by_value,
        excluded=np.array(problem.exclude, dtype=np.uint64),
    ), unused
