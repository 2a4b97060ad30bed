"""Rich drawings of a play session: quilts side by side, the time track, the offers, suggestions.

Everything here only reads a Session; it returns renderables and never changes the game.
Each patch has its own colour (by patch id) and its own letter (by order placed), so the
board reads the same with colours off (a script's output) as with them on.
"""

from __future__ import annotations

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from patchwork_opt.apps.play.commands import HELP_TEXT
from patchwork_opt.apps.play.session import HintLine, Session, cells_text
from patchwork_opt.core.bitboard import SIZE, cells_of
from patchwork_opt.core.catalogue import PATCHES, Orientation, fits_anywhere
from patchwork_opt.core.state import END, INCOME_MARKS, LEATHER_PATCH, State
from patchwork_opt.core.words import player_name
from patchwork_opt.formats.render import piece_labels

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


def patch_style(pid: int) -> str:
    if pid == LEATHER_PATCH:
        return LEATHER_STYLE
    return f"bold bright_white on {PALETTE[pid % len(PALETTE)]}"


def names(session: Session) -> tuple[str, str]:
    """Display names of the two seats: "You" and the AI's."""
    ai = f"AI ({session.bot.name})"
    return ("You", ai) if session.human == 0 else (ai, "You")


# --- quilts ---------------------------------------------------------------------------------
def quilt_text(state: State, player: int, overlay: dict[tuple[int, int], str] | None = None) -> Text:
    """The 9x9 quilt with row and column numbers; ``overlay`` puts digits on chosen cells."""
    grid: list[list[tuple[str, str]]] = [[(EMPTY, "dim")] * SIZE for _ in range(SIZE)]
    labels = piece_labels(state.placed[player])
    for (pid, _), (label, mask) in zip(state.placed[player], labels, strict=True):
        for r, c in cells_of(mask):
            grid[r][c] = (label, patch_style(pid))
    if overlay:
        for (r, c), digit in overlay.items():
            grid[r][c] = (digit, SUGGESTION_STYLE)
    return grid_text(grid)


def grid_text(grid: list[list[tuple[str, str]]]) -> Text:
    """A 9x9 grid of (label, style) cells with row and column numbers: how every quilt is drawn."""
    text = Text("   " + " ".join(str(c) for c in range(SIZE)) + "\n", style="dim")
    for r in range(SIZE):
        text.append(f"{r} ", style="dim")
        for c in range(SIZE):
            label, style = grid[r][c]
            text.append(" " + label, style=style)
        if r + 1 < SIZE:
            text.append("\n")
    return text


def player_panel(session: Session, player: int) -> Panel:
    state = session.state
    view = state.player(player)
    name = names(session)[player]
    mover = not state.is_terminal() and state.to_move() == player
    title = Text(f" {name} · {player_name(player)} ", style=YOU_STYLE if player == session.human else AI_STYLE)
    if mover:
        title.append(" ◀ to move", style="bold")
    stats = Text()
    stats.append(f"buttons {view.buttons}  income {view.income}  empty {view.empty}\n")
    stats.append(f"score now {view.score}", style="bold")
    if view.bonus:
        stats.append(" (7x7 bonus +7 included)", style="bold green")
    return Panel(Group(quilt_text(state, player), Text(""), stats), title=title, expand=False)


# --- time track -------------------------------------------------------------------------------
def track(session: Session) -> Text:
    """Spaces 0..53 with the tokens, income marks ($) and leather patches (L) still lying there."""
    state = session.state
    leather = set(state.leather_left())
    human, ai = session.human, session.ai
    text = Text("time ", style="bold")
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
        else:
            text.append(EMPTY, style="dim")
    scale = [" "] * (END + 1)
    for space in range(0, END + 1, 10):
        for i, ch in enumerate(str(space)):
            if space + i <= END:
                scale[space + i] = ch
    text.append("\n     " + "".join(scale), style="dim")
    top = "you" if state.last_mover == human else "the AI"
    text.append(
        f"\n     Y you {state.pos[human]}, A AI {state.pos[ai]}"
        + (f", B both (on top: {top})" if state.pos[0] == state.pos[1] else "")
        + ", $ income mark, L leather patch",
        style="dim",
    )
    return text


# --- the circle -------------------------------------------------------------------------------
def shape_text(pid: int, orientation: Orientation) -> Text:
    """A patch's shape in its colour: cloth ``██``, a cell with a button icon ``()``."""
    colour = PALETTE[pid % len(PALETTE)]
    text = Text()
    rows = orientation.rows()
    for i, row in enumerate(rows):
        for ch in row:
            if ch == ".":
                text.append("  ")
            elif ch == "o":
                text.append("()", style=f"bold bright_white on {colour}")
            else:
                text.append("██", style=colour)
        if i + 1 < len(rows):
            text.append("\n")
    return text


def flat_orientation(pid: int) -> Orientation:
    """The patch turned to lie widest (fewest rows), the way it is easiest to read in a row of cards."""
    return min(PATCHES[pid].orientations, key=lambda o: (o.height, o.index))


