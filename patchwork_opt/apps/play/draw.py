"""Rich drawings of a play session, laid out for one 80x24 terminal screen.

The board is the two quilts side by side with each player's figures beside them (11 lines), the
time track in two lines and the offers in five, so that with a few lines saying what just
happened, the status line and the prompt it fits 80x24 (``SCREEN_LINES``): nothing a person needs
scrolls off. The placement choices fit one screen the same way.

Everything here only reads a Session; it returns renderables and never changes the game.
Each patch has its own colour (by patch id) and its own letter (by order placed), so the
board reads the same with colours off (a script's output) as with them on.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from patchwork_opt.apps.play.commands import HELP_TEXT
from patchwork_opt.apps.play.session import HintLine, Session
from patchwork_opt.core.bitboard import SIZE, bit, cells_of
from patchwork_opt.core.catalogue import PATCHES, Orientation, fits_anywhere
from patchwork_opt.core.state import END, INCOME_MARKS, LEATHER_PATCH, State
from patchwork_opt.formats.render import piece_labels
from patchwork_opt.i18n import _, pgettext

#: The screen the layout is made for: the board, the news, the status line and the prompt fit it.
SCREEN_COLUMNS, SCREEN_LINES = 80, 24
#: Background colours for patches, chosen by patch id (neighbours in the list differ strongly).
PALETTE: tuple[str, ...] = (
    "red3", "dodger_blue2", "green3", "gold3", "medium_purple2", "dark_orange3", "cyan3",
    "deep_pink3", "chartreuse3", "steel_blue", "orange_red1", "spring_green3", "magenta3",
    "dark_goldenrod", "slate_blue1", "turquoise4", "hot_pink3",
)
LEATHER_STYLE = "bold bright_white on orange4"
YOU_STYLE = "bold bright_white on blue"
AI_STYLE = "bold bright_white on red"
SUGGESTION_STYLE = "bold black on bright_yellow"
EMPTY = "·"
BLOCK = 39  # columns of one player's block: the quilt (21) and their figures beside it
OFFER_COLUMNS = 19  # columns of one offer (3 offers and the next patches fit 79 columns)


def patch_style(pid: int) -> str:
    if pid == LEATHER_PATCH:
        return LEATHER_STYLE
    return f"bold bright_white on {PALETTE[pid % len(PALETTE)]}"


def names(session: Session) -> tuple[str, str]:
    """Display names of the two seats: "You" and "the AI (name)"."""
    # Translators: the AI's seat in the terminal game; {name} is its level's name
    ai = _("the AI ({name})", name=session.bot.name)
    # Translators: the person's seat in the terminal game
    you = _("You")
    return (you, ai) if session.human == 0 else (ai, you)


def _joined(lines: list[Text]) -> Text:
    return Text("\n").join(lines)


def _pad(line: Text, width: int) -> Text:
    out = line.copy()
    out.truncate(width, overflow="ellipsis")
    out.pad_right(width - out.cell_len)
    return out


def side_by_side(blocks: list[list[Text]], widths: list[int], gap: int = 2) -> Text:
    """Blocks of lines next to each other, each padded to its width (the last not padded)."""
    height = max(len(b) for b in blocks)
    lines = []
    for i in range(height):
        line = Text()
        for k, (block, width) in enumerate(zip(blocks, widths, strict=True)):
            part = block[i] if i < len(block) else Text()
            line.append_text(_pad(part, width) if k + 1 < len(blocks) else part)
            if k + 1 < len(blocks):
                line.append(" " * gap)
        line.rstrip()
        lines.append(line)
    return _joined(lines)


# --- quilts ---------------------------------------------------------------------------------
def grid_lines(grid: list[list[tuple[str, str]]]) -> list[Text]:
    """A 9x9 grid of (label, style) cells under its column numbers, each row after its number."""
    lines = [Text("  " + "".join(f" {c}" for c in range(SIZE)), style="dim")]
    for r in range(SIZE):
        line = Text(f"{r} ", style="dim")
        for c in range(SIZE):
            label, style = grid[r][c]
            line.append(" ")
            line.append(label, style=style)
        lines.append(line)
    return lines


def grid_text(grid: list[list[tuple[str, str]]]) -> Text:
    """A 9x9 grid of (label, style) cells with row and column numbers: how every quilt is drawn."""
    return _joined(grid_lines(grid))


Grid = list[list[tuple[str, str]]]


def quilt_grid(state: State, player: int, overlay: dict[tuple[int, int], str] | None = None) -> Grid:
    """The quilt's cells: each patch's letter in its colour; ``overlay`` puts digits on chosen cells."""
    grid: list[list[tuple[str, str]]] = [[(EMPTY, "dim")] * SIZE for _row in range(SIZE)]
    labels = piece_labels(state.placed[player])
    for (pid, _placed), (label, mask) in zip(state.placed[player], labels, strict=True):
        for r, c in cells_of(mask):
            grid[r][c] = (label, patch_style(pid))
    if overlay:
        for (r, c), digit in overlay.items():
            grid[r][c] = (digit, SUGGESTION_STYLE)
    return grid


def quilt_text(state: State, player: int, overlay: dict[tuple[int, int], str] | None = None) -> Text:
    """The 9x9 quilt with row and column numbers; ``overlay`` puts digits on chosen cells."""
    return grid_text(quilt_grid(state, player, overlay))


def figures(state: State, player: int) -> list[Text]:
    """A player's figures, one a line, for beside their quilt."""
    view = state.player(player)
    # Translators: a player's figures beside their quilt, one a line (at most 11 characters each): score,
    # their time token's space on the time board, buttons, button income, empty cells
    score = Text(_("score {score}", score=view.score), style="bold")
    lines = [Text(_("space {space}", space=view.position)), Text(_("buttons {buttons}", buttons=view.buttons)),
             Text(_("income {income}", income=view.income)), Text(_("empty {empty}", empty=view.empty)), score]
    if view.bonus:
        # Translators: beside a quilt: its player holds the 7x7 bonus tile (+7 points)
        lines.append(Text(_("7x7 bonus +7"), style="bold green"))
        lines.append(Text(_("(in the score)"), style="dim"))
    return lines


