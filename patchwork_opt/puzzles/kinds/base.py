"""What every puzzle kind says about itself (``PuzzleKind``), and what judging an answer may use
(``Judging``).

A kind is a type of puzzle: its file format and checks, the question put to a person, the form of
its answer (a ``move`` in a position, or ``placements`` on a quilt), its judge and verdict, and what
the page is told of a puzzle and of a verdict beyond the fields all kinds share (``details``). The
applications ask the kind (``kinds.kind_of``) instead of testing which kind a puzzle is: the
terminal plays every puzzle answered by a move the same way, the service serves and judges every
kind through the same routes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel

from patchwork_opt.ai.base import SearchedPosition
from patchwork_opt.core.clock import ThinkBudget
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.i18n import _
from patchwork_opt.puzzles.model import Placement

AnswerForm = Literal["move", "placements"]
#: An answer: a move (``answer == "move"``) or a fill's placements (``"placements"``).
Answer = Move | list[Placement]
#: Seconds the exact search may take to value an answer (a shipped puzzle's take milliseconds).
JUDGE_SECONDS = 20.0
#: The exact search's table for judging one answer.
JUDGE_TABLE_MB = 16.0

#: ``analysis_of(state, budget)``: the AI's analysis of a position (the service's analysis cache,
#: or a fresh one on the command line), its deadline made of ``budget`` as the analysis starts.
AnalysisOf = Callable[[State, ThinkBudget], SearchedPosition]
#: ``grade(loss, points_lost, is_best)``: the review's label of a move that lost ``loss`` win chance
#: and ``points_lost`` expected points against the best move, and whether it stays below the mistake
#: threshold (``apps.practice.grade``, on ``apps.judge.label_of``: plugged in by the applications, so
#: the labels are the review's, one rule).
Grader = Callable[[float, float, bool], tuple[str, bool]]
#: ``stop.attach``: lets the job queue stop a long search (``core.stop.StopSignal.attach``).
StopHook = Callable[[Callable[[], None]], None]


@dataclass(frozen=True, slots=True)
class Judging:
    """What a judge may use beyond the puzzle and the answer, plugged in by the application:
    the exact search's budget and stop hook (endgames), the AI's analysis and the review's label
    rule (exercises). A kind that needs what was not plugged in says so in one line."""

    seconds: float = JUDGE_SECONDS
    table_mb: float = JUDGE_TABLE_MB
    stop: StopHook | None = None
    analysis_of: AnalysisOf | None = None
    grade: Grader | None = None


class Verdict(Protocol):
    """A judge's answer: right or not, in words, the final margin it leads to (a fill: value minus
    the optimum), and for a move the move and play after it (``moves``; empty for a fill)."""

    @property
    def correct(self) -> bool: ...
    @property
    def text(self) -> str: ...
    @property
    def margin(self) -> float: ...
    @property
    def moves(self) -> tuple[Move, ...]: ...
    def to_json(self) -> dict[str, Any]: ...


class Puzzle(Protocol):
    """What every kind's puzzle has: ``kind`` names its kind in the registry."""

    @property
    def kind(self) -> str: ...
    @property
    def id(self) -> str: ...
    @property
    def difficulty(self) -> int: ...
    @property
    def themes(self) -> tuple[str, ...]: ...
    def to_json(self) -> dict[str, Any]: ...


class QuiltPuzzle(Protocol):
    """What a puzzle answered by placements is set on: the covered cells of a quilt (a mask), the
    patches to fill it with (each at most once), what counts (``cells``, or ``points`` with income
    counted at ``marks`` income marks ahead), and the proven optimum (its value and placements)."""

    @property
    def quilt(self) -> int: ...
    @property
    def patches(self) -> tuple[int, ...]: ...
    @property
    def objective(self) -> str: ...
    @property
    def marks(self) -> int: ...
    @property
    def best_value(self) -> int: ...
    @property
    def best(self) -> tuple[Placement, ...]: ...


class Maker(Protocol):
    """What the module a kind's ``maker`` names offers: ``make``, one puzzle of ``difficulty`` (and
    ``variant``, ``theme``) from the games of ``seed`` (``progress(tries)`` after each game or quilt
    tried; ``stop`` ends it), and ``bank_task``, the puzzles of one seed as JSON, for the bank (run
    in worker processes: a module's function pickles by name)."""

    def make(self, seed: int, difficulty: int | None, *, variant: str | None, theme: str | None,
             progress: Callable[[int], None] | None, stop: StopSignal | None) -> Any: ...

    def bank_task(self, seed: int) -> list[dict[str, Any]]: ...


