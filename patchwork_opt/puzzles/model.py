"""What every puzzle file shares: its one error, the fields every kind has, and the helpers that
read a file and validate an object field by field.

Each kind's own fields, type and checks are in its module of ``puzzles/kinds/`` (``endgame.py``,
``fill.py``, ``exercise.py``); the registry (``puzzles/kinds/__init__.py``) reads a puzzle of any
kind by its ``kind`` field. Every puzzle is a JSON object ``{"kind", "id", ..., "difficulty",
"themes"}``: the id is the kind's letter and 12 hex digits of its content's hash. Moves and
placements are in the JSON forms of RULES.md. A malformed puzzle is one ``PuzzleFormatError`` naming
the field (exit code 2).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.errors import NotationError, PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.models import CellModel, PatchId, RecordModel, move_from_model, one_line
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record, read_text
from patchwork_opt.formats.schema_words import shown
from patchwork_opt.i18n import N_

DIFFICULTIES = (1, 2, 3, 4, 5)
#: Any puzzle's id: a kind's letter and 12 hex digits of its content's hash (the registry narrows
#: the letters to the kinds it knows: ``kinds.ID_PATTERN``).
ANY_ID_PATTERN = r"^[a-z][0-9a-f]{12}$"
Placement = tuple[int, int]  # (patch id, mask)
M = TypeVar("M", bound=BaseModel)


class PuzzleFormatError(PatchworkError):
    """A puzzle file or object that is not a valid puzzle (exit code 2)."""


class Strict(BaseModel):
    """A puzzle file's object: no field it does not know."""

    model_config = ConfigDict(extra="forbid")


Difficulty = Annotated[int, Field(ge=1, le=5, strict=True, description="1 (easy) to 5 (hard)")]
PuzzleIdText = Annotated[str, Field(pattern=ANY_ID_PATTERN, description="the puzzle's id")]


class PlacementModel(Strict):
    patch: PatchId
    cells: list[CellModel] = Field(min_length=1, max_length=8, json_schema_extra={"uniqueItems": True})


def placements_json(placements: tuple[Placement, ...] | list[Placement]) -> list[dict[str, Any]]:
    return [{"patch": pid, "cells": [list(c) for c in cells_of(mask)]} for pid, mask in placements]


def validated(model: type[M], data: object, name: str = "puzzle") -> M:
    """``data`` checked field by field against ``model``; one ``PuzzleFormatError`` naming the field
    (``name``: what the whole is called, when it is at fault)."""
    if not isinstance(data, dict):
        raise PuzzleFormatError(N_("{thing} must be a JSON object; {shown} is not one"), thing=name, shown=shown(data))
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        _, problem = one_line(exc, name)
        raise PuzzleFormatError(problem.template, **problem.values) from None


def moves_of(models: list[Any], where: str) -> list[Move]:
    """Move models as moves, a move the engine refuses named by its place (``winning[1]: ...``)."""
    out = []
    for i, model in enumerate(models):
        try:
            out.append(move_from_model(model))
        except PatchworkError as exc:
            raise PuzzleFormatError(N_("{where}[{i}]: {error}"), where=where, i=i, error=exc) from None
    return out


def read_json_file(path: str | Path) -> object:
    """The JSON in a puzzle file; one ``PuzzleFormatError`` naming the file when it cannot be read."""
    try:
        text = read_text(path)
    except PatchworkError as exc:
        raise PuzzleFormatError(exc.template, **exc.values) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        # Translators: a file ({path}) that is not JSON: {problem} is the JSON reader's own words (English)
        raise PuzzleFormatError(N_("{path}: not JSON: {problem} at line {line}, column {column}"), path=str(path),
                                problem=exc.msg, line=exc.lineno, column=exc.colno) from None


def position_of(record_model: RecordModel, position: str, player: int) -> tuple[Record, State]:
    """The record of a puzzle set in a position, replayed and checked against the file's
    ``position`` and ``player`` (shared by the kinds answered by a move)."""
    try:
        record = Record.from_json(record_model.model_dump(exclude_none=True))
        state = record.replay()
    except PatchworkError as exc:
        raise PuzzleFormatError(N_("record: {error}"), error=exc) from None
    if state.is_terminal():
        raise PuzzleFormatError(N_("record: the game is over at the puzzle's position"))
    if to_notation(state) != position:
        raise PuzzleFormatError(N_("position: not the position the record reaches"))
    if state.to_move() != player:
        # Translators: a puzzle file's "player" field ({player}: 0 or 1) and the player to move there ({to_move})
        raise PuzzleFormatError(N_("player: {player} is not the player to move ({to_move})"), player=player,
                                to_move=state.to_move())
    return record, state


def legal_moves_of(state: State, models: list[Any], where: str) -> list[Move]:
    """Moves of the puzzle's position (``moves_of``), each one the rules allow there."""
    moves = moves_of(models, where)
    for i, move in enumerate(moves):
        try:
            state.check(move)
        except PatchworkError as exc:
            raise PuzzleFormatError(N_("{where}[{i}]: {error}"), where=where, i=i, error=exc) from None
    return moves


def line_from(state: State, models: list[Any], where: str) -> list[Move]:
    """A line of moves played from ``state``, each one legal where it is played."""
    line = moves_of(models, where)
    after = state.clone()
    for i, move in enumerate(line):
        try:
            after.apply(move)
        except PatchworkError as exc:
            raise PuzzleFormatError(N_("{where}[{i}]: {error}"), where=where, i=i, error=exc) from None
    return line


def read_json(text: str, option: str) -> object:
    """JSON text given on the command line (``option`` names where, in the one-line error)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        # Translators: an option's JSON ({option}: --move) that cannot be read: {problem} is the JSON reader's words
        raise NotationError(N_("{option}: not JSON: {problem} at column {column}"), option=option, problem=exc.msg,
                            column=exc.colno) from None
