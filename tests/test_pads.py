"""Score pads and ledgers: they render for 3, 6 and 18 players, carry every tick box, and print their variant;
the score pad's score cells say points, the tick pad's numbers are headed in their cards' colours."""

from __future__ import annotations

import subprocess
import sys

import pypdfium2 as pdfium
import pytest

from generator.core.errors import InputError
from generator.core.shipped import shipped_layouts
from generator.games.pads import ACCENT, DROPOUT, build_pad, build_pad_pages, page_players, with_variant
from generator.games.registry import load_any, pages_for
from generator.printing.backends.pdf import render_pdf
from generator.printing.faces import FLIP7_COLORS
from generator.printing.paper import paper
from generator.printing.scene import Rect, Text

IDS = {s.id: s.path for s in shipped_layouts()}


def pdf_text(item, paper_id="a4"):
    pages, _ = pages_for(item, paper(paper_id))
    doc = pdfium.PdfDocument(render_pdf(pages))
    w, h = doc[0].get_size()
    text = doc[0].get_textpage().get_text_range()
    doc.close()
    return text, (w, h), pages[0]


def pad_file(tmp_path, players, orientation="portrait", rounds=12):
    path = tmp_path / f"pad{players}.yaml"
    path.write_text(
        f"kind: pad\ngame: flip7\nname: 'Pad'\norientation: {orientation}\nplayers: {players}\nrounds: {rounds}\n",
        encoding="utf-8",
    )
    return load_any(path)


@pytest.mark.parametrize("players", [3, 6, 18])
def test_score_pad_for_3_6_18_players(tmp_path, players):
    pad = pad_file(tmp_path, players, "landscape" if players > 6 else "portrait")
    text, (w, h), scene = pdf_text(pad)
    assert (w > h) == (players > 6)  # 18 players: landscape
    for p in range(1, players + 1):
        assert f"player {p}" in text
    names = [m for m in scene.marks if m.kind == "name"]
    writes = [m for m in scene.marks if m.kind == "write"]
    assert len(names) == players and len(writes) == players * 12 * 2  # round and total per player per round
    assert "TARGET" in text and "200" in text
    # every write-in box at least 7 mm wide, all inside the page margins
    assert min(m.w for m in writes) >= 7.0
    assert all(m.x >= 9.9 and m.x + m.w <= scene.width - 9.9 for m in writes)


def test_pad_for_36_players_on_two_pages(tmp_path):
    # Rulebook, Setup: beyond 18 players a second deck is added; the shipped
    # 36-player pad puts players 1-18 on page 1 and 19-36 on page 2, numbered on.
    pad = load_any(IDS["flip7-pad-36"])
    pages, _ = pages_for(pad, paper("a4"))
    assert len(pages) == 2
    doc = pdfium.PdfDocument(render_pdf(pages))
    texts = [doc[i].get_textpage().get_text_range() for i in range(2)]
    assert all(doc[i].get_size()[0] > doc[i].get_size()[1] for i in range(2))  # landscape
    doc.close()
    for i, (lo, hi) in enumerate([(1, 18), (19, 36)]):
        numbers = {int(m.owner[len("player") :]) for m in pages[i].marks if m.kind == "name"}
        assert numbers == set(range(lo, hi + 1))
        assert f"page {i + 1} of 2" in texts[i] and f"players {lo}–{hi} of 36" in texts[i]
        assert "two decks" in texts[i] and "TARGET" in texts[i]
        writes = [m for m in pages[i].marks if m.kind == "write"]
        assert len(writes) == 18 * 14 * 2 and min(m.w for m in writes) >= 7.0
        assert all(m.x >= 9.9 and m.x + m.w <= pages[i].width - 9.9 for m in writes)
    assert "player 19" not in texts[0] and "player 18" not in texts[1]


@pytest.mark.parametrize(
    "players, groups",
    [(3, [(1, 3)]), (18, [(1, 18)]), (19, [(1, 10), (11, 19)]), (24, [(1, 12), (13, 24)]), (36, [(1, 18), (19, 36)])],
)
def test_pad_pages_share_players_evenly(tmp_path, players, groups):
    pad = pad_file(tmp_path, players, "landscape")
    got = [(r[0], r[-1]) for r in page_players(pad)]
    assert got == groups


def test_pad_player_counts(tmp_path):
    # 1 or 2 players: drawn, with a warning (the game is made for 3 to 18)
    two = pad_file(tmp_path, 2)
    (w,) = two.warnings
    assert w.severity == "warning" and w.line == 5 and "2 players" in w.message
    assert pad_file(tmp_path, 3).warnings == []
    with pytest.raises(InputError) as exc:
        pad_file(tmp_path, 37, "landscape")
    assert exc.value.problems[0].line == 5


def test_tick_pad_has_every_box_in_the_pdf_text():
    text, _, scene = pdf_text(load_any(IDS["flip7-tick-pad"]))
    heads = text.split("score")[0]
    for label in [str(n) for n in range(13)] + ["×2", "+2", "+4", "+6", "+8", "+10", "BUST"]:
        assert label in heads
    ticks = [m for m in scene.marks if m.kind == "tick"]
    assert len(ticks) == 15 * 20  # 15 rounds × (13 numbers + 6 modifiers + bust)


def test_variant_from_option():
    pad = with_variant(load_any(IDS["flip7-pad"]), target=150, flip7_bonus=20)
    text, _, _ = pdf_text(pad)
    assert "first to 150 ends the game" in text and "Flip 7 bonus +20" in text and "150" in text


