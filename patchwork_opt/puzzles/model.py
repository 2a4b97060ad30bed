"""The puzzle file format (JSON) and its one validator.

An endgame puzzle: ``{"kind": "endgame", "id", "record", "position", "player", "winning": [moves],
"refutation": {"move", "line", "margin"}, "difficulty", "margin", "legal", "bots", "seed", "themes",
"rating"}``: the game ``record`` up to the puzzle's position (whose notation is ``position``), the
``player`` to move, one move of each class that wins (placements equal up to the board's symmetries
are one move), a natural wrong move with the line of best play that refutes it to the end of the game,
the best ``margin``, the number of distinct ``legal`` moves, the share of trials the bots of levels 1-5 found a win, and
the ``themes`` its proof shows (``ENDGAME_THEMES``) and its ``rating`` after the bots' answers.

A fill puzzle: ``{"kind": "fill", "id", "quilt": [[row, col], ...], "patches": [ids], "objective",
"marks", "budget", "require_bonus", "best": {"value", "placements"}, "optimal": true, "greedy",
"difficulty", "themes"}``: cover the quilt with some of the patches (each at most once) for the best
``objective`` (``cells`` covered, or ``points``: the score change, with income counted at ``marks``
income marks), spending at most ``budget`` buttons, completing a 7x7 square when ``require_bonus``.

Moves and placements are in the JSON forms of RULES.md. ``load_puzzle`` and ``puzzle_from_json``
refuse a malformed puzzle with one ``PuzzleFormatError`` naming the field (exit code 2).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from patchwork_opt.core.bitboard import cells_of, has_full_window, mask_of
from patchwork_opt.core.catalogue import PATCHES, is_placement, patch_worth
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.models import CellModel, MoveModel, PatchId, RecordModel, move_from_model, one_line
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record, read_text

Kind = Literal["endgame", "fill"]
KINDS: tuple[str, ...] = ("endgame", "fill")
Objective = Literal["cells", "points"]
DIFFICULTIES = (1, 2, 3, 4, 5)
#: A puzzle id: ``e`` (endgame) or ``f`` (fill) and 12 hex digits of its content's hash.
ID_PATTERN = r"^[ef][0-9a-f]{12}$"
#: Themes an endgame puzzle is tagged with from its proof (``puzzles/themes.py`` says when each holds).
ENDGAME_THEMES: tuple[str, ...] = ("7x7-race", "leather", "income-timing", "tie-break", "placement", "buttons",
                                   "long-line")
#: Themes of a fill puzzle: a button budget binds, a 7x7 square to complete, points (not cells) to maximize.
FILL_THEMES: tuple[str, ...] = ("budget", "7x7", "points")
THEMES: tuple[str, ...] = ENDGAME_THEMES + FILL_THEMES
EndgameTheme = Literal["7x7-race", "leather", "income-timing", "tie-break", "placement", "buttons", "long-line"]
FillTheme = Literal["budget", "7x7", "points"]
Placement = tuple[int, int]  # (patch id, mask)


class PuzzleFormatError(PatchworkError):
    """A puzzle file or object that is not a valid puzzle (exit code 2)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


Difficulty = Annotated[int, Field(ge=1, le=5, strict=True, description="1 (easy) to 5 (hard)")]
PuzzleIdText = Annotated[str, Field(pattern=ID_PATTERN, description="the puzzle's id")]


class RefutationModel(_Strict):
    move: MoveModel = Field(description="a natural wrong move (the best-looking losing one)")
    line: list[MoveModel] = Field(min_length=1, max_length=80,
                                  description="the move and best play after it, to the end of the game")
    margin: float = Field(description="the final margin for the player after the move, with best play (< 0, or 0 "
                                      "lost on the tie-break)")


