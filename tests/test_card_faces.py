"""Card faces, backs, chips and the printed page, checked from the drawing (the scene's primitives).

Expected values are a shop deck's: the standard pip layouts of 2 to 10 (how
many pips, how many in the middle column, the lower half turned), corner
indices about 5 mm tall, two-way courts and backs, two different Jokers; and
a home printer's: nothing but card bleed within 4.5 mm of the paper edge, at
least 2 mm of bleed on every side, scale bars of 50 mm and 2 in clear of the
art, no outline within 3 mm inside the cut.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest

from generator.core.errors import InputError
from generator.core.shipped import shipped_layouts
from generator.games.registry import load_any, pages_for
from generator.printing.chips import contrast_with_white
from generator.printing.faces import deck_items
from generator.printing.impose import PrintOptions
from generator.printing.paper import paper
from generator.printing.scene import PT, Circle, Line, Path_, Rect, Scene, Text, text_width

IDS = {s.id: s.path for s in shipped_layouts()}
DECKS = ["poker-deck", "flip7-deck", "fundex-cards", "flipflop-reference"]
PAPERS = ["a4", "letter"]
BOX = (10.0, 20.0, 63.0, 88.0)
BLEED = (3.0, 3.0)
RED, BLACK = "#c8102e", "#1a1a1a"


def draw(item_id: str, name: str, *, back: bool = False, lang: str = "en") -> Scene:
    """The one card ``name`` of deck ``item_id`` drawn alone in :data:`BOX`."""
    deck = load_any(IDS[item_id])
    item = next(i for i in deck_items(deck, lang) if i.name == name)
    scene = Scene(210, 297)
    (item.back if back else item.front)(scene, BOX, BLEED)
    return scene


def bbox(item) -> tuple[float, float, float, float]:
    """``(x0, y0, x1, y1)`` of a primitive in mm (a turned text: a square of its width around its anchor)."""
    if isinstance(item, Line):  # where a line is drawn: along its middle (hairlines of 0.2 to 0.7 mm)
        return (min(item.x1, item.x2), min(item.y1, item.y2), max(item.x1, item.x2), max(item.y1, item.y2))
    if isinstance(item, Rect):
        half = item.paint.width / 2 if item.paint.stroke else 0.0
        return (item.x - half, item.y - half, item.x + item.w + half, item.y + item.h + half)
    if isinstance(item, Circle):
        r = item.r + (item.paint.width / 2 if item.paint.stroke else 0.0)
        return (item.cx - r, item.cy - r, item.cx + r, item.cy + r)
    if isinstance(item, Path_):
        xs = [v for op in item.ops for v in op[1::2]]
        ys = [v for op in item.ops for v in op[2::2]]
        return (min(xs), min(ys), max(xs), max(ys))
    width = text_width(item.text, item.size, item.weight)
    x0 = -(width / 2 if item.anchor == "middle" else width if item.anchor == "end" else 0.0)
    corners = [(x0, -0.73 * item.size * PT), (x0 + width, 0.2 * item.size * PT)]
    a = math.radians(item.angle)  # counter-clockwise as seen on the page, y down
    turned = [(u * math.cos(a) + v * math.sin(a), -u * math.sin(a) + v * math.cos(a)) for u, v in corners]
    xs, ys = [item.x + u for u, _ in turned], [item.y + v for _, v in turned]
    return (min(xs), min(ys), max(xs), max(ys))


def turned_half(item, cx: float, cy: float):
    """A primitive turned half a turn about ``(cx, cy)``, in a canonical rounded form for comparison."""
    r = lambda v: round(v, 3)  # noqa: E731
    if isinstance(item, Line):
        a, b = (r(2 * cx - item.x1), r(2 * cy - item.y1)), (r(2 * cx - item.x2), r(2 * cy - item.y2))
        return ("L", tuple(sorted((a, b))), item.paint)
    if isinstance(item, Rect):
        return ("R", r(2 * cx - item.x - item.w), r(2 * cy - item.y - item.h), r(item.w), r(item.h), item.paint)
    if isinstance(item, Circle):
        return ("C", r(2 * cx - item.cx), r(2 * cy - item.cy), r(item.r), item.paint)
    if isinstance(item, Path_):
        ops = tuple((op[0], *[r(2 * (cx if k % 2 == 0 else cy) - v) for k, v in enumerate(op[1:])]) for op in item.ops)
        return ("P", ops, item.paint)
    return (
        "T",
        r(2 * cx - item.x),
        r(2 * cy - item.y),
        item.text,
        r(item.size),
        item.anchor,
        item.color,
        r((item.angle + 180) % 360),
    )


def canonical(item, dx: float = 0.0, dy: float = 0.0):
    """A primitive moved by ``(-dx, -dy)``, in the same canonical form as :func:`turned_half`."""
    r = lambda v: round(v, 3)  # noqa: E731
    if isinstance(item, Line):
        return (
            "L",
            tuple(sorted(((r(item.x1 - dx), r(item.y1 - dy)), (r(item.x2 - dx), r(item.y2 - dy))))),
            item.paint,
        )
    if isinstance(item, Rect):
        return ("R", r(item.x - dx), r(item.y - dy), r(item.w), r(item.h), item.paint)
    if isinstance(item, Circle):
        return ("C", r(item.cx - dx), r(item.cy - dy), r(item.r), item.paint)
    if isinstance(item, Path_):
        return (
            "P",
            tuple((op[0], *[r(v - (dx if k % 2 == 0 else dy)) for k, v in enumerate(op[1:])]) for op in item.ops),
            item.paint,
        )
    return ("T", r(item.x - dx), r(item.y - dy), item.text, r(item.size), item.anchor, item.color, r(item.angle % 360))


def same_pictures(a: list, b: list, tol: float = 0.002, *, within: bool = False) -> bool:
    """Two lists of canonical primitives hold the same ones, numbers equal within ``tol`` mm (``within``: every
    one of ``a`` is in ``b``)."""

    def flat(c):
        nums, rest = [], []
        for v in c:
            if isinstance(v, float | int) and not isinstance(v, bool):
                nums.append(float(v))
            elif isinstance(v, tuple):
                n, r = flat(v)
                nums += n
                rest.append(r)
            else:
                rest.append(v)
        return nums, tuple(rest)

    pool = [flat(c) for c in b]
    if len(a) != len(b) and not within:
        return False
    for c in a:
        nums, rest = flat(c)
        for k, (n2, r2) in enumerate(pool):
            if r2 == rest and len(n2) == len(nums) and all(abs(u - v) <= tol for u, v in zip(nums, n2)):
                del pool[k]
                break
        else:
            return False
    return True


def is_two_way(items, cx: float, cy: float) -> bool:
    """The drawing is the same turned half a turn: every primitive has its turned twin (or is its own)."""
    return same_pictures([canonical(i) for i in items], [turned_half(i, cx, cy) for i in items])


# --- the poker deck -----------------------------------------------------------------------------------

STANDARD = {2: (2, 2), 3: (3, 3), 4: (4, 0), 5: (5, 1), 6: (6, 0), 7: (7, 1), 8: (8, 2), 9: (9, 1), 10: (10, 2)}
"""Number card → (pips, pips in the middle column), the layouts of a shop deck."""


def pips(scene: Scene, suit_colour: str) -> list[Path_]:
    """The suit shapes of the card's field: between the corner indices, 6 to 12 mm tall."""
    x, y, w, h = BOX
    out = []
    for p in scene.items:
        if isinstance(p, Path_) and p.paint.fill == suit_colour:
            x0, y0, x1, y1 = bbox(p)
            if 6.0 <= y1 - y0 <= 12.0 and x + 12 < (x0 + x1) / 2 < x + w - 12:
                out.append(p)
    return out


