"""An immutable 9x9 quilt over an 81-bit int, with its text, JSON and unicode forms."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from patchwork_opt.core.bitboard import (
    CELLS,
    FULL,
    SIZE,
    bit,
    cells_of,
    full_window,
    has_full_window,
    regions,
)
from patchwork_opt.core.errors import QuiltFormatError
from patchwork_opt.i18n import N_

Cell = tuple[int, int]


def parse_cell(value: object, where: str = "cell") -> Cell:
    """A ``[row, col]`` pair, both 0..8."""
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise QuiltFormatError(N_("{where}: expected [row, col] with two integers, got {value!r}"),
                               where=where, value=value)
    row, col = value
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise QuiltFormatError(N_("{where}: cell [{row}, {col}] is off the 9x9 quilt (rows and cols are 0..8)"),
                               where=where, row=row, col=col)
    return row, col


@dataclass(frozen=True, slots=True)
class Quilt:
    """Covered cells of one quilt; ``mask`` bit ``row * 9 + col`` is set when covered."""

    mask: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.mask, int) or self.mask < 0 or self.mask > FULL:
            raise QuiltFormatError(N_("quilt mask must be an 81-bit non-negative int, got {mask!r}"), mask=self.mask)

    # --- construction -------------------------------------------------------------
    @classmethod
    def from_cells(cls, cells: Iterable[object]) -> Quilt:
        mask = 0
        for i, cell in enumerate(cells):
            row, col = parse_cell(cell, f"cell {i}")
            mask |= bit(row, col)
        return cls(mask)

    @classmethod
    def from_text(cls, text: str) -> Quilt:
        """Nine lines of nine characters: ``.`` is empty, any other character covered.

        Blank lines and surrounding whitespace are ignored; spaces inside a line are not
        allowed, so a mistyped line is reported rather than silently shifted.
        """
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        if len(lines) != SIZE:
            raise QuiltFormatError(N_("a quilt has 9 rows, found {found}"), found=len(lines))
        mask = 0
        for row, line in enumerate(lines):
            if len(line) != SIZE:
                raise QuiltFormatError(N_("quilt row {row} has {found} cells, expected 9: {line!r}"),
                                       row=row, found=len(line), line=line)
            for col, ch in enumerate(line):
                if ch.isspace():
                    raise QuiltFormatError(N_("quilt row {row}, col {col}: whitespace inside a row"), row=row, col=col)
                if ch != ".":
                    mask |= bit(row, col)
        return cls(mask)

    @classmethod
    def parse(cls, text: str) -> Quilt:
        """Text form, or a JSON list of ``[row, col]`` cells."""
        stripped = text.strip()
        if stripped.startswith("["):
            try:
                data = json.loads(stripped)
            except json.JSONDecodeError as exc:
                raise QuiltFormatError(N_("quilt JSON is malformed: {problem} at line {line}"), problem=exc.msg,
                                       line=exc.lineno) from None
            if not isinstance(data, list):
                raise QuiltFormatError(N_("quilt JSON must be a list of [row, col] cells"))
            return cls.from_cells(data)
        return cls.from_text(stripped)

    # --- facts -------------------------------------------------------------------------
    @property
    def empty_mask(self) -> int:
        return FULL & ~self.mask

    @property
    def covered(self) -> int:
        return self.mask.bit_count()

    @property
    def empty(self) -> int:
        return CELLS - self.mask.bit_count()

    def cells(self) -> list[Cell]:
        return cells_of(self.mask)

    def is_covered(self, row: int, col: int) -> bool:
        return bool(self.mask & bit(row, col))

    def fits(self, placement: int) -> bool:
        return placement & self.mask == 0

    def place(self, placement: int) -> Quilt:
        if placement & self.mask:
            raise QuiltFormatError(N_("placement overlaps covered cells"))
        return Quilt(self.mask | placement)

    def has_bonus_square(self) -> bool:
        return has_full_window(self.mask)

    def bonus_square(self) -> Cell | None:
        return full_window(self.mask)

    def empty_regions(self) -> list[int]:
        """Connected empty regions (orthogonal adjacency) as masks, largest first."""
        return regions(self.empty_mask)

    # --- output ------------------------------------------------------------------------
    def to_text(self, filled: str = "#") -> str:
        return "\n".join(
            "".join(filled if self.mask & bit(r, c) else "." for c in range(SIZE)) for r in range(SIZE)
        )

    def to_json(self) -> list[list[int]]:
        return [[r, c] for r, c in self.cells()]

    def __str__(self) -> str:
        return self.to_text()


def render_grid(labels: Sequence[Sequence[str]]) -> list[str]:
    """Unicode lines for a 9x9 grid of one-character labels ('' for an empty cell)."""
    top = "┌" + "─" * (SIZE * 2 + 1) + "┐"
    bottom = "└" + "─" * (SIZE * 2 + 1) + "┘"
    body = ["│ " + " ".join(label or "·" for label in row) + " │" for row in labels]
    return [top, *body, bottom]


def label_grid(pieces: Iterable[tuple[str, int]], base: int = 0, base_label: str = "█") -> list[list[str]]:
    """A 9x9 label grid: each (label, mask) piece writes its label, ``base`` cells get ``base_label``."""
    grid = [["" for _ in range(SIZE)] for _ in range(SIZE)]
    for r, c in cells_of(base):
        grid[r][c] = base_label
    for label, mask in pieces:
        for r, c in cells_of(mask):
            grid[r][c] = label
    return grid


def render_quilt(quilt: Quilt) -> str:
    """Unicode box drawing of a quilt: covered cells as blocks, empty cells as dots."""
    return "\n".join(render_grid(label_grid((), quilt.mask)))
