"""The exercise kind: "find a better move" where you made a mistake, from one of your own games.

Each mistake and blunder a review finds becomes an exercise from the position before it (made by
``apps/practice.py``, which joins the review and this type). Any move that the review's label rule
would not call a mistake (or worse) against the best move is accepted, except the move that was
played; the verdict gives the best move, and says in words why the played move was worse, with the
play expected after it (the line that refutes it). Exercises are not rated (their difficulty is a
guide, not a measurement); a missed one comes back in the visitor's retry queue until it is solved,
with the endgame puzzles.

Its file: ``{"kind": "exercise", "id", "record", "position", "player", "ply", "label", "played",
"best", "moves", "seconds", "difficulty", "themes"}``: the game ``record`` up to the position (whose
notation is ``position``), the ``player`` to move (who made the mistake at ``ply``), the review's
``label`` of the move played (mistake or blunder), ``played`` and ``best`` the move played and the
best move, each ``{"move", "win", "margin", "proven", "line"}`` (the mover's win chance and expected
final margin after it, whether who wins after it is proven, the move and the play expected after
it), ``moves`` the other moves the review's analysis valued well enough to judge by (same form), and
``seconds`` the analysis per position the review was made with: a move not among them is valued by
an analysis of the position it leads to, made with the same time.

Judging needs what the applications plug in (``Judging``): the review's label rule (``grade``) and
the AI's analysis (``analysis_of``; without it, a fresh analysis with the AI's own placements).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from patchwork_opt.ai.analysis.position import analyse_position, value_after
from patchwork_opt.ai.base import SearchedPosition, move_key
from patchwork_opt.core.clock import ThinkBudget
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.words import line_words, player_name, words_in
from patchwork_opt.formats.models import MoveModel, RecordModel, move_model
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record
from patchwork_opt.i18n import N_, _, decimal, ngettext, percent, pgettext, signed
from patchwork_opt.puzzles.kinds.base import Answer, Judging, PuzzleKind, line_players
from patchwork_opt.puzzles.model import (
    Difficulty,
    PuzzleFormatError,
    PuzzleIdText,
    Strict,
    legal_moves_of,
    line_from,
    position_of,
    validated,
)

Label = Literal["mistake", "blunder"]
Chance = Annotated[float, Field(ge=0, le=1)]


class ScoredModel(Strict):
    move: MoveModel
    win: Chance = Field(description="the mover's win chance after the move (0-1)")
    margin: float = Field(description="the mover's expected final margin after the move")
    proven: bool = Field(default=False, strict=True, description="who wins after the move is proven")
    line: list[MoveModel] = Field(default_factory=list, max_length=80,
                                  description="the move and the play expected after it")


class ExerciseModel(Strict):
    kind: Literal["exercise"]
    id: PuzzleIdText
    record: RecordModel
    position: str = Field(max_length=400, description="the notation of the record's last position")
    player: int = Field(ge=0, le=1, strict=True, description="the player to move, who made the mistake")
    ply: int = Field(ge=0, strict=True, description="the index of the mistake among the game's moves")
    label: Label = Field(description="the review's label of the move played")
    played: ScoredModel = Field(description="the move played, never accepted")
    best: ScoredModel = Field(description="the best move the review found")
    moves: list[ScoredModel] = Field(default_factory=list, max_length=400,
                                     description="other moves the review's analysis valued well enough to judge by")
    seconds: float = Field(gt=0, le=600, description="the analysis per position that values any other move")
    difficulty: Difficulty
    themes: list[str] = Field(default_factory=list, max_length=0, description="none (exercises have no themes)")


@dataclass(frozen=True, slots=True)
class Scored:
    """A move with the figures of the review's analysis: the mover's win chance and expected final
    margin after it, whether who wins is proven, and the move with the play expected after it."""

    move: Move
    win: float
    margin: float
    proven: bool = False
    line: tuple[Move, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move.to_json(), "win": round(self.win, 4), "margin": round(self.margin, 2),
                "proven": self.proven, "line": [m.to_json() for m in self.line]}


@dataclass(frozen=True, slots=True)
class Exercise:
    """Find a better move than ``played`` in the position after ``record``, ``player`` to move."""

    id: str
    record: Record
    player: int
    label: str
    played: Scored
    best: Scored
    moves: tuple[Scored, ...]
    seconds: float
    difficulty: int
    themes: tuple[str, ...] = ()

    kind = "exercise"

    @property
    def ply(self) -> int:
        return len(self.record.moves)

    def state(self) -> State:
        return self.record.replay()

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "exercise", "id": self.id, "record": self.record.to_json(), "position": to_notation(self.state()),
            "player": self.player, "ply": self.ply, "label": self.label, "played": self.played.to_json(),
            "best": self.best.to_json(), "moves": [m.to_json() for m in self.moves], "seconds": self.seconds,
            "difficulty": self.difficulty, "themes": list(self.themes),
        }


def playable(state: State, line: tuple[Move, ...]) -> tuple[Move, ...]:
    """The part of a line a search expects that can be played from ``state`` as it stands: up to the
    first move the rules refuse there (a sampled line skips the placing of a leather patch taken)."""
    here = state.clone()
    for i, move in enumerate(line):
        try:
            here.apply(move)
        except PatchworkError:
            return line[:i]
    return line


def exercise_id(state: State, played: Move) -> str:
    """``x`` and 12 hex digits of the position and the move played: the same mistake in the same
    position is the same exercise, whichever game it comes from."""
    return "x" + hashlib.sha256(f"{to_notation(state)} {played}".encode()).hexdigest()[:12]


def _scored(state: State, model: ScoredModel, where: str) -> Scored:
    (move,) = legal_moves_of(state, [model.move], f"{where}.move")
    line = line_from(state, model.line, f"{where}.line")
    if line and line[0] != move:
        # Translators: an exercise file's field ({where}: played, best, moves[2]) keeps its name
        raise PuzzleFormatError(N_("{where}.line: must start with the move"), where=where)
    return Scored(move, model.win, model.margin, model.proven, tuple(line))


def exercise_from_json(data: dict[str, Any]) -> Exercise:
    model = validated(ExerciseModel, data, "exercise")
    record, state = position_of(model.record, model.position, model.player)
    if model.ply != len(record.moves):
        # Translators: an exercise file's "ply" field: the record's position is before move {moves}, not {ply}
        raise PuzzleFormatError(N_("ply: the position comes before move {moves}, not {ply}"), moves=len(record.moves),
                                ply=model.ply)
    played = _scored(state, model.played, "played")
    best = _scored(state, model.best, "best")
    keys = {move_key(state.quilts[model.player], played.move), move_key(state.quilts[model.player], best.move)}
    if len(keys) < 2:
        raise PuzzleFormatError(N_("best: the same move as the one played"))
    moves = tuple(_scored(state, m, f"moves[{i}]") for i, m in enumerate(model.moves))
    if exercise_id(state, played.move) != model.id:
        raise PuzzleFormatError(N_("id: not the id of this position and move played"))
    return Exercise(id=model.id, record=record, player=model.player, label=model.label, played=played, best=best,
                    moves=moves, seconds=model.seconds, difficulty=model.difficulty)


@dataclass(frozen=True, slots=True)
class ExerciseVerdict:
    """``correct`` when the answer is no mistake against the best move and is not the move played;
    ``answer`` its figures and line (``margin``: its expected final margin), ``label`` the review's
    label of it, ``loss`` and ``points_lost`` against the best move; ``why`` says in words why the
    move played was worse, with the play after it (``text`` ends with it)."""

    correct: bool
    answer: Scored
    label: str
    loss: float
    points_lost: float
    text: str
    why: str
    exercise: Exercise

    @property
    def margin(self) -> float:
        return self.answer.margin

    @property
    def moves(self) -> tuple[Move, ...]:
        return self.answer.line or (self.answer.move,)

    def to_json(self) -> dict[str, Any]:
        return {"correct": self.correct, "margin": round(self.margin, 2), "line": [m.to_json() for m in self.moves],
                "text": self.text, "label": self.label, "win": round(self.answer.win, 4), "loss": round(self.loss, 4),
                "points_lost": round(self.points_lost, 2), "best": self.exercise.best.to_json(),
                "played": self.exercise.played.to_json(), "why": self.why}


def _figure(move: Scored) -> str:
    """``41% to win, -2.5 points expected``: a move's figures for its mover."""
    chance, margin = percent(move.win), signed(move.margin, 1)
    if move.proven and move.win in (0.0, 1.0):
        # Translators: a move's figures: {chance} its win chance ("41%"), {count} the points expected ("-2.5");
        # "proven": an exact search settled who wins
        return ngettext("{chance} to win (proven), {count} point expected",
                        "{chance} to win (proven), {count} points expected", decimal(move.margin, 1), chance=chance,
                        count=margin)
    # Translators: a move's figures: {chance} its win chance ("41%"), {count} the points expected ("-2.5")
    return ngettext("{chance} to win, {count} point expected", "{chance} to win, {count} points expected",
                    decimal(move.margin, 1), chance=chance, count=margin)


