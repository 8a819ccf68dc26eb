"""Imposition for print and play: cards on pages, bleed, crop marks, duplex backs, scale check, manifest.

Page layout, for ``cols × rows`` cards of trim size ``w × h`` on a page ``W × H``
(all millimetres):

* the block of cards is centred; every trim box stays at least
  :data:`MIN_MARGIN` from the paper edge;
* cards are separated by a gutter of up to twice the bleed, so each card's
  art runs into its own bleed without touching its neighbour's; when the
  paper is too small for that, the gutter shrinks and the bleed with it (the
  manifest records the bleed actually used);
* crop marks are short lines in the margins, in line with every trim edge,
  outside the block of cards only;
* for duplex printing each fronts page is followed by a backs page, each back
  at the mirror position of its front for a long-edge flip (x → W − x − w),
  moved by the back offset (a printer that shifts the second side);
* every page carries a scale check: a 50 mm bar and a 2 in bar.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from generator.printing.paper import Paper
from generator.printing.scene import Line, Paint, Scene, Text, fit_size


@dataclass(frozen=True)
class PrintOptions:
    """Print-and-play options for decks (ignored by sheets).

    Attributes:
        bleed: art beyond the trim on every side (mm); less is used when the paper is too small.
        backs: add a mirrored backs page after each fronts page (long-edge duplex).
        back_offset: ``(dx, dy)`` mm added to every back's position, for printers that shift the second side.
        card_size: overrides the deck's ``card_size`` (``poker``, ``poker-in``, ``bridge``).
    """

    bleed: float = 3.0
    backs: bool = True
    back_offset: tuple[float, float] = (0.0, 0.0)
    card_size: str | None = None


MIN_MARGIN = 5.0
"""Closest a card's trim box comes to the paper edge (mm): most home printers cannot print nearer."""
MARK_GAP = 1.0
"""Space between the bleed edge of the block and the start of a crop mark (mm)."""
MARK_LEN = 2.5
"""Shortest crop mark (mm); marks grow to 4 mm where the margin allows."""
EDGE = 1.5
"""Closest a crop mark comes to the paper edge (mm)."""
BAR_BAND = 3.5
"""Extra margin (mm) kept on one side for the scale bars, so they print at least 5 mm from the edge."""
BAR_INSET = 6.0
"""Distance of the scale bars from the paper edge (mm)."""
MARK_INK = "#000000"


class ImpositionError(ValueError):
    """The cards do not fit the paper (the message gives the sizes)."""


@dataclass(frozen=True)
class Grid:
    """Where the cards of one page go.

    Attributes:
        cols, rows: cards across and down.
        x0, y0: top-left trim corner of the first card (mm).
        w, h: trim size (mm).
        gx, gy: gutters between cards (mm).
        bleed_x, bleed_y: bleed used left and right, top and bottom of every card (mm).
    """

    cols: int
    rows: int
    x0: float
    y0: float
    w: float
    h: float
    gx: float
    gy: float
    bleed_x: float
    bleed_y: float
    bars: str = "bottom"

    @property
    def bleed(self) -> tuple[float, float]:
        """``(bleed_x, bleed_y)`` in mm."""
        return (self.bleed_x, self.bleed_y)

    def trim(self, i: int) -> tuple[float, float, float, float]:
        """Trim box ``(x, y, w, h)`` of the ``i``-th slot (row by row)."""
        c, r = i % self.cols, i // self.cols
        return (self.x0 + c * (self.w + self.gx), self.y0 + r * (self.h + self.gy), self.w, self.h)

    @property
    def per_page(self) -> int:
        """Slots on one page."""
        return self.cols * self.rows


def plan_grid(paper: Paper, w: float, h: float, *, cols: int, rows: int, bleed: float) -> Grid:
    """Place ``cols × rows`` cards of ``w × h`` on ``paper`` with the largest bleed up to ``bleed``.

    Along each axis the paper must hold the cards, a gutter of twice the bleed
    between neighbours, the bleed outside the outer cards, and room for crop
    marks (:data:`MARK_GAP` + :data:`MARK_LEN` + :data:`EDGE`) on both sides:
    ``n·card + 2n·bleed + 2·(gap + mark + edge) ≤ paper``.  The bleed is cut
    down per axis until that holds.

    Raises:
        ImpositionError: the cards do not fit even without bleed, or closer than
            :data:`MIN_MARGIN` to the edge.
    """
    marks = 2 * (MARK_GAP + MARK_LEN + EDGE)

    def axis(length: float, card: float, n: int, extra: float = 0.0) -> float:
        spare = length - n * card - marks - extra
        if spare < 0 or length - n * card < 2 * MIN_MARGIN:
            raise ImpositionError(
                f"{cols}×{rows} cards of {w:g}×{h:g} mm do not fit on {paper.label} "
                f"({paper.width:g}×{paper.height:g} mm) with margins for crop marks"
            )
        return round(min(bleed, spare / (2 * n)), 2)

    # The scale bars need BAR_BAND more on one side: below the cards if that
    # costs little bleed, else on the left.
    bars = "bottom"
    try:
        by = axis(paper.height, h, rows, BAR_BAND)
        bx = axis(paper.width, w, cols)
        if by < min(bleed, 1.0):
            raise ImpositionError("")
    except ImpositionError:
        bars = "left"
        by = axis(paper.height, h, rows)
        bx = axis(paper.width, w, cols, BAR_BAND)
    gx, gy = 2 * bx, 2 * by
    bw, bh = cols * w + (cols - 1) * gx, rows * h + (rows - 1) * gy
    if bars == "bottom":
        x0, y0 = (paper.width - bw) / 2, (paper.height - BAR_BAND - bh) / 2
    else:
        x0, y0 = BAR_BAND + (paper.width - BAR_BAND - bw) / 2, (paper.height - bh) / 2
    return Grid(cols, rows, x0, y0, w, h, gx, gy, bx, by, bars)


