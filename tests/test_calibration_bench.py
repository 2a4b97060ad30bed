"""How win chances are judged (``ai/learned/forecast.py``) and ``patchwork bench calibration`` end to end."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from cli import app
from patchwork_opt.ai.learned.forecast import brier, calibration_slope, ece, forecast_report, log_loss
from patchwork_opt.apps.match import GameResult
from patchwork_opt.bench.calibration import ReviewedGame, summarize_calibration
from patchwork_opt.formats.record import Record

runner = CliRunner()


def test_a_coin_scores_what_the_textbook_says() -> None:
    y = np.array([0.0, 1.0] * 50)
    p = np.full(100, 0.5)
    assert log_loss(p, y) == pytest.approx(math.log(2))
    assert brier(p, y) == pytest.approx(0.25)
    assert ece(p, y) == pytest.approx(0.0)
    assert math.isnan(calibration_slope(np.full(4, 0.3), np.ones(4))[0])  # one outcome: no slope
    # every win predicted above every loss: the refit's slope has no finite best
    assert math.isnan(calibration_slope(np.array([0.2, 0.3, 0.7, 0.8]), np.array([0, 0, 1, 1]))[0])
    assert forecast_report(np.array([0.2, 0.3, 0.7, 0.8]), np.array([1, 0, 1, 1]))["calibration_slope"] is not None


def test_the_calibration_slope_recovers_overconfidence() -> None:
    rng = np.random.default_rng(0)
    truth = rng.uniform(-3, 3, 20000)  # the real logit of each outcome
    y = (rng.random(20000) < 1 / (1 + np.exp(-truth))).astype(float)
    for factor in (0.5, 1.0, 2.0):  # predictions twice too sure, calibrated, twice too timid
        shown = 1 / (1 + np.exp(-truth / factor))
        slope, intercept = calibration_slope(shown, y)
        assert slope == pytest.approx(factor, rel=0.06) and abs(intercept) < 0.05
    calibrated = 1 / (1 + np.exp(-truth))
    assert ece(calibrated, y) < 0.02 < ece(1 / (1 + np.exp(-2 * truth)), y)


def test_the_summary_counts_flags_per_player_per_game_and_leaves_exact_plies_out() -> None:
    record = Record(circle=list(range(33)))
    plies = ((0.8, 0, False, "best", 0.0, "advance", 0.9), (0.3, 1, False, "mistake", 7.0, "advance", 0.2),
             (0.9, 0, False, "blunder", 13.0, "advance", 0.95), (1.0, 1, True, "best", 0.0, "advance", None))
    games = [ReviewedGame(index=i, pair=i, p1_seat=0, scores=(10, 5), p1_won=True, record=record, seconds=1.0,
                          plies=plies) for i in range(2)]
    results: list[GameResult] = list(games)
    result = summarize_calibration(results, seed=0, time_per_move=0.1, seconds=2.0)
    assert result["predictions"] == 6 and result["exact_plies"] == 2
    assert result["mistakes_blunders_per_player_game"] == 1.0  # 4 flags, 2 games, 2 players
    expected = forecast_report(np.array([0.8, 0.3, 0.9] * 2), np.array([1.0, 0.0, 1.0] * 2))
    assert result["log_loss"] == expected["log_loss"]
    assert result["labels"] == {"best": 4, "good": 0, "inaccuracy": 0, "mistake": 2, "blunder": 2}


def test_bench_calibration_command_end_to_end() -> None:
    result = runner.invoke(app, ["bench", "calibration", "--games", "2", "--time-per-move", "0.02", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 2 and data["predictions"] > 20
    for key in ("log_loss", "brier", "ece", "calibration_slope", "mistakes_blunders_per_player_game"):
        assert key in data
    assert 0 <= data["ece"] <= 1 and 0 <= data["brier"] <= 1
    for args in (["--time-per-move", "0"], ["--games", "0"], ["--workers", "0"]):
        bad = runner.invoke(app, ["bench", "calibration", *args])
        assert bad.exit_code == 2 and bad.stderr.startswith("error: ") and len(bad.stderr.splitlines()) == 1
