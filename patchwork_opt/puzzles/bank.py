"""The shipped bank of puzzles (package data ``patchwork_opt/data/puzzles/``), so a puzzle is served at once.

One file per kind the bank holds (``PuzzleKind.bank_file``: ``endgames.json`` and ``fills.json``),
each ``{"format": 1, "command": "...", "puzzles": [...]}``: the puzzles in their kind's format
(``puzzles/kinds``) and the command that wrote them (``patchwork puzzle bank``,
``patchwork_opt/puzzles/banking.py``). Every puzzle is validated when the bank is
read; the tests prove every one again.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.i18n import N_
from patchwork_opt.puzzles.kinds import BANKED, KINDS, Puzzle, puzzle_from_json
from patchwork_opt.puzzles.model import PuzzleFormatError

#: The bank's file of each kind it holds.
BANK_FILES: dict[str, str] = {name: KINDS[name].bank_file or "" for name in BANKED}
FORMAT = 1


class PuzzleNotFoundError(PatchworkError):
    """No puzzle with that id (the service answers 404)."""

    http_status = 404


class NoBankError(PatchworkError):
    """This server has no puzzles of what was asked for, and cannot make them (503)."""

    http_status = 503


def bank_json(puzzles: Sequence[dict[str, Any]], command: str) -> str:
    """A bank file's text: one puzzle a line, so that a change to the bank reads as a diff."""
    lines = ",\n".join(json.dumps(p, separators=(",", ":")) for p in puzzles)
    head = json.dumps({"format": FORMAT, "command": command})[:-1]
    return f'{head}, "puzzles": [\n{lines}\n]}}\n'


@dataclass(frozen=True, slots=True)
class Bank:
    """The puzzles by kind; ``find`` by id, ``pick`` one of a kind and difficulty."""

    puzzles: dict[str, tuple[Puzzle, ...]]
    commands: dict[str, str] = field(default_factory=dict)
    _by_id: dict[str, Puzzle] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for kind in self.puzzles.values():
            for puzzle in kind:
                self._by_id[puzzle.id] = puzzle

    def find(self, puzzle_id: str) -> Puzzle | None:
        return self._by_id.get(puzzle_id)

    def of(self, kind: str, difficulty: int | None = None, theme: str | None = None) -> list[Puzzle]:
        """The puzzles of ``kind`` (of ``difficulty`` and tagged ``theme`` when given), in the bank's order."""
        return [p for p in self.puzzles.get(kind, ())
                if (difficulty is None or p.difficulty == difficulty) and (theme is None or theme in p.themes)]

    def pick(self, kind: str, difficulty: int | None, rng: random.Random, exclude: Iterable[str] = (),
             theme: str | None = None) -> Puzzle | None:
        """A random puzzle of ``kind`` (``difficulty``, ``theme``) not in ``exclude``; None when none is left."""
        skip = set(exclude)
        left = [p for p in self.of(kind, difficulty, theme) if p.id not in skip]
        return rng.choice(left) if left else None

    def counts(self) -> dict[str, dict[int, int]]:
        return {kind: {d: len(self.of(kind, d)) for d in range(1, 6)} for kind in self.puzzles}


def read_bank_file(path: Path | Any, kind: str) -> tuple[tuple[Puzzle, ...], str]:
    """The puzzles of one bank file and the command that wrote it; ``PuzzleFormatError`` names the
    file and the puzzle at fault."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        # Translators: a puzzle bank file ({path}) that cannot be read; {reason} is the system's own words
        raise PuzzleFormatError(N_("{path}: cannot read the puzzle bank ({reason})"), path=str(path),
                                reason=str(exc)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("puzzles"), list):
        raise PuzzleFormatError(N_("{path}: not a puzzle bank of format {format}"), path=str(path), format=FORMAT)
    puzzles = []
    for i, item in enumerate(data["puzzles"]):
        try:
            puzzle = puzzle_from_json(item)
        except PuzzleFormatError as exc:
            raise PuzzleFormatError(N_("{path}: puzzles[{i}]: {error}"), path=str(path), i=i, error=exc) from None
        if puzzle.kind != kind:
            # Translators: a puzzle bank file holds a puzzle of another kind; {found} and {kind}: endgame, fill ...
            raise PuzzleFormatError(
                N_("{path}: puzzles[{i}]: a puzzle of the kind {found} in the file of {kind} puzzles"),
                path=str(path), i=i, found=puzzle.kind, kind=kind)
        puzzles.append(puzzle)
    return tuple(puzzles), str(data.get("command", ""))


def load_bank(directory: str | Path | None = None) -> Bank:
    """The bank in ``directory`` (the shipped one by default); a missing file is an empty kind."""
    puzzles: dict[str, tuple[Puzzle, ...]] = {}
    commands: dict[str, str] = {}
    base: Any = Path(directory) if directory is not None else resources.files("patchwork_opt") / "data" / "puzzles"
    for kind in BANKED:
        path = base / BANK_FILES[kind]
        if path.is_file():
            puzzles[kind], commands[kind] = read_bank_file(path, kind)
        else:
            puzzles[kind] = ()
    return Bank(puzzles, commands)


@lru_cache(maxsize=1)
def shipped_bank() -> Bank:
    """The shipped bank, read once per process."""
    return load_bank()