def _label(label: str) -> str:
    """A review's label (``mistake``, ``blunder`` ...) in the language in effect: the review's own
    words for it (``apps/judge.label_words`` marks them, with the context "move label")."""
    return pgettext("move label", label)


def _points(points: float) -> str:
    """``2.5 points``: points lost, with one decimal."""
    # Translators: points lost against the best move, with one decimal ("2.5 points")
    return ngettext("{count} point", "{count} points", decimal(points, 1))


def contrast(state: State, best: Move, played: Move) -> str:
    """What the best move does that the move played does not, for its mover, in words: cells
    covered, income and buttons, time (spaces) and the 7x7 bonus right after each move."""
    p = state.to_move()
    ends = []
    for move in (best, played):
        after = state.clone()
        after.apply(move)
        ends.append((after.quilts[p].bit_count(), after.income[p], after.buttons[p], after.pos[p], after.bonus == p))
    (cells, income, buttons, pos, bonus), (cells2, income2, buttons2, pos2, bonus2) = ends
    said = []
    # Translators: what the best move leaves its mover more of than the move played (items of a list)
    if cells > cells2:
        said.append(ngettext("{count} more cell covered", "{count} more cells covered", cells - cells2))
    if income > income2:
        said.append(ngettext("{count} more income", "{count} more income", income - income2))
    if buttons > buttons2:
        said.append(ngettext("{count} more button in hand", "{count} more buttons in hand", buttons - buttons2))
    if pos2 > pos:
        said.append(ngettext("{count} space of time saved", "{count} spaces of time saved", pos2 - pos))
    if bonus and not bonus2:
        said.append(_("the 7x7 bonus"))
    # Translators: {gains} lists what the best move leaves more of ("2 more cells covered, 1 more income")
    return _("The best move leaves you {gains}.", gains=", ".join(said)) if said else ""


