"""``patchwork engine``: the protocol loop (docs/engine.md), one process for a whole game or match.

The main thread reads commands and answers at once; a search runs in a thread of its own, so
``stop``, ``isready`` and ``quit`` are answered while it thinks. The compiled searches load in the
background as the engine starts (``isready`` waits for them), once for every game that follows.

``go movetime``, ``go nodes`` and a bare ``go`` ask the bot of the ``AI`` and ``Level`` options
(the registry's, with the CP-SAT advisor plugged in by ``apps/wiring.py``), kept for the game so
that its tables carry over from move to move: the engine plays exactly as ``patchwork move`` and
``patchwork match`` do with the same bot, level, time and seed. ``go infinite`` runs the AI's
analysis of the position (``wiring.analyse``, as ``patchwork hint`` makes it) in rounds of doubling
time, writing ``info`` after each, until ``stop``; the analysis honours the stop signal within one
slice of its search, well inside 50 ms.

``Threads`` and ``Hash`` are advertised as they are: the searches use one core, and their
exact-search tables are sized by their budget (at most 128 MB); neither can be changed yet.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from patchwork_opt.ai.base import AnalysedMove, Bot, Decision
from patchwork_opt.ai.bots.registry import BOT_NAMES, LEVEL_TIME, make_bot
from patchwork_opt.ai.bots.solver_bot import SolverBot
from patchwork_opt.apps.engine.protocol import (
    Command,
    Go,
    Info,
    IsReady,
    NewGame,
    Position,
    Quit,
    SetOption,
    Stop,
    Upi,
    format_bestmove,
    format_error,
    format_info,
    format_words,
    parse_command,
)
from patchwork_opt.apps.wiring import analyse, bot_advisor, warm_compiled_searches
from patchwork_opt.core.advice import PlacementAdvisor
from patchwork_opt.core.errors import GameOverError, PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.core.words import line_words
from patchwork_opt.formats.notation import from_notation

ENGINE_NAME = "patchwork-opt"
ENGINE_AUTHOR = "the patchwork-opt authors"
#: ``go infinite``: the first round's seconds, and the longest round (later rounds repeat it)
FIRST_ROUND = 0.25
LONGEST_ROUND = 8.0
HASH_MB = 128  # the exact-search tables' size at most (``ai/analysis/run.py``)


@dataclass(frozen=True, slots=True)
class Options:
    """What ``setoption`` sets; ``seed`` None: fresh randomness."""

    ai: str = "solver"
    level: int = 3
    threads: int = 1
    hash_mb: int = HASH_MB
    seed: int | None = None


OPTION_LINES = (
    f"option name AI type combo default solver {' '.join(f'var {n}' for n in BOT_NAMES)}",
    f"option name Level type spin default 3 min {min(LEVEL_TIME)} max {max(LEVEL_TIME)}",
    "option name Threads type spin default 1 min 1 max 1",
    f"option name Hash type spin default {HASH_MB} min {HASH_MB} max {HASH_MB}",
    "option name Seed type string default none",
)


def _spin(name: str, value: str, low: int, high: int) -> int:
    try:
        number = int(value)
    except ValueError:
        raise PatchworkError(f"setoption {name}: expected a whole number, got {value!r}") from None
    if not low <= number <= high:
        raise PatchworkError(f"setoption {name}: {number} is outside {low}..{high}")
    return number


def with_option(options: Options, name: str, value: str) -> Options:
    """``options`` with one of them set from its protocol text (names without regard to case)."""
    key = name.strip().lower()
    if key == "ai":
        ai = value.strip().lower()
        if ai not in BOT_NAMES:
            raise PatchworkError(f"setoption AI: unknown bot {value!r} (bots: {', '.join(BOT_NAMES)})")
        return replace(options, ai=ai)
    if key == "level":
        return replace(options, level=_spin("Level", value, min(LEVEL_TIME), max(LEVEL_TIME)))
    if key == "threads":
        return replace(options, threads=_spin("Threads", value, 1, 1))  # the searches use one core
    if key == "hash":
        return replace(options, hash_mb=_spin("Hash", value, HASH_MB, HASH_MB))
    if key == "seed":
        text = value.strip().lower()
        return replace(options, seed=None if text in ("none", "") else _spin("Seed", value, 0, 2**63 - 1))
    raise PatchworkError(f"setoption: unknown option {name!r} (options: AI, Level, Threads, Hash, Seed)")


def warm_up() -> None:
    """Load what the first ``go`` would otherwise load on its clock: the compiled searches and the
    CP-SAT advisor (OR-Tools)."""
    warm_compiled_searches()
    bot_advisor("solver")


def position_state(command: Position) -> State:
    """The position a ``position`` command sets up, its moves played through the rules."""
    if command.notation is not None:
        state = from_notation(command.notation)
    elif command.circle is not None:
        state = State.new(list(command.circle))
    else:
        state = State.new(seed=command.seed)
    for i, move in enumerate(command.moves):
        try:
            state.apply(move)
        except PatchworkError as exc:
            raise PatchworkError(f"position moves[{i}] {move}: {exc}") from None
    return state


def decision_info(decision: Decision, millis: int) -> Info:
    """The ``info`` line of a bot's decision (figures only where the bot gives them)."""
    stats = decision.stats
    nodes = int(stats.get("iterations", 0.0) + stats.get("nodes", 0.0)) or int(stats.get("visits", 0.0))
    win = decision.expected
    return Info(millis, nodes, None if win is None else min(1.0, max(0.0, float(win))),
                stats.get("margin"), bool(stats.get("exact", 0.0)), (decision.move,))


