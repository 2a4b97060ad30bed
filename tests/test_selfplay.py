"""Self-play data: records and position rows that agree with replaying the games, on any backend."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from cli import app
from patchwork_opt.ai.learned.dataset import read_positions
from patchwork_opt.ai.learned.features import features
from patchwork_opt.ai.search.fastcore import encode
from patchwork_opt.apps.match import MatchSpec, run_match
from patchwork_opt.apps.selfplay import SelfPlayGame, run_selfplay, selfplay_spec
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import Record

runner = CliRunner()


def test_selfplay_rows_agree_with_replaying_the_records(tmp_path: Path) -> None:
    spec = selfplay_spec(games=4, seed=7, time_per_move=None, iterations=40, advisor_factory=None)
    out = tmp_path / "out"
    report = run_selfplay(spec, out, random_openings=3)
    records = sorted((out / "records").glob("game-s7-*.json"))
    assert report.games == 4 and len(records) == 4 and report.shards == ["positions-s7-0001.npz"]
    game = SelfPlayGame(3)
    with np.load(out / report.shards[0]) as data:
        assert len(data["margin"]) == report.positions
        assert int(data["format"]) == 1
        assert json.loads(str(data["run"])) == {"advisor": None, "bot": "solver", "iterations": 40,
                                                "random_openings": 3, "time_per_move": None}
        for index, path in enumerate(records):
            record = Record.load(path)
            assert record.players == ["solver(heuristic)", "solver(heuristic)"]
            rows = np.flatnonzero(data["game"] == index)
            assert len(rows) == len(record.moves)
            assert State.new(seed=int(data["circle_seed"][rows[0]])).circle == record.circle
            opening = game.openings(7, index)
            assert (data["opening"][rows] == opening).all()
            np.testing.assert_array_equal(data["random_move"][rows], np.arange(len(rows)) < opening)
            final = record.replay()
            state = record.initial_state()
            for ply, (row, move) in enumerate(zip(rows, record.moves, strict=True)):
                p = state.to_move()
                assert data["ply"][row] == ply and data["player"][row] == p
                np.testing.assert_array_equal(data["positions"][row], encode(state))
                np.testing.assert_allclose(data["features"][row], features(encode(state)).astype(np.float32))
                assert data["margin"][row] == final.score(p) - final.score(1 - p)
                assert data["won"][row] == (final.winner() == p)
                state.apply(move)
    assert len({tuple(Record.load(p).circle) for p in records}) == 4  # a circle for each game
    positions = read_positions(out)
    assert positions.games == 4 and len(positions.margin) == report.positions


def test_random_openings_stay_within_the_bound_and_differ_between_games() -> None:
    game = SelfPlayGame(4)
    counts = [game.openings(1, i) for i in range(40)]
    assert min(counts) == 0 and max(counts) == 4 and len(set(counts)) == 5
    assert SelfPlayGame(0).openings(1, 3) == 0
    assert game.circle_seed(1, 0) != SelfPlayGame(4, namespace="calibration").circle_seed(1, 0)


def test_the_game_callable_plays_the_same_games_in_worker_processes() -> None:
    spec = MatchSpec(p1="greedy", p2="random", games=4, seed=3)
    game = SelfPlayGame(2)
    alone = [r.record.moves for r in run_match(spec, game=game)]
    assert alone == [r.record.moves for r in run_match(spec, workers=2, game=game)]


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed")
def test_the_game_callable_plays_the_same_games_on_ray() -> None:
    import ray

    spec = MatchSpec(p1="greedy", p2="random", games=4, seed=3)
    game = SelfPlayGame(2)
    try:
        on_ray = [r.record.moves for r in run_match(spec, workers=2, backend="ray", game=game)]
    finally:
        ray.shutdown()
    assert on_ray == [r.record.moves for r in run_match(spec, game=game)]


def test_selfplay_command_json_and_a_second_run_of_one_seed_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "data"
    args = ["selfplay", "--out", str(out), "--games", "2", "--iterations", "30", "--seed", "4"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 2 and data["positions"] > 40 and data["games_per_hour"] > 0
    assert "positions-s4-0001.npz written" in result.stderr
    again = runner.invoke(app, args)
    assert again.exit_code == 2 and again.stderr.startswith("error: ")
    assert "already holds self-play games of seed 4" in again.stderr
    assert len(list((out / "records").iterdir())) == 2


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--games", "0"], "--games must be at least 1"),
        (["--time-per-move", "0.1", "--iterations", "10"], "not both"),
        (["--random-openings", "-1"], "--random-openings must be at least 0"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--backend", "mpi"], "unknown backend"),
    ],
)
def test_selfplay_refuses_bad_requests_before_writing(tmp_path: Path, extra: list[str], words: str) -> None:
    out = tmp_path / "data"
    result = runner.invoke(app, ["selfplay", "--out", str(out), "--iterations", "10", *extra]
                           if "--iterations" not in extra else ["selfplay", "--out", str(out), *extra])
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], result.output
    assert not out.exists()


def test_selfplay_refuses_an_out_path_that_is_a_file(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("keep me")
    result = runner.invoke(app, ["selfplay", "--out", str(target), "--games", "1", "--iterations", "10"])
    assert result.exit_code == 2 and result.stderr.startswith("error: ") and "is not a directory" in result.stderr
    assert target.read_text() == "keep me"


def test_selfplay_error_found_while_playing_is_the_first_line_on_stderr(tmp_path: Path) -> None:
    # The out directory is checked inside the progress bars: their teardown must not print first.
    blocker = tmp_path / "file"
    blocker.write_text("keep me")
    result = runner.invoke(app, ["selfplay", "--out", str(blocker / "sub"), "--games", "1", "--iterations", "10"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --out ") and "cannot create it" in result.stderr, repr(result.stderr)
    assert blocker.read_text() == "keep me"