@pytest.mark.parametrize("suit", "SHDC")
@pytest.mark.parametrize("rank", range(2, 11))
def test_number_cards_have_the_standard_pips_two_way(rank, suit):
    colour = RED if suit in "HD" else BLACK
    scene = draw("poker-deck", f"{rank}{suit}")
    found = pips(scene, colour)
    total, middle = STANDARD[rank]
    cx, cy = BOX[0] + BOX[2] / 2, BOX[1] + BOX[3] / 2
    centres = [((bbox(p)[0] + bbox(p)[2]) / 2, (bbox(p)[1] + bbox(p)[3]) / 2) for p in found]
    assert len(found) == total
    assert sum(1 for px, _ in centres if abs(px - cx) < 0.5) == middle
    # two-way: every pip below the middle is the turned twin of a pip above it (the 7's extra pip is above)
    upper = [turned_half(p, cx, cy) for p, (_, py) in zip(found, centres) if py < cy - 0.5]
    lower = [canonical(p) for p, (_, py) in zip(found, centres) if py > cy + 0.5]
    assert len(upper) - len(lower) == (1 if rank == 7 else 0)
    assert same_pictures(lower, upper, within=True)


def test_aces_have_one_large_pip():
    for suit in "SHDC":
        scene = draw("poker-deck", f"A{suit}")
        colour = RED if suit in "HD" else BLACK
        large = [
            p for p in scene.items if isinstance(p, Path_) and p.paint.fill == colour and bbox(p)[3] - bbox(p)[1] > 20
        ]
        assert len(large) == 1


