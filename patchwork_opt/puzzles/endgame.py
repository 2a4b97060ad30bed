"""Endgame puzzles: "find the winning move" positions from seeded self-play, proven by the exact search.

A game is played by the solver bot against itself (or, one game in three, against a weaker level)
with fixed iteration budgets: the reference solver (``solver-rollout``), whose settings stay as
they are while the solver is developed, so a seed always gives the same game and difficulty. Its
late positions are then proven from the end backwards (each search leaves the table warm for the
earlier, harder one; the first position the exact search cannot settle in ``SOLVE_SECONDS``, by
its estimate or on the clock, ends the scan). A position becomes a puzzle when

* the player to move can win, but at most a third of the distinct legal moves win (placements that
  leave quilts equal up to the board's symmetries are one move: ``proof.move_key``);
* advancing is not the only win (a puzzle whose answer is "wait" teaches nothing);
* a natural wrong move (the greedy bot's move when it loses, else the first losing move in the
  heuristic's order of the exact search) is refuted by best play in at most ``REFUTATION_PLIES``
  moves to the end of the game, short enough to show.

Its difficulty (1-5) weighs how rare the winning moves are against how often the solver bot at
levels 1-5 finds one (``BOT_ITERATIONS``: fixed budgets, so the same puzzle always gets the same
difficulty; ``patchwork bench puzzles`` checks it against the solver as people play it, on the clock).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from patchwork_opt.ai.bots.greedy import GreedyBot
from patchwork_opt.ai.bots.registry import make_bot
from patchwork_opt.ai.search.exactcore import worth_trying
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record
from patchwork_opt.puzzles.model import DIFFICULTIES, EndgamePuzzle
from patchwork_opt.puzzles.proof import (
    ADVANCE_KEY,
    Classified,
    MoveKey,
    Prover,
    UnprovenError,
    margin_of,
    move_key,
    play,
)

#: Positions are puzzles once both tokens have reached this space, and from where the exact search's
#: estimate says it settles them in ``SOLVE_SECONDS``.
FROM_SPACE = 34
#: Seconds the exact search may take on one position of the scan.
SOLVE_SECONDS = 1.5
#: The refutation of the wrong move, to the end of the game, is at most this many moves.
REFUTATION_PLIES = 12
#: Puzzles taken from one game at most (its positions are alike).
PER_GAME = 2
#: The bot that plays the games and rates the puzzles: the reference solver, whose settings stay as
#: they are while the solver is developed (a seed keeps giving the same games and difficulties).
BOT = "solver-rollout"
#: Iterations per move of the self-play bots (the solver at level 4, and the weaker one at level 2).
GAME_ITERATIONS = 1500
WEAK_ITERATIONS = 600
#: The solver bot's iterations per move at each level when it rates a puzzle, and its tries per level
#: (two where its level plays deliberate random moves, one where its choice is all but settled).
BOT_ITERATIONS: dict[int, int] = {1: 200, 2: 1000, 3: 2000, 4: 5000, 5: 12000}
BOT_TRIALS: dict[int, int] = {1: 2, 2: 2, 3: 1, 4: 1, 5: 1}
#: Difficulty from the score (0 easy .. 1 hard): one more than the thresholds the score reaches
#: (set so that self-play positions spread about evenly over the five difficulties).
DIFFICULTY_THRESHOLDS = (0.18, 0.32, 0.46, 0.6)
#: Games tried for one puzzle of a wanted difficulty before giving up.
MAX_GAMES = 200


def self_play(seed: int) -> Record:
    """A whole game of the solver bot against itself or (one game in three) a weaker level: seeded
    bots on fixed iteration budgets, so the same seed gives the same game."""
    state = State.new(seed=seed)
    record = Record.start(state)
    weak = seed % 3 == 0
    bots = [make_bot(BOT, level=4, seed=seed, iterations=GAME_ITERATIONS),
            make_bot(BOT, level=2 if weak else 4, seed=seed + 1, iterations=WEAK_ITERATIONS if weak
                     else GAME_ITERATIONS)]
    if seed % 2:
        bots.reverse()
    while not state.is_terminal():
        move = bots[state.to_move()].decide(state.clone()).move
        state.apply(move)
        record.moves.append(move)
    return record


def puzzle_id(state: State) -> str:
    return "e" + hashlib.sha256(to_notation(state).encode()).hexdigest()[:12]


def bot_rates(state: State, classified: Classified, seed: int) -> tuple[float, ...]:
    """For levels 1-5, the share of ``BOT_TRIALS`` seeded tries in which the solver bot (on
    ``BOT_ITERATIONS``) plays a winning move."""
    rates = []
    for level in DIFFICULTIES:
        found = 0
        for trial in range(BOT_TRIALS[level]):
            bot = make_bot(BOT, level=level, seed=seed * 1000 + 10 * level + trial,
                           iterations=BOT_ITERATIONS[level])
            if move_key(state, bot.decide(state.clone()).move) in classified.wins:
                found += 1
        rates.append(found / BOT_TRIALS[level])
    return tuple(rates)


def difficulty_of(wins: int, legal: int, rates: tuple[float, ...]) -> int:
    """1-5 from how rare the winning moves are (one win in three moves counts 0, one in many
    nearly 1) and how seldom the bots find one, weighed equally."""
    rarity = 1.0 - 3.0 * wins / legal
    missed = 1.0 - sum(rates) / len(rates)
    score = 0.5 * rarity + 0.5 * missed
    return 1 + sum(1 for t in DIFFICULTY_THRESHOLDS if score >= t)


def natural_wrong_moves(state: State, classified: Classified) -> list[Move]:
    """Losing moves, the most natural first: the greedy bot's move, then the exact search's order
    (the heuristic's: 7x7 completions, each offer's best placement, advance, the other placements)."""
    seen: set[MoveKey] = set()
    out = []
    for move in (GreedyBot().decide(state.clone()).move, *classified.order):
        key = move_key(state, move)
        if key not in seen and key not in classified.wins:
            seen.add(key)
            out.append(move)
    return out


@dataclass(frozen=True, slots=True)
class Refutation:
    """A wrong move, the line of best play after it to the end of the game, and the margin it ends in."""

    move: Move
    line: tuple[Move, ...]  # starts with ``move``
    margin: float


def refutation(state: State, classified: Classified, prover: Prover, tries: int = 3) -> Refutation | None:
    """The most natural of the first ``tries`` wrong moves whose refutation is short, or None."""
    for move in natural_wrong_moves(state, classified)[:tries]:
        value, rest = prover.after(state, move)
        end = play(state, move)
        for reply in rest:
            end.apply(reply)
        if value <= 0 and end.is_terminal() and 1 + len(rest) <= REFUTATION_PLIES:
            return Refutation(move, (move, *rest), margin_of(value))
    return None


def candidates(record: Record, prover: Prover) -> Iterator[tuple[int, State, Classified, Refutation]]:
    """The game's positions that make puzzles, from the end backwards: (ply, state, its moves proven,
    the refutation of a wrong move); the scan stops at the first position the exact search cannot
    settle in time."""
    states = []
    state = record.initial_state()
    for ply, move in enumerate(record.moves):
        if min(state.pos) >= FROM_SPACE and state.pending < 0:
            states.append((ply, state.clone()))
        state.apply(move)
    for ply, position in reversed(states):
        if not worth_trying(position, SOLVE_SECONDS):  # earlier positions take longer still
            return
        try:
            classified = prover.classify(position)
        except UnprovenError:
            return
        wins, legal = len(classified.wins), len(classified.moves)
        if not 1 <= wins <= legal / 3 or classified.wins == {ADVANCE_KEY}:
            continue
        refuted = refutation(position, classified, prover)
        if refuted is not None:
            yield ply, position, classified, refuted


def puzzles_of_game(seed: int, prover: Prover, limit: int = PER_GAME,
                    wanted: Callable[[int], bool] = lambda d: True) -> list[EndgamePuzzle]:
    """Up to ``limit`` puzzles from the self-play game of ``seed`` whose difficulty is ``wanted``."""
    record = self_play(seed)
    out: list[EndgamePuzzle] = []
    for ply, state, classified, wrong in candidates(record, prover):
        rates = bot_rates(state, classified, seed)
        difficulty = difficulty_of(len(classified.wins), len(classified.moves), rates)
        if not wanted(difficulty):
            continue
        out.append(EndgamePuzzle(
            id=puzzle_id(state), record=Record(record.circle[:], record.moves[:ply], record.leather),
            player=state.to_move(), winning=tuple(classified.win_moves), refutation=wrong.move,
            refutation_line=wrong.line, refutation_margin=wrong.margin, margin=margin_of(classified.best_value),
            legal=len(classified.moves), difficulty=difficulty, bots=rates, seed=seed,
        ))
        if len(out) >= limit:
            break
    return out


def generate_endgame(seed: int, difficulty: int | None = None, *, max_games: int = MAX_GAMES,
                     progress: Callable[[int], None] | None = None, stop: StopSignal | None = None) -> EndgamePuzzle:
    """One endgame puzzle (of ``difficulty`` when given) from the self-play games of ``seed``:
    the same seed gives the same puzzle. ``progress(games)`` is told each game played; ``stop``
    ends the search between games (``PatchworkError``)."""
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise PatchworkError(f"difficulty must be 1-5, not {difficulty}")
    rng = random.Random(seed)
    prover = Prover(SOLVE_SECONDS)
    for game in range(max_games):
        if stop is not None and stop.is_set():
            raise PatchworkError("the puzzle search was stopped")
        found = puzzles_of_game(rng.randrange(1 << 31), prover, limit=1,
                                wanted=lambda d: difficulty is None or d == difficulty)
        if progress is not None:
            progress(game + 1)
        if found:
            return found[0]
    which = f" of difficulty {difficulty}" if difficulty is not None else ""
    raise PatchworkError(f"no endgame puzzle{which} in {max_games} self-play games of seed {seed}; try another seed")
