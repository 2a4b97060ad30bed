"""Which puzzle to serve a visitor next, and the ratings puzzles start from: the Puzzles page's
playing habits, kept apart from the service that answers its requests.

* When a request names no difficulty, the difficulty follows the visitor's rating (a newcomer's
  first answers are at difficulty 1-2: ``difficulty_for``).
* A puzzle answered wrong is served again once the visitor gave ``stores.RETRY_AFTER`` more answers,
  until it is answered right (``due_retry``); a missed puzzle of a kind comes back when the visitor
  asks for the kind it ``comes_back_as`` (a missed exercise with the endgames).
* In streak mode the difficulty climbs with the streak's length until the first miss.
* The daily puzzle is one bank puzzle a UTC date, the same for everyone on a server with that bank.
* A request may ask for a theme of its kind; a visitor who has answered every bank puzzle of what
  they ask for gets one made on demand (the service's job) or, for a theme, one met before.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import date
from typing import Any

from patchwork_opt.i18n import N_
from patchwork_opt.puzzles.bank import Bank, NoBankError, PuzzleNotFoundError
from patchwork_opt.puzzles.glicko import START_RATING, Rating
from patchwork_opt.puzzles.kinds import BANKED, Puzzle, kind_of, puzzle_from_json
from patchwork_opt.puzzles.stores import PuzzleStore, VisitorStats, VisitorStore

#: A puzzle's rating before anyone answers it, by difficulty; a newcomer's is Glicko-2's own.
START_RATINGS: dict[int, float] = {1: 1100.0, 2: 1300.0, 3: 1500.0, 4: 1700.0, 5: 1900.0}
START_DEVIATION = 250.0
#: Rated answers after which the difficulty follows the visitor's rating alone; before, it stays at 1
#: (no answer yet) or 2 at most: a newcomer's rating is a guess, and a first puzzle should be won.
NEWCOMER_ANSWERS = 5
#: In streak mode the difficulty climbs one step every this many correct answers in a row (1 at the
#: start, 5 from a streak of 8).
STREAK_STEP = 2


def start_rating(puzzle: Any) -> Rating:
    """A puzzle's rating before anyone answers it: the one measured when it was made, when its kind
    measures one (an endgame's, by the bots' answers), else its difficulty's."""
    measured = kind_of(puzzle).measured_rating(puzzle)
    return Rating(measured if measured is not None else START_RATINGS[puzzle.difficulty], START_DEVIATION)


def find_puzzle(bank: Bank, puzzles: PuzzleStore, puzzle_id: str) -> Puzzle:
    """A bank puzzle, or one made on demand and kept in the store; ``PuzzleNotFoundError`` (404)."""
    found = bank.find(puzzle_id)
    if found is not None:
        return found
    data = puzzles.stored_puzzle(puzzle_id)
    if data is None:
        raise PuzzleNotFoundError(N_("no puzzle with id {id!r}"), id=puzzle_id)
    return puzzle_from_json(json.loads(data))