@pytest.mark.parametrize("name", ["AS", "10H", "QD", "7C"])
def test_corner_indices_are_about_5_mm_and_two_way(name):
    scene = draw("poker-deck", name)
    label = name[:-1]
    texts = [t for t in scene.items if isinstance(t, Text) and t.text == label and t.size > 10]
    assert {t.angle % 360 for t in texts} == {0.0, 180.0}
    cap = 0.73 * texts[0].size * PT
    assert (4.0 if label == "10" else 4.8) <= cap <= 5.2
    x, y, w, h = BOX
    corner = [t for t in texts if t.angle == 0 and t.x < x + 12 and t.y < y + 12]
    assert corner, "an index in the top-left corner"


@pytest.mark.parametrize("suit", "SHDC")
def test_courts_are_two_way_and_tell_apart(suit):
    x, y, w, h = BOX
    drawn = {}
    for rank in "JQK":
        scene = draw("poker-deck", f"{rank}{suit}")
        assert is_two_way(scene.items[1:], x + w / 2, y + h / 2), rank  # all but the bleed background
        drawn[rank] = Counter(canonical(i) for i in scene.items if not isinstance(i, Text))
    # apart from the letters, each figure has shapes the others lack (crown, beard, cap, hair, rose)
    assert drawn["J"] - drawn["Q"] and drawn["Q"] - drawn["K"] and drawn["K"] - drawn["J"]
    assert sum((drawn["K"] - drawn["J"]).values()) >= 6


def test_the_two_jokers_differ_and_are_two_way():
    deck = load_any(IDS["poker-deck"])
    jokers = [i for i in deck_items(deck) if i.name == "JK"]
    assert len(jokers) == 2
    scenes = []
    for item in jokers:
        scene = Scene(210, 297)
        item.front(scene, BOX, BLEED)
        scenes.append(scene)
        assert is_two_way(scene.items[1:], BOX[0] + BOX[2] / 2, BOX[1] + BOX[3] / 2)
    fills = [{i.paint.fill for i in s.items if isinstance(i, Path_)} for s in scenes]
    assert fills[0] != fills[1]


