"""``patchwork match --p2 engine:CMD``: a match against a second ``patchwork engine`` process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from patchwork_opt.apps.engine.client import EngineError
from patchwork_opt.apps.match import GameTask, MatchSpec, play_game
from patchwork_opt.formats.record import Record

PATCHWORK = Path(sys.executable).parent / "patchwork"
ENGINE = f"engine:{PATCHWORK} engine"
pytestmark = pytest.mark.skipif(not PATCHWORK.exists(), reason="the patchwork script is not installed in this venv")


def test_a_match_against_an_engine_process_reports_pairs_and_elo(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(PATCHWORK), "match", "--p1", "greedy", "--p2", ENGINE, "--games", "2", "--level", "1",
         "--time-per-move", "0.05", "--seed", "3", "--save", str(tmp_path), "--json"],
        capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["p2"] == ENGINE and summary["games"] == 2 and summary["pairs"] == 1
    assert sum(summary["wins"]) == 2 and "elo" in summary
    records = sorted(tmp_path.glob("game-*.json"))
    assert len(records) == 2
    for path in records:
        state = Record.load(path).replay()  # every engine move was legal: the game replays to its end
        assert state.is_terminal()


def test_the_engine_plays_the_match_s_bot_with_its_seed() -> None:
    """With a fixed iteration budget the engine's solver plays exactly the moves of ours."""
    spec = MatchSpec(p1="solver", p2=ENGINE, games=1, seed=5, level=1, iterations=150)
    ours = MatchSpec(p1="solver", p2="solver", games=1, seed=5, level=1, iterations=150)
    through_engine = play_game(GameTask(0, 0, 0, spec))
    in_process = play_game(GameTask(0, 0, 0, ours))
    assert through_engine.record.moves == in_process.record.moves


def test_an_engine_that_cannot_be_found_is_refused_before_any_game() -> None:
    done = subprocess.run(
        [str(PATCHWORK), "match", "--p1", "greedy", "--p2", "engine:/no/such/engine", "--games", "2"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: engine '/no/such/engine': no program '/no/such/engine' to run (not found or not executable)"
    ]


def test_an_empty_engine_command_is_refused_before_any_game() -> None:
    with pytest.raises(Exception, match="the command to start is empty"):
        MatchSpec(p1="engine:", p2="greedy", games=2).check()
    assert issubclass(EngineError, Exception)
