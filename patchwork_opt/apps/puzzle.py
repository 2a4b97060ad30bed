"""``patchwork puzzle solve``: a puzzle in the terminal (or from a script on standard input).

The terminal plays a puzzle by what its kind says it is set in, whatever its kind: a position
(``PuzzleKind.position``) or a quilt (``PuzzleKind.quilt``). A
puzzle answered by a move (an endgame, an exercise) is drawn as ``patchwork play`` draws a game with
its kind's question, and the move is typed as in ``play`` (``buy 2 o1 4,5``, ``advance``,
``12@34,35,45``); once it is made, its kind's verdict follows with the line after the move (an
endgame's: the exact search's proof). A quilt to fill is drawn with the patches to place; patches
are placed one by one (``12 o1 4,5``, ``12 34,35,45`` or ``12@34,35,45``; ``undo`` takes the last one
back) and ``done`` compares the fill with the proven optimum, drawn beside it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, cast

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from patchwork_opt.ai.explain import describe
from patchwork_opt.apps.play import draw
from patchwork_opt.apps.play.commands import CommandError, Hint, Save, Undo, parse_command, parse_place
from patchwork_opt.apps.play.loop import Terminal
from patchwork_opt.apps.play.session import Session
from patchwork_opt.core.bitboard import SIZE, cells_of
from patchwork_opt.core.catalogue import PATCHES, is_placement, patch_worth, placement
from patchwork_opt.core.errors import PatchworkError, words
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import Record
from patchwork_opt.formats.render import piece_labels
from patchwork_opt.i18n import N_, _, ngettext, number
from patchwork_opt.puzzles.kinds import Judging, Puzzle, kind_of
from patchwork_opt.puzzles.kinds.base import PuzzleKind, QuiltPuzzle
from patchwork_opt.puzzles.model import Placement
from patchwork_opt.puzzles.proof import BestPlayBot

# Translators: the fill puzzle's commands in the terminal: keep the commands (12 o3 4,5, patch, undo, u, done,
# show, help, quit, q) as they are, translate what each does; keep the columns aligned
FILL_HELP = N_("""\
commands (case does not matter):
  12 o3 4,5      place patch 12 in orientation o3, top-left of its box on row 4 col 5
  12 34,35,45    place patch 12 on exactly these cells (row digit, column digit); 12@34,35,45 too
  patch 12       draw patch 12's orientations o0, o1, ...
  undo  (u)      take the last patch back
  done           compare your fill with the proven optimum
  show           draw the quilt again
  help  (?)      this text
  quit  (q)      stop""")
_PATCH_PLACE = re.compile(r"^#?(\d+)\s+(.+)$")
_PATCH_MOVE = re.compile(r"^\d+@[0-8]{2}(?:,[0-8]{2})*$")


def _lines(term: Terminal, prompt: str) -> Iterator[str]:
    while True:
        line = term.read(prompt)
        if line is None:
            return
        yield line


# --- puzzles answered by a move ------------------------------------------------------------------
def line_text(state: State, line: tuple[Move, ...]) -> str:
    """The moves of a line played from ``state``, numbered, each by who plays it (the player to move
    at ``state`` is "you"): ``1. you: buys #12 ...``; then the final score if the line ends the game."""
    here, player = state.clone(), state.to_move()
    out = []
    for i, move in enumerate(line):
        # Translators: a move of the line after a puzzle's answer: {number} its number, {move} what is done
        said = (_("{number}. you: {move}", number=f"{i + 1:>2}", move=describe(move)) if here.to_move() == player
                else _("{number}. your opponent: {move}", number=f"{i + 1:>2}", move=describe(move)))
        out.append(said)
        here.apply(move)
    if here.is_terminal():
        # Translators: the final score at the end of a puzzle's line
        out.append("    " + _("final score: you {mine}, your opponent {theirs}", mine=here.score(player),
                                theirs=here.score(1 - player)))
    return "\n".join(out)


def _session(puzzle: Puzzle) -> Session:
    """The puzzle's position as a game of the person against best play (the opponent never moves: the
    puzzle ends with the person's move)."""
    state = kind_of(puzzle).position(puzzle)
    assert state is not None
    record = cast(Record, getattr(puzzle, "record"))  # noqa: B009  (every puzzle set in a position has one)
    return Session(record, state.to_move(), BestPlayBot())


def render_position_puzzle(puzzle: Puzzle) -> RenderableType:
    return Group(draw.board(_session(puzzle)), Text(kind_of(puzzle).task(puzzle), style="bold"))