def player_block(session: Session, player: int) -> list[Text]:
    """The player's name (and whether they move), then their quilt with their figures beside it."""
    state = session.state
    mover = not state.is_terminal() and state.to_move() == player
    title = Text(f" {names(session)[player]} ", style=YOU_STYLE if player == session.human else AI_STYLE)
    if mover:
        # Translators: beside a player's name: it is their turn
        title.append(" ◀ " + _("to move"), style="bold")
    beside = [Text(), *figures(state, player)]
    body = side_by_side([grid_lines(quilt_grid(state, player)), beside], [21, BLOCK - 23])
    return [title, *body.split("\n")]


def quilts(session: Session) -> Text:
    """Both quilts side by side, Player 1's on the left (11 lines)."""
    return side_by_side([player_block(session, 0), player_block(session, 1)], [BLOCK, BLOCK])


# --- time track -------------------------------------------------------------------------------
def track(session: Session) -> Text:
    """Spaces 0..53 with the tokens, income marks ($) and leather patches (L) still lying there,
    and a line saying where each token is (2 lines)."""
    state = session.state
    leather = set(state.leather_left())
    human, ai = session.human, session.ai
    # Translators: the label before the time board (the track the time tokens move along); keep it short
    label = pgettext("time board", "time")
    text = Text(f"{label} ", style="bold")
    for space in range(END + 1):
        you_here, ai_here = state.pos[human] == space, state.pos[ai] == space
        if you_here and ai_here:
            text.append("B", style="bold bright_white on magenta")
        elif you_here:
            text.append("Y", style=YOU_STYLE)
        elif ai_here:
            text.append("A", style=AI_STYLE)
        elif space in leather:
            text.append("L", style=LEATHER_STYLE)
        elif space in INCOME_MARKS:
            text.append("$", style="bold yellow")
        elif space % 10 == 0:
            text.append("|", style="dim")
        else:
            text.append(EMPTY, style="dim")
    text.append(f" {END}", style="dim")
    if state.pos[0] != state.pos[1]:
        # Translators: the time board's legend: Y is your time token, A the AI's, at their spaces; $ marks a
        # button income, L a leather patch (keep the letters: the board draws them)
        legend = _("Y you at {you}, A the AI at {ai} · $ income · L leather", you=state.pos[human], ai=state.pos[ai])
    elif state.last_mover == human:
        # Translators: as above, both tokens on one space (B), yours on top
        legend = _("Y you at {you}, A the AI at {ai} (B: both, you on top) · $ income · L leather",
                   you=state.pos[human], ai=state.pos[ai])
    else:
        # Translators: as above, both tokens on one space (B), the AI's on top
        legend = _("Y you at {you}, A the AI at {ai} (B: both, the AI on top) · $ income · L leather",
                   you=state.pos[human], ai=state.pos[ai])
    text.append("\n" + " " * (len(label) + 1) + legend, style="dim")
    return text


