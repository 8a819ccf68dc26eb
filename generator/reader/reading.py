"""What the reader found in one photo of an All In sheet: every card space, the chip counts, and how sure it is.

Plain data, made by :func:`generator.reader.read.read_photo` and written out by
:mod:`generator.reader.output`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from generator.core.cards import Card
from generator.games.allin.filled import FilledSheet
from generator.games.allin.grid import Coord
from generator.games.allin.layout import AllInLayout
from generator.printing.paper import Paper
from generator.printing.scene import Scene
from generator.reader.code import CodeReading
from generator.reader.markers import SheetFit
from generator.reader.marks import Measurement


@dataclass
class CellReading:
    """What was read in one card space.

    Attributes:
        cell: its name (``"c3"``); ``coord`` its lattice position.
        status: ``"card"``, ``"empty"`` or ``"uncertain"``.
        card: the card read (status ``card``), else ``None``.
        confidence: 0–1, the weakest of the decisions it rests on.
        reason: for ``uncertain``, what is unclear.
        ranks, suits: the rank labels / suit letters decided marked (``True``) or unsure (``None``).
    """

    cell: str
    coord: Coord
    status: str
    card: Card | None
    confidence: float
    reason: str = ""
    ranks: dict[str, bool | None] = field(default_factory=dict)
    suits: dict[str, bool | None] = field(default_factory=dict)
    inks: dict[str, float] = field(default_factory=dict)
    """Every rank label's and suit letter's ink as decided on (above this space's blank level)."""


@dataclass
class CountReading:
    """A count read from the chip track: ``value`` (``None`` when uncertain), confidence, reason,
    and which chip numbers were read marked (``marked``) or unsure (``unsure``)."""

    value: int | None
    confidence: float
    reason: str = ""
    marked: list[int] = field(default_factory=list)
    unsure: list[int] = field(default_factory=list)


@dataclass
class PhotoReading:
    """Everything read from one photo.

    Attributes:
        path: the photo; ``display`` its name in messages.
        layout, paper: the sheet's layout and paper (from the sheet code, or ``--layout``).
        scene: the blank sheet's scene the targets come from.
        code: the sheet code as read (``how`` is ``decoded``, ``matched`` or ``none``).
        fit: the markers and homography.
        measurement: the inks measured.
        cells: every writable space's reading, by lattice position.
        chips_earned, chips_spent: the chip counts read.
        player: the player's name (the photo's file name; handwriting is not read).
        image_size: ``(width, height)`` of the photo in pixels.
    """

    path: Path
    display: str
    layout: AllInLayout
    paper: Paper
    scene: Scene
    code: CodeReading
    fit: SheetFit
    measurement: Measurement
    cells: dict[Coord, CellReading]
    chips_earned: CountReading
    chips_spent: CountReading
    player: str
    image_size: tuple[int, int]
    layout_ref: str = ""
    preview: np.ndarray | None = field(default=None, repr=False)
    """The whole page straightened at ``preview_ppm`` pixels per mm (BGR), for the annotated picture."""
    preview_ppm: float = 4.0
    canvas: tuple | None = field(default=None, repr=False)
    """The annotated picture's canvas made from :attr:`preview` (:func:`.output.annotation_canvas`), or ``None``."""
    annotated: bytes | None = field(default=None, repr=False)
    """The annotated picture (PNG bytes), once drawn (:func:`generator.jobs.photos.read_photos` draws it)."""

    @property
    def uncertain(self) -> list[tuple[str, str]]:
        """Every unclear field as ``(field, reason)``: a cell name, ``chips.earned`` or ``chips.spent``."""
        out = [(c.cell, c.reason) for c in self.cells.values() if c.status == "uncertain"]
        for name, count in (("chips.earned", self.chips_earned), ("chips.spent", self.chips_spent)):
            if count.value is None:
                out.append((name, count.reason))
        return out

    @property
    def confidence(self) -> float:
        """The weakest field confidence on the sheet (0–1)."""
        vals = [c.confidence for c in self.cells.values()] + [self.chips_earned.confidence, self.chips_spent.confidence]
        return float(min(vals)) if vals else 1.0

    def filled_sheet(self) -> FilledSheet:
        """The sheet as read, for scoring.

        Raises:
            ValueError: some field is uncertain (see :attr:`uncertain`).
        """
        if self.uncertain:
            raise ValueError(f"{self.display}: uncertain fields: {', '.join(f for f, _ in self.uncertain)}")
        # (status "card" always comes with its card)
        cards = {coord: c.card for coord, c in self.cells.items() if c.status == "card" and c.card is not None}
        return FilledSheet(self.layout, self.player, cards, self.chips_earned.value or 0, self.chips_spent.value or 0)
