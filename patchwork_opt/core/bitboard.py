"""The 9x9 quilt as an 81-bit int: bit ``row * 9 + col`` is set when the cell is covered.

The quilt's geometry, each rule once: cells to a mask, the board's edges, neighbours and
regions, contact (how much of a placement's outline lies against covered cells or the
border), and the 7x7 windows. Tables here are built once at import; everything hot works on
plain ints. The compiled searches keep Numba copies on two-word quilts, each held to its
original here by a test (``tests/test_compiled_core.py``).
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


def window_progress(quilt: int) -> int:
    """Covered cells of the best-covered 7x7 window (49 when one is full): how close the quilt
    is to the bonus."""
    return max((quilt & window).bit_count() for window in WINDOW_MASKS)


def best_window(quilt: int) -> int:
    """The best-covered 7x7 window's mask (the first in ``WINDOW_MASKS`` order on ties)."""
    return max(WINDOW_MASKS, key=lambda window: (quilt & window).bit_count())


# --- the board's edges, neighbours and contact --------------------------------------------------

#: The cells of the top and bottom rows and of the left and right columns.
ROW0 = mask_of((0, c) for c in range(SIZE))
ROW8 = mask_of((SIZE - 1, c) for c in range(SIZE))
COL0 = mask_of((r, 0) for r in range(SIZE))
COL8 = mask_of((r, SIZE - 1) for r in range(SIZE))
#: Every cell but the left (right) column: the cells that may shift one column left (right).
NOT_COL0 = FULL & ~COL0
NOT_COL8 = FULL & ~COL8


def adjacent(mask: int) -> int:
    """Cells orthogonally adjacent to some cell of ``mask`` (cells of ``mask`` included when
    they neighbour another one)."""
    return ((mask << SIZE) & FULL) | (mask >> SIZE) | ((mask & NOT_COL8) << 1) | ((mask & NOT_COL0) >> 1)


def neighbours(mask: int) -> int:
    """Cells orthogonally adjacent to ``mask`` (not including ``mask`` itself)."""
    return adjacent(mask) & ~mask


def contact_planes(quilt: int) -> tuple[int, int, int, int]:
    """For each direction (up, down, left, right), the cells whose neighbour that way is
    covered or off the quilt: computed once per quilt, then ``edges_against`` per placement."""
    up = ((quilt << SIZE) & FULL) | ROW0
    down = (quilt >> SIZE) | ROW8
    left = ((quilt & NOT_COL8) << 1) | COL0
    right = ((quilt & NOT_COL0) >> 1) | COL8
    return up, down, left, right


def edges_against(mask: int, planes: tuple[int, int, int, int]) -> int:
    """Edges of the cells of ``mask`` lying against covered cells or the border (``planes``
    from ``contact_planes`` of the quilt)."""
    up, down, left, right = planes
    return (mask & up).bit_count() + (mask & down).bit_count() + (mask & left).bit_count() + (
        mask & right
    ).bit_count()


def contact_edges(mask: int, quilt: int) -> tuple[int, int]:
    """(touching, outline) of a placement ``mask`` on ``quilt``: the edges of its outline lying
    against covered cells or the border, and all the edges of its outline (those not shared by
    two of its own cells). Snug placements, the larger share touching, leave fewer ragged gaps."""
    return edges_against(mask, contact_planes(quilt)), edges_against(mask, contact_planes(FULL & ~mask))


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