def line_text(state: State, line: tuple[Move, ...]) -> str:
    """A line played from ``state`` in words, each move by who makes it (the player to move is "you")."""
    player = state.to_move()
    said = line_words(state, line)
    # Translators: a move of a line of play, by who makes it: "you: buy #12 ...", "your opponent: advance ..."
    return "; ".join(_("you: {move}", move=words) if who == player else _("your opponent: {move}", move=words)
                     for who, words in zip(line_players(state, line), said, strict=True))


def worse_figures(exercise: Exercise) -> str:
    """Why the move played was worse than the best move, in words: the figures of both and what the
    best move does that it does not (``why_worse`` without the play expected after it)."""
    state = exercise.state()
    played, best = exercise.played, exercise.best
    loss = max(0.0, best.win - played.win)
    points = max(0.0, best.margin - played.margin)
    # Translators: why a move played was worse: {played} and {best} are moves in words ("buy #12 ..."),
    # {figure} and {best_figure} their figures, {loss} a win chance ("12%"), {points} "2.5 points",
    # {label} the review's label of the move played ("mistake", "blunder")
    text = _("You chose to {played}: it leaves you {figure}, where the best move, to {best}, keeps {best_figure}; "
             "{loss} of win chance and {points} lost, a {label}.", played=words_in(state, played.move),
             figure=_figure(played), best=words_in(state, best.move), best_figure=_figure(best),
             loss=percent(loss), points=_points(points), label=_label(exercise.label))
    more = contrast(state, best.move, played.move)
    return f"{text} {more}" if more else text


