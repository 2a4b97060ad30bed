"""The read-draw loop of ``patchwork play``, for a person at a terminal or a script on stdin.

At a terminal: Rich colours, a prompt, a spinner while the AI thinks. From a script (stdin not
a terminal): the same commands read line by line, only the game text on stdout (no prompts,
no spinner), and the end of input quits cleanly. Either way the record is saved on the way out
when a save path was given.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TextIO

from rich.console import Console, RenderableType
from rich.text import Text

from patchwork_opt.apps.play import draw
from patchwork_opt.apps.play.commands import Buy, Hint, parse_command
from patchwork_opt.apps.play.session import Session
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.words import player_name
from patchwork_opt.formats.record import Record
from patchwork_opt.i18n import _


class Terminal:
    """Where the loop reads lines and shows things; ``interactive`` adds the prompt and spinner."""

    def __init__(self, console: Console, read_line: Callable[[str], str | None], *,
                 interactive: bool, spinner_console: Console | None = None) -> None:
        self.console = console
        self.read_line = read_line
        self.interactive = interactive
        self.spinner_console = spinner_console or console

    def show(self, renderable: RenderableType) -> None:
        self.console.print(renderable)

    def say(self, line: str, style: str = "") -> None:
        self.console.print(Text(line, style=style), soft_wrap=True)  # the terminal wraps, not Rich

    def busy(self, what: str) -> AbstractContextManager[object]:
        if not self.interactive:
            return contextlib.nullcontext()
        return self.spinner_console.status(what, spinner="dots")

    def read(self, prompt: str) -> str | None:
        return self.read_line(prompt if self.interactive else "")


def terminal_for(stdin: TextIO, stdout: TextIO, stderr: TextIO) -> Terminal:
    """A Terminal on the real streams: interactive when stdin is a terminal."""
    interactive = stdin.isatty()
    if interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing and history for input())
        console = Console(file=stdout, highlight=False)

        def read_tty(prompt: str) -> str | None:
            try:
                return console.input(Text(prompt, style="bold"))  # Text: no markup in the prompt
            except EOFError:
                console.print()
                return None

        return Terminal(console, read_tty, interactive=True, spinner_console=Console(file=stderr))

    # A script's reader wraps lines itself (or not at all): Rich wraps no text, only lays out panels.
    console = Console(file=stdout, highlight=False, soft_wrap=True)

    def read_script(_prompt: str) -> str | None:
        line = stdin.readline()
        return None if line == "" else line.rstrip("\r\n")

    return Terminal(console, read_script, interactive=False)


def _lines(term: Terminal, prompt: Callable[[], str]) -> Iterator[str]:
    while True:
        line = term.read(prompt())
        if line is None:
            return
        yield line


def run(session: Session, term: Terminal, save_path: str | Path | None = None,
        reviewer: Callable[[Record], str] | None = None) -> int:
    """Play until the game ends, the person quits or input ends; the exit code (130 on Ctrl-C).

    With ``save_path`` the record is written after every move and on the way out. At the end of
    a game the ``reviewer`` (plugged in by the caller: the AI's game review) is offered.
    """
    code = 0
    try:
        _play(session, term, save_path)
        if session.over and reviewer is not None:
            _offer_review(session, term, reviewer)
    except KeyboardInterrupt:
        term.say(_("interrupted"))
        code = 130
    finally:
        if save_path is not None:
            session.save(save_path)
            term.say(_("record saved to {path}", path=save_path))
    return code


def _offer_review(session: Session, term: Terminal, reviewer: Callable[[Record], str]) -> None:
    # Translators: a question at the game's end; the answer is typed as y or yes (kept in English)
    answer = term.read(_("review the game (where each move won or lost chances)? [y/N] "))
    if answer is None or answer.strip().lower() not in ("y", "yes"):
        return
    with term.busy(_("reviewing the game…")):
        text = reviewer(session.record)
    term.say(text)


def _ai_turns(session: Session, term: Terminal) -> list[str]:
    """Let the AI play while it is its turn; what it did, a line a move (shown under the board)."""
    said = []
    while session.ai_to_move:
        with term.busy(_("AI ({name}) is thinking…", name=session.bot.name)):
            report = session.ai_move()
        said.append(report.text)
    return said


def _prompt(session: Session) -> str:
    # Translators: the prompts of the terminal game: placing the leather patch, placing a patch, your move
    if session.placing_leather:
        return _("leather> ")
    if session.buying is not None:
        return _("place #{patch}> ", patch=session.buying)
    return _("you> ")


def _play(session: Session, term: Terminal, save_path: str | Path | None) -> None:
    if session.human == 0:
        # Translators: the terminal game's first line ({player}: "Player 1"); keep the command word "help"
        said = _("Patchwork: you are {player}, first to move, against the AI ({name}); type help for the commands",
                 player=player_name(session.human), name=session.bot.name)
    else:
        # Translators: the terminal game's first line ({player}: "Player 2"); keep the command word "help"
        said = _("Patchwork: you are {player}, second to move, against the AI ({name}); type help for the commands",
                 player=player_name(session.human), name=session.bot.name)
    term.say(said, style="bold")
    opening = _ai_turns(session, term)
    if opening and save_path is not None:
        session.save(save_path)
    _draw(session, term, opening)
    if session.over:
        return
    for line in _lines(term, lambda: _prompt(session)):
        try:
            command = parse_command(line)
            if command is None:
                continue
            if isinstance(command, (Buy, Hint)):
                with term.busy(_("finding hints…") if isinstance(command, Hint) else _("ranking placements…")):
                    reply = session.handle(command)
            else:
                reply = session.handle(command)
        except PatchworkError as exc:
            term.say(_("error: {message}", message=exc), style="bold red")
            continue
        if reply.quit:
            term.say(_("bye"))
            return
        if not reply.moved:
            for text in reply.lines:
                term.say(text)
        if reply.help:
            term.show(draw.help_text())
        if reply.hints is not None:
            term.show(draw.hints(session, reply.hints))
        if reply.moved:
            news = [*reply.lines, *_ai_turns(session, term)]
            if save_path is not None:
                session.save(save_path)
            _draw(session, term, news)
            if session.over:
                return
        elif reply.show:
            _draw(session, term)
        elif reply.placing:
            term.show(draw.placement_view(session, crop_notes=term.interactive))
            term.show(draw.status(session))


def _draw(session: Session, term: Terminal, news: list[str] | None = None) -> None:
    """The board, then what just happened (your move, the AI's moves, one a line), the placement
    choices when a placement is due, and what to do now: the newest last, above the prompt, so an
    80x24 screen shows the quilts, the news and the prompt together."""
    term.show(draw.board(session))
    for text in news or []:
        term.say(text, style="bold red" if text.startswith("AI ") else "bold")
    if session.placing:
        term.show(draw.placement_view(session, crop_notes=term.interactive))
    if not session.over:
        term.show(draw.status(session))