P = TypeVar("P")
V = TypeVar("V")


class PuzzleKind(ABC, Generic[P, V]):
    """One kind of puzzle (``P``) and its verdicts (``V``).

    ``name`` is the ``kind`` of its files; ``label`` what it asks in a few words; ``prefix`` the
    letter its ids start with; ``answer`` the form of an answer; ``themes`` its themes with their
    words (``theme_words``); ``bank_file`` the shipped bank's file of its puzzles (None: not in the
    bank) and ``bank_words`` what the bank's progress bar says while it makes them; ``rated``: a
    first answer moves the visitor's and the puzzle's ratings; ``comes_back_as``: a missed puzzle of
    this kind is served again when the visitor asks for a puzzle of that kind; ``queued``: judging
    takes a search, so the service runs it in its job queue.

    How puzzles of the kind are made and banked: ``maker`` names the module that makes them from
    seeded games (a ``Maker``; None: not made from seeds, as an exercise comes from a reviewed
    game). It is named, not imported: making takes the solvers or the exact search, which sit above
    the kinds (``puzzles/making.py`` loads it). ``variants``: the variants a puzzle may be made in,
    and ``theme_variants`` the variants each theme comes from (none: the kind has no variants).
    The bank takes a kind's puzzles in seed order, at most ``bank_shares[type]`` of them answered
    only by moves of that type (``advance``, ``leather``: a bank of one idea teaches one idea), and,
    with ``bank_even``, at most a fifth of them of each difficulty."""

    name: str
    label: str
    prefix: str
    answer: AnswerForm
    themes: tuple[str, ...] = ()
    theme_words: dict[str, str] = {}  # noqa: RUF012  (read only: a kind's constant)
    bank_file: str | None = None
    bank_words: str = ""
    rated: bool = True
    comes_back_as: str = ""
    queued: bool = False
    maker: str | None = None
    variants: tuple[str, ...] = ()
    theme_variants: Mapping[str, tuple[str, ...]] = {}
    bank_shares: Mapping[str, float] = {}
    bank_even: bool = False

    @abstractmethod
    def from_json(self, data: dict[str, Any]) -> P:
        """The puzzle in ``data`` (its ``kind`` checked already), validated field by field and
        against the rules; one ``PuzzleFormatError`` naming the field otherwise."""

    @abstractmethod
    def task(self, puzzle: P) -> str:
        """The question put to the person, in words."""

    @abstractmethod
    def judge(self, puzzle: P, answer: Answer, judging: Judging) -> V:
        """The verdict on an answer (``IllegalMoveError`` when the rules refuse it)."""

    def check(self, puzzle: P, answer: Answer) -> None:
        """Refuse an answer the rules refuse before any search is queued for it: a move its position
        does not allow (``IllegalMoveError``); other answers are checked as they are judged."""
        state = self.position(puzzle)
        if state is not None and isinstance(answer, Move):
            state.check(answer)

    def position(self, puzzle: P) -> State | None:
        """The position a puzzle answered by a move is set in (None for other answers)."""
        return None

    def quilt(self, puzzle: P) -> QuiltPuzzle | None:
        """The quilt a puzzle answered by placements is set on (None for other answers)."""
        return None

    def measured_rating(self, puzzle: P) -> float | None:
        """The rating measured when the puzzle was made (None: its difficulty's start)."""
        return None

    @abstractmethod
    def details(self, puzzle: P) -> BaseModel:
        """What the page is told of the puzzle beyond the fields all kinds share (never its answer)."""

    @abstractmethod
    def verdict_details(self, puzzle: P, verdict: V) -> BaseModel:
        """What the page is told of a verdict beyond the fields all kinds share."""


def line_players(state: State, line: Sequence[Move]) -> list[int]:
    """Who makes each move of ``line`` played from ``state`` (0 or 1)."""
    here, players = state.clone(), []
    for move in line:
        players.append(here.to_move())
        here.apply(move)
    return players


def themes_sentence(themes: Sequence[str], words: Mapping[str, str]) -> str:
    """`` Themes: a, b.`` (what decides the puzzle, each theme in its ``words`` in the language in
    effect), or nothing for a puzzle without themes."""
    if not themes:
        return ""
    # Translators: the themes of a puzzle, at the end of its task: {themes} lists them ("leather patches, ...")
    return " " + _("Themes: {themes}.", themes=", ".join(_(words[t]) if t in words else t for t in themes))
