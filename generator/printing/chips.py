"""Chip sheets (``layouts/chips/<id>.yaml``): round chips with cut circles, laid out for printing.

```yaml
kind: chips
game: fundex
id: fundex-chips
name: "All In (Fundex) chips, 36"
diameter: 25                      # mm
chips:
  - {value: 1, count: 8, color: "#f4f6f7", ink: "#1d2b45"}
```
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import Field

from generator.core.errors import InputError, Problem
from generator.core.models import StrictModel, validate
from generator.core.yamlpos import Document
from generator.printing.i18n import messages
from generator.printing.impose import MIN_MARGIN, Grid, scale_check
from generator.printing.paper import Paper
from generator.printing.scene import Circle, Paint, Scene, Text, fit_size
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
    return ChipSheet(spec.id or path.stem, spec.game, spec.name, spec.description, spec.diameter, chips, doc.file)


def chip_pages(sheet: ChipSheet, paper: Paper, *, footer: str = "", inches: str = "2 in") -> tuple[list[Scene], dict]:
    """Lay the chips out in rows with a cut circle each, plus the scale check; return pages and manifest.

    ``inches`` labels the 2 in scale bar (in the language printed).

    The manifest gives each chip's name (``"chip 5"``) and its trim box (the
    square around the cut circle) in millimetres.
    """
    d = sheet.diameter
    gap = 3.0
    cols = int((paper.width - 2 * MIN_MARGIN + gap) // (d + gap))
    rows = int((paper.height - 2 * MIN_MARGIN - 12.0 + gap) // (d + gap))
    if cols < 1 or rows < 1:
        raise InputError([Problem(sheet.source, 0, 0, f"chips of {d:g} mm do not fit on {paper.label}")])
    block_w = cols * d + (cols - 1) * gap
    grid = Grid(cols, rows, (paper.width - block_w) / 2, MIN_MARGIN + 2.0, d, d, gap, gap, 0.0, 0.0)
    pages: list[Scene] = []
    manifest_pages = []
    per = cols * rows
    chunks = [sheet.chips[i : i + per] for i in range(0, len(sheet.chips), per)]
    for n, chunk in enumerate(chunks, start=1):
        scene = Scene(paper.width, paper.height, title=f"{sheet.name} {n}/{len(chunks)}")
        items = []
        for i, chip in enumerate(chunk):
            x, y, w, h = grid.trim(i)
            _chip(scene, x + w / 2, y + h / 2, d / 2, chip)
            items.append(
                {"name": f"chip {chip.value}", "value": chip.value, "trim": [round(v, 3) for v in (x, y, w, h)]}
            )
        used = Grid(cols, (len(chunk) + cols - 1) // cols, grid.x0, grid.y0, d, d, gap, gap, 0.0, 0.0)
        mid = paper.width / 2
        scale_check(
            scene,
            paper,
            used,
            f"{footer} · {n}/{len(chunks)}",
            centres=(mid - 62.0, mid - 6.0, mid + 60.0),
            inches=inches,
        )
        pages.append(scene)
        manifest_pages.append({"page": n, "side": "front", "items": items})
    manifest = {
        "paper": {"id": paper.id, "width": paper.width, "height": paper.height},
        "chip": {"diameter": d},
        "pages": manifest_pages,
    }
    return pages, manifest


def _chip(scene: Scene, cx: float, cy: float, r: float, chip: ChipSpec) -> None:
    scene.add(Circle(cx, cy, r, Paint("#000000", chip.color, 0.25)))  # the cut line
    scene.add(Circle(cx, cy, r * 0.82, Paint(chip.ink, None, 0.5, dash=(1.6, 1.2))))
    scene.add(Circle(cx, cy, r * 0.62, Paint(chip.ink, None, 0.35)))
    label = str(chip.value)
    size = fit_size(label, r * 1.9, r * 1.0, "bold")
    scene.add(Text(cx, cy + size * 0.3528 * 0.36, label, size, "bold", "middle", chip.ink))


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
