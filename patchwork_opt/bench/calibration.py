"""``patchwork bench calibration``: how far the win chances the AI shows can be trusted.

Fresh self-play games (the solver against itself at ``time_per_move``, on circles dealt in the
benchmark's own namespace, so never games that weights were trained on), each reviewed at the
same time per move as it was played, with the review ``patchwork analyze`` gives (the caller
names it: ``reviewer``, a ``module:callable`` taking the record and ``seconds``). Playing and
reviewing a game is one task of the match machinery, so ``--workers`` and Ray spread both.

Every reviewed ply whose position's own analysis was not exhaustive gives a prediction, the mover's win chance as the
position's own analysis gives it (``analysed_win``: what a hint of the position shows; the review's
chained ``win_before`` also knows how the game went on, so it is no forecast), and an outcome,
whether the mover won; on those: log loss, calibration slope, ECE over 10 bins and
Brier score (``ai/learned/forecast.py``). Between two equal players every flagged move is noise or a
real slip of the same player: mistakes plus blunders per player per game is the review's false
alarm rate. The deal's win chance (``apps/deal.py``: Player 1's at the start, by its own fixed
analysis, ``start_win``) is judged the same way, one prediction a game, against whether Player 1
won (``deal``).
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from patchwork_opt.ai.learned.forecast import forecast_report
from patchwork_opt.apps.deal import start_win
from patchwork_opt.apps.match import GameResult, GameTask, MatchError, MatchSpec, check_run, run_match
from patchwork_opt.apps.selfplay import BOT, SelfPlayGame
from patchwork_opt.core.errors import PatchworkError

NAMESPACE = "calibration"  # circles of their own: never a self-play training game
DEFAULT_REVIEWER = "patchwork_opt.apps.review:review_game"
LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")

Progress = Callable[[str, float, float], None]


@dataclass(frozen=True, slots=True)
class ReviewedGame(GameResult):
    """A played game with its review's plies: ``(analysed_win, player, analysed_exact, label,
    points_lost, best, searched)``: the position's own analysis's win chance and whether it proved it,
    ``best`` the best move's text, ``searched`` the win chance the search backed up for it before the
    win map (None when it was not sampled)."""

    plies: tuple[tuple[float, int, bool, str, float, str, float | None], ...] = ()
    #: the deal's figure: Player 1's win chance at the start (``deal.start_win``)
    first_win: float | None = None


def load_reviewer(path: str) -> Callable[..., Any]:
    module_name, _, attr = path.partition(":")
    try:
        reviewer: Callable[..., Any] = getattr(importlib.import_module(module_name), attr)
        return reviewer
    except (ImportError, AttributeError) as exc:
        raise MatchError(f"cannot load the reviewer {path!r}: {exc}") from None


@dataclass(frozen=True, slots=True)
class CalibrationGame:
    """Plays one self-play game and reviews it (one task: processes and Ray ship it whole)."""

    seconds: float
    reviewer: str = DEFAULT_REVIEWER

    def __call__(self, task: GameTask) -> ReviewedGame:
        played = SelfPlayGame(namespace=NAMESPACE)(task)
        review = load_reviewer(self.reviewer)(played.record, seconds=self.seconds)
        plies = tuple((p.analysed_win, p.player, p.analysed_exact, p.label, p.points_lost, str(p.best), p.searched)
                      for p in review.plies)
        record = played.record  # the deal's own analysis of the start (the review's deal, when it has one)
        first_win = start_win(tuple(record.circle), tuple(record.leather))
        return ReviewedGame(**{f.name: getattr(played, f.name) for f in fields(GameResult)}, plies=plies,
                            first_win=first_win)


def calibration_spec(*, games: int, seed: int, time_per_move: float, workers: int, backend: str,
                     advisor_factory: str | None = None) -> MatchSpec:
    """The games the benchmark plays, every option checked before any is played."""
    if time_per_move <= 0:
        raise PatchworkError(f"--time-per-move must be positive, got {time_per_move:g}")
    spec = MatchSpec(p1=BOT, p2=BOT, games=games, seed=seed, time_per_move=time_per_move,
                     advisor_factory=advisor_factory)
    spec.check()
    check_run(workers, backend)
    return spec


def run_calibration_bench(
    spec: MatchSpec,
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    reviewer: str = DEFAULT_REVIEWER,
    progress: Progress | None = None,
    fit_map: str | None = None,
) -> dict[str, Any]:
    """Play and review ``spec``'s games (``calibration_spec``), then ``summarize_calibration``;
    with ``fit_map`` also fit the search's win map on them and write it there (``fit_search_map_on``)."""
    seconds = spec.time_per_move
    assert seconds is not None  # calibration_spec sets it
    done = [0]

    def on_result(_: GameResult) -> None:
        done[0] += 1
        if progress is not None:
            progress("games played and reviewed", done[0], spec.games)

    started = time.perf_counter()
    results = run_match(spec, workers=workers, backend=backend, address=address, on_result=on_result,
                        game=CalibrationGame(seconds, reviewer))
    summary = summarize_calibration(results, seed=spec.seed, time_per_move=seconds,
                                    seconds=time.perf_counter() - started)
    if fit_map is not None:
        summary["search_map"] = fit_search_map_on(results, fit_map, seed=spec.seed, time_per_move=seconds,
                                                  reviewer=reviewer)
    return summary


