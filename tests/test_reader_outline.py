"""Lining a spent box up on its printed outline (``generator/reader/marks.py`` ``_outline_shift``), on darkness
images drawn by hand (issue 11).

The box is looked for within 1 mm of where the sheet's bend puts it.  A best match on the top edge of that search,
towards the chip circle above the box, is no match: the filled circle's blurred lower edge passes for the box's
top.  Tuning seed 8304 (1920 × 1080, blue pen) had its ticked spent boxes matched at the search's edge, 1.1 mm up
on the filled chip circles' blurred edge; each was measured a millimetre too high, an unticked box under a filled
circle took the circle's darkness, and chips spent read 9 for 8 without a ``?``.
"""

from __future__ import annotations

import numpy as np
import pytest

from generator.printing.scene import MarkTarget
from generator.reader.marks import _outline_shift

PPM = 8.0
"""Pixels per mm (the reader measures at 8 px/mm)."""
BOX = MarkTarget("chip_spent", "9", "", 10.0, 10.0, 2.75, 2.75)
"""A spent box (2.75 mm: 22 pixels) at 10 mm from the image's corner."""


def outline(dx_mm: float, dy_mm: float, size: int = 200) -> np.ndarray:
    """A darkness image (0 paper) holding the box's outline, 2 pixels wide at darkness 0.3, moved by whole pixels."""
    img = np.zeros((size, size), np.float32)
    x0, y0 = int(round((BOX.x + dx_mm) * PPM)), int(round((BOX.y + dy_mm) * PPM))
    n = int(round(BOX.w * PPM))
    img[y0 : y0 + n, x0 : x0 + n] = 0.3
    img[y0 + 2 : y0 + n - 2, x0 + 2 : x0 + n - 2] = 0.0
    return img


@pytest.mark.parametrize("dx, dy", [(0.0, 0.0), (0.5, -0.25), (-0.75, 0.5)])
def test_a_box_within_the_search_is_found_where_its_outline_is(dx, dy):
    """The outline moved by (``dx``, ``dy``) mm, whole pixels within the 1 mm search: found there, to the pixel."""
    found = _outline_shift(BOX, outline(dx, dy), outline(0.0, 0.0), (0.0, 0.0), 0.0, 0.0, PPM, 0.1)
    assert found == pytest.approx((dx, dy), abs=0.5 / PPM)


@pytest.mark.parametrize("dx, dy", [(0.0, -1.5), (0.25, -1.125), (-0.25, -1.5)])
def test_a_box_whose_best_match_is_on_the_top_edge_of_the_search_is_not_found(dx, dy):
    """The outline 1.125–1.5 mm up, towards the chip circle, past the 1 mm search: the best correlation lies on the
    search's top edge, which is no match (a filled circle's blurred lower edge matches there too): ``None``, and the
    box is placed from its neighbours."""
    assert _outline_shift(BOX, outline(dx, dy), outline(0.0, 0.0), (0.0, 0.0), 0.0, 0.0, PPM, 0.1) is None


@pytest.mark.parametrize("dx, dy, edge", [(1.5, 0.0, (1.0, 0.0)), (-1.5, 0.25, (-1.0, 0.25)), (0.0, 1.5, (0.0, 1.0))])
def test_a_box_past_the_other_edges_of_the_search_is_taken_as_far_as_the_search_goes(dx, dy, edge):
    """The outline 1.5 mm to a side or down, past the 1 mm search: the match goes as far as the search does (the
    sheet's bend can take a box that far from where the card spaces put it; nothing printed there passes for it)."""
    found = _outline_shift(BOX, outline(dx, dy), outline(0.0, 0.0), (0.0, 0.0), 0.0, 0.0, PPM, 0.1)
    assert found == pytest.approx(edge, abs=0.5 / PPM)
