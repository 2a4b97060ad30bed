"""Matches: pairing, records, and the summary's arithmetic checked independently."""

from __future__ import annotations

import importlib.util
import json
import math
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from patchwork_opt.apps import match as match_module
from patchwork_opt.apps.match import (
    MIN_PAIRS_FOR_INTERVALS,
    MatchError,
    MatchSpec,
    elo_ci,
    render_summary,
    run_match,
    save_records,
    summarize,
)
from patchwork_opt.formats.record import Record

runner = CliRunner()
TINY = MatchSpec(p1="greedy", p2="random", games=6, seed=5)


def test_games_come_in_pairs_on_one_circle_with_seats_swapped() -> None:
    results = run_match(TINY)
    assert [r.index for r in results] == list(range(6))
    for first, second in zip(results[::2], results[1::2], strict=True):
        assert first.record.circle == second.record.circle
        assert (first.p1_seat, second.p1_seat) == (0, 1)
    assert results[0].record.circle != results[2].record.circle


def test_scores_and_winners_agree_with_replaying_the_records() -> None:
    for r in run_match(TINY):
        final = r.record.replay()
        assert final.is_terminal()
        assert r.scores == (final.score(r.p1_seat), final.score(1 - r.p1_seat))
        assert r.p1_won == (final.winner() == r.p1_seat)