# --- Flip 7 and Fundex ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item_id", "name"),
    [
        ("flip7-deck", "Freeze"),
        ("flip7-deck", "Flip Three"),
        ("flip7-deck", "Second Chance"),
        ("flip7-deck", "+4"),
        ("flip7-deck", "x2"),
    ],
)
def test_action_and_modifier_cards_have_a_corner_index_and_an_icon(item_id, name):
    scene = draw(item_id, name)
    x, y, w, h = BOX
    near = lambda i, cx, cy: abs((bbox(i)[0] + bbox(i)[2]) / 2 - cx) < 8 and abs((bbox(i)[1] + bbox(i)[3]) / 2 - cy) < 9  # noqa: E731
    top = [i for i in scene.items[1:] if near(i, x + 8, y + 8)]
    bottom = [i for i in scene.items[1:] if near(i, x + w - 8, y + h - 8)]
    assert top and len(top) == len(bottom)  # the corner mark, and the same turned in the opposite corner
    assert same_pictures([canonical(i) for i in bottom], [turned_half(i, x + w / 2, y + h / 2) for i in top])
    if name in ("Freeze", "Flip Three", "Second Chance"):  # the large icon above the name
        big = [i for i in scene.items if y + 15 < (bbox(i)[1] + bbox(i)[3]) / 2 < y + 35 and not isinstance(i, Text)]
        assert big


def test_number_cards_are_a_colour_field():
    from generator.printing.faces import FLIP7_COLORS

    for value in (0, 7, 12):
        scene = draw("flip7-deck", str(value))
        field = scene.items[0]
        assert isinstance(field, Rect) and field.paint.fill == FLIP7_COLORS[value]
        assert field.w == pytest.approx(63 + 6) and field.h == pytest.approx(88 + 6)


def test_fundex_numbers_have_their_own_look_and_the_13_fits():
    flip7 = draw("flip7-deck", "12")
    fundex = draw("fundex-cards", "Red 13")
    assert {type(i) for i in fundex.items} != {type(i) for i in flip7.items} or fundex.items[
        0
    ].paint.fill != flip7.items[0].paint.fill
    x, y, w, h = BOX
    for t in (t for t in fundex.items if isinstance(t, Text) and t.text == "13"):
        x0, y0, x1, y1 = bbox(t)
        if not t.angle:
            assert x + 3.0 <= x0 and x1 <= x + w - 3.0


def test_text_cards_fill_their_face_with_bold_lead_words():
    scene = draw("flipflop-reference", "Cards and pots")
    bold = [t.text for t in scene.items if isinstance(t, Text) and t.weight == "bold"]
    assert "Values:" in bold and "Short of stakes?" in bold
    assert not any("**" in t.text for t in scene.items if isinstance(t, Text))
    fundex = draw("fundex-cards", "How to play")
    fundex_bold = [t.text for t in fundex.items if isinstance(t, Text) and t.weight == "bold" and t.size < 12]
    assert "Roll." in fundex_bold and "Short of chips?" in fundex_bold  # lead words after a bullet
    assert not any("**" in t.text for t in fundex.items if isinstance(t, Text))
    body = [t for t in fundex.items if isinstance(t, Text) and t.size < 12]
    x, y, w, h = BOX
    assert max(t.y for t in body) > y + h - 20  # the text runs to the foot of the card
    assert min(t.size for t in body) >= 6.5


# --- nothing thin near the cut ----------------------------------------------------------------------------


def _all_cards():
    for item_id in DECKS:
        deck = load_any(IDS[item_id])
        seen = set()
        for item in deck_items(deck):
            if item.name not in seen:
                seen.add(item.name)
                yield item_id, item