def solve_position_puzzle(puzzle: Puzzle, term: Terminal, judging: Judging) -> None:
    """Draw the position, read the person's move as ``play`` reads it, judge it and show the line."""
    session = _session(puzzle)
    start = len(session.record.moves)
    kind = kind_of(puzzle)
    term.show(draw.board(session))
    term.say(kind.task(puzzle), style="bold")
    # Translators: keep the commands (buy 1-3, advance, 12@34,35,45, help) as they are
    term.say(_("type your move as in patchwork play (buy 1-3, advance, 12@34,35,45; help lists them)"), style="dim")
    # Translators: the terminal's prompt for a puzzle's answer
    for line in _lines(term, _("your move> ")):
        try:
            command = parse_command(line)
            if command is None:
                continue
            if isinstance(command, (Hint, Undo, Save)):
                raise CommandError(_("a puzzle has no hints, undo or save: make your move, or quit"))
            reply = session.handle(command)
        except PatchworkError as exc:
            term.say(_("error: {message}", message=words(exc)), style="bold red")
            continue
        if reply.quit:
            # Translators: the terminal's goodbye when a puzzle is left
            term.say(_("bye"))
            return
        if reply.help:
            term.show(draw.help_text())
        if len(session.record.moves) > start:
            move = session.record.moves[start]
            # Translators: a progress label while an answer is judged
            with term.busy(_("judging…")):
                verdict = kind.judge(puzzle, move, judging)
            term.say(verdict.text, style="bold green" if verdict.correct else "bold red")
            term.say(_("the line after your move:"))
            term.say(line_text(kind.position(puzzle) or session.state, verdict.moves))
            return
        if reply.placing:
            term.show(draw.placement_view(session, crop_notes=term.interactive))
        elif reply.show:
            term.show(draw.board(session))


# --- fills ----------------------------------------------------------------------------------------
def fill_quilt(quilt: int, placed: list[Placement] | tuple[Placement, ...], title: str) -> Panel:
    """The quilt: covered cells shaded, each placed patch in its colour with its letter."""
    grid: list[list[tuple[str, str]]] = [[(draw.EMPTY, "dim")] * SIZE for _ in range(SIZE)]
    for r, c in cells_of(quilt):
        grid[r][c] = ("▒", "dim")
    for (pid, _mask), (label, mask) in zip(placed, piece_labels(list(placed)), strict=True):
        for r, c in cells_of(mask):
            grid[r][c] = (label, draw.patch_style(pid))
    return Panel(draw.grid_text(grid), title=title, expand=False)


def patch_cards(pids: list[int], puzzle: QuiltPuzzle) -> RenderableType:
    cards = []
    for pid in pids:
        p = PATCHES[pid]
        # Translators: a patch card's facts in the terminal, on two lines (cells, cost; time, income)
        facts = Text(_("cells {cells}  cost {cost}\ntime {time}  income {income}", cells=p.area, cost=p.cost,
                       time=p.time, income=p.income))
        if puzzle.objective == "points":
            # Translators: what a patch is worth to a fill scored in points
            facts.append("\n" + _("worth {points}", points=patch_worth(pid, puzzle.marks)))
        cards.append(Panel(Group(draw.shape_text(pid, draw.flat_orientation(pid)), Text(""), facts),
                           title=f"#{pid}", width=22))
    return Columns(cards) if cards else Text(_("no patches left"), style="dim")


def render_fill(puzzle: QuiltPuzzle, task: str, placed: list[Placement] | None = None) -> RenderableType:
    placed = placed or []
    left = [pid for pid in puzzle.patches if pid not in {p for p, _ in placed}]
    # Translators: the title of the quilt a fill puzzle is played on, and the heading of its patches
    return Group(fill_quilt(puzzle.quilt, placed, _("your quilt")), Text(_("patches to place:"), style="bold"),
                 patch_cards(left, puzzle), Text(task, style="bold"))