# --- the circle -------------------------------------------------------------------------------
def shape_text(pid: int, orientation: Orientation) -> Text:
    """A patch's shape in its colour: cloth ``██``, a cell with a button icon ``()``."""
    return _joined(shape_lines(pid, orientation))


def shape_lines(pid: int, orientation: Orientation, wide: bool = True) -> list[Text]:
    """The shape one line a row: two characters a cell (``wide``) or one (``█``, ``o`` a button)."""
    colour = PALETTE[pid % len(PALETTE)]
    lines = []
    for row in orientation.rows():
        line = Text()
        for ch in row:
            if ch == ".":
                line.append("  " if wide else " ")
            elif ch == "o":
                line.append("()" if wide else "o", style=f"bold bright_white on {colour}")
            else:
                line.append("██" if wide else "█", style=colour)
        lines.append(line)
    return lines


def flat_orientation(pid: int) -> Orientation:
    """The patch turned to lie widest (fewest rows), the way it is easiest to read in a row of cards."""
    return min(PATCHES[pid].orientations, key=lambda o: (o.height, o.index))


def offers(session: Session) -> Text:
    """The patches on offer side by side (number, cost, time and income over the shape), and the
    next patches of the circle beside them (5 lines)."""
    state = session.state
    you = session.human
    shown = state.offers()
    after = state.circle[len(shown):len(shown) + 6]
    more = len(state.circle) - len(shown) - len(after)
    blocks = []
    for k, pid in enumerate(shown):
        p = PATCHES[pid]
        head = Text(f"{k + 1}", style="bold reverse")
        # Translators: a patch on offer: its number and price in buttons (the offer is 13 columns wide)
        head.append(" " + _("#{patch}  cost {cost}", patch=pid, cost=p.cost), style="bold")
        # Translators: a patch on offer: the spaces it costs on the time board and its button income (13 columns)
        facts = Text(_("time {time}  income {income}", time=p.time, income=p.income))
        shape = shape_lines(pid, flat_orientation(pid))
        # Translators: beside a patch on offer: you have too few buttons / it fits nowhere on your quilt (short)
        why = _("too dear") if p.cost > state.buttons[you] else "" if fits_anywhere(pid, state.quilts[you]) else _(
            "no room")
        if why:  # beside the shape (at most 10 columns wide), in red
            shape[0].pad_right(11 - shape[0].cell_len)
            shape[0].append(why, style="red")
        blocks.append([head, facts, *shape])
    # Translators: the patches of the circle after the offer ({patches}: "#4 #9 #12")
    then = Text(_("then: {patches}", patches=" ".join(f"#{p}" for p in after[:3])), style="dim")
    rest = Text(" ".join(f"#{p}" for p in after[3:]) + (f" … (+{more})" if more > 0 else ""), style="dim")
    # Translators: the legend of "()" drawn on a patch, in three lines of at most 16 characters
    glyph = [Text(_("() a button on a"), style="dim"), Text(_("patch: income"), style="dim"),
             Text(_("paid at each $"), style="dim")]
    blocks.append([then, rest, *glyph])
    return side_by_side(blocks, [OFFER_COLUMNS] * (len(blocks) - 1) + [SCREEN_COLUMNS - 1], gap=1)


