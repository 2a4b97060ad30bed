"""The Quilt value type: its text and JSON forms, bad input, regions and the 7x7 test."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest
from conftest import cells_mask, full_except

from patchwork_opt.core.bitboard import FULL, WINDOW_MASKS, bit, full_window, has_full_window, regions
from patchwork_opt.core.errors import PatchworkError, QuiltFormatError
from patchwork_opt.core.quilt import Quilt, parse_cell, render_quilt
from patchwork_opt.formats.inputs import load_quilt
from solvers.bounds import empty_graph

SAMPLE = "\n".join(
    [
        "##.......",
        "##.......",
        ".........",
        "....x....",
        ".........",
        ".........",
        ".........",
        ".........",
        "........#",
    ]
)
SAMPLE_CELLS = [(0, 0), (0, 1), (1, 0), (1, 1), (3, 4), (8, 8)]


def test_text_form_any_character_but_dot_is_covered() -> None:
    quilt = Quilt.parse(SAMPLE)
    assert quilt.mask == cells_mask(SAMPLE_CELLS)
    assert quilt.cells() == SAMPLE_CELLS
    assert quilt.covered == 6 and quilt.empty == 75
    assert quilt.is_covered(3, 4) and not quilt.is_covered(4, 3)


def test_text_and_json_forms_round_trip() -> None:
    quilt = Quilt.parse(SAMPLE)
    assert Quilt.parse(quilt.to_text()) == quilt
    assert quilt.to_json() == [[r, c] for r, c in SAMPLE_CELLS]
    assert Quilt.parse(json.dumps(quilt.to_json())) == quilt
    assert Quilt.parse("[]") == Quilt(0)
    assert Quilt.parse("\n\n" + SAMPLE + "\n\n") == quilt, "blank lines around are ignored"


def test_empty_and_full_quilts() -> None:
    assert Quilt().to_text() == "\n".join(["." * 9] * 9)
    assert Quilt(FULL).empty == 0
    assert Quilt(FULL).empty_regions() == []
    assert Quilt().empty_regions() == [FULL]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("\n".join(["." * 9] * 8), "9 rows, found 8"),
        ("\n".join(["." * 9] * 10), "9 rows, found 10"),
        ("\n".join(["." * 9] * 3 + ["." * 8] + ["." * 9] * 5), "quilt row 3 has 8 cells, expected 9"),
        ("\n".join(["." * 9] * 5 + ["." * 10] + ["." * 9] * 3), "quilt row 5 has 10 cells"),
        ("\n".join(["." * 9] * 2 + ["... ....."] + ["." * 9] * 6), "row 2, col 3: whitespace"),
        ("", "9 rows, found 0"),
    ],
)
def test_malformed_text_is_refused_naming_the_row(text: str, words: str) -> None:
    with pytest.raises(QuiltFormatError, match=words):
        Quilt.parse(text)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[[0, 0], [9, 0]]", "cell 1: cell \\[9, 0\\] is off the 9x9 quilt"),
        ("[[0, -1]]", "cell 0: cell \\[0, -1\\] is off"),
        ("[[0, 0, 0]]", "cell 0: expected \\[row, col\\]"),
        ('[["a", 1]]', "cell 0: expected \\[row, col\\]"),
        ("[[true, 1]]", "cell 0: expected \\[row, col\\]"),
        ("[[0, 0],", "quilt JSON is malformed"),
    ],
)
def test_bad_json_cells_are_refused_naming_the_cell(text: str, words: str) -> None:
    with pytest.raises(QuiltFormatError, match=words):
        Quilt.parse(text)


def test_quilt_errors_are_patchwork_errors_with_exit_code_2() -> None:
    with pytest.raises(PatchworkError) as info:
        Quilt.parse("[[9, 9]]")
    assert info.value.exit_code == 2
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("mask", [-1, FULL + 1])
def test_a_mask_beyond_81_bits_is_refused(mask: int) -> None:
    with pytest.raises(QuiltFormatError, match="81-bit"):
        Quilt(mask)


def test_parse_cell() -> None:
    assert parse_cell([8, 0]) == (8, 0)
    with pytest.raises(QuiltFormatError, match="leather cell: cell \\[2, 9\\]"):
        parse_cell([2, 9], "leather cell")


def test_place_refuses_overlap_and_is_immutable() -> None:
    quilt = Quilt(bit(0, 0))
    placed = quilt.place(bit(0, 1))
    assert quilt.mask == bit(0, 0), "the original is unchanged"
    assert placed.mask == bit(0, 0) | bit(0, 1)
    with pytest.raises(QuiltFormatError, match="overlaps"):
        placed.place(bit(0, 1) | bit(0, 2))
    assert quilt.fits(bit(5, 5)) and not quilt.fits(bit(0, 0))


def test_empty_regions_are_connected_components_largest_first() -> None:
    # A full column 4 splits the quilt into a 4-column left part (minus (0, 0)) and a 4-column right part.
    column = cells_mask((r, 4) for r in range(9))
    quilt = Quilt(column | bit(0, 0) | bit(8, 8) | bit(7, 8))
    found = quilt.empty_regions()
    assert [r.bit_count() for r in found] == [35, 34]
    assert sum(found) == quilt.empty_mask
    graph = empty_graph(quilt.mask)
    assert graph.number_of_nodes() == 69
    assert sorted(len(c) for c in nx.connected_components(graph)) == [34, 35]


def test_diagonal_cells_are_not_connected() -> None:
    # Empty cells (0, 0) and (1, 1) touch only at a corner.
    quilt = Quilt(full_except([(0, 0), (1, 1)]))
    assert [r.bit_count() for r in quilt.empty_regions()] == [1, 1]
    assert regions(0) == []


def test_the_seven_by_seven_test_covers_the_nine_windows() -> None:
    assert len(WINDOW_MASKS) == 9
    for w in WINDOW_MASKS:
        assert w.bit_count() == 49
        assert Quilt(w).has_bonus_square()
        for cell in range(81):
            if w >> cell & 1:
                assert not has_full_window(w & ~(1 << cell))
                break
    corner = cells_mask((r, c) for r in range(2, 9) for c in range(2, 9))
    assert Quilt(corner).bonus_square() == (2, 2)
    assert full_window(corner) == (2, 2)
    assert Quilt(full_except([(4, 4)])).bonus_square() is None
    # 6x9 plus a row with a gap: no square.
    assert not Quilt(cells_mask((r, c) for r in range(6) for c in range(9))).has_bonus_square()


def test_render_quilt_draws_a_box_with_nine_rows() -> None:
    lines = render_quilt(Quilt.parse(SAMPLE)).splitlines()
    assert len(lines) == 11
    assert lines[0].startswith("┌") and lines[-1].startswith("└")
    assert lines[1].count("█") == 2 and lines[9].count("█") == 1
    assert all(line.count("·") == 9 for line in lines[5:9])


def test_load_quilt_from_files_and_inline(tmp_path: Path) -> None:
    text_file = tmp_path / "q.txt"
    text_file.write_text(SAMPLE + "\n", encoding="utf-8")
    json_file = tmp_path / "q.json"
    json_file.write_text(json.dumps(Quilt.parse(SAMPLE).to_json()), encoding="utf-8")
    assert load_quilt(str(text_file)) == load_quilt(str(json_file)) == load_quilt(SAMPLE)
    with pytest.raises(PatchworkError, match="no such file"):
        load_quilt(str(tmp_path / "missing.txt"))
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(["." * 9] * 8), encoding="utf-8")
    with pytest.raises(QuiltFormatError, match="9 rows, found 8"):
        load_quilt(str(bad))


# --- the geometry every rule of thumb shares (issue 31: each once, in the engine) ----------------


def test_contact_counts_the_outline_edges_against_covered_cells_or_the_border() -> None:
    from patchwork_opt.core.bitboard import contact_edges

    domino = bit(0, 0) | bit(0, 1)  # in the corner: top 2 and left 1 of its 6 outline edges
    assert contact_edges(domino, 0) == (3, 6)
    assert contact_edges(domino, bit(1, 0) | bit(1, 1) | bit(5, 5)) == (5, 6)  # and the 2 below
    centre = bit(4, 4)
    assert contact_edges(centre, 0) == (0, 4)
    assert contact_edges(centre, bit(3, 4) | bit(5, 4) | bit(4, 3) | bit(4, 5)) == (4, 4)
    square = bit(3, 3) | bit(3, 4) | bit(4, 3) | bit(4, 4)  # its 4 inner edges are not outline
    assert contact_edges(square, FULL & ~square) == (8, 8)


def test_the_heuristic_and_best_fit_count_the_same_contact() -> None:
    """The heuristic scores the edges touching, best fit their share of the outline: one count."""
    import random

    from patchwork_opt.ai.heuristic import score_parts
    from patchwork_opt.core.bitboard import contact_edges
    from patchwork_opt.core.catalogue import legal_placements
    from solvers.bestfit import contact

    rng = random.Random(4)
    checked = 0
    for _ in range(60):
        quilt = 0
        for _ in range(rng.randint(0, 10)):
            masks = legal_placements(rng.randrange(33), quilt)
            if masks:
                quilt |= rng.choice(masks)
        for mask in legal_placements(rng.randrange(33), quilt)[:10]:
            touching, outline = contact_edges(mask, quilt)
            assert 0 <= touching <= outline
            assert score_parts(quilt, mask, True)["contact"] == touching
            assert contact(mask, quilt) == touching / outline
            checked += 1
    assert checked > 100


def test_window_progress_and_the_best_covered_window() -> None:
    from patchwork_opt.core.bitboard import best_window, window_progress

    assert window_progress(0) == 0 and best_window(0) == WINDOW_MASKS[0]  # ties: the first window
    bottom_right = WINDOW_MASKS[-1]
    quilt = bottom_right & ~(bit(8, 8) | bit(5, 5))
    assert window_progress(quilt) == 47 and best_window(quilt) == bottom_right
    assert window_progress(quilt | bit(8, 8) | bit(5, 5)) == 49 and has_full_window(quilt | bit(8, 8) | bit(5, 5))


def test_neighbours_stay_on_the_quilt() -> None:
    from patchwork_opt.core.bitboard import adjacent, neighbours

    assert neighbours(bit(0, 8)) == bit(0, 7) | bit(1, 8)  # no wrap onto the next row
    assert neighbours(bit(8, 0)) == bit(7, 0) | bit(8, 1)
    line = bit(4, 2) | bit(4, 3)
    assert adjacent(line) & line == line and neighbours(line) & line == 0
    assert neighbours(line).bit_count() == 6
