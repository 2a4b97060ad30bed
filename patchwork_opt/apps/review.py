"""Game review: every ply of a record against the AI's analysis (``patchwork analyze``).

One figure per position, chained, as lichess's and KaTrain's reviews show them. Every position of
the game is analysed once (``analyse_position``, the move played compared alongside), and has one
win chance and one expected final margin (``Figure``, kept for Player 1). A ply's figures are the
position's before it and the position's after it, both seen by the mover: ``win_before`` and
``win_after``, ``loss`` their difference, ``points_lost`` the same for the margin. So the figure
after one ply is the figure before the next, and each player's losses add up to the game's swing
after the deal: in Patchwork the only chance is the deal, so every later swing is some player's move.

The chain is made from the end backwards (``chained_plies``): the finished game's figure is exact,
and each position's figure is its analysis's best move, except where the move played settles it:
- the move played is the analysis's best (a hint's first move, read from the same cached analysis), or
  it comes out at least as good on both figures: it is a best move, and the position's figure is the
  figure of the position it led to (the value of a position is that of its best move, seen one ply
  deeper: never "8% -> 27%, the best move keeping 8%", nor a best move shown dropping);
- its difference from the best is within the search's own noise on both figures (``CONFIDENCE``
  standard deviations of ``position.spread`` of each figure): it is "about the same as the best"
  (``within_noise``), shown so, with no drop, and the position's figure is again the one after it;
- else each figure before is the analysis's best, raised to the figure after where that came out
  higher (the move played is never shown better than the best).

Labels follow the figures shown and nothing else (``label_of``, the rule the page's legend states,
``label_rule``): a move that is not the best gets the worse of its grade in win chance lost (5%, 10%,
20%: ``LABELS``) and in points lost (2, 4, 8: ``POINT_LABELS``). So a shown drop of 10% or 3 points
is never "good", and within a game a move worse on both figures never gets a milder label. The
exercises' judge (``apps/practice.grade``) and a teaching game's verdict (``review_move``: the ply
judged with what is known right after it, the position it led to valued by its own analysis) use it
too. Measured (docs/review.md): a random player against the solver, and games between levels.

A player's accuracy is lichess's (docs/review.md): each move scores
``103.1668 * exp(-0.04354 * (win% before - win% after)) - 3.1669`` plus lichess's 1, kept within
0-100, the loss being the worse of the win chance and the points lost (a point at the labels'
rate, ``judge.graded_loss``), so a best move scores 100 and a move that throws away a won game or
a heap of points about 0; a player's
accuracy is the mean of the volatility-weighted mean and the harmonic mean of their moves' scores
(``accuracy_of``, ``volatility_weights``), leaving out moves in a game already decided (the win
chance within ``DECIDED`` of 0 or 1, and kept so): any move is as good there, and counting them
would pull both players to 100.
What a decided game's moves still change, the margin, counts in the points lost per decision, and
the summary (``summary_words``) says when the game was decided and who won by how much.

Luck apart from skill (docs/review.md), as GNU Backgammon and eXtreme Gammon report it: the deal
(``apps/deal.py``: Player 1's win chance at the start with this circle against the average circle,
each player's luck the difference, zero-sum) and each player's error rate (``error_rate_of``: the
mean win chance lost per decision that had a real choice, eXtreme Gammon's performance rating in
win chance). A record's take-backs (moves played then undone, a teaching game's) are counted per
player (``takebacks_of``).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from patchwork_opt.ai.analysis.position import analyse_position
from patchwork_opt.ai.base import SearchedPosition
from patchwork_opt.apps.chart import win_chart_png, win_chart_svg
from patchwork_opt.apps.deal import Deal, deal_of, deal_words
from patchwork_opt.apps.judge import (
    BLUNDER,
    GRADE_WIN_PER_POINT,
    LABELS,
    Figure,
    PlyReview,
    chained_plies,
    decided_at,
    graded_loss,
    judge_ply,
    label_words,
    position_figure,
)
from patchwork_opt.apps.seated import Seated, named, numbered, won_words
from patchwork_opt.core.advice import PlacementAdvisor
from patchwork_opt.core.clock import deadline_after
from patchwork_opt.core.errors import PatchworkError, RecordError, words
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.core.symmetry import canonical
from patchwork_opt.formats.record import Record, write_atomic
from patchwork_opt.i18n import _, ngettext, number, percent, pgettext

#: lichess's move accuracy from the drop in win percent (0-100): A * exp(-K * drop) + B.
ACCURACY_A, ACCURACY_K, ACCURACY_B = 103.1668, 0.04354, -3.1669
ACCURACY_BONUS = 1.0  # lichess's allowance for the analysis's uncertainty, added to a move that lost some
DECIDED = 0.03  # a win chance this close to 0 or 1 is a decided game
#: Close calls (``close_calls``): at most this share of a game's plies have both their positions
#: analysed again, ``REFINE_DEPTH`` times as long as the rest, where a label's edge lies within
#: the figures' margin of error (the review's time spent where it can change a verdict).
REFINE_SHARE = 0.2
REFINE_DEPTH = 2

Progress = Callable[[str, float, float], None]
#: ``analyse(state, extra)``: a position's analysis with ``extra`` (the move played) compared alongside.
PositionAnalyser = Callable[[State, Sequence[Move]], SearchedPosition]


class ReviewError(PatchworkError):
    """A record that cannot be reviewed (no moves)."""


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
    #: the mean expected points lost per decision, the game's decided part included (its margin counts)
    points_per_decision: float = 0.0
    #: who plays in this seat, for the sentences about them (``name`` is its label)
    seated: Seated | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "accuracy": round(self.accuracy, 1), "inaccuracies": self.inaccuracies,
                "mistakes": self.mistakes, "blunders": self.blunders, "error_rate": round(self.error_rate, 4),
                "decisions": self.decisions, "takebacks": self.takebacks,
                "points_per_decision": round(self.points_per_decision, 2)}


@dataclass(frozen=True, slots=True)
class GameReview:
    plies: list[PlyReview]
    players: list[PlayerReview]
    first_wins: list[float]  # player 1's win chance before each ply, then after the last move
    final_scores: tuple[int, int] | None  # when the record is a finished game
    seconds_per_move: float
    deal: Deal | None = None  # None when no average was measured for the record's leather spaces

    @property
    def decided_at(self) -> int | None:
        """The ply from which the result stayed within ``DECIDED`` (``judge.decided_at``)."""
        return decided_at(self.first_wins, DECIDED)

    def to_json(self) -> dict[str, Any]:
        return {
            "plies": [p.to_json() for p in self.plies],
            "players": [p.to_json() for p in self.players],
            "first_wins": [round(w, 4) for w in self.first_wins],
            "final_scores": list(self.final_scores) if self.final_scores is not None else None,
            "decided_at": self.decided_at,
            "summary": summary_words(self),
            "deal": self.deal.to_json() if self.deal is not None else None,
        }

    def seated(self, seat: int) -> Seated:
        """Who played in ``seat`` (a review made before seats were kept: the player's name)."""
        player = self.players[seat]
        return player.seated if player.seated is not None else named(player.name)

    def marks(self) -> list[tuple[int, str, str]]:
        """(ply, label, title) of each inaccuracy, mistake and blunder, for the chart."""
        return [
            # Translators: a mark's title on the win-chance chart: the ply, who moved, the label, the
            # move played and the best one, the win chance ({loss}: "12%") and points ({points}: "2.5") lost
            (p.ply, p.label, _("ply {ply}, {name}: {label} ({played}; best: {best}; -{loss}, {points} points lost)",
                               ply=p.ply, name=self.players[p.player].name, label=label_words(p.label),
                               played=p.played_words, best=p.best_words, loss=percent(p.loss),
                               points=number(p.points_lost, 1)))
            for p in self.plies
            if p.label in ("inaccuracy", "mistake", BLUNDER)
        ]


def counts_for_accuracy(ply: PlyReview) -> bool:
    return DECIDED < ply.win_before < 1.0 - DECIDED or ply.loss >= DECIDED


def move_accuracy(loss: float) -> float:
    """lichess's accuracy of a move losing ``loss`` (0-1) win chance, within 0-100: 100 for a move
    that lost nothing, else the formula plus lichess's one point for the analysis's uncertainty."""
    if loss <= 0.0:
        return 100.0
    raw = ACCURACY_A * math.exp(-ACCURACY_K * 100.0 * loss) + ACCURACY_B + ACCURACY_BONUS
    return min(100.0, max(0.0, raw))


def volatility_weights(first_wins: Sequence[float]) -> list[float]:
    """lichess's weight of each ply in a player's accuracy: the standard deviation of the win chance
    (in percent, either side's: ``first_wins``, before each ply and after the last) over a window of
    ``len / 10`` positions (2 to 8) starting at the ply (the first plies share the first window),
    within 0.5-12: moves where the game swung count more than moves in a quiet or decided stretch."""
    series = [100.0 * w for w in first_wins]
    size = min(max((len(series) - 1) // 10, 2), 8)
    windows = [series[:size]] * (min(size, len(series)) - 2)
    windows += [series[i:i + size] for i in range(len(series) - size + 1)]
    return [min(12.0, max(0.5, statistics.pstdev(window))) for window in windows[:len(series) - 1]]


def accuracy_of(plies: Sequence[PlyReview], weights: Sequence[float]) -> float:
    """A player's accuracy from their plies, as lichess makes a game's (``weights`` by ply:
    ``volatility_weights``): the mean of the volatility-weighted mean and the harmonic mean of the
    accuracies of their moves that count (``counts_for_accuracy``), so one move that threw the game
    away weighs as it should; 100 with no such move. A move scores what its label reads, the worse of
    its win chance and its points lost (``graded_loss``): points given away count in a lopsided game."""
    counted = [(move_accuracy(graded_loss(p.loss, p.points_lost)), weights[p.ply])
               for p in plies if counts_for_accuracy(p)]
    if not counted:
        return 100.0
    weighted = sum(a * w for a, w in counted) / sum(w for _, w in counted)
    harmonic = len(counted) / sum(1.0 / max(1.0, a) for a, _ in counted)
    return (weighted + harmonic) / 2.0


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


def points_per_decision(plies: Sequence[PlyReview], choices: Sequence[bool]) -> float:
    """The mean expected points a player lost per move with a real choice, a decided game's too:
    the margin they still gave away (0 with no such move)."""
    lost = [p.points_lost for p in plies if choices[p.ply]]
    return sum(lost) / len(lost) if lost else 0.0


def takebacks_of(record: Record, states: Sequence[State]) -> tuple[int, int]:
    """Moves each player took back (``record.takebacks``), each checked legal where it was played
    (``states``: the record's positions); a take-back that was not is a RecordError naming it."""
    counts = [0, 0]
    for i, taken in enumerate(record.takebacks):
        state = states[taken.ply] if taken.ply < len(states) else None
        if state is None or state.is_terminal():
            raise RecordError(_("takebacks[{i}]: no move can be played at ply {ply} of this record", i=i,
                                ply=taken.ply))
        try:
            state.check(taken.move)
        except PatchworkError as exc:
            raise RecordError(_("takebacks[{i}]: {move} cannot have been played at ply {ply}: {error}", i=i,
                                move=str(taken.move), ply=taken.ply, error=words(exc))) from None
        counts[state.to_move()] += 1
    return counts[0], counts[1]


def _with_skill(players: list[PlayerReview], plies: Sequence[PlyReview], states: Sequence[State],
                takebacks: tuple[int, int]) -> list[PlayerReview]:
    """``players`` (by seat) with their error rates, decisions and take-backs (``states``: the positions
    before each ply and after the last)."""
    choices = [had_choice(state) for state in states[:len(plies)]]
    out = []
    for seat, player in enumerate(players):
        own = [p for p in plies if p.player == seat]
        rate, decisions = error_rate_of(own, choices)
        out.append(replace(player, error_rate=rate, decisions=decisions, takebacks=takebacks[seat],
                           points_per_decision=points_per_decision(own, choices)))
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
    deeper: PositionAnalyser | None = None,
    with_deal: bool = True,
    seats: Sequence[Seated] | None = None,
) -> GameReview:
    """Review every ply of ``record`` (``seconds`` or ``iterations`` per position analysed), and its deal
    (``with_deal``); ``seats`` says who played (the record's player names, else Player 1 and 2); a set
    ``stop`` (nobody waits for the review any more) ends it with ReviewError.
    ``analyse(state, extra)`` replaces ``analyse_position`` for each position (the service's analysis cache).
    The close calls (``close_calls``) have both their positions analysed again by ``deeper``: with the
    review's own analyses, ``REFINE_DEPTH`` times as long; with ``analyse`` given, only when ``deeper`` is."""
    if not record.moves:
        raise ReviewError(_("the record has no moves to review"))
    record.replay()  # a move the rules refuse is reported with its ply before any search
    states: list[State] = [record.initial_state()]
    for move in record.moves:
        after = states[-1].clone()
        after.apply(move)
        states.append(after)
    taken = takebacks_of(record, states)  # a corrupt take-back is refused before any search too
    if analyse is None:
        analyse, deeper = _own_analyses(seconds, iterations, seed, advisor, stop)
    analyses = _analysed(states, record.moves, analyse, progress, stop)
    plies, figures = chained_plies(states, record.moves, analyses)
    if deeper is not None:
        first = plies
        plies, figures = _close_calls_again(states, record.moves, analyses, plies, deeper, progress, stop)
        # what a hint of each position at the review's depth shows (the calibration judges it), not the deeper look
        plies = [replace(p, analysed_win=f.analysed_win, analysed_exact=f.analysed_exact)
                 for p, f in zip(plies, first, strict=True)]
    first_wins = [figure.win for figure in figures]
    if seats is None:
        seats = [named(name) for name in record.players] if record.players else numbered()
    players = _with_skill(_players(seats, plies, first_wins), plies, states, taken)
    end = states[-1]
    final = (end.score(0), end.score(1)) if end.is_terminal() else None
    return GameReview(plies, players, first_wins, final, seconds or 0.0, deal_of(record) if with_deal else None)


def _own_analyses(seconds: float | None, iterations: int | None, seed: int, advisor: PlacementAdvisor | None,
                  stop: StopSignal | None) -> tuple[PositionAnalyser, PositionAnalyser]:
    """The review's own analyses of a position (``analyse_position``, each with its own deadline made as
    it starts: the time per ply is the edge), and the deeper ones of its close calls."""

    def at(depth: int) -> PositionAnalyser:
        def analyse(state: State, extra: Sequence[Move]) -> SearchedPosition:
            deadline = deadline_after(seconds * depth) if iterations is None and seconds is not None else None
            return analyse_position(state, deadline=deadline, iterations=None if iterations is None else
                                    iterations * depth, seed=seed, advisor=advisor, extra=extra, stop=stop)
        return analyse

    return at(1), at(REFINE_DEPTH)


def _analysed(states: Sequence[State], moves: Sequence[Move], analyse: PositionAnalyser, progress: Progress | None,
              stop: StopSignal | None) -> list[SearchedPosition | None]:
    """Each position's analysis, the move played from it compared alongside (None where the game is over)."""
    total = len(states) - (1 if states[-1].is_terminal() else 0)
    analyses: list[SearchedPosition | None] = []
    for i, state in enumerate(states):
        if state.is_terminal():
            analyses.append(None)
            continue
        if stop is not None and stop.is_set():
            raise ReviewError(_("the review was stopped before its end"))
        analyses.append(analyse(state, [moves[i]] if i < len(moves) else []))
        if progress is not None:
            progress(_("analysing positions"), i + 1, total)
    return analyses


def close_calls(plies: Sequence[PlyReview], share: float = REFINE_SHARE) -> list[int]:
    """The plies whose label an analysis at another depth could change, at most ``share`` of them,
    closest first, returned in ply order: a move's graded loss (``judge.graded_loss``) within its
    margin of error of a label's edge, or a move shown as about the same as the best whose margin
    of error reaches the first edge. Proven figures are no close call."""
    scored = []
    for p in plies:
        noise = max(p.loss_error, p.points_error * GRADE_WIN_PER_POINT)
        if noise <= 0.0 or p.exact or (p.label == "best" and not p.within_noise):
            continue
        if p.within_noise:
            distance = max(0.0, LABELS[0][1] - noise) / noise
        else:
            lost = graded_loss(p.loss, p.points_lost)
            distance = min(abs(lost - edge) for _, edge in LABELS) / noise
        if distance <= 1.0:
            scored.append((distance, p.ply))
    kept = sorted(scored)[:max(1, int(share * len(plies)))]
    return sorted(ply for _, ply in kept)


def _close_calls_again(states: Sequence[State], moves: Sequence[Move], analyses: list[SearchedPosition | None],
                       plies: list[PlyReview], deeper: PositionAnalyser, progress: Progress | None,
                       stop: StopSignal | None) -> tuple[list[PlyReview], list[Figure]]:
    """The review's time spent where the figures are close to a label's edge: both positions of each
    close call analysed again by ``deeper`` (the move played compared alongside, both at one depth),
    then the chain made again."""
    again = sorted({j for i in close_calls(plies) for j in (i, i + 1) if not states[j].is_terminal()})
    for done, j in enumerate(again, start=1):
        if stop is not None and stop.is_set():
            raise ReviewError(_("the review was stopped before its end"))
        analyses[j] = deeper(states[j], [moves[j]] if j < len(moves) else [])
        if progress is not None:
            progress(_("checking the close calls again, deeper"), done, len(again))
    return chained_plies(states, moves, analyses)


def _players(seats: Sequence[Seated], plies: Sequence[PlyReview], first_wins: Sequence[float]) -> list[PlayerReview]:
    """Each seat's accuracy and labels counted (``_with_skill`` adds the rest)."""
    weights = volatility_weights(first_wins)
    players = []
    for seat in (0, 1):
        own = [p for p in plies if p.player == seat]
        players.append(PlayerReview(
            name=seats[seat].label(), seated=seats[seat], accuracy=accuracy_of(own, weights),
            inaccuracies=sum(p.label == "inaccuracy" for p in own), mistakes=sum(p.label == "mistake" for p in own),
            blunders=sum(p.label == BLUNDER for p in own),
        ))
    return players


def review_move(state: State, played: Move, analyse: PositionAnalyser, ply: int = 0) -> PlyReview:
    """One move judged as ``review_game`` judges a ply (a teaching game's verdict, right after the
    move), with what is known then: the position before it analysed with the move compared
    alongside, and the position it leads to valued by its own analysis (the game's end by its result),
    as a review of the game stopped after this move judges its last ply."""
    here = analyse(state, [played])
    after = state.clone()
    after.apply(played)
    following = None if after.is_terminal() else analyse(after, [])
    return review_ply(ply, state, played, here, following)


def review_ply(ply: int, state: State, played: Move, here: SearchedPosition,
               following: SearchedPosition | None) -> PlyReview:
    """The review of one ply from the analyses of the position before it (``here``, with the move
    played compared alongside) and after it (None when the game ends there), the position after
    valued by its own analysis: ``review_move``'s judgement."""
    after = state.clone()
    after.apply(played)
    return judge_ply(ply, state, played, here, position_figure(after, following))[0]


def summary_words(review: GameReview) -> str:
    """What the game's result reflects, in a line above the players' figures: who won by how much,
    when the game was decided (from that move on, moves changed only the margin) and the points each
    player lost per decision, so a heavy loss never reads as a near-perfect game."""
    if review.final_scores is None:
        said = _("The game is not over")
    else:
        s0, s1 = review.final_scores
        winner = 0 if review.first_wins[-1] == 1.0 else 1
        high, low = (s0, s1) if winner == 0 else (s1, s0)
        said = won_words(review.seated(winner), high, low)
    decided = review.decided_at
    if decided is not None and decided < len(review.plies):
        # Translators: {said} is the result ("Player 1 won, 20 to 12"); {move} the move that decided the game
        said = _("{said}; decided at move {move}: after that, moves changed only the margin", said=said,
                 move=decided + 1)
    lost = ", ".join(f"{p.name} {number(p.points_per_decision, 1)}" for p in review.players)
    # Translators: {said} is the result; {lost}: each player's points lost per decision ("Player 1 0.4, Player 2 1.2")
    return _("{said}. Points lost per decision: {lost}.", said=said, lost=lost)


def verdict_words(p: PlyReview) -> str:
    """A ply's label as the text review says it: "about the same as the best" within the noise."""
    # Translators: a move's verdict when it is within the analysis's margin of error of the best move
    return _("about the same as the best") if p.within_noise else label_words(p.label)


def render_review(review: GameReview) -> str:
    """One line per ply with its label, the best move where it differed, then the game's summary and
    each player's figures."""
    lines = []
    for p in review.plies:
        name = review.players[p.player].name
        # Translators: a reviewed move's verdict ("mistake") when its figures are proven
        verdict = _("{verdict} (exact)", verdict=verdict_words(p)) if p.exact else verdict_words(p)
        # Translators: the unit of points lost in the review's table, short ("pts")
        pts = pgettext("points, short", "pts")
        line = (f"{p.ply:3d}  {name:<14.14} {p.played_words:<{WORDS_WIDTH}} "
                f"{percent(p.win_before):>4} -> {percent(p.win_after):>4} {number(-p.points_lost, 1):>6} {pts}  "
                f"{verdict}")
        if p.label not in ("best", "good"):
            # Translators: follows a reviewed move's line: the best move, in words
            line = _("{line}; best was {best}", line=line, best=p.best_words)
        lines.append(line)
    lines.append("")
    if review.final_scores is not None:
        s0, s1 = review.final_scores
        # Translators: the final score: Player 1's name and score, then Player 2's score and name
        lines.append(_("final score  {first} {s0} : {s1} {second}", first=review.players[0].name, s0=s0, s1=s1,
                       second=review.players[1].name))
    lines.append(summary_words(review))
    any_taken = any(player.takebacks for player in review.players)
    for player in review.players:
        lines.append(_player_line(player, any_taken))
    if review.deal is not None:
        lines.append(deal_words(review.deal, [p.name for p in review.players]))
    return "\n".join(lines)


#: The longest move in words (a buy turned and flipped): a column that holds every move whole.
WORDS_WIDTH = 52
def _player_line(player: PlayerReview, any_taken: bool) -> str:
    """A player's figures under the review: accuracy, error rate, the labels' counts (take-backs too
    where the game had any)."""
    # Translators: a player's figures in a review ({accuracy}: "87.5"); lichess's analysis words
    line = _("{name} accuracy {accuracy}%  {error_rate}  inaccuracies {inaccuracies}  mistakes {mistakes}  "
             "blunders {blunders}", name=f"{player.name:<14.14}", accuracy=f"{number(player.accuracy, 1):>5}",
             error_rate=_error_rate_words(player), inaccuracies=player.inaccuracies, mistakes=player.mistakes,
             blunders=player.blunders)
    # Translators: follows a player's figures: the moves they took back
    return _("{line}  take-backs {takebacks}", line=line, takebacks=player.takebacks) if any_taken else line


def _error_rate_words(player: PlayerReview) -> str:
    """``error rate 2.1% over 24 decisions``: the error rate beside the decisions it is over."""
    # Translators: the mean win chance a player lost per decision ({rate}: "2.1%") over {count} decisions
    return ngettext("error rate {rate} over {count} decision", "error rate {rate} over {count} decisions",
                    player.decisions, rate=f"{percent(player.error_rate, 1):>5}")


def measures_rule() -> str:
    """Accuracy, error rate and the deal's luck in words: the page's legend beside ``label_rule``."""
    # Translators: the legend of a review's figures; {per_point} ("0.5%") and {decided} ("2%") are shares
    return _("Accuracy: each move scores 103.1668 * exp(-0.04354 * the win chance it lost, in percent) - 3.1669, "
             "plus 1, within 0-100 (a move that lost nothing 100), counting a point lost as {per_point} "
             "of win chance where that is worse, as the labels do; a player's accuracy is, as lichess makes it, the "
             "mean of two averages of their moves' scores, one weighted by how much the game swung around each move "
             "and one harmonic (so a single move that threw the game away pulls it down), leaving out moves in a game "
             "already decided (win chance within {decided} of 0 or 100%). Error rate: the mean "
             "win chance lost per decision, a decision being a move with a real choice (more than advancing, or "
             "two places for a leather patch) in a game not yet decided. Deal: Player 1's win chance at the start "
             "with this circle against the average over random circles (Player 1's advantage of moving first is "
             "in the average); each player's luck is the difference for them, and the two add up to zero.",
             per_point=percent(GRADE_WIN_PER_POINT, 1), decided=percent(DECIDED))


CHART_SUFFIXES = (".svg", ".png")


def chart_target(path: str) -> Path:
    """Where ``--chart`` writes: the name as given (``.svg`` added when it has no suffix); any
    suffix but ``.svg`` or ``.png`` is refused, before the game is analysed."""
    target = Path(path)
    if not target.suffix:
        return target.with_suffix(".svg")
    if target.suffix.lower() not in CHART_SUFFIXES:
        raise RecordError(_("--chart {path}: the chart is written as .svg or .png, not {suffix}", path=path,
                              suffix=target.suffix))
    return target


def write_chart(review: GameReview, path: str) -> str:
    """Write the win-chance chart as SVG, or as PNG for a ``.png`` name, whole or not at all; the
    path written."""
    target = chart_target(path)
    seats = [review.seated(seat) for seat in (0, 1)]
    if target.suffix.lower() == ".png":
        write_atomic(target, win_chart_png(review.first_wins, review.marks(), seats))
    else:
        write_atomic(target, win_chart_svg(review.first_wins, review.marks(), seats))
    return str(target)
