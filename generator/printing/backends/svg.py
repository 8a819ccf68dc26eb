"""SVG backend (svgwrite): one page, user units in millimetres, the sheet fonts embedded as data."""

from __future__ import annotations

import base64

import svgwrite

from generator.printing.fonts import face_for, subset_ttf
from generator.printing.scene import PT, Circle, Line, Path_, Rect, Scene, Text

_ANCHOR = {"start": "start", "middle": "middle", "end": "end"}

FAMILY = "sheetsmith"
"""Prefix of the embedded font families: ``sheetsmith-DejaVuSans``, ``sheetsmith-DejaVuSans-Bold``, … one per
face used, each a subset holding only the characters the page sets in it.  Renderers that ignore embedded
fonts fall back to DejaVu Sans or Bitstream Vera Sans (same metrics)."""


def _family(face, weight: str) -> str:
    return f"{FAMILY}-{face.name}-{weight}"


def _font_faces(used: dict) -> str:
    """One ``@font-face`` rule per face and weight used, its TrueType subset embedded as data.

    The rule declares the weight and style the texts ask for, so no renderer
    makes a bold face bolder or slants an oblique one again.
    """
    faces = []
    for (face, weight), chars in sorted(used.items(), key=lambda kv: (kv[0][0].name, kv[0][1])):
        data = base64.b64encode(subset_ttf(face.path, face.index, frozenset(chars))).decode("ascii")
        css_weight = "bold" if weight == "bold" else "normal"
        css_style = "italic" if weight == "italic" else "normal"
        faces.append(
            "@font-face "
            f"{{ font-family: '{_family(face, weight)}'; font-weight: {css_weight}; font-style: {css_style}; "
            f"src: url(data:font/ttf;base64,{data}) format('truetype'); }}"
        )
    return "\n".join(faces)


def _fmt(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".")


def render_svg(scene: Scene) -> bytes:
    """Draw one scene as an SVG document (width and height in mm) and return its UTF-8 bytes."""
    dwg = svgwrite.Drawing(
        size=(f"{_fmt(scene.width)}mm", f"{_fmt(scene.height)}mm"),
        viewBox=f"0 0 {_fmt(scene.width)} {_fmt(scene.height)}",
        profile="full",
        debug=False,
    )
    if scene.title:
        dwg.set_desc(title=scene.title)
    used: dict = {}
    for item in scene.items:
        if isinstance(item, Text):
            used.setdefault((face_for(item.text, item.weight), item.weight), set()).update(item.text)
    # Text runs may start or end with a space (a suit drawn beside "7 " in the scoring aid): keep every space,
    # as the PDF does; SVG collapses and trims white space unless told not to.  No kerning either: the PDF
    # sets glyphs at their plain advance widths, and text was fitted to its box with those.
    dwg.attribs["xml:space"] = "preserve"
    dwg.embed_stylesheet((_font_faces(used) + "\n" if used else "") + "text { white-space: pre; font-kerning: none; }")
    dwg.add(dwg.rect((0, 0), (scene.width, scene.height), fill="#ffffff"))
    for item in scene.items:
        if isinstance(item, Text):
            face = face_for(item.text, item.weight)
            attrs = dict(
                insert=(_fmt(item.x), _fmt(item.y)),
                font_family=f"'{_family(face, item.weight)}', 'DejaVu Sans', 'Bitstream Vera Sans', sans-serif",
                font_weight="bold" if item.weight == "bold" else "normal",
                font_style="italic" if item.weight == "italic" else "normal",
                font_size=_fmt(item.size * PT),
                fill=item.color,
                text_anchor=_ANCHOR[item.anchor],
            )
            el = dwg.text(item.text, **attrs)
            if item.angle:
                el["transform"] = f"rotate({_fmt(-item.angle)} {_fmt(item.x)} {_fmt(item.y)})"
            dwg.add(el)
            continue
        paint = item.paint
        style = dict(
            stroke=paint.stroke or "none",
            fill=paint.fill or "none",
            stroke_width=_fmt(paint.width) if paint.stroke else "0",
        )
        if paint.dash:
            style["stroke_dasharray"] = ",".join(_fmt(d) for d in paint.dash)
        if isinstance(item, Line):
            dwg.add(dwg.line((_fmt(item.x1), _fmt(item.y1)), (_fmt(item.x2), _fmt(item.y2)), **style))
        elif isinstance(item, Rect):
            extra = {"rx": _fmt(item.r), "ry": _fmt(item.r)} if item.r else {}
            dwg.add(dwg.rect((_fmt(item.x), _fmt(item.y)), (_fmt(item.w), _fmt(item.h)), **style, **extra))
        elif isinstance(item, Circle):
            dwg.add(dwg.circle((_fmt(item.cx), _fmt(item.cy)), _fmt(item.r), **style))
        elif isinstance(item, Path_):
            d = " ".join(op[0] + " " + " ".join(_fmt(v) for v in op[1:]) if len(op) > 1 else op[0] for op in item.ops)
            dwg.add(dwg.path(d=d, fill_rule="nonzero", **style))
    return dwg.tostring().encode("utf-8")
