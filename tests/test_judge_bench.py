"""``patchwork bench judge``: a match reviewed as ``analyze`` reviews it, each side's accuracy and
mistakes, and the judge's promises checked on every review (and caught when broken)."""

from __future__ import annotations

import json
from dataclasses import replace

from conftest import random_record
from typer.testing import CliRunner

from cli import app
from patchwork_opt.apps.review import review_game
from patchwork_opt.bench.judge import violations

runner = CliRunner()


def test_bench_judge_reports_each_side_and_finds_no_broken_promise() -> None:
    result = runner.invoke(app, ["bench", "judge", "--games", "2", "--seed", "3", "--level", "1",
                                 "--review-seconds", "0.05", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 2 and (data["p1"], data["p2"]) == ("random", "solver")
    assert data["violations"] == {"chain": 0, "better": 0, "label": 0, "milder": 0}
    for game in data["per_game"]:
        assert all(0.0 <= a <= 100.0 for a in game["accuracy"]) and len(game["mistakes_blunders"]) == 2
    assert data["accuracy_gap"]["min"] <= data["accuracy_gap"]["mean"]


def test_the_checks_catch_a_review_that_breaks_its_promises() -> None:
    record = random_record(4)
    record.moves = record.moves[:8]
    review = review_game(record, iterations=100, with_deal=False)
    assert violations(review) == {"chain": 0, "better": 0, "label": 0, "milder": 0}
    plies = list(review.plies)
    plies[2] = replace(plies[2], win_before=plies[2].win_before + 0.3)  # breaks the chain on both sides of ply 2
    plies[3] = replace(plies[3], loss=0.25, points_lost=9.0, label="good")  # a blunder called good
    plies[4] = replace(plies[4], win_after=plies[4].win_before + 0.1)  # shown better than the best
    plies[5] = replace(plies[5], loss=0.06, points_lost=2.5, label="inaccuracy")  # milder figures, a worse label
    broken = violations(replace(review, plies=plies))
    assert broken["chain"] >= 1 and broken["label"] >= 1 and broken["better"] >= 1 and broken["milder"] >= 1
