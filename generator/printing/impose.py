"""Imposition for print and play: cards on pages, bleed, crop marks, duplex backs, scale check, manifest.

Page layout, for cards of trim size ``w × h`` on a page ``W × H`` (all
millimetres), chosen by :func:`plan_grid`:

* nothing but card bleed comes within :data:`PRINT_EDGE` of the paper edge
  (home laser printers leave 4 to 4.5 mm unprinted): every trim box, crop
  mark, scale bar and footer stays further in;
* cards are separated by a gutter of twice the bleed, so each card's art runs
  into its own bleed; the grid takes the most cards a page holds with at least
  :data:`MIN_BLEED` of bleed on every side (less only when less is asked), and
  the cards are turned a quarter when that holds more (poker cards on US
  Letter: 8 turned rather than 6 upright);
* crop marks sit in the margins where there is room beyond the print edge,
  and as short ticks across every gutter a cut line crosses (a white edge
  under a black line, so they show on any art): every cut line is marked at
  least twice, and the ticks are cut away with the gutters;
* for duplex printing each fronts page is followed by a backs page, each back
  at the mirror position of its front for a long-edge flip (x → W − x − w),
  moved by the back offset (a printer that shifts the second side);
* every page carries a scale check, a 50 mm bar and a 2 in bar, in a margin
  clear of art.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Sequence

from generator.printing.paper import Paper
from generator.printing.scene import Line, Paint, Scene, Text, fit_size, turned


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


PRINT_EDGE = 4.5
"""Nothing but card bleed is printed nearer the paper edge than this (mm)."""
MIN_BLEED = 2.0
"""The least bleed (mm) a grid is chosen for, when at least that much is asked."""
MARK_GAP = 1.0
"""Space between a card's bleed and a crop mark in the margin (mm)."""
MARK_LEN = 2.5
"""Shortest crop mark in a margin (mm); marks grow to 4 mm where the margin allows."""
TICK_END = 0.4
"""A gutter tick stops this far short of the trim lines on both sides of the gutter (mm)."""
MIN_GUTTER = 1.6
"""Narrowest gutter that takes a tick (mm)."""
BAR_ROOM = 3.0
"""Depth of the scale bars with their labels (mm)."""
BAR_GAP = 1.0
"""Space between the scale bars and the art (mm)."""
MARK_INK = "#000000"
HALO = "#ffffff"
STEP = 0.05
"""Bleed is tried in steps of this many mm, down from the bleed asked."""


class ImpositionError(ValueError):
    """The cards do not fit the paper (the message gives the sizes)."""


