"""Making puzzles: what makes a position an endgame puzzle (proven by the exact search), fill puzzles
proven by the optimizer, their difficulties, and a small bank written and read back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import ADVANCE
from patchwork_opt.core.state import State
from patchwork_opt.puzzles.bank import load_bank
from patchwork_opt.puzzles.banking import build_bank
from patchwork_opt.puzzles.endgame import (
    MAX_ACCEPTED,
    REFUTATION_PLIES,
    decision_of,
    difficulty_of,
    only_move,
    puzzles_of_game,
    rating_of,
    self_play,
)
from patchwork_opt.puzzles.kinds import puzzle_from_json
from patchwork_opt.puzzles.kinds.endgame import ENDGAME_THEMES, EndgamePuzzle, judge_endgame
from patchwork_opt.puzzles.kinds.fill import FillPuzzle, fill_problem, fill_value
from patchwork_opt.puzzles.making import fill_difficulty, fill_puzzle, greedy_fill
from patchwork_opt.puzzles.proof import ADVANCE_KEY, Classified, Prover, distinct_moves, move_key, play
from patchwork_opt.puzzles.themes import LONG_LINE

#: A self-play game with an only-move puzzle among its late positions (found once, kept: the game is
#: seeded), its best line and its refutation giving the 7x7 bonus to different players.
GAME_SEED = 219627415


@pytest.fixture(scope="module")
def seeded_puzzle() -> EndgamePuzzle:
    puzzles = puzzles_of_game(GAME_SEED, limit=1)
    assert puzzles, "the seeded game gives no puzzle any more: pick another GAME_SEED"
    return puzzles[0]


def test_self_play_is_repeatable() -> None:
    assert self_play(GAME_SEED).to_json() == self_play(GAME_SEED).to_json()


def test_an_endgame_puzzle_has_one_winning_decision_and_few_winning_moves(seeded_puzzle: EndgamePuzzle) -> None:
    puzzle = seeded_puzzle
    state = puzzle.state()
    classified = Prover().classify(state)  # proven again, from an empty table and with no cap
    moves = distinct_moves(state)
    assert puzzle.legal == len(moves) == len(classified.moves)
    wins = {move_key(state, m) for m in puzzle.winning}
    assert wins == classified.wins and 1 <= len(wins) <= MAX_ACCEPTED
    assert len({decision_of(k) for k in wins}) == 1 < len({decision_of(k) for k in moves})
    assert move_key(state, puzzle.refutation) not in wins and len(puzzle.refutation_line) <= REFUTATION_PLIES
    assert puzzle.refutation_line[0] == puzzle.refutation and puzzle.refutation_margin <= 0 <= puzzle.margin
    assert len(puzzle.bots) == 5 and puzzle.rating is not None
    assert puzzle.difficulty == difficulty_of(rating_of(puzzle.bots))
    assert set(puzzle.themes) <= set(ENDGAME_THEMES)
    assert puzzle_from_json(json.loads(json.dumps(puzzle.to_json()))).to_json() == puzzle.to_json()


def test_the_judge_accepts_exactly_the_winning_moves(seeded_puzzle: EndgamePuzzle) -> None:
    state = seeded_puzzle.state()
    wins = {move_key(state, m) for m in seeded_puzzle.winning}
    prover = Prover()
    verdicts = {key: judge_endgame(seeded_puzzle, move, prover).correct for key, move in distinct_moves(state).items()}
    assert {key for key, correct in verdicts.items() if correct} == wins


def test_the_seeded_puzzles_themes_follow_its_lines(seeded_puzzle: EndgamePuzzle) -> None:
    state = seeded_puzzle.state()
    prover = Prover()
    win = seeded_puzzle.winning[0]
    _, rest = prover.after(state, win)
    end_win, end_wrong = play(state, win), play(state, seeded_puzzle.refutation)
    for move in rest:
        end_win.apply(move)
    for move in seeded_puzzle.refutation_line[1:]:
        end_wrong.apply(move)
    assert state.bonus < 0 and end_win.bonus != end_wrong.bonus
    assert "7x7-race" in seeded_puzzle.themes
    assert ("long-line" in seeded_puzzle.themes) == (len(seeded_puzzle.refutation_line) > LONG_LINE)
    assert ("tie-break" in seeded_puzzle.themes) == (0 in (seeded_puzzle.margin, seeded_puzzle.refutation_margin))


def _classified(wins: set[tuple[str, int, int]], moves: list[tuple[str, int, int]]) -> Classified:
    by_key = {k: ADVANCE for k in moves}
    return Classified(by_key, frozenset(wins), ADVANCE, 2, tuple(by_key.values()))


def test_only_one_winning_decision_with_few_winning_moves_makes_a_puzzle() -> None:
    advance = ("advance", -1, 0)
    buy7 = [("buy", 7, q) for q in range(10)]
    buy9 = [("buy", 9, q) for q in range(3)]
    moves = [advance, *buy7, *buy9]
    found = only_move(_classified({buy7[0], buy7[3]}, moves))
    assert found is not None and found.decision == ("buy", 7, 0) and found.accepted == 2 and found.placement_decides
    assert only_move(_classified({buy7[0], buy9[1]}, moves)) is None  # two decisions win
    assert only_move(_classified(set(buy7[:MAX_ACCEPTED + 1]), moves)) is None  # too many winning moves
    assert only_move(_classified(set(), moves)) is None  # nothing wins
    waiting = only_move(_classified({advance}, moves))
    assert waiting is not None and not waiting.placement_decides
    assert only_move(_classified({advance}, [advance])) is None  # no choice to make
    leather = [("leather", -1, q) for q in range(4)]
    cell = only_move(_classified({leather[2]}, leather))
    assert cell is not None and cell.placement_decides  # each leather cell class is a decision of its own


def test_a_puzzle_the_stronger_bots_alone_solve_is_rated_harder() -> None:
    everyone, strong_only, nobody = rating_of((1, 1, 1, 1, 1)), rating_of((0, 0, 0, 1, 1)), rating_of((0, 0, 0, 0, 0))
    assert everyone < strong_only < nobody
    assert difficulty_of(everyone) == 1 and difficulty_of(nobody) == 5
    assert [difficulty_of(r) for r in sorted((nobody, everyone, strong_only))] == sorted(
        difficulty_of(r) for r in (nobody, everyone, strong_only))


def test_placements_equal_up_to_the_boards_symmetries_are_one_move() -> None:
    state = State.new(seed=GAME_SEED)  # an empty quilt: each patch has few distinct places
    moves = distinct_moves(state)
    assert len(moves) < state.count_moves()
    assert ADVANCE_KEY in moves


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
    (tmp_path / "endgames.json").write_text("kept")  # a kind asked for no puzzles keeps its file
    counts = build_bank(tmp_path, {"endgame": 0, "fill": 3}, seed=3, workers=1, progress=lambda *a: None,
                        command="patchwork puzzle bank --fills 3")
    assert sum(counts["fill"].values()) == 3 and max(counts["fill"].values()) == 1
    assert counts["endgame"] == dict.fromkeys(range(1, 6), 0) and (tmp_path / "endgames.json").read_text() == "kept"
    (tmp_path / "endgames.json").unlink()
    bank = load_bank(tmp_path)
    assert len(bank.of("fill")) == 3 and bank.of("endgame") == [] and bank.commands["fill"].endswith("--fills 3")


def test_an_endgame_bank_is_the_same_made_locally_or_on_ray(tmp_path: Path) -> None:
    """Endgames are proven within node budgets and rated by bots on iteration budgets, so the seed
    alone decides the bank (fills are proven on the clock: a slower machine may drop one)."""
    pytest.importorskip("ray", reason="the ray backend needs the 'ray' extra")
    banks = {}
    for backend in ("local", "ray"):
        build_bank(tmp_path / backend, {"endgame": 1}, seed=3, workers=1, progress=lambda *a: None,
                   command="x", backend=backend)
        banks[backend] = [p.to_json() for p in load_bank(tmp_path / backend).of("endgame")]
    assert len(banks["local"]) == 1 and banks["ray"] == banks["local"]


def test_a_bank_on_an_unknown_backend_is_refused_before_any_game(tmp_path: Path) -> None:
    with pytest.raises(PatchworkError, match="unknown backend 'spark'"):
        build_bank(tmp_path, {"endgame": 5}, seed=0, workers=1, progress=lambda *a: None, command="x",
                   backend="spark")
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(PatchworkError, match="the bank holds puzzles of the kinds endgame and fill, not exercise"):
        build_bank(tmp_path, {"exercise": 5}, seed=0, workers=1, progress=lambda *a: None, command="x")
    with pytest.raises(PatchworkError, match="--endgames and --fills must be at least 0"):
        build_bank(tmp_path, {"fill": -1}, seed=0, workers=1, progress=lambda *a: None, command="x")
    assert list(tmp_path.iterdir()) == []
