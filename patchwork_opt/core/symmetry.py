"""The board's eight symmetries: the rotations and reflections of the 9x9 quilt, in one place.

Quilts equal up to one of them are the same for the rest of a game (every patch may be turned and
flipped, and the nine 7x7 windows map onto each other), so searches key positions on the
``canonical`` quilt and list one placement per class; the fill solvers break the same symmetries
(``solvers.symmetry`` builds on ``transform``).

``transform`` maps a mask cell by cell through a table built once at import; ``canonical`` is the
hot one (the exact search calls it at every node), so it works on whole rows instead: the four
images by mirroring rows and reversing their order, and the four of the transposed quilt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from patchwork_opt.core.bitboard import CELLS, FULL, SIZE, iter_bits

Cell = tuple[int, int]

SYMMETRIES = 8
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

#: BIT_MAPS[s][i]: the bit index cell ``i`` moves to under symmetry ``s``.
BIT_MAPS: tuple[tuple[int, ...], ...] = tuple(
    tuple((lambda rc: rc[0] * SIZE + rc[1])(f(*divmod(index, SIZE))) for index in range(CELLS))
    for f in _CELL_MAPS
)


def transform(mask: int, symmetry: int) -> int:
    """The image of ``mask`` under symmetry ``symmetry`` (0..7, 0 the identity)."""
    table = BIT_MAPS[symmetry]
    out = 0
    for index in iter_bits(mask):
        out |= 1 << table[index]
    return out


_ROW = (1 << SIZE) - 1
#: _REVERSED[r]: the 9-bit row r mirrored left to right.
_REVERSED: tuple[int, ...] = tuple(int(f"{r:09b}"[::-1], 2) for r in range(1 << SIZE))
#: _COLUMN[i][r]: row i's bits r laid into column i (the transpose of one row).
_COLUMN: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << (c * SIZE + i) for c in range(SIZE) if r >> c & 1) for r in range(1 << SIZE))
    for i in range(SIZE)
)


def _rows_forms(rows: list[int]) -> Iterator[int]:
    """The quilt with these rows, mirrored left-right, top-bottom and both."""
    plain = flipped = 0
    for i, r in enumerate(rows):
        plain |= r << (SIZE * i)
        flipped |= _REVERSED[r] << (SIZE * i)
    yield plain
    yield flipped
    plain_v = flipped_v = 0
    for i, r in enumerate(reversed(rows)):
        plain_v |= r << (SIZE * i)
        flipped_v |= _REVERSED[r] << (SIZE * i)
    yield plain_v
    yield flipped_v


def canonical(quilt: int) -> int:
    """The smallest of the eight images of ``quilt`` under the board's rotations and reflections
    (``min(transform(quilt, s) for s in range(8))``, computed row by row)."""
    if quilt == 0 or quilt == FULL:
        return quilt
    rows = [(quilt >> (SIZE * i)) & _ROW for i in range(SIZE)]
    transposed = 0
    for i, r in enumerate(rows):
        transposed |= _COLUMN[i][r]
    t_rows = [(transposed >> (SIZE * i)) & _ROW for i in range(SIZE)]
    return min(min(_rows_forms(rows)), min(_rows_forms(t_rows)))
