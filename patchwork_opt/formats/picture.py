"""Pictures of a quilt or a position in the web page's style, for sharing and for documents.

One layout, as a list of plain shapes, written out two ways: as SVG text here (``to_svg``) and
as a PNG by ``patchwork_opt.formats.png``. Colours and sizes are the page's (apps/web/static).
"""

from __future__ import annotations

import colorsys
import textwrap
from html import escape
from pathlib import Path

from patchwork_opt.core.bitboard import SIZE, WINDOW, cells_of, full_window
from patchwork_opt.core.catalogue import PATCHES, button_cells
from patchwork_opt.core.state import END, INCOME_MARKS, LEATHER_PATCH, State
from patchwork_opt.core.words import player_name
from patchwork_opt.formats.inputs import LoadedInput
from patchwork_opt.formats.record import write_atomic
from patchwork_opt.formats.shapes import Circle, Label, Lines, Picture, Rect
from patchwork_opt.i18n import _, ngettext

CELL = 34  # px per quilt cell, as on the page
MARGIN = 16
PAGE = "#f6f1e7"
INK = "#2b2620"  # the page's text colour, also ``shapes.Label``'s default
MUTED = "#7a6f62"
EMPTY_CELL, CELL_LINE = "#efe6d6", "#cbbda6"
EDGE = "#3d3229"
BUTTON = "#2e5eaa"
LEATHER, LEATHER_LINE = "#8b5a2b", "#5c3a1a"
CLOTH = "#b9a487"  # a covered cell of a bare quilt, whose patches are not known
BONUS = "#e8590c"
TOKENS = ("#d1495b", "#00798c")  # Player 1, Player 2 (the page's "you" and "AI" colours)
CAPTION_CHARS = 46  # characters of a 12 px caption line under a quilt


def patch_colour(patch_id: int) -> str:
    """The page's colour of a patch: hues spread by the golden angle, 55% saturation, 66% light."""
    if patch_id == LEATHER_PATCH:
        return LEATHER
    r, g, b = colorsys.hls_to_rgb((patch_id * 137.508) % 360 / 360, 0.66, 0.55)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def _outline(x: float, y: float, cells: list[tuple[int, int]]) -> tuple[tuple[float, float, float, float], ...]:
    """The outer edges of a set of cells (the edges no other cell of the set shares)."""
    inside = set(cells)
    out = []
    for r, c in cells:
        left, top = x + c * CELL, y + r * CELL
        if (r - 1, c) not in inside:
            out.append((left, top, left + CELL, top))
        if (r + 1, c) not in inside:
            out.append((left, top + CELL, left + CELL, top + CELL))
        if (r, c - 1) not in inside:
            out.append((left, top, left, top + CELL))
        if (r, c + 1) not in inside:
            out.append((left + CELL, top, left + CELL, top + CELL))
    return tuple(out)


def _quilt(pic: Picture, x: float, y: float, quilt: int, placed: list[tuple[int, int]]) -> None:
    """A 9x9 quilt with its top-left corner at (x, y): the patches in their colours with their
    buttons, and the 7x7 square marked once it is complete."""
    for r in range(SIZE):
        for c in range(SIZE):
            pic.shapes.append(Rect(x + c * CELL, y + r * CELL, CELL, CELL, EMPTY_CELL, CELL_LINE))
    known = 0
    for patch_id, mask in placed:
        known |= mask
        cells = cells_of(mask)
        colour = patch_colour(patch_id)
        pic.shapes += [Rect(x + c * CELL, y + r * CELL, CELL, CELL, colour) for r, c in cells]
        if patch_id != LEATHER_PATCH:
            pic.shapes += [Circle(x + (c + 0.5) * CELL, y + (r + 0.5) * CELL, CELL * 0.22, BUTTON, "#ffffff", 1.2)
                           for r, c in button_cells(patch_id, mask)]
        pic.shapes.append(Lines(_outline(x, y, cells), EDGE, 2))
    unknown = cells_of(quilt & ~known)  # a bare quilt: covered, by patches nobody said
    if unknown:
        pic.shapes += [Rect(x + c * CELL, y + r * CELL, CELL, CELL, CLOTH) for r, c in unknown]
        pic.shapes.append(Lines(_outline(x, y, unknown), EDGE, 2))
    window = full_window(quilt)
    if window is not None:
        top, left = window
        pic.shapes.append(Rect(x + left * CELL + 2, y + top * CELL + 2, WINDOW * CELL - 4, WINDOW * CELL - 4,
                               None, BONUS, 3, dashed=True))


def _track_xy(space: int) -> tuple[float, float]:
    """The page's track: a snake of three rows of 18 spaces (0..17 left to right, 18..35 back...)."""
    row, i = divmod(space, 18)
    col = i if row % 2 == 0 else 17 - i
    return col * 40.0, row * 44.0


