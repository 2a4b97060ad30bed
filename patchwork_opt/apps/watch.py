"""``patchwork hint POSITION --watch``: the live analysis (``ai/analysis/live.py``) in the terminal
until Ctrl-C, or until its time limit or the exact search has solved the position.

On a terminal the lines are redrawn in place at each snapshot; into a pipe or a file each snapshot
is one line; with ``--json`` each is one JSON object a line on stdout (JSON lines), the object the
service's analysis stream sends. The loop runs in a thread of its own; Ctrl-C (SIGINT) is taken
over while it runs: it stops the loop (within one slice of its search), the last snapshot is shown,
and the command exits 0.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import IO, Any

from rich.console import Console
from rich.live import Live
from rich.text import Text

from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.core.words import player_name
from patchwork_opt.formats.inputs import LoadedInput

#: ``live(state, stop=..., max_seconds=...)``: the snapshots of the live analysis (``wiring.live``)
LiveRun = Callable[..., Iterator[Any]]
#: seconds the main thread waits between looks at Ctrl-C
POLL_SECONDS = 0.1


def _figures(line: dict[str, Any]) -> str:
    """A line's figures, short: ``62% +3.1``, ``won by 17 (proven)``, ``won, by at least 3 (proven)``."""
    if line["proven"]:
        margin = line["margin"]
        verdict = "won" if line["win"] > 0 else "lost"
        return f"{verdict} on the tie-break (proven)" if margin == 0 else f"{verdict} by {abs(margin):g} (proven)"
    if line["outcome_proven"]:
        verdict = "won" if line["win"] > 0 else "lost"
        if line["margin_at_least"] is not None and line["win"] > 0:
            verdict += f", by at least {line['margin_at_least']:g}"
        return f"{verdict} (proven), {line['margin']:+.1f} expected"
    return f"{line['win']:.0%} {line['margin']:+.1f}"


def _head(snapshot: dict[str, Any]) -> str:
    ended = {"solved": "solved", "time": "time is up", "stopped": "stopped"}.get(snapshot["end"] or "", "Ctrl-C stops")
    return (f"{player_name(snapshot['player'])} to move · {snapshot['seconds']:.1f} s · {snapshot['nodes']:,} nodes · "
            f"{snapshot['search']} · {ended}")


def one_line(snapshot: dict[str, Any]) -> str:
    """A snapshot as one line (for a pipe or a log)."""
    moves = " | ".join(f"#{i} {line['words']} {_figures(line)}" for i, line in enumerate(snapshot["lines"], start=1))
    return f"{snapshot['seconds']:.1f}s {snapshot['nodes']} nodes {snapshot['search']}: {moves}"


def block(snapshot: dict[str, Any]) -> str:
    """A snapshot as a block of lines (on a terminal, redrawn in place): each move with what it
    leads to in the hint's words, and its line."""
    out = [_head(snapshot)]
    for i, line in enumerate(snapshot["lines"], start=1):
        out.append(f"#{i} {line['words']}: {line['outcome']}")
        if len(line["line"]) > 1:
            out.append("    then " + "; ".join(line["line"][1:]))
    return "\n".join(out)


def _snapshots(live: LiveRun, state: State, stop: StopSignal, max_seconds: float | None,
               lines: int) -> Iterator[dict[str, Any]]:
    """The snapshots as JSON objects, the loop in a thread of its own (``stop`` ends it; its last
    snapshot still comes)."""
    from patchwork_opt.ai.analysis.live import snapshot_json

    found: queue.Queue[dict[str, Any] | BaseException | None] = queue.Queue()

    def think() -> None:
        try:
            for snapshot in live(state, stop=stop, max_seconds=max_seconds):
                found.put(snapshot_json(state, snapshot, lines))
            found.put(None)
        except BaseException as exc:  # handed to the main thread, which reports it
            found.put(exc)

    thread = threading.Thread(target=think, name="live-analysis", daemon=True)
    thread.start()
    try:
        while True:
            try:
                item = found.get(timeout=POLL_SECONDS)
            except queue.Empty:
                continue
            if item is None:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        thread.join()


def _quiet(out: IO[str]) -> None:
    """After a broken pipe: nothing more reaches the reader, and nothing complains at exit when the
    output is flushed once more."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())


@contextlib.contextmanager
def _ctrl_c_stops(stop: StopSignal) -> Iterator[None]:
    """While it lasts, Ctrl-C (SIGINT) sets ``stop`` instead of raising ``KeyboardInterrupt`` (where
    signals can be handled: the main thread)."""

    def stopped(signum: int, frame: FrameType | None) -> None:
        stop.set()

    try:
        before = signal.signal(signal.SIGINT, stopped)
    except ValueError:  # not the main thread: Ctrl-C is not ours to take
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def watch(live: LiveRun, state: State, *, max_seconds: float | None, lines: int, as_json: bool,
          out: IO[str] | None = None) -> None:
    """Show the live analysis of ``state`` until Ctrl-C, ``max_seconds`` or a solved position."""
    out = out if out is not None else sys.stdout
    stop = StopSignal()
    console = Console(file=out)
    with _ctrl_c_stops(stop):
        snapshots = _snapshots(live, state, stop, max_seconds, lines)
        if as_json or not console.is_terminal:
            try:
                for snapshot in snapshots:
                    out.write((json.dumps(snapshot) if as_json else one_line(snapshot)) + "\n")
                    out.flush()
            except BrokenPipeError:  # the reader has had enough (``| head``): stop, quietly
                stop.set()
                _quiet(out)
            return
        with Live(console=console, auto_refresh=False, transient=False) as shown:
            for snapshot in snapshots:
                shown.update(Text(block(snapshot)), refresh=True)


#: lines shown by default, and at most (``live.MAX_LINES``: the loop's own limit)
LINES_SHOWN = 5


def watch_hint(loaded: LoadedInput, *, refused: list[str], top: int | None, time_limit: float | None,
               as_json: bool) -> None:
    """``hint WHAT --watch``: the live analysis of a position or a record's last position, with the
    CP-SAT advisor placing the offers (``wiring.live``), ``top`` lines, for ``time_limit`` seconds
    at most (None: until Ctrl-C)."""
    from patchwork_opt.ai.seeding import require_running
    from patchwork_opt.apps.wiring import live, warm_compiled_searches

    if loaded.state is None:
        raise PatchworkError("--watch analyses a position or a record, not a bare quilt")
    if refused:
        raise PatchworkError(f"--watch analyses the moves of a position: it takes no {', '.join(refused)}")
    if top is not None and not 1 <= top <= LINES_SHOWN:
        raise PatchworkError(f"--top with --watch: 1..{LINES_SHOWN} lines, got {top}")
    if time_limit is not None and not time_limit > 0:
        raise PatchworkError(f"time limit must be positive, got {time_limit:g}")
    require_running(loaded.state)
    warm_compiled_searches()  # before the clock starts: the first snapshot then has something to say
    watch(live, loaded.state, max_seconds=time_limit, lines=top or LINES_SHOWN, as_json=as_json)
