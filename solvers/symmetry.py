"""Symmetries the fill solvers exploit: the 8 of the square quilt, and patches sharing a shape.

Both are found from the catalogue and the quilt at hand, never hard-coded: twins are patches
whose placement sets are equal, and the quilt group is the subset of the 8 transforms (the
engine's, ``patchwork_opt.core.symmetry``) that map the covered cells onto themselves (all 8 for
an empty quilt).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from patchwork_opt.core.catalogue import PATCHES, PLACEMENTS
from patchwork_opt.core.symmetry import SYMMETRIES, transform


@lru_cache(maxsize=1024)
def quilt_symmetries(quilt: int) -> tuple[int, ...]:
    """The symmetries (indices, identity included) that leave the covered cells unchanged."""
    return tuple(s for s in range(SYMMETRIES) if transform(quilt, s) == quilt)


def canonical_placements(patch_id: int, symmetries: Sequence[int]) -> frozenset[int]:
    """Placements of the patch that are the smallest mask of their orbit under ``symmetries``.

    Every solution can be mapped by one of the symmetries to one where a chosen patch
    lies on a canonical placement, so restricting that patch loses no optimum.
    """
    return _canonical(patch_id, tuple(sorted(set(symmetries))))


@lru_cache(maxsize=256)
def _canonical(patch_id: int, symmetries: tuple[int, ...]) -> frozenset[int]:
    keep = set()
    for mask in PLACEMENTS[patch_id]:
        if all(transform(mask, s) >= mask for s in symmetries):
            keep.add(mask)
    return frozenset(keep)


def _twin_groups() -> tuple[tuple[int, ...], ...]:
    groups: dict[frozenset[int], list[int]] = {}
    for p in PATCHES:
        groups.setdefault(frozenset(p.placements), []).append(p.id)
    return tuple(tuple(ids) for ids in groups.values() if len(ids) > 1)


#: Groups of patch ids with exactly the same shape (same placements), from the catalogue.
SHAPE_TWINS: tuple[tuple[int, ...], ...] = _twin_groups()


def interchangeable_groups(
    patch_ids: Sequence[int], same: Callable[[int, int], bool] | None = None
) -> list[list[int]]:
    """Slots (indices into ``patch_ids``) of patches sharing a shape, grouped, in slot order.

    ``same(a, b)`` further requires two twins to be equal for the objective at hand (for
    example the same cost and income when those count); by default shape alone decides.
    """
    out: list[list[int]] = []
    for twins in SHAPE_TWINS:
        slots = [slot for slot, pid in enumerate(patch_ids) if pid in twins]
        while len(slots) > 1:
            head = slots[0]
            group = [s for s in slots if same is None or same(patch_ids[head], patch_ids[s])]
            if len(group) > 1:
                out.append(group)
            slots = [s for s in slots if s not in group]
    return out
