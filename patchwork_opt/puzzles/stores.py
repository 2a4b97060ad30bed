"""What puzzles need kept: the puzzles made on demand (``PuzzleStore``), and the visitors who answer
them with their ratings, answers and habits (``VisitorStore``).

These are the protocols the selection policy (``selection.py``) and the service's answers use; the
service implements both in SQLite and in PostgreSQL (``apps/web/stores/``), in the one database that
also holds its games and its analysis cache. A visitor's habits: the puzzles they missed, served
again once they gave ``RETRY_AFTER`` more answers and until they answer them right, and their streak
(correct first answers in a row, in streak mode) with the best one they reached. Only a visitor's
first answer to a puzzle moves the ratings, and only for a kind whose answers are rated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.puzzles.glicko import Rating

#: A puzzle answered wrong comes back once the visitor gave this many more answers (to other
#: puzzles, or to it): soon enough to remember the lesson, late enough not to recall the answer.
RETRY_AFTER = 3

#: ``rate(visitor, puzzle, correct)``: both ratings after one answer (``puzzles.glicko.rate_answer``).
RateFn = Callable[[Rating, Rating, bool], tuple[Rating, Rating]]


class VisitorNotFoundError(PatchworkError):
    """No puzzle solver with that visitor id: a request names a visitor the server never handed out
    (the service answers 422: the request's body is at fault, not the resource its path names)."""

    http_status = 422


@dataclass(frozen=True, slots=True)
class RatedAnswer:
    """The ratings after an answer; ``rated`` is False for a visitor's second answer to a puzzle
    (and for a kind whose answers are not rated). ``again``: the puzzle comes back (answered wrong);
    ``streak``, ``best_streak``: the visitor's."""

    visitor: Rating
    puzzle: Rating
    rated: bool
    again: bool = False
    streak: int = 0
    best_streak: int = 0


@dataclass(frozen=True, slots=True)
class VisitorStats:
    """A visitor's rating, how many first answers moved it, their streak now and their best one."""

    rating: Rating
    answers: int
    streak: int
    best_streak: int


class PuzzleStore(Protocol):
    """The puzzles made on demand (a new puzzle when the bank has none left for a visitor, the
    exercises of a reviewed game), as their JSON; those of the shipped bank are package data."""

    def keep_puzzle(self, puzzle_id: str, kind: str, data: str) -> None:
        """Store a puzzle (its JSON); the first one kept under an id stays."""

    def stored_puzzle(self, puzzle_id: str) -> str | None:
        """The JSON of a puzzle made on demand, or None."""


class VisitorStore(Protocol):
    """Visitors and puzzles' Glicko-2 ratings, the answers given and each visitor's habits."""

    def new_visitor(self, visitor_id: str, start: Rating) -> Rating:
        """A new puzzle solver with the rating ``start``."""

    def visitor_rating(self, visitor_id: str) -> Rating:
        """The visitor's rating (``VisitorNotFoundError``: no such visitor)."""

    def puzzle_rating(self, puzzle_id: str, start: Rating) -> Rating:
        """The puzzle's rating (``start`` until someone answers it)."""

    def answered(self, visitor_id: str) -> set[str]:
        """The ids of the puzzles the visitor has answered."""

    def visitor_stats(self, visitor_id: str) -> VisitorStats:
        """The visitor's rating, rated answers and streaks (``VisitorNotFoundError``: no such visitor)."""

    def due_retries(self, visitor_id: str) -> list[str]:
        """The puzzles the visitor missed that are due again (``RETRY_AFTER`` answers later), the
        longest due first."""

    def rate_answer(self, visitor_id: str, puzzle_id: str, correct: bool, start: Rating, rate: RateFn, *,
                    streak: bool = False, rated: bool = True) -> RatedAnswer:
        """Record the visitor's answer and, for a first answer that is ``rated``, move both ratings by
        ``rate``, in one transaction; a wrong answer puts the puzzle in the visitor's retry queue, a
        right one takes it out; with ``streak``, a right first answer lengthens the streak and a
        wrong answer ends it."""