def why_worse(exercise: Exercise) -> str:
    """Why the move played was worse than the best move, in words, with the play expected after it."""
    text = worse_figures(exercise)
    if len(exercise.played.line) > 1:
        # Translators: {line} is the play expected after the move, each move by who makes it
        text += " " + _("The play expected after your move: {line}.",
                        line=line_text(exercise.state(), exercise.played.line))
    return text


def _valued(exercise: Exercise, state: State, move: Move, judging: Judging) -> Scored:
    """The answer's figures: the review's when its analysis valued the move, else those of an
    analysis of the position it leads to, made with the review's time per position."""
    quilt = state.quilts[exercise.player]
    key = move_key(quilt, move)
    for known in (exercise.best, *exercise.moves):
        if move_key(quilt, known.move) == key:
            return known
    after = state.clone()
    after.apply(move)
    following: SearchedPosition | None = None
    if not after.is_terminal():
        budget = ThinkBudget(exercise.seconds)
        if judging.analysis_of is not None:
            following = judging.analysis_of(after, budget)
        else:
            following = analyse_position(after, deadline=budget.deadline())
    win, margin, exact = value_after(state, move, following)
    line = (move, *following.best.line) if following is not None and following.moves else (move,)
    return Scored(move, win, margin, exact, playable(state, line))


def judge_exercise(exercise: Exercise, move: Move, judging: Judging) -> ExerciseVerdict:
    """The verdict on ``move`` (``IllegalMoveError`` when the rules refuse it): the review's label
    of it against the best move decides, and the move played is never right."""
    if judging.grade is None:
        raise PatchworkError("judging an exercise needs the review's label rule, which this program did not plug in")
    state = exercise.state()
    state.check(move)
    quilt = state.quilts[exercise.player]
    answer = _valued(exercise, state, move, judging)
    is_best = move_key(quilt, move) == move_key(quilt, exercise.best.move)
    loss = 0.0 if is_best else max(0.0, exercise.best.win - answer.win)
    points = 0.0 if is_best else max(0.0, exercise.best.margin - answer.margin)
    label, accepted = judging.grade(loss, points, is_best)
    words = words_in(state, move)
    if move_key(quilt, move) == move_key(quilt, exercise.played.move):
        # Translators: an exercise's verdict: the answer is the move played in the game ({move}, in words),
        # {label} the review's label of it ("mistake", "blunder")
        correct, text = False, _("that is the move you played in the game: {move}, a {label}.", move=words,
                                 label=_label(exercise.label))
    elif accepted:
        correct = True
        # Translators: an exercise's verdict: {move} the answer in words, {figure} its figures ("41% to win, ..."),
        # {loss} the win chance it loses ("3%"), {points} "0.5 points", {label} the review's label of it
        text = (_("better: {move} is the best move, {figure}.", move=words, figure=_figure(answer)) if is_best else
                _("better: {move} leaves you {figure}, {loss} of win chance and {points} below the best move "
                  "({label}).", move=words, figure=_figure(answer), loss=percent(loss), points=_points(points),
                  label=_label(label)))
    else:
        correct = False
        text = _("not better: {move} leaves you {figure}, {loss} of win chance and {points} below the best move, a "
                 "{label} too.", move=words, figure=_figure(answer), loss=percent(loss), points=_points(points),
                 label=_label(label))
    if not is_best:
        # Translators: {move} the best move in words, {figure} its figures
        text += " " + _("The best move was {move} ({figure}).", move=words_in(state, exercise.best.move),
                        figure=_figure(exercise.best))
    why = why_worse(exercise)
    return ExerciseVerdict(correct, answer, label, loss, points, f"{text} {why}", why, exercise)


class ExerciseDetails(BaseModel):
    """The mistake to do better than: where it was in the game, the move played and what it cost."""

    kind: Literal["exercise"] = "exercise"
    ply: int = Field(description="the index of the mistake among the game's moves")
    played: MoveModel = Field(description="the move played in the game, which is not accepted")
    played_words: str = Field(description="the move played, in words (core/words.py)")
    label: str = Field(description="the review's label of it: mistake or blunder")
    loss: float = Field(description="the win chance it lost against the best move (0-1)")
    points_lost: float = Field(description="the expected points it lost against the best move")


