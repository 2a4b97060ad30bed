"""The engine commands as a user runs them: replay, new, show, schema, bench engine."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from patchwork_opt.ai.random_play import random_move
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import Record

runner = CliRunner()


def _random_record(seed: int, plies: int | None = None, leather: str = "revised") -> Record:
    rng = random.Random(seed)
    state = State.new(seed=seed, leather=leather)
    record = Record.start(state)
    while not state.is_terminal() and (plies is None or len(record.moves) < plies):
        move = random_move(state, rng)
        state.apply(move)
        record.moves.append(move)
    return record


def test_replay_json_of_finished_game(tmp_path: Path) -> None:
    record = _random_record(3)
    path = tmp_path / "game.json"
    record.save(path)
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    final = record.replay()
    assert data["over"] is True
    assert data["winner"] == final.winner()
    for p in (0, 1):
        player = data["players"][p]
        assert player["position"] == 53
        assert player["score"] == player["buttons"] + 7 * player["bonus"] - 2 * player["empty"]
        assert player["empty"] == 81 - final.quilts[p].bit_count()


def test_replay_of_unfinished_game_prints_position(tmp_path: Path) -> None:
    path = tmp_path / "half.json"
    _random_record(4, plies=12, leather="classic").save(path)
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["over"] is False and data["winner"] is None
    text = runner.invoke(app, ["replay", str(path)])
    assert text.exit_code == 0 and "Player 1" in text.stdout and "on offer" in text.stdout


def test_replay_illegal_move_names_the_ply(tmp_path: Path) -> None:
    record = _random_record(5, plies=6)
    data = record.to_json()
    # buying a patch that is not among the first three offered
    not_offered = record.replay(upto=3).circle[5]
    data["moves"][3] = {"type": "buy", "patch": not_offered, "cells": [[0, 0]]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert result.stderr.strip().startswith("error: ply 3:")
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1


def test_replay_rejects_moves_the_rules_forbid(tmp_path: Path) -> None:
    state = State.new(seed=9)
    cases = [  # refused by the rules: exit 1; a move that cannot be read is a notation error: exit 2
        ({"type": "leather", "cell": [0, 0]}, "no leather patch", 1),
        ({"type": "buy", "patch": state.offers()[0], "cells": [[0, 0], [5, 5]]}, "not a placement", 1),
        ({"type": "jump"}, "move has the unknown type", 2),
    ]
    for move, reason, code in cases:
        path = tmp_path / "bad.json"
        path.write_text(json.dumps({"circle": state.circle, "moves": [{"type": "advance"}, move]}))
        result = runner.invoke(app, ["replay", str(path)])
        assert result.exit_code == code, move
        assert result.stderr.startswith("error: ply 1:") and reason in result.stderr, result.stderr


def test_replay_rejects_non_records(tmp_path: Path) -> None:
    cases = {
        "notjson.json": "{not json",
        "list.json": "[1, 2, 3]",
        "nocircle.json": json.dumps({"moves": []}),
        "shortcircle.json": json.dumps({"circle": [1, 2, 3], "moves": []}),
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        result = runner.invoke(app, ["replay", str(path)])
        assert result.exit_code in (1, 2), name
        assert result.stderr.startswith("error: "), name
        assert len(result.stderr.strip().splitlines()) == 1, name
    missing = runner.invoke(app, ["replay", str(tmp_path / "absent.json")])
    assert missing.exit_code == 2 and "no such file" in missing.stderr


def test_new_is_seeded_and_what_it_prints_loads_back(tmp_path: Path) -> None:
    first = runner.invoke(app, ["new", "--seed", "12", "--json"])
    second = runner.invoke(app, ["new", "--seed", "12", "--json", "--leather", "classic"])
    assert first.exit_code == 0 and second.exit_code == 0
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    assert a["circle"] == b["circle"] and a["circle"][-1] == 0 and a["moves"] == []
    assert b["leather"] == [20, 26, 32, 44, 50]
    assert Record.from_json(a).replay() == State.new(seed=12)
    path = tmp_path / "new.json"
    path.write_text(second.stdout)  # exactly what was printed
    replayed = json.loads(runner.invoke(app, ["replay", str(path), "--json"]).stdout)
    assert replayed["leather_left"] == [20, 26, 32, 44, 50]
    assert runner.invoke(app, ["show", str(path)]).exit_code == 0
    saved = tmp_path / "saved.json"
    text = runner.invoke(app, ["new", "--seed", "12", "--save", str(saved)])
    assert text.exit_code == 0 and Record.load(saved).circle == a["circle"]
    played = runner.invoke(app, ["play", "--ai", "random", "--load", str(saved)], input="advance\nquit\n")
    assert played.exit_code == 0, played.output
    bad = runner.invoke(app, ["new", "--leather", "deluxe"])
    assert bad.exit_code == 2 and "leather printing" in bad.stderr


def test_show_quilt_record_and_position(tmp_path: Path) -> None:
    quilt = tmp_path / "q.txt"
    quilt.write_text("\n".join(["#########"] * 3 + ["........."] * 6))
    shown = runner.invoke(app, ["show", str(quilt), "--json"])
    assert shown.exit_code == 0
    assert json.loads(shown.stdout)["covered"] == 27
    record = tmp_path / "r.json"
    _random_record(6, plies=10).save(record)
    shown = runner.invoke(app, ["show", str(record), "--json"])
    assert shown.exit_code == 0
    position = json.loads(shown.stdout)["position"]
    again = runner.invoke(app, ["show", position, "--json"])
    assert again.exit_code == 0 and json.loads(again.stdout)["position"] == position


def test_show_malformed_quilt_is_one_line(tmp_path: Path) -> None:
    quilt = tmp_path / "q.txt"
    quilt.write_text("\n".join(["#########"] * 3 + ["......"] + ["........."] * 5))
    result = runner.invoke(app, ["show", str(quilt)])
    assert result.exit_code == 2
    assert "row 3" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_schema_publishes_the_record_format() -> None:
    result = runner.invoke(app, ["schema", "record"])
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert set(schema["required"]) == {"circle"}
    assert {"circle", "moves", "leather"} <= set(schema["properties"])


def test_bench_engine_reports_rates_and_ratios() -> None:
    result = runner.invoke(app, ["bench", "engine", "--seconds", "0.2", "--repeats", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games_per_s"] > 0 and data["naive_games_per_s"] > 0
    assert abs(data["games_ratio"] - data["games_per_s"] / data["naive_games_per_s"]) < 1e-9
    assert data["movegen_ratio"] > 0


def test_a_command_whose_extra_is_missing_says_which_extra_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("uvicorn", "fastapi"):
        monkeypatch.setitem(sys.modules, name, None)  # as if the web extra were not installed
    for name in [m for m in sys.modules if m.startswith("patchwork_opt.apps.web")]:
        monkeypatch.delitem(sys.modules, name)  # imported by an earlier test: imported again, it meets the gap
    result = runner.invoke(app, ["serve", "--port", "8765"])
    assert result.exit_code == 2
    assert result.stderr == "error: this command needs the 'web' extra: pip install -e '.[web]'\n"


def test_serve_passes_its_caps_to_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    from patchwork_opt.apps.web import server
    from patchwork_opt.apps.web.services import Limits

    seen: list[Limits] = []
    monkeypatch.setattr(server, "run_server", lambda services, limits, **options: seen.append(limits))
    result = runner.invoke(app, ["serve", "--max-ai-seconds", "2", "--max-review-seconds", "90",
                                 "--expire-days", "1", "--allow-host", "quilts.example"])
    assert result.exit_code == 0, result.output
    (limits,) = seen
    assert (limits.max_ai_seconds, limits.max_review_seconds, limits.game_idle_seconds) == (2.0, 90.0, 86400.0)
    assert "quilts.example" in limits.allowed_hosts
    bad = runner.invoke(app, ["serve", "--max-review-seconds", "0"])
    assert bad.exit_code == 2 and "--max-review-seconds" in bad.stderr
