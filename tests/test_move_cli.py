"""``patchwork move``: the AI's move for a record or a position, as one JSON object."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import make_state
from test_ai_exact import leather_position, tie_break_position
from typer.testing import CliRunner

from cli import app
from patchwork_opt.ai.random_play import playout
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import to_notation

runner = CliRunner()


def _answer(args: list[str]) -> dict[str, object]:
    result = runner.invoke(app, ["move", *args, "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"move", "reason", "win", "margin", "exact"}
    return data


def test_move_for_a_record_is_a_legal_move_in_json(tmp_path: Path) -> None:
    new = runner.invoke(app, ["new", "--seed", "4", "--json"])
    path = tmp_path / "game.json"
    path.write_text(new.stdout)
    data = _answer([str(path), "--ai", "mcts", "--time-per-move", "0.05", "--seed", "1"])
    state = State.new(json.loads(new.stdout)["circle"])
    state.check(Move.from_json(data["move"]))
    assert isinstance(data["reason"], str) and data["reason"]
    assert isinstance(data["win"], float) and 0.0 <= data["win"] <= 1.0
    assert data["exact"] is False


def test_move_of_a_won_endgame_is_exact() -> None:
    state = tie_break_position()
    data = _answer([to_notation(state), "--ai", "solver", "--time-per-move", "0.5", "--seed", "1"])
    move = Move.from_json(data["move"])
    assert move.kind == "buy" and move.patch == 26
    assert data["exact"] is True and data["win"] == 1.0 and data["margin"] == 0.0


def test_move_places_a_pending_leather_patch() -> None:
    data = _answer([to_notation(leather_position()), "--ai", "solver", "--time-per-move", "0.3"])
    assert data["move"] == {"type": "leather", "cell": [3, 3]}


def test_greedy_answers_without_figures() -> None:
    data = _answer([to_notation(State.new(seed=2)), "--ai", "greedy"])
    assert data["win"] is None and data["margin"] is None and data["exact"] is False


@pytest.mark.parametrize("args", [
    ["not a position at all"],
    ["absent-file.json"],
    [to_notation(State.new(seed=1)), "--ai", "nobody"],
])
def test_bad_input_is_one_error_line_and_exit_2(args: list[str]) -> None:
    result = runner.invoke(app, ["move", *args, "--json"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ")
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


def _finished() -> State:
    state = State.new(seed=1)
    playout(state, random.Random(1))
    return state


@pytest.mark.parametrize("ai", ["solver", "greedy"])
def test_a_finished_game_is_one_error_line_and_exit_1(ai: str) -> None:
    result = runner.invoke(app, ["move", to_notation(_finished()), "--ai", ai, "--json"])
    assert result.exit_code == 1  # GameOverError: a well-formed request the rules have no move for
    assert result.stderr == "error: the game is over: there is no move to choose\n"
    assert result.stdout == ""


def test_the_only_move_is_played_without_figures() -> None:
    """No offer is affordable: the solver advances at once and claims no win chance or margin."""
    state = make_state([6, 19, 32, 9], pos=(10, 12), buttons=(0, 0), track_leather=False)
    assert state.buyable() == []
    data = _answer([to_notation(state), "--ai", "solver", "--time-per-move", "0.2"])
    assert data["move"] == {"type": "advance"} and "only move" in str(data["reason"])
    assert data["win"] is None and data["margin"] is None and data["exact"] is False
