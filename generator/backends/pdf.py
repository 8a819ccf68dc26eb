"""PDF backend (reportlab): vector output, TrueType fonts embedded, page size exact in points."""

from __future__ import annotations

import io
from typing import Sequence

from reportlab.lib.colors import HexColor
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.pdfgen.canvas import FILL_NON_ZERO

from ..scene import PT, Circle, Line, Path_, Rect, Scene, Text, registered_font

MM = 72 / 25.4
"""Points per millimetre."""


def render_pdf(pages: Sequence[Scene], *, title: str = "") -> bytes:
    """Draw ``pages`` into one PDF document and return its bytes.

    Each scene's size becomes its page size (mm → pt).  Text uses the embedded
    DejaVu Sans (or a fallback face for scripts it lacks); shapes are vector paths.
    """
    buf = io.BytesIO()
    # The initial font is ours too, so no unembedded Helvetica is ever declared.
    c = rl_canvas.Canvas(buf, pageCompression=1, invariant=1, initialFontName=registered_font("regular"), initialFontSize=8)
    c.setTitle(title or (pages[0].title if pages else ""))
    c.setCreator("sheetsmith")
    for scene in pages:
        c.setPageSize((scene.width * MM, scene.height * MM))
        _draw(c, scene)
        c.showPage()
    c.save()
    return buf.getvalue()


def _draw(c: rl_canvas.Canvas, scene: Scene) -> None:
    H = scene.height

    def X(x: float) -> float:
        return x * MM

    def Y(y: float) -> float:
        return (H - y) * MM

    for item in scene.items:
        if isinstance(item, Text):
            c.setFillColor(HexColor(item.color))
            c.setFont(registered_font(item.weight, item.text), item.size)
            c.saveState()
            c.translate(X(item.x), Y(item.y))
            if item.angle:
                c.rotate(item.angle)
            draw = {"start": c.drawString, "middle": c.drawCentredString, "end": c.drawRightString}[item.anchor]
            draw(0, 0, item.text)
            c.restoreState()
            continue
        paint = item.paint
        stroke = paint.stroke is not None
        fill = paint.fill is not None
        if stroke:
            c.setStrokeColor(HexColor(paint.stroke))
            c.setLineWidth(paint.width * MM)
            c.setDash([d * MM for d in paint.dash] if paint.dash else [])
        if fill:
            c.setFillColor(HexColor(paint.fill))
        if isinstance(item, Line):
            c.line(X(item.x1), Y(item.y1), X(item.x2), Y(item.y2))
        elif isinstance(item, Rect):
            if item.r > 0:
                c.roundRect(X(item.x), Y(item.y + item.h), item.w * MM, item.h * MM, item.r * MM, stroke=int(stroke), fill=int(fill))
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
        if stroke and paint.dash:
            c.setDash([])


__all__ = ["render_pdf", "MM", "PT"]
