"""``patchwork fill``, ``bonus`` and ``bench solvers`` through Typer's CliRunner."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from cli import app

runner = CliRunner()

HOLE = "\n".join(["#########"] * 3 + ["##.....##", "##.....##"] + ["#########"] * 4)


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_fill_json_shape() -> None:
    code, out, _ = run("fill", "--patches", "1,2,5", "--workers", "1", "--json")
    assert code == 0
    data = json.loads(out)
    for key in ("covered", "empty", "optimal", "bound", "placements"):
        assert key in data
    assert data["optimal"] is True and data["covered"] == 12 and data["empty"] == 69
    assert {p["patch"] for p in data["placements"]} == {1, 2, 5}
    for placed in data["placements"]:
        assert all(len(cell) == 2 for cell in placed["cells"])


def test_fill_on_a_quilt_renders_letters(tmp_path: object) -> None:
    code, out, _ = run("fill", "--quilt", HOLE, "--patches", "8,5,0,1", "--workers", "1")
    assert code == 0
    assert "A = patch" in out and "optimal (proven)" in out
    last = out.splitlines()[-1]  # what settled it, in words (docs/cli.md shows this line)
    assert re.fullmatch(r"settled by (the area bounds alone|the packing search|CP-SAT) in \d+\.\d\d s", last), last
    code, out, _ = run("fill", "--quilt", HOLE, "--patches", "8,5,0,1", "--require-bonus", "--json")
    data = json.loads(out)
    assert data["covered"] == 81 and data["bonus_window"] is not None


def test_fill_points_and_budget() -> None:
    code, out, _ = run("fill", "--patches", "3,6,9", "--objective", "points", "--marks", "2", "--budget", "10",
                       "--json")
    assert code == 0
    data = json.loads(out)
    assert data["cost"] <= 10 and data["objective_kind"] == "points"


@pytest.mark.parametrize(
    "args",
    [
        ["fill", "--patches", "1,1"],
        ["fill", "--patches", "1,40"],
        ["fill", "--patches", "a,b"],
        ["fill", "--patches", "1", "--objective", "score"],
        ["fill", "--patches", "1", "--quilt", "##\n.."],
        ["bonus", "########", "--patches", "1"],
        ["bonus", HOLE, "--patches", "2,2"],
        ["bonus", HOLE, "--patches", "77"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str]) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1
    assert "Traceback" not in out + err


def test_bonus_json_shape_feasible_and_infeasible() -> None:
    code, out, _ = run("bonus", HOLE, "--patches", "8,5,0,1", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["feasible"] is True and data["window"] is not None and data["placements"]
    code, out, _ = run("bonus", HOLE, "--patches", "0,1,2", "--json")
    data = json.loads(out)
    assert data["feasible"] is False and data["window"] is None and data["placements"] == []
    code, out, _ = run("bonus", HOLE, "--patches", "0,1,2")
    assert "7x7 square: impossible: " in out


def test_bench_solvers_small_run() -> None:
    code, out, _ = run("bench", "solvers", "--sets", "2", "--max-patches", "5", "--time-limit", "5", "--json")
    assert code == 0
    data = json.loads(out)
    assert len(data["rows"]) == 2 and data["disagreements"] == 0
    assert data["median_ratio"] > 0


def test_a_missing_quilt_file_is_named_as_missing() -> None:
    code, _, err = run("fill", "--quilt", "quilts/no-such-quilt.txt", "--patches", "1")
    assert code == 2 and err == "error: quilts/no-such-quilt.txt: no such file\n"
    code, _, err = run("hint", "no-such-quilt", "--patch", "1")
    assert code == 2 and "no-such-quilt: no such file" in err


def test_an_impossible_requirement_is_an_answer_with_its_reason() -> None:
    # the request: settled at once, not after the time limit, and exit code 0
    code, out, _ = run("fill", "--patches", "1,2,3,4,5,6", "--require-bonus", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["status"] == "infeasible" and data["objective"] is None and data["placements"] == []
    assert data["reason"] == "the patches cover at most 27 cells; every 7x7 square needs at least 49 more"
    code, out, _ = run("fill", "--patches", "0,1,2,3,4,5,6,7,8,9,10", "--budget", "10", "--require-bonus")
    assert code == 0
    lines = out.splitlines()
    assert lines[-2] == (
        "impossible: completing a 7x7 square costs at least 50 buttons; the budget is 10"
    )
    assert re.fullmatch(r"settled by the 7x7 completion in \d+\.\d\d s", lines[-1]), lines[-1]
    code, out, _ = run("fill", "--quilt", HOLE, "--patches", "8,5,0,1", "--budget", "5", "--require-bonus")
    assert code == 0 and "costs at least 6 buttons; the budget is 5" in out


def test_a_feasible_fill_has_an_empty_reason() -> None:
    code, out, _ = run("fill", "--quilt", HOLE, "--patches", "8,5,0,1", "--budget", "6", "--require-bonus", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["status"] == "optimal" and data["reason"] == "" and data["cost"] <= 6 and data["bonus_window"]
