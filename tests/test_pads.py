"""Score pads and ledgers: they render for 3, 6 and 18 players, carry every tick box, and print their variant."""

from __future__ import annotations

import subprocess
import sys

import pypdfium2 as pdfium
import pytest

from generator.backends.pdf import render_pdf
from generator.errors import InputError
from generator.paper import paper
from generator.registry import load_any, shipped_layouts
from generator.render import pages_for
from generator.sheets.pads import with_variant

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


def test_variant_on_the_command_line(tmp_path):
    res = subprocess.run([sys.executable, "-m", "generator.cli", "render", "flip7-pad", "--variant", "target=300",
                          "-o", str(tmp_path / "p.pdf")], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    doc = pdfium.PdfDocument(str(tmp_path / "p.pdf"))
    assert "first to 300" in doc[0].get_textpage().get_text_range()
    doc.close()
    res = subprocess.run([sys.executable, "-m", "generator.cli", "render", "poker-deck", "--variant", "target=300",
                          "-o", str(tmp_path / "d.pdf")], capture_output=True, text=True, timeout=60)
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
