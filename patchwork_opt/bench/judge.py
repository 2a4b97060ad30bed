"""``patchwork bench judge``: does the review rank play as strength does, and do its figures hold?

A match (``--p1`` against ``--p2``, seats swapped every other game, as ``patchwork match`` plays it),
each game reviewed as ``patchwork analyze`` reviews it (``hints.review_record``). For every game:
each side's accuracy, error rate and mistakes plus blunders, and the checks the review's judge
promises (``apps/judge.py``), counted as violations:

- **chain**: a ply's figure after is the next ply's figure before (Player 1's view, within
  ``CHAIN_TOLERANCE``);
- **better**: the move played shown better than the best (a figure after above the figure before);
- **label**: a label that does not follow the figures shown (``label_of``), or a shown drop of 10%
  or 3 points labelled ``good`` or ``best``;
- **milder**: within a game, a move worse on both figures than another with a milder label.

The figures: per game, the accuracy of ``--p1`` less that of ``--p2`` (the gap the review puts between
the two players) and each side's mistakes plus blunders; over the match, the smallest gap and the means.
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from patchwork_opt.apps.judge import label_of
from patchwork_opt.apps.match import GameResult, MatchSpec, run_match
from patchwork_opt.apps.review import GameReview

#: How far a ply's figure after and the next ply's figure before may differ (rounding: they are one figure).
CHAIN_TOLERANCE = 0.02
ORDER = ("best", "good", "inaccuracy", "mistake", "blunder")
Progress = Callable[[str, float, float], None]
Reviewer = Callable[[GameResult], GameReview]


def _first(win: float, player: int) -> float:
    return win if player == 0 else 1.0 - win


def violations(review: GameReview) -> dict[str, int]:
    """The review's breaches of the judge's promises (the module's list), by kind."""
    plies = review.plies
    out = dict.fromkeys(("chain", "better", "label", "milder"), 0)
    for ply, following in itertools.pairwise(plies):
        if abs(_first(ply.win_after, ply.player) - _first(following.win_before, following.player)) > CHAIN_TOLERANCE:
            out["chain"] += 1
    for p in plies:
        out["better"] += p.win_after > p.win_before + 1e-9 or p.margin_after > p.margin_before + 1e-9
        shown_drop = p.loss >= 0.10 or p.points_lost >= 3.0
        out["label"] += p.label != label_of(p.loss, p.points_lost, p.label == "best") or (
            shown_drop and p.label in ("good", "best"))
        out["milder"] += any(q.loss >= p.loss and q.points_lost >= p.points_lost
                             and (q.loss, q.points_lost) != (p.loss, p.points_lost)
                             and ORDER.index(q.label) < ORDER.index(p.label) for q in plies)
    return out


@dataclass(frozen=True, slots=True)
class JudgedGame:
    """One reviewed game, by role (0: ``--p1``, 1: ``--p2``)."""

    index: int
    p1_seat: int
    scores: tuple[int, int]
    accuracy: tuple[float, float]
    error_rate: tuple[float, float]
    flagged: tuple[int, int]
    decided_at: int | None
    violations: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "p1_seat": self.p1_seat, "scores": list(self.scores),
                "accuracy": [round(a, 1) for a in self.accuracy], "error_rate": [round(e, 4) for e in self.error_rate],
                "mistakes_blunders": list(self.flagged), "decided_at": self.decided_at,
                "violations": self.violations}


def judged(result: GameResult, review: GameReview) -> JudgedGame:
    seats = (result.p1_seat, 1 - result.p1_seat)  # each role's seat
    players = [review.players[seat] for seat in seats]
    return JudgedGame(
        index=result.index, p1_seat=result.p1_seat, scores=result.scores,
        accuracy=(players[0].accuracy, players[1].accuracy), error_rate=(players[0].error_rate, players[1].error_rate),
        flagged=(players[0].mistakes + players[0].blunders, players[1].mistakes + players[1].blunders),
        decided_at=review.decided_at, violations=violations(review),
    )


def run_judge_bench(spec: MatchSpec, review: Reviewer, *, progress: Progress | None = None) -> dict[str, Any]:
    """Play ``spec``'s games, review each with ``review`` and judge the reviews (the module's list)."""
    started = time.perf_counter()
    played = [0]

    def on_result(_: GameResult) -> None:
        played[0] += 1
        if progress is not None:
            progress("games played", played[0], spec.games)

    results = run_match(spec, on_result=on_result)
    games = []
    for done, result in enumerate(results, start=1):
        games.append(judged(result, review(result)))
        if progress is not None:
            progress("games reviewed", done, len(results))
    return summarize(spec, games, time.perf_counter() - started)


def summarize(spec: MatchSpec, games: Sequence[JudgedGame], seconds: float) -> dict[str, Any]:
    gaps = [g.accuracy[0] - g.accuracy[1] for g in games]
    total = {kind: sum(g.violations[kind] for g in games) for kind in ("chain", "better", "label", "milder")}
    return {
        "p1": spec.bot_name(0), "p2": spec.bot_name(1), "games": len(games), "seed": spec.seed,
        "accuracy_gap": {"min": round(min(gaps), 1), "mean": round(statistics.fmean(gaps), 1)},
        "mistakes_blunders": {role: {"min": min(g.flagged[i] for g in games),
                                     "mean": round(statistics.fmean(g.flagged[i] for g in games), 2)}
                              for i, role in enumerate(("p1", "p2"))},
        "violations": total, "per_game": [g.to_json() for g in games], "seconds": round(seconds, 1),
    }


def render_judge_bench(result: dict[str, Any]) -> str:
    lines = [f"{result['games']} games, {result['p1']} (p1) against {result['p2']} (p2), seed {result['seed']}, "
             f"each reviewed as patchwork analyze reviews it ({result['seconds']:.0f} s):"]
    for g in result["per_game"]:
        a1, a2 = g["accuracy"]
        f1, f2 = g["mistakes_blunders"]
        lines.append(f"  game {g['index'] + 1:<3} p1 {a1:5.1f}% ({f1} mistakes and blunders)  p2 {a2:5.1f}% ({f2})  "
                     f"gap {a1 - a2:+6.1f}  decided at move "
                     f"{'-' if g['decided_at'] is None else g['decided_at'] + 1}")
    gap, flagged, broken = result["accuracy_gap"], result["mistakes_blunders"], result["violations"]
    lines.append(f"accuracy gap p1 - p2: min {gap['min']:+.1f}, mean {gap['mean']:+.1f}; mistakes and blunders a "
                 f"game: p1 mean {flagged['p1']['mean']} (min {flagged['p1']['min']}), p2 mean {flagged['p2']['mean']} "
                 f"(min {flagged['p2']['min']})")
    lines.append("violations: " + ", ".join(f"{kind} {n}" for kind, n in broken.items())
                 + " (chain: figures that do not chain; better: the move played shown better than the best; label: "
                   "a label unlike its figures; milder: a worse move with a milder label)")
    return "\n".join(lines)