def test_no_outline_or_thin_border_within_3_mm_of_the_cut():
    x, y, w, h = BOX
    inner = (x + 3.0, y + 3.0, x + w - 3.0, y + h - 3.0)
    problems = []
    for item_id, item in _all_cards():
        for side, fn in (("front", item.front), ("back", item.back)):
            scene = Scene(210, 297)
            fn(scene, BOX, BLEED)
            for p in scene.items:
                x0, y0, x1, y1 = bbox(p)
                stroked = not isinstance(p, Text) and p.paint.stroke is not None
                if stroked and not (
                    inner[0] - 0.01 <= x0 and x1 <= inner[2] + 0.01 and inner[1] - 0.01 <= y0 and y1 <= inner[3] + 0.01
                ):
                    problems.append((item_id, item.name, side, "outline", p))
                if isinstance(p, Rect) and p.paint.fill and not p.paint.stroke:  # a fill edge parallel to the cut
                    edges = [(p.x, x), (p.x + p.w, x + w), (p.y, y), (p.y + p.h, y + h)]
                    for edge, cut in edges:
                        if 0.01 < abs(edge - cut) < 3.0 and (
                            x - 0.01 <= edge <= x + w + 0.01
                            if edges.index((edge, cut)) < 2
                            else y - 0.01 <= edge <= y + h + 0.01
                        ):
                            problems.append((item_id, item.name, side, "thin border", p))
    assert problems == []


# --- backs ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("paper_id", PAPERS)
@pytest.mark.parametrize("item_id", DECKS)
def test_every_back_on_a_page_is_the_same_picture_and_reads_the_same_upside_down(item_id, paper_id):
    pages, m = pages_for(load_any(IDS[item_id]), paper(paper_id), PrintOptions())
    bx, by = m["bleed"]["x"], m["bleed"]["y"]
    for scene, page in zip(pages, m["pages"]):
        if page["side"] != "back":
            continue
        pictures = []
        for entry in page["items"]:
            x, y, w, h = entry["trim"]
            inside = [
                i
                for i in scene.items
                if x - bx - 0.01 <= bbox(i)[0]
                and bbox(i)[2] <= x + w + bx + 0.01
                and y - by - 0.01 <= bbox(i)[1]
                and bbox(i)[3] <= y + h + by + 0.01
                and not (
                    isinstance(i, Line) and i.paint.stroke in ("#000000", "#ffffff") and i.paint.width in (0.2, 0.7)
                )
            ]
            assert len(inside) > 10
            assert is_two_way(inside, x + w / 2, y + h / 2)
            pictures.append([canonical(i, x, y) for i in inside])
        assert all(same_pictures(p, pictures[0]) for p in pictures[1:])


# --- the printed page -----------------------------------------------------------------------------------------


def _art_boxes(m) -> list[tuple[float, float, float, float]]:
    if m["kind"] == "chips":
        b = m["chip"]["bleed"]
        return [
            (x - b, y - b, x + w + b, y + h + b) for p in m["pages"] for x, y, w, h in (it["trim"] for it in p["items"])
        ]
    bx, by = m["bleed"]["x"], m["bleed"]["y"]
    return [
        (x - bx, y - by, x + w + bx, y + h + by) for p in m["pages"] for x, y, w, h in (it["trim"] for it in p["items"])
    ]


@pytest.mark.parametrize("paper_id", PAPERS)
@pytest.mark.parametrize("item_id", [*DECKS, "fundex-chips"])
def test_nothing_but_bleed_within_4_5_mm_of_the_paper_edge(item_id, paper_id):
    pap = paper(paper_id)
    pages, m = pages_for(load_any(IDS[item_id]), pap, PrintOptions())
    for scene, page in zip(pages, m["pages"]):
        art = _art_boxes({**m, "pages": [page]})
        for p in scene.items:
            x0, y0, x1, y1 = bbox(p)
            in_art = any(
                a[0] - 0.01 <= x0 and x1 <= a[2] + 0.01 and a[1] - 0.01 <= y0 and y1 <= a[3] + 0.01 for a in art
            )
            clear = (
                x0 >= 4.5 - 0.01 and y0 >= 4.5 - 0.01 and x1 <= pap.width - 4.5 + 0.01 and y1 <= pap.height - 4.5 + 0.01
            )
            assert in_art or clear, (page["page"], p)
        for x, y, w, h in (it["trim"] for it in page["items"]):  # the cut itself is printable
            assert x >= 4.5 and y >= 4.5 and x + w <= pap.width - 4.5 and y + h <= pap.height - 4.5


