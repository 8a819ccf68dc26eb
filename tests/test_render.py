"""Every shipped layout validates and renders to PDF, SVG and PNG, with the right page and content.

Checks read the PDF back with pypdfium2 (page size, text) and the scene
(geometry, mark targets); expected values come from the layout files and
from the paper standards (A4 595.28 × 841.89 pt, Letter 612 × 792 pt).
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pypdfium2 as pdfium
import pytest
from PIL import Image

from generator.core.cards import SUIT_SYMBOLS
from generator.core.shipped import shipped_layouts
from generator.games.allin.grid import cell_name
from generator.games.allin.layout import load_layout
from generator.games.allin.sheet import build_allin_sheet
from generator.printing.backends import render_bytes
from generator.printing.paper import paper
from generator.printing.scene import Circle, Path_, Rect, Text, text_width

SHIPPED = [s for s in shipped_layouts() if s.game == "allin"]
PAGE_PT = {"a4": (595.2756, 841.8898), "letter": (612.0, 792.0)}
AID = [
    ("Pair", 2),
    ("Two pair", 4),
    ("Three of a kind", 6),
    ("Straight", 8),
    ("Full house", 10),
    ("Four of a kind", 12),
    ("Straight flush", 14),
]


def test_at_least_six_layouts_ship_with_the_q_diamonds_starter():
    ids = [s.id for s in SHIPPED]
    assert "q-diamonds" in ids and len(ids) >= 6
    goldens = {load_layout(s.path).golden.code for s in SHIPPED}
    assert len(goldens) == len(SHIPPED)  # each named by its own golden card


def test_shipped_layouts_differ_and_play_well():
    patterns = set()
    for item in SHIPPED:
        lay = load_layout(item.path)
        assert lay.warnings == [], item.id
        assert lay.spaces == 24
        patterns.add(frozenset(lay.grid.links))
        sizes = {len(h.cells) for h in lay.hands.values()}
        assert sizes & {3, 4}, f"{item.id}: no hand of 3 or 4 spaces"
        rewards = {h.reward for h in lay.hands.values()}
        assert rewards == {"single", "double"}, item.id
        gc, gr = lay.golden_coord
        assert 0 < gc < lay.grid.cols - 1 and 0 < gr < lay.grid.rows - 1, "golden card must be interior"
        (ac, ar), (bc, br) = lay.grid.starts[0], lay.grid.starts[-1]
        assert abs(ac - bc) + abs(ar - br) >= 4, f"{item.id}: starting spaces too close"
    assert len(patterns) == len(SHIPPED)


@pytest.mark.parametrize("item", SHIPPED, ids=lambda s: s.id)
@pytest.mark.parametrize("paper_id", ["a4", "letter"])
def test_pdf_page_size_and_text(item, paper_id):
    lay = load_layout(item.path)
    pdf = render_bytes([build_allin_sheet(lay, paper(paper_id))], "pdf")
    doc = pdfium.PdfDocument(pdf)
    assert len(doc) == 1
    w, h = doc[0].get_size()
    ew, eh = PAGE_PT[paper_id]
    assert abs(w - ew) <= 0.5 and abs(h - eh) <= 0.5
    text = doc[0].get_textpage().get_text_range().replace("\r", "")
    for name, points in AID:
        assert re.search(rf"(^|\n){name} {points}\n", text), f"scoring aid line {name} {points}"
    for letter, hand in lay.hands.items():
        assert re.search(rf"(^|\n){letter}\n\+{hand.bonus}\n", text), f"hand {letter} with its bonus"
    assert lay.name.rstrip("♠♥♦♣") + " sheet" in text
    # fonts: embedded TrueType, and no base-14 font declared anywhere
    assert pdf.count(b"/FontFile2") >= 2
    assert b"Helvetica" not in pdf and b"Times" not in pdf
    doc.close()


@pytest.mark.slow
@pytest.mark.parametrize("item", SHIPPED, ids=lambda s: s.id)
def test_svg_and_png(item):
    lay = load_layout(item.path)
    scene = build_allin_sheet(lay, paper("a4"))
    svg = render_bytes([scene], "svg")
    root = ET.fromstring(svg)
    assert root.get("width") == "210mm" and root.get("height") == "297mm"
    assert root.get("viewBox") == "0 0 210 297"
    assert b"@font-face" in svg  # fonts travel with the file
    png = render_bytes([scene], "png", dpi=100)
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    w, h = img.size  # 210 x 297 mm at 100 dpi is 826.8 x 1169.3 px; pdfium rounds up or down
    assert abs(w - 210 / 25.4 * 100) < 1 and abs(h - 297 / 25.4 * 100) < 1
    # not blank: the sheet prints dark ink somewhere
    assert img.convert("L").getextrema()[0] < 60


def test_suit_symbols_are_shapes_not_glyphs():
    lay = load_layout(SHIPPED[0].path)
    scene = build_allin_sheet(lay, paper("a4"))
    assert not any(ch in t for t in scene.texts() for ch in SUIT_SYMBOLS.values())
    svg = render_bytes([scene], "svg").decode("utf-8")
    assert not any(ch in svg for ch in SUIT_SYMBOLS.values() if ch not in (scene.title or ""))


@pytest.mark.parametrize("item", SHIPPED, ids=lambda s: s.id)
def test_every_space_has_rank_ticks_suits_and_room_to_write(item):
    lay = load_layout(item.path)
    scene = build_allin_sheet(lay, paper("letter"))
    by_kind: dict[str, list] = {}
    for mark in scene.marks:
        by_kind.setdefault(mark.kind, []).append(mark)
    spaces = {cell_name(c) for c in lay.grid.writable}
    for name in spaces:
        ranks = [m.key for m in by_kind["rank"] if m.owner == name]
        assert ranks == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
        assert [m.key for m in by_kind["suit"] if m.owner == name] == ["S", "H", "D", "C"]
        assert len([m for m in by_kind["value"] if m.owner == name]) == 1
    assert {m.owner for m in by_kind["rank"]} == spaces  # none on the Golden Card
    assert sorted(m.owner for m in by_kind["reward"]) == sorted(lay.hands)
    assert sorted(m.owner for m in by_kind["bonus_star"]) == sorted(lay.hands)
    assert "bonus" not in by_kind  # one Best Scoring Hand circle per hand: by its star, not in the score table
    assert len(by_kind["chip_earned"]) == len(by_kind["chip_spent"]) == lay.chips


@pytest.mark.parametrize("item", SHIPPED, ids=lambda s: s.id)
@pytest.mark.parametrize("paper_id", ["a4", "letter"])
def test_geometry_inside_margins_and_no_overlaps(item, paper_id):
    lay = load_layout(item.path)
    pap = paper(paper_id)
    scene = build_allin_sheet(lay, pap)
    edge = 4.0  # side marks reach into the margin, never closer than 4 mm to the edge
    for it in scene.items:
        if isinstance(it, Rect):
            assert edge <= it.x and it.x + it.w <= pap.width - edge
            assert edge <= it.y and it.y + it.h <= pap.height - edge
        if isinstance(it, Circle):
            assert edge <= it.cx - it.r and it.cx + it.r <= pap.width - edge
    # card spaces (the value areas) do not overlap each other
    boxes = [(m.x, m.y, m.x + m.w, m.y + m.h) for m in scene.marks if m.kind == "value"]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    # mark targets of a space lie inside the space's frame
    frames = {}
    for m in scene.marks:
        if m.kind == "value":
            frames[m.owner] = (m.x - 1.5, m.y - 1.5)
    for m in scene.marks:
        if m.kind in ("rank", "suit"):
            fx, fy = frames[m.owner]
            assert fx <= m.x and fy <= m.y
    # nothing had to be cut to fit, and every text stays inside the margins
    assert scene.notes == []
    m = lay.style.margin
    for it in scene.items:
        if isinstance(it, Text) and not it.angle:
            w = text_width(it.text, it.size, it.weight)
            x0 = it.x - (w / 2 if it.anchor == "middle" else w if it.anchor == "end" else 0)
            assert m - 0.05 <= x0 and x0 + w <= pap.width - m + 0.05, it.text
    # rank boxes stay at least 1.6 mm wide so a pencil tick fits (the 6-row sheets on Letter are the tightest)
    assert min(m.w for m in scene.marks if m.kind == "rank") >= 1.6


# --- the numbered scoring aid and the Best Scoring Hand circles on the grid (issue 13) -------------

RULEBOOK_AID = ["Pair", "Two pair", "Three of a kind", "Straight", "Full house", "Four of a kind", "Straight flush"]
"""The rulebook's scoring aid after its slot 1 (the comparison symbol), numbered 2 to 8 in this order."""