def _track(pic: Picture, x: float, y: float, state: State) -> None:
    leather = set(state.leather_left())
    for space in range(END + 1):
        sx, sy = _track_xy(space)
        sx, sy = x + sx, y + sy
        pic.shapes.append(Rect(sx, sy, 38, 40, "#e9d8a6" if space == END else EMPTY_CELL, CELL_LINE, radius=4))
        pic.shapes.append(Label(sx + 3, sy + 11, str(space), 9, MUTED))
        if space in INCOME_MARKS:
            pic.shapes.append(Circle(sx + 30, sy + 9, 5, BUTTON, "#ffffff", 1.2))
        if space in leather:
            pic.shapes.append(Rect(sx + 24, sy + 24, 11, 11, LEATHER, LEATHER_LINE))
    stacked = state.pos[0] == state.pos[1]
    on_top = state.last_mover
    for p in (1 - on_top, on_top):  # the token on top is drawn last
        sx, sy = _track_xy(state.pos[p])
        dx, dy = ((5, -4) if p == on_top else (-5, 4)) if stacked else (0, 0)
        cx, cy = x + sx + 14 + dx, y + sy + 26 + dy
        pic.shapes.append(Circle(cx, cy, 9, TOKENS[p], "#ffffff", 2))
        pic.shapes.append(Label(cx, cy + 4, str(p + 1), 11, "#ffffff", bold=True, centred=True))


def quilt_picture(quilt: int, placed: list[tuple[int, int]] | None = None, caption: str = "") -> Picture:
    """One quilt, with its counts under it (and ``caption``, a line of words, under those)."""
    side = SIZE * CELL
    lines = textwrap.wrap(caption, CAPTION_CHARS)
    pic = Picture(side + 2 * MARGIN, side + 2 * MARGIN + 22 + 17 * len(lines))
    pic.shapes.append(Rect(0, 0, pic.width, pic.height, PAGE))
    _quilt(pic, MARGIN, MARGIN, quilt, placed or [])
    covered = quilt.bit_count()
    # Translators: under a quilt's picture: its covered and empty cells
    counts = _("covered {covered}, empty {empty}", covered=covered, empty=SIZE * SIZE - covered)
    pic.shapes.append(Label(MARGIN, MARGIN + side + 18, counts, 13, MUTED))
    for i, line in enumerate(lines):
        pic.shapes.append(Label(MARGIN, MARGIN + side + 37 + 17 * i, line, 12, INK))
    return pic


#: The catalogue's cards: a patch's cells at this size, this many cards to a row.
PATCH_CELL = 18
CARDS_PER_ROW = 6
CARD_W, CARD_H = 164, 128


def _patch_card(pic: Picture, x: float, y: float, patch_id: int) -> None:
    """A patch as printed (its shape with its buttons, in its page colour), its id and its facts."""
    p = PATCHES[patch_id]
    pic.shapes.append(Rect(x, y, CARD_W - 8, CARD_H - 8, "#fffaf0", CELL_LINE, radius=6))
    pic.shapes.append(Label(x + 8, y + 18, f"#{p.id}", 14, bold=True))
    pic.shapes.append(Label(x + 44, y + 18, ngettext("{count} cell", "{count} cells", p.area), 12, MUTED))
    top = y + 28
    cells = [(r, c) for r, row in enumerate(p.shape) for c, ch in enumerate(row) if ch in "#o"]
    colour = patch_colour(p.id)
    pic.shapes += [Rect(x + 8 + c * PATCH_CELL, top + r * PATCH_CELL, PATCH_CELL, PATCH_CELL, colour, EDGE, 0.5)
                   for r, c in cells]
    pic.shapes += [Circle(x + 8 + (c + 0.5) * PATCH_CELL, top + (r + 0.5) * PATCH_CELL, PATCH_CELL * 0.24, BUTTON,
                          "#ffffff", 1) for r, row in enumerate(p.shape) for c, ch in enumerate(row) if ch == "o"]
    # Translators: a patch card's facts in a picture
    facts = _("cost {cost} · time {time} · income {income}", cost=p.cost, time=p.time, income=p.income)
    pic.shapes.append(Label(x + 8, y + CARD_H - 18, facts, 11, INK))