@pytest.mark.parametrize("paper_id", PAPERS)
@pytest.mark.parametrize("item_id", DECKS)
def test_bleed_of_at_least_2_mm_on_every_side(item_id, paper_id):
    _, m = pages_for(load_any(IDS[item_id]), paper(paper_id), PrintOptions())
    assert m["bleed"]["x"] >= 2.0 and m["bleed"]["y"] >= 2.0
    # and the gutters hold both neighbours' bleed: no two bleed boxes of a page overlap
    for page in m["pages"]:
        art = _art_boxes({**m, "pages": [page]})
        for i, a in enumerate(art):
            for b in art[i + 1 :]:
                assert a[2] <= b[0] + 0.01 or b[2] <= a[0] + 0.01 or a[3] <= b[1] + 0.01 or b[3] <= a[1] + 0.01


@pytest.mark.parametrize("paper_id", PAPERS)
@pytest.mark.parametrize("item_id", [*DECKS, "fundex-chips"])
def test_scale_bars_measure_true_and_are_clear_of_the_art(item_id, paper_id):
    pages, m = pages_for(load_any(IDS[item_id]), paper(paper_id), PrintOptions())
    for scene, page in zip(pages, m["pages"]):
        art = _art_boxes({**m, "pages": [page]})
        bars = [ln for ln in scene.items if isinstance(ln, Line) and ln.paint.stroke == "#333333"]
        lengths = sorted(round(math.hypot(ln.x2 - ln.x1, ln.y2 - ln.y1), 2) for ln in bars)
        assert 50.0 in lengths and 50.8 in lengths
        footer = [t for t in scene.items if isinstance(t, Text) and t.text.startswith("sheetsmith ·")]
        assert len(footer) == 1
        for p in [*bars, *footer]:
            x0, y0, x1, y1 = bbox(p)
            assert not any(x0 < a[2] and a[0] < x1 and y0 < a[3] and a[1] < y1 for a in art), p


@pytest.mark.parametrize("paper_id", PAPERS)
@pytest.mark.parametrize("item_id", DECKS)
def test_crop_marks_mark_every_cut_line_of_the_manifest_twice_and_nothing_else(item_id, paper_id):
    pages, m = pages_for(load_any(IDS[item_id]), paper(paper_id), PrintOptions())
    for scene, page in zip(pages, m["pages"]):
        boxes = [it["trim"] for it in page["items"]]
        xs = {round(v, 2) for x, _, w, _ in boxes for v in (x, x + w)}
        ys = {round(v, 2) for _, y, _, h in boxes for v in (y, y + h)}
        marks = [
            ln for ln in scene.items if isinstance(ln, Line) and ln.paint.stroke == "#000000" and ln.paint.width == 0.2
        ]
        vertical = Counter(round(ln.x1, 2) for ln in marks if ln.x1 == ln.x2)
        horizontal = Counter(round(ln.y1, 2) for ln in marks if ln.y1 == ln.y2)
        assert set(vertical) == xs and set(horizontal) == ys
        assert min(vertical.values()) >= 2 and min(horizontal.values()) >= 2
        for ln in marks:  # no mark enters a card
            for x, y, w, h in boxes:
                assert not (
                    x + 0.01 < max(ln.x1, ln.x2)
                    and min(ln.x1, ln.x2) < x + w - 0.01
                    and y + 0.01 < max(ln.y1, ln.y2)
                    and min(ln.y1, ln.y2) < y + h - 0.01
                )


# --- chips --------------------------------------------------------------------------------------------------------


