"""A review's bodies (``routers/reviews.py``): each ply judged, the players' measures, the deal, the whole
review, and a teaching game's verdict on a move.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from patchwork_opt.apps.chart import win_chart_svg
from patchwork_opt.apps.judge import PlyReview, label_rule
from patchwork_opt.apps.review import GameReview, measures_rule, summary_words
from patchwork_opt.apps.web.schemas.common import Seat
from patchwork_opt.formats.models import MoveModel


class JudgedPly(BaseModel):
    """What a review and a teaching verdict say of one ply (``ReviewedPly``, ``MoveVerdict``)."""

    ply: int
    player: int
    played: MoveModel
    played_words: str = Field(description="the move played, in words (core/words.py)")
    best: MoveModel = Field(description="the AI's best move of the position (the move played when best)")
    best_words: str = Field(description="the best move, in words")
    win_before: float = Field(description="the mover's win chance in the position before the move (the figure after "
                                          "the previous ply: the figures chain), 0-1")
    win_after: float = Field(description="the mover's win chance in the position after the move played, 0-1")
    loss: float = Field(description="win_before - win_after (at least 0)")
    points_lost: float = Field(description="margin_before - margin_after (at least 0)")
    loss_error: float = Field(description="the analysis's own margin of error on loss (0 when proven): a move within "
                                          "it and points_error is about the same as the best, shown with no loss")
    points_error: float = Field(description="the analysis's own margin of error on points_lost, in points")
    within_noise: bool = Field(default=False, description="the move's difference from the best was within the "
                                                          "analysis's margin of error: about the same as the best, "
                                                          "shown with no loss")
    label: Literal["best", "good", "inaccuracy", "mistake", "blunder"] = Field(
        description="follows loss and points_lost alone (label_rule)")
    exact: bool = Field(description="both figures come from an exhaustive search of the rest of the game")
    played_text: str = Field(description="the move played, in words (as played_words, kept for older pages)")
    best_text: str = Field(description="the best move, in words (as best_words, kept for older pages)")


class ReviewedPly(JudgedPly):
    """One ply of the review, as ``patchwork analyze --json`` prints it, plus the moves in words."""

    margin_before: float = Field(description="the mover's expected final margin before the move, in points")
    margin_after: float = Field(description="the mover's expected final margin after the move, in points")


#: The labels that make a teaching game's verdict offer a take-back.
FLAGGED = ("mistake", "blunder")


class MoveVerdict(JudgedPly):
    """A teaching game's verdict on one of your moves, right after it: the review's ply for it (the
    same analysis, labels by ``label_rule``), with whether it is flagged."""

    flagged: bool = Field(description="a mistake or a blunder: say so, draw the best move and offer a take-back "
                                      "(POST /api/games/{id}/undo takes your last move back)")
    # a verdict a server stored before the figures chained has no margins: it still reads back
    margin_before: float | None = Field(default=None, description="the mover's expected final margin before the "
                                        "move, in points (null in a verdict stored by an older server)")
    margin_after: float | None = Field(default=None, description="the mover's expected final margin after the "
                                       "move, in points (null in a verdict stored by an older server)")


def reviewed_ply(p: PlyReview) -> dict[str, Any]:
    """A review's ply as the service shows it: ``analyze --json``'s, with the moves in words."""
    return {**p.to_json(), "played_text": p.played_words, "best_text": p.best_words}


def move_verdict(p: PlyReview) -> MoveVerdict:
    return MoveVerdict.model_validate({**reviewed_ply(p), "flagged": p.label in FLAGGED})


class ReviewedPlayer(BaseModel):
    name: str
    accuracy: float = Field(description="0-100: 100 when every move was the best")
    inaccuracies: int
    mistakes: int
    blunders: int
    error_rate: float = Field(description="the mean win chance lost (0-1) per decision: a move with a real choice in "
                                          "a game not yet decided")
    decisions: int = Field(description="the decisions the error rate is over")
    takebacks: int = Field(description="moves this player took back")
    points_per_decision: float = Field(description="the mean expected points lost per move with a real choice, a "
                                                   "decided game's moves included")


class DealView(BaseModel):
    """The deal: how much the circle favoured each player, apart from how anyone played."""

    first_win: float = Field(description="Player 1's win chance at the start with this circle, 0-1")
    average_first_win: float = Field(description="Player 1's win chance at the start over random circles, 0-1")
    luck: list[float] = Field(description="each player's deal luck, by seat: first_win - average_first_win for "
                                          "Player 1, its opposite for Player 2 (they add up to 0)")
    circles: int = Field(description="the random circles the average is over")


class GameReviewView(BaseModel):
    """``patchwork analyze --json`` for a stored game, plus the human's seat and the chart."""

    plies: list[ReviewedPly]
    players: list[ReviewedPlayer] = Field(description="by seat: Player 1 first")
    first_wins: list[float] = Field(description="Player 1's win chance before each ply, then after the last")
    final_scores: list[int] | None = Field(description="the scores when the game is over, else null")
    decided_at: int | None = Field(description="the ply from which the result was settled (later moves changed only "
                                               "the margin); null while the game is not over")
    summary: str = Field(description="what the result reflects, in words: who won, when the game was decided, the "
                                     "points each player lost per decision")
    seat: Seat = Field(description="the human's seat")
    seconds_per_move: float = Field(description="analysis time per position (the request's, capped by the server)")
    chart_svg: str = Field(description="the win-chance chart (patchwork analyze --chart), marks carry data-ply")
    label_rule: str = Field(description="the rule the labels follow, in words (the page's legend)")
    deal: DealView | None = Field(description="the deal's luck; null for leather spaces of no printing")
    measures_rule: str = Field(description="accuracy, error rate and the deal's luck in words (the page's legend)")


def review_view(review: GameReview, seat: int, seconds_per_move: float) -> GameReviewView:
    plies = [ReviewedPly.model_validate(reviewed_ply(p)) for p in review.plies]
    data = review.to_json()
    chart = win_chart_svg(review.first_wins, review.marks(), [review.seated(0), review.seated(1)])
    return GameReviewView(
        plies=plies, players=[ReviewedPlayer.model_validate(p) for p in data["players"]],
        first_wins=data["first_wins"], final_scores=data["final_scores"], decided_at=data["decided_at"],
        summary=summary_words(review), seat=0 if seat == 0 else 1,
        seconds_per_move=round(seconds_per_move, 4), chart_svg=chart,
        label_rule=label_rule(), deal=None if review.deal is None else DealView.model_validate(data["deal"]),
        measures_rule=measures_rule(),
    )
