"""Every mistake a lesson: a reviewed game's mistakes and blunders as exercises, "find a better move",
judged by the review's own label rule; made, read back, judged, and played from the command line.

``data/mistake_record.json`` is a seeded self-play game cut just after a blunder (its last move): from a
won endgame the player advanced and lost. Exercises are made here of fixed-budget analyses, so they
are the same on any machine."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli import app
from patchwork_opt.ai.analysis.position import analyse_position
from patchwork_opt.ai.base import AnalysedMove, SearchedPosition
from patchwork_opt.apps.judge import LABELS, POINT_LABELS
from patchwork_opt.apps.practice import PRACTISED, exercise_of, exercises_at, grade
from patchwork_opt.apps.review import review_game, review_ply
from patchwork_opt.core.clock import ThinkBudget
from patchwork_opt.core.errors import IllegalMoveError, PatchworkError
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import Record
from patchwork_opt.puzzles.kinds import KINDS, Judging, kind_of, load_puzzle, puzzle_from_json
from patchwork_opt.puzzles.kinds.exercise import Exercise, ExerciseVerdict, exercise_id, judge_exercise
from patchwork_opt.puzzles.model import PuzzleFormatError
from patchwork_opt.puzzles.proof import distinct_moves, move_key

RECORD_PATH = Path(__file__).parent / "data" / "mistake_record.json"
RECORD = Record.load(RECORD_PATH)
BLUNDER_PLY = len(RECORD.moves) - 1
ITERATIONS = 1500
runner = CliRunner()


def fixed(state: State, extra: Any = ()) -> SearchedPosition:
    """A fixed-budget analysis (the same on any machine), with the move played compared alongside."""
    return analyse_position(state, iterations=ITERATIONS, seed=0, extra=list(extra))


def judging(calls: list[float] | None = None) -> Judging:
    """The review's label rule, and fixed-budget analyses of the positions answers lead to."""

    def analysis_of(state: State, budget: ThinkBudget) -> SearchedPosition:
        if calls is not None:
            calls.append(budget.seconds)
        return fixed(state)

    return Judging(analysis_of=analysis_of, grade=grade)


@pytest.fixture(scope="module")
def blunder() -> Exercise:
    (made,) = exercises_at(RECORD, [BLUNDER_PLY], fixed, 0.5)
    return made


def test_a_blunder_becomes_an_exercise_from_the_position_before_it(blunder: Exercise) -> None:
    before = Record(RECORD.circle[:], RECORD.moves[:BLUNDER_PLY], RECORD.leather)
    state = before.replay()
    played = RECORD.moves[BLUNDER_PLY]
    review = review_game(RECORD, analyse=fixed, with_deal=False).plies[BLUNDER_PLY]  # the chained review's ply
    assert review.label in PRACTISED  # the review calls it a mistake or worse
    assert blunder.record.moves == before.moves and blunder.ply == BLUNDER_PLY and blunder.player == state.to_move()
    assert blunder.label == review.label and blunder.played.move == played and blunder.best.move == review.best
    assert blunder.played.win == pytest.approx(review.win_after, abs=1e-4)
    assert blunder.best.win == pytest.approx(review.win_before, abs=1e-4)
    assert blunder.id == exercise_id(state, played) and blunder.id.startswith("x")
    assert kind_of(blunder).name == "exercise"
    assert blunder.played.line[0] == played and len(blunder.played.line) > 1  # the play that refutes it
    assert 1 <= blunder.difficulty <= 5 and blunder.seconds == 0.5
    task = KINDS["exercise"].task(blunder)
    assert "find a better move" in task and "advance 3 spaces" in task and blunder.label in task


def test_only_mistakes_and_blunders_become_exercises(blunder: Exercise) -> None:
    """The first move of the game is no mistake: asking for it makes nothing; a ply beyond the game
    is one line naming it."""
    assert exercises_at(RECORD, [0], fixed, 0.5) == []
    with pytest.raises(PatchworkError, match=f"ply {len(RECORD.moves)} is not a move of the record"):
        exercises_at(RECORD, [len(RECORD.moves)], fixed, 0.5)
    state, after = RECORD.replay(0), RECORD.replay(1)
    here = fixed(state, [RECORD.moves[0]])
    first = review_ply(0, state, RECORD.moves[0], here, fixed(after))
    assert first.label not in PRACTISED and exercise_of(RECORD, first, here, fixed(after), 0.5) is None


