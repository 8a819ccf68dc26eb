"""Corner markers and the sheet code on any sheet made to be read from a photo (not only All In sheets).

A sheet kind that asks for them (the Flip 7 tick pad) calls :func:`add_machine_marks`
after drawing its own content.  The markers and the code are those of an All In sheet
on the same paper (:mod:`generator.games.allin.sheet`): the same ArUco ids per paper, the
same places, the same QR square bottom right — measured on the paper held *upright*
(portrait).  A landscape sheet is a portrait page turned a quarter turn clockwise
(its top edge is the portrait page's right edge): its markers and code are printed
turned with it, so the photo reader finds them exactly as on a portrait sheet,
whichever way the photo is turned, and then maps its mark targets through
:func:`portrait_of`.

The code's text is ``SSM<format>:<ITEM-ID>[/<VARIANT>…]:<PAPER>:<HASH>``: the item id
may carry its variant after slashes (``FLIP7-TICK-PAD/200/15``: target, Flip 7 bonus),
and the hash covers every mark target, markers and code included
(:func:`generator.games.allin.sheet.geometry_hash`).
"""

from __future__ import annotations

from generator.printing.paper import Paper
from generator.printing.scene import MarkTarget, Paint, Path_, Scene
from generator.games.allin.sheet import (
    MARKER_INSET,
    MARKER_QUIET,
    MARKER_SIZE,
    SHEET_FORMAT,
    SheetCode,
    _squares_ops,
    code_box,
    code_matrix,
    geometry_hash,
    marker_boxes,
    marker_cells,
)

KEEP_CLEAR = MARKER_INSET + MARKER_SIZE + MARKER_QUIET
"""How far (mm) from a paper edge the corners are reserved for the markers: content stays out of those squares."""


def is_turned(paper: Paper, scene: Scene) -> bool:
    """True when ``scene`` is ``paper`` turned to landscape (wider than tall while the paper is portrait)."""
    return abs(scene.width - paper.height) < 0.01 and abs(scene.height - paper.width) < 0.01 and paper.width != paper.height


def portrait_of(paper: Paper, turned: bool, x: float, y: float) -> tuple[float, float]:
    """The point ``(x, y)`` mm of the scene in the upright paper's frame (the markers' frame)."""
    return (paper.width - y, x) if turned else (x, y)


def scene_box(paper: Paper, turned: bool, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    """A box ``(x, y, w, h)`` mm of the upright paper's frame as a box of the scene (a quarter turn back when turned)."""
    if not turned:
        return (x, y, w, h)
    return (y, paper.width - x - w, h, w)


def reserved_boxes(paper: Paper, turned: bool) -> list[tuple[float, float, float, float]]:
    """The scene boxes ``(x0, y0, x1, y1)`` mm the corner markers and the code take, quiet zones included."""
    out = []
    q = MARKER_QUIET
    for _, (slot, x, y) in marker_boxes(paper).items():
        if slot in ("tl", "tr", "br", "bl"):
            bx, by, bw, bh = scene_box(paper, turned, x - q, y - q, MARKER_SIZE + 2 * q, MARKER_SIZE + 2 * q)
            out.append((bx, by, bx + bw, by + bh))
    cx, cy, cs = code_box(paper)
    bx, by, bw, bh = scene_box(paper, turned, cx - q, cy - q, cs + 2 * q, cs + 2 * q)
    out.append((bx, by, bx + bw, by + bh))
    return out


def code_text(item_id: str, variant: tuple = ()) -> str:
    """The item part of a sheet code: the id, then each variant value after a slash (``flip7-tick-pad/200/15``)."""
    return "/".join([item_id, *(str(v) for v in variant)])


def split_code_id(layout_id: str) -> tuple[str, tuple[str, ...]]:
    """``flip7-tick-pad/200/15`` → ``("flip7-tick-pad", ("200", "15"))``."""
    parts = layout_id.split("/")
    return parts[0], tuple(parts[1:])


def add_machine_marks(scene: Scene, item_id: str, paper: Paper, variant: tuple = ()) -> SheetCode:
    """Print the four corner markers and the sheet code on ``scene`` (``paper``, upright or turned) and
    record them as mark targets (kinds ``marker`` and ``code``), as :func:`generator.games.allin.sheet.build_allin_sheet`
    does; return the code printed.  Call it last: the code's hash covers every mark target drawn before.

    Raises:
        ValueError: ``scene`` is neither ``paper`` upright nor turned.
    """
    turned = is_turned(paper, scene)
    if not turned and (abs(scene.width - paper.width) > 0.01 or abs(scene.height - paper.height) > 0.01):
        raise ValueError(f"a {scene.width} × {scene.height} mm scene is not {paper.label}")
    for marker_id, (slot, x, y) in marker_boxes(paper).items():
        if slot not in ("tl", "tr", "br", "bl"):
            continue
        cell = MARKER_SIZE / 6
        cells = marker_cells(marker_id)
        squares = []
        for r in range(6):
            for c in range(6):
                if cells[r][c]:
                    bx, by, bw, _ = scene_box(paper, turned, x + c * cell, y + r * cell, cell, cell)
                    squares.append((bx, by, bw))
        scene.add(Path_(_squares_ops(squares), Paint(None, "#000000")))
        scene.marks.append(MarkTarget("marker", slot, str(marker_id), *scene_box(paper, turned, x, y, MARKER_SIZE, MARKER_SIZE)))
    cx, cy, cs = code_box(paper)
    scene.marks.append(MarkTarget("code", "sheet", "", *scene_box(paper, turned, cx, cy, cs, cs)))
    code = SheetCode(SHEET_FORMAT, code_text(item_id, variant), paper.id, geometry_hash(scene))
    matrix = code_matrix(code.text())
    module = cs / len(matrix)
    squares = []
    for r, row in enumerate(matrix):
        for c, v in enumerate(row):
            if v:
                bx, by, bw, _ = scene_box(paper, turned, cx + c * module, cy + r * module, module, module)
                squares.append((bx, by, bw))
    scene.add(Path_(_squares_ops(squares), Paint(None, "#000000")))
    return code
