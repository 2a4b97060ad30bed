"""The patch catalogue against the facts RULES.md states, and the placement tables built from it."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from patchwork_opt.core.bitboard import FULL, SIZE, bit, cells_of
from patchwork_opt.core.catalogue import (
    ALL_PLACEMENTS,
    PATCHES,
    PLACEMENTS,
    fits_anywhere,
    is_placement,
    legal_placements,
    orientation_of,
    patch,
    placement,
)
from patchwork_opt.core.errors import UnknownPatchError

# ../shared beside the project, as on the developers' machines and in CI
REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "patches.json"


def project_catalogue() -> list[dict[str, object]]:
    text = resources.files("patchwork_opt").joinpath("data/patches.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, list)
    return data


def test_totals_are_those_of_the_rules() -> None:
    assert len(PATCHES) == 33
    assert [p.id for p in PATCHES] == list(range(33))
    assert sum(p.area for p in PATCHES) == 166
    assert sum(p.cost for p in PATCHES) == 133
    assert sum(p.time for p in PATCHES) == 107
    assert sum(p.income for p in PATCHES) == 38


def test_income_is_the_number_of_button_icons_on_the_shape() -> None:
    for p in PATCHES:
        assert p.income == sum(row.count("o") for row in p.shape), p.id


def test_patch_0_is_the_1x2_patch_costing_2_and_1_time() -> None:
    p0 = PATCHES[0]
    assert (p0.cost, p0.time, p0.income, p0.area) == (2, 1, 0, 2)
    assert len(p0.orientations) == 2


def test_the_5_3_1_patch_has_8_cells() -> None:
    (p,) = [p for p in PATCHES if (p.cost, p.time, p.income) == (5, 3, 1)]
    assert p.area == 8


def test_7349_placements_on_an_empty_quilt_and_at_most_448_for_one_patch() -> None:
    assert len(ALL_PLACEMENTS) == 7349
    assert sum(len(m) for m in PLACEMENTS) == 7349
    assert max(len(m) for m in PLACEMENTS) == 448


def test_placements_are_distinct_on_the_board_and_have_the_patch_area() -> None:
    for p in PATCHES:
        masks = PLACEMENTS[p.id]
        assert len(set(masks)) == len(masks), p.id
        for m in masks:
            assert m & ~FULL == 0
            assert m.bit_count() == p.area
        assert sorted(legal_placements(p.id, 0)) == sorted(masks)


def test_orientations_are_distinct_and_at_most_eight() -> None:
    for p in PATCHES:
        shapes = [o.cells for o in p.orientations]
        assert 1 <= len(shapes) <= 8
        assert len(set(shapes)) == len(shapes), p.id
        for o in p.orientations:
            assert o.cells[0] == min(o.cells)
            assert min(r for r, _ in o.cells) == 0 and min(c for _, c in o.cells) == 0
            assert len(o.cells) == p.area
            assert len(o.buttons) == p.income
            assert set(o.buttons) <= set(o.cells)
            assert "".join(o.rows()).count("o") == p.income


@pytest.mark.parametrize(
    ("pid", "count"),
    [
        (0, 2),  # 1x2 bar
        (1, 2),  # 1x3 bar
        (4, 1),  # 2x2 square
        (5, 8),  # P pentomino: no symmetry
        (13, 4),  # T tetromino
        (21, 1),  # plus pentomino: all symmetries
        (22, 2),  # 5-long bar crossed by a 3-long bar
        (24, 2),  # H shape
        (25, 4),  # L tromino
    ],
)
def test_orientation_counts_of_known_shapes(pid: int, count: int) -> None:
    assert len(PATCHES[pid].orientations) == count


def test_placement_counts_follow_from_the_bounding_boxes() -> None:
    for p in PATCHES:
        expected = sum((SIZE - o.height + 1) * (SIZE - o.width + 1) for o in p.orientations)
        assert len(PLACEMENTS[p.id]) == expected


def test_legal_placements_avoid_covered_cells() -> None:
    quilt = sum(bit(r, c) for r in range(9) for c in range(9) if (r + c) % 3 == 0)
    for p in PATCHES:
        legal = legal_placements(p.id, quilt)
        assert legal == [m for m in legal if not m & quilt]
        assert sorted(legal) == sorted(m for m in PLACEMENTS[p.id] if not m & quilt)
        assert fits_anywhere(p.id, quilt) == bool(legal)
    assert not any(fits_anywhere(p.id, FULL) for p in PATCHES)


def test_placement_and_orientation_lookup() -> None:
    mask = placement(0, 1, 3, 4)
    assert is_placement(0, mask)
    assert orientation_of(0, mask) == 1
    assert sorted(cells_of(mask)) in ([(3, 4), (4, 4)], [(3, 4), (3, 5)])
    assert not is_placement(0, bit(0, 0) | bit(1, 1))
    assert not is_placement(1, mask)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((0, 2, 0, 0), "orientations 0..1, not 2"),
        ((1, 0, 0, 7), "does not fit on the quilt at \\[0, 7\\]"),
        ((33, 0, 0, 0), "unknown patch id 33"),
    ],
)
def test_bad_placement_requests_name_the_problem(args: tuple[int, int, int, int], words: str) -> None:
    with pytest.raises(UnknownPatchError, match=words):
        placement(*args)


@pytest.mark.parametrize("bad", [-1, 33, True, "3"])
def test_unknown_patch_ids_are_refused(bad: object) -> None:
    with pytest.raises(UnknownPatchError, match="unknown patch id"):
        patch(bad)  # type: ignore[arg-type]


def test_project_copy_matches_the_loaded_catalogue() -> None:
    for raw, p in zip(project_catalogue(), PATCHES, strict=True):
        assert (raw["id"], raw["cost"], raw["time"], raw["income"]) == (p.id, p.cost, p.time, p.income)
        assert tuple(raw["shape"]) == p.shape  # type: ignore[arg-type]


@pytest.mark.skipif(not REFERENCE.exists(), reason="shared reference catalogue not present")
def test_project_copy_equals_the_shared_reference() -> None:
    assert json.loads(REFERENCE.read_text(encoding="utf-8")) == project_catalogue()


def test_patch_id_lists_are_checked_in_one_place() -> None:
    from patchwork_opt.core.catalogue import check_patch_ids
    from patchwork_opt.core.errors import DuplicatePatchError, UnknownPatchError
    from patchwork_opt.core.lookup import parse_patch_ids

    assert parse_patch_ids("1, 2,5", "--patches") == [1, 2, 5]
    assert check_patch_ids([0, 32], "pool") == [0, 32]
    with pytest.raises(UnknownPatchError, match=r"^--next: 'x' is not a patch id"):
        parse_patch_ids("3,x", "--next")
    with pytest.raises(UnknownPatchError, match=r"^pool: unknown patch id 33"):
        check_patch_ids([1, 33], "pool")
    with pytest.raises(DuplicatePatchError, match=r"^--patches: patch 4 is listed twice"):
        parse_patch_ids("4 4", "--patches")
    with pytest.raises(UnknownPatchError, match="no patch ids given"):
        parse_patch_ids(" ", "--patches")


def test_one_duplicate_error_class_for_every_caller() -> None:
    """Catching the engine's DuplicatePatchError catches what any solver raises."""
    from patchwork_opt.core.errors import DuplicatePatchError
    from solvers.bestfit import best_fit
    from solvers.model import Instance

    with pytest.raises(DuplicatePatchError):
        Instance.of(0, [3, 3])
    with pytest.raises(DuplicatePatchError):
        best_fit(0, 1, [2, 2], deadline=None)