def test_the_line_after_the_move_played_starts_with_that_very_placement() -> None:
    """An analysis lists one placement per class equal up to the board's symmetries: when it valued
    a twin of the move played, the twin's line goes on from another quilt, so the line after the
    move played comes from the position it led to."""
    state, played = RECORD.replay(0), RECORD.moves[0]
    twin = next(m for m in state.legal_moves()
                if m != played and m.kind == "buy" and move_key(state, m) == move_key(state, played))
    other = next(m for m in state.legal_moves() if move_key(state, m) != move_key(state, played))
    here = SearchedPosition.of(state, [
        AnalysedMove(other, win=0.9, margin=10.0, visits=1000, exact=False, line=(other,)),
        AnalysedMove(twin, win=0.2, margin=-10.0, visits=1000, exact=False, line=(twin, ADVANCE)),
    ])
    after = RECORD.replay(1)
    made = exercise_of(RECORD, review_ply(0, state, played, here, fixed(after)), here, fixed(after), 0.5)
    assert made is not None and made.label == "blunder" and made.played.move == played
    assert made.played.line[0] == played and made.played.line[1:] == fixed(after).best.line[:len(made.played.line) - 1]
    assert puzzle_from_json(made.to_json()) == made


def test_an_exercise_reads_back_as_written_and_a_broken_one_names_the_field(blunder: Exercise) -> None:
    data = blunder.to_json()
    again = puzzle_from_json(json.loads(json.dumps(data)))
    assert isinstance(again, Exercise) and again.to_json() == data
    broken: list[tuple[str, Any, str]] = [
        ("id", "x000000000000", "id: not the id of this position and move played"),
        ("ply", 3, "ply: the position comes before move 39, not 3"),
        ("label", "inaccuracy", "label"),
        ("best", data["played"], "best: the same move as the one played"),
        ("played", {**data["played"], "move": {"type": "leather", "cell": [0, 0]}}, "played.move[0]"),
    ]
    for field, value, says in broken:
        with pytest.raises(PuzzleFormatError, match="^" + re.escape(says)):
            puzzle_from_json({**copy.deepcopy(data), field: value})


def test_the_best_move_is_right_and_the_move_played_never_is(blunder: Exercise) -> None:
    best = judge_exercise(blunder, blunder.best.move, judging())
    assert best.correct and best.label == "best" and best.loss == 0 and best.text.startswith("better:")
    played = judge_exercise(blunder, blunder.played.move, judging())
    assert not played.correct and played.text.startswith("that is the move you played in the game")
    # the verdict says which move was best and why the move played was worse, with the play after it
    assert "The best move was buy #29" in played.text and played.why in played.text
    assert "You chose to advance 3 spaces" in played.why and "The play expected after your move" in played.why
    with pytest.raises(IllegalMoveError):
        judge_exercise(blunder, Move("leather", -1, 1), judging())
    with pytest.raises(PatchworkError, match="needs the review's label rule"):
        judge_exercise(blunder, ADVANCE, Judging())


def test_every_answer_is_right_exactly_when_the_review_would_not_call_it_a_mistake(blunder: Exercise) -> None:
    calls: list[float] = []
    state = blunder.state()
    verdicts: dict[Move, ExerciseVerdict] = {m: judge_exercise(blunder, m, judging(calls))
                                             for m in distinct_moves(state).values()}
    for move, verdict in verdicts.items():
        is_played = move_key(state, move) == move_key(state, blunder.played.move)
        assert verdict.correct == (verdict.label not in PRACTISED and not is_played), (move, verdict.text)
        assert verdict.loss == pytest.approx(max(0.0, blunder.best.win - verdict.answer.win))
    assert any(not v.correct for m, v in verdicts.items() if m != blunder.played.move)  # a wrong answer besides
    assert calls and set(calls) == {blunder.seconds}  # a move the review did not value is analysed with its time


def _with_moves(exercise: Exercise, moves: list[dict[str, Any]]) -> Exercise:
    data = exercise.to_json()
    data["best"] = {**data["best"], "proven": True}
    data["moves"] = moves
    made = puzzle_from_json(data)
    assert isinstance(made, Exercise)
    return made


