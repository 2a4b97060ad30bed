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
from patchwork_opt.i18n import _, ngettext, number, one_of, percent, pgettext, signed

#: ``live(state, stop=..., max_seconds=...)``: the snapshots of the live analysis (``wiring.live``)
LiveRun = Callable[..., Iterator[Any]]
#: seconds the main thread waits between looks at Ctrl-C
POLL_SECONDS = 0.1


def _figures(line: dict[str, Any]) -> str:
    """A line's figures, short: ``62% +3.1``, ``won by 17 (proven)``, ``won, by at least 3 (proven)``."""
    won = line["win"] > 0
    expected = signed(line["margin"], 1)
    # Translators: a move's figures in the terminal's live analysis, short ("won by 17 (proven)")
    if line["proven"]:
        margin = abs(line["margin"])
        if margin == 0:
            return _("won on the tie-break (proven)") if won else _("lost on the tie-break (proven)")
        return (ngettext("won by {count} (proven)", "won by {count} (proven)", margin) if won
                else ngettext("lost by {count} (proven)", "lost by {count} (proven)", margin))
    if line["outcome_proven"]:
        if line["margin_at_least"] is not None and won:
            return ngettext("won, by at least {count} (proven), {expected} expected",
                            "won, by at least {count} (proven), {expected} expected", line["margin_at_least"],
                            expected=expected)
        return (_("won (proven), {expected} expected", expected=expected) if won
                else _("lost (proven), {expected} expected", expected=expected))
    return f"{percent(line['win'])} {expected}"


def _search(kind: str) -> str:
    """The search's kind in words (``exact``, ``partly exact``, ``sampled``: the JSON keeps these)."""
    # Translators: which search the live analysis runs: an exact one, partly exact, or sampling
    words = {"exact": pgettext("search", "exact"), "partly exact": pgettext("search", "partly exact"),
             "sampled": pgettext("search", "sampled")}
    return words.get(kind, kind)


def _head(snapshot: dict[str, Any]) -> str:
    # Translators: how the terminal's live analysis ended, or how to stop it
    ended = {"solved": _("solved"), "time": _("time is up"), "stopped": _("stopped")}.get(snapshot["end"] or "",
                                                                                          _("Ctrl-C stops"))
    # Translators: the head of the terminal's live analysis: {player} to move, {seconds} thought, {count} nodes
    # searched, {search} its kind ("exact"), {ended} how it ended
    return ngettext("{player} to move · {seconds} s · {count} node · {search} · {ended}",
                    "{player} to move · {seconds} s · {count} nodes · {search} · {ended}", snapshot["nodes"],
                    player=player_name(snapshot["player"]), seconds=number(snapshot["seconds"], 1),
                    search=_search(snapshot["search"]), ended=ended)


def one_line(snapshot: dict[str, Any]) -> str:
    """A snapshot as one line (for a pipe or a log)."""
    moves = " | ".join(f"#{i} {line['words']} {_figures(line)}" for i, line in enumerate(snapshot["lines"], start=1))
    # Translators: a snapshot of the live analysis on one line: {moves} its moves with their figures
    return ngettext("{seconds}s {count} node {search}: {moves}", "{seconds}s {count} nodes {search}: {moves}",
                    snapshot["nodes"], seconds=number(snapshot["seconds"], 1), search=_search(snapshot["search"]),
                    moves=moves)


def block(snapshot: dict[str, Any]) -> str:
    """A snapshot as a block of lines (on a terminal, redrawn in place): each move with what it
    leads to in the hint's words, and its line."""
    out = [_head(snapshot)]
    for i, line in enumerate(snapshot["lines"], start=1):
        out.append(f"#{i} {line['words']}: {line['outcome']}")
        if len(line["line"]) > 1:
            # Translators: the play expected after a move of the live analysis ({line}: its moves, by who makes them)
            out.append("    " + _("then {line}", line="; ".join(line["line"][1:])))
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
        raise PatchworkError(_("--watch analyses a position or a record, not a bare quilt"))
    if refused:
        # Translators: {options} lists the options given that --watch does not take (--patch, --quilt ...)
        raise PatchworkError(_("--watch analyses the moves of a position: it takes no {options}",
                               options=one_of(refused)))
    if top is not None and not 1 <= top <= LINES_SHOWN:
        raise PatchworkError(_("--top with --watch: 1..{most} lines, got {top}", most=LINES_SHOWN, top=top))
    if time_limit is not None and not time_limit > 0:
        raise PatchworkError(_("time limit must be positive, got {seconds}", seconds=number(time_limit)))
    require_running(loaded.state)
    warm_compiled_searches()  # before the clock starts: the first snapshot then has something to say
    watch(live, loaded.state, max_seconds=time_limit, lines=top or LINES_SHOWN, as_json=as_json)
