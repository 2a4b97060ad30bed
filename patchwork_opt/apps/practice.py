"""Practise your mistakes: a reviewed game's mistakes and blunders as puzzles (``analyze --puzzles
DIR`` and the web review's "Practise your mistakes").

The review labels the moves (``apps/review.py``); ``puzzles/mistakes.py`` turns the position before
each mistake or blunder into an only-move puzzle when it has one. This module joins the two and
writes the puzzles as files ``puzzle solve`` and ``puzzle check`` read.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from patchwork_opt.apps.review import BLUNDER, GameReview
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.record import Record, writable_dir, write_atomic
from patchwork_opt.puzzles.kinds.endgame import EndgamePuzzle
from patchwork_opt.puzzles.mistakes import MISTAKE_SECONDS, mistake_puzzles

#: The labels whose positions are tried as puzzles.
PRACTISED = ("mistake", BLUNDER)


def mistake_plies(review: GameReview) -> list[int]:
    """The plies of the review's mistakes and blunders."""
    return [p.ply for p in review.plies if p.label in PRACTISED]


@dataclass(frozen=True, slots=True)
class PractisedMistake:
    """A mistake turned into a puzzle: the ply, the puzzle and where it was written (if it was)."""

    ply: int
    puzzle: EndgamePuzzle
    path: Path | None

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "id": self.puzzle.id, "difficulty": self.puzzle.difficulty,
                "themes": list(self.puzzle.themes), "path": str(self.path) if self.path else None}


def check_puzzle_dir(directory: str | Path) -> Path:
    """The directory to write puzzles to, made now when missing (before the long review), or a
    ``PatchworkError`` naming why it cannot hold them."""
    return writable_dir(directory, "--puzzles")


def practise_mistakes(record: Record, review: GameReview, out: Path | None = None, *,
                      seconds: float = MISTAKE_SECONDS, stop: StopSignal | None = None,
                      progress: Callable[[int, int], None] | None = None) -> list[PractisedMistake]:
    """The review's mistakes and blunders that make puzzles, each written to ``out/<id>.json`` when
    ``out`` is given (atomically: a file is whole or absent)."""
    plies = mistake_plies(review)
    puzzles = mistake_puzzles(record, plies, seconds=seconds, stop=stop, progress=progress)
    out_list = []
    for puzzle in puzzles:
        ply = len(puzzle.record.moves)
        path = None
        if out is not None:
            path = out / f"{puzzle.id}.json"
            write_atomic(path, json.dumps(puzzle.to_json(), indent=1) + "\n")
        out_list.append(PractisedMistake(ply, puzzle, path))
    return out_list


def render_practised(practised: list[PractisedMistake], directory: str) -> str:
    """The puzzles ``analyze --puzzles`` wrote, one line each, or why there are none."""
    if not practised:
        return (f"no puzzles written to {directory}: no mistake or blunder left a position with exactly one "
                "winning decision that the exact search settles")
    lines = [f"{len(practised)} puzzle{'s' if len(practised) > 1 else ''} from your mistakes in {directory}:"]
    for p in practised:
        themes = ", ".join(p.puzzle.themes) or "no theme"
        lines.append(f"  ply {p.ply}: {p.path} (difficulty {p.puzzle.difficulty}; {themes})")
    return "\n".join(lines)
