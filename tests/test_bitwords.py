"""The compiled code's two-word quilt (``core/bitwords``) against ``core/bitboard``: same cells, same
masks, every shift and count equal to the int version, on any quilt; and importing the engine loads
no compiler."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from patchwork_opt.core import bitboard as bb
from patchwork_opt.core import bitwords as bw

ROOT = Path(__file__).resolve().parents[1]
quilts = st.integers(min_value=0, max_value=bb.FULL)
cells = st.integers(min_value=0, max_value=bb.CELLS - 1)


def _joined(words: tuple[int, int]) -> int:
    lo, hi = words
    assert 0 <= lo <= bw.LOW and 0 <= hi <= bw.HIGH  # both words stay in their bits, signs clear
    return bw.join(lo, hi)


def test_the_words_split_the_quilt_between_rows_6_and_7() -> None:
    assert (bw.LOW_BITS, bw.HIGH_BITS) == (63, 18)
    assert bw.join(bw.LOW, bw.HIGH) == bb.FULL
    assert bw.split(bb.bit(6, 8)) == (1 << 62, 0)
    assert bw.split(bb.bit(7, 0)) == (0, 1)
    assert bw.split(bb.bit(8, 8)) == (0, 1 << 17)


def test_the_edge_masks_are_the_bitboards_split() -> None:
    for (lo, hi), mask in [((bw.COL0_LO, bw.COL0_HI), bb.COL0), ((bw.COL8_LO, bw.COL8_HI), bb.COL8),
                           ((bw.NOT_COL0_LO, bw.NOT_COL0_HI), bb.NOT_COL0),
                           ((bw.NOT_COL8_LO, bw.NOT_COL8_HI), bb.NOT_COL8),
                           ((bw.ROW0_LO, 0), bb.ROW0), ((0, bw.ROW8_HI), bb.ROW8)]:
        assert _joined((lo, hi)) == mask


@settings(max_examples=300, deadline=None)
@given(quilts)
def test_split_and_join_keep_every_cell(quilt: int) -> None:
    lo, hi = bw.split(quilt)
    assert bw.join(lo, hi) == quilt
    assert [c for c in range(bb.CELLS) if bw.covered(lo, hi, c)] == list(bb.iter_bits(quilt))
    assert bw.popcount(lo) + bw.popcount(hi) == quilt.bit_count()


@settings(max_examples=300, deadline=None)
@given(quilts)
def test_the_shifts_are_the_bitboards(quilt: int) -> None:
    lo, hi = bw.split(quilt)
    assert _joined(bw.down(lo, hi)) == (quilt << bb.SIZE) & bb.FULL
    assert _joined(bw.up(lo, hi)) == quilt >> bb.SIZE
    assert _joined(bw.right(lo, hi)) == (quilt & bb.NOT_COL8) << 1
    assert _joined(bw.left(lo, hi)) == (quilt & bb.NOT_COL0) >> 1
    assert _joined(bw.adjacent(lo, hi)) == bb.adjacent(quilt)


@settings(max_examples=200, deadline=None)
@given(quilts, st.integers(min_value=1, max_value=bw.LOW_BITS - 1), quilts)
def test_shift_back_and_order_are_the_ints(quilt: int, n: int, other: int) -> None:
    lo, hi = bw.split(quilt)
    assert _joined(bw.shift_back(lo, hi, n)) == quilt >> n
    assert bw.less(lo, hi, *bw.split(other)) == (quilt < other)


@settings(max_examples=200, deadline=None)
@given(quilts)
def test_a_quilt_by_rows(quilt: int) -> None:
    lo, hi = bw.split(quilt)
    by_rows = bw.rows(lo, hi)
    assert list(by_rows) == [(quilt >> (r * bb.SIZE)) & ((1 << bb.SIZE) - 1) for r in range(bb.SIZE)]
    assert bw.from_rows(*by_rows) == (lo, hi)


@settings(deadline=None)  # the first example loads the compiled helpers
@given(cells)
def test_a_cell_as_words(cell: int) -> None:
    lo, hi = bw.cell_words(cell)
    assert _joined((lo, hi)) == 1 << cell
    assert bw.bit_index(lo | hi) == cell - (0 if lo else bw.LOW_BITS)


def test_importing_the_engine_loads_no_compiler() -> None:
    code = ("import sys, patchwork_opt.core, patchwork_opt.core.state, patchwork_opt.core.bitboard\n"
            "print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"
