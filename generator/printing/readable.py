"""The marks a machine reads on a printed sheet: fiducial markers and the sheet code.

Every sheet made to be read from a photo (All In sheets, Flip 7 tick pads) carries
ArUco markers (:mod:`generator.printing.aruco`) in its corners, and on All In sheets
also mid-edge where there is room: each paper size has its own block of marker ids,
so the markers alone tell the paper.  The sheet code, a QR square bottom right,
says ``SSM<format>:<ITEM-ID>[/<VARIANT>…]:<PAPER>:<HASH>``: the item id may carry its
variant after slashes (``FLIP7-TICK-PAD/200/15``: target, Flip 7 bonus), and the hash
covers every mark target, markers and code included (:func:`geometry_hash`), so a
sheet printed from another version of a layout is told apart.

Places are measured on the paper held *upright* (portrait).  A landscape sheet is a
portrait page turned a quarter turn clockwise (its top edge is the portrait page's
right edge): its markers and code are printed turned with it (:func:`add_machine_marks`),
so the photo reader finds them exactly as on a portrait sheet, whichever way the photo
is turned, and then maps its mark targets through :func:`portrait_of`.
"""

from __future__ import annotations

import hashlib
import re
import zlib
from dataclasses import dataclass
from functools import lru_cache

from generator.printing.aruco import MARKER_DICTIONARY
from generator.printing.paper import Paper
from generator.printing.scene import MarkTarget, Paint, Path_, Scene

# --- markers and the sheet code ----------------------------------------------------


SHEET_FORMAT = 1
"""Version of the machine-readable additions (markers, sheet code, mark geometry rules); in the sheet code."""


MARKER_SIZE = 12.0
"""Side of a marker in mm, black border included (6 cells of 2 mm)."""


MARKER_INSET = 10.0
"""Distance from the paper edge to the markers' outer side (mm)."""


MARKER_QUIET = 2.0
"""White kept around every marker (mm): nothing else is printed there."""


CODE_SIZE = 18.0
"""Side of the sheet code (QR) in mm, without its quiet zone."""


CODE_PREFIX = "SSM"
"""First characters of every sheet code: ``SSM<format>:<LAYOUT-ID>:<PAPER-ID>:<HASH>`` (upper case)."""


MARKER_SLOTS = ("tl", "tr", "br", "bl", "tm", "rm", "bm", "lm")
"""Marker places, in id order within a paper's block: the four corners (always printed), then
the middle of the top, right, bottom and left edges (printed where the sheet leaves room)."""


_PAPER_BLOCK = {"a4": 0, "letter": 1}


def marker_block(paper_id: str) -> int:
    """The first marker id of a paper size: each paper has its own block of 8 ids, so the
    markers alone tell the reader the paper (A4: 0–7, Letter: 8–15, other sizes 16–47)."""
    key = paper_id.lower()
    if key in _PAPER_BLOCK:
        return 8 * _PAPER_BLOCK[key]
    return 8 * (2 + zlib.crc32(key.encode("utf-8")) % 4)


def marker_boxes(paper: Paper) -> dict[int, tuple[str, float, float]]:
    """Every marker place of ``paper``: id → ``(slot, x, y)``, the top-left corner in mm.

    Each marker is ``MARKER_SIZE`` mm square; the corner slots are always printed,
    the mid-edge ones only where :func:`build_allin_sheet` finds room (see the
    scene's ``marker`` mark targets for the ones actually printed).
    """
    W, H, a, s = paper.width, paper.height, MARKER_INSET, MARKER_SIZE
    places = {
        "tl": (a, a),
        "tr": (W - a - s, a),
        "br": (W - a - s, H - a - s),
        "bl": (a, H - a - s),
        "tm": (W / 2 - s / 2, a),
        "rm": (W - a - s, H / 2 - s / 2),
        "bm": (W / 2 - s / 2, H - a - s),
        "lm": (a, H / 2 - s / 2),
    }
    base = marker_block(paper.id)
    return {base + i: (slot, *places[slot]) for i, slot in enumerate(MARKER_SLOTS)}


def code_box(paper: Paper) -> tuple[float, float, float]:
    """``(x, y, size)`` in mm of the sheet code: bottom right, left of the bottom-right marker."""
    x = paper.width - MARKER_INSET - MARKER_SIZE - 3.0 - CODE_SIZE
    return (x, paper.height - MARKER_INSET - CODE_SIZE, CODE_SIZE)


@lru_cache(maxsize=64)
def marker_cells(marker_id: int) -> tuple[tuple[bool, ...], ...]:
    """The 6 × 6 cells of ArUco marker ``marker_id`` of :data:`MARKER_DICTIONARY`, border included; True is black."""
    if MARKER_DICTIONARY == "DICT_4X4_50":  # a table: drawing a sheet never waits for OpenCV to load
        from generator.printing.aruco import marker_cells_4x4

        return marker_cells_4x4(marker_id)
    import cv2

    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_DICTIONARY))
    img = cv2.aruco.generateImageMarker(dictionary, marker_id, 6, borderBits=1)
    return tuple(tuple(bool(v < 128) for v in row) for row in img)


