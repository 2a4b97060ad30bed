"""Advice and review backed by the AI: `hint POSITION`, `analyze RECORD` and the analysis behind them."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path

import pytest
from conftest import random_record
from typer.testing import CliRunner

from cli import app
from patchwork_opt.ai.analysis.position import analyse_position, move_key
from patchwork_opt.ai.analysis.run import run_analysis
from patchwork_opt.ai.base import Bot
from patchwork_opt.ai.bots.random_bot import RandomBot
from patchwork_opt.ai.bots.registry import BOT_NAMES, make_bot
from patchwork_opt.ai.bots.solver_bot import SolverBot
from patchwork_opt.ai.random_play import playout, random_move
from patchwork_opt.ai.search.exact import ExactSearch
from patchwork_opt.apps.review import review_game
from patchwork_opt.core.bitboard import FULL
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.errors import GameOverError, IllegalMoveError
from patchwork_opt.core.move import ADVANCE
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.notation import from_notation, to_notation
from patchwork_opt.formats.record import Record

runner = CliRunner()

_BLOCK = sum(1 << (r * 9 + c) for r in range(4) for c in range(5))
_P2_EMPTY = sum(1 << (8 * 9 + c) for c in range(9)) | sum(1 << (7 * 9 + c) for c in range(4))
#: Player 1 at 51 with a 4x5 hole, Player 2 at 53 (first there, 7x7 bonus) 12 points ahead: buying
#: #22 (+13) wins, #24 (+12) ties and loses on the tie-break, #26 and advancing lose.
ONE_WINNER = (
    f"22,24,26,0,1 51/10/0/{FULL & ~_BLOCK:021x} 53/1/0/{FULL & ~_P2_EMPTY:021x} 1 - 1 - 1 26,32,38,44,50"
)


def test_candidates_on_an_empty_quilt_are_distinct_up_to_symmetry() -> None:
    state = State.new(seed=3)
    analysis = analyse_position(state, iterations=2000)
    keys = [move_key(analysis.quilt, m.move) for m in analysis.moves]
    assert len(keys) == len(set(keys))
    assert sum(m.move.kind == "advance" for m in analysis.moves) == 1
    for m in analysis.moves:
        assert 0.0 <= m.win <= 1.0 and m.line[0] == m.move
    patches = [m.move.patch for m in analysis.moves if m.move.kind == "buy"]
    assert max(patches.count(p) for p in set(patches)) >= 2  # several distinct placements of a patch


def test_the_one_winning_move_is_the_top_hint() -> None:
    state = from_notation(ONE_WINNER)
    solved = ExactSearch().solve(state, every_move=True)
    assert solved is not None
    assert [m.move.patch for m in solved.moves if m.win == 1.0] == [22]  # the position is as described
    result = runner.invoke(app, ["hint", ONE_WINNER, "--json", "--time-limit", "0.5"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    top, *rest = data["hints"]
    assert top["type"] == "buy" and top["patch"] == 22 and top["win"] == 1.0 and top["exact"]
    assert all(h["win"] == 0.0 and h["exact"] for h in rest) and rest


def test_top_hint_wins_whenever_a_win_exists_in_late_endgames() -> None:
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = State.new(seed=seed)
        while not state.is_terminal() and (min(state.pos) < 49 or state.pending >= 0):
            state.apply(random_move(state, rng))
        if state.is_terminal():
            continue
        exact = ExactSearch(node_limit=300_000).solve(state)
        if exact is None:
            continue
        top = analyse_position(state, deadline=Deadline.after(2.0)).best
        child = state.clone()
        child.apply(top.move)
        assert (ExactSearch().value(child, state.to_move()) > 0) == (exact.best.win == 1.0), seed
        checked += 1
        if checked == 4:
            break
    assert checked >= 2


def test_hint_json_shape_and_plain_words() -> None:
    text = runner.invoke(app, ["hint", ONE_WINNER, "--top", "2", "--time-limit", "0.3"])
    assert text.exit_code == 0 and "buy #22 at" in text.stdout and "you win by 2 points with best play" in text.stdout
    count = int(text.stdout.split(" to move: ")[1].split()[0])
    assert f"to move: {count} suggestion{'s' if count != 1 else ''}, best first" in text.stdout
    result = runner.invoke(app, ["hint", to_notation(State.new(seed=5)), "--json", "--time-limit", "0.3", "--top", "4"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["player"] == 0 and 1 <= len(data["hints"]) <= 4
    for hint in data["hints"]:
        assert {"type", "patch", "cells", "score", "win", "margin", "exact", "reason"} <= hint.keys()
        assert hint["type"] in ("advance", "buy", "leather") and 0.0 <= hint["win"] <= 1.0
        assert (hint["cells"] == []) == (hint["type"] == "advance")
        assert "you win about" in hint["reason"]
    wins = [h["score"] for h in data["hints"]]
    assert wins == sorted(wins, reverse=True)


def test_analyze_json_shape_chart_and_names(tmp_path: Path) -> None:
    record = random_record(7)
    record.players = ["Ann", "Bob"]
    path = tmp_path / "game.json"
    record.save(path)
    chart = tmp_path / "win"
    result = runner.invoke(app, ["analyze", str(path), "--time-per-move", "0.03", "--json", "--chart", str(chart)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["plies"]) == len(record.moves)
    for i, ply in enumerate(data["plies"]):
        assert ply["ply"] == i and ply["player"] in (0, 1) and ply["loss"] >= 0
        assert ply["label"] in ("best", "good", "inaccuracy", "mistake", "blunder")
        assert ply["played"] == record.moves[i].to_json() and "type" in ply["best"]
        assert 0 <= ply["win_after"] <= 1 and 0 <= ply["win_before"] <= 1 and isinstance(ply["exact"], bool)
    assert [p["name"] for p in data["players"]] == ["Ann", "Bob"]
    for p in data["players"]:
        assert 0 <= p["accuracy"] <= 100 and {"inaccuracies", "mistakes", "blunders"} <= p.keys()
    svg = (tmp_path / "win.svg").read_text()
    assert svg.startswith("<svg") and "polyline" in svg
    assert Record.load(path).players == ["Ann", "Bob"]  # the optional field round-trips


def test_analyze_refuses_bad_records_with_one_line(tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text('{"circle": [1, 2], "moves": ')
    empty = tmp_path / "empty.json"
    Record.start(State.new(seed=1)).save(empty)
    png = tmp_path / "game.json"
    random_record(3).save(png)
    for args in (
        ["analyze", str(corrupt)],
        ["analyze", str(tmp_path / "missing.json")],
        ["analyze", str(empty)],
        ["analyze", str(png), "--time-per-move", "0"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, result.output)


def test_review_finds_the_random_player_weaker() -> None:
    state = State.new(seed=11)
    record = Record.start(state)
    bots: list[Bot] = [SolverBot(None, seed=1, iterations=400), RandomBot(2)]
    while not state.is_terminal():
        move = bots[state.to_move()].decide(state).move
        state.apply(move)
        record.moves.append(move)
    review = review_game(record, iterations=1500, seed=0)
    solver, rand = review.players
    assert rand.accuracy < solver.accuracy
    assert rand.mistakes + rand.blunders > solver.mistakes + solver.blunders


def test_a_stop_signal_ends_the_analysis_early() -> None:
    """What the web service does when the client who asked for a hint has gone."""
    state = State.new(seed=3)
    analyse_position(state, iterations=50)  # load the compiled search before timing
    stop = StopSignal()
    threading.Timer(0.3, stop.set).start()
    started = time.perf_counter()
    found = analyse_position(state, deadline=Deadline.after(20.0), stop=stop)
    assert time.perf_counter() - started < 3.0  # not the 20 s asked for
    assert found.moves


def test_every_refusal_of_a_finished_game_is_the_one_game_over_error() -> None:
    state = State.new(seed=1)
    playout(state, random.Random(1))
    for name in BOT_NAMES:
        with pytest.raises(GameOverError, match="the game is over"):
            make_bot(name, seed=1, iterations=20).decide(state)
    with pytest.raises(GameOverError):
        analyse_position(state, iterations=20)
    with pytest.raises(GameOverError):
        run_analysis(state, iterations=20)
    with pytest.raises(GameOverError, match=r"^the game is over$"):
        state.apply(ADVANCE)
    assert GameOverError().exit_code == 1 and isinstance(GameOverError(), IllegalMoveError)
