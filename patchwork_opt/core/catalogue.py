"""The 33 patches and every placement of each on the 9x9 quilt, precomputed once.

A placement is an 81-bit mask; a placement is legal on a quilt ``q`` when ``mask & q == 0``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources

from patchwork_opt.core.bitboard import FULL, SIZE, bit, mask_of
from patchwork_opt.core.errors import DuplicatePatchError, UnknownPatchError
from patchwork_opt.i18n import N_

Cell = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Orientation:
    """One distinct rotation/reflection of a patch, normalised to start at (0, 0).

    ``flipped`` and ``turns`` say how it is made from the patch's picture (orientation 0, its
    ``shape`` as drawn on the page's offers and the terminal's): mirrored left to right first when
    ``flipped``, then turned a quarter clockwise ``turns`` times (the page's Flip, then its Rotate);
    the first such way in that order, so a symmetric patch's orientation is said the simplest way."""

    index: int
    cells: tuple[Cell, ...]
    buttons: tuple[Cell, ...]
    height: int
    width: int
    mask: int  # the shape anchored at (0, 0)
    offsets: tuple[int, ...]  # bit offsets of the cells from the anchor
    anchors: int  # bits of the anchor cells where the shape stays on the quilt
    flipped: bool = False
    turns: int = 0

    def rows(self) -> list[str]:
        grid = [["." for _ in range(self.width)] for _ in range(self.height)]
        for r, c in self.cells:
            grid[r][c] = "#"
        for r, c in self.buttons:
            grid[r][c] = "o"
        return ["".join(row) for row in grid]


@dataclass(frozen=True, slots=True)
class Patch:
    id: int
    cost: int
    time: int
    income: int
    shape: tuple[str, ...]
    area: int
    orientations: tuple[Orientation, ...]
    placements: tuple[int, ...]  # every placement mask on an empty quilt
    placement_orientation: tuple[int, ...]  # orientation index of each placement


def _normalise(cells: list[Cell]) -> tuple[Cell, ...]:
    min_r = min(r for r, _ in cells)
    min_c = min(c for _, c in cells)
    return tuple(sorted((r - min_r, c - min_c) for r, c in cells))


def _transforms(
    cells: list[Cell], buttons: list[Cell]
) -> list[tuple[tuple[Cell, ...], tuple[Cell, ...], bool, int]]:
    """The distinct orientations: rotations first, then the mirrored rotations (each with the flip
    and the clockwise quarter turns that first made it)."""
    seen: set[tuple[Cell, ...]] = set()
    out = []
    for flip in (False, True):
        for turns in range(4):

            def move(cell: Cell, flip: bool = flip, turns: int = turns) -> Cell:
                r, c = cell
                if flip:
                    c = -c
                for _ in range(turns):
                    r, c = c, -r
                return r, c

            moved = [move(x) for x in cells]
            min_r = min(r for r, _ in moved)
            min_c = min(c for _, c in moved)
            shape = _normalise(moved)
            if shape in seen:
                continue
            seen.add(shape)
            moved_buttons = tuple(sorted((r - min_r, c - min_c) for r, c in (move(b) for b in buttons)))
            out.append((shape, moved_buttons, flip, turns))
    return out


def _build_patch(raw: dict[str, object]) -> Patch:
    shape = tuple(str(row) for row in raw["shape"])  # type: ignore[attr-defined]
    cells = [(r, c) for r, row in enumerate(shape) for c, ch in enumerate(row) if ch in "#o"]
    buttons = [(r, c) for r, row in enumerate(shape) for c, ch in enumerate(row) if ch == "o"]
    orientations = []
    placements: list[int] = []
    placement_orientation: list[int] = []
    for index, (ocells, obuttons, flipped, turns) in enumerate(_transforms(cells, buttons)):
        height = max(r for r, _ in ocells) + 1
        width = max(c for _, c in ocells) + 1
        mask = mask_of(ocells)
        anchors = 0
        for top in range(SIZE - height + 1):
            for left in range(SIZE - width + 1):
                anchors |= bit(top, left)
                placements.append(mask << (top * SIZE + left))
                placement_orientation.append(index)
        orientations.append(
            Orientation(
                index=index,
                cells=ocells,
                buttons=obuttons,
                height=height,
                width=width,
                mask=mask,
                offsets=tuple(r * SIZE + c for r, c in ocells),
                anchors=anchors,
                flipped=flipped,
                turns=turns,
            )
        )
    return Patch(
        id=int(raw["id"]),  # type: ignore[call-overload]
        cost=int(raw["cost"]),  # type: ignore[call-overload]
        time=int(raw["time"]),  # type: ignore[call-overload]
        income=int(raw["income"]),  # type: ignore[call-overload]
        shape=shape,
        area=len(cells),
        orientations=tuple(orientations),
        placements=tuple(placements),
        placement_orientation=tuple(placement_orientation),
    )


def _load() -> tuple[Patch, ...]:
    text = resources.files("patchwork_opt").joinpath("data/patches.json").read_text(encoding="utf-8")
    raw = json.loads(text)
    patches = tuple(_build_patch(item) for item in raw)
    assert [p.id for p in patches] == list(range(len(patches))), "catalogue ids must be 0..n-1"
    return patches


PATCHES: tuple[Patch, ...] = _load()
PATCH_COUNT = len(PATCHES)
LEATHER_COUNT = 5
LEATHER_PRINTINGS: dict[str, tuple[int, ...]] = {
    "revised": (26, 32, 38, 44, 50),
    "classic": (20, 26, 32, 44, 50),
}

#: Points each empty cell of a quilt costs at the end (so each cell a patch covers is worth as much).
POINTS_PER_CELL = 2


def patch_worth(patch_id: int, marks_ahead: int) -> int:
    """What buying the patch adds to its buyer's final score, in points, before the time it costs:
    ``POINTS_PER_CELL`` for each cell it covers, its income at each of the ``marks_ahead`` income
    marks still ahead, minus its price in buttons (the purchase rule's worth and the ``points``
    objective of an optimal fill)."""
    p = PATCHES[patch_id]
    return POINTS_PER_CELL * p.area + p.income * marks_ahead - p.cost


#: Placement masks of each patch on an empty quilt, indexed by patch id.
PLACEMENTS: tuple[tuple[int, ...], ...] = tuple(p.placements for p in PATCHES)
#: Every placement mask of every patch, with its patch id: the table for placement models.
ALL_PLACEMENTS: tuple[tuple[int, int], ...] = tuple(
    (p.id, m) for p in PATCHES for m in p.placements
)
_PLACEMENT_LOOKUP: dict[tuple[int, int], int] = {
    (p.id, m): o for p in PATCHES for m, o in zip(p.placements, p.placement_orientation, strict=True)
}


def patch(patch_id: int) -> Patch:
    if not isinstance(patch_id, int) or isinstance(patch_id, bool) or not 0 <= patch_id < PATCH_COUNT:
        raise UnknownPatchError(N_("unknown patch id {pid!r} (ids are 0..{last})"), pid=patch_id, last=PATCH_COUNT - 1)
    return PATCHES[patch_id]


def check_patch_ids(ids: Iterable[object], where: str = "patches") -> list[int]:
    """Known patch ids, each at most once: the one validator of patch-id lists from outside."""
    seen: set[int] = set()
    out: list[int] = []
    for pid in ids:
        try:
            patch(pid)  # type: ignore[arg-type]
        except UnknownPatchError as exc:
            raise UnknownPatchError(N_("{where}: {error}"), where=where, error=exc) from None
        assert isinstance(pid, int)
        if pid in seen:
            raise DuplicatePatchError(N_("{where}: patch {pid} is listed twice (each patch exists once)"), where=where,
                                      pid=pid)
        seen.add(pid)
        out.append(pid)
    return out


def is_placement(patch_id: int, mask: int) -> bool:
    """True when ``mask`` is exactly the cells of some orientation of the patch on the quilt."""
    return (patch_id, mask) in _PLACEMENT_LOOKUP


def orientation_of(patch_id: int, mask: int) -> int:
    return _PLACEMENT_LOOKUP[(patch_id, mask)]


def fitting_anchors(orientation: Orientation, quilt: int) -> int:
    """Anchor bits where ``orientation`` lies entirely on empty cells of ``quilt``."""
    empty = FULL & ~quilt
    fit = orientation.anchors
    for offset in orientation.offsets:
        fit &= empty >> offset
        if not fit:
            break
    return fit


def fits_anywhere(patch_id: int, quilt: int) -> bool:
    empty = FULL & ~quilt
    if empty.bit_count() < PATCHES[patch_id].area:
        return False
    for orientation in PATCHES[patch_id].orientations:
        fit = orientation.anchors
        for offset in orientation.offsets:
            fit &= empty >> offset
            if not fit:
                break
        if fit:
            return True
    return False


def legal_placements(patch_id: int, quilt: int) -> list[int]:
    """Every placement mask of the patch on empty cells of ``quilt``."""
    out: list[int] = []
    for orientation in PATCHES[patch_id].orientations:
        fit = fitting_anchors(orientation, quilt)
        shape = orientation.mask
        while fit:
            low = fit & -fit
            out.append(shape << (low.bit_length() - 1))
            fit ^= low
    return out


def placement(patch_id: int, orientation_index: int, row: int, col: int) -> int:
    """Mask of a patch in a given orientation with its bounding box's top-left at (row, col)."""
    p = patch(patch_id)
    if not 0 <= orientation_index < len(p.orientations):
        raise UnknownPatchError(N_("patch {pid} has orientations 0..{last}, not {given}"), pid=patch_id,
                                last=len(p.orientations) - 1, given=orientation_index)
    o = p.orientations[orientation_index]
    if not (0 <= row <= SIZE - o.height and 0 <= col <= SIZE - o.width):
        raise UnknownPatchError(N_("patch {pid} orientation {given} does not fit on the quilt at [{row}, {col}]"),
                                pid=patch_id, given=orientation_index, row=row, col=col)
    return o.mask << (row * SIZE + col)


def button_cells(patch_id: int, mask: int) -> list[Cell]:
    """The cells that show a button when the patch lies on ``mask`` (a placement of it)."""
    orientation = PATCHES[patch_id].orientations[orientation_of(patch_id, mask)]
    top = min(i // SIZE for i in range(SIZE * SIZE) if mask >> i & 1)
    left = min(i % SIZE for i in range(SIZE * SIZE) if mask >> i & 1)
    return [(top + r, left + c) for r, c in orientation.buttons]