class EndgamePuzzleModel(_Strict):
    kind: Literal["endgame"]
    id: PuzzleIdText
    record: RecordModel
    position: str = Field(max_length=400, description="the notation of the record's last position")
    player: int = Field(ge=0, le=1, strict=True, description="the player to move, who has a win")
    winning: list[MoveModel] = Field(min_length=1, description="one move of each winning class")
    refutation: RefutationModel
    difficulty: Difficulty
    margin: float = Field(description="the best final margin for the player (0: a tie won on the tie-break)")
    legal: int = Field(ge=1, strict=True, description="distinct legal moves (equal up to the board's symmetries)")
    bots: list[Annotated[float, Field(ge=0, le=1)]] = Field(
        default_factory=list, max_length=5, description="share of trials the bots of levels 1-5 found a win")
    seed: int | None = Field(default=None, description="the seed of the self-play game it comes from")
    rating: float | None = Field(default=None, description="its Glicko-2 rating after the bots' answers")
    themes: list[EndgameTheme] = Field(default_factory=list, max_length=len(ENDGAME_THEMES),
                                       json_schema_extra={"uniqueItems": True},
                                       description="what the proof shows decides it (puzzles/themes.py)")


class PlacementModel(_Strict):
    patch: PatchId
    cells: list[CellModel] = Field(min_length=1, max_length=8, json_schema_extra={"uniqueItems": True})


class BestFillModel(_Strict):
    value: int = Field(description="the proven optimum of the objective")
    placements: list[PlacementModel] = Field(max_length=33)


class FillPuzzleModel(_Strict):
    kind: Literal["fill"]
    id: PuzzleIdText
    quilt: list[CellModel] = Field(max_length=81, description="covered cells")
    patches: list[PatchId] = Field(min_length=1, max_length=33, json_schema_extra={"uniqueItems": True})
    objective: Objective
    marks: int = Field(default=9, ge=0, le=9, strict=True, description="income marks ahead, for points")
    budget: int | None = Field(default=None, ge=0, strict=True, description="buttons to spend at most")
    require_bonus: bool = Field(default=False, strict=True, description="a 7x7 square must be completed")
    best: BestFillModel
    optimal: Literal[True]
    greedy: int | None = Field(default=None, description="what greedy placement reaches (None: it fails)")
    difficulty: Difficulty
    themes: list[FillTheme] = Field(default_factory=list, max_length=len(FILL_THEMES),
                                    json_schema_extra={"uniqueItems": True},
                                    description="budget (the buttons bind), 7x7 (a square to complete), points")


PuzzleModel = Annotated[EndgamePuzzleModel | FillPuzzleModel, Field(discriminator="kind")]


@dataclass(frozen=True, slots=True)
class EndgamePuzzle:
    """Find a winning move: the position after ``record``, ``player`` to move."""

    id: str
    record: Record
    player: int
    winning: tuple[Move, ...]
    refutation: Move
    refutation_line: tuple[Move, ...]  # starts with ``refutation``
    refutation_margin: float
    margin: float
    legal: int
    difficulty: int
    bots: tuple[float, ...] = ()
    seed: int | None = None
    themes: tuple[str, ...] = ()
    rating: float | None = None

    kind = "endgame"

    def state(self) -> State:
        return self.record.replay()

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "endgame",
            "id": self.id,
            "record": self.record.to_json(),
            "position": to_notation(self.state()),
            "player": self.player,
            "winning": [m.to_json() for m in self.winning],
            "refutation": {"move": self.refutation.to_json(), "line": [m.to_json() for m in self.refutation_line],
                           "margin": self.refutation_margin},
            "difficulty": self.difficulty,
            "margin": self.margin,
            "legal": self.legal,
            "bots": [round(x, 3) for x in self.bots],
            "seed": self.seed,
            "themes": list(self.themes),
            "rating": self.rating,
        }


