"""The pictures of ``picture.py`` drawn as PNG with Pillow (a plain pip package, no system library)."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from patchwork_opt.core.errors import RecordError
from patchwork_opt.formats.shapes import Circle, Label, Lines, Picture, Rect
from patchwork_opt.i18n import N_

SCALE = 2  # pixels per SVG unit: sharp on high-density screens and in print


def _dashes(draw: ImageDraw.ImageDraw, r: Rect, s: float) -> None:
    """A dashed rectangle (10 on, 5 off, as the SVG's stroke-dasharray)."""
    x0, y0, x1, y1 = r.x * s, r.y * s, (r.x + r.w) * s, (r.y + r.h) * s
    on, off = 10 * s, 5 * s
    for (ax, ay), (bx, by) in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        length = abs(bx - ax) + abs(by - ay)
        ux, uy = (bx - ax) / length, (by - ay) / length
        t = 0.0
        while t < length:
            end = min(t + on, length)
            draw.line([(ax + ux * t, ay + uy * t), (ax + ux * end, ay + uy * end)], fill=r.stroke,
                      width=round(r.width * s))
            t = end + off


def render_png(pic: Picture, scale: int = SCALE) -> Image.Image:
    image = Image.new("RGB", (round(pic.width * scale), round(pic.height * scale)), "#ffffff")
    draw = ImageDraw.Draw(image)
    fonts: dict[tuple[float, bool], ImageFont.FreeTypeFont | ImageFont.ImageFont] = {}
    s = scale
    for shape in pic.shapes:
        if isinstance(shape, Rect):
            box = (shape.x * s, shape.y * s, (shape.x + shape.w) * s, (shape.y + shape.h) * s)
            if shape.dashed:
                _dashes(draw, shape, s)
                continue
            outline = shape.stroke if shape.stroke else None
            width = round(shape.width * s) if shape.stroke else 0
            if shape.radius:
                draw.rounded_rectangle(box, radius=shape.radius * s, fill=shape.fill, outline=outline, width=width)
            else:
                draw.rectangle(box, fill=shape.fill, outline=outline, width=width)
        elif isinstance(shape, Circle):
            box = ((shape.x - shape.r) * s, (shape.y - shape.r) * s, (shape.x + shape.r) * s, (shape.y + shape.r) * s)
            width = round(shape.width * s) if shape.stroke else 0
            draw.ellipse(box, fill=shape.fill, outline=shape.stroke, width=width)
        elif isinstance(shape, Lines):
            width = round(shape.width * s)
            for x1, y1, x2, y2 in shape.segments:
                # square caps, as the SVG's: each segment runs half a stroke past its ends
                half = shape.width / 2
                dx, dy = (half if x2 != x1 else 0), (half if y2 != y1 else 0)
                draw.line([((x1 - dx) * s, (y1 - dy) * s), ((x2 + dx) * s, (y2 + dy) * s)], fill=shape.stroke,
                          width=width)
        elif isinstance(shape, Label):
            key = (shape.size, shape.bold)
            if key not in fonts:
                fonts[key] = ImageFont.load_default(shape.size * s)
            anchor = "ms" if shape.centred else "ls"
            draw.text((shape.x * s, shape.y * s), shape.text, fill=shape.fill, font=fonts[key], anchor=anchor,
                      stroke_width=1 if shape.bold else 0, stroke_fill=shape.fill)
    return image


def png_bytes(pic: Picture) -> bytes:
    """The picture as the bytes of a PNG file."""
    out = io.BytesIO()
    render_png(pic).save(out, format="PNG")
    return out.getvalue()


def write_png(pic: Picture, path: str | Path) -> None:
    try:
        render_png(pic).save(path, format="PNG")
    except OSError as exc:
        raise RecordError(N_("{path}: cannot write: {error}"), path=path, error=exc.strerror or exc) from None
