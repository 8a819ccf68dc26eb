"""The All In sheet as a form: type a player can read, measured from the drawing of every shipped sheet, on every
paper, in every language.

The rank boxes' own labels inside the card spaces are not measured here yet (the card space keeps its 2.6 mm boxes
and their labels for now).
"""

from __future__ import annotations

import pytest

from generator.core.shipped import resolve_layout, shipped_layouts
from generator.games.allin.layout import load_layout
from generator.games.allin.sheet import AID_HANDS, build_allin_sheet
from generator.printing.i18n import languages
from generator.printing.paper import papers
from generator.printing.scene import MarkTarget, Scene, Text

MIN_TEXT_PT = 5.5
"""The smallest type a player should have to read on a sheet, in points."""

SHEETS = sorted(item.id for item in shipped_layouts() if item.game == "allin")


def rank_label_zones(scene: Scene) -> list[tuple[float, float, float, float]]:
    """Per card space, the box ``(x0, y0, x1, y1)`` mm of its rank boxes and the labels just above them."""
    by_cell: dict[str, list[MarkTarget]] = {}
    for t in scene.marks:
        if t.kind == "rank":
            by_cell.setdefault(t.owner, []).append(t)
    zones = []
    for boxes in by_cell.values():
        x0 = min(t.x for t in boxes)
        x1 = max(t.x + t.w for t in boxes)
        y0 = min(t.y for t in boxes) - 3.0
        y1 = max(t.y + t.h for t in boxes)
        zones.append((x0, y0, x1, y1))
    return zones


def small_texts(scene: Scene) -> list[tuple[str, float]]:
    """Every text under :data:`MIN_TEXT_PT` outside the rank boxes' label zones: ``(text, size)``."""
    zones = rank_label_zones(scene)
    out = []
    for item in scene.items:
        if not isinstance(item, Text) or item.size >= MIN_TEXT_PT - 1e-9:
            continue
        if any(x0 <= item.x <= x1 and y0 <= item.y <= y1 for x0, y0, x1, y1 in zones):
            continue
        out.append((item.text, round(item.size, 2)))
    return out


@pytest.mark.parametrize("lang", languages())
@pytest.mark.parametrize("layout_id", SHEETS)
def test_no_text_outside_the_rank_boxes_is_set_under_five_and_a_half_points(layout_id, lang):
    lay = load_layout(resolve_layout(layout_id))
    for sheet_paper in papers().values():
        assert small_texts(build_allin_sheet(lay, sheet_paper, lang)) == [], sheet_paper.id


def test_the_measure_finds_small_type_where_there_is_some():
    scene = Scene(100, 100)
    scene.marks.append(MarkTarget("rank", "a1", "A", 10, 10, 3, 3))
    scene.add(Text(11, 9, "A", 3.0), Text(50, 50, "tiny", 5.4), Text(50, 60, "fine", 5.5))
    assert small_texts(scene) == [("tiny", 5.4)]


@pytest.mark.parametrize("lang", languages())
def test_the_seven_hand_names_of_the_scoring_aid_share_one_size(lang):
    lay = load_layout(resolve_layout("q-diamonds"))
    for sheet_paper in papers().values():
        scene = build_allin_sheet(lay, sheet_paper, lang)
        strings = lay.strings_for(lang)
        names = {getattr(strings, key) for key, _, _ in AID_HANDS}
        sizes = {
            round(t.size, 3) for t in scene.items if isinstance(t, Text) and t.text in names and t.weight == "bold"
        }
        assert len(sizes) == 1 and min(sizes) >= MIN_TEXT_PT, (sheet_paper.id, sizes)
