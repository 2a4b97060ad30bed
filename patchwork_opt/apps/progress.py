"""Progress on stderr for long commands (Rich), so that ``--json`` output on stdout stays clean."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

from patchwork_opt.apps.solutions import fill_phase_words
from patchwork_opt.i18n import _, number


@contextmanager
def phase_progress(disable: bool = False) -> Iterator[Callable[[str, float, float], None]]:
    """One bar per named phase; yields ``report(name, done, total)``. Bars are drawn on a terminal
    only: elsewhere (a log file, a pipe) Rich would leave a stray empty line on stderr, ahead of an
    error message, and draw nothing else of a transient bar."""
    console = Console(stderr=True)
    with Progress(console=console, transient=True, disable=disable or not console.is_terminal) as bar:
        tasks: dict[str, TaskID] = {}

        def report(name: str, done: float, total: float) -> None:
            if name not in tasks:
                tasks[name] = bar.add_task(name, total=total)
            bar.update(tasks[name], completed=done)

        yield report


@contextmanager
def solve_status(label: str) -> Iterator[Callable[[float | None, float, str], None]]:
    """A spinner with the best value and bound so far; yields ``report(best, bound, phase)``."""
    # Translators: a solver's progress on the terminal: {label} names what is solved ("fill")
    with Console(stderr=True).status(_("{label}: searching", label=label), spinner="dots") as status:

        def report(best: float | None, bound: float, phase: str) -> None:
            # Translators: a solver's progress: {phase} its stage, {best} the best value found yet, {bound} its bound
            status.update(_("{label} ({phase}): best {best}   bound {bound}", label=label,
                            phase=fill_phase_words(phase), best=number(best) if best is not None else "-",
                            bound=number(bound)))

        yield report


@contextmanager
def match_progress(p1: str, p2: str, games: int) -> Iterator[Callable[[Any], None]]:
    """A bar with the running score; yields ``on_result(game_result)``. Without a terminal (a log
    file) each game gets one plain line instead."""
    console = Console(stderr=True)
    wins = [0, 0]
    columns = (
        # Translators: the label of a match's progress bar
        TextColumn("[bold]" + _("match")), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[score]}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, disable=not console.is_terminal) as progress:
        task = progress.add_task("games", total=games, score="")

        def on_result(result: Any) -> None:
            wins[0 if result.p1_won else 1] += 1
            score = f"{p1} {wins[0]} - {wins[1]} {p2}"
            progress.update(task, advance=1, score=score)
            if not console.is_terminal:
                # Translators: a match's progress without a terminal: game {done} of {games}, the running score
                # ({score}: "greedy 3 - 2 random") and this game's final scores
                print(_("game {done}/{games}: {score} ({first}:{second})", done=sum(wins), games=games, score=score,
                        first=result.scores[0], second=result.scores[1]), file=sys.stderr)

        yield on_result
