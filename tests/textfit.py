"""Does every text of a scene stay in its box?  Geometry worked out from the scene's primitives alone.

A text's box is its advance width (the font's metrics) by its cap height above
the baseline (DejaVu/Vera capitals: 0.73 em) plus a small descent below.  A
text *leaves its box* when it:

* straddles the edge of a rectangle or circle (partly inside, partly out: a label
  running out of its cell, a legend icon under a caption);
* is crossed by a line (a table's column rule through a header, a link through a label);
* overlaps another text (two labels run into each other);
* covers a printed machine mark (corner marker, sheet code);
* runs past the page's margins, or, on a page of cards, out of its card's safe area.

Suit symbols are drawn as paths between text runs and are not texts; paths other
than machine marks are not checked.
"""

from __future__ import annotations

import numpy as np

from generator.printing.scene import PT, Circle, Line, Rect, Scene, Text, missing_glyphs, text_width

CAP = 0.73
DESCENT = 0.12
EDGE = 2.0
"""mm from the top and bottom paper edges that no text enters (footers sit in the bottom margin)."""
TOL = 0.15
"""mm a text may touch an edge or a neighbour without counting as leaving its box."""


def text_box(t: Text) -> tuple[float, float, float, float]:
    """``(x0, y0, x1, y1)`` in mm of an unrotated text: advance width by cap height, a little descent."""
    w = text_width(t.text, t.size, t.weight)
    x0 = t.x - (w / 2 if t.anchor == "middle" else w if t.anchor == "end" else 0.0)
    return (x0, t.y - CAP * t.size * PT, x0 + w, t.y + DESCENT * t.size * PT)


def _inner(b, tol=TOL):
    return (b[0] + tol, b[1] + tol, b[2] - tol, b[3] - tol)


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(a, b) -> bool:
    return b[0] <= a[0] and a[2] <= b[2] and b[1] <= a[1] and a[3] <= b[3]


def _crosses(seg: Line, box) -> bool:
    """True when the segment passes through the interior of ``box`` (Liang–Barsky clipping)."""
    x0, y0, x1, y1 = box
    dx, dy = seg.x2 - seg.x1, seg.y2 - seg.y1
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, seg.x1 - x0), (dx, x1 - seg.x1), (-dy, seg.y1 - y0), (dy, y1 - seg.y1)):
        if p == 0:
            if q <= 0:
                return False
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 >= t1:
            return False
    return True


def fit_problems(
    scene: Scene, *, margin: float, cards: list[tuple[float, float, float, float]] = (), safe: float = 0.0
) -> list[str]:
    """Every text of ``scene`` that leaves its box (see the module docstring), and every missing glyph.

    Args:
        margin: mm from the left and right page edges that no text may enter (top and bottom: :data:`EDGE`).
        cards: trim boxes ``(x, y, w, h)`` of a page of cards; a text whose anchor lies in a
            card must stay ``safe`` mm inside its trim.
    """
    out: list[str] = []
    texts = [t for t in scene.items if isinstance(t, Text) and t.text.strip()]
    for t in texts:
        for weight in (t.weight,):
            lacking = missing_glyphs(t.text, weight)
            if lacking:
                out.append(f"{t.text[:40]!r}: no glyph for {' '.join(lacking)}")
    order = {id(item): n for n, item in enumerate(scene.items)}
    flat = [t for t in texts if not t.angle]
    boxes = [(t, _inner(text_box(t))) for t in flat]
    page = (margin, EDGE, scene.width - margin, scene.height - EDGE)
    shapes = [i for i in scene.items if isinstance(i, (Rect, Circle))]
    F = np.array(
        [
            (i.x, i.y, i.x + i.w, i.y + i.h)
            if isinstance(i, Rect)
            else (i.cx - i.r, i.cy - i.r, i.cx + i.r, i.cy + i.r)
            for i in shapes
        ]
        or np.zeros((0, 4)),
        dtype=float,
    ).reshape(-1, 4)
    F_order = np.array([order[id(i)] for i in shapes], dtype=int)
    F_opaque = np.array([bool(i.paint.fill) for i in shapes], dtype=bool)
    lines = [i for i in scene.items if isinstance(i, Line)]
    L = np.array([(i.x1, i.y1, i.x2, i.y2) for i in lines] or np.zeros((0, 4)), dtype=float).reshape(-1, 4)
    L_box = np.column_stack(
        [
            np.minimum(L[:, 0], L[:, 2]),
            np.minimum(L[:, 1], L[:, 3]),
            np.maximum(L[:, 0], L[:, 2]),
            np.maximum(L[:, 1], L[:, 3]),
        ]
    )
    L_order = np.array([order[id(i)] for i in lines], dtype=int)
    machine = [(m.x, m.y, m.x + m.w, m.y + m.h) for m in scene.marks if m.kind in ("marker", "code")]
    for t, b in boxes:
        name = repr(t.text[:40])
        here = order[id(t)]
        overlap = (F[:, 0] < b[2]) & (b[0] < F[:, 2]) & (F[:, 1] < b[3]) & (b[1] < F[:, 3])
        holds = (F[:, 0] <= b[0]) & (b[2] <= F[:, 2]) & (F[:, 1] <= b[1]) & (b[3] <= F[:, 3])
        held = (b[0] <= F[:, 0]) & (F[:, 2] <= b[2]) & (b[1] <= F[:, 1]) & (F[:, 3] <= b[3])
        # what an opaque shape under the text covers is not seen: only shapes drawn after it count
        covers = holds & F_opaque & (F_order < here)
        under = int(F_order[covers].max()) if covers.any() else -1
        if not _inside(b, page):
            out.append(f"{name} runs past the page margin")
        for x, y, w, h in cards:
            if (
                x <= t.x <= x + w
                and y <= t.y <= y + h
                and not _inside(b, (x + safe, y + safe, x + w - safe, y + h - safe))
            ):
                out.append(f"{name} leaves its card's safe area")
        for k in np.nonzero(overlap & ~holds & ~held & (F_order >= under))[0]:
            f = F[k]
            out.append(f"{name} straddles the edge of {type(shapes[k]).__name__} at ({f[0]:.1f}, {f[1]:.1f})")
        near = (
            (L_box[:, 0] <= b[2])
            & (b[0] <= L_box[:, 2])
            & (L_box[:, 1] <= b[3])
            & (b[1] <= L_box[:, 3])
            & (L_order > under)
        )
        for k in np.nonzero(near)[0]:
            seg = lines[k]
            if _crosses(seg, b):
                out.append(
                    f"{name} is crossed by a line from ({seg.x1:.1f}, {seg.y1:.1f}) to ({seg.x2:.1f}, {seg.y2:.1f})"
                )
        for mark in machine:
            if _overlap(b, mark):
                out.append(f"{name} covers a machine mark")
    T = np.array([b for _, b in boxes] or np.zeros((0, 4)), dtype=float).reshape(-1, 4)
    for i, (t, a) in enumerate(boxes):
        hit = (T[i + 1 :, 0] < a[2]) & (a[0] < T[i + 1 :, 2]) & (T[i + 1 :, 1] < a[3]) & (a[1] < T[i + 1 :, 3])
        for k in np.nonzero(hit)[0]:
            out.append(f"{t.text[:40]!r} overlaps {boxes[i + 1 + k][0].text[:40]!r}")
    out += [f"note: {n}" for n in scene.notes]
    return list(dict.fromkeys(out))