def _aid_slots(scene):
    """The aid's slots: the white boxes of the first row under the aid title, left to right."""
    title = next(t for t in scene.items if isinstance(t, Text) and t.text == "Scoring hands")
    boxes = [r for r in scene.items if isinstance(r, Rect) and r.paint.fill == "#ffffff" and 0 < r.y - title.y < 6]
    return sorted(boxes, key=lambda r: r.x)


@pytest.mark.parametrize("item", SHIPPED, ids=lambda s: s.id)
@pytest.mark.parametrize("paper_id", ["a4", "letter"])
def test_scoring_aid_is_numbered_1_to_8_like_the_rulebook(item, paper_id):
    # rulebook reference table: 1 is the comparison symbol, then pair (2) ... straight flush (8);
    # further down the aid is stronger, so a higher number beats a lower one
    scene = build_allin_sheet(load_layout(item.path), paper(paper_id))
    slots = _aid_slots(scene)
    assert len(slots) == 8 and len({round(s.y, 3) for s in slots}) == 1
    texts = [t for t in scene.items if isinstance(t, Text) and not t.angle]

    def inside(t, s):
        return s.x <= t.x <= s.x + s.w and s.y <= t.y <= s.y + s.h

    for number, slot in enumerate(slots, start=1):
        words = [t.text for t in texts if inside(t, slot)]
        assert str(number) in words, (number, words)
        if number == 1:
            assert words == ["1"]  # the comparison symbol is drawn, not written
        else:
            assert RULEBOOK_AID[number - 2] in words
    # the slot numbers stay apart from the red points: a dark disc, white digit
    discs = [
        c
        for c in scene.items
        if isinstance(c, Circle)
        and any(c.cx - c.r >= s.x and c.cx + c.r <= s.x + s.w and s.y <= c.cy <= s.y + s.h for s in slots)
    ]
    assert len(discs) == 8 and {c.paint.fill for c in discs} == {load_layout(item.path).style.ink}
    assert any(t.text == "a higher number beats a lower one" for t in texts)