def crop_marks(scene: Scene, grid: Grid, count: int, paper: Paper) -> None:
    """Crop marks in the margins, in line with every trim edge of the cards placed (outside the cards only)."""
    rows_used = (count + grid.cols - 1) // grid.cols
    cols_used = min(count, grid.cols)
    xs = sorted({round(v, 3) for i in range(cols_used) for v in (grid.trim(i)[0], grid.trim(i)[0] + grid.w)})
    ys = sorted(
        {
            round(v, 3)
            for r in range(rows_used)
            for v in (grid.trim(r * grid.cols)[1], grid.trim(r * grid.cols)[1] + grid.h)
        }
    )
    top = grid.y0 - grid.bleed_y - MARK_GAP
    bottom = grid.y0 + rows_used * grid.h + (rows_used - 1) * grid.gy + grid.bleed_y + MARK_GAP
    left = grid.x0 - grid.bleed_x - MARK_GAP
    right = grid.x0 + cols_used * grid.w + (cols_used - 1) * grid.gx + grid.bleed_x + MARK_GAP
    ink = Paint(MARK_INK, width=0.2)
    for x in xs:
        scene.add(Line(x, max(EDGE, top - 4.0), x, top, ink))
        scene.add(Line(x, bottom, x, min(paper.height - EDGE, bottom + 4.0), ink))
    for y in ys:
        scene.add(Line(max(EDGE, left - 4.0), y, left, y, ink))
        scene.add(Line(right, y, min(paper.width - EDGE, right + 4.0), y, ink))


def scale_check(
    scene: Scene,
    paper: Paper,
    grid: Grid,
    footer: str = "",
    centres: tuple[float, float, float] | None = None,
    inches: str = "2 in",
) -> str:
    """Draw a 50 mm bar and a 2 in bar (and the footer text) in a free margin; return which (``bottom``/``left``).

    The bars sit between the crop marks: each within the span of one card
    column (bottom margin) or card row (left margin), so they never cross a
    mark.  If the page printed at the wrong scale, they will not measure 50 mm
    and 2 in.  ``centres`` (x of the 50 mm bar, the 2 in bar and the footer)
    places them freely in the bottom margin when there are no crop marks.
    ``inches`` labels the 2 in bar (in the language printed).
    """
    if centres is None:
        c0, c1, c2 = (grid.trim(k)[0] + grid.w / 2 for k in range(3))
        centres = (c0, c1, c2)
    ink = Paint("#333333", width=0.3)
    bars = ((50.0, "50 mm"), (50.8, inches))
    block_bottom = grid.y0 + grid.rows * grid.h + (grid.rows - 1) * grid.gy + grid.bleed_y
    if grid.bars == "bottom":
        y = min(paper.height - BAR_INSET, block_bottom + 8.0)
        for k, (length, label) in enumerate(bars):
            cx = centres[k]
            scene.add(Line(cx - length / 2, y, cx + length / 2, y, ink))
            for tick in (cx - length / 2, cx + length / 2):
                scene.add(Line(tick, y - 1.0, tick, y + 0.6, ink))
            scene.add(Text(cx, y - 0.9, label, 4.5, anchor="middle", color="#333333"))
        if footer:
            room = grid.w - 4.0 if centres[2] == grid.trim(2)[0] + grid.w / 2 else 60.0
            scene.add(Text(centres[2], y, footer, fit_size(footer, 4.5, room), anchor="middle", color="#777777"))
        return "bottom"
    x = BAR_INSET
    for k, (length, label) in enumerate(bars):
        cy = grid.trim(k * grid.cols)[1] + grid.h / 2
        scene.add(Line(x, cy - length / 2, x, cy + length / 2, ink))
        for tick in (cy - length / 2, cy + length / 2):
            scene.add(Line(x - 0.6, tick, x + 1.0, tick, ink))
        scene.add(Text(x + 2.2, cy, label, 4.5, anchor="middle", color="#333333", angle=90))
    if footer:
        cy = grid.trim(2 * grid.cols)[1] + grid.h / 2
        scene.add(
            Text(x + 1.0, cy, footer, fit_size(footer, 4.5, grid.h - 4.0), anchor="middle", color="#777777", angle=90)
        )
    return "left"