def analysed_info(moves: list[AnalysedMove], millis: int) -> Info:
    """The ``info`` line of an analysis's moves (best first); nodes: the simulations behind them."""
    best = moves[0]
    return Info(millis, sum(m.visits for m in moves), best.win if best.valued else None,
                best.margin if best.valued and not best.bound else None, best.exact, best.line or (best.move,))


class Engine:
    """The protocol's state: options, the position, the bot of the game and the search running."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write_line = write
        self._out = threading.Lock()
        self.options = Options()
        self.state: State | None = None
        self._bots: dict[tuple[object, ...], Bot] = {}
        #: one placement advisor per bot name for the whole process, as a match worker keeps one
        #: (its CP-SAT models carry over from game to game)
        self._advisors: dict[str, PlacementAdvisor | None] = {}
        self._search: threading.Thread | None = None
        self._running = threading.Event()  # set by ``go``, cleared just before ``bestmove`` is written
        self._stop = StopSignal()
        self._warm = threading.Thread(target=warm_up, name="warm-up", daemon=True)
        self._warm.start()

    def write(self, line: str) -> None:
        with self._out:
            self._write_line(line)

    def handle_line(self, line: str) -> bool:
        """Act on one input line; False once the engine should exit."""
        try:
            command = parse_command(line)
            return True if command is None else self.handle(command)
        except PatchworkError as exc:
            self.write(format_error(str(exc)))
            return True

    def handle(self, command: Command) -> bool:
        if isinstance(command, Quit):
            self.stop()
            return False
        if isinstance(command, Stop):
            self.stop()
        elif isinstance(command, Upi):
            for line in (f"id name {ENGINE_NAME}", f"id author {ENGINE_AUTHOR}", *OPTION_LINES, "upiok"):
                self.write(line)
        elif isinstance(command, IsReady):
            self._warm.join()
            self.write("readyok")
        else:
            self._refuse_while_searching(command)
            if isinstance(command, SetOption):
                self.options = with_option(self.options, command.name, command.value)
                self._bots.clear()
            elif isinstance(command, NewGame):
                self._bots.clear()
            elif isinstance(command, Position):
                self.state = position_state(command)
            elif isinstance(command, Go):
                self.go(command)
        return True

    def _refuse_while_searching(self, command: Command) -> None:
        if self.searching():
            raise PatchworkError(f"{type(command).__name__.lower()}: a search is running (send stop first)")

    def searching(self) -> bool:
        """A search has started and not yet answered (the next command may follow its ``bestmove`` at once)."""
        return self._running.is_set()

    def go(self, command: Go) -> None:
        if self.state is None:
            raise PatchworkError("go: no position yet (send 'position startpos ...' first)")
        if self.state.is_terminal():
            raise GameOverError("go: the game is over: there is no move to choose")
        self._warm.join()
        self._stop = StopSignal()
        self._running.set()
        state = self.state.clone()
        target = self._analyse_until_stopped if command.limit == "infinite" else self._decide
        self._search = threading.Thread(target=self._searched, args=(target, state, command), name="search",
                                        daemon=True)
        self._search.start()

    def stop(self) -> None:
        """End the running search (it answers ``bestmove``) and wait for it."""
        self._stop.set()
        if self._search is not None:
            self._search.join()
            self._search = None

    def _searched(self, search: Callable[[State, Go], Move], state: State, command: Go) -> None:
        try:
            answer = format_bestmove(search(state, command))
        except Exception as exc:  # the engine keeps running whatever one search met; the client is told
            answer = format_error(str(exc) if isinstance(exc, PatchworkError) else f"{type(exc).__name__}: {exc}")
        self._running.clear()
        self.write(answer)

    # --- the searches ------------------------------------------------------------------------

    def _bot(self, command: Go) -> Bot:
        """The game's bot for this budget (made once per game, so its tables carry over)."""
        o = self.options
        key = (o.ai, o.level, o.seed, command.limit, command.amount)
        if key not in self._bots:
            self._bots[key] = make_bot(
                o.ai, level=o.level, seed=o.seed, advisor=self._advisor(o.ai),
                time_per_move=command.amount / 1000 if command.limit == "movetime" else None,
                iterations=command.amount if command.limit == "nodes" else None,
            )
        return self._bots[key]

    def _advisor(self, ai: str) -> PlacementAdvisor | None:
        if ai not in self._advisors:
            self._advisors[ai] = bot_advisor(ai)
        return self._advisors[ai]

    def _decide(self, state: State, command: Go) -> Move:
        started = time.perf_counter()
        bot = self._bot(command)
        # the solver's search honours ``stop`` at once; the other bots answer within their budget
        before = state.clone()  # the words are said in the position the move is chosen in
        decision = bot.decide(state, stop=self._stop) if isinstance(bot, SolverBot) else bot.decide(state)
        self.write(format_info(decision_info(decision, int(1000 * (time.perf_counter() - started)))))
        self.write(format_words(line_words(before, [decision.move])))
        return decision.move

    def _analyse_until_stopped(self, state: State, command: Go) -> Move:
        """The AI's analysis in rounds of doubling time until ``stop``; the last whole round (or
        the one ``stop`` cut short, when it is the first) gives ``bestmove``."""
        started = time.perf_counter()
        best: list[AnalysedMove] = []
        seconds = FIRST_ROUND
        while not self._stop.is_set():
            moves = analyse(state, seconds, stop=self._stop).moves
            if self._stop.is_set() and best:
                break  # the round cut short knows less than the one before it
            best = moves
            info = analysed_info(moves, int(1000 * (time.perf_counter() - started)))
            self.write(format_info(info))
            self.write(format_words(line_words(state, info.pv)))
            if moves[0].exact:
                break  # solved: nothing more to learn, wait for stop
            seconds = min(2 * seconds, LONGEST_ROUND)
        self._stop_event_wait()
        return best[0].move

    def _stop_event_wait(self) -> None:
        """Block until ``stop`` (``go infinite`` answers only then, as UCI's does)."""
        done = threading.Event()
        self._stop.attach(done.set)
        done.wait()


def serve(lines: Iterable[str], write: Callable[[str], None]) -> int:
    """Run the protocol over ``lines`` until ``quit`` or their end; the exit code (0)."""
    engine = Engine(write)
    for line in lines:
        if not engine.handle_line(line):
            break
    engine.stop()
    return 0
