"""The ``engine:CMD`` player of ``patchwork match``: any program speaking the engine protocol
(docs/engine.md), started once per match worker and asked for a move as a bot is.

Each game tells the engine its level and seed and ``newgame``; each move sends the position in the
one-line notation and ``go movetime`` (the match's time per move), ``go nodes`` (its iterations)
or a bare ``go`` (the level's own budget), and reads ``info`` lines up to ``bestmove``. An engine
that answers ``info string error: ...``, exits or stays silent past its time is an ``EngineError``
naming the command and what it said.
"""

from __future__ import annotations

import atexit
import contextlib
import queue
import shutil
import subprocess
import threading
import time

from patchwork_opt.ai.base import Decision
from patchwork_opt.ai.bots.registry import UnknownBotError
from patchwork_opt.apps.engine.protocol import Info, command_words, parse_bestmove, parse_info
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.i18n import N_

PREFIX = "engine:"
START_SECONDS = 600.0  # an engine's first ``readyok`` may wait for its compiled searches to be built
MOVE_GRACE = 60.0  # seconds past a move's budget before a silent engine is given up on


class EngineError(PatchworkError):
    """An engine program that cannot be started or broke the protocol."""

    exit_code = 1


def is_engine(name: str) -> bool:
    """Whether a match player's name is ``engine:CMD``."""
    return name.strip().lower().startswith(PREFIX)


def engine_command(name: str) -> str:
    """The command of an ``engine:CMD`` name, checked to be a command line whose program can be
    found (before any game starts, so a match is refused rather than lost)."""
    command = name.strip()[len(PREFIX):]
    program = command_words(command)[0]
    if shutil.which(program) is None:
        # Translators: an engine:CMD player's command ({command}) whose program ({program}) cannot be run
        raise UnknownBotError(N_("engine {command!r}: no program {program!r} to run (not found or not executable)"),
                              command=command, program=program)
    return command


class EngineProcess:
    """One running engine: its stdout read by a thread into a queue, so every wait has a timeout."""

    def __init__(self, command: str) -> None:
        self.command = command
        try:
            self._process = subprocess.Popen(command_words(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             text=True, bufsize=1)
        except OSError as exc:
            # Translators: {reason} is the system's own words
            raise EngineError(N_("engine {command!r}: cannot start it: {reason}"), command=command,
                              reason=str(exc.strerror or exc)) from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True, name="engine-reader").start()
        self.send("upi")
        self.expect("upiok", START_SECONDS)
        self.ready()

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)  # the engine closed its output

    def send(self, line: str) -> None:
        try:
            assert self._process.stdin is not None
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineError(N_("engine {command!r} has exited (exit code {code})"), command=self.command,
                              code=self._process.poll()) from None

    def next_line(self, deadline: float) -> str:
        """The engine's next line; an error when it says ``info string error``, exits or is silent."""
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise EngineError(N_("engine {command!r} did not answer in time"), command=self.command) from None
        if line is None:
            raise EngineError(N_("engine {command!r} has exited (exit code {code})"), command=self.command,
                              code=self._process.wait())
        if line.startswith("info string error:"):
            # Translators: {reason} is what the engine itself said went wrong (its own words)
            raise EngineError(N_("engine {command!r}: {reason}"), command=self.command,
                              reason=line[len("info string error:"):].strip())
        return line

    def expect(self, answer: str, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while self.next_line(deadline).strip() != answer:
            pass

    def ready(self) -> None:
        self.send("isready")
        self.expect("readyok", START_SECONDS)

    def close(self) -> None:
        if self._process.poll() is None:
            try:
                self.send("quit")
                self._process.wait(timeout=5)
            except (EngineError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()


_RUNNING: dict[str, EngineProcess] = {}


def engine_process(command: str) -> EngineProcess:
    """The engine of ``command`` in this process, started at its first use and kept for the match
    (an engine whose process ended is started again)."""
    running = _RUNNING.get(command)
    if running is None or running._process.poll() is not None:
        running = _RUNNING[command] = EngineProcess(command)
    return running


@atexit.register
def close_engines() -> None:
    """Quit every engine this process started (a worker killed without it: the engine reads the end
    of its input and exits by itself)."""
    while _RUNNING:
        _RUNNING.popitem()[1].close()


class EngineBot:
    """A bot whose moves come from an engine program; made once per game, like the registry's."""

    def __init__(self, name: str, *, level: int, seed: int | None, time_per_move: float | None,
                 iterations: int | None) -> None:
        self.name = name.strip()
        self.engine = engine_process(engine_command(name))
        if iterations is not None:
            self.go, budget = f"go nodes {iterations}", None
        elif time_per_move is not None:
            self.go, budget = f"go movetime {max(1, round(1000 * time_per_move))}", time_per_move
        else:
            self.go, budget = "go", None
        self.patience = MOVE_GRACE + (budget or 0.0) * 4
        self.engine.send(f"setoption name Level value {level}")
        self.engine.send(f"setoption name Seed value {'none' if seed is None else seed}")
        self.engine.send("newgame")
        self.engine.ready()  # an option it refused is said now, before the game

    def decide(self, state: State, stop: StopSignal | None = None) -> Decision:
        """The engine's ``bestmove`` for ``state``; ``stop``, when set while it thinks, is sent on
        as the protocol's ``stop`` (it answers with its best move so far)."""
        self.engine.send(f"position notation {to_notation(state)}")
        self.engine.send(self.go)
        deadline = time.monotonic() + self.patience
        info: Info | None = None
        thinking = _Thinking(self.engine)
        if stop is not None:
            stop.attach(thinking.interrupt)
        try:
            while True:
                line = self.engine.next_line(deadline)
                try:
                    move = parse_bestmove(line)
                    if move is not None:
                        break
                    if line.startswith("info ") and not line.startswith("info string"):
                        info = parse_info(line)
                except PatchworkError as exc:
                    raise EngineError(N_("engine {command!r}: cannot read {line!r}: {error}"),
                                      command=self.engine.command, line=line, error=exc) from None
        finally:
            thinking.answered()
        stats: dict[str, float] = {}
        if info is not None:
            stats = {"nodes": float(info.nodes), "exact": float(info.exact)}
            if info.margin is not None:
                stats["margin"] = info.margin
        return Decision(move, f"the engine's move ({self.engine.command})",
                        expected=None if info is None else info.win, stats=stats)


class _Thinking:
    """One ``go`` while it runs: ``interrupt`` (from another thread) sends ``stop`` until
    ``answered``, never after (the next ``go`` must not meet a stale ``stop``)."""

    def __init__(self, engine: EngineProcess) -> None:
        self._engine = engine
        self._lock = threading.Lock()
        self._running = True

    def interrupt(self) -> None:
        with self._lock:
            if self._running:
                self._running = False
                with contextlib.suppress(EngineError):  # it has exited: the thinking thread reads that
                    self._engine.send("stop")

    def answered(self) -> None:
        with self._lock:
            self._running = False