DrawFn = Callable[[Scene, tuple[float, float, float, float], tuple[float, float]], None]
"""Draws one card: ``(scene, trim box (x, y, w, h), (bleed_x, bleed_y))``; art may extend that far beyond the trim
box."""


@dataclass(frozen=True)
class Item:
    """One card (or chip) to place: its name, how to draw its front and, for cards with backs, its back."""

    name: str
    front: DrawFn
    back: DrawFn | None = None


PRINT_WORDS = {"fronts": "fronts {n}/{of}", "backs": "backs {n}/{of}, long-edge flip", "two_inches": "2 in"}
"""The words :func:`impose` prints in the margins when not told others (English)."""


def impose(
    items: Sequence[Item],
    paper: Paper,
    w: float,
    h: float,
    *,
    bleed: float = 3.0,
    backs: bool = True,
    back_offset: tuple[float, float] = (0.0, 0.0),
    title: str = "",
    footer: str = "",
    words: dict[str, str] | None = None,
) -> tuple[list[Scene], dict]:
    """Lay cards out nine to a page (3 × 3), with a mirrored backs page after each fronts page.

    ``words`` are the margin's words in the language printed (the ``print``
    section of a message catalogue: ``fronts``, ``backs`` with ``{n}`` and
    ``{of}`` fields, ``two_inches``); default English.

    Returns:
        ``(pages, manifest)``: the scenes in print order and the manifest
        (``{"pages": [{"page": 1, "side": "front", "items": [{"name", "trim": [x, y, w, h]}]}], ...}``,
        millimetres from the page's top-left corner).

    Raises:
        ImpositionError: the cards do not fit the paper.
    """
    words = {**PRINT_WORDS, **(words or {})}
    grid = plan_grid(paper, w, h, cols=3, rows=3, bleed=bleed)
    pages: list[Scene] = []
    manifest_pages: list[dict] = []
    sheets = [items[i : i + grid.per_page] for i in range(0, len(items), grid.per_page)]
    for n, chunk in enumerate(sheets, start=1):
        front = Scene(paper.width, paper.height, title=f"{title} — fronts {n}/{len(sheets)}")
        entries = []
        for i, item in enumerate(chunk):
            box = grid.trim(i)
            item.front(front, box, grid.bleed)
            entries.append({"name": item.name, "trim": [round(v, 3) for v in box]})
        crop_marks(front, grid, len(chunk), paper)
        side = words["fronts"].format(n=n, of=len(sheets))
        scale_check(front, paper, grid, f"{footer} · {side}", inches=words["two_inches"])
        pages.append(front)
        manifest_pages.append({"page": len(pages), "side": "front", "items": entries})
        if not backs or all(item.back is None for item in chunk):
            continue
        back = Scene(paper.width, paper.height, title=f"{title} — backs {n}/{len(sheets)}")
        back_entries = []
        for i, item in enumerate(chunk):
            if item.back is None:
                continue
            x, y, bw, bh = grid.trim(i)
            mirrored = (paper.width - x - bw + back_offset[0], y + back_offset[1], bw, bh)
            item.back(back, mirrored, grid.bleed)
            back_entries.append(
                {"name": f"{item.name} (back)", "of": item.name, "trim": [round(v, 3) for v in mirrored]}
            )
        _mirrored_marks(back, grid, len(chunk), paper, back_offset)
        side = words["backs"].format(n=n, of=len(sheets))
        scale_check(back, paper, grid, f"{footer} · {side}", inches=words["two_inches"])
        pages.append(back)
        manifest_pages.append({"page": len(pages), "side": "back", "items": back_entries})
    manifest = {
        "paper": {"id": paper.id, "width": paper.width, "height": paper.height},
        "card": {"width": w, "height": h},
        "bleed": {"x": grid.bleed_x, "y": grid.bleed_y, "requested": bleed},
        "back_offset": list(back_offset),
        "pages": manifest_pages,
    }
    return pages, manifest


def _mirrored_marks(scene: Scene, grid: Grid, count: int, paper: Paper, offset: tuple[float, float]) -> None:
    """Crop marks for a backs page: the fronts' marks mirrored and shifted by the back offset."""
    tmp = Scene(paper.width, paper.height)
    crop_marks(tmp, grid, count, paper)
    for item in tmp.items:
        if isinstance(item, Line):
            scene.add(
                Line(
                    paper.width - item.x1 + offset[0],
                    item.y1 + offset[1],
                    paper.width - item.x2 + offset[0],
                    item.y2 + offset[1],
                    item.paint,
                )
            )
