"""``patchwork engine``: the protocol loop (docs/engine.md), one process for a whole game or match.

The main thread reads commands and answers at once; a search runs in a thread of its own, so
``stop``, ``isready`` and ``quit`` are answered while it thinks. The compiled searches load in the
background as the engine starts (``isready`` waits for them), once for every game that follows.

``go movetime``, ``go nodes`` and a bare ``go`` ask the bot of the ``AI`` and ``Level`` options
(the registry's, with the CP-SAT advisor plugged in by ``apps/wiring.py``), kept for the game so
that its tables carry over from move to move: the engine plays exactly as ``patchwork move`` and
``patchwork match`` do with the same bot, level, time and seed. ``go infinite`` runs the live
analysis (``wiring.live``: the loop behind ``patchwork hint --watch`` and the service's analysis
stream), writing ``info`` for each of its snapshots (the best ``MultiPV`` lines), until ``stop``;
the loop honours the stop signal within one slice of its search, well inside 50 ms.

``Threads`` and ``Hash`` are advertised as they are: the searches use one core, and their
exact-search tables are sized by their budget (at most 128 MB); neither can be changed yet.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from patchwork_opt.ai.base import Bot, Decision
from patchwork_opt.ai.bots.registry import BOT_NAMES, LEVEL_TIME, make_bot
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
from patchwork_opt.apps.wiring import bot_advisor, live, warm_compiled_searches
from patchwork_opt.core.advice import PlacementAdvisor
from patchwork_opt.core.errors import GameOverError, PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.core.words import line_words
from patchwork_opt.formats.notation import from_notation

if TYPE_CHECKING:  # the live analysis (Numba) loads with the first go infinite
    from patchwork_opt.ai.analysis.live import LiveSnapshot

ENGINE_NAME = "patchwork-opt"
ENGINE_AUTHOR = "the patchwork-opt authors"
#: ``go infinite``: the lines each snapshot reports at most (``MultiPV``)
MAX_MULTIPV = 5
HASH_MB = 128  # the exact-search tables' size at most (``ai/analysis/run.py``)


@dataclass(frozen=True, slots=True)
class Options:
    """What ``setoption`` sets; ``seed`` None: fresh randomness."""

    ai: str = "solver"
    level: int = 3
    threads: int = 1
    hash_mb: int = HASH_MB
    seed: int | None = None
    multipv: int = 1


OPTION_LINES = (
    f"option name AI type combo default solver {' '.join(f'var {n}' for n in BOT_NAMES)}",
    f"option name Level type spin default 3 min {min(LEVEL_TIME)} max {max(LEVEL_TIME)}",
    "option name Threads type spin default 1 min 1 max 1",
    f"option name Hash type spin default {HASH_MB} min {HASH_MB} max {HASH_MB}",
    "option name Seed type string default none",
    f"option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}",
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
    if key == "multipv":
        return replace(options, multipv=_spin("MultiPV", value, 1, MAX_MULTIPV))
    raise PatchworkError(f"setoption: unknown option {name!r} (options: AI, Level, Threads, Hash, Seed, MultiPV)")


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


def snapshot_infos(snapshot: LiveSnapshot, lines: int) -> list[Info]:
    """The ``info`` lines of a live analysis's snapshot: its best ``lines`` moves (numbered by
    ``multipv`` when more than one is asked), with the nodes behind the whole snapshot."""
    millis, shown = int(1000 * snapshot.seconds), snapshot.lines(lines)
    return [Info(millis, snapshot.nodes, m.win if m.valued else None, m.margin if m.valued and not m.bound else None,
                 m.exact, m.line or (m.move,), multipv=k if lines > 1 else None)
            for k, m in enumerate(shown, start=1)]


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
        before = state.clone()  # the words are said in the position the move is chosen in
        decision = bot.decide(state, stop=self._stop)  # ``stop`` ends its search with the best move so far
        self.write(format_info(decision_info(decision, int(1000 * (time.perf_counter() - started)))))
        self.write(format_words(line_words(before, [decision.move])))
        return decision.move

    def _analyse_until_stopped(self, state: State, command: Go) -> Move:
        """The live analysis until ``stop`` (or until it has solved the position: it then waits for
        ``stop``), an ``info`` line per line of each snapshot, each followed by its pv in words; its
        last snapshot gives ``bestmove``."""
        best = None
        for snapshot in live(state, stop=self._stop):
            for info in snapshot_infos(snapshot, self.options.multipv):
                self.write(format_info(info))
                self.write(format_words(line_words(state, info.pv)))
            best = snapshot.analysis.best.move if snapshot.analysis.moves else best
        self._stop_event_wait()
        if best is None:  # stopped before anything was valued: the first legal move
            return next(state.legal_moves())
        return best

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