@pytest.mark.parametrize("text", ["target=200,target=300", "flip7_bonus=15, flip7_bonus=20"])
def test_a_variant_key_given_twice_is_refused(text):
    from generator.core.errors import SheetsmithError
    from generator.jobs.render import apply_variant

    with pytest.raises(SheetsmithError, match="is given twice; give it once"):
        apply_variant(load_any(IDS["flip7-pad"]), text)


def test_variant_on_the_command_line(tmp_path):
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator.cli.app",
            "render",
            "flip7-pad",
            "--variant",
            "target=300",
            "-o",
            str(tmp_path / "p.pdf"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 0, res.stderr
    doc = pdfium.PdfDocument(str(tmp_path / "p.pdf"))
    assert "first to 300" in doc[0].get_textpage().get_text_range()
    doc.close()
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator.cli.app",
            "render",
            "poker-deck",
            "--variant",
            "target=300",
            "-o",
            str(tmp_path / "d.pdf"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 2 and "--variant applies to Flip 7" in res.stderr


def test_ledgers_render():
    text, _, scene = pdf_text(load_any(IDS["fundex-ledger"]), "letter")
    assert "chip ledger, 10 rounds" in text and "player 4" in text and "player 5" not in text
    text, _, _ = pdf_text(load_any(IDS["flipflop-ledger"]))
    for word in ("game", "flip", "flop", "player 5"):
        assert word in text


def test_pad_errors_are_located(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("kind: ledger\ngame: fundex\nname: L\nplayers: 6\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_any(path)
    (p,) = exc.value.problems
    assert p.line == 1 and "fundex is played by 2 to 4 players, not 6" in p.message


# Each language's words for the score pad's columns, written here by hand: the round's number is the
# round; the score written in each round is its points.
POINTS = {"en": "pts", "it": "punti", "fr": "pts", "de": "Pkt."}
ROUND = {"en": "round", "it": "round", "fr": "manche", "de": "Runde"}


def _column_heads(scene, marks) -> list[str]:
    """The words printed over the columns of ``marks`` (write boxes of the first round): centred over each
    column, in the header just above the first row."""
    return [
        next(
            i.text
            for i in scene.items
            if isinstance(i, Text) and abs(i.x - (m.x + m.w / 2)) < 0.01 and m.y - 6.0 < i.y < m.y
        )
        for m in marks
    ]


@pytest.mark.parametrize("lang", ["en", "it", "fr", "de"])
@pytest.mark.parametrize("item", ["flip7-pad", "flip7-pad-18"])  # wide score cells (6 players) and narrow ones
def test_score_pad_score_cells_say_points_and_the_round_column_round(item, lang):
    pad = load_any(IDS[item])
    (scene,) = build_pad_pages(pad, paper("a4"), lang=lang)
    first = sorted((m for m in scene.marks if m.kind == "write" and m.key.startswith("round1:")), key=lambda m: m.x)
    scores = [m for m in first if not m.key.endswith(":total")]
    assert len(scores) == pad.players
    assert _column_heads(scene, scores) == [POINTS[lang]] * pad.players
    # the round column, left of the players: the round's word, printed there and over no score
    top = min(m.y for m in first)
    heads = [i for i in scene.items if isinstance(i, Text) and top - 6.0 < i.y < top]
    (label,) = [i for i in heads if i.x < first[0].x]
    assert label.text == ROUND[lang]
    assert [i.text for i in heads].count(ROUND[lang]) == 1


@pytest.mark.parametrize("paper_id", ["a4", "letter"])
def test_tick_pad_number_heads_in_their_cards_colours_over_unchanged_boxes(paper_id):
    scene = build_pad(load_any(IDS["flip7-tick-pad"]), paper(paper_id))
    ticks = {m.key: m for m in scene.marks if m.kind == "tick" and m.owner == "round1"}
    row_top = next(m.y for m in scene.marks if m.kind == "write" and m.owner == "round1")
    pitch = ticks["1"].x - ticks["0"].x
    head = [i for i in scene.items if isinstance(i, (Rect, Text)) and row_top - 7.0 < i.y < row_top]
    for v in range(13):
        cx = ticks[str(v)].x + ticks[str(v)].w / 2
        (text,) = [i for i in head if isinstance(i, Text) and i.text == str(v) and abs(i.x - cx) < 0.01]
        # a cell of the column's own (the header's background spans them all), behind the number
        cells = [i for i in head if isinstance(i, Rect) and i.paint.fill and i.w <= pitch and i.x < cx < i.x + i.w]
        fills = [c.paint.fill for c in cells if c.y < text.y < c.y + c.h + 3.0]
        assert text.color == FLIP7_COLORS[v] or fills == [FLIP7_COLORS[v]], v
        if fills:  # a coloured cell: the number stands out of it, and the colour stays in the header
            assert text.color != fills[0] and max(c.y + c.h for c in cells) <= row_top
    # the boxes the photo reader reads: each drawn where its target is, outlined, never filled
    outlines = {(i.x, i.y, i.w, i.h): i.paint for i in scene.items if isinstance(i, Rect)}
    for m in (m for m in scene.marks if m.kind == "tick"):
        paint = outlines[(m.x, m.y, m.w, m.h)]
        assert paint.fill is None and paint.stroke == (ACCENT if m.key == "BUST" else DROPOUT)
