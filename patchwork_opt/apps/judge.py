"""The review's judge: one figure per position, chained from ply to ply, and labels that follow it.

Every position of a game has one ``Figure``: a win chance and an expected final margin, kept for
Player 1 (seat 0), with how sure they are (exact, a proven outcome, or a sampled estimate with its
spread). A ply's figures are the position's before it and the position's after it, seen by the
mover, so the figure after one ply is the figure before the next (``chained_plies``), as lichess's
and KaTrain's reviews show them.

The chain is made from the end backwards, since the end is the best-known figure (a finished game's
is exact). Each position's figure is its analysis's best move, except where the move played settles
it (``judge_ply``):
- the move played is the analysis's best, or comes out at least as good on both figures: it is a best
  move, and the position is worth what the position it led to is worth (the value of a position is
  the value of its best move, seen one ply deeper);
- its difference from the best is within the search's own noise on both figures: it is "about the
  same as the best" (``within_noise``), shown with no drop, and the position again takes the figure
  after it;
- else each figure before is the analysis's best, raised to the figure after where that came out
  higher, so the move played is never shown better than the best.

Labels follow the figures shown and nothing else (``label_of``, stated by ``label_rule``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from patchwork_opt.ai.analysis.position import Spread, depth, spread
from patchwork_opt.ai.base import SearchedPosition
from patchwork_opt.ai.search.exact import final_value
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.words import words_in
from patchwork_opt.i18n import N_, _, number, percent, pgettext

#: (label, the win chance lost from which a move that is not the best gets it), mildest first.
LABELS: tuple[tuple[str, float], ...] = (("inaccuracy", 0.05), ("mistake", 0.10), ("blunder", 0.20))
#: (label, the expected points lost from which a move that is not the best gets it), mildest first:
#: more than the points each grade of ``LABELS`` takes where a point is worth most (one point is at
#: most 6.45% of win chance, the shipped value model's steepest slope, ``win_per_point`` in
#: data/value.json: 0.05, 0.10 and 0.20 are 0.8, 1.6 and 3.1 points there), since a point lost in a
#: decided game still counts and should not make a move there look worse than throwing a close game.
POINT_LABELS: tuple[tuple[str, float], ...] = (("inaccuracy", 2.0), ("mistake", 4.0), ("blunder", 8.0))
BEST, GOOD, BLUNDER = "best", "good", "blunder"
#: The win chance a point lost stands for in the grades: each grade of ``POINT_LABELS`` is its grade of
#: ``LABELS`` at this rate (a test holds the tables to it), so a move is graded by one figure, ``graded_loss``.
GRADE_WIN_PER_POINT = LABELS[0][1] / POINT_LABELS[0][1]
#: Standard deviations of the search's own spread a difference must stand above to be shown (a normal
#: spread's 98% one-sided): below it on both figures, a move is about the same as the best.
CONFIDENCE = 2.0


@dataclass(frozen=True, slots=True)
class Figure:
    """One position's figure for Player 1: ``win`` (0-1) and ``margin`` (points); ``exact`` when both
    are proven, ``proven`` when who wins is; ``spread`` one standard deviation of each (0 where proven)."""

    win: float
    margin: float
    exact: bool
    proven: bool
    spread: Spread

    @classmethod
    def seen_by(cls, player: int, win: float, margin: float, exact: bool, proven: bool,
                noise: Spread) -> Figure:
        """The figure of a position whose ``player`` sees ``win`` and ``margin``."""
        if player == 0:
            return cls(win, margin, exact, proven, noise)
        return cls(1.0 - win, -margin, exact, proven, noise)

    def win_for(self, player: int) -> float:
        return self.win if player == 0 else 1.0 - self.win

    def margin_for(self, player: int) -> float:
        return self.margin if player == 0 else -self.margin


def final_figure(state: State) -> Figure:
    """A finished game's figure: who won and by how much, exact."""
    won = final_value(state, 0) > 0
    return Figure(1.0 if won else 0.0, float(state.score(0) - state.score(1)), True, True, Spread(0.0, 0.0))


def analysed_figure(analysis: SearchedPosition) -> Figure:
    """A position's figure as its own analysis values it: its best move's."""
    best = analysis.best
    return Figure.seen_by(analysis.player, best.win, best.margin, best.exact, best.outcome_proven,
                          spread(best, depth(analysis)))


