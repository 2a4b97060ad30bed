"""Practise your mistakes: every mistake and blunder of a reviewed game becomes an exercise, "find a
better move" from the position before it (``analyze RECORD --puzzles DIR`` and the web review's
"Practise your mistakes").

The review labels the moves (``apps/review.py``); this module joins it with the exercise kind
(``puzzles/kinds/exercise.py``). An exercise is made of the same analyses the review labelled the
move with (on the command line, those the review just made; on the web, the analysis cache's): the
best move, the move played with the play expected after it, and every other move the analysis
valued well enough (``review.RELIABLE_SHARE``) to judge an answer by. An answer is judged by the
review's own label rule (``grade``): any move it would not call a mistake or a blunder against the
best move is right, except the move played.

Its difficulty is a guide: the share of the analysis's moves that are right, on their figures however
few simulations they had (most of them: 1; one in ten or fewer: 5).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from patchwork_opt.ai.analysis.position import analyse_position
from patchwork_opt.ai.base import AnalysedMove, SearchedPosition, move_key
from patchwork_opt.apps.judge import BLUNDER, PlyReview, label_of, label_words
from patchwork_opt.apps.review import (
    REFINE_DEPTH,
    GameReview,
    PositionAnalyser,
    Progress,
    ReviewError,
    render_review,
    review_game,
)
from patchwork_opt.apps.wiring import solver_advisor
from patchwork_opt.core.clock import ThinkBudget, deadline_after
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.core.words import player_name
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record, writable_dir, write_atomic
from patchwork_opt.i18n import _, ngettext, number
from patchwork_opt.puzzles.kinds import Judging
from patchwork_opt.puzzles.kinds.exercise import Exercise, Scored, exercise_id, playable

#: The labels whose moves become exercises: at least a mistake.
PRACTISED = ("mistake", BLUNDER)
#: A move of the analysis whose figures judge an answer as they are: proven, or sampled on at least
#: this share of the best move's simulations (a sampling search spends few on moves it finds poor).
RELIABLE_SHARE = 0.2
#: Other moves of the analysis kept in an exercise to judge answers by (any other is analysed then).
KEPT_MOVES = 48
#: Difficulty from the share of the valued moves that are right: one more than the thresholds the
#: share is under (most right: 1; a tenth or fewer: 5).
SHARE_THRESHOLDS = (0.5, 0.3, 0.2, 0.1)


def grade(loss: float, points_lost: float, is_best: bool) -> tuple[str, bool]:
    """The review's label of a move against the best move (``judge.label_of``), and whether it stays
    below the mistake threshold: what the exercises' judge asks (``puzzles.kinds.base.Grader``)."""
    label = label_of(loss, points_lost, is_best)
    return label, label not in PRACTISED


def mistake_plies(review: GameReview, player: int | None = None) -> list[int]:
    """The plies of the review's mistakes and blunders (of ``player`` when given)."""
    return [p.ply for p in review.plies if p.label in PRACTISED and player in (None, p.player)]


def _kept(move: Move, win: float, margin: float, proven: bool, line: tuple[Move, ...]) -> Scored:
    """A move's figures as an exercise file keeps them (``Scored.to_json``'s digits): the exercise
    made is the exercise read back."""
    return Scored(move, round(win, 4), round(margin, 2), proven, line)


def _scored(state: State, m: AnalysedMove) -> Scored:
    return _kept(m.move, m.win, m.margin, m.outcome_proven, playable(state, m.line or (m.move,)))


def _refutation(state: State, here: SearchedPosition, following: SearchedPosition | None,
                played: Move) -> tuple[Move, ...]:
    """The move played and the play expected after it: its own line in the analysis (when the
    analysis valued this very placement, not one equal up to a symmetry, whose line goes on from
    another quilt), else the best line of the position it led to."""
    found = here.find(played)
    if found is not None and found.move == played and len(found.line) > 1:  # (not a symmetric twin's line)
        return playable(state, found.line)
    if following is not None and following.moves:
        return playable(state, (played, *following.best.line))
    return (played,)


def _reliable(m: AnalysedMove, best: AnalysedMove) -> bool:
    """A move whose figures the review would use as they are: proven, or sampled on at least
    ``RELIABLE_SHARE`` of the best move's simulations."""
    return m.outcome_proven or m.visits >= RELIABLE_SHARE * best.visits > 0


def _difficulty(best: Scored, others: Sequence[Scored]) -> int:
    """One more than the ``SHARE_THRESHOLDS`` the share of right moves among the analysis's moves
    (its sampled figures too: a guide, not a judgement) is under."""
    right = 1 + sum(grade(max(0.0, best.win - m.win), max(0.0, best.margin - m.margin), False)[1]
                    for m in others)
    share = right / (1 + len(others))
    return 1 + sum(1 for t in SHARE_THRESHOLDS if share < t)


