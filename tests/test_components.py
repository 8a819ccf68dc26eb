"""Print-and-play components: decks, chips, imposition, manifests.

Expected counts come from the rulebooks: the All In deck is a poker deck with
both Jokers (54); Flip 7 has 94 cards (one 0, one 1, then n copies of n up to
12, six modifiers, three of each action); All In (Fundex) has four sets of
1-13 and four instruction cards, and 36 chips, 1-1-2-2-2-2-5-5-5 per player
for four players (8 ones, 16 twos, 12 fives).
"""

from __future__ import annotations

from collections import Counter

import pypdfium2 as pdfium
import pytest

from generator.core.errors import InputError
from generator.core.shipped import shipped_layouts
from generator.games.registry import load_any, pages_for
from generator.printing.backends.pdf import render_pdf
from generator.printing.impose import PRINT_EDGE, PrintOptions
from generator.printing.paper import paper

IDS = {s.id: s.path for s in shipped_layouts()}
PAPERS = ["a4", "letter"]


def manifest_of(item_id, paper_id="a4", **opts):
    pages, manifest = pages_for(load_any(IDS[item_id]), paper(paper_id), PrintOptions(**opts))
    return pages, manifest


def fronts(manifest):
    return [it for p in manifest["pages"] if p["side"] == "front" for it in p["items"]]


def test_poker_deck_has_54_cards_with_two_jokers():
    _, m = manifest_of("poker-deck")
    names = Counter(it["name"] for it in fronts(m))
    assert sum(names.values()) == 54
    assert names["JK"] == 2
    assert len([n for n in names if n != "JK"]) == 52 and all(names[n] == 1 for n in names if n != "JK")


def test_flip7_deck_by_type_and_value():
    _, m = manifest_of("flip7-deck")
    names = Counter(it["name"] for it in fronts(m))
    assert sum(names.values()) == 94
    assert names["0"] == 1 and names["1"] == 1
    for n in range(2, 13):
        assert names[str(n)] == n
    assert sum(names[str(n)] for n in range(13)) == 79
    assert sum(n * names[str(n)] for n in range(13)) == 650
    for mod in ("x2", "+2", "+4", "+6", "+8", "+10"):
        assert names[mod] == 1
    for action in ("Freeze", "Flip Three", "Second Chance"):
        assert names[action] == 3


def test_fundex_cards_and_chips():
    _, m = manifest_of("fundex-cards")
    names = Counter(it["name"] for it in fronts(m))
    assert names["How to play"] == 4
    numbers = [n for n in names if n != "How to play"]
    assert len(numbers) == 52
    for colour in ("Red", "Blue", "Green", "Gold"):
        assert sorted(int(n.split()[1]) for n in numbers if n.startswith(colour)) == list(range(1, 14))
    _, chips = manifest_of("fundex-chips")
    values = Counter(it["value"] for it in fronts(chips))
    assert values == {1: 8, 2: 16, 5: 12}
    backs = [it for p in chips["pages"] if p["side"] == "back" for it in p["items"]]
    assert Counter(it["value"] for it in backs) == {1: 8, 2: 16, 5: 12}


def test_flipflop_reference_cards():
    _, m = manifest_of("flipflop-reference")
    assert Counter(it["name"] for it in fronts(m)) == {"Cards and pots": 5, "Spreads and round end": 5}


@pytest.mark.parametrize("item_id", ["poker-deck", "flip7-deck", "fundex-cards", "flipflop-reference"])
@pytest.mark.parametrize("paper_id", PAPERS)
def test_geometry(item_id, paper_id):
    pap = paper(paper_id)
    offset = (0.8, -0.5)
    pages, m = manifest_of(item_id, paper_id, back_offset=offset)
    turned = paper_id == "letter"  # 3 rows of 88 mm cards with 2 mm bleed need 272 mm; Letter has 279.4 - 2 x 4.5
    assert m["grid"] == {"cols": 2 if turned else 3, "rows": 4 if turned else 3, "turned": turned}
    for page in m["pages"]:
        boxes = [it["trim"] for it in page["items"]]
        assert len(boxes) <= (8 if turned else 9)
        for item in page["items"]:
            x, y, w, h = item["trim"]
            assert (w, h) == ((88.0, 63.0) if turned else (63.0, 88.0))
            assert item.get("turned") == (90 if turned else None)
            if page["side"] == "front":
                assert x >= PRINT_EDGE and y >= PRINT_EDGE
                assert x + w <= pap.width - PRINT_EDGE and y + h <= pap.height - PRINT_EDGE
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]
    # each back at the mirror position of its front (long-edge flip), plus the offset
    for front, back in zip(m["pages"][0::2], m["pages"][1::2]):
        assert back["side"] == "back"
        for f, b in zip(front["items"], back["items"]):
            assert b["of"] == f["name"]
            fx, fy, fw, fh = f["trim"]
            assert b["trim"][0] == pytest.approx(pap.width - fx - fw + offset[0], abs=0.01)
            assert b["trim"][1] == pytest.approx(fy + offset[1], abs=0.01)