def test_chips_run_past_the_cut_and_the_1_chip_shows(tmp_path):
    pages, m = pages_for(load_any(IDS["fundex-chips"]), paper("a4"), PrintOptions())
    r = m["chip"]["diameter"] / 2
    for scene, page in zip(pages, m["pages"]):
        discs = [c for c in scene.items if isinstance(c, Circle) and c.paint.fill and c.r > r]
        assert len(discs) == len(page["items"])
        assert all(c.r == pytest.approx(r + 1.5) for c in discs)
    front, back = m["pages"][0], m["pages"][1]
    assert back["side"] == "back"
    for f, b in zip(front["items"], back["items"]):
        assert b["value"] == f["value"] and b["trim"][0] == pytest.approx(210 - f["trim"][0] - f["trim"][2])
    chips = load_any(IDS["fundex-chips"])
    assert all(contrast_with_white(c.color) >= 1.8 for c in chips.chips) and chips.warnings == []
    # WCAG contrast, worked by hand: white 1.0, the old near-white #f4f6f7 1.08, black 21
    assert contrast_with_white("#ffffff") == pytest.approx(1.0) and contrast_with_white("#000000") == pytest.approx(
        21.0
    )
    assert contrast_with_white("#f4f6f7") == pytest.approx(1.08, abs=0.01)
    mine = tmp_path / "chips.yaml"
    mine.write_text(
        'kind: chips\ngame: fundex\nname: "Mine"\nchips:\n  - {value: 1, count: 2, color: "#f4f6f7"}\n',
        encoding="utf-8",
    )
    warned = load_any(mine).warnings
    assert [(w.line, w.severity) for w in warned] == [(5, "warning")] and "nearly white" in warned[0].message


def test_chips_that_do_not_fit_are_refused(tmp_path):
    mine = tmp_path / "chips.yaml"
    mine.write_text(
        'kind: chips\ngame: fundex\nname: "Big"\ndiameter: 60\nchips:\n  - {value: 1, count: 2}\n', encoding="utf-8"
    )
    pages, _ = pages_for(load_any(mine), paper("a4"), PrintOptions())
    assert pages  # 60 mm chips still fit A4
    with pytest.raises(InputError):
        from generator.printing.chips import chip_pages
        from generator.printing.paper import Paper

        chip_pages(load_any(mine), Paper("tiny", 60, 60, "tiny"))


@pytest.mark.parametrize(
    ("item_id", "name"), [("fundex-cards", "Blue 6"), ("fundex-cards", "Gold 9"), ("flip7-deck", "9")]
)
def test_every_6_and_9_is_underlined_in_its_corners_and_middle(item_id, name):
    scene = draw(item_id, name)
    label = name.split()[-1]
    for t in (t for t in scene.items if isinstance(t, Text) and t.text == label):
        x0, y0, x1, y1 = bbox(t)
        below = [
            ln
            for ln in scene.items
            if isinstance(ln, Line)
            and ln.y1 == ln.y2
            and x0 - 1 < min(ln.x1, ln.x2) < (x0 + x1) / 2 < max(ln.x1, ln.x2) < x1 + 7
            and (0 < ln.y1 - t.y < 4 if t.angle == 0 else 0 < t.y - ln.y1 < 4)
        ]
        assert below, t


def test_a_lead_marker_never_closed_is_not_printed(tmp_path):
    mine = tmp_path / "deck.yaml"
    mine.write_text(
        'kind: deck\ngame: test\nname: "T"\nback: {title: "T"}\ncards:\n'
        '  - {type: text, title: "Rules", body: ["**Open lead and more", "**Lead:** rest"]}\n',
        encoding="utf-8",
    )
    item = deck_items(load_any(mine))[0]
    scene = Scene(210, 297)
    item.front(scene, BOX, BLEED)
    texts = [(t.text, t.weight) for t in scene.items if isinstance(t, Text)]
    assert ("Open lead and more", "regular") in texts and ("Lead:", "bold") in texts
    assert not any("**" in text for text, _ in texts)
