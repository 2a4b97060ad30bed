"""Moves: small frozen values with a text form that parses back and the JSON form of RULES.md.

Text or JSON that cannot be read as a move is a ``NotationError`` (exit code 2); a move that reads
well but covers cells that are no placement of its patch is an ``IllegalMoveError`` (exit code 1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from patchwork_opt.core.bitboard import bit, cells_of
from patchwork_opt.core.catalogue import PATCH_COUNT, is_placement
from patchwork_opt.core.errors import IllegalMoveError, NotationError
from patchwork_opt.core.quilt import parse_cell
from patchwork_opt.i18n import N_

MoveKind = Literal["advance", "buy", "leather"]
_BUY_TEXT = re.compile(r"^(\d+)@([0-8]{2}(?:,[0-8]{2})*)$")
_LEATHER_TEXT = re.compile(r"^L@([0-8]{2})$")


@dataclass(frozen=True, slots=True)
class Move:
    """``advance``; ``buy`` of ``patch`` covering ``mask``; or ``leather`` covering the cell in ``mask``.

    Text form: ``A``, ``12@34,35,45`` (patch 12 on cells [3,4], [3,5], [4,5]) and ``L@44``.
    """

    kind: MoveKind
    patch: int = -1
    mask: int = 0

    @classmethod
    def advance(cls) -> Move:
        return ADVANCE

    @classmethod
    def buy(cls, patch: int, mask: int) -> Move:
        return cls("buy", patch, mask)

    @classmethod
    def leather(cls, row: int, col: int) -> Move:
        return cls("leather", -1, bit(row, col))

    @property
    def cells(self) -> list[tuple[int, int]]:
        return cells_of(self.mask)

    def __str__(self) -> str:
        if self.kind == "advance":
            return "A"
        cells = ",".join(f"{r}{c}" for r, c in self.cells)
        if self.kind == "leather":
            return f"L@{cells}"
        return f"{self.patch}@{cells}"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Inverse of ``str(move)``; also accepts ``advance``."""
        token = text.strip()
        if token in ("A", "a", "advance"):
            return ADVANCE
        match = _LEATHER_TEXT.match(token)
        if match:
            row, col = int(match.group(1)[0]), int(match.group(1)[1])
            return cls.leather(row, col)
        match = _BUY_TEXT.match(token)
        if not match:
            # Translators: the move notation: A (advance), L@rc (the leather patch on row r, column c),
            # ID@rc,rc,... (a patch on those cells)
            raise NotationError(N_("cannot read move {token!r}: expected A, L@rc or ID@rc,rc,..."), token=token)
        patch = int(match.group(1))
        mask = 0
        for pair in match.group(2).split(","):
            mask |= bit(int(pair[0]), int(pair[1]))
        return cls._checked_buy(patch, mask)

    @classmethod
    def _checked_buy(cls, patch: int, mask: int) -> Move:
        if not 0 <= patch < PATCH_COUNT:
            raise NotationError(N_("unknown patch id {patch} (ids are 0..{last})"), patch=patch, last=PATCH_COUNT - 1)
        if not is_placement(patch, mask):
            raise IllegalMoveError(N_("the cells {shape} are not a placement of patch {pid}"),
                                   shape=_cells_text(mask), pid=patch)
        return cls("buy", patch, mask)

    def to_json(self) -> dict[str, Any]:
        if self.kind == "advance":
            return {"type": "advance"}
        if self.kind == "leather":
            r, c = self.cells[0]
            return {"type": "leather", "cell": [r, c]}
        return {"type": "buy", "patch": self.patch, "cells": [[r, c] for r, c in self.cells]}

    @classmethod
    def from_json(cls, data: object) -> Move:
        """A move object of RULES.md; errors name the field at fault."""
        if not isinstance(data, dict):
            raise NotationError(N_("a move must be an object, got {type}"), type=type(data).__name__)
        kind = data.get("type")
        if kind == "advance":
            extra = set(data) - {"type"}
            if extra:
                raise NotationError(N_("advance takes no fields, got {fields}"), fields=sorted(extra))
            return ADVANCE
        if kind == "leather":
            if "cell" not in data:
                raise NotationError(N_("leather move needs a 'cell'"))
            row, col = parse_cell(data["cell"], "leather cell")
            return cls.leather(row, col)
        if kind == "buy":
            patch = data.get("patch")
            if not isinstance(patch, int) or isinstance(patch, bool):
                raise NotationError(N_("buy needs an integer 'patch', got {patch!r}"), patch=patch)
            cells = data.get("cells")
            if not isinstance(cells, list) or not cells:
                raise NotationError(N_("buy needs a non-empty list of 'cells'"))
            mask = 0
            for i, cell in enumerate(cells):
                row, col = parse_cell(cell, f"cells[{i}]")
                cell_bit = bit(row, col)
                if mask & cell_bit:
                    raise NotationError(N_("cells[{i}]: cell [{row}, {col}] is listed twice"), i=i, row=row, col=col)
                mask |= cell_bit
            return cls._checked_buy(patch, mask)
        # Translators: advance, buy and leather are the notation's move types: keep them as they are
        raise NotationError(N_("unknown move type {kind!r} (expected advance, buy or leather)"), kind=kind)


def _cells_text(mask: int) -> str:
    return "[" + ", ".join(f"[{r}, {c}]" for r, c in cells_of(mask)) + "]"


ADVANCE = Move("advance")