def geometry_hash(scene: Scene) -> str:
    """A short hash (6 hex digits, upper case) of every mark target's kind, owner, key and box (to 0.01 mm).

    Printed in the sheet code; the reader recomputes it from the scene it draws for
    the layout named there, so a sheet printed from another version of a layout is refused.
    """
    h = hashlib.sha256(f"{SHEET_FORMAT}".encode())
    for t in scene.marks:
        h.update(f"|{t.kind}:{t.owner}:{t.key}:{t.x:.2f}:{t.y:.2f}:{t.w:.2f}:{t.h:.2f}".encode("utf-8"))
    return h.hexdigest()[:6].upper()


@dataclass(frozen=True)
class SheetCode:
    """What a sheet code says: format version, layout id, paper id and geometry hash."""

    format: int
    layout_id: str
    paper_id: str
    digest: str

    def text(self) -> str:
        """The code's text, as printed: ``SSM1:Q-DIAMONDS:A4:3F9C2A``."""
        return f"{CODE_PREFIX}{self.format}:{self.layout_id}:{self.paper_id}:{self.digest}".upper()

    @classmethod
    def parse(cls, text: str) -> "SheetCode | None":
        """Read a code's text; ``None`` when it is not a sheetsmith sheet code. Ids come back in lower case."""
        m = re.fullmatch(rf"{CODE_PREFIX}([0-9]{{1,6}}):([^:]+):([^:]+):([0-9A-Fa-f]+)", text.strip())
        if not m:
            return None
        return cls(int(m.group(1)), m.group(2).lower(), m.group(3).lower(), m.group(4).upper())


@lru_cache(maxsize=64)
def code_matrix(text: str) -> tuple[tuple[bool, ...], ...]:
    """The QR modules of a sheet code's text (error correction M, smallest version), row by row; True is black."""
    import segno

    qr = segno.make(text, error="m", boost_error=False, micro=False)
    return tuple(tuple(bool(v) for v in row) for row in qr.matrix)


def squares_ops(squares: list[tuple[float, float, float]]) -> tuple:
    """One path of many squares ``(x, y, side)`` in mm, all wound the same way: filled as one shape, without seams.

    Squares that follow one another in the list and touch along a whole side (a run of black
    modules in a row of a marker or QR code, or in a column once the page is turned) are drawn
    as one rectangle: the same area, a quarter of the path's points.
    """
    rects: list[list[float]] = []  # x, y, w, h
    for x, y, s in squares:
        if rects:
            last = rects[-1]
            along_row = abs(last[1] - y) < 1e-9 and abs(last[3] - s) < 1e-9 and abs(last[0] + last[2] - x) < 1e-9
            along_col = abs(last[0] - x) < 1e-9 and abs(last[2] - s) < 1e-9 and abs(last[1] + last[3] - y) < 1e-9
            if along_row and last[2] >= last[3] - 1e-9:  # a square or a row's run grows to the right
                last[2] += s
                continue
            if along_col and last[3] >= last[2] - 1e-9:  # a square or a column's run grows downwards
                last[3] += s
                continue
        rects.append([x, y, s, s])
    ops: list = []
    for x, y, w, h in rects:
        ops += [("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",)]
    return tuple(ops)


# --- any sheet made to be read ----------------------------------------------------

KEEP_CLEAR = MARKER_INSET + MARKER_SIZE + MARKER_QUIET
"""How far (mm) from a paper edge the corners are reserved for the markers: content stays out of those squares."""


def is_turned(paper: Paper, scene: Scene) -> bool:
    """True when ``scene`` is ``paper`` turned to landscape (wider than tall while the paper is portrait)."""
    return (
        abs(scene.width - paper.height) < 0.01
        and abs(scene.height - paper.width) < 0.01
        and paper.width != paper.height
    )


def portrait_of(paper: Paper, turned: bool, x: float, y: float) -> tuple[float, float]:
    """The point ``(x, y)`` mm of the scene in the upright paper's frame (the markers' frame)."""
    return (paper.width - y, x) if turned else (x, y)


def scene_box(paper: Paper, turned: bool, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    """A box ``(x, y, w, h)`` mm of the upright paper's frame as a box of the scene (a quarter turn back when
    turned)."""
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
    record them as mark targets (kinds ``marker`` and ``code``), as an All In sheet
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
        scene.add(Path_(squares_ops(squares), Paint(None, "#000000")))
        scene.marks.append(
            MarkTarget("marker", slot, str(marker_id), *scene_box(paper, turned, x, y, MARKER_SIZE, MARKER_SIZE))
        )
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
    scene.add(Path_(squares_ops(squares), Paint(None, "#000000")))
    return code
