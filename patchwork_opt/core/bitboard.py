"""The 9x9 quilt as an 81-bit int: bit ``row * 9 + col`` is set when the cell is covered.

Tables here are built once at import; everything hot works on plain ints.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

SIZE = 9
CELLS = SIZE * SIZE
FULL = (1 << CELLS) - 1
WINDOW = 7


def bit(row: int, col: int) -> int:
    return 1 << (row * SIZE + col)


def mask_of(cells: Iterable[tuple[int, int]]) -> int:
    mask = 0
    for row, col in cells:
        mask |= bit(row, col)
    return mask


def cells_of(mask: int) -> list[tuple[int, int]]:
    """Cells of a mask in row-major order."""
    return [divmod(index, SIZE) for index in iter_bits(mask)]


def iter_bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _window_masks() -> tuple[int, ...]:
    windows = []
    for top in range(SIZE - WINDOW + 1):
        for left in range(SIZE - WINDOW + 1):
            windows.append(
                mask_of((top + r, left + c) for r in range(WINDOW) for c in range(WINDOW))
            )
    return tuple(windows)


#: The nine 7x7 windows, in row-major order of their top-left cell.
WINDOW_MASKS: tuple[int, ...] = _window_masks()
#: Top-left cell of each window, aligned with WINDOW_MASKS.
WINDOW_ORIGINS: tuple[tuple[int, int], ...] = tuple(
    (top, left) for top in range(SIZE - WINDOW + 1) for left in range(SIZE - WINDOW + 1)
)
#: Cells inside every 7x7 window (the central 5x5 block).
WINDOW_CORE = mask_of((r, c) for r in range(2, 7) for c in range(2, 7))


def full_window(quilt: int) -> tuple[int, int] | None:
    """Top-left cell of the first fully covered 7x7 window, if any (the one definition of a full
    window; the compiled search's copy, ``fastcore.full_window``, is tested against it)."""
    if quilt.bit_count() < WINDOW * WINDOW or quilt & WINDOW_CORE != WINDOW_CORE:
        return None  # too few cells, or the centre every window shares is not covered
    for origin, window in zip(WINDOW_ORIGINS, WINDOW_MASKS, strict=True):
        if quilt & window == window:
            return origin
    return None


def has_full_window(quilt: int) -> bool:
    return full_window(quilt) is not None


_COL0 = mask_of((r, 0) for r in range(SIZE))
_COL8 = mask_of((r, SIZE - 1) for r in range(SIZE))
NOT_COL0 = FULL & ~_COL0
NOT_COL8 = FULL & ~_COL8


def neighbours(mask: int) -> int:
    """Cells orthogonally adjacent to ``mask`` (not including ``mask`` itself)."""
    grown = (
        (mask << SIZE)
        | (mask >> SIZE)
        | ((mask & NOT_COL8) << 1)
        | ((mask & NOT_COL0) >> 1)
    ) & FULL
    return grown & ~mask


def regions(empty: int) -> list[int]:
    """Orthogonally connected components of ``empty``, each as a mask, largest first."""
    found: list[int] = []
    rest = empty
    while rest:
        region = rest & -rest
        while True:
            grown = (region | neighbours(region)) & empty
            if grown == region:
                break
            region = grown
        found.append(region)
        rest &= ~region
    found.sort(key=lambda m: -m.bit_count())
    return found