def read_placement(text: str, puzzle: QuiltPuzzle, taken: int) -> Placement:
    """``12 o3 4,5``, ``12 34,35,45`` or ``12@34,35,45`` as (patch, mask); CommandError names why not."""
    if _PATCH_MOVE.match(text):
        move = Move.parse(text)
        pid, mask = move.patch, move.mask
    else:
        match = _PATCH_PLACE.match(text)
        if not match:
            raise CommandError(_("cannot read {text!r}: give a patch and where, like 12 o3 4,5 or 12 34,35,45",
                                 text=text))
        pid = int(match.group(1))
        spec = parse_place(match.group(2))
        if spec.suggestion is not None or (spec.cell is not None and spec.orientation is None):
            raise CommandError(_("give an orientation and a cell (12 o3 4,5) or all the patch's cells (12 34,35,45)"))
        if not 0 <= pid < len(PATCHES):
            raise CommandError(_("#{pid} is not one of the puzzle's patches {patches}", pid=pid,
                                 patches=list(puzzle.patches)))
        if spec.orientation is not None:
            assert spec.cell is not None
            count = len(PATCHES[pid].orientations)
            if spec.orientation >= count:
                raise CommandError(_("#{pid} has orientations o0-o{last}, not o{given}", pid=pid, last=count - 1,
                                     given=spec.orientation))
            try:
                mask = placement(pid, spec.orientation, *spec.cell)
            except PatchworkError:
                where = f"{spec.cell[0]},{spec.cell[1]}"
                raise CommandError(_("o{orientation} of #{pid} at {where} runs off the quilt",
                                     orientation=spec.orientation, pid=pid, where=where)) from None
        else:
            mask = spec.cells
            if not is_placement(pid, mask):
                raise CommandError(ngettext("those cells are not the shape of #{pid} ({count} cell)",
                                            "those cells are not the shape of #{pid} ({count} cells)",
                                            PATCHES[pid].area, pid=pid))
    if pid not in puzzle.patches:
        raise CommandError(_("#{pid} is not one of the puzzle's patches {patches}", pid=pid,
                             patches=list(puzzle.patches)))
    if mask & taken:
        raise CommandError(_("cells {cells} are already covered", cells=[list(c) for c in cells_of(mask & taken)]))
    return pid, mask


def solve_fill(puzzle: Any, term: Terminal, judging: Judging) -> None:
    """Place patches one by one on the quilt of a puzzle answered by placements, then compare the
    fill with the proven optimum (the kind's verdict)."""
    kind: PuzzleKind[Any, Any] = kind_of(puzzle)
    quilt = cast(QuiltPuzzle, kind.quilt(puzzle))
    task = kind.task(puzzle)
    placed: list[Placement] = []
    term.show(render_fill(quilt, task))
    # Translators: keep the commands (12 o3 4,5, 12 34,35,45, done, help) as they are
    term.say(_("place patches like 12 o3 4,5 or 12 34,35,45; done when finished (help lists the commands)"),
             style="dim")
    # Translators: the terminal's prompt for a fill puzzle's placements
    for line in _lines(term, _("place> ")):
        text = line.strip().lower()
        if not text:
            continue
        try:
            if text in ("quit", "q", "exit"):
                term.say(_("bye"))
                return
            if text in ("help", "?", "h"):
                term.say(_(FILL_HELP))
            elif text in ("show", "board"):
                term.show(render_fill(quilt, task, placed))
            elif text in ("undo", "u"):
                if not placed:
                    raise CommandError(_("nothing to undo: no patch placed yet"))
                pid, _mask = placed.pop()
                term.say(_("took #{pid} back", pid=pid))
                term.show(render_fill(quilt, task, placed))
            elif text.startswith("patch "):
                pid = int(text.split()[1]) if text.split()[1].isdigit() else -1
                if pid not in quilt.patches:
                    raise CommandError(_("#{pid} is not one of the puzzle's patches", pid=text.split()[1]))
                term.show(Columns([Panel(draw.shape_text(pid, o), title=f"o{o.index}", expand=False)
                                   for o in PATCHES[pid].orientations]))
            elif text == "done":
                verdict = kind.judge(puzzle, placed, judging)
                term.say(verdict.text, style="bold green" if verdict.correct else "bold red")
                # margin: the fill's value minus the optimum
                # Translators: the titles of the two quilts a fill's verdict draws: the answer's and the optimum
                yours = _("yours: {value}", value=number(quilt.best_value + verdict.margin))
                optimum = _("the optimum: {value}", value=quilt.best_value)
                term.show(Columns([fill_quilt(quilt.quilt, placed, yours),
                                   fill_quilt(quilt.quilt, quilt.best, optimum)]))
                return
            else:
                taken = quilt.quilt
                for _pid, mask in placed:
                    taken |= mask
                pid, mask = read_placement(text, quilt, taken)
                if pid in {p for p, _ in placed}:
                    raise CommandError(_("#{pid} is placed already (each patch at most once)", pid=pid))
                placed.append((pid, mask))
                term.show(render_fill(quilt, task, placed))
        except PatchworkError as exc:
            term.say(_("error: {message}", message=words(exc)), style="bold red")


def solve(puzzle: Puzzle, term: Terminal, judging: Judging | None = None) -> None:
    """Play the puzzle in the terminal on what it is set in: a quilt to fill, else a position."""
    if kind_of(puzzle).quilt(puzzle) is not None:
        solve_fill(puzzle, term, judging or Judging())
    else:
        solve_position_puzzle(puzzle, term, judging or Judging())


def render_puzzle(puzzle: Puzzle) -> RenderableType:
    """The puzzle drawn as ``solve`` first draws it."""
    kind = kind_of(puzzle)
    quilt = kind.quilt(puzzle)
    return render_position_puzzle(puzzle) if quilt is None else render_fill(quilt, kind.task(puzzle))
