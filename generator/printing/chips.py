"""Chip sheets (``layouts/chips/<id>.yaml``): round chips with cut circles, laid out for printing.

Each chip prints on both sides (a backs page after each fronts page, for a
long-edge flip), its colour running past the cut circle.  A chip colour too
close to white is a warning: it would not show on the table.

```yaml
kind: chips
game: fundex
id: fundex-chips
name: "All In (Fundex) chips, 36"
diameter: 25                      # mm
chips:
  - {value: 1, count: 8, color: "#e0a526", ink: "#1d2b45"}
```
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import Field

from generator.core.errors import InputError, Problem
from generator.core.models import StrictModel, validate
from generator.core.yamlpos import Document
from generator.printing.cardart import mix
from generator.printing.i18n import messages
from generator.printing.impose import BAR_GAP, BAR_ROOM, PRINT_EDGE, Grid, scale_check
from generator.printing.paper import Paper
from generator.printing.scene import Circle, Paint, Path_, Scene, Text, cap_height, fit_size, polygon_ops
from generator.printing.text import ComponentHeader

HEX = r"^#[0-9a-fA-F]{6}$"


class ChipSpec(StrictModel):
    """One kind of chip: its value, how many, fill and ink colours."""

    value: int = Field(ge=1, le=1000, strict=True)
    count: int = Field(ge=0, le=500, strict=True)
    color: str = Field(default="#ffffff", pattern=HEX)
    ink: str = Field(default="#1d2b45", pattern=HEX)


class ChipSheetSpec(ComponentHeader):
    """A chip sheet file as written."""

    kind: Literal["chips"]
    diameter: float = Field(default=25.0, ge=12.0, le=60.0)
    chips: list[ChipSpec] = Field(min_length=1)


@dataclass
class ChipSheet:
    """A validated chip sheet: the chips in order (value, colours) and their diameter (mm)."""

    id: str
    game: str
    name: str
    description: str
    diameter: float
    chips: list[ChipSpec]
    source: str = ""
    warnings: list[Problem] = field(default_factory=list)


def chips_from_document(doc: Document, path: Path) -> ChipSheet:
    """Validate a parsed chip sheet file.

    Raises:
        InputError: located problems (negative count, bad colour, unknown key, …).
    """
    spec = validate(ChipSheetSpec, doc)
    chips = [c for c in spec.chips for _ in range(c.count)]
    warnings = [
        doc.problem(
            ("chips", n, "color"),
            f"chip {c.value}: colour {c.color} is nearly white and will not show on white paper or a light "
            "table; give it a colour",
            severity="warning",
        )
        for n, c in enumerate(spec.chips)
        if contrast_with_white(c.color) < NEARLY_WHITE
    ]
    return ChipSheet(
        spec.id or path.stem, spec.game, spec.name, spec.description, spec.diameter, chips, doc.file, warnings
    )


CHIP_BLEED = 1.5
"""Colour past the cut circle of a chip (mm), so a cut a little outside the line shows no white."""
NEARLY_WHITE = 1.25
"""A chip colour whose contrast with white paper is below this (WCAG ratio) would not show on the table."""


def _luminance(color: str) -> float:
    """Relative luminance of ``#rrggbb`` (WCAG 2)."""
    out = []
    for i in (1, 3, 5):
        c = int(color[i : i + 2], 16) / 255
        out.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
    return 0.2126 * out[0] + 0.7152 * out[1] + 0.0722 * out[2]


def contrast_with_white(color: str) -> float:
    """The WCAG contrast ratio of ``#rrggbb`` against white paper, 1 (white) to 21 (black)."""
    return 1.05 / (_luminance(color) + 0.05)


