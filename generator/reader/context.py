"""What the reader's common steps found in a photo, handed to the reader of the sheet's kind."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from generator.reader.code import CodeReading
from generator.reader.markers import SheetFit
from generator.reader.marks import BlurField

if TYPE_CHECKING:
    from generator.games.pads import Pad


@dataclass
class PhotoContext:
    """What the common steps found in a photo, handed to a sheet kind's reader.

    Attributes:
        path, display, player: the photo, its name in messages, the player's name (from the file name).
        img: the photo (BGR uint8); ``found``: marker id → its four corners (photo px).
        fit: the homography on the markers, in the upright paper's frame (full photo).
        src, sfit, blur: the photo scaled for measuring, its fit, and the blur measured on its markers.
        code: the sheet code as read; ``layout_arg``: ``--layout`` as given (or ``None``).
        item: the item ``--layout`` names (or ``None``): a tick pad, the one kind of :mod:`.kinds` so far.
        where: the part of the sheet outside the photo, if any (``(part, slots)``).
    """

    path: Path
    display: str
    player: str
    img: np.ndarray
    found: dict
    fit: SheetFit
    src: np.ndarray
    sfit: SheetFit
    blur: BlurField
    code: CodeReading
    layout_arg: str | None = None
    item: Pad | None = None
    where: tuple | None = None