class ExerciseVerdictDetails(BaseModel):
    """The answer's label and figures, the best move (drawn with its cells), and why the move played
    was worse, with the play expected after it (the line that refutes it)."""

    kind: Literal["exercise"] = "exercise"
    label: str = Field(description="the review's label of the answer against the best move")
    win: float = Field(description="the answer's win chance (0-1)")
    loss: float = Field(description="the win chance the answer loses against the best move (0-1)")
    points_lost: float = Field(description="the expected points the answer loses against the best move")
    best_move: MoveModel = Field(description="the best move, to draw")
    best_words: str = Field(description="the best move, in words")
    best_win: float = Field(description="the best move's win chance (0-1)")
    best_margin: float = Field(description="the best move's expected final margin")
    best_line: list[MoveModel] = Field(description="the best move and the play expected after it")
    best_line_players: list[int] = Field(description="who makes each move of best_line (0 or 1)")
    best_line_words: list[str] = Field(description="each move of best_line in words, for the player who makes it")
    played: MoveModel = Field(description="the move played in the game")
    played_words: str = Field(description="the move played, in words")
    refutation: list[MoveModel] = Field(description="the move played and the play expected after it")
    refutation_players: list[int] = Field(description="who makes each move of refutation (0 or 1)")
    refutation_words: list[str] = Field(description="each move of refutation in words, for the player who makes it")
    why: str = Field(description="why the move played was worse, in words, with the play expected after it")
    worse: str = Field(description="why the move played was worse, in words, without the play after it (a page "
                                   "lists refutation_words beside it)")


class ExerciseKind(PuzzleKind[Exercise, ExerciseVerdict]):
    name = "exercise"
    # Translators: a kind of puzzle, as its menu names it
    label = N_("find a better move")
    prefix = "x"
    answer = "move"
    rated = False
    comes_back_as = "endgame"
    queued = True

    def from_json(self, data: dict[str, Any]) -> Exercise:
        return exercise_from_json(data)

    def task(self, puzzle: Exercise) -> str:
        state = puzzle.state()
        # Translators: an exercise's task: {player} "Player 1", {move} the move played in words, {label} the
        # review's label of it ("mistake"), {figure} its figures ("41% to win, -2.5 points expected")
        return _("{player} (you) to move: find a better move than the one you played in your game, {move}, a {label} "
                 "(it left you {figure}). Any move the review would not call a mistake is right.",
                 player=player_name(puzzle.player), move=words_in(state, puzzle.played.move),
                 label=_label(puzzle.label), figure=_figure(puzzle.played))

    def judge(self, puzzle: Exercise, answer: Answer, judging: Judging) -> ExerciseVerdict:
        assert isinstance(answer, Move)
        return judge_exercise(puzzle, answer, judging)

    def position(self, puzzle: Exercise) -> State:
        return puzzle.state()

    def details(self, puzzle: Exercise) -> ExerciseDetails:
        played, best = puzzle.played, puzzle.best
        return ExerciseDetails(ply=puzzle.ply, played=move_model(played.move),
                               played_words=words_in(puzzle.state(), played.move), label=puzzle.label,
                               loss=round(max(0.0, best.win - played.win), 4),
                               points_lost=round(max(0.0, best.margin - played.margin), 2))

    def verdict_details(self, puzzle: Exercise, verdict: ExerciseVerdict) -> ExerciseVerdictDetails:
        state, best, played = puzzle.state(), puzzle.best, puzzle.played
        best_line = best.line or (best.move,)
        refutation = played.line or (played.move,)
        return ExerciseVerdictDetails(
            label=verdict.label, win=round(verdict.answer.win, 4), loss=round(verdict.loss, 4),
            points_lost=round(verdict.points_lost, 2), best_move=move_model(best.move),
            best_words=words_in(state, best.move), best_win=round(best.win, 4), best_margin=round(best.margin, 2),
            best_line=[move_model(m) for m in best_line], best_line_players=line_players(state, best_line),
            best_line_words=line_words(state, best_line), played=move_model(played.move),
            played_words=words_in(state, played.move), refutation=[move_model(m) for m in refutation],
            refutation_players=line_players(state, refutation), refutation_words=line_words(state, refutation),
            why=verdict.why, worse=worse_figures(puzzle))


EXERCISE = ExerciseKind()
