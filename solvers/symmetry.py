"""Symmetries the fill solvers exploit: the 8 of the square quilt, and patches sharing a shape.

Both are found from the catalogue and the quilt at hand, never hard-coded: twins are patches
whose placement sets are equal, and the quilt group is the subset of the 8 transforms that
map the covered cells onto themselves (all 8 for an empty quilt).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from patchwork_opt.core.bitboard import CELLS, SIZE, iter_bits
from patchwork_opt.core.catalogue import PATCHES, PLACEMENTS

Cell = tuple[int, int]

_LAST = SIZE - 1
#: The 8 symmetries of the square, as maps on (row, col); index 0 is the identity.
_CELL_MAPS: tuple[Callable[[int, int], Cell], ...] = (
    lambda r, c: (r, c),
    lambda r, c: (c, _LAST - r),
    lambda r, c: (_LAST - r, _LAST - c),
    lambda r, c: (_LAST - c, r),
    lambda r, c: (r, _LAST - c),
    lambda r, c: (_LAST - r, c),
    lambda r, c: (c, r),
    lambda r, c: (_LAST - c, _LAST - r),
)

#: For each symmetry, the bit index each of the 81 cells moves to.
BIT_MAPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (lambda rc: rc[0] * SIZE + rc[1])(f(*divmod(index, SIZE)))
        for index in range(CELLS)
    )
    for f in _CELL_MAPS
)


def transform(mask: int, symmetry: int) -> int:
    """The image of ``mask`` under symmetry ``symmetry`` (0..7)."""
    table = BIT_MAPS[symmetry]
    out = 0
    for index in iter_bits(mask):
        out |= 1 << table[index]
    return out


@lru_cache(maxsize=1024)
def quilt_symmetries(quilt: int) -> tuple[int, ...]:
    """The symmetries (indices, identity included) that leave the covered cells unchanged."""
    return tuple(s for s in range(8) if transform(quilt, s) == quilt)


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
