"""PDF backend (reportlab): vector output, TrueType fonts embedded, page size exact in points."""

from __future__ import annotations

import io
from typing import Sequence

from reportlab.lib.colors import HexColor
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.pdfgen.canvas import FILL_NON_ZERO

from generator.printing.scene import PT, Circle, Line, Path_, Rect, Scene, Text, registered_font

MM = 72 / 25.4
"""Points per millimetre."""


def render_pdf(pages: Sequence[Scene], *, title: str = "") -> bytes:
    """Draw ``pages`` into one PDF document and return its bytes.

    Each scene's size becomes its page size (mm → pt).  Text uses the embedded
    DejaVu Sans (or a fallback face for scripts it lacks); shapes are vector paths.
    """
    buf = io.BytesIO()
    # The initial font is ours too, so no unembedded Helvetica is ever declared.
    c = rl_canvas.Canvas(
        buf, pageCompression=1, invariant=1, initialFontName=registered_font("regular"), initialFontSize=8
    )
    c.setTitle(title or (pages[0].title if pages else ""))
    c.setCreator("sheetsmith")
    for scene in pages:
        c.setPageSize((scene.width * MM, scene.height * MM))
        _draw(c, scene)
        c.showPage()
    c.save()
    return buf.getvalue()


def _draw(c: rl_canvas.Canvas, scene: Scene) -> None:
    """Draw one scene on the current page, setting a colour, line width, dash or font only when it changes.

    Scenes hold hundreds of items in a few colours; writing each state operator once per change
    instead of once per item keeps the content stream (and the time to write it) small.
    """
    H = scene.height

    def X(x: float) -> float:
        return x * MM

    def Y(y: float) -> float:
        return (H - y) * MM

    colors: dict[str, HexColor] = {}

    def color(hex_code: str):
        found = colors.get(hex_code)
        if found is None:
            found = colors[hex_code] = HexColor(hex_code)
        return found

    # What the page's graphics state holds now (None: not set by us yet); text drawn rotated
    # changes it only inside saveState/restoreState, so it stays true afterwards.
    fill_now: str | None = None
    stroke_now: str | None = None
    width_now: float | None = None
    dash_now: tuple[float, ...] = ()
    font_now: tuple[str, float] | None = None
    draw_at = {"start": "drawString", "middle": "drawCentredString", "end": "drawRightString"}
    for item in scene.items:
        if isinstance(item, Text):
            face = registered_font(item.weight, item.text)
            draw = getattr(c, draw_at[item.anchor])
            if item.angle:
                c.saveState()
                c.setFillColor(color(item.color))
                c.setFont(face, item.size)
                c.translate(X(item.x), Y(item.y))
                c.rotate(item.angle)
                draw(0, 0, item.text)
                c.restoreState()
                continue
            if item.color != fill_now:
                c.setFillColor(color(item.color))
                fill_now = item.color
            if (face, item.size) != font_now:
                c.setFont(face, item.size)
                font_now = (face, item.size)
            draw(X(item.x), Y(item.y), item.text)
            continue
        paint = item.paint
        stroke = paint.stroke is not None
        fill = paint.fill is not None
        if paint.stroke is not None:
            if paint.stroke != stroke_now:
                c.setStrokeColor(color(paint.stroke))
                stroke_now = paint.stroke
            if paint.width != width_now:
                c.setLineWidth(paint.width * MM)
                width_now = paint.width
            dash = tuple(paint.dash) if paint.dash else ()
            if dash != dash_now:
                c.setDash([d * MM for d in dash] if dash else [])
                dash_now = dash
        if paint.fill is not None and paint.fill != fill_now:
            c.setFillColor(color(paint.fill))
            fill_now = paint.fill
        if isinstance(item, Line):
            c.line(X(item.x1), Y(item.y1), X(item.x2), Y(item.y2))
        elif isinstance(item, Rect):
            if item.r > 0:
                c.roundRect(
                    X(item.x),
                    Y(item.y + item.h),
                    item.w * MM,
                    item.h * MM,
                    item.r * MM,
                    stroke=int(stroke),
                    fill=int(fill),
                )
            else:
                c.rect(X(item.x), Y(item.y + item.h), item.w * MM, item.h * MM, stroke=int(stroke), fill=int(fill))
        elif isinstance(item, Circle):
            c.circle(X(item.cx), Y(item.cy), item.r * MM, stroke=int(stroke), fill=int(fill))
        elif isinstance(item, Path_):
            p = c.beginPath()
            for op in item.ops:
                name, *v = op
                if name == "M":
                    p.moveTo(X(v[0]), Y(v[1]))
                elif name == "L":
                    p.lineTo(X(v[0]), Y(v[1]))
                elif name == "C":
                    p.curveTo(X(v[0]), Y(v[1]), X(v[2]), Y(v[3]), X(v[4]), Y(v[5]))
                elif name == "Z":
                    p.close()
            c.drawPath(p, stroke=int(stroke), fill=int(fill), fillMode=FILL_NON_ZERO)


__all__ = ["render_pdf", "MM", "PT"]