@dataclass(frozen=True)
class Grid:
    """Where the cards of one page go.

    Attributes:
        cols, rows: cards across and down.
        x0, y0: top-left trim corner of the first card (mm).
        w, h: trim size as placed on the page (mm): a turned card's height across.
        gx, gy: gutters between cards (mm).
        bleed_x, bleed_y: bleed used left and right, top and bottom of every card as placed (mm).
        bars: the margin holding the scale bars and the footer, ``"bottom"`` or ``"left"``.
        turned: the cards are drawn a quarter turn clockwise.
        marks: which margins hold crop marks: ``(top, bottom, left, right)``.
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
    turned: bool = False
    marks: tuple[bool, bool, bool, bool] = (True, True, True, True)

    @property
    def bleed(self) -> tuple[float, float]:
        """``(bleed_x, bleed_y)`` in mm, as placed on the page."""
        return (self.bleed_x, self.bleed_y)

    def trim(self, i: int) -> tuple[float, float, float, float]:
        """Trim box ``(x, y, w, h)`` of the ``i``-th slot (row by row), as placed on the page."""
        c, r = i % self.cols, i // self.cols
        return (self.x0 + c * (self.w + self.gx), self.y0 + r * (self.h + self.gy), self.w, self.h)

    @property
    def per_page(self) -> int:
        """Slots on one page."""
        return self.cols * self.rows


@dataclass(frozen=True)
class _Axis:
    """One axis of a grid: ``n`` cards of ``card`` mm, bleed, margin before the first trim, marks at each end."""

    n: int
    card: float
    bleed: float
    start: float
    marks_lo: bool
    marks_hi: bool


def _axis(length: float, card: float, n: int, bleed: float, bars: str | None) -> _Axis | None:
    """Lay ``n`` cards along an axis of ``length`` mm with ``bleed``; ``bars`` (``"lo"``/``"hi"``) is the end
    that must hold the scale bars.  ``None`` when the cards, the print edge, the bars or two marks per cut line
    do not fit."""
    block = n * card + (n - 1) * 2 * bleed
    spare = length - block
    marks_need = PRINT_EDGE + MARK_LEN + MARK_GAP + bleed
    bars_need = max(marks_need, PRINT_EDGE + BAR_ROOM + BAR_GAP + bleed)
    if spare < 2 * PRINT_EDGE:
        return None
    if bars is None:
        lo = spare / 2
        marks = lo >= marks_need
        axis = _Axis(n, card, bleed, lo, marks, marks)
    else:
        if spare < bars_need + PRINT_EDGE:
            return None
        other = spare - bars_need
        if other >= marks_need:  # room for marks on both ends: share what is left over
            extra = (other - marks_need) / 2
            other, near = marks_need + extra, bars_need + extra
        else:
            near = bars_need
        lo = near if bars == "lo" else other
        axis = _Axis(n, card, bleed, lo, bars == "lo" or other >= marks_need, bars == "hi" or other >= marks_need)
    ticks = n - 1 if 2 * bleed >= MIN_GUTTER else 0
    return axis if axis.marks_lo + axis.marks_hi + ticks >= 2 else None


def _best_axis(length: float, card: float, bleed: float, floor: float, bars: str | None) -> _Axis | None:
    """The axis with the most cards at a bleed of at least ``floor``, and for that many the most bleed up to
    ``bleed``; with no bleed ≥ ``floor`` possible, the most cards at any bleed."""
    steps = [round(bleed - k * STEP, 2) for k in range(int(round(bleed / STEP)) + 1)]
    best: _Axis | None = None
    for n in range(max(1, int(length // card)), 0, -1):
        for b in steps:
            axis = _axis(length, card, n, b, bars)
            if axis is not None:
                if b >= floor - 1e-9:
                    return axis
                if best is None:
                    best = axis
                break
    return best


def plan_grid(paper: Paper, w: float, h: float, *, bleed: float) -> Grid:
    """The grid of ``w × h`` cards on ``paper`` that holds the most with at least ``min(bleed, MIN_BLEED)`` of
    bleed, upright or turned, and the largest bleed up to ``bleed`` for it (per axis).

    Raises:
        ImpositionError: not one card fits within :data:`PRINT_EDGE` of the edges with room for crop marks and
            the scale bars.
    """
    floor = min(bleed, MIN_BLEED)
    candidates: list[tuple[tuple, Grid]] = []
    for is_turned in (False, True):
        cw, ch = (h, w) if is_turned else (w, h)
        for bars in ("bottom", "left"):
            ax = _best_axis(paper.width, cw, bleed, floor, "lo" if bars == "left" else None)
            ay = _best_axis(paper.height, ch, bleed, floor, "hi" if bars == "bottom" else None)
            if ax is None or ay is None:
                continue
            grid = Grid(
                ax.n,
                ay.n,
                ax.start,
                ay.start,
                cw,
                ch,
                2 * ax.bleed,
                2 * ay.bleed,
                ax.bleed,
                ay.bleed,
                bars,
                is_turned,
                (ay.marks_lo, ay.marks_hi, ax.marks_lo, ax.marks_hi),
            )
            enough = min(ax.bleed, ay.bleed) >= floor - 1e-9
            candidates.append(((enough, grid.per_page, not is_turned, min(ax.bleed, ay.bleed), bars == "bottom"), grid))
    if not candidates:
        raise ImpositionError(
            f"cards of {w:g}×{h:g} mm do not fit on {paper.label} ({paper.width:g}×{paper.height:g} mm) with "
            f"{PRINT_EDGE:g} mm kept clear at the edges for the printer"
        )
    grid = max(candidates, key=lambda c: c[0])[1]
    return replace(grid, bleed_x=round(grid.bleed_x, 2), bleed_y=round(grid.bleed_y, 2))


def _cut_lines(grid: Grid, count: int) -> tuple[list[float], list[float], int, int]:
    """The x of every vertical cut line and the y of every horizontal one for ``count`` cards, and the
    columns and rows used."""
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
    return xs, ys, cols_used, rows_used


def crop_marks(scene: Scene, grid: Grid, count: int, paper: Paper) -> None:
    """Crop marks for ``count`` cards: in line with every trim edge, in the margins that have room beyond
    :data:`PRINT_EDGE`, and as ticks across every gutter a cut line crosses."""
    xs, ys, cols_used, rows_used = _cut_lines(grid, count)
    top = grid.y0 - grid.bleed_y - MARK_GAP
    bottom = grid.y0 + rows_used * grid.h + (rows_used - 1) * grid.gy + grid.bleed_y + MARK_GAP
    left = grid.x0 - grid.bleed_x - MARK_GAP
    right = grid.x0 + cols_used * grid.w + (cols_used - 1) * grid.gx + grid.bleed_x + MARK_GAP
    ink = Paint(MARK_INK, width=0.2)
    m_top, m_bottom, m_left, m_right = grid.marks
    near = PRINT_EDGE + ink.width / 2  # the line's edge, not its middle, stops at the print edge
    far_y, far_x = paper.height - near, paper.width - near
    for x in xs:
        if m_top:
            scene.add(Line(x, max(near, top - 4.0), x, top, ink))
        if m_bottom:
            scene.add(Line(x, bottom, x, min(far_y, bottom + 4.0), ink))
    for y in ys:
        if m_left:
            scene.add(Line(max(near, left - 4.0), y, left, y, ink))
        if m_right:
            scene.add(Line(right, y, min(far_x, right + 4.0), y, ink))
    halo = Paint(HALO, width=0.7)
    ticks: list[Line] = []
    if grid.gy >= MIN_GUTTER:  # every gutter of the grid, so a page with one row of cards still has two
        for r in range(grid.rows - 1):
            y1 = grid.trim(r * grid.cols)[1] + grid.h + TICK_END
            ticks += [Line(x, y1, x, y1 + grid.gy - 2 * TICK_END, ink) for x in xs]
    if grid.gx >= MIN_GUTTER:
        for c in range(grid.cols - 1):
            x1 = grid.trim(c)[0] + grid.w + TICK_END
            ticks += [Line(x1, y, x1 + grid.gx - 2 * TICK_END, y, ink) for y in ys]
    scene.add(*(replace(t, paint=halo) for t in ticks))
    scene.add(*ticks)


def scale_check(
    scene: Scene,
    paper: Paper,
    grid: Grid,
    footer: str = "",
    centres: tuple[float, float, float] | None = None,
    inches: str = "2 in",
) -> str:
    """Draw a 50 mm bar and a 2 in bar (and the footer text) in the grid's bars margin; return which
    (``bottom``/``left``).

    The bars sit between the crop marks, each within the span of one card
    column (bottom margin) or card row (left margin), at least
    :data:`PRINT_EDGE` from the paper edge and :data:`BAR_GAP` from the art.
    If the page printed at the wrong scale, they will not measure 50 mm and
    2 in.  ``centres`` (x of the 50 mm bar, the 2 in bar and the footer)
    places them freely in the bottom margin.  ``inches`` labels the 2 in bar
    (in the language printed).
    """
    ink = Paint("#333333", width=0.3)
    bars = ((50.0, "50 mm"), (50.8, inches))
    if grid.bars == "bottom":
        if centres is None:
            c0, c1, c2 = (grid.trim(k % grid.cols)[0] + grid.w / 2 for k in range(3))
            centres = (c0, c1, c2)
        y = paper.height - PRINT_EDGE - 0.8  # tick ends at the print edge
        for k, (length, label) in enumerate(bars):
            cx = centres[k]
            scene.add(Line(cx - length / 2, y, cx + length / 2, y, ink))
            for tick in (cx - length / 2, cx + length / 2):
                scene.add(Line(tick, y - 0.8, tick, y + 0.8, ink))
            scene.add(Text(cx, y - 1.1, label, 4.5, anchor="middle", color="#333333"))
        if footer:
            room = grid.w - 4.0 if grid.cols >= 3 else 60.0
            scene.add(Text(centres[2], y, footer, fit_size(footer, 4.5, room), anchor="middle", color="#777777"))
        return "bottom"
    x = PRINT_EDGE + 0.8
    spans = [grid.trim(k * grid.cols)[1] + grid.h / 2 for k in range(grid.rows)]
    for k, (length, label) in enumerate(bars):
        cy = spans[k % len(spans)]
        scene.add(Line(x, cy - length / 2, x, cy + length / 2, ink))
        for tick in (cy - length / 2, cy + length / 2):
            scene.add(Line(x - 0.8, tick, x + 0.8, tick, ink))
        scene.add(Text(x + 2.2, cy, label, 4.5, anchor="middle", color="#333333", angle=90))
    if footer:
        cy = spans[2 % len(spans)]
        scene.add(
            Text(x + 1.0, cy, footer, fit_size(footer, 4.5, grid.h - 4.0), anchor="middle", color="#777777", angle=90)
        )
    return "left"


DrawFn = Callable[[Scene, tuple[float, float, float, float], tuple[float, float]], None]
"""Draws one card upright: ``(scene, trim box (x, y, w, h), (bleed_x, bleed_y))``; art may extend that far
beyond the trim box."""


@dataclass(frozen=True)
class Item:
    """One card (or chip) to place: its name, how to draw its front and, for cards with backs, its back."""

    name: str
    front: DrawFn
    back: DrawFn | None = None


PRINT_WORDS = {"fronts": "fronts {n}/{of}", "backs": "backs {n}/{of}, long-edge flip", "two_inches": "2 in"}
"""The words :func:`impose` prints in the margins when not told others (English)."""


def place(scene: Scene, draw: DrawFn, box: tuple[float, float, float, float], grid: Grid) -> None:
    """Draw one card into its slot ``box`` (as placed on the page): upright, or drawn upright and turned a
    quarter clockwise about the slot's centre when the grid turns its cards."""
    if not grid.turned:
        draw(scene, box, grid.bleed)
        return
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    card = Scene(scene.width, scene.height)
    draw(card, (cx - h / 2, cy - w / 2, h, w), (grid.bleed_y, grid.bleed_x))
    scene.add(*turned(card.items, cx, cy))


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
    """Lay cards out as :func:`plan_grid` places them, with a mirrored backs page after each fronts page.

    ``words`` are the margin's words in the language printed (the ``print``
    section of a message catalogue: ``fronts``, ``backs`` with ``{n}`` and
    ``{of}`` fields, ``two_inches``); default English.

    Returns:
        ``(pages, manifest)``: the scenes in print order and the manifest
        (``{"pages": [{"page": 1, "side": "front", "items": [{"name", "trim": [x, y, w, h]}]}], ...}``,
        millimetres from the page's top-left corner; a turned card's item has ``"turned": 90``).

    Raises:
        ImpositionError: the cards do not fit the paper.
    """
    words = {**PRINT_WORDS, **(words or {})}
    grid = plan_grid(paper, w, h, bleed=bleed)
    pages: list[Scene] = []
    manifest_pages: list[dict] = []
    sheets = [items[i : i + grid.per_page] for i in range(0, len(items), grid.per_page)]
    turn = {"turned": 90} if grid.turned else {}
    for n, chunk in enumerate(sheets, start=1):
        front = Scene(paper.width, paper.height, title=f"{title} — fronts {n}/{len(sheets)}")
        entries = []
        for i, item in enumerate(chunk):
            box = grid.trim(i)
            place(front, item.front, box, grid)
            entries.append({"name": item.name, "trim": [round(v, 3) for v in box], **turn})
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
            place(back, item.back, mirrored, grid)
            back_entries.append(
                {"name": f"{item.name} (back)", "of": item.name, "trim": [round(v, 3) for v in mirrored], **turn}
            )
        _mirrored_marks(back, grid, len(chunk), paper, back_offset)
        side = words["backs"].format(n=n, of=len(sheets))
        scale_check(back, paper, grid, f"{footer} · {side}", inches=words["two_inches"])
        pages.append(back)
        manifest_pages.append({"page": len(pages), "side": "back", "items": back_entries})
    manifest = {
        "paper": {"id": paper.id, "width": paper.width, "height": paper.height},
        "card": {"width": w, "height": h},
        "grid": {"cols": grid.cols, "rows": grid.rows, "turned": grid.turned},
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
