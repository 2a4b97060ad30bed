"""Which empty cells a pool of patches can still fill: per-region bounds from subset sums.

An empty region (a connected group of empty cells) can only ever be covered by patches that
fit inside it, and only up to the largest subset sum of their areas that is at most the
region's size; cells no such placement reaches stay empty whatever happens. The cells above
that bound are *unfillable*: each costs 2 points at the end of the game. Small regions get the
exact treatment (which pool patches fit, which cells they reach); regions larger than
``SMALL_REGION`` count as fillable: whether the pool has enough area for all of them is a
shortage of the whole quilt, the same wherever a patch goes, not a hole a placement makes
(counting it per region would also reward splitting one big region into two). Results are
cached per (region, pool), because the candidates of one best-fit call share most regions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from patchwork_opt.bitboard import FULL, WINDOW_MASKS, has_full_window, regions
from patchwork_opt.catalogue import PATCHES, fitting_anchors
from solvers.areas import best_sum_at_most

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