def test_scoring_aid_numbers_in_the_pdf():
    lay = load_layout(next(s.path for s in SHIPPED if s.id == "q-diamonds"))
    pdf = render_bytes([build_allin_sheet(lay, paper("a4"))], "pdf")
    doc = pdfium.PdfDocument(pdf)
    text = doc[0].get_textpage().get_text_range().replace("\r", "")
    doc.close()
    # each hand's box reads: name, points, example, then its number before the note
    for number, (name, points) in enumerate(AID, start=2):
        block = text[text.index(f"{name} {points}\n") :]
        assert re.match(rf"{name} {points}\n[^\n]*\n{number} ", block), block[:80]


def _box(item):
    from generator.games.allin.sheet import _bounds

    return _bounds(item)


def _overlap(a, b, pad=0.0):
    return a[0] < b[2] + pad and b[0] < a[2] + pad and a[1] < b[3] + pad and b[1] < a[3] + pad


@pytest.mark.parametrize("item", SHIPPED, ids=lambda s: s.id)
@pytest.mark.parametrize("paper_id", ["a4", "letter"])
def test_a_best_hand_circle_under_every_bonus_star(item, paper_id):
    # rulebook, final scoring: the Best Scoring Hand winner crosses the circle under the hand's points icon
    lay = load_layout(item.path)
    scene = build_allin_sheet(lay, paper(paper_id))
    rewards = {m.owner: m for m in scene.marks if m.kind == "reward"}
    circles = {m.owner: m for m in scene.marks if m.kind == "bonus_star"}
    assert sorted(circles) == sorted(lay.hands)
    assert not [m for m in scene.marks if m.kind == "bonus"]  # the only circle per hand: none in the score table
    worth = [t.text for t in scene.items if isinstance(t, Text) and t.text.startswith("+") and t.size > 6]
    assert sorted(worth) == sorted(f"+{h.bonus}" for h in lay.hands.values())  # the score table says what each is worth
    for letter, hand in lay.hands.items():
        c, r = circles[letter], rewards[letter]
        assert c.key == str(hand.bonus)
        cx, cy = c.x + c.w / 2, c.y + c.h / 2
        rx, ry = r.x + r.w / 2, r.y + r.h / 2
        # the star with the bonus sits between the reward icon and the circle
        star = next(
            t
            for t in scene.items
            if isinstance(t, Text)
            and t.text == str(hand.bonus)
            and t.size < 7
            and min(rx, cx) - 0.1 <= t.x <= max(rx, cx) + 0.1
            and min(ry, cy) - 0.1 <= t.y - 0.4 <= max(ry, cy) + 1.5
        )
        if hand.run.orientation == "row":  # badge in a column: circle under the star
            assert abs(cx - rx) < 0.01 and abs(star.x - cx) < 0.01 and ry < star.y < cy
        else:  # badge in a line under the column: circle after the star
            assert abs(cy - ry) < 0.01 and rx < star.x < cx
        drawn = [
            it for it in scene.items if isinstance(it, Circle) and abs(it.cx - cx) < 1e-6 and abs(it.cy - cy) < 1e-6
        ]
        assert len(drawn) == 1 and drawn[0].paint.stroke and drawn[0].r >= 1.0
    # nothing else is drawn over or against a circle (0.3 mm clear all round)
    for letter, c in circles.items():
        box = (c.x, c.y, c.x + c.w, c.y + c.h)
        near = [it for it in scene.items if _overlap(_box(it), box, 0.3)]
        assert len(near) == 1, (letter, near)


