"""``patchwork play`` driven by a script on standard input, as a person's terminal would feed it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner, Result

from cli import app
from patchwork_opt.core.move import ADVANCE
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import Record

runner = CliRunner()

#: Buy the first offer on its best suggestion (or place a waiting leather patch), then advance:
#: every round moves the person's token, so 60 rounds always finish a game.
ROUND = "buy 1 1\n1\nadvance\n"
FINAL = re.compile(r"game over: you (-?\d+), AI (-?\d+): (you win|the AI \(\w+\) wins)")


def play(args: list[str], script: str) -> Result:
    return runner.invoke(app, ["play", *args], input=script)


def test_a_whole_game_from_a_script_ends_with_scores_and_a_record_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = play(["--ai", "greedy", "--seed", "3", "--save", str(path)], ROUND * 60)
    assert result.exit_code == 0, result.output
    out = result.stdout
    final = FINAL.findall(out)
    assert len(final) == 1, out[-2000:]
    you, ai, verdict = int(final[0][0]), int(final[0][1]), final[0][2]
    state = Record.load(path).replay()
    assert state.is_terminal()
    assert (state.score(0), state.score(1)) == (you, ai)
    assert (verdict == "you win") == (state.winner() == 0)
    assert re.search(r"AI buys #\d+ at rows? \d", out)  # the AI said what it did, in words
    assert "expects" not in out  # ... without internal scores
    # no prompts, no spinner, no colour codes: only the game text
    assert "you> " not in out and "thinking" not in out and "\x1b[" not in out
    replayed = runner.invoke(app, ["replay", str(path), "--json"])
    assert replayed.exit_code == 0
    assert json.loads(replayed.stdout)["over"] is True


def test_bad_lines_re_prompt_with_one_line_and_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    script = "jump\nbuy 7\nbuy 1\n0\no9 1,1\n1\nquit\n"
    result = play(["--ai", "greedy", "--seed", "3", "--save", str(path)], script)
    assert result.exit_code == 0, result.output
    errors = [line for line in result.stdout.splitlines() if line.startswith("error:")]
    assert errors == [
        "error: unknown command 'jump' (type help for the list)",
        "error: there are at most 3 patches on offer, numbered 1-3, not 7",
        "error: suggestions are numbered from 1",
        errors[3],
    ]
    assert re.fullmatch(r"error: #\d+ has orientations o0-o\d, not o9", errors[3])
    moves = Record.load(path).moves
    assert moves[0].kind == "buy"  # the buy went through once the placement was readable
    assert len(moves) >= 2  # and the AI replied


def test_undo_takes_back_the_move_and_the_ai_reply(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = play(["--ai", "greedy", "--seed", "3", "--save", str(path)], "advance\nundo\nquit\n")
    assert result.exit_code == 0, result.output
    assert "took back: you advance, and the AI's 1 reply" in result.stdout
    assert Record.load(path).moves == []


def test_end_of_input_quits_cleanly_and_saves(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = play(["--ai", "random", "--seed", "5", "--save", str(path)], "advance\n")
    assert result.exit_code == 0, result.output
    assert f"record saved to {path}" in result.stdout
    moves = Record.load(path).moves
    assert moves[0] == ADVANCE and len(moves) >= 2


def test_playing_second_lets_the_ai_open(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = play(["--ai", "greedy", "--seed", "4", "--you", "second", "--save", str(path)], "quit\n")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    status = next(i for i, line in enumerate(lines) if line.startswith("your move:"))
    assert lines[status - 1].startswith("AI ")  # the AI opens: said under the board, above the status
    record = Record.load(path)
    assert record.moves and record.replay().to_move() == 1


def test_load_continues_a_saved_game(tmp_path: Path) -> None:
    first = tmp_path / "first.json"
    play(["--ai", "greedy", "--seed", "3", "--save", str(first)], "buy 1 1\n")
    started = Record.load(first)
    second = tmp_path / "second.json"
    result = play(["--ai", "greedy", "--load", str(first), "--save", str(second)], "advance\n")
    assert result.exit_code == 0, result.output
    continued = Record.load(second)
    assert continued.circle == started.circle
    assert continued.moves[: len(started.moves)] == started.moves
    assert continued.moves[len(started.moves)] == ADVANCE


def test_classic_leather_is_used() -> None:
    path_state = State.new(seed=3, leather="classic")
    result = play(["--ai", "greedy", "--seed", "3", "--leather", "classic"], "quit\n")
    assert result.exit_code == 0
    track = next(line for line in result.stdout.splitlines() if line.startswith("time "))
    assert [i for i, ch in enumerate(track[len("time "):]) if ch == "L"] == list(path_state.printing)


def test_bad_options_are_refused_in_one_line(tmp_path: Path) -> None:
    cases = [
        (["--you", "middle"], "error: --you must be first or second, not 'middle'"),
        (["--ai", "nobody"], "error: unknown bot 'nobody'"),
        (["--leather", "velvet"], "error: unknown leather printing 'velvet'"),
        (["--load", str(tmp_path / "missing.json")], "error: "),
    ]
    for args, message in cases:
        result = play(args, "quit\n")
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output
        assert "Traceback" not in result.output
    result = play(["--level", "9"], "quit\n")
    assert result.exit_code == 2


def test_piped_output_keeps_each_line_whole() -> None:
    """A script's reader gets lines as written: no wrap at 80 columns in the middle of a reason."""
    result = play(["--ai", "greedy", "--seed", "3"], "hint\nbuy 1\nquit\n")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    reasons = [line for line in lines if line.startswith("   ") and "(" in line]
    assert reasons and all(line.count("(") == line.count(")") for line in reasons)
    assert any(len(line) > 80 for line in lines)  # long lines stay long