def fit_search_map_on(results: list[GameResult], path: str, *, seed: int, time_per_move: float,
                      reviewer: str) -> dict[str, Any]:
    """``--fit-map``: the search's win map (``winmap.SearchMap``) fitted on these games, held out by
    construction, from each reviewed ply outside the exact endgame: the win chance the search
    backed up for the best move (before any map), the learned value of the position that move leads
    to, the track covered, who won; written to ``path``."""
    from patchwork_opt.ai.analysis.run import SHIPPED_WEIGHTS, default_evaluator
    from patchwork_opt.ai.learned.training import fit_search_map
    from patchwork_opt.ai.learned.value import win_after
    from patchwork_opt.ai.learned.winmap import file_digest, save_search_map, track_progress
    from patchwork_opt.core.move import Move

    evaluator = default_evaluator()
    wins, statics, won, progress, games = [], [], [], [], []
    for game, r in enumerate(results):
        assert isinstance(r, ReviewedGame)
        winner = 0 if r.p1_won else 1
        state = r.record.initial_state()
        for (_, player, exact, _, _, best, searched), move in zip(r.plies, r.record.moves, strict=True):
            if not exact and searched is not None:
                wins.append(searched)
                statics.append(win_after(state, Move.parse(best))[0])
                won.append(int(player == winner))
                progress.append(track_progress(state))
                games.append(game)
            state.apply(move)
    found, report = fit_search_map(np.array(wins), np.array(won), np.array(progress), np.array(statics),
                                   evaluator=evaluator.name, weights=file_digest(SHIPPED_WEIGHTS),
                                   exploration=evaluator.exploration, games=np.array(games))
    fitted_on = {"games": len(results), "seed": seed, "time_per_move": time_per_move, "namespace": NAMESPACE,
                 "reviewer": reviewer}
    save_search_map(path, found, {"fitted_on": fitted_on, **report})
    return {"path": path, "a": round(found.a, 4), "c": round(found.c, 4), "b": round(found.b, 4),
            "d": round(found.d, 4), **report}


