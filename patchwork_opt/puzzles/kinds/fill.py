"""The fill kind: "fill this quilt" with some of a set of patches, for a proven optimum that only one
choice of patches reaches.

Its file: ``{"kind": "fill", "id", "quilt": [[row, col], ...], "patches": [ids], "objective",
"marks", "budget", "require_bonus", "best": {"value", "placements"}, "optimal": true, "greedy",
"difficulty", "themes"}``: cover the quilt with some of the patches (each at most once) for the best
``objective`` (``cells`` covered, or ``points``: the score change, with income counted at ``marks``
income marks), spending at most ``budget`` buttons, completing a 7x7 square when ``require_bonus``.
How they are made: ``puzzles/making.py``.

An answer is a list of placements. One that breaks the puzzle's rules (a patch not in the set or used
twice, cells that are no placement of the patch, overlaps, over the budget) is an
``IllegalMoveError`` naming the placement; otherwise it is correct when it reaches the proven
optimum (and completes the 7x7 square when the puzzle asks for one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from patchwork_opt.core.bitboard import cells_of, has_full_window, mask_of
from patchwork_opt.core.catalogue import PATCHES, is_placement, patch_worth
from patchwork_opt.core.errors import IllegalMoveError, NotationError
from patchwork_opt.core.move import Move
from patchwork_opt.core.words import patch_words
from patchwork_opt.formats.models import CellModel, PatchId, one_line
from patchwork_opt.i18n import N_, _, ngettext
from patchwork_opt.puzzles.kinds.base import Answer, Judging, PuzzleKind, themes_sentence
from patchwork_opt.puzzles.model import (
    Difficulty,
    Placement,
    PlacementModel,
    PuzzleFormatError,
    PuzzleIdText,
    Strict,
    placements_json,
    validated,
)

Objective = Literal["cells", "points"]
#: Themes of a fill puzzle: a button budget binds, a 7x7 square to complete, points (not cells) to maximize.
FILL_THEMES: tuple[str, ...] = ("budget", "7x7", "points")
FillTheme = Literal["budget", "7x7", "points"]
#: Each theme in words (English, marked for the catalogue: said through ``_`` where it is shown).
THEME_WORDS: dict[str, str] = {
    # Translators: a theme of a fill puzzle (what makes it hard), shown as "Themes: ..."
    "budget": N_("a button budget"), "7x7": N_("completing a 7x7 square"), "points": N_("points, not cells"),
}
#: The variants a fill is made in (``puzzles/making.py``): cover cells, score points within a
#: button budget, complete a 7x7 square; and the variants each theme comes from.
Variant = Literal["cells", "points", "bonus"]
VARIANTS: tuple[Variant, ...] = ("cells", "points", "bonus")
THEME_VARIANTS: dict[str, tuple[Variant, ...]] = {"budget": ("points",), "7x7": ("bonus",), "points": ("points",)}


class BestFillModel(Strict):
    value: int = Field(description="the proven optimum of the objective")
    placements: list[PlacementModel] = Field(max_length=33)


class FillPuzzleModel(Strict):
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


def fill_value(puzzle: FillPuzzle, placements: list[Placement] | tuple[Placement, ...]) -> int:
    """The objective a fill reaches: cells covered, or points (2 a cell, income at each mark ahead,
    less the price), as ``solvers.fill`` counts them (``catalogue.patch_worth``)."""
    if puzzle.objective == "cells":
        return sum(PATCHES[pid].area for pid, _ in placements)
    return sum(patch_worth(pid, puzzle.marks) for pid, _ in placements)


def fill_problem(puzzle: FillPuzzle, placements: list[Placement] | tuple[Placement, ...]) -> str:
    """Why a fill breaks the puzzle's rules (a patch not in the set or used twice, a shape that is no
    placement of its patch, overlapping cells, over the budget); empty when it keeps them."""
    fault = fill_fault(puzzle, placements)
    return "" if fault is None else str(fault)


def fill_fault(puzzle: FillPuzzle, placements: list[Placement] | tuple[Placement, ...]) -> IllegalMoveError | None:
    """``fill_problem`` as the error that says it (in the reader's language where it is reported)."""
    taken = puzzle.quilt
    used: set[int] = set()
    cost = 0
    for i, (pid, mask) in enumerate(placements):
        if pid not in puzzle.patches:
            # Translators: placements[{i}] names the answer's placement at fault (keep it as it is)
            return IllegalMoveError(N_("placements[{i}]: patch {pid} is not one of the puzzle's patches {patches}"),
                                    i=i, pid=pid, patches=list(puzzle.patches))
        if pid in used:
            return IllegalMoveError(N_("placements[{i}]: patch {pid} is used twice (each patch at most once)"),
                                    i=i, pid=pid)
        if not is_placement(pid, mask):
            return IllegalMoveError(N_("placements[{i}]: the cells {shape} are not a placement of patch {pid}"),
                                    i=i, shape=[list(c) for c in cells_of(mask)], pid=pid)
        overlap = taken & mask
        if overlap:
            return IllegalMoveError(N_("placements[{i}]: patch {pid} overlaps covered cells {covered}"), i=i, pid=pid,
                                    covered=[list(c) for c in cells_of(overlap)])
        used.add(pid)
        taken |= mask
        cost += PATCHES[pid].cost
    if puzzle.budget is not None and cost > puzzle.budget:
        return IllegalMoveError(N_("the patches cost {cost} buttons, over the budget of {budget}"), cost=cost,
                                budget=puzzle.budget)
    return None


def completes_square(puzzle: FillPuzzle, placements: list[Placement] | tuple[Placement, ...]) -> bool:
    quilt = puzzle.quilt
    for _placed, mask in placements:
        quilt |= mask
    return has_full_window(quilt)


def fill_from_json(data: dict[str, Any]) -> FillPuzzle:
    model = validated(FillPuzzleModel, data)
    quilt = mask_of(model.quilt)
    if quilt.bit_count() != len(model.quilt):
        # Translators: a fill puzzle file's fields (quilt, patches, best.placements ...) keep their names
        raise PuzzleFormatError(N_("quilt: a cell is listed twice"))
    if len(set(model.patches)) != len(model.patches):
        raise PuzzleFormatError(N_("patches: a patch is listed twice (each patch exists once)"))
    for i, p in enumerate(model.best.placements):
        if mask_of(p.cells).bit_count() != len(p.cells):
            raise PuzzleFormatError(N_("best.placements[{i}]: a cell is listed twice"), i=i)
    puzzle = FillPuzzle(
        id=model.id, quilt=quilt, patches=tuple(model.patches), objective=model.objective, marks=model.marks,
        budget=model.budget, require_bonus=model.require_bonus, best_value=model.best.value,
        best=tuple((p.patch, mask_of(p.cells)) for p in model.best.placements), greedy=model.greedy,
        difficulty=model.difficulty, themes=tuple(model.themes),
    )
    fault = fill_fault(puzzle, puzzle.best)
    if fault is not None:
        raise PuzzleFormatError(N_("best.{error}"), error=fault)
    if fill_value(puzzle, puzzle.best) != puzzle.best_value:
        # Translators: a fill puzzle file's best.value ({value}) and what its placements reach ({reached})
        raise PuzzleFormatError(N_("best.value: the placements reach {reached}, not {value}"),
                                reached=fill_value(puzzle, puzzle.best), value=puzzle.best_value)
    if puzzle.require_bonus and not completes_square(puzzle, puzzle.best):
        raise PuzzleFormatError(N_("best.placements: no 7x7 square is complete, as require_bonus asks"))
    return puzzle


def read_placements(data: object, where: str = "placements") -> list[Placement]:
    """A fill's answer, ``[{"patch": ID, "cells": [[r, c], ...]}, ...]``, as (patch, mask) pairs."""
    if not isinstance(data, list):
        raise NotationError(N_("{where}: a list of placements, got {type}"), where=where, type=type(data).__name__)
    out = []
    for i, item in enumerate(data):
        try:
            model = PlacementModel.model_validate(item)
        except ValidationError as exc:
            _, problem = one_line(exc, "placement")
            raise NotationError(N_("{where}[{i}]: {error}"), where=where, i=i, error=problem) from None
        mask = mask_of(model.cells)
        if mask.bit_count() != len(model.cells):
            raise NotationError(N_("{where}[{i}]: a cell is listed twice"), where=where, i=i)
        out.append((model.patch, mask))
    return out


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

    @property
    def moves(self) -> tuple[Move, ...]:
        return ()

    def to_json(self) -> dict[str, Any]:
        return {"correct": self.correct, "margin": self.margin, "line": placements_json(self.line),
                "value": self.value, "best": self.best, "text": self.text}


def judge_fill(puzzle: FillPuzzle, placements: list[Placement]) -> FillVerdict:
    """The verdict on a fill (``IllegalMoveError`` when it breaks the puzzle's rules)."""
    fault = fill_fault(puzzle, placements)
    if fault is not None:
        raise fault
    value = fill_value(puzzle, placements)
    square = not puzzle.require_bonus or completes_square(puzzle, placements)
    cells = puzzle.objective == "cells"
    if not square:
        correct, value_shown = False, 0
        # Translators: a fill puzzle's verdict when the 7x7 square it asks for is not complete
        text = (ngettext("wrong: no 7x7 square is complete; the best fill completes one with {count} cell",
                         "wrong: no 7x7 square is complete; the best fill completes one with {count} cells",
                         puzzle.best_value) if cells else
                ngettext("wrong: no 7x7 square is complete; the best fill completes one with {count} point",
                         "wrong: no 7x7 square is complete; the best fill completes one with {count} points",
                         puzzle.best_value))
    else:
        correct = value == puzzle.best_value
        value_shown = value
        text = _fill_verdict(correct, cells, value, puzzle.best_value)
    return FillVerdict(correct, value_shown, puzzle.best_value, value_shown - puzzle.best_value, puzzle.best, text)


def _fill_verdict(correct: bool, cells: bool, value: int, best: int) -> str:
    """A complete fill's verdict: the optimum reached, or short of it (one whole sentence each)."""
    if correct:
        # Translators: a fill puzzle's verdict: the answer reaches the proven optimum
        return (ngettext("correct: {count} cell, the proven optimum", "correct: {count} cells, the proven optimum",
                         value) if cells else
                ngettext("correct: {count} point, the proven optimum", "correct: {count} points, the proven optimum",
                         value))
    # Translators: a fill puzzle's verdict: the answer reaches {count}, short of the proven optimum {best}
    return (ngettext("short: {count} cell, the proven optimum is {best}",
                     "short: {count} cells, the proven optimum is {best}", value, best=best) if cells else
            ngettext("short: {count} point, the proven optimum is {best}",
                     "short: {count} points, the proven optimum is {best}", value, best=best))


def fill_task(puzzle: FillPuzzle) -> str:
    """The task in words: what to fill with, for what, within which budget (whole sentences: what
    to fill the quilt with and for what, then the budget and the 7x7 square it asks for, if any)."""
    # Translators: a count of patches in a fill puzzle's task ("Fill the quilt with some of the 6 patches")
    patches = ngettext("{count} patch", "{count} patches", len(puzzle.patches))
    if puzzle.objective == "points":
        marks = ngettext("{count} income mark", "{count} income marks", puzzle.marks)
        # Translators: a fill puzzle's task for points; {patches} is "6 patches", {marks} "3 income marks"
        said = [_("Fill the quilt with some of the {patches} (each at most once) for the best score change "
                  "(2 a cell, income at {marks} ahead, less the price).", patches=patches, marks=marks)]
    else:
        # Translators: a fill puzzle's task for cells; {patches} is "6 patches"
        said = [_("Fill the quilt with some of the {patches} (each at most once) for as many covered cells as "
                  "possible.", patches=patches)]
    if puzzle.budget is not None:
        # Translators: a fill puzzle's button budget
        said.append(ngettext("Spend at most {count} button.", "Spend at most {count} buttons.", puzzle.budget))
    if puzzle.require_bonus:
        said.append(_("Complete a 7x7 square."))
    # Translators: a puzzle's difficulty, 1 (easy) to 5 (hard)
    said.append(_("Difficulty {difficulty} of 5.", difficulty=puzzle.difficulty))
    return " ".join(said) + themes_sentence(puzzle.themes, THEME_WORDS)


class FillDetails(BaseModel):
    """The quilt to fill and the patches to fill it with (the page's ``fill``)."""

    kind: Literal["fill"] = "fill"
    quilt: list[CellModel] = Field(description="covered cells")
    patches: list[int] = Field(description="the patches to choose from, each at most once")
    objective: Objective
    marks: int = Field(description="income marks ahead (the points objective counts income at each)")
    budget: int | None = Field(description="buttons to spend at most, or null")
    require_bonus: bool = Field(description="a 7x7 square must be completed")


class FillVerdictDetails(BaseModel):
    """What the fill reached and the proven optimum, drawn beside it and in words."""

    kind: Literal["fill"] = "fill"
    value: int = Field(description="what the answer reaches (0 when a 7x7 square is asked for and not completed)")
    best: int = Field(description="the proven optimum")
    optimum: list[PlacementModel] = Field(description="the optimum's placements")
    optimum_words: list[str] = Field(description="each placement of the optimum in words (\"#12 at rows 0-2, "
                                                 "cols 1-3, turned right\")")


class FillKind(PuzzleKind[FillPuzzle, FillVerdict]):
    name = "fill"
    # Translators: a kind of puzzle, as its menu names it
    label = N_("fill the quilt")
    prefix = "f"
    answer = "placements"
    themes = FILL_THEMES
    theme_words = THEME_WORDS
    bank_file = "fills.json"
    # Translators: the label of the progress bar while the puzzle bank's puzzles of a kind are made
    bank_words = N_("fill puzzles")
    comes_back_as = "fill"
    maker = "patchwork_opt.puzzles.making"
    variants = VARIANTS
    theme_variants = THEME_VARIANTS
    bank_even = True

    def from_json(self, data: dict[str, Any]) -> FillPuzzle:
        return fill_from_json(data)

    def task(self, puzzle: FillPuzzle) -> str:
        return fill_task(puzzle)

    def judge(self, puzzle: FillPuzzle, answer: Answer, judging: Judging) -> FillVerdict:
        assert isinstance(answer, list)
        return judge_fill(puzzle, answer)

    def quilt(self, puzzle: FillPuzzle) -> FillPuzzle:
        return puzzle

    def details(self, puzzle: FillPuzzle) -> FillDetails:
        return FillDetails(quilt=cells_of(puzzle.quilt), patches=list(puzzle.patches), objective=puzzle.objective,
                           marks=puzzle.marks, budget=puzzle.budget, require_bonus=puzzle.require_bonus)

    def verdict_details(self, puzzle: FillPuzzle, verdict: FillVerdict) -> FillVerdictDetails:
        return FillVerdictDetails(
            value=verdict.value, best=verdict.best,
            optimum=[PlacementModel(patch=pid, cells=cells_of(mask)) for pid, mask in verdict.line],
            optimum_words=[patch_words(pid, mask) for pid, mask in verdict.line])


FILL = FillKind()