@dataclass(frozen=True, slots=True)
class FillPuzzle:
    """Fill ``quilt`` with some of ``patches`` for the best ``objective``; ``best`` is the proven optimum."""

    id: str
    quilt: int
    patches: tuple[int, ...]
    objective: Objective
    marks: int
    budget: int | None
    require_bonus: bool
    best_value: int
    best: tuple[Placement, ...]
    greedy: int | None
    difficulty: int
    themes: tuple[str, ...] = ()

    kind = "fill"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "fill",
            "id": self.id,
            "quilt": [list(c) for c in cells_of(self.quilt)],
            "patches": list(self.patches),
            "objective": self.objective,
            "marks": self.marks,
            "budget": self.budget,
            "require_bonus": self.require_bonus,
            "best": {"value": self.best_value, "placements": placements_json(self.best)},
            "optimal": True,
            "greedy": self.greedy,
            "difficulty": self.difficulty,
            "themes": list(self.themes),
        }


Puzzle = EndgamePuzzle | FillPuzzle


def placements_json(placements: tuple[Placement, ...] | list[Placement]) -> list[dict[str, Any]]:
    return [{"patch": pid, "cells": [list(c) for c in cells_of(mask)]} for pid, mask in placements]


def fill_value(puzzle: FillPuzzle, placements: list[Placement] | tuple[Placement, ...]) -> int:
    """The objective a fill reaches: cells covered, or points (2 a cell, income at each mark ahead,
    less the price), as ``solvers.fill`` counts them (``catalogue.patch_worth``)."""
    if puzzle.objective == "cells":
        return sum(PATCHES[pid].area for pid, _ in placements)
    return sum(patch_worth(pid, puzzle.marks) for pid, _ in placements)


def fill_problem(puzzle: FillPuzzle, placements: list[Placement] | tuple[Placement, ...]) -> str:
    """Why a fill breaks the puzzle's rules (a patch not in the set or used twice, a shape that is no
    placement of its patch, overlapping cells, over the budget); empty when it keeps them."""
    taken = puzzle.quilt
    used: set[int] = set()
    cost = 0
    for i, (pid, mask) in enumerate(placements):
        if pid not in puzzle.patches:
            return f"placements[{i}]: patch {pid} is not one of the puzzle's patches {list(puzzle.patches)}"
        if pid in used:
            return f"placements[{i}]: patch {pid} is used twice (each patch at most once)"
        if not is_placement(pid, mask):
            return f"placements[{i}]: the cells {[list(c) for c in cells_of(mask)]} are not a placement of patch {pid}"
        overlap = taken & mask
        if overlap:
            return f"placements[{i}]: patch {pid} overlaps covered cells {[list(c) for c in cells_of(overlap)]}"
        used.add(pid)
        taken |= mask
        cost += PATCHES[pid].cost
    if puzzle.budget is not None and cost > puzzle.budget:
        return f"the patches cost {cost} buttons, over the budget of {puzzle.budget}"
    return ""


def completes_square(puzzle: FillPuzzle, placements: list[Placement] | tuple[Placement, ...]) -> bool:
    quilt = puzzle.quilt
    for _, mask in placements:
        quilt |= mask
    return has_full_window(quilt)


def _placement_of(model: PlacementModel) -> Placement:
    return model.patch, mask_of(model.cells)


def _moves(models: list[Any], where: str) -> list[Move]:
    out = []
    for i, model in enumerate(models):
        try:
            out.append(move_from_model(model))
        except PatchworkError as exc:
            raise PuzzleFormatError(f"{where}[{i}]: {exc}") from None
    return out