def test_summary_arithmetic_on_a_seeded_match() -> None:
    spec = MatchSpec(p1="greedy", p2="random", games=MIN_PAIRS_FOR_INTERVALS * 2, seed=5)
    results = run_match(spec)
    n = len(results)
    summary = summarize(spec, results)
    p1_scores = [r.scores[0] for r in results]
    p2_scores = [r.scores[1] for r in results]
    wins = sum(r.p1_won for r in results)
    assert summary.games == n and summary.pairs == n // 2
    assert summary.wins == (wins, n - wins)
    assert summary.mean_score[0] == pytest.approx(sum(p1_scores) / n)
    assert summary.mean_score[1] == pytest.approx(sum(p2_scores) / n)
    diffs = [a - b for a, b in zip(p1_scores, p2_scores, strict=True)]
    assert summary.score_diff == pytest.approx(sum(diffs) / n)
    # the interval is over the pair means: mean +- 1.96 * sd / sqrt(pairs)
    pair_means = [(diffs[i] + diffs[i + 1]) / 2 for i in range(0, n, 2)]
    half = 1.959964 * statistics.stdev(pair_means) / math.sqrt(n // 2)
    assert summary.score_diff_ci95 is not None
    lo, hi = summary.score_diff_ci95
    assert (lo, hi) == (pytest.approx(sum(diffs) / n - half, abs=1e-4), pytest.approx(sum(diffs) / n + half, abs=1e-4))
    data = summary.to_json()
    assert data["wins"] == [wins, n - wins]
    assert set(data) >= {"games", "wins", "mean_score", "score_diff", "elo"}
    assert set(data["score_diff"]) == {"mean", "ci95"} and set(data["elo"]) >= {"diff", "ci95"}


def test_too_few_pairs_give_no_interval_and_say_so() -> None:
    summary = summarize(TINY, run_match(TINY))  # 3 pairs
    data = summary.to_json()
    assert data["score_diff"]["ci95"] is None and data["elo"]["ci95"] is None
    assert data["mean_score_ci95"] == [None, None]
    text = render_summary(summary)
    assert "6 games in 3 pairs" in text and "95% CI" not in text
    assert "too few games for 95% intervals: 3 pairs played, intervals from 10 pairs (20 games) on" in text
    one = MatchSpec(p1="greedy", p2="random", games=2, seed=5)
    assert "2 games in 1 pair," in render_summary(summarize(one, run_match(one)))


def test_same_seed_same_match() -> None:
    a = [r.record.moves for r in run_match(TINY)]
    b = [r.record.moves for r in run_match(TINY)]
    assert a == b


def test_elo_from_a_win_share() -> None:
    diff, (lo, hi), clamped = elo_ci(15, 20)  # p = 3/4: 400 log10(3)
    assert diff == pytest.approx(400 * math.log10(3))
    assert lo is not None and hi is not None and lo < diff < hi and not clamped
    even, (elo_lo, elo_hi), _ = elo_ci(10, 20)
    assert elo_hi is not None and even == pytest.approx(0.0) and elo_lo == pytest.approx(-elo_hi)
    sweep, (s_lo, s_hi), clamped = elo_ci(20, 20)
    assert clamped and sweep == pytest.approx(400 * math.log10(39))  # p clamped to 39/40
    assert s_lo is not None and 0 < s_lo < sweep and s_hi is None  # no upper bound after a sweep
    swept, (z_lo, z_hi), clamped = elo_ci(0, 20)
    assert clamped and z_lo is None and z_hi is not None and swept < z_hi < 0


def test_saved_records_replay(tmp_path: Path) -> None:
    results = run_match(TINY)
    paths = save_records(results, tmp_path, TINY)
    assert len(paths) == 6
    for path, r in zip(paths, results, strict=True):
        final = Record.load(path).replay()
        assert (final.score(r.p1_seat), final.score(1 - r.p1_seat)) == r.scores
    out = runner.invoke(app, ["replay", str(paths[0]), "--json"])
    assert out.exit_code == 0, out.output


def test_parallel_workers_play_the_same_games() -> None:
    spec = MatchSpec(p1="greedy", p2="greedy", games=4, seed=2)
    serial = [r.record.moves for r in run_match(spec)]
    parallel = [r.record.moves for r in run_match(spec, workers=2)]
    assert serial == parallel


def test_bad_match_requests_are_refused() -> None:
    with pytest.raises(MatchError):
        run_match(MatchSpec(p1="greedy", p2="random", games=0))
    with pytest.raises(MatchError):
        run_match(TINY, workers=0)
    with pytest.raises(MatchError):
        run_match(TINY, backend="cloud")


def test_p2_clock_and_level_follow_p2_into_both_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[tuple[str, float | None, int]] = []
    real = match_module.make_bot

    def spy(name: str, **options: object) -> object:
        built.append((name, options["time_per_move"], options["level"]))  # type: ignore[arg-type]
        return real(name, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(match_module, "make_bot", spy)
    spec = MatchSpec(p1="greedy", p2="random", games=2, seed=4, time_per_move=0.3, p2_time_per_move=2.0,
                     level=2, p2_level=5)
    summary = summarize(spec, run_match(spec))
    assert set(built) == {("greedy", 0.3, 2), ("random", 2.0, 5)}
    assert summary.to_json()["time_per_move"] == [0.3, 2.0]
    assert summary.to_json()["level"] == [2, 5]
    assert "time/move    greedy 0.3 s   random 2 s" in render_summary(summary)
    assert "level        greedy 2   random 5" in render_summary(summary)


# --- the command ------------------------------------------------------------------------------


def test_match_command_json(tmp_path: Path) -> None:
    out = runner.invoke(
        app, ["match", "--p1", "greedy", "--p2", "random", "--games", "4", "--seed", "3", "--json",
              "--save", str(tmp_path)]
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["games"] == 4 and sum(data["wins"]) == 4
    assert len(list(tmp_path.glob("*.json"))) == 4


def test_match_command_text() -> None:
    out = runner.invoke(app, ["match", "--p1", "random", "--p2", "greedy", "--games", "2"])
    assert out.exit_code == 0, out.output
    assert "wins" in out.stdout and "Elo diff" in out.stdout
    # no terminal (a log file): a plain line a game on stderr, no bar drawn
    lines = out.stderr.splitlines()
    assert [line.split(":")[0] for line in lines] == ["game 1/2", "game 2/2"] and "━" not in out.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--p1", "deepblue", "--p2", "greedy"], "unknown bot 'deepblue'"),
        (["--p1", "greedy", "--p2", "random", "--games", "0"], "--games"),
        (["--p1", "mcts", "--p2", "random", "--level", "7"], "level"),
        (["--p1", "greedy", "--p2", "random", "--backend", "cloud"], "unknown backend 'cloud'"),
        (["--p1", "greedy", "--p2", "random", "--workers", "0"], "--workers"),
        (["--p1", "greedy", "--p2", "mcts", "--p2-time-per-move", "0"], "time per move must be positive"),
        (["--p1", "greedy", "--p2", "mcts", "--p2-level", "0"], "unknown level 0"),
    ],
)
def test_match_command_errors_are_one_line(args: list[str], words: str) -> None:
    out = runner.invoke(app, ["match", *args])
    assert out.exit_code == 2
    assert out.stderr.strip().count("\n") == 0 and words in out.stderr
    assert "Traceback" not in out.output


def test_match_refuses_a_save_path_that_is_a_file_before_playing(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.write_text("keep me")
    out = runner.invoke(app, ["match", "--p1", "greedy", "--p2", "random", "--games", "2", "--save", str(target)])
    assert out.exit_code == 2 and "not a directory" in out.stderr
    assert target.read_text() == "keep me"
    assert "━" not in out.stderr, "refused before the progress bar (and any game) started"
    # a directory that cannot be made (its parent is a file): refused before playing too
    out = runner.invoke(app, ["match", "--p1", "greedy", "--p2", "random", "--games", "2", "--save",
                              str(target / "records")])
    assert out.exit_code == 2 and out.stderr.startswith(f"error: --save {target / 'records'}: cannot create it")
    assert "game 1/2" not in out.stderr and "━" not in out.stderr


@pytest.mark.skipif(importlib.util.find_spec("ray") is not None, reason="ray is installed")
def test_ray_backend_without_ray_says_how_to_install() -> None:
    out = runner.invoke(app, ["match", "--p1", "greedy", "--p2", "random", "--games", "2", "--backend", "ray"])
    assert out.exit_code == 2
    assert "pip install" in out.stderr and "ray" in out.stderr


def test_bench_ai_reports_rates() -> None:
    out = runner.invoke(app, ["bench", "ai", "--seconds", "0.05", "--repeats", "1", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    for label in ("opening", "middle"):
        assert data[label]["rollouts"] > 0 and data[label]["mcts_iterations"] > 0
        assert data[label]["rollout_ratio"] > 0


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed")
def test_ray_backend_plays_the_same_games_as_local() -> None:
    import ray

    spec = MatchSpec(p1="greedy", p2="random", games=4, seed=6)
    try:
        on_ray = [r.record.moves for r in run_match(spec, workers=2, backend="ray")]
    finally:
        ray.shutdown()
    assert on_ray == [r.record.moves for r in run_match(spec)]
