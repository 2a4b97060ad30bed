"""Endgame puzzles: "find the only winning move" positions from seeded self-play, proven by the exact search.

A game is played by the solver bot against itself (or, one game in three, against a weaker level)
with fixed iteration budgets: the reference solver (``solver-rollout``), whose settings stay as
they are while the solver is developed, so a seed always gives the same game. Its late positions are
proven from the end backwards (each search leaves the table warm for the earlier, harder one; the
first position the exact search cannot settle in ``SOLVE_NODES`` nodes ends the scan: a node budget,
not a clock, so a seed gives the same puzzles on a busy machine). A position is a puzzle when

* exactly one *decision* wins: advance, buy patch N, or place the leather patch in one cell class
  (placements leaving quilts equal up to the board's symmetries are one move: ``proof.move_key``),
  and the player has at least two decisions to choose from;
* that decision's winning moves are few (``MAX_ACCEPTED`` at most), so the answer is one idea, the
  lichess rule "puzzle moves are only moves";
* a natural wrong move (the greedy bot's move when it loses, else the first losing move in the
  heuristic's order of the exact search) is refuted by best play in at most ``REFUTATION_PLIES``
  moves to the end of the game, short enough to show.

Its themes come from the proof (``themes.py``). Its difficulty is measured: the solver bot at levels
1-5 (``BOT_ITERATIONS``: fixed budgets, ``BOT_TRIALS`` seeds each) answers it, each answer a Glicko-2
game between the puzzle and a bot rated by its level (``BOT_RATINGS``), and the puzzle's rating after
those games gives the difficulty (``RATING_THRESHOLDS``). ``patchwork bench puzzles`` checks it against
the bot as people play it, on the clock.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from patchwork_opt.ai.bots.greedy import GreedyBot
from patchwork_opt.ai.bots.registry import make_bot
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record
from patchwork_opt.i18n import N_
from patchwork_opt.puzzles.glicko import Game, Rating, update
from patchwork_opt.puzzles.kinds import check_puzzle_request
from patchwork_opt.puzzles.kinds.endgame import ENDGAME, EndgamePuzzle
from patchwork_opt.puzzles.model import DIFFICULTIES
from patchwork_opt.puzzles.proof import (
    Classified,
    MoveKey,
    Prover,
    UnprovenError,
    margin_of,
    move_key,
    play,
)
from patchwork_opt.puzzles.themes import endgame_themes

#: Positions are looked at once both tokens have reached this space (from the end backwards).
FROM_SPACE = 30
#: Nodes the exact search may take on one position of the scan (about 1-2 s on one core).
SOLVE_NODES = 3_000_000
#: The winning decision's winning moves (classes up to symmetry) a puzzle accepts at most.
MAX_ACCEPTED = 6
#: The refutation of the wrong move, to the end of the game, is at most this many moves.
REFUTATION_PLIES = 16
#: Puzzles taken from one game at most (its positions are alike).
PER_GAME = 3
#: Moves of each game position (in the exact search's order) whose positions are looked at too, and
#: the nodes the exact search may take on each (less: most of their proof is in the table already).
SIDE_LINES = 3
SIDE_NODES = 1_000_000
#: The bot that plays the games: the reference solver, whose settings stay as they are while the
#: solver is developed (a seed keeps giving the same games).
GAME_BOT = "solver-rollout"
#: Iterations per move of the self-play bots (the solver at level 4, and the weaker one at level 2).
GAME_ITERATIONS = 1500
WEAK_ITERATIONS = 600
#: The bot that rates a puzzle: the reference solver at each level (its deliberate random moves at
#: levels 1-2, its exact endgame from level 3) on fixed iteration budgets, and its seeded tries per
#: level. A fixed baseline on fixed budgets: the same puzzle always gets the same difficulty while the
#: solver is developed (``bench puzzles`` checks the difficulties against today's solver on the clock).
RATING_BOT = "solver-rollout"
BOT_ITERATIONS: dict[int, int] = {1: 200, 2: 1000, 3: 2000, 4: 5000, 5: 12000}
BOT_TRIALS = 4
#: The rating each level's bot stands for when it answers a puzzle (a puzzle solved by level 1 is
#: easier than one only level 5 solves); the same scale as the web's puzzle ratings.
BOT_RATINGS: dict[int, float] = {1: 1100.0, 2: 1300.0, 3: 1500.0, 4: 1700.0, 5: 1900.0}
#: Difficulty from the puzzle's rating after the bots' answers: one more than the thresholds it
#: reaches. They are the quintiles of the shipped bank's 500 ratings, as near as their ties allow
#: (the 20 answers take few distinct values): 128, 124, 92, 50 and 106 puzzles. 1: level 1 finds the
#: win three or four times in four; 5: levels 1-2 hardly ever, and level 3 or more not always.
RATING_THRESHOLDS = (1060.0, 1110.0, 1160.0, 1370.0)
#: Games tried for one puzzle of a wanted difficulty (and theme) before giving up.
MAX_GAMES = 200


def self_play(seed: int) -> Record:
    """A whole game of the solver bot against itself or (one game in three) a weaker level: seeded
    bots on fixed iteration budgets, so the same seed gives the same game."""
    state = State.new(seed=seed)
    record = Record.start(state)
    weak = seed % 3 == 0
    bots = [make_bot(GAME_BOT, level=4, seed=seed, iterations=GAME_ITERATIONS),
            make_bot(GAME_BOT, level=2 if weak else 4, seed=seed + 1, iterations=WEAK_ITERATIONS if weak
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
    """For levels 1-5, the share of ``BOT_TRIALS`` seeded tries in which the rating bot (on
    ``BOT_ITERATIONS``) plays a winning move."""
    rates = []
    for level in DIFFICULTIES:
        found = 0
        for trial in range(BOT_TRIALS):
            bot = make_bot(RATING_BOT, level=level, seed=seed * 1000 + 10 * level + trial,
                           iterations=BOT_ITERATIONS[level])
            if move_key(state, bot.decide(state.clone()).move) in classified.wins:
                found += 1
        rates.append(found / BOT_TRIALS)
    return tuple(rates)


def rating_of(rates: tuple[float, ...]) -> float:
    """The puzzle's Glicko-2 rating after the bots' answers: each try a game the puzzle wins when the
    bot of that level misses, the bots rated ``BOT_RATINGS`` (a newcomer's start, one period)."""
    games = []
    for level, rate in zip(DIFFICULTIES, rates, strict=True):
        solved = round(rate * BOT_TRIALS)
        bot = Rating(BOT_RATINGS[level], 50.0)
        games += [Game(bot, 0.0)] * solved + [Game(bot, 1.0)] * (BOT_TRIALS - solved)
    return update(Rating(), games).rating


def difficulty_of(rating: float) -> int:
    """1-5: one more than the ``RATING_THRESHOLDS`` the rating reaches."""
    return 1 + sum(1 for t in RATING_THRESHOLDS if rating >= t)


def decision_of(key: MoveKey) -> MoveKey:
    """The decision a move makes: advance, buy patch N (wherever it goes), or the leather patch's
    cell class (where it goes is the whole decision)."""
    return key if key[0] == "leather" else (key[0], key[1], 0)


@dataclass(frozen=True, slots=True)
class OnlyMove:
    """A position's one winning decision: its winning moves (``accepted``), the decisions there were,
    and whether the same patch also has losing placements (``placement_decides``)."""

    decision: MoveKey
    accepted: int
    decisions: int
    placement_decides: bool


def only_move(classified: Classified) -> OnlyMove | None:
    """The position's only winning decision, or None when it is no puzzle (no win, more than one
    winning decision, one decision to choose from, or more than ``MAX_ACCEPTED`` winning moves)."""
    decisions = {decision_of(k) for k in classified.moves}
    winning = {decision_of(k) for k in classified.wins}
    if len(winning) != 1 or len(decisions) < 2 or len(classified.wins) > MAX_ACCEPTED:
        return None
    (decision,) = winning
    same = [k for k in classified.moves if k[:2] == decision[:2]]
    return OnlyMove(decision, len(classified.wins), len(decisions),
                    placement_decides=decision[0] != "advance" and len(same) > len(classified.wins))


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


@dataclass(frozen=True, slots=True)
class Candidate:
    """A proven only-move position: the moves of the game that reach it, the position, its moves
    proven, the only winning decision, the refutation of a natural wrong move and the best line after
    the winning move."""

    moves: tuple[Move, ...]
    state: State
    classified: Classified
    only: OnlyMove
    wrong: Refutation
    win_line: tuple[Move, ...]  # starts with the winning move


def late_positions(record: Record) -> list[tuple[int, State]]:
    """(ply, position) of the game once both tokens reached ``FROM_SPACE`` (a pending leather patch
    too: where it goes is a decision)."""
    out = []
    state = record.initial_state()
    for ply, move in enumerate(record.moves):
        if min(state.pos) >= FROM_SPACE:
            out.append((ply, state.clone()))
        state.apply(move)
    return out


def as_candidate(moves: tuple[Move, ...], state: State, classified: Classified, prover: Prover) -> Candidate | None:
    """The proven position as a puzzle candidate, or None when it is none."""
    only = only_move(classified)
    if only is None:
        return None
    wrong = refutation(state, classified, prover)
    if wrong is None:
        return None
    best = classified.best if move_key(state, classified.best) in classified.wins else classified.win_moves[0]
    _, rest = prover.after(state, best)
    return Candidate(moves, state, classified, only, wrong, (best, *rest))


def candidates(record: Record, prover: Prover) -> Iterator[Candidate]:
    """The game's positions that make puzzles, from the end backwards, each followed by the positions
    its first ``SIDE_LINES`` moves in the search's order lead to (the opponent's answer to a
    plausible move: its proof is in the table already). The scan stops at the first game position
    the exact search cannot settle in its budget (earlier ones take longer still)."""
    seen: set[str] = set()
    for ply, position in reversed(late_positions(record)):
        try:
            classified = prover.classify(position)
        except UnprovenError:
            return
        line = tuple(record.moves[:ply])
        for moves, state, proven in _with_side_lines(line, position, classified, prover):
            key = puzzle_id(state)
            if key in seen:
                continue
            seen.add(key)
            try:  # a line of best play (after the winning or a wrong move) may be beyond the budget
                found = as_candidate(moves, state, proven, prover)
            except UnprovenError:
                continue
            if found is not None:
                yield found


def _with_side_lines(line: tuple[Move, ...], position: State, classified: Classified,
                     prover: Prover) -> Iterator[tuple[tuple[Move, ...], State, Classified]]:
    """The game position, then the positions after its first ``SIDE_LINES`` moves (those the exact
    search settles in its budget), each with its moves proven."""
    yield line, position, classified
    for move in classified.order[:SIDE_LINES]:
        child = play(position, move)
        if child.is_terminal():
            continue
        try:
            proven = prover.classify(child, nodes=SIDE_NODES)
        except UnprovenError:
            continue
        yield (*line, move), child, proven


def puzzle_of(candidate: Candidate, record: Record, seed: int | None, rates: tuple[float, ...]) -> EndgamePuzzle:
    """The puzzle a candidate makes, rated by the bots' answers ``rates`` (levels 1-5)."""
    state, classified, wrong = candidate.state, candidate.classified, candidate.wrong
    margin = margin_of(classified.best_value)
    themes = endgame_themes(state, winning=candidate.win_line[0], win_line=candidate.win_line,
                            wrong_line=wrong.line, margin=margin, wrong_margin=wrong.margin,
                            placement_decides=candidate.only.placement_decides)
    rating = rating_of(rates)
    return EndgamePuzzle(
        id=puzzle_id(state), record=Record(record.circle[:], list(candidate.moves), record.leather),
        player=state.to_move(), winning=tuple(classified.win_moves), refutation=wrong.move,
        refutation_line=wrong.line, refutation_margin=wrong.margin, margin=margin,
        legal=len(classified.moves), difficulty=difficulty_of(rating), bots=rates, seed=seed, themes=themes,
        rating=round(rating, 1),
    )


def puzzles_of_game(seed: int, limit: int = PER_GAME,
                    wanted: Callable[[EndgamePuzzle], bool] = lambda p: True) -> list[EndgamePuzzle]:
    """Up to ``limit`` puzzles from the self-play game of ``seed`` that are ``wanted`` (a difficulty,
    a theme), each of another winning decision (a game's late positions are alike). The exact search
    starts each game with an empty table, so a seed's puzzles do not depend on the games before it."""
    record = self_play(seed)
    prover = Prover(nodes=SOLVE_NODES)
    out: list[EndgamePuzzle] = []
    decided: set[MoveKey] = set()
    for candidate in candidates(record, prover):
        if candidate.only.decision in decided:
            continue
        puzzle = puzzle_of(candidate, record, seed, bot_rates(candidate.state, candidate.classified, seed))
        if not wanted(puzzle):
            continue
        decided.add(candidate.only.decision)
        out.append(puzzle)
        if len(out) >= limit:
            break
    return out


def check_endgame_request(difficulty: int | None, theme: str | None) -> None:
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise PatchworkError(N_("difficulty must be 1-5, not {difficulty}"), difficulty=difficulty)
    check_puzzle_request(ENDGAME.name, None, theme)


def generate_endgame(seed: int, difficulty: int | None = None, *, theme: str | None = None,
                     max_games: int = MAX_GAMES, progress: Callable[[int], None] | None = None,
                     stop: StopSignal | None = None) -> EndgamePuzzle:
    """One endgame puzzle (of ``difficulty`` and ``theme`` when given) from the self-play games of
    ``seed``: the same seed gives the same puzzle. ``progress(games)`` is told each game played;
    ``stop`` ends the search between games (``PatchworkError``)."""
    check_endgame_request(difficulty, theme)
    rng = random.Random(seed)

    def wanted(p: EndgamePuzzle) -> bool:
        return (difficulty is None or p.difficulty == difficulty) and (theme is None or theme in p.themes)

    for game in range(max_games):
        if stop is not None and stop.is_set():
            raise PatchworkError(N_("the puzzle search was stopped"))
        found = puzzles_of_game(rng.randrange(1 << 31), limit=1, wanted=wanted)
        if progress is not None:
            progress(game + 1)
        if found:
            return found[0]
    raise PatchworkError(_NONE_FOUND[difficulty is not None, theme is not None], difficulty=difficulty, theme=theme,
                         games=max_games, seed=seed)


#: No puzzle found, by whether a difficulty and a theme were asked for.
_NONE_FOUND = {
    # Translators: no endgame puzzle was found in {games} self-play games of the random seed {seed}
    (False, False): N_("no endgame puzzle in {games} self-play games of seed {seed}; try another seed"),
    (True, False): N_("no endgame puzzle of difficulty {difficulty} in {games} self-play games of seed {seed}; "
                      "try another seed"),
    # Translators: {theme} is a theme's name (7x7-race, leather ...), kept as it is
    (False, True): N_("no endgame puzzle on the theme {theme} in {games} self-play games of seed {seed}; "
                      "try another seed"),
    (True, True): N_("no endgame puzzle of difficulty {difficulty} on the theme {theme} in {games} self-play games "
                     "of seed {seed}; try another seed"),
}


def make(seed: int, difficulty: int | None, *, variant: str | None, theme: str | None,
         progress: Callable[[int], None] | None, stop: StopSignal | None) -> EndgamePuzzle:
    """The endgame kind's ``Maker.make``: ``generate_endgame`` (an endgame has no variants)."""
    return generate_endgame(seed, difficulty, theme=theme, progress=progress, stop=stop)


def bank_task(seed: int) -> list[dict[str, Any]]:
    """The endgame kind's ``Maker.bank_task``: the puzzles of one self-play game, as JSON."""
    return [p.to_json() for p in puzzles_of_game(seed)]