def test_bleed_is_what_fits_and_is_reported():
    _, m = manifest_of("poker-deck", "a4", bleed=3.0)
    # A4 across: 3 x 63 + 2 gutters of 2 x 3 = 201 mm, which leaves exactly 4.5 mm at each edge
    assert m["bleed"] == {"x": 3.0, "y": 3.0, "requested": 3.0}
    _, m = manifest_of("poker-deck", "a4", bleed=5.0)
    # across, 189 + 4b <= 210 - 9 allows b = 3 at most; down, 297 - 264 - 4b must hold the bleed below the
    # last row, 4.5 mm above the first and 4.5 + 3 + 1 mm for the scale bars: 33 - 4b >= 13 + b, b = 4
    assert m["bleed"]["x"] == 3.0 and m["bleed"]["y"] == 4.0
    _, m = manifest_of("poker-deck", "a4", bleed=0.0)
    assert m["bleed"] == {"x": 0.0, "y": 0.0, "requested": 0.0}
    _, m = manifest_of("poker-deck", "letter", bleed=3.0)
    # turned cards on Letter: 4 rows of 63 + 3 gutters of 6 = 270 <= 279.4 - 9; 2 columns of 88 leave plenty
    assert m["bleed"]["x"] == 3.0 and m["bleed"]["y"] == 3.0


def test_card_size_options():
    _, m = manifest_of("poker-deck", "letter", card_size="poker-in")
    assert fronts(m)[0]["trim"][2:] == [88.9, 63.5] and fronts(m)[0]["turned"] == 90
    # 4 rows of 63.5 and 3 gutters of 2b within 279.4 - 9 mm: b <= 2.73, cut to the 0.05 mm step below
    assert m["bleed"]["y"] == 2.7
    _, m = manifest_of("poker-deck", "a4", card_size="bridge")
    assert fronts(m)[0]["trim"][2:] == [57.15, 88.9]
    _, m = manifest_of("poker-deck", "a4", card_size="poker-in")
    # 3 x 63.5 = 190.5 and 4b more within 201 mm: b <= 2.625, so 2.6 across, the full 3 mm down
    assert m["grid"]["cols"] == 3 and m["bleed"]["x"] == 2.6 and m["bleed"]["y"] == 3.0


def test_no_backs():
    pages, m = manifest_of("poker-deck", "a4", backs=False)
    assert len(pages) == 6 and {p["side"] for p in m["pages"]} == {"front"}
    pages, m = manifest_of("poker-deck", "letter", backs=False)
    assert len(pages) == 7  # 54 cards, 8 to a page


def test_pdf_text_shows_the_card_labels():
    pages, _ = manifest_of("flip7-deck")
    doc = pdfium.PdfDocument(render_pdf(pages))
    text = "".join(doc[i].get_textpage().get_text_range() for i in range(0, len(doc), 2))  # fronts pages
    assert text.count("Freeze") == 3 and text.count("Flip Three") == 3 and text.count("Second Chance") == 3
    assert text.count("MODIFIER") == 6
    doc.close()


def deck_problems(tmp_path, text):
    path = tmp_path / "deck.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_any(path)
    return [(p.line, p.col, p.message) for p in exc.value.problems]


DECK = """\
kind: deck
game: test
name: "Test deck"
back: {title: "T"}
cards:
  - {type: number, values: [1, 2, 3]}
  - {type: modifier, label: "+2", count: 2}
"""


def test_deck_unknown_card_type(tmp_path):
    probs = deck_problems(tmp_path, DECK.replace("type: modifier", "type: wild"))
    assert [(line, col) for line, col, _ in probs] == [(7, 12)]
    assert "cards.1.type must be 'playing', 'joker', 'number', 'modifier', 'action' or 'text'" in probs[0][2]


def test_deck_negative_count(tmp_path):
    probs = deck_problems(tmp_path, DECK.replace("count: 2", "count: -1"))
    assert [(line, col) for line, col, _ in probs] == [(7, 42)]
    assert "greater than or equal to 0" in probs[0][2]


def test_deck_entry_missing_a_field(tmp_path):
    probs = deck_problems(
        tmp_path, DECK.replace('{type: modifier, label: "+2", count: 2}', "{type: modifier, count: 2}")
    )
    assert probs[0][0] == 7 and "a 'modifier' card needs label" in probs[0][2]


def test_deck_bad_card_size_and_rank(tmp_path):
    probs = deck_problems(tmp_path, DECK.replace('name: "Test deck"', 'name: "Test deck"\ncard_size: tarot'))
    assert probs == [(4, 12, "card_size 'tarot' is not one of poker, poker-in, bridge")]
    probs = deck_problems(
        tmp_path,
        DECK.replace("  - {type: number, values: [1, 2, 3]}", "  - {type: playing, ranks: [A, 1], suits: [S]}"),
    )
    assert probs[0][0] == 6 and "'1S' is not a card" in probs[0][2]


def test_deck_playing_entry_spelling_the_jokers_code_is_refused(tmp_path):
    # Rank J with suit K reads as "JK", the Joker's code; a Joker is its own card type.
    probs = deck_problems(
        tmp_path,
        DECK.replace("  - {type: number, values: [1, 2, 3]}", "  - {type: playing, ranks: [J], suits: [S, K]}"),
    )
    assert len(probs) == 1 and probs[0][0] == 6
    assert "'JK' is not a card" in probs[0][2] and "type: joker" in probs[0][2]