def exercise_of(record: Record, review: PlyReview, here: SearchedPosition, following: SearchedPosition | None,
                seconds: float) -> Exercise | None:
    """The exercise of the ply ``review`` judged (the game review's, chained), from the analyses of
    the position before it (``here``, the move played compared alongside) and after it (None when
    the game ends there), made with ``seconds`` each; None when the review does not call the move a
    mistake or a blunder."""
    if review.label not in PRACTISED:
        return None
    head = Record(record.circle[:], record.moves[:review.ply], record.leather)
    state = head.replay()
    played = record.moves[review.ply]
    best = here.best
    quilt = state.quilts[state.to_move()]
    skip = {move_key(quilt, best.move), move_key(quilt, played)}
    others = [m for m in here.moves if move_key(quilt, m.move) not in skip]
    kept = tuple(_scored(state, m) for m in others if _reliable(m, best))[:KEPT_MOVES]
    played_figures = _kept(played, review.win_after, review.margin_after, review.exact,
                           _refutation(state, here, following, played))
    best_figures = _kept(best.move, review.win_before, review.margin_before, best.outcome_proven,
                         playable(state, best.line or (best.move,)))
    return Exercise(id=exercise_id(state, played), record=head, player=state.to_move(), label=review.label,
                    played=played_figures, best=best_figures, moves=kept, seconds=seconds,
                    difficulty=_difficulty(best_figures, [_scored(state, m) for m in others]))


def exercises_at(record: Record, plies: Sequence[int], analyse: PositionAnalyser, seconds: float, *,
                 stop: StopSignal | None = None,
                 progress: Callable[[int, int], None] | None = None) -> list[Exercise]:
    """The exercises of the moves at ``plies`` (indices into ``record.moves``), in ply order, each
    judged by the game's review made of the analyses ``analyse(state, extra)`` gives (the service's
    cache: the review's own, when made with ``seconds``): a ply the review does not call a mistake
    makes none. ``stop`` ends the work between positions (``PatchworkError``)."""
    for ply in plies:
        if not 0 <= ply < len(record.moves):
            raise PatchworkError(ngettext("ply {ply} is not a move of the record (it has {count} move)",
                                          "ply {ply} is not a move of the record (it has {count} moves)",
                                          len(record.moves), ply=ply))
    wanted = sorted(set(plies))

    def told(_: str, done: float, total: float) -> None:
        if progress is not None:
            progress(int(done), int(total))

    try:
        review = review_game(record, analyse=analyse, stop=stop, progress=told, with_deal=False)
    except ReviewError as exc:
        raise PatchworkError(_("making exercises of the mistakes: {error}", error=exc)) from None
    return _exercises_of(record, review, wanted, analyse, seconds)


def _exercises_of(record: Record, review: GameReview, plies: Sequence[int], analyse: PositionAnalyser,
                  seconds: float) -> list[Exercise]:
    """The exercises of ``review``'s plies ``plies`` that it calls mistakes, from the analyses around them."""
    out = []
    for ply in plies:
        before = record.replay(ply)
        after = before.clone()
        after.apply(record.moves[ply])
        here = analyse(before, [record.moves[ply]])
        following = None if after.is_terminal() else analyse(after, [])
        made = exercise_of(record, review.plies[ply], here, following, seconds)
        if made is not None:
            out.append(made)
    return out


@dataclass(frozen=True, slots=True)
class Practised:
    """A mistake made an exercise: the ply, the exercise and where it was written (if it was)."""

    ply: int
    exercise: Exercise
    path: Path | None

    def to_json(self) -> dict[str, Any]:
        e = self.exercise
        return {"ply": self.ply, "id": e.id, "kind": e.kind, "player": e.player, "label": e.label,
                "difficulty": e.difficulty, "themes": list(e.themes), "path": str(self.path) if self.path else None}


def check_puzzle_dir(directory: str | Path) -> Path:
    """The directory to write exercises to, made now when missing (before the long review), or a
    ``PatchworkError`` naming why it cannot hold them."""
    return writable_dir(directory, "--puzzles")


