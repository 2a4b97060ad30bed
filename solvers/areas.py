"""Area arithmetic behind the fill bounds: subset sums of patch areas, per empty region.

A covered area is always a sum of the areas of the patches used, so the best fill is at
most the largest achievable subset sum that fits in the empty cells, and within each empty
region at most the largest subset sum of the patches that fit in that region. Subset sums
are bitsets (bit ``s`` set when sum ``s`` is achievable): a shift-or per patch.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from patchwork_opt.bitboard import FULL, regions
from patchwork_opt.catalogue import PATCHES, legal_placements


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