def catalogue_picture(ids: list[int]) -> Picture:
    """The patches ``ids`` as cards, ``CARDS_PER_ROW`` to a row (``patchwork patches --svg``)."""
    rows = max(1, -(-len(ids) // CARDS_PER_ROW))
    columns = min(max(1, len(ids)), CARDS_PER_ROW)
    pic = Picture(columns * CARD_W + 2 * MARGIN - 8, rows * CARD_H + 2 * MARGIN - 8)
    pic.shapes.append(Rect(0, 0, pic.width, pic.height, PAGE))
    for k, patch_id in enumerate(ids):
        row, col = divmod(k, CARDS_PER_ROW)
        _patch_card(pic, MARGIN + col * CARD_W, MARGIN + row * CARD_H, patch_id)
    return pic


def save_picture(pic: Picture, *, svg: str | Path | None = None, png: str | Path | None = None) -> None:
    """Write ``pic`` as SVG and/or PNG files (RecordError when one cannot be written)."""
    if svg is not None:
        write_atomic(svg, to_svg(pic))
    if png is not None:
        from patchwork_opt.formats.png import write_png  # Pillow, only when a PNG is asked for

        write_png(pic, png)


def position_picture(state: State) -> Picture:
    """Both quilts with their players' figures, the time track, and whose turn it is (or who won)."""
    side = SIZE * CELL
    gap = 32
    quilt_y = MARGIN + 44
    track_y = quilt_y + side + 24
    width = max(2 * side + gap, 18 * 40 - 2) + 2 * MARGIN
    pic = Picture(width, track_y + 3 * 44 + 30)
    pic.shapes.append(Rect(0, 0, pic.width, pic.height, PAGE))
    over = state.is_terminal()
    for p in (0, 1):
        view = state.player(p)
        x = MARGIN + p * (side + gap)
        # Translators: a player's head in a game's picture ({player}: "Player 1")
        head = (_("{player}: score {score}", player=player_name(p), score=view.score) if over or state.to_move() != p
                else _("{player}: score {score} (to move)", player=player_name(p), score=view.score))
        pic.shapes.append(Circle(x + 7, MARGIN + 9, 7, TOKENS[p]))
        pic.shapes.append(Label(x + 20, MARGIN + 14, head, 15, bold=True))
        # Translators: a player's figures in a game's picture: space on the time board, buttons, income, empty cells
        figures = (_("space {space}, buttons {buttons}, income {income}, empty {empty}, 7x7 bonus", space=view.position,
                     buttons=view.buttons, income=view.income, empty=view.empty) if view.bonus else
                   _("space {space}, buttons {buttons}, income {income}, empty {empty}", space=view.position,
                     buttons=view.buttons, income=view.income, empty=view.empty))
        pic.shapes.append(Label(x, MARGIN + 32, figures, 12, MUTED))
        _quilt(pic, x, quilt_y, state.quilts[p], state.placed[p])
    _track(pic, MARGIN, track_y, state)
    if over:
        winner = state.winner()
        # Translators: a finished game's picture's caption: both scores, then who wins
        caption = _("game over: {first} {first_score}, {second} {second_score}; {winner} wins", first=player_name(0),
                    first_score=state.score(0), second=player_name(1), second_score=state.score(1),
                    winner=player_name(winner if winner is not None else 0))
    else:
        # Translators: a game's picture's caption: who moves, and the patches on offer ("#3, #17, #22")
        caption = _("{player} to move; on offer: {offers}", player=player_name(state.to_move()),
                    offers=", ".join(f"#{i}" for i in state.offers()))
    pic.shapes.append(Label(MARGIN, pic.height - 12, caption, 13, INK))
    return pic


def picture_of(loaded: LoadedInput) -> Picture:
    """What ``show --svg``/``--png`` draws: the quilt, or the position (a record's last one)."""
    if loaded.state is None:
        return quilt_picture(loaded.quilt.mask)
    return position_picture(loaded.state)


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def to_svg(pic: Picture) -> str:
    """The picture as a standalone SVG document."""
    n = _number
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{n(pic.width)}" height="{n(pic.height)}" '
        f'viewBox="0 0 {n(pic.width)} {n(pic.height)}" '
        'font-family="system-ui, -apple-system, Segoe UI, sans-serif">'
    ]
    for s in pic.shapes:
        if isinstance(s, Rect):
            paint = f'fill="{s.fill or "none"}"'
            if s.stroke:
                paint += f' stroke="{s.stroke}" stroke-width="{n(s.width)}"'
            if s.dashed:
                paint += ' stroke-dasharray="10 5"'
            corner = f' rx="{n(s.radius)}"' if s.radius else ""
            out.append(f'<rect x="{n(s.x)}" y="{n(s.y)}" width="{n(s.w)}" height="{n(s.h)}"{corner} {paint}/>')
        elif isinstance(s, Circle):
            stroke = f' stroke="{s.stroke}" stroke-width="{n(s.width)}"' if s.stroke else ""
            out.append(f'<circle cx="{n(s.x)}" cy="{n(s.y)}" r="{n(s.r)}" fill="{s.fill}"{stroke}/>')
        elif isinstance(s, Lines):
            d = "".join(f"M{n(a)} {n(b)}L{n(c)} {n(e)}" for a, b, c, e in s.segments)
            out.append(f'<path d="{d}" fill="none" stroke="{s.stroke}" stroke-width="{n(s.width)}" '
                       'stroke-linecap="square"/>')
        else:
            weight = ' font-weight="700"' if s.bold else ""
            anchor = ' text-anchor="middle"' if s.centred else ""
            out.append(f'<text x="{n(s.x)}" y="{n(s.y)}" font-size="{n(s.size)}" fill="{s.fill}"{weight}{anchor}>'
                       f"{escape(s.text)}</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def save_pictures(loaded: LoadedInput, *, svg: str | Path | None = None, png: str | Path | None = None) -> None:
    """Write the picture of ``loaded`` as SVG and/or PNG files (RecordError when one cannot be written)."""
    save_picture(picture_of(loaded), svg=svg, png=png)
