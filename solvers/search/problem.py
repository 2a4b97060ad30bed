"""The one packing problem every search answers, and what a search returns.

"Which placements of which patches (each at most once) bring the most into these cells" and
"can these cells still all be covered" are one question to the compiled search
(``solvers.search.fastpack``): the first with a value per patch (its area by default), the
second with the cells to ``cover`` (a 7x7 window's missing cells, placements may spill onto
the other free cells). Optimal fill, best fit's lookahead, the region caps and 7x7 completion
all state their question as a ``PackingProblem``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from patchwork_opt.core.bitboard import FULL
from patchwork_opt.core.catalogue import PATCHES

#: The compiled search keeps the unused patches in one 64-bit word.
MAX_PATCHES = 64


@dataclass(frozen=True, slots=True)
class PackingProblem:
    """Patches to place (each at most once, disjoint) inside the ``free`` cells.

    ``values``: per slot, what placing it is worth (None: its area, the ``cells`` objective);
    a patch worth nothing or less is never placed. ``budget``: the button cost the placed
    patches may total (None: no limit). ``cover``: cells that must all end covered (0: none);
    a problem with cells to cover asks only whether that can be done. ``exclude``: sets of
    slots (bit ``s``: slot ``s``, none empty) a packing may not place exactly: a packing whose
    placed slots are one of them does not count, its supersets and subsets do (a no-good on the
    choice of patches, for asking what the best other choice reaches; not with cells to cover).
    """

    free: int
    patch_ids: tuple[int, ...]
    values: tuple[int, ...] | None = None
    budget: int | None = None
    cover: int = 0
    exclude: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not 0 <= self.free <= FULL:
            raise ValueError("free must be an 81-bit mask")
        if len(self.patch_ids) > MAX_PATCHES:
            raise ValueError(f"at most {MAX_PATCHES} patches")
        if self.values is not None and len(self.values) != len(self.patch_ids):
            raise ValueError("values: one per patch id")
        if self.budget is not None and self.budget < 0:
            raise ValueError("budget must be at least 0")
        if self.cover & ~self.free:
            raise ValueError("cells to cover must be free")
        if self.exclude and self.cover:
            raise ValueError("exclude: not with cells to cover")
        if any(not 0 < e < 1 << len(self.patch_ids) for e in self.exclude):
            raise ValueError("exclude: non-empty sets of the problem's slots")

    def value(self, slot: int) -> int:
        return PATCHES[self.patch_ids[slot]].area if self.values is None else self.values[slot]

    @property
    def by_area(self) -> bool:
        """The value of every patch is its area (the subset-sum bound applies)."""
        return self.values is None or all(
            v == PATCHES[pid].area for pid, v in zip(self.patch_ids, self.values, strict=True)
        )

    def interchangeable(self, a: int, b: int) -> bool:
        """Slots ``a`` and ``b`` (patches of one shape) are the same to this problem."""
        if self.budget is not None and PATCHES[self.patch_ids[a]].cost != PATCHES[self.patch_ids[b]].cost:
            return False
        return bool(self.cover) or self.value(a) == self.value(b)


@dataclass(slots=True)
class PackResult:
    """The best packing found: ``value`` and its ``(slot, mask)`` placements; ``exhausted``:
    proven optimal (for a cover problem: ``covered`` is then True or False for good)."""

    value: int
    placements: list[tuple[int, int]] = field(default_factory=list)
    exhausted: bool = False
    nodes: int = 0
    covered: bool | None = None
