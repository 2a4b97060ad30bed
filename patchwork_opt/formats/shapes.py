"""The plain shapes a picture is made of (``picture.py`` lays them out; SVG and PNG writers draw them)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None
    stroke: str | None = None
    width: float = 1.0
    radius: float = 0.0
    dashed: bool = False


@dataclass(frozen=True, slots=True)
class Circle:
    x: float
    y: float
    r: float
    fill: str
    stroke: str | None = None
    width: float = 1.0


@dataclass(frozen=True, slots=True)
class Lines:
    """Separate straight segments ``(x1, y1, x2, y2)``: the outline of a patch."""

    segments: tuple[tuple[float, float, float, float], ...]
    stroke: str
    width: float


@dataclass(frozen=True, slots=True)
class Label:
    x: float
    y: float  # the baseline
    text: str
    size: float
    fill: str = "#2b2620"
    bold: bool = False
    centred: bool = False


Shape = Rect | Circle | Lines | Label


@dataclass(slots=True)
class Picture:
    width: float
    height: float
    shapes: list[Shape] = field(default_factory=list)
