"""Every shipped puzzle proven again: the winning moves win (and are all the wins, of one decision),
the refutation beats the named wrong move, the fill optimum is proven by the optimizer, reached by
the shipped placements, and every other choice of patches falls clearly short.

The compiled exact search and the fill's packing search make this quick, but the whole bank still
takes a while on a shared machine: the normal run proves a seeded sample of each kind and
difficulty, ``-m slow`` (or the full run) proves every puzzle.
"""

from __future__ import annotations

import random
from typing import TypeVar

import pytest

from patchwork_opt.ai.search.exact import final_value
from patchwork_opt.core.clock import Deadline
from patchwork_opt.puzzles.bank import shipped_bank
from patchwork_opt.puzzles.endgame import MAX_ACCEPTED, decision_of, difficulty_of, only_move, rating_of
from patchwork_opt.puzzles.kinds.endgame import ENDGAME, ENDGAME_THEMES, EndgamePuzzle
from patchwork_opt.puzzles.kinds.fill import FILL_THEMES, FillPuzzle, completes_square, fill_problem, fill_value
from patchwork_opt.puzzles.making import MARGIN
from patchwork_opt.puzzles.model import DIFFICULTIES
from patchwork_opt.puzzles.proof import Prover, margin_of, move_key, play
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
    assert only_move(classified) is not None, "not exactly one winning decision with few winning moves"
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
    config = SolverConfig(workers=1, seed=0)
    result = optimal_fill(puzzle.quilt, list(puzzle.patches), objective=puzzle.objective, marks=puzzle.marks,
                          budget=puzzle.budget, require_bonus=puzzle.require_bonus, deadline=Deadline.after(60),
                          config=config)
    assert result.status == SolveStatus.OPTIMAL and result.objective == puzzle.best_value
    # one best answer: every other choice of patches falls clearly short (or completes no 7x7)
    chosen = {pid for pid, _ in puzzle.best}
    other = optimal_fill(puzzle.quilt, list(puzzle.patches), objective=puzzle.objective, marks=puzzle.marks,
                         budget=puzzle.budget, require_bonus=puzzle.require_bonus, deadline=Deadline.after(60),
                         config=config, exclude_sets=[chosen])
    assert other.status in (SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE)
    assert other.status == SolveStatus.INFEASIBLE or (other.objective or 0) <= puzzle.best_value - MARGIN[
        puzzle.objective]


def test_the_bank_holds_both_kinds_across_the_five_difficulties_and_every_theme() -> None:
    counts = BANK.counts()
    for kind in ("endgame", "fill"):
        assert all(counts[kind][d] >= 1 for d in DIFFICULTIES), counts
    assert len(ENDGAMES) >= 500 and len(FILLS) >= 300
    assert len({p.id for p in ENDGAMES + FILLS}) == len(ENDGAMES) + len(FILLS)
    assert {t for p in ENDGAMES for t in p.themes} == set(ENDGAME_THEMES)
    assert {t for p in FILLS for t in p.themes} == set(FILL_THEMES)


def test_every_endgame_has_one_winning_decision_and_a_measured_difficulty() -> None:
    for puzzle in ENDGAMES:
        state = puzzle.state()
        keys = {move_key(state, m) for m in puzzle.winning}
        assert len(keys) == len(puzzle.winning) <= MAX_ACCEPTED, puzzle.id
        assert len({decision_of(k) for k in keys}) == 1, puzzle.id
        assert puzzle.rating == round(rating_of(puzzle.bots), 1) and puzzle.difficulty == difficulty_of(puzzle.rating)
    for move_type, share in ENDGAME.bank_shares.items():  # a bank of one idea teaches one idea
        assert sum(all(m.kind == move_type for m in p.winning) for p in ENDGAMES) <= share * len(ENDGAMES), move_type


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
