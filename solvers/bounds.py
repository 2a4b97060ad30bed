"""Bounds on what a set of patches can still cover, from the quilt's empty regions and subset sums.

A covered area is always a sum of the areas of the patches used, so the best fill is at most the
largest achievable subset sum that fits in the empty cells, and within each empty region at most
the largest subset sum of the patches that fit in that region. Subset sums are bitsets (bit ``s``
set when sum ``s`` is achievable): a shift-or per patch.

The same arithmetic says which empty cells a pool of patches can never fill (*unfillable*: each
costs 2 points at the end of the game). Small regions (up to ``SMALL_REGION`` cells) get the exact
treatment (which pool patches fit, which cells they reach); larger ones count as fillable: whether
the pool has enough area for all of them is a shortage of the whole quilt, the same wherever a patch
goes, not a hole a placement makes (counting it per region would also reward splitting one big
region into two). Region results are cached per (region, pool), because the candidates of one
best-fit call share most regions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from patchwork_opt.core.bitboard import FULL, SIZE, WINDOW_MASKS, bit, cells_of, has_full_window, regions
from patchwork_opt.core.catalogue import PATCHES, fitting_anchors, legal_placements

if TYPE_CHECKING:  # NetworkX takes about 0.1 s to import: only ``empty_graph`` loads it
    import networkx as nx


def subset_sums(areas: Iterable[int]) -> int:
    """Bitset of the achievable sums of sub-multisets of ``areas`` (bit 0 always set)."""
    bits = 1
    for area in areas:
        bits |= bits << area
    return bits


def best_sum_at_most(bits: int, cap: int) -> int:
    """The largest achievable sum in ``bits`` that is at most ``cap`` (0 when cap < 0)."""
    if cap < 0:
        return 0
    return (bits & ((1 << (cap + 1)) - 1)).bit_length() - 1


def sums_list(bits: int, cap: int | None = None) -> list[int]:
    """The achievable sums in ``bits`` (at most ``cap``), ascending."""
    out = []
    value = 0
    while bits:
        if bits & 1:
            if cap is not None and value > cap:
                break
            out.append(value)
        bits >>= 1
        value += 1
    return out


def knapsack_bound(
    weights: Sequence[int], values: Sequence[int], capacity: int, costs: Sequence[int], budget: int | None
) -> int:
    """Best total value with total weight <= capacity (and cost <= budget): exact DP, the
    bound of the ``points`` objective and of a button budget."""
    if budget is None:
        best = [0] * (capacity + 1)
        for w, v in zip(weights, values, strict=False):
            if v <= 0 or w > capacity:
                continue
            for cap in range(capacity, w - 1, -1):
                if best[cap - w] + v > best[cap]:
                    best[cap] = best[cap - w] + v
        return best[capacity]
    table = [[0] * (budget + 1) for _ in range(capacity + 1)]
    for w, v, c in zip(weights, values, costs, strict=False):
        if v <= 0 or w > capacity or c > budget:
            continue
        for cap in range(capacity, w - 1, -1):
            row, prev = table[cap], table[cap - w]
            for b in range(budget, c - 1, -1):
                if prev[b - c] + v > row[b]:
                    row[b] = prev[b - c] + v
    return table[capacity][budget]


@dataclass(frozen=True, slots=True)
class RegionInfo:
    """One connected part of the cells some placement can reach, and what can go in it."""

    mask: int
    size: int
    slots: tuple[int, ...]  # slots of the patches with at least one placement inside
    best: int  # largest subset sum of those patches' areas that is <= size


@dataclass(frozen=True, slots=True)
class FillBounds:
    """What the quilt and the patch areas alone say about the best fill."""

    empty: int  # empty cells
    reachable: int  # mask of empty cells at least one placement can cover
    regions: tuple[RegionInfo, ...]
    placements: tuple[tuple[int, ...], ...]  # legal placements per slot
    upper: int  # upper bound on the covered cells


def fill_bounds(quilt: int, patch_ids: Sequence[int]) -> FillBounds:
    """Legal placements per slot, reachable regions and the area upper bound."""
    empty_mask = FULL & ~quilt
    placements = tuple(tuple(legal_placements(pid, quilt)) for pid in patch_ids)
    reachable = 0
    for masks in placements:
        for mask in masks:
            reachable |= mask
    infos = []
    for region in regions(reachable):
        size = region.bit_count()
        slots = tuple(
            slot for slot, masks in enumerate(placements) if any(m & region == m for m in masks)
        )
        bits = subset_sums(PATCHES[patch_ids[s]].area for s in slots)
        infos.append(RegionInfo(mask=region, size=size, slots=slots, best=best_sum_at_most(bits, size)))
    usable = [s for s, masks in enumerate(placements) if masks]
    global_best = best_sum_at_most(
        subset_sums(PATCHES[patch_ids[s]].area for s in usable), reachable.bit_count()
    )
    upper = min(global_best, sum(info.best for info in infos))
    return FillBounds(
        empty=empty_mask.bit_count(),
        reachable=reachable,
        regions=tuple(infos),
        placements=placements,
        upper=upper,
    )


# --- unfillable cells per region, for a pool of patches still to come ---------------------------

#: Regions up to this many cells get exact fit and reach checks; larger ones an area bound.
SMALL_REGION = 16


@dataclass(frozen=True, slots=True)
class Pool:
    """The pieces still to come: patch ids (each usable once) and a number of 1x1 leather patches."""

    ids: tuple[int, ...]
    singles: int = 0

    @classmethod
    def of(cls, ids: Iterable[int], singles: int = 0) -> Pool:
        return cls(tuple(sorted(set(ids))), max(0, singles))

    def without(self, patch_id: int) -> Pool:
        return Pool(tuple(i for i in self.ids if i != patch_id), self.singles)

    @property
    def total_area(self) -> int:
        return sum(PATCHES[i].area for i in self.ids) + self.singles


@dataclass(frozen=True, slots=True)
class RegionBound:
    """What a pool can do in one empty region: cells it can cover at most, cells it can reach."""

    size: int
    fillable: int  # upper bound on the cells of the region that can ever be covered
    reach: int  # mask of region cells some fitting placement (or a leather patch) covers

    @property
    def unfillable(self) -> int:
        return self.size - self.fillable


def _fits_in(patch_id: int, free: int) -> int:
    """Union of the placements of the patch lying inside ``free`` (0 when none)."""
    quilt = FULL & ~free
    reach = 0
    for orientation in PATCHES[patch_id].orientations:
        fit = fitting_anchors(orientation, quilt)
        shape = orientation.mask
        while fit:
            low = fit & -fit
            reach |= shape << (low.bit_length() - 1)
            fit ^= low
    return reach


@lru_cache(maxsize=1 << 17)
def region_bound(region: int, pool: Pool) -> RegionBound:
    """Upper bound on how much of ``region`` (one connected empty region) ``pool`` can cover."""
    size = region.bit_count()
    if size > SMALL_REGION:
        return RegionBound(size, size, region)
    reach = 0
    bits = 1
    for pid in pool.ids:
        if PATCHES[pid].area > size:
            continue
        covered = _fits_in(pid, region)
        if covered:
            reach |= covered
            bits |= bits << PATCHES[pid].area
    for _ in range(min(pool.singles, size)):
        bits |= bits << 1
    if pool.singles:
        reachable_cells = min(size, reach.bit_count() + pool.singles)
        reach = region
    else:
        reachable_cells = reach.bit_count()
    return RegionBound(size, best_sum_at_most(bits, reachable_cells), reach)


@dataclass(frozen=True, slots=True)
class FillOutlook:
    """The empty regions of a quilt with the pool's bound on each."""

    quilt: int
    pool: Pool
    regions: tuple[tuple[int, RegionBound], ...]

    @property
    def unfillable(self) -> int:
        return sum(bound.unfillable for _, bound in self.regions)

    @property
    def dead_mask(self) -> int:
        """Empty cells no pool placement reaches (a subset of the unfillable cells' count)."""
        dead = 0
        for region, bound in self.regions:
            dead |= region & ~bound.reach
        return dead

    @property
    def region_count(self) -> int:
        return len(self.regions)

    def after(self, mask: int, pool: Pool | None = None) -> FillOutlook:
        """The outlook once ``mask`` is covered: only regions ``mask`` touches are recomputed."""
        pool = self.pool if pool is None else pool
        if pool != self.pool:
            return outlook(self.quilt | mask, pool)
        kept: list[tuple[int, RegionBound]] = []
        touched = 0
        for region, bound in self.regions:
            if region & mask:
                touched |= region
            else:
                kept.append((region, bound))
        for region in regions(touched & ~mask):
            kept.append((region, region_bound(region, pool)))
        return FillOutlook(self.quilt | mask, pool, tuple(kept))

    def window_open(self) -> bool:
        """Necessary conditions for completing some 7x7 square with the pool.

        True when the quilt already has one; otherwise some window must have every empty cell
        reachable, no region asked for more cells than it can take, and the pool must have the
        area. False is a proof that no square can be completed; True is not a promise.
        """
        if has_full_window(self.quilt):
            return True
        total = self.pool.total_area
        for window in WINDOW_MASKS:
            need = window & ~self.quilt
            if need.bit_count() > total:
                continue
            ok = True
            for region, bound in self.regions:
                part = region & need
                if part and (part & ~bound.reach or part.bit_count() > bound.fillable):
                    ok = False
                    break
            if ok:
                return True
        return False


def outlook(quilt: int, pool: Pool) -> FillOutlook:
    """Region bounds for every empty region of ``quilt``."""
    return FillOutlook(quilt, pool, tuple((r, region_bound(r, pool)) for r in regions(FULL & ~quilt)))


def unfillable_cells(quilt: int, patch_ids: Sequence[int], singles: int = 0) -> int:
    """Empty cells of ``quilt`` that the patches (each once) and ``singles`` 1x1 patches can never cover."""
    return outlook(quilt, Pool.of(patch_ids, singles)).unfillable


def empty_graph(quilt: int) -> nx.Graph:
    """The quilt's empty cells as a grid graph (orthogonal neighbours), for analyses beyond region sizes."""
    import networkx as nx

    graph = nx.Graph()
    empty = FULL & ~quilt
    for row, col in cells_of(empty):
        graph.add_node((row, col))
        if col + 1 < SIZE and empty & bit(row, col + 1):
            graph.add_edge((row, col), (row, col + 1))
        if row + 1 < SIZE and empty & bit(row + 1, col):
            graph.add_edge((row, col), (row + 1, col))
    return graph
