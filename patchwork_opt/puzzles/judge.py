"""Verdicts on answers, with their proof: what ``puzzle check``, ``puzzle solve`` and the service say.

An endgame answer is a move of the puzzle's position. The exact search gives its value under best
play and the line that follows: a win by some margin (correct), or a loss with the line that
refutes it. A move the rules refuse there is an ``IllegalMoveError`` naming why (422 on the web).

A fill answer is a list of placements. One that breaks the puzzle's rules (a patch not in the set
or used twice, cells that are no placement of the patch, overlaps, over the budget) is an
``IllegalMoveError`` naming the placement; otherwise it is correct when it reaches the proven
optimum (and completes the 7x7 square when the puzzle asks for one).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from patchwork_opt.core.bitboard import mask_of
from patchwork_opt.core.errors import IllegalMoveError, NotationError, PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.words import words_in
from patchwork_opt.formats.models import one_line
from patchwork_opt.puzzles.model import (
    EndgamePuzzle,
    FillPuzzle,
    Placement,
    PlacementModel,
    Puzzle,
    completes_square,
    fill_problem,
    fill_value,
    placements_json,
)
from patchwork_opt.puzzles.proof import Prover, margin_of

#: Seconds the exact search may take to value an answer (a shipped puzzle's take milliseconds).
JUDGE_SECONDS = 20.0


@dataclass(frozen=True, slots=True)
class EndgameVerdict:
    """``correct`` when the move wins; ``margin`` the final margin for the player under best play (0
    for a tie decided by who reached the end first); ``line`` the move and best play after it."""

    correct: bool
    margin: float
    line: tuple[Move, ...]
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"correct": self.correct, "margin": self.margin, "line": [m.to_json() for m in self.line],
                "text": self.text}


@dataclass(frozen=True, slots=True)
class FillVerdict:
    """``correct`` when the fill reaches the optimum; ``margin`` its value minus the optimum (0 or
    less); ``line`` the proven optimum's placements; ``text`` the verdict in words."""

    correct: bool
    value: int
    best: int
    margin: int
    line: tuple[Placement, ...]
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"correct": self.correct, "margin": self.margin, "line": placements_json(self.line),
                "value": self.value, "best": self.best, "text": self.text}


def outcome_text(margin: float) -> str:
    """``by 3``, or how a tie is decided."""
    if margin == 0:
        return "on the tie-break (equal scores; the first to reach the end wins)"
    return f"by {abs(margin):g}"


def judge_endgame(puzzle: EndgamePuzzle, move: Move, prover: Prover | None = None) -> EndgameVerdict:
    """The verdict on ``move`` with its proof (``IllegalMoveError`` when the rules refuse it)."""
    state = puzzle.state()
    state.check(move)
    prover = prover or Prover(JUDGE_SECONDS)
    value, rest = prover.after(state, move)
    won = value > 0
    margin = margin_of(value)
    line = (move, *rest)
    if won:
        text = f"correct: you win {outcome_text(margin)} with best play"
    else:
        winning = puzzle.winning[0]
        text = (f"wrong: best play refutes it and you lose {outcome_text(margin)}; "
                f"a winning move was to {words_in(state, winning)}")
    return EndgameVerdict(won, margin, line, text)


def judge_fill(puzzle: FillPuzzle, placements: list[Placement]) -> FillVerdict:
    """The verdict on a fill (``IllegalMoveError`` when it breaks the puzzle's rules)."""
    problem = fill_problem(puzzle, placements)
    if problem:
        raise IllegalMoveError(problem)
    value = fill_value(puzzle, placements)
    square = not puzzle.require_bonus or completes_square(puzzle, placements)
    unit = "cells" if puzzle.objective == "cells" else "points"
    if not square:
        correct, value_shown = False, 0
        text = f"wrong: no 7x7 square is complete; the best fill completes one with {puzzle.best_value} {unit}"
    else:
        correct = value == puzzle.best_value
        value_shown = value
        text = (f"correct: {value} {unit}, the proven optimum" if correct
                else f"short: {value} {unit}, the proven optimum is {puzzle.best_value}")
    return FillVerdict(correct, value_shown, puzzle.best_value, value_shown - puzzle.best_value, puzzle.best, text)


def read_json(text: str, option: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotationError(f"{option}: not JSON: {exc.msg} at column {exc.colno}") from None


def read_placements(data: object, where: str = "placements") -> list[Placement]:
    """A fill's answer, ``[{"patch": ID, "cells": [[r, c], ...]}, ...]``, as (patch, mask) pairs."""
    if not isinstance(data, list):
        raise NotationError(f"{where}: a list of placements, got {type(data).__name__}")
    out = []
    for i, item in enumerate(data):
        try:
            model = PlacementModel.model_validate(item)
        except ValidationError as exc:
            _, message = one_line(exc, "a placement")
            raise NotationError(f"{where}[{i}]: {message}") from None
        mask = mask_of(model.cells)
        if mask.bit_count() != len(model.cells):
            raise NotationError(f"{where}[{i}]: a cell is listed twice")
        out.append((model.patch, mask))
    return out


def check_answer(puzzle: Puzzle, *, move: str | None = None, placements: str | None = None,
                 prover: Prover | None = None) -> EndgameVerdict | FillVerdict:
    """``puzzle check``: the verdict on an answer given as JSON text (``--move`` for an endgame,
    ``--placements`` for a fill)."""
    if isinstance(puzzle, EndgamePuzzle):
        if move is None or placements is not None:
            raise PatchworkError("an endgame puzzle is answered with --move JSON (and no --placements)")
        return judge_endgame(puzzle, Move.from_json(read_json(move, "--move")), prover)
    if placements is None or move is not None:
        raise PatchworkError("a fill puzzle is answered with --placements JSON (and no --move)")
    return judge_fill(puzzle, read_placements(read_json(placements, "--placements"), "--placements"))