@pytest.mark.parametrize("item", SHIPPED, ids=lambda s: s.id)
@pytest.mark.parametrize("paper_id", ["a4", "letter"])
def test_hand_badges_clear_of_card_spaces_and_each_other(item, paper_id):
    lay = load_layout(item.path)
    scene = build_allin_sheet(lay, paper(paper_id))
    grid_top = min(m.y for m in scene.marks if m.kind == "value") - 3
    frames = [
        _box(it)
        for it in scene.items
        if isinstance(it, Rect) and it.paint.fill == "#ffffff" and it.w > 15 and it.y > grid_top
    ]
    # every badge part: letter discs, reward icons, stars, circles (all recorded or drawn past a run's last space)
    parts = [
        (m.kind, m.owner, (m.x, m.y, m.x + m.w, m.y + m.h)) for m in scene.marks if m.kind in ("reward", "bonus_star")
    ]
    st = lay.style
    parts += [
        ("letter", "", _box(it))
        for it in scene.items
        if isinstance(it, Circle) and it.paint.fill == st.accent and it.cy > grid_top
    ]
    parts += [("star", "", _box(it)) for it in scene.items if isinstance(it, Path_) and it.paint.fill == st.golden_fill]
    assert len(parts) == 4 * len(lay.hands)
    for i, (kind, owner, box) in enumerate(parts):
        assert not any(_overlap(box, f) for f in frames), (kind, owner)
        for kind2, owner2, box2 in parts[i + 1 :]:
            assert not _overlap(box, box2), (kind, owner, kind2, owner2)
