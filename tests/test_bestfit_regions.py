"""Region bounds: which empty cells the patches still to come can never fill."""

from __future__ import annotations

from patchwork_opt.core.bitboard import FULL, WINDOW_MASKS, bit, mask_of
from solvers.bounds import Pool, outlook, region_bound, subset_sums, unfillable_cells


def test_subset_sums_bitset() -> None:
    bits = subset_sums([2, 3])
    assert [s for s in range(8) if bits >> s & 1] == [0, 2, 3, 5]


def test_single_hole_needs_a_leather_patch() -> None:
    quilt = FULL & ~bit(4, 4)
    assert unfillable_cells(quilt, list(range(33))) == 1
    assert unfillable_cells(quilt, list(range(33)), singles=1) == 0


def test_two_cell_hole_needs_the_1x2_patch() -> None:
    quilt = FULL & ~(bit(0, 0) | bit(0, 1))
    assert unfillable_cells(quilt, [0]) == 0
    assert unfillable_cells(quilt, [1, 2, 3]) == 2


def test_region_bound_uses_subset_sums_of_fitting_patches() -> None:
    corridor = mask_of((8, c) for c in range(6))  # 1x6: the 1x3 and 1x2 fit, together 5 cells
    bound = region_bound(corridor, Pool.of([0, 1]))
    assert bound.size == 6 and bound.fillable == 5 and bound.unfillable == 1
    assert region_bound(corridor, Pool.of([0, 1, 2])).fillable == 6  # 2 + 4


def test_each_region_is_bounded_separately() -> None:
    holes = bit(0, 0) | bit(0, 1) | bit(8, 8)
    view = outlook(FULL & ~holes, Pool.of([0]))
    assert view.region_count == 2
    assert view.unfillable == 1
    assert view.dead_mask == bit(8, 8)


def test_window_open_needs_every_window_cell_reachable() -> None:
    hole = bit(0, 0) | bit(0, 1)
    quilt = WINDOW_MASKS[0] & ~hole
    assert outlook(quilt, Pool.of([0])).window_open()
    # no patch fits the 2-cell hole; but a window a row lower only needs row 7, cols 0..6
    assert outlook(quilt, Pool.of([1, 2, 3])).window_open()
    assert not outlook(quilt, Pool.of([1])).window_open()  # 3 cells cannot cover 7
    assert outlook(WINDOW_MASKS[4], Pool.of([])).window_open()  # already complete
