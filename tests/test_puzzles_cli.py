"""``patchwork puzzle new | solve | check`` and the puzzle file format: what a person and a script
see, and one ``error:`` line (exit code 2) for a malformed puzzle file."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli import app
from patchwork_opt.puzzles.bank import shipped_bank
from patchwork_opt.puzzles.kinds import puzzle_from_json
from patchwork_opt.puzzles.kinds.endgame import EndgamePuzzle
from patchwork_opt.puzzles.kinds.fill import FillPuzzle
from patchwork_opt.puzzles.model import PuzzleFormatError, placements_json
from patchwork_opt.puzzles.proof import distinct_moves, move_key

runner = CliRunner()
BANK = shipped_bank()
ENDGAME = next(p for p in BANK.puzzles["endgame"] if isinstance(p, EndgamePuzzle))
FILL = next(p for p in BANK.puzzles["fill"] if isinstance(p, FillPuzzle))


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def saved(tmp_path: Path, data: Any, name: str = "puzzle.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


def losing_move(puzzle: EndgamePuzzle) -> Any:
    state = puzzle.state()
    wins = {move_key(state, m) for m in puzzle.winning}
    return next(m for k, m in distinct_moves(state).items() if k not in wins)


def test_a_puzzle_reads_back_as_written() -> None:
    for puzzle in (ENDGAME, FILL):
        data = puzzle.to_json()
        assert puzzle_from_json(json.loads(json.dumps(data))).to_json() == data
    assert ENDGAME.to_json().keys() >= {"kind", "id", "record", "position", "player", "winning", "refutation",
                                        "difficulty"}
    assert FILL.to_json().keys() >= {"kind", "id", "quilt", "patches", "objective", "best", "optimal", "difficulty"}


def _broken(base: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(base)
    target = data
    for step in path[:-1]:
        target = target[step]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


ENDGAME_BREAKS = [
    (("kind",), "puzzle", "kind: expected 'endgame', 'fill', or 'exercise', got 'puzzle'"),
    (("id",), KeyError, "id is missing"),
    (("player",), 2, "player"),
    (("difficulty",), 6, "difficulty"),
    (("position",), "1 2 3", "position: not the position the record reaches"),
    (("winning",), [], "winning"),
    (("winning", 0), {"type": "leather", "cell": [0, 0]}, "winning[0]: no leather patch is waiting"),
    (("refutation", "line", 0), {"type": "advance"}, "refutation.line: must start with the refutation's move"),
    (("record", "moves", 0), {"type": "jump"}, "record"),
]


@pytest.mark.parametrize(("path", "value", "says"), ENDGAME_BREAKS, ids=[str(b[0]) for b in ENDGAME_BREAKS])
def test_a_malformed_endgame_names_the_field(path: tuple[Any, ...], value: Any, says: str) -> None:
    data = _broken(ENDGAME.to_json(), path, value)
    if path == ("refutation", "line", 0) and ENDGAME.refutation.kind == "advance":  # another move, then
        other = next(m for m in distinct_moves(ENDGAME.state()).values() if m != ENDGAME.refutation)
        data["refutation"]["line"][0] = other.to_json()
    with pytest.raises(PuzzleFormatError) as caught:
        puzzle_from_json(data)
    assert says.lower() in str(caught.value).lower() and "\n" not in str(caught.value)


FILL_BREAKS = [
    (("best", "value"), 999, "best.value: the placements reach"),
    (("patches",), [0, 0], "patches"),
    (("optimal",), False, "optimal"),
    (("best", "placements", 0, "cells"), [[0, 0]], "best.placements[0]"),
    (("objective",), "area", "objective"),
]


@pytest.mark.parametrize(("path", "value", "says"), FILL_BREAKS, ids=[str(b[0]) for b in FILL_BREAKS])
def test_a_malformed_fill_names_the_field(path: tuple[Any, ...], value: Any, says: str) -> None:
    with pytest.raises(PuzzleFormatError) as caught:
        puzzle_from_json(_broken(FILL.to_json(), path, value))
    assert says.lower() in str(caught.value).lower()


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", json.dumps({"kind": "fill"})])
def test_a_malformed_puzzle_file_is_one_error_line_exit_2(tmp_path: Path, text: str) -> None:
    path = saved(tmp_path, text)
    for args in (("puzzle", "solve", path), ("puzzle", "check", path, "--move", '{"type": "advance"}')):
        code, out, err = run(*args)
        assert code == 2 and out == "" and err.startswith(f"error: {path}: ") and err.count("\n") == 1, err
    code, _, err = run("puzzle", "check", str(tmp_path / "missing.json"), "--move", "{}")
    assert code == 2 and "no such file" in err


def test_check_a_winning_and_a_losing_move_for_scripts(tmp_path: Path) -> None:
    path = saved(tmp_path, ENDGAME.to_json())
    code, out, _ = run("puzzle", "check", path, "--move", json.dumps(ENDGAME.winning[0].to_json()), "--json")
    verdict = json.loads(out)
    assert code == 0 and verdict["correct"] is True and verdict["margin"] >= 0
    assert verdict["line"][0] == ENDGAME.winning[0].to_json()
    code, out, _ = run("puzzle", "check", path, "--move", json.dumps(losing_move(ENDGAME).to_json()), "--json")
    verdict = json.loads(out)
    assert code == 0 and verdict["correct"] is False and verdict["margin"] <= 0 and len(verdict["line"]) >= 1
    code, out, _ = run("puzzle", "check", path, "--move", json.dumps(ENDGAME.refutation.to_json()))
    assert code == 0 and out.startswith("wrong: best play refutes it")


def test_check_bad_answers(tmp_path: Path) -> None:
    endgame, fill = saved(tmp_path, ENDGAME.to_json(), "e.json"), saved(tmp_path, FILL.to_json(), "f.json")
    code, _, err = run("puzzle", "check", endgame, "--move", '{"type": "leather", "cell": [0, 0]}')
    assert code == 1 and err == "error: no leather patch is waiting to be placed\n"
    code, _, err = run("puzzle", "check", endgame, "--move", "{oops")
    assert code == 2 and err.startswith("error: --move: not JSON")
    code, _, err = run("puzzle", "check", endgame, "--placements", "[]")
    assert code == 2 and "answered with --move" in err
    code, _, err = run("puzzle", "check", fill, "--placements", json.dumps(placements_json(FILL.best[:1]) * 2))
    assert code == 1 and "used twice" in err


def test_check_a_fill(tmp_path: Path) -> None:
    path = saved(tmp_path, FILL.to_json())
    code, out, _ = run("puzzle", "check", path, "--placements", json.dumps(placements_json(FILL.best)), "--json")
    verdict = json.loads(out)
    assert code == 0 and verdict["correct"] and verdict["margin"] == 0 and verdict["value"] == FILL.best_value
    code, out, _ = run("puzzle", "check", path, "--placements", "[]", "--json")
    verdict = json.loads(out)
    assert not verdict["correct"] and verdict["margin"] == -FILL.best_value
    assert verdict["line"] == placements_json(FILL.best)


def test_solve_an_endgame_typed_as_in_play(tmp_path: Path) -> None:
    path = saved(tmp_path, ENDGAME.to_json())
    move = ENDGAME.winning[0]
    typed = "advance" if move.kind == "advance" else str(move)
    code, out, _ = run("puzzle", "solve", path, stdin=f"hint\nundo\n{typed}\n")
    assert code == 0, out
    assert "find a winning move" in out and "a puzzle has no hints, undo or save" in out
    assert "correct: you win" in out and " 1. you: " in out
    code, out, _ = run("puzzle", "solve", path, stdin=f"{losing_move(ENDGAME)}\n")
    assert code == 0 and "wrong: best play refutes it" in out and "final score" in out


def test_solve_a_fill_one_patch_at_a_time(tmp_path: Path) -> None:
    path = saved(tmp_path, FILL.to_json())
    cells = [",".join(f"{r}{c}" for r, c in p["cells"]) for p in placements_json(FILL.best)]
    lines = [f"{pid} {where}" for (pid, _), where in zip(FILL.best, cells, strict=True)]
    code, out, _ = run("puzzle", "solve", path, stdin="\n".join(["99 00,01", "undo", *lines, "done"]) + "\n")
    assert code == 0 and "error: #99 is not one of the puzzle's patches" in out
    assert "error: nothing to undo" in out and f"correct: {FILL.best_value}" in out and "the optimum" in out


def test_new_puzzle_of_a_theme(tmp_path: Path) -> None:
    code, out, _ = run("puzzle", "new", "--kind", "fill", "--theme", "7x7", "--seed", "3", "--json")
    data = json.loads(out)
    assert code == 0 and "7x7" in data["themes"] and data["require_bonus"] is True
    code, out, err = run("puzzle", "new", "--kind", "endgame", "--theme", "zugzwang")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("error: an endgame theme is 7x7-race, leather, income-timing")
    code, out, err = run("puzzle", "new", "--kind", "fill", "--theme", "leather")
    assert code == 2 and out == "" and err.startswith("error: a fill theme is budget, 7x7, or points")


def test_new_fill_puzzle_from_a_seed(tmp_path: Path) -> None:
    code, out, _ = run("puzzle", "new", "--kind", "fill", "--seed", "7", "--save", str(tmp_path / "p.json"), "--json")
    data = json.loads(out)
    assert code == 0 and data["kind"] == "fill" and data["optimal"] is True
    assert json.loads((tmp_path / "p.json").read_text()) == data
    assert isinstance(puzzle_from_json(data), FillPuzzle)
    code, again, _ = run("puzzle", "new", "--kind", "fill", "--seed", "7", "--json")
    assert again == out  # the same seed, the same puzzle
    code, _, err = run("puzzle", "new", "--kind", "chess")
    assert code == 2 and err.startswith("error: kind must be endgame or fill")  # no seed drawn first
    code, _, err = run("puzzle", "new", "--kind", "fill", "--variant", "squares")
    assert code == 2 and err.startswith("error: variant must be cells, points, or bonus")