def practise_record(record: Record, *, seconds: float, out: Path | None = None,
                    progress: Progress | None = None,
                    stop: StopSignal | None = None) -> tuple[GameReview, list[Practised]]:
    """``analyze RECORD --puzzles DIR``: the game's review (as ``hints.review_record`` makes it, with
    the CP-SAT advisor placing the offers) and an exercise of each mistake and blunder of either
    player, made of the review's own analyses, each written to ``out/<id>.json`` when ``out`` is given
    (atomically: a file is whole or absent)."""
    if seconds <= 0:
        raise PatchworkError(_("time per move must be positive, got {seconds}", seconds=number(seconds)))
    advisor = solver_advisor()
    made: dict[str, SearchedPosition] = {}

    def analysis(depth: int) -> PositionAnalyser:
        def analyse(state: State, extra: Sequence[Move]) -> SearchedPosition:
            # each position's own deadline, made as its analysis starts, as the review makes it
            found = analyse_position(state, deadline=deadline_after(seconds * depth), advisor=advisor, extra=extra,
                                     stop=stop)
            made[to_notation(state)] = found  # a close call's deeper analysis replaces the first
            return found
        return analyse

    review = review_game(record, seconds=seconds, advisor=advisor, progress=progress, stop=stop,
                         analyse=analysis(1), deeper=analysis(REFINE_DEPTH))

    def recalled(state: State, extra: Sequence[Move]) -> SearchedPosition:
        return made.get(to_notation(state)) or analysis(1)(state, extra)

    exercises = _exercises_of(record, review, mistake_plies(review), recalled, seconds)
    return review, [Practised(e.ply, e, _written(e, out)) for e in exercises]


def _written(exercise: Exercise, out: Path | None) -> Path | None:
    if out is None:
        return None
    path = out / f"{exercise.id}.json"
    write_atomic(path, json.dumps(exercise.to_json(), indent=1) + "\n")
    return path


def render_practised(practised: list[Practised], mistakes: int, directory: str) -> str:
    """The exercises ``analyze --puzzles`` wrote, one line each, or why there are none."""
    if not practised and not mistakes:
        # Translators: {directory} is where exercises would have been written
        return _("no exercises written to {directory}: the review found no mistake or blunder", directory=directory)
    if not practised:
        # Translators: the review's {count} mistakes and blunders were none of them one when analysed again
        return ngettext("no exercises written to {directory}: none of the {count} mistake or blunder is one when its "
                        "position is analysed again",
                        "no exercises written to {directory}: none of the {count} mistakes and blunders is one when "
                        "its position is analysed again", mistakes, directory=directory)
    # Translators: the head of the exercises written; "patchwork puzzle solve FILE" is a command, kept as it is
    lines = [ngettext("{count} exercise from the mistakes and blunders, in {directory} (patchwork puzzle solve FILE "
                      "plays one):",
                      "{count} exercises from the mistakes and blunders, in {directory} (patchwork puzzle solve FILE "
                      "plays one):", len(practised), directory=directory)]
    for p in practised:
        e = p.exercise
        # Translators: an exercise written: the ply, whose move it was and its label ("mistake"), the file,
        # and how hard it is
        lines.append(_("  ply {ply}, {player}'s {label}: {path} (difficulty {difficulty})", ply=p.ply,
                       player=player_name(e.player), label=label_words(e.label), path=p.path,
                       difficulty=e.difficulty))
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Analysed:
    """What ``patchwork analyze`` made: the review, the exercises when ``--puzzles`` asked for them,
    and where the chart was written (if it was)."""

    review: GameReview
    practised: list[Practised] | None
    directory: str
    chart: str | None

    def to_json(self) -> dict[str, Any]:
        data = self.review.to_json()
        if self.practised is not None:
            data["puzzles"] = [p.to_json() for p in self.practised]
        return data

    def render(self) -> str:
        text = render_review(self.review)
        if self.practised is None:
            return text
        return text + "\n" + render_practised(self.practised, len(mistake_plies(self.review)), self.directory)


def analyze_command(record_path: str, *, seconds: float, chart: str | None, puzzles: str | None) -> Analysed:
    """``patchwork analyze`` from its options: the record loaded and the chart's name and the
    exercises' directory checked before the long review (not refused after it), the compiled
    searches ready before its clocks start, the review (with exercises for ``--puzzles``) under a
    progress bar, then the chart written."""
    from patchwork_opt.apps import hints
    from patchwork_opt.apps.progress import phase_progress
    from patchwork_opt.apps.review import chart_target, write_chart
    from patchwork_opt.apps.warmup import prepare

    game = Record.load(record_path)
    if chart:
        chart_target(chart)
    out = check_puzzle_dir(puzzles) if puzzles is not None else None
    practised: list[Practised] | None = None
    prepare(["search", "learned", "exact"])
    with phase_progress() as report:
        if out is None:
            review = hints.review_record(game, seconds=seconds, progress=report)
        else:
            review, practised = practise_record(game, seconds=seconds, out=out, progress=report)
    written = write_chart(review, chart) if chart else None
    return Analysed(review, practised, puzzles or "", written)


def cli_judging() -> Judging:
    """How the command line judges answers: the review's label rule and a fresh analysis with the
    CP-SAT advisor placing the offers (an exercise's moves the review did not value)."""
    advisor = solver_advisor()

    def analysis_of(state: State, budget: ThinkBudget) -> SearchedPosition:
        return analyse_position(state, deadline=budget.deadline(), advisor=advisor)

    return Judging(analysis_of=analysis_of, grade=grade)
