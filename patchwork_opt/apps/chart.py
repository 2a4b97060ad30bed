"""A small line chart of the win chance over a game, as SVG text or as a PNG drawn with Pillow.

The curve is the first player's chance to win before each ply (the second player's is its mirror
image around 50%); inaccuracies, mistakes and blunders are marked on it. One layout
(``_layout``: positions, colours, texts) is drawn two ways, so the SVG and the PNG agree. In the
SVG each mark is titled (a browser shows the move) and carries ``data-ply``, so the web page can
make it clickable.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from patchwork_opt.apps.seated import Seated, chart_title, numbered
from patchwork_opt.i18n import percent, pgettext

WIDTH, HEIGHT = 720, 280
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 24, 36
CURVE = "#3a6ea5"
MARK_COLOURS = {"inaccuracy": "#e0a800", "mistake": "#e07000", "blunder": "#d00000"}
PNG_SCALE = 2  # pixels per SVG unit, as the position pictures (formats/png.py)

Mark = tuple[int, str, str]  # (ply, label, title)


@dataclass(slots=True)
class _Layout:
    title: str
    rules: list[tuple[float, str, str]] = field(default_factory=list)  # (y, colour, label at the left)
    ticks: list[tuple[float, str]] = field(default_factory=list)  # (x, ply number)
    points: list[tuple[float, float]] = field(default_factory=list)  # the curve
    middle: float = 0.0  # y of 50%
    marks: list[tuple[float, float, str, int, str]] = field(default_factory=list)  # (x, y, colour, ply, title)


def _layout(first_wins: Sequence[float], marks: Sequence[Mark], seats: Sequence[Seated] | None) -> _Layout:
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    steps = max(len(first_wins) - 1, 1)

    def x(ply: float) -> float:
        return LEFT + plot_w * ply / steps

    def y(win: float) -> float:
        return TOP + plot_h * (1.0 - win)

    out = _Layout(
        title=chart_title(*(seats or numbered())),
        middle=y(0.5),
    )
    for level in (0.0, 0.25, 0.5, 0.75, 1.0):
        out.rules.append((y(level), "#888888" if level == 0.5 else "#dddddd", percent(level)))
    tick = max(1, steps // 10)
    out.ticks = [(x(ply), str(ply)) for ply in range(0, steps + 1, tick)]
    out.points = [(x(i), y(w)) for i, w in enumerate(first_wins)]
    for ply, label, title in marks:
        if 0 <= ply < len(first_wins):
            out.marks.append((x(ply), y(first_wins[ply]), MARK_COLOURS.get(label, "#555555"), ply, title))
    return out


def axis_words() -> str:
    """The horizontal axis's label."""
    # Translators: the win-chance chart's horizontal axis: the plies (half-moves) of the game, counted
    return pgettext("chart axis", "ply")


def win_chart_svg(
    first_wins: Sequence[float],
    marks: Sequence[Mark] = (),
    seats: Sequence[Seated] | None = None,
) -> str:
    """``first_wins[i]``: player 1's win chance before ply i (the last entry: the result);
    ``marks``: (ply, label, title) for each move to point out; ``seats``: who plays (Player 1 and 2
    when not given), for the title. Its words are in the language in effect."""
    chart = _layout(first_wins, marks, seats)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11">',
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="{LEFT}" y="15" font-size="13">{escape(chart.title)}</text>',
    ]
    for y, colour, label in chart.rules:
        parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="{colour}"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
    for x, label in chart.ticks:
        parts.append(f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">{label}</text>')
    parts.append(
        f'<text x="{LEFT + (WIDTH - LEFT - RIGHT) / 2:.1f}" y="{HEIGHT - 6}" text-anchor="middle">'
        f"{escape(axis_words())}</text>")
    if chart.points:
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in chart.points)
        area = f"{chart.points[0][0]:.1f},{chart.middle:.1f} {points} {chart.points[-1][0]:.1f},{chart.middle:.1f}"
        parts.append(f'<polygon points="{area}" fill="{CURVE}" fill-opacity="0.15"/>')
        parts.append(f'<polyline points="{points}" fill="none" stroke="{CURVE}" stroke-width="2"/>')
    for x, y, colour, ply, title in chart.marks:
        parts.append(
            f'<circle class="mark" data-ply="{ply}" cx="{x:.1f}" cy="{y:.1f}" r="4.5" fill="{colour}">'
            f"<title>{escape(title)}</title></circle>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def win_chart_png(
    first_wins: Sequence[float],
    marks: Sequence[Mark] = (),
    seats: Sequence[Seated] | None = None,
) -> bytes:
    """The same chart as ``win_chart_svg``, as the bytes of a PNG file (written whole by the
    caller, so a failed write leaves no half picture)."""
    from PIL import Image, ImageDraw, ImageFont  # Pillow is needed for this picture only

    s = PNG_SCALE
    chart = _layout(first_wins, marks, seats)
    image = Image.new("RGB", (WIDTH * s, HEIGHT * s), "#ffffff")
    draw = ImageDraw.Draw(image)
    draw_shaded = ImageDraw.Draw(image, "RGBA")
    small, large = ImageFont.load_default(11 * s), ImageFont.load_default(13 * s)
    draw.text((LEFT * s, 15 * s), chart.title, fill="#000000", font=large, anchor="ls")
    for y, colour, label in chart.rules:
        draw.line([(LEFT * s, y * s), ((WIDTH - RIGHT) * s, y * s)], fill=colour, width=s)
        draw.text(((LEFT - 6) * s, (y + 4) * s), label, fill="#000000", font=small, anchor="rs")
    for x, label in chart.ticks:
        draw.text((x * s, (HEIGHT - BOTTOM + 16) * s), label, fill="#000000", font=small, anchor="ms")
    draw.text(((LEFT + (WIDTH - LEFT - RIGHT) / 2) * s, (HEIGHT - 6) * s), axis_words(), fill="#000000", font=small,
              anchor="ms")
    if chart.points:
        scaled = [(x * s, y * s) for x, y in chart.points]
        area = [(scaled[0][0], chart.middle * s), *scaled, (scaled[-1][0], chart.middle * s)]
        draw_shaded.polygon(area, fill=(0x3A, 0x6E, 0xA5, 38))  # the SVG's fill-opacity 0.15
        if len(scaled) > 1:
            draw.line(scaled, fill=CURVE, width=2 * s, joint="curve")
    for x, y, colour, _, _ in chart.marks:
        r = 4.5 * s
        draw.ellipse((x * s - r, y * s - r, x * s + r, y * s + r), fill=colour)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
