"""Making puzzles: what makes a position an endgame puzzle (proven by the exact search), fill puzzles
proven by the optimizer, their difficulties, and a small bank written and read back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from patchwork_opt.core.state import State
from patchwork_opt.puzzles.bank import load_bank
from patchwork_opt.puzzles.endgame import REFUTATION_PLIES, difficulty_of, puzzles_of_game, self_play
from patchwork_opt.puzzles.making import build_bank, fill_difficulty, fill_puzzle, greedy_fill
from patchwork_opt.puzzles.model import FillPuzzle, fill_problem, fill_value, puzzle_from_json
from patchwork_opt.puzzles.proof import ADVANCE_KEY, Prover, distinct_moves, move_key

#: A self-play game with a puzzle among its last positions (found once, kept: the game is seeded).
GAME_SEED = 5


def test_self_play_is_repeatable() -> None:
    assert self_play(GAME_SEED).to_json() == self_play(GAME_SEED).to_json()


def test_an_endgame_puzzle_has_few_winning_moves_and_a_short_refutation() -> None:
    prover = Prover(30.0)
    puzzles = puzzles_of_game(GAME_SEED, prover, limit=1)
    assert puzzles, "the seeded game gives no puzzle any more: pick another GAME_SEED"
    puzzle = puzzles[0]
    state = puzzle.state()
    classified = prover.classify(state)
    moves = distinct_moves(state)
    assert puzzle.legal == len(moves) == len(classified.moves)
    wins = {move_key(state, m) for m in puzzle.winning}
    assert wins == classified.wins and 1 <= len(wins) <= len(moves) / 3 and wins != {ADVANCE_KEY}
    assert move_key(state, puzzle.refutation) not in wins and len(puzzle.refutation_line) <= REFUTATION_PLIES
    assert puzzle.refutation_line[0] == puzzle.refutation and puzzle.refutation_margin <= 0 <= puzzle.margin
    assert len(puzzle.bots) == 5 and 1 <= puzzle.difficulty <= 5
    assert puzzle_from_json(json.loads(json.dumps(puzzle.to_json()))).to_json() == puzzle.to_json()


def test_placements_equal_up_to_the_boards_symmetries_are_one_move() -> None:
    state = State.new(seed=GAME_SEED)  # an empty quilt: each patch has few distinct places
    moves = distinct_moves(state)
    assert len(moves) < state.count_moves()
    assert ADVANCE_KEY in moves


def test_rarer_wins_and_bots_that_miss_make_a_puzzle_harder() -> None:
    assert difficulty_of(10, 30, (1, 1, 1, 1, 1)) == 1  # a third of the moves win and every bot finds one
    assert difficulty_of(1, 100, (0, 0, 0, 0, 0)) == 5
    assert difficulty_of(1, 100, (1, 1, 1, 1, 1)) < difficulty_of(1, 100, (0, 0, 0, 1, 1))
    assert difficulty_of(5, 20, (0.5, 1, 1, 1, 1)) < difficulty_of(1, 20, (0.5, 1, 1, 1, 1))


@pytest.mark.parametrize("variant", ["cells", "points", "bonus"])
def test_a_fill_puzzle_is_proven_and_rated_by_greedys_shortfall(variant: str) -> None:
    puzzle = next(p for seed in range(40) if (p := fill_puzzle(seed, variant)) is not None)  # type: ignore[arg-type]
    assert isinstance(puzzle, FillPuzzle)
    assert fill_problem(puzzle, puzzle.best) == "" and fill_value(puzzle, puzzle.best) == puzzle.best_value > 0
    assert puzzle.require_bonus == (variant == "bonus") and (puzzle.budget is not None) == (variant == "points")
    greedy, placed = greedy_fill(puzzle.quilt, puzzle.patches, puzzle.objective, puzzle.marks, puzzle.budget,
                                 puzzle.require_bonus)
    assert greedy == puzzle.greedy and fill_problem(puzzle, placed) == ""
    assert greedy is None or greedy <= puzzle.best_value  # greedy never beats the proven optimum
    assert puzzle.difficulty == fill_difficulty(puzzle.best_value, greedy)
    assert fill_difficulty(40, 40) == 1 and fill_difficulty(40, 38) == 2 and fill_difficulty(40, None) == 5


def test_a_small_bank_is_written_and_read_back(tmp_path: Path) -> None:
    counts = build_bank(tmp_path, endgames=0, fills=5, seed=3, workers=1, progress=lambda *a: None,
                        command="patchwork puzzle bank --fills 5")
    assert counts["fill"] == {1: 1, 2: 1, 3: 1, 4: 1, 5: 1} and counts["endgame"] == dict.fromkeys(range(1, 6), 0)
    bank = load_bank(tmp_path)
    assert len(bank.of("fill")) == 5 and bank.of("endgame") == [] and bank.commands["fill"].endswith("--fills 5")
    again = tmp_path / "again"
    build_bank(again, endgames=0, fills=5, seed=3, workers=1, progress=lambda *a: None, command="x")
    assert [p.id for p in load_bank(again).of("fill")] == [p.id for p in bank.of("fill")]  # one seed, one bank