def chip_pages(
    sheet: ChipSheet, paper: Paper, *, footer: str = "", inches: str = "2 in", backs: bool = True
) -> tuple[list[Scene], dict]:
    """Lay the chips out in rows, each a coloured disc running :data:`CHIP_BLEED` past its cut circle, with a
    backs page after each fronts page (each chip's back at the mirror position for a long-edge flip, the
    same design, so a chip shows its value on both sides); every page has the scale check.

    ``inches`` labels the 2 in scale bar (in the language printed).  Cut circles stay
    :data:`~generator.printing.impose.PRINT_EDGE` from the paper edge, the scale bars below the chips.

    Returns:
        ``(pages, manifest)``: the manifest gives each chip's name (``"chip 5"``), value and trim box (the
        square around the cut circle) in millimetres, per page and side.

    Raises:
        InputError: not one chip fits the paper.
    """
    d = sheet.diameter
    gap = 2 * CHIP_BLEED
    bottom = PRINT_EDGE + BAR_ROOM + BAR_GAP + CHIP_BLEED  # room under the last row for the scale bars
    cols = int((paper.width - 2 * PRINT_EDGE + gap) // (d + gap))
    rows = int((paper.height - PRINT_EDGE - bottom + gap) // (d + gap))
    if cols < 1 or rows < 1:
        raise InputError([Problem(sheet.source, 0, 0, f"chips of {d:g} mm do not fit on {paper.label}")])
    block_w = cols * d + (cols - 1) * gap
    block_h = rows * d + (rows - 1) * gap
    y0 = PRINT_EDGE + (paper.height - PRINT_EDGE - bottom - block_h) / 2
    grid = Grid(cols, rows, (paper.width - block_w) / 2, y0, d, d, gap, gap, CHIP_BLEED, CHIP_BLEED)
    pages: list[Scene] = []
    manifest_pages = []
    per = cols * rows
    chunks = [sheet.chips[i : i + per] for i in range(0, len(sheet.chips), per)]
    mid = paper.width / 2
    centres = (mid - 62.0, mid - 6.0, mid + 60.0)
    for n, chunk in enumerate(chunks, start=1):
        for side in ("front", "back") if backs else ("front",):
            scene = Scene(paper.width, paper.height, title=f"{sheet.name} {n}/{len(chunks)} {side}")
            items = []
            for i, chip in enumerate(chunk):
                x, y, w, h = grid.trim(i)
                if side == "back":
                    x = paper.width - x - w
                _chip(scene, x + w / 2, y + h / 2, d / 2, chip)
                items.append(
                    {
                        "name": f"chip {chip.value}" + (" (back)" if side == "back" else ""),
                        "value": chip.value,
                        "trim": [round(v, 3) for v in (x, y, w, h)],
                    }
                )
            scale_check(scene, paper, grid, f"{footer} · {n}/{len(chunks)} {side}", centres=centres, inches=inches)
            pages.append(scene)
            manifest_pages.append({"page": len(pages), "side": side, "items": items})
    manifest = {
        "paper": {"id": paper.id, "width": paper.width, "height": paper.height},
        "chip": {"diameter": d, "bleed": CHIP_BLEED},
        "pages": manifest_pages,
    }
    return pages, manifest


def _chip(scene: Scene, cx: float, cy: float, r: float, chip: ChipSpec) -> None:
    """One chip: its colour to :data:`CHIP_BLEED` past the cut circle, edge spots running into the bleed, a
    ring and the value in its ink colour, the cut circle a thin line a shade darker than the chip."""
    scene.add(Circle(cx, cy, r + CHIP_BLEED, Paint(None, chip.color)))
    spot = Paint(None, chip.ink)
    for k in range(8):
        a = math.pi / 8 + k * math.pi / 4
        ca, sa = math.cos(a), math.sin(a)
        inner, outer, half = r * 0.8, r + CHIP_BLEED, r * 0.13
        corners = [(inner, -half), (outer, -half * 1.25), (outer, half * 1.25), (inner, half)]
        scene.add(Path_(polygon_ops([(cx + u * ca - v * sa, cy + u * sa + v * ca) for u, v in corners]), spot))
    scene.add(Circle(cx, cy, r * 0.72, Paint(chip.ink, chip.color, 0.5)))
    scene.add(Circle(cx, cy, r * 0.64, Paint(chip.ink, None, 0.3, dash=(1.2, 0.9))))
    scene.add(Circle(cx, cy, r, Paint(mix(chip.color, "#000000", 0.3), None, 0.2)))  # the cut line
    label = str(chip.value)
    size = fit_size(label, r * 1.9, r * 0.95, "bold")
    scene.add(Text(cx, cy + cap_height(size) / 2, label, size, "bold", "middle", chip.ink))


def chip_sheet_pages(chips: ChipSheet, paper: Paper, lang: str = "en") -> tuple[list[Scene], dict]:
    """The chip sheet on ``paper`` with its words in ``lang``, and its manifest.

    Raises:
        SheetsmithError: no message catalogue for ``lang``.
    """
    words = messages(lang).section("print")
    pages, manifest = chip_pages(
        chips, paper, footer=f"sheetsmith · {chips.id} · {paper.label}", inches=words["two_inches"]
    )
    return pages, {"component": chips.id, "kind": "chips", **manifest}


def describe_chips(chips: ChipSheet) -> tuple[str, str]:
    """A chip sheet's name and a one-line summary: ``(NAME, "36 chips of 25 mm: 8×1, 16×2, 12×5")``."""
    values = sorted({c.value for c in chips.chips})
    counts = ", ".join(f"{sum(1 for c in chips.chips if c.value == v)}×{v}" for v in values)
    return chips.name, f"{len(chips.chips)} chips of {chips.diameter:g} mm: {counts}"
