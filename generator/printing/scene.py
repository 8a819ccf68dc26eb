"""The scene: what a page shows, as primitives in millimetres, for every backend.

A layout is drawn once into a :class:`Scene`; the PDF, SVG and PNG backends
only translate its primitives.  Coordinates are millimetres from the page's
top-left corner, y growing downwards (as in SVG).  Text sizes are points.

The scene also records :class:`MarkTarget` s: every place a player marks
(rank ticks, suit circles, chip circles, reward icons, bonus circles), with
its box in millimetres, produced by the same code that draws it, so a photo
reader never needs a hand-made template.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal, Sequence, Union

from generator.printing.fonts import FONT_FILES, FONT_NAMES, font_path  # noqa: F401  (re-exported: backends and readers import them here)

PT = 25.4 / 72
"""Millimetres per typographic point."""


@dataclass(frozen=True)
class Paint:
    """How a shape is painted.

    Attributes:
        stroke: outline colour ``#rrggbb`` or ``None`` for no outline.
        fill: fill colour or ``None`` for no fill.
        width: outline width in mm.
        dash: dash pattern in mm (on, off, …) or ``None`` for solid.
    """

    stroke: str | None = "#000000"
    fill: str | None = None
    width: float = 0.3
    dash: tuple[float, ...] | None = None


@dataclass(frozen=True)
class Line:
    """A straight line from ``(x1, y1)`` to ``(x2, y2)`` (mm)."""

    x1: float
    y1: float
    x2: float
    y2: float
    paint: Paint = Paint()


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle, top-left ``(x, y)``, size ``w`` × ``h``, corner radius ``r`` (mm)."""

    x: float
    y: float
    w: float
    h: float
    paint: Paint = Paint()
    r: float = 0.0


@dataclass(frozen=True)
class Circle:
    """A circle of centre ``(cx, cy)`` and radius ``r`` (mm)."""

    cx: float
    cy: float
    r: float
    paint: Paint = Paint()


PathOp = tuple
"""``("M", x, y)``, ``("L", x, y)``, ``("C", x1, y1, x2, y2, x, y)`` or ``("Z",)``, in mm."""


@dataclass(frozen=True)
class Path_:
    """A path of move/line/cubic-curve/close operations (mm), filled with the non-zero rule."""

    ops: tuple[PathOp, ...]
    paint: Paint = Paint()


@dataclass(frozen=True)
class Text:
    """A line of text.

    Attributes:
        x, y: anchor point in mm; ``y`` is the baseline.
        text: the characters (suit symbols are never passed here: they are drawn as shapes).
        size: font size in points.
        weight: ``"regular"``, ``"bold"`` or ``"italic"`` (the italic is used for handwriting on filled sheets).
        anchor: ``"start"``, ``"middle"`` or ``"end"`` of the text at ``x``.
        color: ``#rrggbb``.
        angle: rotation in degrees, counter-clockwise, about ``(x, y)``.
    """

    x: float
    y: float
    text: str
    size: float
    weight: Literal["regular", "bold", "italic"] = "regular"
    anchor: Literal["start", "middle", "end"] = "start"
    color: str = "#000000"
    angle: float = 0.0


Primitive = Union[Line, Rect, Circle, Path_, Text]


@dataclass(frozen=True)
class MarkTarget:
    """A place a player marks, for machine reading.

    Attributes:
        kind: ``"rank"``, ``"suit"``, ``"value"``, ``"chip_earned"``, ``"chip_spent"``,
            ``"reward"`` or ``"bonus_star"`` (the Best Scoring Hand circle by the hand's bonus star on the
            grid, the one circle a player crosses for the bonus).
        owner: what it belongs to: a cell name (``"c3"``), a hand letter, or a chip index.
        key: which choice it is (``"Q"``, ``"D"``, ``"1"``, …).
        x, y, w, h: the box in mm (top-left corner and size).
    """

    kind: str
    owner: str
    key: str
    x: float
    y: float
    w: float
    h: float


@dataclass
class Scene:
    """One page: its size in mm, its primitives in drawing order, and its mark targets."""

    width: float
    height: float
    items: list[Primitive] = field(default_factory=list)
    marks: list[MarkTarget] = field(default_factory=list)
    title: str = ""
    notes: list[str] = field(default_factory=list)
    """Things the drawing had to change (a label cut to fit the page), for the user to see."""

    def add(self, *items: Primitive) -> None:
        """Append primitives (drawn after those already there)."""
        self.items.extend(items)

    def keep_text_inside(self, left: float, right: float) -> None:
        """Cut any unrotated text that would run past ``left``/``right`` (mm) and end it with '…'; note each cut."""
        for n, item in enumerate(self.items):
            if not isinstance(item, Text) or item.angle:
                continue
            width = text_width(item.text, item.size, item.weight)
            start = item.x - (width / 2 if item.anchor == "middle" else width if item.anchor == "end" else 0.0)
            if start >= left - 0.01 and start + width <= right + 0.01:
                continue
            room = (
                right - left
                if item.anchor == "middle"
                else (right - item.x if item.anchor == "start" else item.x - left)
            )
            text = item.text
            while text and text_width(text + "…", item.size, item.weight) > room:
                text = text[:-1]
            self.items[n] = Text(
                item.x if item.anchor != "middle" else (left + right) / 2,
                item.y,
                text + "…",
                item.size,
                item.weight,
                item.anchor,
                item.color,
            )
            self.notes.append(f"'{item.text[:30]}…' was too long for the page and was cut")

    def texts(self) -> list[str]:
        """All text strings of the page, in drawing order (for tests and search)."""
        return [i.text for i in self.items if isinstance(i, Text)]