def _endgame(model: EndgamePuzzleModel) -> EndgamePuzzle:
    try:
        record = Record.from_json(model.record.model_dump(exclude_none=True))
        state = record.replay()
    except PatchworkError as exc:
        raise PuzzleFormatError(f"record: {exc}") from None
    if state.is_terminal():
        raise PuzzleFormatError("record: the game is over at the puzzle's position")
    if to_notation(state) != model.position:
        raise PuzzleFormatError("position: not the position the record reaches")
    if state.to_move() != model.player:
        raise PuzzleFormatError(f"player: {model.player} is not the player to move ({state.to_move()})")
    winning = _moves(model.winning, "winning")
    for i, move in enumerate(winning):
        try:
            state.check(move)
        except PatchworkError as exc:
            raise PuzzleFormatError(f"winning[{i}]: {exc}") from None
    (refutation,) = _moves([model.refutation.move], "refutation.move")
    line = _moves(model.refutation.line, "refutation.line")
    if line[0] != refutation:
        raise PuzzleFormatError("refutation.line: must start with the refutation's move")
    after = state.clone()
    for i, move in enumerate(line):
        try:
            after.apply(move)
        except PatchworkError as exc:
            raise PuzzleFormatError(f"refutation.line[{i}]: {exc}") from None
    return EndgamePuzzle(
        id=model.id, record=record, player=model.player, winning=tuple(winning), refutation=refutation,
        refutation_line=tuple(line), refutation_margin=model.refutation.margin, margin=model.margin,
        legal=model.legal, difficulty=model.difficulty, bots=tuple(model.bots), seed=model.seed,
        themes=tuple(model.themes), rating=model.rating,
    )


def _fill(model: FillPuzzleModel) -> FillPuzzle:
    quilt = mask_of(model.quilt)
    if quilt.bit_count() != len(model.quilt):
        raise PuzzleFormatError("quilt: a cell is listed twice")
    if len(set(model.patches)) != len(model.patches):
        raise PuzzleFormatError("patches: a patch is listed twice (each patch exists once)")
    for i, p in enumerate(model.best.placements):
        if mask_of(p.cells).bit_count() != len(p.cells):
            raise PuzzleFormatError(f"best.placements[{i}]: a cell is listed twice")
    puzzle = FillPuzzle(
        id=model.id, quilt=quilt, patches=tuple(model.patches), objective=model.objective, marks=model.marks,
        budget=model.budget, require_bonus=model.require_bonus, best_value=model.best.value,
        best=tuple(_placement_of(p) for p in model.best.placements), greedy=model.greedy,
        difficulty=model.difficulty, themes=tuple(model.themes),
    )
    problem = fill_problem(puzzle, puzzle.best)
    if problem:
        raise PuzzleFormatError(f"best.{problem}")
    if fill_value(puzzle, puzzle.best) != puzzle.best_value:
        raise PuzzleFormatError(f"best.value: the placements reach {fill_value(puzzle, puzzle.best)}, "
                                f"not {puzzle.best_value}")
    if puzzle.require_bonus and not completes_square(puzzle, puzzle.best):
        raise PuzzleFormatError("best.placements: no 7x7 square is complete, as require_bonus asks")
    return puzzle


_ADAPTER: Any = None


def puzzle_from_json(data: object) -> Puzzle:
    """A puzzle object checked field by field, then against the rules; one ``PuzzleFormatError``
    naming the field otherwise."""
    global _ADAPTER
    from pydantic import TypeAdapter

    if _ADAPTER is None:
        _ADAPTER = TypeAdapter(PuzzleModel)
    if not isinstance(data, dict):
        raise PuzzleFormatError(f"a puzzle is a JSON object, got {type(data).__name__}")
    if data.get("kind") not in KINDS:
        raise PuzzleFormatError(f"kind: expected 'endgame' or 'fill', got {data.get('kind')!r}")
    try:
        model = _ADAPTER.validate_python(data)
    except ValidationError as exc:
        loc, message = one_line(exc, "a puzzle")
        if loc and loc[0] in KINDS:  # the union's tag is no part of the path a person reads
            message = message.removeprefix(f"{loc[0]}.")
        raise PuzzleFormatError(message) from None
    return _endgame(model) if isinstance(model, EndgamePuzzleModel) else _fill(model)


def load_puzzle(path: str | Path) -> Puzzle:
    """The puzzle in a JSON file; a file that cannot be read or is no valid puzzle is one
    ``PuzzleFormatError`` naming the file and the field."""
    try:
        text = read_text(path)
    except PatchworkError as exc:
        raise PuzzleFormatError(str(exc)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PuzzleFormatError(f"{path}: not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    try:
        return puzzle_from_json(data)
    except PuzzleFormatError as exc:
        raise PuzzleFormatError(f"{path}: {exc}") from None