def summarize_calibration(results: list[GameResult], *, seed: int, time_per_move: float,
                          seconds: float) -> dict[str, Any]:
    """The benchmark's figures from reviewed games (``ReviewedGame``)."""
    predictions, outcomes = [], []
    labels = dict.fromkeys(LABELS, 0)
    flagged, points, exact_plies = 0, [], 0
    for r in results:
        assert isinstance(r, ReviewedGame)
        winner = 0 if r.p1_won else 1  # self-play games sit the first bot first
        for analysed_win, player, exact, label, points_lost, _, _ in r.plies:
            labels[label] += 1
            flagged += label in ("mistake", "blunder")
            points.append(points_lost)
            if exact:
                exact_plies += 1
                continue
            predictions.append(analysed_win)
            outcomes.append(1.0 if player == winner else 0.0)
    if not predictions:
        raise PatchworkError("every reviewed position was in the exact endgame: no win chance to judge")
    n = len(results)
    return {
        "games": n,
        "seed": seed,
        "time_per_move": time_per_move,
        "plies": sum(labels.values()),
        "exact_plies": exact_plies,
        **forecast_report(np.array(predictions), np.array(outcomes)),
        "mistakes_blunders_per_player_game": round(flagged / (2 * n), 3),
        "labels": labels,
        "mean_points_lost": round(float(np.mean(points)), 3) if points else 0.0,
        "deal": _deal_forecast(results),
        "seconds": round(seconds, 1),
    }


def _deal_forecast(results: list[GameResult]) -> dict[str, Any] | None:
    """The deal's win chance (one a game) against whether Player 1 won; None without deals."""
    games = [r for r in results if isinstance(r, ReviewedGame) and r.first_win is not None]
    if not games:
        return None
    first = np.array([r.first_win for r in games], dtype=np.float64)
    won = np.array([1.0 if r.p1_won else 0.0 for r in games])
    return {"mean_first_win": round(float(first.mean()), 4), **forecast_report(first, won)}


def render_calibration_bench(result: dict[str, Any]) -> str:
    slope = result["calibration_slope"]
    return "\n".join([
        f"calibration  {result['games']} self-play games at {result['time_per_move']:g} s a move, each reviewed "
        f"at the same time (seed {result['seed']})",
        f"win chances  {result['predictions']} plies outside the exact endgame ({result['exact_plies']} exact)",
        f"log loss     {result['log_loss']:.3f}   (a constant 50%: 0.693)",
        f"slope        {'n/a' if slope is None else f'{slope:.2f}'}   (1: calibrated; below 1: too sure)",
        f"ECE          {result['ece']:.3f}   (10 bins)",
        f"Brier        {result['brier']:.3f}   (a constant 50%: 0.250)",
        f"flagged      {result['mistakes_blunders_per_player_game']:.2f} mistakes + blunders per player per game; "
        f"labels {', '.join(f'{k} {v}' for k, v in result['labels'].items())}",
        *_deal_lines(result.get("deal")),
        f"time         {result['seconds']:.1f}s",
        *_map_lines(result.get("search_map")),
    ])


def _deal_lines(deal: dict[str, Any] | None) -> list[str]:
    if deal is None:
        return []
    slope = deal["calibration_slope"]
    return [f"deal         {deal['predictions']} games: Player 1's win chance at the start "
            f"{deal['mean_first_win']:.1%} on average, Player 1 won {deal['win_share']:.1%}; "
            f"log loss {deal['log_loss']:.3f}, slope "
            f"{'n/a' if slope is None else f'{slope:.2f}'}, ECE {deal['ece']:.3f}, Brier {deal['brier']:.3f}"]


def _map_lines(fitted: dict[str, Any] | None) -> list[str]:
    if fitted is None:
        return []
    before, after = fitted["before"], fitted["after"]
    return [f"search map   {fitted['path']}: logit' = ({fitted['a']:g} + {fitted['c']:g} progress) logit + "
            f"{fitted['b']:g}; on these plies log loss {before['log_loss']:.3f} -> {after['log_loss']:.3f}, "
            f"slope {before['calibration_slope']} -> {after['calibration_slope']}"]


def check_fit_map(path: str | None) -> None:
    """``--fit-map``: a JSON file in an existing directory, checked before any game is played."""
    if path is None:
        return
    target = Path(path)
    if target.suffix != ".json":
        raise PatchworkError(f"--fit-map {path}: the search map file must end in .json")
    if not target.parent.is_dir():
        raise PatchworkError(f"--fit-map {path}: no directory {target.parent}")