def position_figure(state: State, analysis: SearchedPosition | None) -> Figure:
    """The figure of ``state``: exact when the game is over there, else its analysis's."""
    if state.is_terminal():
        return final_figure(state)
    if analysis is None or not analysis.moves:
        raise ValueError("a running position needs its analysis")
    return analysed_figure(analysis)


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
    #: the mover's expected final margin before and after the ply (``points_lost`` their difference)
    margin_before: float
    margin_after: float
    exact: bool
    played_words: str
    best_words: str
    #: the win chance the search backed up for the best move, before the win map (``AnalysedMove.searched``)
    searched: float | None = None
    #: the search's own noise on ``loss`` and ``points_lost`` (``CONFIDENCE`` standard deviations of the
    #: difference): a move within it on both is about the same as the best
    loss_error: float = 0.0
    points_error: float = 0.0
    #: the move's difference from the best was within the search's noise: shown as none
    within_noise: bool = False
    #: the mover's win chance as the position's own analysis gave it (its best move's), before the
    #: chain: what a hint of the position shows (the calibration bench judges it), and whether that
    #: analysis proved it (the chain may carry a proven result back to a position sampled)
    analysed_win: float = 0.0
    analysed_exact: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply, "player": self.player, "played": self.played.to_json(), "played_words": self.played_words,
            "best": self.best.to_json(), "best_words": self.best_words,
            "win_before": round(self.win_before, 4), "win_after": round(self.win_after, 4),
            "margin_before": round(self.margin_before, 2), "margin_after": round(self.margin_after, 2),
            "loss": round(self.loss, 4), "points_lost": round(self.points_lost, 2),
            "loss_error": round(self.loss_error, 4), "points_error": round(self.points_error, 2), "label": self.label,
            "within_noise": self.within_noise, "exact": self.exact,
        }


def graded_loss(loss: float, points_lost: float) -> float:
    """What a move shown losing ``loss`` win chance and ``points_lost`` expected points lost, as one
    win chance: the worse of the two, a point at ``GRADE_WIN_PER_POINT`` (labels and accuracy read it)."""
    return max(loss, points_lost * GRADE_WIN_PER_POINT)


def label_of(loss: float, points_lost: float, is_best: bool) -> str:
    """The label of a move shown losing ``loss`` win chance and ``points_lost`` expected points
    against the best move: ``best`` for the best move, else the worse of its grade in win chance
    (``LABELS``) and its grade in points (``POINT_LABELS``), ``good`` when it reaches neither. A
    function of the figures shown alone, and monotone in both."""
    if is_best:
        return BEST
    lost = graded_loss(loss, points_lost)
    label = GOOD
    for name, chance in LABELS:
        if lost >= chance - 1e-9:
            label = name
    return label


def label_words(label: str) -> str:
    """A label (``best``, ``good``, ``inaccuracy``, ``mistake``, ``blunder``: JSON keeps these) in the
    language in effect."""
    words = {
        # Translators: a move's label in a review (the analysis words of lichess): the best move
        BEST: pgettext("move label", "best"),
        # Translators: a move's label in a review: not the best, but it lost too little to be an inaccuracy
        GOOD: pgettext("move label", "good"),
        # Translators: a move's label in a review (lichess's word)
        "inaccuracy": pgettext("move label", "inaccuracy"),
        # Translators: a move's label in a review (lichess's word)
        "mistake": pgettext("move label", "mistake"),
        # Translators: a move's label in a review (lichess's word)
        BLUNDER: pgettext("move label", "blunder"),
    }
    return words[label]


#: Each grade of the label rule, as the rule says it (a label's threshold in win chance and in points).
_GRADE_WORDS = {
    # Translators: a grade of the label rule: {chance} win chance ("5%") or {points} points lost
    "inaccuracy": N_("an inaccuracy from {chance} or {points} points"),
    # Translators: a grade of the label rule: {chance} win chance ("10%") or {points} points lost
    "mistake": N_("a mistake from {chance} or {points} points"),
    # Translators: a grade of the label rule: {chance} win chance ("20%") or {points} points lost
    "blunder": N_("a blunder from {chance} or {points} points"),
}