# --- text measurement --------------------------------------------------------


def registered_font(weight: str, text: str = "") -> str:
    """The reportlab name of the face ``text`` is set in (DejaVu Sans of ``weight``, or a fallback face
    that covers ``text``: :func:`generator.printing.fonts.face_for`), registered with reportlab."""
    from generator.printing.fonts import face_for

    return face_for(text, weight).name


def text_width(text: str, size: float, weight: str = "regular") -> float:
    """Width in mm of ``text`` set at ``size`` points in the sheet font."""
    from reportlab.pdfbase import pdfmetrics

    return pdfmetrics.stringWidth(text, registered_font(weight, text), size) * PT


def cap_height(size: float) -> float:
    """Approximate height in mm of a capital letter at ``size`` points (DejaVu Sans: 0.73 em)."""
    return 0.73 * size * PT


def fit_size(text: str, size: float, max_width: float, weight: str = "regular", min_size: float = 1.0) -> float:
    """Largest font size ≤ ``size`` (points, not below ``min_size``) at which ``text`` fits ``max_width`` mm."""
    w = text_width(text, size, weight)
    if w <= max_width or w == 0:
        return size
    return max(min_size, size * max_width / w)


def circle_ops(cx: float, cy: float, r: float) -> tuple[PathOp, ...]:
    """Path operations of a circle drawn with four cubic Béziers (mm)."""
    k = 0.5522847498 * r
    return (
        ("M", cx + r, cy),
        ("C", cx + r, cy + k, cx + k, cy + r, cx, cy + r),
        ("C", cx - k, cy + r, cx - r, cy + k, cx - r, cy),
        ("C", cx - r, cy - k, cx - k, cy - r, cx, cy - r),
        ("C", cx + k, cy - r, cx + r, cy - k, cx + r, cy),
        ("Z",),
    )


def polygon_ops(points: list[tuple[float, float]]) -> tuple[PathOp, ...]:
    """Path operations of a closed polygon."""
    ops: list[PathOp] = [("M", *points[0])]
    ops += [("L", x, y) for x, y in points[1:]]
    ops.append(("Z",))
    return tuple(ops)


def star_points(cx: float, cy: float, r_out: float, r_in: float, n: int = 5) -> list[tuple[float, float]]:
    """Corners of an ``n``-pointed star centred at ``(cx, cy)``, one point straight up (mm)."""
    pts = []
    for k in range(2 * n):
        r = r_out if k % 2 == 0 else r_in
        a = -math.pi / 2 + k * math.pi / n
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def missing_glyphs(text: str, weight: str = "regular") -> list[str]:
    """Characters of ``text`` no sheet font can draw in one face (suit symbols excepted: they are drawn as shapes).

    See :func:`generator.printing.fonts.missing_glyphs`.
    """
    from generator.printing.fonts import missing_glyphs as missing

    return missing(text, weight)


def turned(items: Sequence[Primitive], cx: float, cy: float, quarters: int = 1) -> list[Primitive]:
    """``items`` turned ``quarters`` quarter turns clockwise (as seen on the page) about ``(cx, cy)`` (mm).

    One quarter takes a point ``(x, y)`` to ``(cx − (y − cy), cy + (x − cx))``;
    rectangles stay axis-aligned (width and height exchanged on odd turns);
    text turns with them.
    """

    def pt(x: float, y: float) -> tuple[float, float]:
        for _ in range(quarters % 4):
            x, y = cx - (y - cy), cy + (x - cx)
        return x, y

    out: list[Primitive] = []
    for item in items:
        if isinstance(item, Line):
            out.append(Line(*pt(item.x1, item.y1), *pt(item.x2, item.y2), item.paint))
        elif isinstance(item, Rect):
            (x1, y1), (x2, y2) = pt(item.x, item.y), pt(item.x + item.w, item.y + item.h)
            out.append(Rect(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1), item.paint, item.r))
        elif isinstance(item, Circle):
            out.append(Circle(*pt(item.cx, item.cy), item.r, item.paint))
        elif isinstance(item, Path_):
            ops = []
            for op in item.ops:
                name, *nums = op
                moved = [c for k in range(0, len(nums), 2) for c in pt(nums[k], nums[k + 1])]
                ops.append((name, *moved))
            out.append(Path_(tuple(ops), item.paint))
        else:
            x, y = pt(item.x, item.y)
            angle = (item.angle - 90.0 * quarters) % 360
            out.append(Text(x, y, item.text, item.size, item.weight, item.anchor, item.color, angle))
    return out
