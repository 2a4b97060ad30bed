"""Your own mistakes as puzzles: ``mistake_puzzles`` and ``patchwork analyze RECORD --puzzles DIR``.

``data/mistake_record.json`` is a seeded self-play game cut at an only-move position (the one of
``test_puzzles_generation.GAME_SEED``) and then the natural wrong move: a blunder whose position makes
a puzzle; the earlier mistakes of that game come from positions the exact search cannot settle or
where more than one decision wins."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cli import app
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.formats.record import Record
from patchwork_opt.puzzles.kinds import load_puzzle
from patchwork_opt.puzzles.kinds.endgame import EndgamePuzzle, judge_endgame
from patchwork_opt.puzzles.mistakes import mistake_puzzles
from patchwork_opt.puzzles.proof import Prover, move_key

RECORD_PATH = Path(__file__).parent / "data" / "mistake_record.json"
RECORD = Record.load(RECORD_PATH)
BLUNDER_PLY = len(RECORD.moves) - 1
runner = CliRunner()


def test_the_position_before_a_blunder_with_an_only_move_answer_becomes_a_puzzle() -> None:
    (puzzle,) = mistake_puzzles(RECORD, [BLUNDER_PLY])
    assert puzzle.record.moves == RECORD.moves[:BLUNDER_PLY]
    state = puzzle.state()
    played = RECORD.moves[BLUNDER_PLY]
    assert move_key(state, played) not in {move_key(state, m) for m in puzzle.winning}
    prover = Prover()
    assert not judge_endgame(puzzle, played, prover).correct  # the move played loses
    assert all(judge_endgame(puzzle, m, prover).correct for m in puzzle.winning)
    assert puzzle.themes and 1 <= puzzle.difficulty <= 5


def test_a_position_with_no_win_makes_no_puzzle_and_a_ply_beyond_the_record_is_refused() -> None:
    # after the blunder the opponent moves; the blunderer's next position is lost: no puzzle there
    assert mistake_puzzles(RECORD, []) == []
    try:
        mistake_puzzles(RECORD, [len(RECORD.moves)])
    except PatchworkError as exc:
        assert f"ply {len(RECORD.moves)} is not a move of the record" in str(exc)
    else:
        raise AssertionError("a ply beyond the record was accepted")


def test_analyze_writes_the_mistakes_that_make_puzzles(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    result = runner.invoke(app, ["analyze", str(RECORD_PATH), "--time-per-move", "0.2", "--puzzles", str(out),
                                 "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    labels = {p["ply"]: p["label"] for p in data["plies"]}
    assert labels[BLUNDER_PLY] in ("mistake", "blunder")
    written = {p["ply"]: p for p in data["puzzles"]}
    assert BLUNDER_PLY in written and all(labels[ply] in ("mistake", "blunder") for ply in written)
    entry = written[BLUNDER_PLY]
    puzzle = load_puzzle(entry["path"])
    assert isinstance(puzzle, EndgamePuzzle) and puzzle.id == entry["id"] and list(puzzle.themes) == entry["themes"]
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{p['id']}.json" for p in data["puzzles"])
    check = runner.invoke(app, ["puzzle", "check", entry["path"], "--move", json.dumps(puzzle.winning[0].to_json())])
    assert check.exit_code == 0 and check.stdout.startswith("correct")


def test_analyze_refuses_a_puzzle_directory_that_is_a_file_before_reviewing(tmp_path: Path) -> None:
    taken = tmp_path / "file"
    taken.write_text("x")
    result = runner.invoke(app, ["analyze", str(RECORD_PATH), "--puzzles", str(taken)])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: --puzzles {taken}: exists and is not a directory"
    assert result.stdout == ""