# --- placing --------------------------------------------------------------------------------
def mini_quilt(state: State, player: int, mask: int, digit: str) -> list[Text]:
    """A compact quilt (one character a cell, rows numbered) with ``mask``'s cells showing
    ``digit``, under its number (10 lines)."""
    covered = state.quilts[player]
    lines = [Text(f" {'#' + digit:^9}", style="bold")]
    for r in range(SIZE):
        line = Text(str(r), style="dim")
        for c in range(SIZE):
            cell = bit(r, c)
            if mask & cell:
                line.append(digit, style=SUGGESTION_STYLE)
            elif covered & cell:
                line.append("▒", style="dim")
            else:
                line.append(EMPTY, style="dim")
        lines.append(line)
    return lines


def placement_view(session: Session, *, crop_notes: bool = True) -> RenderableType:
    """The numbered suggestions (and the orientations, for a patch) the person picks from: the
    suggestions drawn on small quilts, each said in words, then the turned shapes (at most 22 lines,
    so that with the status line and the prompt it fits one 80x24 screen)."""
    state = session.state
    note_lines = [Text(f"{i + 1}  {s.note}", no_wrap=crop_notes, overflow="ellipsis" if crop_notes else None)
                  for i, s in enumerate(session.suggestions)]
    if session.placing_leather:
        overlay = {cells_of(s.mask)[0]: str(i + 1) for i, s in enumerate(session.suggestions)}
        return Group(
            Text(_("place your leather patch: a suggestion, or any empty cell like 4,5"), style="bold"),
            quilt_text(state, session.human, overlay), *note_lines,
        )
    assert session.buying is not None
    pid = session.buying
    patch = PATCHES[pid]
    cards = [mini_quilt(state, session.human, s.mask, str(i + 1)) for i, s in enumerate(session.suggestions)]
    shapes = [[Text(f"o{o.index}", style="bold"), *shape_lines(pid, o, wide=False)] for o in patch.orientations]
    return Group(
        Text(_("place #{patch} (cost {cost}, time {time}, income {income}): pick a suggestion", patch=pid,
               cost=patch.cost, time=patch.time, income=patch.income), style="bold"),
        side_by_side(cards, [10] * len(cards), gap=2),
        *note_lines,
        # Translators: keep the example "o1 4,5": it is what the player types
        Text(_("or turn it: an orientation and the top-left cell of its box, like o1 4,5"), style="dim"),
        side_by_side(shapes, [5] * len(shapes), gap=2),
    )


# --- the whole board -----------------------------------------------------------------------------
def board(session: Session) -> RenderableType:
    """Both quilts, the track and the offers (or the final scores): 18 lines."""
    parts: list[RenderableType] = [quilts(session), track(session)]
    if session.state.is_terminal():
        parts.append(Text(session.final_text(), style="bold"))
    else:
        parts.append(offers(session))
    return Group(*parts)


def status(session: Session) -> Text:
    """One line saying what the person is asked to do now."""
    if session.over:
        return Text(session.final_text(), style="bold")
    if session.ai_to_move:
        return Text(_("the AI is to move"), style="dim")
    if session.placing_leather:
        # Translators: the status line; keep the command word "help"
        return Text(_("place your leather patch (a number or a cell; help for more)"), style="bold")
    if session.buying is not None:
        # Translators: the status line; keep "o<n> row,col" and the command word "cancel"
        return Text(_("place #{patch} (a number, o<n> row,col, or cells; cancel)", patch=session.buying), style="bold")
    # Translators: the status line; keep the command words (buy, advance, hint, undo, save, help, quit)
    return Text(_("your move: buy 1-3, advance, hint, undo, save FILE, help, quit"), style="bold")


def hints(session: Session, lines: list[HintLine]) -> Text:
    """The hinted moves, best first: how to type each, and why in words (no internal scores)."""
    if not lines:
        return Text(_("no hints for this position"))
    text = Text(_("hints, best first:") + "\n", style="bold")
    for i, hint in enumerate(lines):
        text.append(f"{i + 1}. {hint.reason}\n")
        # Translators: under a hint: what to type to play it ({command}: "buy 2 1")
        text.append("   " + _("type: {command}", command=session.hint_text(hint)), style="dim")
        if i + 1 < len(lines):
            text.append("\n")
    return text


def help_text() -> Text:
    return Text(_(HELP_TEXT))
