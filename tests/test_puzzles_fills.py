"""Fill puzzles with one best answer: the optimum's choice of patches is the only one reaching it,
the themes they are tagged with, the refused themes, and puzzles made again from their seed."""

from __future__ import annotations

import pytest

from patchwork_opt.core.catalogue import PATCHES, patch_worth
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.puzzles.kinds.fill import FillPuzzle, fill_problem, fill_value
from patchwork_opt.puzzles.making import (
    MARGIN,
    Variant,
    check_puzzle_request,
    fill_puzzle,
    fill_question,
    generate_fill,
    new_puzzle,
)
from solvers.fill import optimal_fill
from solvers.model import SolverConfig, SolveStatus

CONFIG = SolverConfig(workers=1, seed=0)
SECONDS = 20.0  # time to settle every fill here
#: A seed giving a puzzle in each variant (found once, kept: the games are seeded).
SEEDS: dict[Variant, int] = {"cells": 4, "points": 0, "bonus": 4}
#: A seed whose cells quilt has several best choices of patches, so no puzzle.
TIED_SEED = 0


def made(variant: Variant) -> FillPuzzle:
    puzzle = fill_puzzle(SEEDS[variant], variant)
    assert puzzle is not None, f"seed {SEEDS[variant]} gives no {variant} puzzle any more: pick another"
    return puzzle


def chosen(puzzle: FillPuzzle) -> set[int]:
    return {pid for pid, _ in puzzle.best}


def solve(puzzle: FillPuzzle, patches: list[int], budget: int | None) -> tuple[SolveStatus, int | None]:
    result = optimal_fill(puzzle.quilt, patches, objective=puzzle.objective, marks=puzzle.marks, budget=budget,
                          require_bonus=puzzle.require_bonus, deadline=Deadline.after(SECONDS), config=CONFIG)
    return result.status, result.objective


@pytest.mark.parametrize("variant", ["cells", "points", "bonus"])
def test_every_other_choice_of_patches_falls_short_of_the_optimum(variant: Variant) -> None:
    puzzle = made(variant)
    assert fill_problem(puzzle, puzzle.best) == "" and fill_value(puzzle, puzzle.best) == puzzle.best_value > 0
    assert solve(puzzle, list(puzzle.patches), puzzle.budget) == (SolveStatus.OPTIMAL, puzzle.best_value)
    # re-solved without the exclusion the puzzle was made with: another choice of patches leaves out
    # one of the optimum's (one adding a patch worth something to it would beat the optimum), so
    # the best other choice is the best fill without one of them
    for left_out in sorted(chosen(puzzle)):
        status, value = solve(puzzle, [p for p in puzzle.patches if p != left_out], puzzle.budget)
        assert status in (SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE)  # infeasible: no other completes the 7x7
        if status == SolveStatus.OPTIMAL:
            assert value is not None and puzzle.best_value - value >= MARGIN[puzzle.objective]
    if puzzle.objective == "points":
        assert all(patch_worth(pid, puzzle.marks) > 0 for pid in chosen(puzzle))  # nothing worthless in the answer


def test_a_quilt_with_two_best_choices_of_patches_is_no_puzzle() -> None:
    question = fill_question(TIED_SEED, "cells")
    assert question is not None
    best = question.solve(budget=None, stop=None)
    assert best.status == SolveStatus.OPTIMAL and best.objective is not None
    other = optimal_fill(question.quilt, list(question.patches), exclude_sets=[{p.patch for p in best.placements}],
                         deadline=Deadline.after(SECONDS), config=CONFIG)
    assert other.status == SolveStatus.OPTIMAL and other.objective == best.objective  # another right answer
    assert fill_puzzle(TIED_SEED, "cells") is None


@pytest.mark.parametrize("variant", ["cells", "points", "bonus"])
def test_themes_say_what_the_puzzle_is_about(variant: Variant) -> None:
    puzzle = made(variant)
    assert ("points" in puzzle.themes) == (puzzle.objective == "points") == (variant == "points")
    assert ("7x7" in puzzle.themes) == puzzle.require_bonus == (variant == "bonus")
    if puzzle.budget is None:
        assert "budget" not in puzzle.themes
    else:  # the budget binds when a fill ignoring it is worth more
        status, free = solve(puzzle, list(puzzle.patches), None)
        assert status == SolveStatus.OPTIMAL and free is not None
        assert ("budget" in puzzle.themes) == (free > puzzle.best_value)
        if "budget" in puzzle.themes:
            assert sum(PATCHES[pid].cost for pid in chosen(puzzle)) <= puzzle.budget
    assert puzzle.to_json()["themes"] == list(puzzle.themes)


def test_a_theme_asked_for_is_a_theme_the_puzzle_has() -> None:
    puzzle = generate_fill(3, theme="7x7", max_seeds=20)
    assert puzzle.require_bonus and "7x7" in puzzle.themes
    budget = generate_fill(3, theme="budget", max_seeds=20)
    assert budget.objective == "points" and "budget" in budget.themes


@pytest.mark.parametrize(("kind", "variant", "theme", "message"), [
    ("fill", None, "leather", "a fill theme is budget, 7x7, or points, not 'leather'"),
    ("fill", "cells", "7x7", "the theme 7x7 is for the bonus variant, not cells"),
    ("endgame", None, "budget", "an endgame theme is 7x7-race, "),
])
def test_a_theme_the_kind_does_not_have_is_refused_in_one_line(kind: str, variant: str | None, theme: str,
                                                               message: str) -> None:
    with pytest.raises(PatchworkError, match=message) as refused:
        check_puzzle_request(kind, variant, theme)
    assert "\n" not in str(refused.value)
    with pytest.raises(PatchworkError, match=message):
        new_puzzle(kind, None, 1, variant=variant, theme=theme)
    check_puzzle_request(kind, None, None)  # no theme asked: nothing to refuse


@pytest.mark.parametrize("variant", ["cells", "points", "bonus"])
def test_the_same_seed_makes_the_same_puzzle(variant: Variant) -> None:
    # the answer's arrangement too, though the solver's two searches race to find one
    assert made(variant).to_json() == made(variant).to_json()


def test_the_same_seed_generates_the_same_puzzle_of_a_theme() -> None:
    first, again = generate_fill(5, theme="budget", max_seeds=20), generate_fill(5, theme="budget", max_seeds=20)
    assert first.id == again.id and chosen(first) == chosen(again) and "budget" in first.themes