def difficulty_for(stats: VisitorStats | None, streak: bool) -> int:
    """The difficulty to serve when the request names none: in streak mode one step up every
    ``STREAK_STEP`` correct answers in a row; else the one whose puzzles start nearest the visitor's
    rating. A newcomer (fewer than ``NEWCOMER_ANSWERS`` rated answers) gets 1 before any answer and
    while under a newcomer's rating (more missed than solved), else 2."""
    if streak:
        return min(5, 1 + (stats.streak if stats else 0) // STREAK_STEP)
    if stats is None or stats.answers == 0:
        return 1
    if stats.answers < NEWCOMER_ANSWERS:
        return 1 if stats.rating.rating < START_RATING else 2
    return min(START_RATINGS, key=lambda d: abs(START_RATINGS[d] - stats.rating.rating))


def nearest_first(difficulty: int) -> list[int]:
    """The difficulties, ``difficulty`` first and the others by their distance from it (easier first)."""
    return sorted(START_RATINGS, key=lambda d: (abs(d - difficulty), d))


@dataclass(frozen=True, slots=True)
class PuzzleRequest:
    """What a visitor asks for: a kind the bank holds, a difficulty (None: it follows them), a theme
    of the kind, streak mode, who asks (None: someone who never answered) and the puzzle they have
    on screen (None: none), which is not served again while another one fits: "New puzzle" pressed
    before answering asks for another puzzle, not the same one."""

    kind: str = BANKED[0]
    difficulty: int | None = None
    theme: str | None = None
    streak: bool = False
    visitor: str | None = None
    instead_of: str | None = None


def due_retry(bank: Bank, puzzles: PuzzleStore, visitors: VisitorStore, visitor: str,
              request: PuzzleRequest) -> Puzzle | None:
    """The visitor's missed puzzle that comes back as the asked kind (and has the theme) due longest,
    or None."""
    for puzzle_id in visitors.due_retries(visitor):
        try:
            puzzle = find_puzzle(bank, puzzles, puzzle_id)
        except PuzzleNotFoundError:  # a bank puzzle this server no longer ships
            continue
        if puzzle.id == request.instead_of:
            continue
        if kind_of(puzzle).comes_back_as == request.kind and (request.theme is None or request.theme in puzzle.themes):
            return puzzle
    return None


def daily_puzzle(bank: Bank, day: date) -> Puzzle:
    """The puzzle of the UTC date ``day``: one of the bank's (ordered by id, so that the bank file's
    order does not matter), drawn by a generator seeded with the date, so every server with the same
    bank serves the same one all day."""
    pool = sorted((p for kind in BANKED for p in bank.puzzles.get(kind, ())), key=lambda p: p.id)
    if not pool:
        raise NoBankError(N_("this server has no puzzle bank, so no daily puzzle"))
    return random.Random(f"daily puzzle {day.isoformat()}").choice(pool)


@dataclass(frozen=True, slots=True)
class Pick:
    """What ``pick`` found: a puzzle (None: the visitor answered every one of the bank's that fits, so
    one is to be made), the visitor's stats (None: no visitor named), whether it is a retry, the
    difficulty it aimed at."""

    puzzle: Puzzle | None
    stats: VisitorStats | None
    retry: bool
    difficulty: int


def pick(request: PuzzleRequest, bank: Bank, puzzles: PuzzleStore, visitors: VisitorStore,
         rng: random.Random | None = None) -> Pick:
    """The puzzle to serve: a missed one that is due again (not in streak mode), else one of the bank
    the visitor has not answered, at the difficulty asked or the nearest one to the difficulty that
    follows them; with a theme and none left, one of the theme met before (``PuzzleNotFoundError``
    when the bank has none of the theme at all). ``VisitorNotFoundError``: an unknown visitor."""
    rng = rng or random.Random()
    stats, seen = None, set[str]()
    on_screen = {request.instead_of} if request.instead_of is not None else set()
    if request.visitor is not None:
        stats = visitors.visitor_stats(request.visitor)
        seen = visitors.answered(request.visitor)
        retry = None if request.streak else due_retry(bank, puzzles, visitors, request.visitor, request)
        if retry is not None:
            return Pick(retry, stats, True, retry.difficulty)
    named = request.difficulty is not None and not request.streak
    difficulty = request.difficulty if named and request.difficulty is not None else difficulty_for(stats,
                                                                                                    request.streak)
    for d in [difficulty] if named else nearest_first(difficulty):
        puzzle = bank.pick(request.kind, d, rng, seen | on_screen, theme=request.theme)
        if puzzle is not None:
            return Pick(puzzle, stats, False, difficulty)
    if request.theme is not None:
        again = (bank.pick(request.kind, None, rng, on_screen, theme=request.theme)  # met before: not rated again
                 or bank.pick(request.kind, None, rng, theme=request.theme))
        if again is None:
            # Translators: {kind} is a kind of puzzle (endgame, fill), {theme} a theme's name: keep them as they are
            raise PuzzleNotFoundError(N_("this server has no {kind} puzzle of theme {theme!r}"), kind=request.kind,
                                      theme=request.theme)
        return Pick(again, stats, False, difficulty)
    return Pick(None, stats, False, difficulty)


def repeated(bank: Bank, kind: str, difficulty: int, rng: random.Random | None = None) -> Puzzle:
    """A bank puzzle met before, for a server that makes no new ones (``NoBankError``: none of the
    kind at all)."""
    rng = rng or random.Random()
    again = bank.pick(kind, difficulty, rng) or bank.pick(kind, None, rng)
    if again is None:
        raise NoBankError(N_("this server has no {kind} puzzles"), kind=kind)
    return again

