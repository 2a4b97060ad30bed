"""How a placement divides the open area, in a placement's reasons: the region it splits (with the
cells whose covering alone would have split it) and the small holes it leaves with the patches still
to come that can fill them, said where they happen and never where they do not."""

from __future__ import annotations

from patchwork_opt.apps.placement_reasons import open_area_words, placement_reasons, reasons_lines, summary
from patchwork_opt.core.bitboard import FULL, bit, mask_of
from patchwork_opt.core.catalogue import PATCH_COUNT
from solvers.bestfit import best_fit
from solvers.bounds import Pool
from solvers.open_area import SMALL_HOLE, open_area_change

EVERY_PATCH = Pool.of(range(PATCH_COUNT))
#: Only row 0 open: a corridor of 9 cells.
CORRIDOR = FULL & ~mask_of((0, c) for c in range(9))
#: Only rows 0-1 open: a band two cells wide, where no single cell holds the area together.
BAND = FULL & ~mask_of((r, c) for r in range(2) for c in range(9))
#: Two open 2x4 blocks joined by one cell, row 0, col 4.
BRIDGED = FULL & ~mask_of([*((r, c) for r in range(2) for c in (0, 1, 2, 3, 5, 6, 7, 8)), (0, 4)])


def test_a_placement_on_the_one_cell_joining_two_blocks_splits_the_open_area_there() -> None:
    on_bridge = mask_of([(0, 3), (0, 4)])
    change = open_area_change(BRIDGED, on_bridge, EVERY_PATCH)
    assert change.cut == on_bridge and [p.bit_count() for p in change.parts] == [8, 7]
    assert open_area_words(BRIDGED, on_bridge, EVERY_PATCH) == (
        "splits the open area in two (parts of 8 cells and 7 cells); "
        "covering row 0, col 3 or row 0, col 4 alone would have split it")
    with_another_region = BRIDGED & ~bit(8, 8)
    assert open_area_words(with_another_region, on_bridge, EVERY_PATCH).startswith(
        "splits its part of the open area in two (parts of 8 cells and 7 cells)")
    # at the far end of a block: the area stays in one piece and nothing is said
    assert open_area_words(BRIDGED, mask_of([(0, 0), (1, 0)]), EVERY_PATCH) == ""


def test_a_corridor_cut_into_small_pieces_is_told_as_holes_with_the_patches_that_fit_them() -> None:
    words = open_area_words(CORRIDOR, mask_of([(0, 2), (0, 3)]), Pool.of([1]))
    assert words == ("leaves a 2-cell hole no patch still to come can fill; "
                     "leaves a 5-cell hole only #1 can go in, covering at most 3 of its cells")
    assert "splits" not in words


def test_a_split_across_a_band_names_no_single_cell() -> None:
    # a 2x2 across the band cuts it, but no one cell of it held the band together
    change = open_area_change(BAND, mask_of([(0, 3), (0, 4), (1, 3), (1, 4)]), EVERY_PATCH)
    assert change.splits and change.cut == 0 and change.holes == ()
    assert [p.bit_count() for p in change.parts] == [8, 6]
    words = open_area_words(BAND, mask_of([(0, 3), (0, 4), (1, 3), (1, 4)]), EVERY_PATCH)
    assert words == "splits the open area in two (parts of 8 cells and 6 cells)"


def test_a_placement_that_neither_splits_nor_leaves_a_hole_says_nothing() -> None:
    assert open_area_words(0, mask_of([(0, 0), (0, 1)]), EVERY_PATCH) == ""  # a corner of the empty quilt
    assert open_area_words(CORRIDOR, mask_of([(0, 0), (0, 1)]), EVERY_PATCH) == ""  # 7 cells left in one piece
    end = mask_of((0, c) for c in range(4, 9))
    assert open_area_words(CORRIDOR, end, EVERY_PATCH) != ""  # the same corridor left at 4 cells is a hole
    assert open_area_words(FULL & ~mask_of([(8, 7), (8, 8)]), mask_of([(8, 7), (8, 8)]), EVERY_PATCH) == ""  # filled


def test_a_small_region_left_whole_is_a_hole_with_the_patches_that_fill_it() -> None:
    seven = FULL & ~mask_of((0, c) for c in range(7))
    words = open_area_words(seven, mask_of([(0, 0), (0, 1), (0, 2)]), EVERY_PATCH)
    assert words == "leaves a 4-cell hole only #0, #1, or #2 can fill"
    assert "splits" not in words
    # one size past a hole: the corridor's 6 cells are not told
    assert open_area_words(seven, bit(0, 0), EVERY_PATCH) == ""
    assert SMALL_HOLE == 5


def test_a_hole_names_leather_and_counts_many_patches() -> None:
    # the corner cell shut off by an L: only leather fills a 1-cell hole
    corner = mask_of([(0, 1), (1, 0), (1, 1)])
    assert open_area_words(0, corner, Pool.of([0, 1], 2)) == "leaves a 1-cell hole only a leather patch can fill"
    assert open_area_words(0, corner, Pool.of([0, 1])) == "leaves a 1-cell hole no patch still to come can fill"
    # a P-shaped hole of 5 cells: more patches fit it than are worth naming (#0, #1, #4, #5, #13, #17, #18,
    # #25 to #28); the pair below it one alone fills
    p_hole = mask_of([(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)])
    quilt = FULL & ~(p_hole | mask_of([(2, 0), (3, 0), (3, 1)]))
    assert open_area_words(quilt, bit(2, 0), EVERY_PATCH) == (
        "leaves a 2-cell hole only #0 can fill; leaves a 5-cell hole 11 of the patches still to come can fill")


def test_the_best_fit_reasons_carry_the_open_area_into_every_telling() -> None:
    # a domino in the corridor with only a 1x3 still to come: its worst placements split the corridor
    result = best_fit(CORRIDOR, 0, [], pool=[1], top_k=8, deadline=None)
    told = {tuple(map(tuple, h.cells)): placement_reasons(CORRIDOR, h, result) for h in result.hints}
    middle = told[((0, 2), (0, 3))]
    assert middle.open_area == open_area_words(CORRIDOR, mask_of([(0, 2), (0, 3)]), Pool.of([1]))
    assert middle.open_area in summary(middle) and middle.open_area in reasons_lines(middle)
    assert told[((0, 0), (0, 1))].open_area == ""
    assert all(r.open_area.startswith("leaves a ") for cells, r in told.items() if cells[0][1] not in (0, 7))
