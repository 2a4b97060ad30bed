"""Every shipped puzzle proven again: the winning moves win (and are all the wins), the refutation
beats the named wrong move, the fill optimum is proven by the optimizer and reached by the shipped
placements.

The compiled exact search and the fill's packing search make this quick, but the whole bank still
takes a while on a shared machine: the normal run proves a seeded sample of each kind and
difficulty, ``-m slow`` (or the full run) proves every puzzle.
"""

from __future__ import annotations

import random
from typing import TypeVar

import pytest

from patchwork_opt.ai.search.exact import final_value
from patchwork_opt.puzzles.bank import shipped_bank
from patchwork_opt.puzzles.model import (
    DIFFICULTIES,
    EndgamePuzzle,
    FillPuzzle,
    completes_square,
    fill_problem,
    fill_value,
)
from patchwork_opt.puzzles.proof import ADVANCE_KEY, Prover, margin_of, move_key, play
from solvers.fill import optimal_fill
from solvers.model import SolverConfig, SolveStatus

BANK = shipped_bank()
ENDGAMES = [p for p in BANK.puzzles["endgame"] if isinstance(p, EndgamePuzzle)]
FILLS = [p for p in BANK.puzzles["fill"] if isinstance(p, FillPuzzle)]
SAMPLE_PER_DIFFICULTY = 2
P = TypeVar("P", EndgamePuzzle, FillPuzzle)


def _sample(puzzles: list[P], seed: int) -> list[P]:
    rng = random.Random(seed)
    out = []
    for d in DIFFICULTIES:
        of_d = [p for p in puzzles if p.difficulty == d]
        out += rng.sample(of_d, min(SAMPLE_PER_DIFFICULTY, len(of_d)))
    return out


def prove_endgame(puzzle: EndgamePuzzle) -> None:
    state = puzzle.state()
    prover = Prover(60.0)
    classified = prover.classify(state)
    listed = [move_key(state, m) for m in puzzle.winning]
    assert len(set(listed)) == len(listed), "a winning class listed twice"
    assert set(listed) == classified.wins, "the listed winning moves are not exactly the winning ones"
    assert len(classified.moves) == puzzle.legal
    assert 1 <= len(classified.wins) <= puzzle.legal / 3 and classified.wins != {ADVANCE_KEY}
    wrong = puzzle.refutation
    assert move_key(state, wrong) not in classified.wins
    value, _ = prover.after(state, wrong)
    assert value <= 0 and margin_of(value) == puzzle.refutation_margin
    end = play(state, wrong)
    for move in puzzle.refutation_line[1:]:
        end.apply(move)
    assert end.is_terminal() and final_value(end, puzzle.player) == value  # the line is best play to the end


def prove_fill(puzzle: FillPuzzle) -> None:
    assert fill_problem(puzzle, puzzle.best) == ""
    assert fill_value(puzzle, puzzle.best) == puzzle.best_value
    assert not puzzle.require_bonus or completes_square(puzzle, puzzle.best)
    result = optimal_fill(puzzle.quilt, list(puzzle.patches), objective=puzzle.objective, marks=puzzle.marks,
                          budget=puzzle.budget, require_bonus=puzzle.require_bonus,
                          config=SolverConfig(time_limit=60, workers=1, seed=0))
    assert result.status == SolveStatus.OPTIMAL and result.objective == puzzle.best_value


def test_the_bank_holds_both_kinds_across_the_five_difficulties() -> None:
    counts = BANK.counts()
    for kind in ("endgame", "fill"):
        assert all(counts[kind][d] >= 1 for d in DIFFICULTIES), counts
    assert len({p.id for p in ENDGAMES + FILLS}) == len(ENDGAMES) + len(FILLS)


@pytest.mark.parametrize("puzzle", _sample(ENDGAMES, 1), ids=lambda p: p.id)
def test_a_sample_of_the_endgames_is_proven_again(puzzle: EndgamePuzzle) -> None:
    prove_endgame(puzzle)


@pytest.mark.parametrize("puzzle", _sample(FILLS, 1), ids=lambda p: p.id)
def test_a_sample_of_the_fills_is_proven_again(puzzle: FillPuzzle) -> None:
    prove_fill(puzzle)


@pytest.mark.slow
def test_every_shipped_puzzle_is_proven_again() -> None:
    for endgame in ENDGAMES:
        prove_endgame(endgame)
    for fill in FILLS:
        prove_fill(fill)