def offers(session: Session) -> RenderableType:
    """The three patches on offer, drawn, with cost, time and income, and what follows them."""
    state = session.state
    you = session.human
    shown = state.offers()
    rows = max((flat_orientation(pid).height for pid in shown), default=1)
    cards = []
    for k, pid in enumerate(shown):
        p = PATCHES[pid]
        shape = shape_text(pid, flat_orientation(pid))
        shape.append("\n" * (rows - flat_orientation(pid).height))
        body = Text(f"cost {p.cost}  time {p.time}\nincome {p.income}  cells {p.area}\n")
        if p.cost > state.buttons[you]:
            body.append("can't afford", style="red")
        elif not fits_anywhere(pid, state.quilts[you]):
            body.append("doesn't fit", style="red")
        else:
            body.append("you can buy it", style="green")
        cards.append(Panel(Group(shape, Text(""), body), title=f"{k + 1}  #{pid}", width=22))
    after = state.circle[3:9]
    more = len(state.circle) - 3 - len(after)
    tail = Text("then: " + " ".join(f"#{pid}" for pid in after) + (f" … (+{more})" if more > 0 else ""),
                style="dim")
    legend = Text("  () a button on the patch: its income, paid at each $ on the track", style="dim")
    return Group(Text("on offer (buy 1-3):", style="bold") + legend, Columns(cards), tail)


# --- placing --------------------------------------------------------------------------------
def mini_quilt(state: State, player: int, mask: int, digit: str) -> Text:
    """A compact quilt (one character a cell) with ``mask``'s cells showing ``digit``."""
    covered = state.quilts[player]
    text = Text(" " + "".join(str(c) for c in range(SIZE)) + "\n", style="dim")
    for r in range(SIZE):
        text.append(str(r), style="dim")
        for c in range(SIZE):
            cell = 1 << (r * SIZE + c)
            if mask & cell:
                text.append(digit, style=SUGGESTION_STYLE)
            elif covered & cell:
                text.append("▒", style="dim")
            else:
                text.append(EMPTY, style="dim")
        if r + 1 < SIZE:
            text.append("\n")
    return text


def placement_view(session: Session, *, crop_notes: bool = True) -> RenderableType:
    """The numbered suggestions (and the orientations, for a patch) the person picks from."""
    state = session.state
    if session.placing_leather:
        overlay = {cells_of(s.mask)[0]: str(i + 1) for i, s in enumerate(session.suggestions)}
        notes = Text("\n".join(f"{i + 1}  {cells_text(s.mask)}  {s.note}"
                               for i, s in enumerate(session.suggestions)))
        return Panel(
            Group(quilt_text(state, session.human, overlay), Text(""), notes,
                  Text("type a number, or any empty cell like 4,5", style="dim")),
            title="place your leather patch", expand=False,
        )
    assert session.buying is not None
    pid = session.buying
    patch = PATCHES[pid]
    cards = [
        Panel(mini_quilt(state, session.human, s.mask, str(i + 1)),
              title=f"{i + 1}", subtitle=f"{s.score:.1f}", expand=False)
        for i, s in enumerate(session.suggestions)
    ]
    # one line a note, cut at the terminal's edge (a script gets it whole), so that the
    # suggestions, drawn last, stay on an 80x24 screen above the prompt
    lines = [Text(f"{i + 1}  {cells_text(s.mask)}  {s.note}", style="dim", no_wrap=crop_notes,
                  overflow="ellipsis" if crop_notes else None)
             for i, s in enumerate(session.suggestions)]
    shapes = [Panel(shape_text(pid, o), title=f"o{o.index}", expand=False) for o in patch.orientations]
    return Group(
        Text(f"#{pid} turned and flipped: give an orientation and the top-left cell of its box, like o1 4,5,",
             style="bold"),
        Columns(shapes),
        Text("or its cells, like 34,35,45;  cancel puts it back", style="dim"),
        Text(f"place #{pid} (cost {patch.cost}, time {patch.time}, income {patch.income}): "
             "pick a suggestion", style="bold"),
        Columns(cards),
        *lines,
    )


# --- the whole board -----------------------------------------------------------------------------
def board(session: Session) -> RenderableType:
    state = session.state
    quilts = Table.grid(padding=(0, 2))
    quilts.add_row(player_panel(session, 0), player_panel(session, 1))
    parts: list[RenderableType] = [quilts, track(session)]
    if state.is_terminal():
        parts.append(Text(session.final_text(), style="bold"))
    else:
        parts.append(offers(session))
    return Group(*parts)


def status(session: Session) -> Text:
    """One line saying what the person is asked to do now."""
    if session.over:
        return Text(session.final_text(), style="bold")
    if session.ai_to_move:
        return Text("the AI is to move", style="dim")
    if session.placing_leather:
        return Text("place your leather patch (a number or a cell; help for more)", style="bold")
    if session.buying is not None:
        return Text(f"place #{session.buying} (a number, o<n> row,col, or cells; cancel)", style="bold")
    return Text("your move: buy 1-3, advance, hint, undo, save FILE, help, quit", style="bold")


def hints(session: Session, lines: list[HintLine]) -> Text:
    if not lines:
        return Text("no hints for this position")
    text = Text("hints, best first:\n", style="bold")
    for i, hint in enumerate(lines):
        value = f"  score {hint.value:+.2f}" if hint.value is not None else ""
        text.append(f"{i + 1}. {session.hint_text(hint)}{value}\n   {hint.reason}")
        if i + 1 < len(lines):
            text.append("\n")
    return text


def help_text() -> Text:
    return Text(HELP_TEXT)