def label_rule() -> str:
    """The rule ``label_of`` follows, in the one sentence the page's legend and the terminal show."""
    grades = ", ".join(_(_GRADE_WORDS[name], chance=percent(chance), points=number(points))
                       for (name, chance), (_name, points) in zip(LABELS, POINT_LABELS, strict=True))
    # Translators: the rule of a review's labels; {grades}: "an inaccuracy from 5% or 2 points, a mistake ..."
    return _("A move's label follows the two figures shown beside it, the win chance and the points it lost "
             "against the best move: {grades}, whichever is worse; a difference within the analysis's own "
             "margin of error is shown as none (about the same as the best).", grades=grades)


def judge_ply(i: int, state: State, played: Move, here: SearchedPosition, after: Figure) -> tuple[PlyReview, Figure]:
    """Ply ``i``'s review from the analysis of the position before it (``here``, the move played
    compared alongside) and the figure of the position after it (``after``, already chained), with
    the figure of the position before it that the chain goes on with (module docstring)."""
    p = here.player
    best = here.best
    own = analysed_figure(here)
    win_b, margin_b = own.win_for(p), own.margin_for(p)
    win_a, margin_a = after.win_for(p), after.margin_for(p)
    found = here.find(played)
    is_best = found is not None and found.move == best.move
    noise = own.spread + after.spread
    loss_error = 0.0 if own.proven and after.proven else CONFIDENCE * noise.win
    points_error = 0.0 if own.exact and after.exact else CONFIDENCE * noise.margin
    loss, points_lost = win_b - win_a, margin_b - margin_a
    at_least_as_good = loss <= 0.0 and points_lost <= 0.0
    within_noise = not (is_best or at_least_as_good) and loss <= loss_error and points_lost <= points_error
    if is_best or at_least_as_good or within_noise:
        before = after  # the position is worth what the move played led to
    else:
        raised_win, raised_margin = max(win_b, win_a), max(margin_b, margin_a)
        before = Figure.seen_by(p, raised_win, raised_margin,
                                own.exact and after.exact if raised_margin > margin_b else own.exact,
                                own.proven and after.proven if raised_win > win_b else own.proven, own.spread)
    loss = before.win_for(p) - win_a
    points_lost = before.margin_for(p) - margin_a
    # a move at least as good as the analysis's best is the best: it is named as such
    shown_best = played if at_least_as_good and not is_best else best.move
    review = PlyReview(
        ply=i, player=p, played=played, best=shown_best, win_before=before.win_for(p), win_after=win_a, loss=loss,
        points_lost=points_lost, margin_before=before.margin_for(p), margin_after=margin_a,
        label=label_of(loss, points_lost, is_best or at_least_as_good), exact=before.exact and after.exact,
        played_words=words_in(state, played), best_words=words_in(state, shown_best), searched=best.searched,
        loss_error=loss_error, points_error=points_error, within_noise=within_noise, analysed_win=win_b,
        analysed_exact=own.exact,
    )
    return review, before


def chained_plies(states: Sequence[State], moves: Sequence[Move],
                  analyses: Sequence[SearchedPosition | None]) -> tuple[list[PlyReview], list[Figure]]:
    """Every ply's review and every position's figure (``states``: before each move and after the
    last; ``analyses`` by position, None where the game is over), chained from the end backwards."""
    figures = [position_figure(states[-1], analyses[-1])]
    plies: list[PlyReview] = []
    for i in reversed(range(len(moves))):
        here = analyses[i]
        assert here is not None  # a position with a move played from it is running
        ply, before = judge_ply(i, states[i], moves[i], here, figures[-1])
        plies.append(ply)
        figures.append(before)
    return plies[::-1], figures[::-1]


def decided_at(first_wins: Sequence[float], margin: float) -> int | None:
    """The first ply from which Player 1's win chance stayed within ``margin`` of the finished game's
    result (``first_wins``: before each ply, then the result): the moves after it changed only the
    margin; None when the last figure is not a result."""
    final = first_wins[-1]
    if final not in (0.0, 1.0):
        return None
    ply = len(first_wins) - 1
    while ply > 0 and abs(first_wins[ply - 1] - final) <= margin:
        ply -= 1
    return ply


def accounted_swing(plies: Sequence[PlyReview]) -> float:
    """Player 1's win chance lost to their own moves minus what Player 2 lost to theirs: with the
    chain, Player 1's figure at the first ply minus their figure after the last."""
    return math.fsum(p.loss if p.player == 0 else -p.loss for p in plies)