def test_a_move_is_accepted_up_to_the_review_s_mistake_threshold(blunder: Exercise) -> None:
    """Any move whose loss stays below the mistake threshold is accepted: the figures the review's
    analysis gave a move (proven outcomes count in full) just under and just at the threshold."""
    (mistake,) = [chance for name, chance in LABELS if name == "mistake"]
    (points,) = [p for name, p in POINT_LABELS if name == "mistake"]
    best = blunder.best
    others = [m for m in distinct_moves(blunder.state()).values()
              if m not in (best.move, blunder.played.move)][:2]
    under, at = (
        {"move": m.to_json(), "win": round(best.win - loss, 4), "margin": best.margin - points / 2, "proven": True,
         "line": [m.to_json()]}
        for m, loss in zip(others, (mistake - 0.002, mistake + 0.002), strict=True))
    exercise = _with_moves(blunder, [under, at])
    right = judge_exercise(exercise, others[0], Judging(grade=grade))  # judged by the file's figures alone
    wrong = judge_exercise(exercise, others[1], Judging(grade=grade))
    assert right.correct and right.label == "inaccuracy" and right.text.startswith("better:")
    assert not wrong.correct and wrong.label == "mistake" and wrong.text.startswith("not better:")


def test_analyze_writes_an_exercise_per_mistake_that_check_and_solve_play(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    result = runner.invoke(app, ["analyze", str(RECORD_PATH), "--time-per-move", "0.2", "--puzzles", str(out),
                                 "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    labels = {p["ply"]: p["label"] for p in data["plies"]}
    assert labels[BLUNDER_PLY] == "blunder"
    written = {p["ply"]: p for p in data["puzzles"]}
    assert sorted(written) == sorted(ply for ply, label in labels.items() if label in PRACTISED)  # every one
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{p['id']}.json" for p in data["puzzles"])
    entry = written[BLUNDER_PLY]
    assert entry["kind"] == "exercise" and entry["label"] == "blunder" and entry["player"] == RECORD.replay(
        BLUNDER_PLY).to_move()
    exercise = load_puzzle(entry["path"])
    assert isinstance(exercise, Exercise) and exercise.id == entry["id"]
    best = json.dumps(exercise.best.move.to_json())
    check = runner.invoke(app, ["puzzle", "check", entry["path"], "--move", best, "--json"])
    assert check.exit_code == 0, check.stderr
    verdict = json.loads(check.stdout)
    assert verdict["correct"] and verdict["best"]["move"] == exercise.best.move.to_json()
    again = runner.invoke(app, ["puzzle", "check", entry["path"], "--move", json.dumps(ADVANCE.to_json())])
    assert again.exit_code == 0 and again.stdout.startswith("that is the move you played")
    solved = runner.invoke(app, ["puzzle", "solve", entry["path"]], input=f"{exercise.best.move}\n")
    assert solved.exit_code == 0, solved.stderr
    assert "find a better move" in solved.stdout and "better: buy #29" in solved.stdout
    text = runner.invoke(app, ["analyze", str(RECORD_PATH), "--time-per-move", "0.2", "--puzzles", str(out)])
    assert text.exit_code == 0 and f"ply {BLUNDER_PLY}, Player 1's blunder: {out / entry['id']}.json" in text.stdout


def test_bad_input_to_practise_is_one_line(tmp_path: Path) -> None:
    torn = tmp_path / "torn.json"
    torn.write_text('{"circle": [1, 2')
    out = tmp_path / "out"
    result = runner.invoke(app, ["analyze", str(torn), "--puzzles", str(out)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1 and str(torn) in result.stderr
    taken = tmp_path / "file"
    taken.write_text("x")
    result = runner.invoke(app, ["analyze", str(RECORD_PATH), "--puzzles", str(taken)])
    assert result.exit_code == 2 and result.stderr.strip() == f"error: --puzzles {taken}: exists and is not a directory"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"kind": "exercise", "id": "x0"}))
    result = runner.invoke(app, ["puzzle", "check", str(broken), "--move", '{"type": "advance"}'])
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {broken}: ") and result.stderr.count("\n") == 1
