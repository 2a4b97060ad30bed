"""Game review: every ply of a record against the AI's analysis (``patchwork analyze``).

Each position is analysed once (``analyse_position``, the move played compared alongside the
candidates). A ply's ``win_before`` is the mover's win chance with the best move, ``win_after``
the chance the move played leaves them, and ``loss`` the difference; ``points_lost`` is the same
for the expected final margin (after the best move minus after the move played, at least 0).
Both figures of the move played come from the same search when it valued that move on enough
simulations (a sampling search spends few on moves it finds poor, and their figures are noisy),
else from the analysis of the position the move led to.

Labels follow one rule, the one the page's legend states (``label_rule``): a move that is not the
best gets the worse of two grades, its grade in win chance lost (5%, 10%, 20%: ``LABELS``) and its
grade in expected points lost (2, 4, 8: ``POINT_LABELS``), so a move throwing away many points is a
mistake even in a game already decided, and a move that lost neither is never flagged. A label is
given only for what a loss has above the search's own uncertainty: each sampled figure has a spread
(``position.spread``: how far two analyses of the position at the same depth tell that move apart),
and the loss and the points lost each lose ``CONFIDENCE`` standard deviations of the difference
(``loss_error``, ``points_error``) before they are graded. A sampled estimate's loss in win chance
counts only as far as the points back it: one point of expected margin is worth at most
``WIN_PER_POINT`` of win chance (the steepest slope of the win chance against the margin, at 50%),
so a larger drop with few points lost is the noise of two estimates, not a weak move. Exact figures
(every way the game can go checked) count in full, without an error bar.

The move played is judged by its own figures in the position's analysis wherever a hint of that
analysis shows it: a game hint and its review read the same cached analysis (the page's hint budget
is its default review depth), so the hint's first move is the review's best and the figures the
page shows for a move are the same in both. Measured (docs/benchmarks.md): a random player against
the solver gets about 6 mistakes and blunders a game, two equal solvers well under 0.3 a player.

A player's accuracy is lichess's (docs/review.md): each move scores
``103.1668 * exp(-0.04354 * (win% before - win% after)) - 3.1669``, kept within 0-100, so a best
move scores 100 and a move that throws away a won game about 0; a player's accuracy averages
their moves, leaving out moves in a game already decided (the win chance within ``DECIDED`` of 0
or 1, and kept so): any move is as good there, and counting them would pull both players to 100.

Luck apart from skill (docs/review.md), as GNU Backgammon and eXtreme Gammon report it: the deal
(``apps/deal.py``: Player 1's win chance at the start with this circle against the average circle,
each player's luck the difference, zero-sum) and each player's error rate (``error_rate_of``: the
mean win chance lost per decision that had a real choice, eXtreme Gammon's performance rating in
win chance). A record's take-backs (moves played then undone, a teaching game's) are counted per
player (``takebacks_of``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from patchwork_opt.ai.analysis.position import analyse_position, depth, spread, spread_after, value_after
from patchwork_opt.ai.base import MOVES_SHOWN, AnalysedMove, SearchedPosition
from patchwork_opt.apps.chart import win_chart_png, win_chart_svg
from patchwork_opt.apps.deal import Deal, deal_of, deal_words
from patchwork_opt.core.advice import PlacementAdvisor
from patchwork_opt.core.clock import deadline_after
from patchwork_opt.core.errors import PatchworkError, RecordError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.core.symmetry import canonical
from patchwork_opt.core.words import words_in
from patchwork_opt.formats.record import Record, write_atomic

#: (label, the loss in win chance from which a move that is not the best gets it), mildest first.
LABELS: tuple[tuple[str, float], ...] = (("inaccuracy", 0.05), ("mistake", 0.10), ("blunder", 0.20))
#: (label, the expected points lost from which a move that is not the best gets it), mildest first:
#: about twice the points each grade of ``LABELS`` takes where a point is worth most (0.05, 0.10 and
#: 0.20 of win chance are 0.8, 1.6 and 3.1 points at ``WIN_PER_POINT``), so a grade in points alone
#: asks for a loss that would earn it in an even game with room to spare.
POINT_LABELS: tuple[tuple[str, float], ...] = (("inaccuracy", 2.0), ("mistake", 4.0), ("blunder", 8.0))
#: The most win chance one point of expected margin is worth: the steepest slope of the shipped
#: value model's map from margin to win chance, a/4 for win = 1 / (1 + exp(-(a * margin + b))),
#: ``win_per_point`` in data/value.json (a test keeps the two equal). A sampled loss in win chance
#: counts only as far as the points lost back it.
WIN_PER_POINT = 0.0645
BLUNDER = "blunder"
#: lichess's move accuracy from the drop in win percent (0-100): A * exp(-K * drop) + B.
ACCURACY_A, ACCURACY_K, ACCURACY_B = 103.1668, 0.04354, -3.1669
DECIDED = 0.03  # a win chance this close to 0 or 1 is a decided game
RELIABLE_SHARE = 0.2  # a move's own figure counts when it had this share of the best move's visits
#: Standard deviations of the search's own spread a loss must stand above to count (a normal spread's
#: 98% one-sided): a label says the move lost at least that much, whichever analysis at this depth.
CONFIDENCE = 2.0

Progress = Callable[[str, float, float], None]
#: ``analyse(state, extra)``: a position's analysis with ``extra`` (the move played) compared alongside.
PositionAnalyser = Callable[[State, Sequence[Move]], SearchedPosition]


class ReviewError(PatchworkError):
    """A record that cannot be reviewed (no moves)."""


@dataclass(frozen=True, slots=True)
class PlyReview:
    ply: int
    player: int
    played: Move
    best: Move
    win_before: float
    win_after: float
    loss: float
    points_lost: float
    label: str
    exact: bool
    played_words: str
    best_words: str
    #: the win chance the search backed up for the best move, before the win map (``AnalysedMove.searched``)
    searched: float | None = None
    #: the error bars of ``loss`` and ``points_lost``: only what stands above them counts for the label
    loss_error: float = 0.0
    points_error: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply, "player": self.player, "played": self.played.to_json(), "played_words": self.played_words,
            "best": self.best.to_json(), "best_words": self.best_words,
            "win_before": round(self.win_before, 4), "win_after": round(self.win_after, 4),
            "loss": round(self.loss, 4), "points_lost": round(self.points_lost, 2),
            "loss_error": round(self.loss_error, 4), "points_error": round(self.points_error, 2), "label": self.label,
            "exact": self.exact,
        }


@dataclass(frozen=True, slots=True)
class PlayerReview:
    name: str
    accuracy: float
    inaccuracies: int
    mistakes: int
    blunders: int
    #: the mean win chance lost per decision that had a real choice (``error_rate_of``), and how many
    error_rate: float = 0.0
    decisions: int = 0
    #: moves this player took back (``takebacks_of``)
    takebacks: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "accuracy": round(self.accuracy, 1), "inaccuracies": self.inaccuracies,
                "mistakes": self.mistakes, "blunders": self.blunders, "error_rate": round(self.error_rate, 4),
                "decisions": self.decisions, "takebacks": self.takebacks}


@dataclass(frozen=True, slots=True)
class GameReview:
    plies: list[PlyReview]
    players: list[PlayerReview]
    first_wins: list[float]  # player 1's win chance before each ply, then after the last move
    final_scores: tuple[int, int] | None  # when the record is a finished game
    seconds_per_move: float
    deal: Deal | None = None  # None when no average was measured for the record's leather spaces

    def to_json(self) -> dict[str, Any]:
        return {
            "plies": [p.to_json() for p in self.plies],
            "players": [p.to_json() for p in self.players],
            "first_wins": [round(w, 4) for w in self.first_wins],
            "final_scores": list(self.final_scores) if self.final_scores is not None else None,
            "deal": self.deal.to_json() if self.deal is not None else None,
        }

    def marks(self) -> list[tuple[int, str, str]]:
        """(ply, label, title) of each inaccuracy, mistake and blunder, for the chart."""
        return [
            (p.ply, p.label, f"ply {p.ply}, {self.players[p.player].name}: {p.label} ({p.played_words}; "
                             f"best: {p.best_words}; -{p.loss:.0%}, {p.points_lost:.1f} points lost)")
            for p in self.plies
            if p.label in ("inaccuracy", "mistake", BLUNDER)
        ]


def counted_loss(loss: float, points_lost: float, exact: bool) -> float:
    """The win chance a move's label counts: all of it when exact, else only as far as the points
    lost back it (``WIN_PER_POINT`` a point)."""
    return loss if exact else min(loss, points_lost * WIN_PER_POINT)


def label_of(loss: float, points_lost: float, is_best: bool, exact: bool = False, loss_error: float = 0.0,
             points_error: float = 0.0) -> str:
    """The label of a move losing ``loss`` win chance and ``points_lost`` expected points
    (``exact``: who wins after the best move and after this one is proven, so the win chance counts
    in full, margins proven or not): the worse of its grade
    in win chance and its grade in points, ``good`` when it reaches neither. Only what a loss has
    above its error bar counts (``loss_error``, ``points_error``: ``CONFIDENCE`` standard deviations
    of the search's own spread of the difference, ``position.spread``; 0 where both are exact)."""
    if is_best:
        return "best"
    loss = max(0.0, loss - loss_error)
    points_lost = max(0.0, points_lost - points_error)
    counted = counted_loss(loss, points_lost, exact)
    label = "good"
    for (name, chance), (_, points) in zip(LABELS, POINT_LABELS, strict=True):
        if counted >= chance or points_lost >= points:
            label = name
    return label


def label_rule() -> str:
    """The rule ``label_of`` follows, in the words the page's legend and the terminal show."""
    grades = "; ".join(f"{name}: {chance:.0%} win chance or {points:g} points"
                       for (name, chance), (_, points) in zip(LABELS, POINT_LABELS, strict=True))
    return (f"A move that is not the best gets the worse of two grades, by the win chance and by the "
            f"expected points it lost against the best move ({grades}). A sampled figure has an error bar "
            f"(what two analyses of the position at this depth may differ by): only the loss above it "
            f"counts. A sampled drop in win chance counts only as far as the points lost back it "
            f"({WIN_PER_POINT:.2%} a point); when every way the game can go was checked for who wins it "
            f"counts in full. A move that lost neither is never flagged.")


def counts_for_accuracy(ply: PlyReview) -> bool:
    return DECIDED < ply.win_before < 1.0 - DECIDED or ply.loss >= DECIDED


def move_accuracy(loss: float) -> float:
    """lichess's accuracy of a move losing ``loss`` (0-1) win chance, within 0-100."""
    raw = ACCURACY_A * math.exp(-ACCURACY_K * 100.0 * loss) + ACCURACY_B
    return min(100.0, max(0.0, raw))


def accuracy_of(plies: list[PlyReview]) -> float:
    losses = [p.loss for p in plies if counts_for_accuracy(p)]
    if not losses:
        return 100.0
    return sum(move_accuracy(loss) for loss in losses) / len(losses)


def had_choice(state: State) -> bool:
    """Whether the player to move has a real choice: two legal moves leaving different positions. A
    player who can only advance has none, nor one placing a leather patch where every empty cell
    leaves the same quilt up to the board's symmetries (one cell left)."""
    if state.pending < 0:
        return bool(state.buyable())
    quilt = state.quilts[state.to_move()]
    return len({canonical(quilt | move.mask) for move in state.legal_moves()}) > 1


def error_rate_of(plies: Sequence[PlyReview], choices: Sequence[bool]) -> tuple[float, int]:
    """A player's error rate and the decisions it is over: the mean win chance lost (``loss``) over
    their plies that were decisions, those with a real choice (``choices``, by ply: ``had_choice``)
    in a game not yet decided (``counts_for_accuracy``, as for accuracy). eXtreme Gammon's
    performance rating is of this kind (the equity lost per decision that was not forced or
    irrelevant, times 500); 0 with no decision."""
    losses = [p.loss for p in plies if choices[p.ply] and counts_for_accuracy(p)]
    return (sum(losses) / len(losses) if losses else 0.0), len(losses)


def takebacks_of(record: Record, states: Sequence[State]) -> tuple[int, int]:
    """Moves each player took back (``record.takebacks``), each checked legal where it was played
    (``states``: the record's positions); a take-back that was not is a RecordError naming it."""
    counts = [0, 0]
    for i, taken in enumerate(record.takebacks):
        state = states[taken.ply] if taken.ply < len(states) else None
        if state is None or state.is_terminal():
            raise RecordError(f"takebacks[{i}]: no move can be played at ply {taken.ply} of this record")
        try:
            state.check(taken.move)
        except PatchworkError as exc:
            raise RecordError(f"takebacks[{i}]: {taken.move} cannot have been played at ply {taken.ply}: "
                              f"{exc}") from None
        counts[state.to_move()] += 1
    return counts[0], counts[1]


def _with_skill(players: list[PlayerReview], plies: Sequence[PlyReview], states: Sequence[State],
                takebacks: tuple[int, int]) -> list[PlayerReview]:
    """``players`` (by seat) with their error rates, decisions and take-backs (``states``: the positions
    before each ply and after the last)."""
    choices = [had_choice(state) for state in states[:len(plies)]]
    out = []
    for seat, player in enumerate(players):
        rate, decisions = error_rate_of([p for p in plies if p.player == seat], choices)
        out.append(replace(player, error_rate=rate, decisions=decisions, takebacks=takebacks[seat]))
    return out


def review_game(
    record: Record,
    *,
    seconds: float | None = 0.5,
    iterations: int | None = None,
    seed: int = 0,
    advisor: PlacementAdvisor | None = None,
    progress: Progress | None = None,
    stop: StopSignal | None = None,
    analyse: PositionAnalyser | None = None,
    with_deal: bool = True,
) -> GameReview:
    """Review every ply of ``record`` (``seconds`` or ``iterations`` per position analysed), and its deal
    (``with_deal``); a set ``stop`` (nobody waits for the review any more) ends it with ReviewError.
    ``analyse(state, extra)`` replaces ``analyse_position`` for each position (the service's analysis cache)."""
    if not record.moves:
        raise ReviewError("the record has no moves to review")
    record.replay()  # a move the rules refuse is reported with its ply before any search
    states: list[State] = [record.initial_state()]
    for move in record.moves:
        after = states[-1].clone()
        after.apply(move)
        states.append(after)
    taken = takebacks_of(record, states)  # a corrupt take-back is refused before any search too
    total = len(states) - (1 if states[-1].is_terminal() else 0)
    analyses: list[SearchedPosition | None] = []
    for i, state in enumerate(states):
        if state.is_terminal():
            analyses.append(None)
            continue
        if stop is not None and stop.is_set():
            raise ReviewError("the review was stopped before its end")
        extra = [record.moves[i]] if i < len(record.moves) else []
        if analyse is not None:
            analyses.append(analyse(state, extra))
        else:
            # each position's own deadline, made as its analysis starts (the time per ply is the edge)
            deadline = deadline_after(seconds) if iterations is None else None
            analyses.append(analyse_position(state, deadline=deadline, iterations=iterations, seed=seed,
                                             advisor=advisor, extra=extra, stop=stop))
        if progress is not None:
            progress("analysing positions", i + 1, total)
    plies = [_ply(i, states[i], move, analyses[i], analyses[i + 1]) for i, move in enumerate(record.moves)]
    names = record.players or ["Player 1", "Player 2"]
    players = []
    for seat in (0, 1):
        own = [p for p in plies if p.player == seat]
        players.append(PlayerReview(
            name=names[seat], accuracy=accuracy_of(own),
            inaccuracies=sum(p.label == "inaccuracy" for p in own), mistakes=sum(p.label == "mistake" for p in own),
            blunders=sum(p.label == BLUNDER for p in own),
        ))
    players = _with_skill(players, plies, states, taken)
    first_wins = [p.win_before if p.player == 0 else 1.0 - p.win_before for p in plies]
    last = plies[-1]
    first_wins.append(last.win_after if last.player == 0 else 1.0 - last.win_after)
    end = states[-1]
    final = (end.score(0), end.score(1)) if end.is_terminal() else None
    return GameReview(plies, players, first_wins, final, seconds or 0.0, deal_of(record) if with_deal else None)


def review_move(state: State, played: Move, analyse: PositionAnalyser, ply: int = 0) -> PlyReview:
    """One move judged as ``review_game`` judges a ply (a teaching game's verdict, right after the
    move): the position before it analysed with the move compared alongside, and the position it
    leads to (read when the search valued the move on too few simulations), then ``_ply``."""
    here = analyse(state, [played])
    after = state.clone()
    after.apply(played)
    following = None if after.is_terminal() else analyse(after, [])
    return _ply(ply, state, played, here, following)


def _own_figures(here: SearchedPosition, found: AnalysedMove | None) -> bool:
    """Whether the move played is judged by its own figures in the position's analysis: always where
    a hint of that analysis shows it (the page then shows the same figures for it in the hint and
    the review), where its outcome is proven, or where the search gave it a fair share of its visits;
    a poor move the search hardly looked at is judged by the analysis of the position it led to."""
    if found is None or not found.valued:
        return False
    shown = any(m.move == found.move for m in here.shown()[:MOVES_SHOWN])
    return shown or found.outcome_proven or found.visits >= RELIABLE_SHARE * here.best.visits > 0


def _ply(i: int, state: State, played: Move, here: SearchedPosition | None,
         following: SearchedPosition | None) -> PlyReview:
    assert here is not None  # a position with a move played from it is running
    best = here.best
    found = here.find(played)
    is_best = found is not None and found.move == best.move
    if found is not None and _own_figures(here, found):
        win_after, margin_after, exact_after = found.win, found.margin, found.exact
        proven_after, after_spread = found.outcome_proven, spread(found, depth(here))
    else:
        win_after, margin_after, exact_after = value_after(state, played, following)
        proven_after, after_spread = exact_after, spread_after(state, played, following)
    if is_best:
        win_after, margin_after = best.win, best.margin
    loss = max(0.0, best.win - win_after)
    points_lost = max(0.0, best.margin - margin_after)
    exact = best.exact and exact_after
    # who wins after both moves is proven (margins or not): the drop in win chance is exact
    proven = best.outcome_proven and proven_after
    both = spread(best, depth(here)) + after_spread  # the spread of the difference of the two figures
    loss_error = 0.0 if is_best else CONFIDENCE * both.win
    points_error = 0.0 if is_best else CONFIDENCE * both.margin
    return PlyReview(
        ply=i, player=here.player, played=played, best=best.move, win_before=best.win, win_after=win_after,
        loss=loss, points_lost=points_lost, exact=exact,
        label=label_of(loss, points_lost, is_best, proven, loss_error, points_error),
        played_words=words_in(state, played), best_words=words_in(state, best.move),
        searched=best.searched, loss_error=loss_error, points_error=points_error,
    )


def review_ply(ply: int, state: State, played: Move, here: SearchedPosition,
               following: SearchedPosition | None) -> PlyReview:
    """The review of one ply from the analyses of the position before it (``here``, with the move
    played compared alongside) and after it (None when the game ends there): what ``review_game``
    gives every ply, for the exercises made of a game's mistakes (``apps/practice.py``)."""
    return _ply(ply, state, played, here, following)


def render_review(review: GameReview) -> str:
    """One line per ply with its label, the best move where it differed, then each player's summary."""
    lines = []
    for p in review.plies:
        name = review.players[p.player].name
        line = (f"{p.ply:3d}  {name:<14.14} {p.played_words:<{WORDS_WIDTH}} "
                f"{p.win_before:4.0%} -> {p.win_after:4.0%} {-p.points_lost:6.1f} pts  "
                f"{p.label}{' (exact)' if p.exact else ''}")
        if p.label not in ("best", "good"):
            line += f"; best was {p.best_words}"
        lines.append(line)
    lines.append("")
    if review.final_scores is not None:
        s0, s1 = review.final_scores
        lines.append(f"final score  {review.players[0].name} {s0} : {s1} {review.players[1].name}")
    any_taken = any(player.takebacks for player in review.players)
    for player in review.players:
        lines.append(
            f"{player.name:<14.14} accuracy {player.accuracy:5.1f}%  {_error_rate_words(player)}  "
            f"inaccuracies {player.inaccuracies}  mistakes {player.mistakes}  blunders {player.blunders}"
            + (f"  take-backs {player.takebacks}" if any_taken else "")
        )
    if review.deal is not None:
        lines.append(deal_words(review.deal, [p.name for p in review.players]))
    return "\n".join(lines)


#: The longest move in words (a buy turned and flipped): a column that holds every move whole.
WORDS_WIDTH = 52
def _error_rate_words(player: PlayerReview) -> str:
    """``error rate 2.1% over 24 decisions``: the error rate beside the decisions it is over."""
    return (f"error rate {player.error_rate:5.1%} over {player.decisions} "
            f"decision{'s' if player.decisions != 1 else ''}")


def measures_rule() -> str:
    """Accuracy, error rate and the deal's luck in words: the page's legend beside ``label_rule``."""
    return ("Accuracy: each move scores 103.1668 * exp(-0.04354 * the win chance it lost, in percent) - 3.1669, "
            "within 0-100 (the best move 100); a player's accuracy is the mean over their moves, leaving out "
            f"moves in a game already decided (win chance within {DECIDED:.0%} of 0 or 100%). Error rate: the mean "
            "win chance lost per decision, a decision being a move with a real choice (more than advancing, or "
            "two places for a leather patch) in a game not yet decided. Deal: Player 1's win chance at the start "
            "with this circle against the average over random circles (Player 1's advantage of moving first is "
            "in the average); each player's luck is the difference for them, and the two add up to zero.")


CHART_SUFFIXES = (".svg", ".png")


def chart_target(path: str) -> Path:
    """Where ``--chart`` writes: the name as given (``.svg`` added when it has no suffix); any
    suffix but ``.svg`` or ``.png`` is refused, before the game is analysed."""
    target = Path(path)
    if not target.suffix:
        return target.with_suffix(".svg")
    if target.suffix.lower() not in CHART_SUFFIXES:
        raise RecordError(f"--chart {path}: the chart is written as .svg or .png, not {target.suffix}")
    return target


def write_chart(review: GameReview, path: str) -> str:
    """Write the win-chance chart as SVG, or as PNG for a ``.png`` name, whole or not at all; the
    path written."""
    target = chart_target(path)
    names = [p.name for p in review.players]
    if target.suffix.lower() == ".png":
        write_atomic(target, win_chart_png(review.first_wins, review.marks(), names))
    else:
        write_atomic(target, win_chart_svg(review.first_wins, review.marks(), names))
    return str(target)
