"""``render --fill`` of a typed-in Flip 7 pad on the score pad and the tick pad (issue 15, item 7)."""

from __future__ import annotations

import pytest

from generator.core.errors import SheetsmithError
from generator.core.shipped import resolve_layout
from generator.games.registry import load_any, pages_for
from generator.jobs.render import fill_pages
from generator.printing.paper import paper
from generator.printing.scene import Path_, Text

from .test_exit_codes import status

PAD = """game: flip7
players: [Ann, Bob]
rounds:
  - Ann: [3, 5, 7, 10, 11]     # 36
    Bob: bust                  # 0
  - Ann: [12, "+4"]            # 16, total 52
    Bob: [8, 9, 10, x2]        # (8+9+10)×2 = 54
  - Ann: {score: 20}           # 20, total 72
    Bob: [0, 1, 2, 3, 4, 5, 6] # 21 + 15 for seven numbers = 36, total 90
"""


def _blank(item_id: str):
    item = load_any(resolve_layout(item_id))
    return item, pages_for(item, paper("a4"))[0]


def _written(scene, box) -> list[str]:
    """Italic (handwritten) text whose anchor lies inside ``box``."""
    return [
        t.text
        for t in scene.items
        if isinstance(t, Text)
        and t.weight == "italic"
        and box.x <= t.x <= box.x + box.w
        and box.y <= t.y <= box.y + box.h
    ]


def _ticked(scene, box) -> bool:
    return any(
        isinstance(p, Path_) and box.x <= p.ops[1][1] <= box.x + box.w and box.y <= p.ops[1][2] <= box.y + box.h
        for p in scene.items
    )


def test_score_pad_gets_names_round_scores_and_running_totals(tmp_path):
    (tmp_path / "pad.yaml").write_text(PAD, encoding="utf-8")
    item, blank = _blank("flip7-pad")
    [page] = fill_pages(item, blank, tmp_path / "pad.yaml")
    marks = {(m.kind, m.owner, m.key): m for m in page.marks}
    assert _written(page, marks[("name", "player1", "")]) == ["Ann"]
    assert _written(page, marks[("name", "player2", "")]) == ["Bob"]
    assert _written(page, marks[("name", "player3", "")]) == []
    expected = {
        "player1": [("36", "36"), ("16", "52"), ("20", "72")],
        "player2": [("0", "0"), ("54", "54"), ("36", "90")],
    }
    for owner, rows in expected.items():
        for r, (score, total) in enumerate(rows, start=1):
            assert _written(page, marks[("write", owner, f"round{r}:round")]) == [score]
            assert _written(page, marks[("write", owner, f"round{r}:total")]) == [total]
    assert _written(page, marks[("write", "player1", "round4:round")]) == []


def test_a_wrong_written_score_is_drawn_as_written(tmp_path):
    # the drawing shows the paper as the player filled it in; verify is what finds the mistake
    (tmp_path / "pad.yaml").write_text(
        "game: flip7\nplayers: [Cy]\nrounds:\n"
        "  - Cy: {cards: [8, 12], score: 22}   # the cards make 20\n"
        "  - Cy: [1, 2]                        # 3, total 25 as Cy adds up\n",
        encoding="utf-8",
    )
    item, blank = _blank("flip7-pad")
    [page] = fill_pages(item, blank, tmp_path / "pad.yaml")
    marks = {(m.kind, m.owner, m.key): m for m in page.marks}
    assert _written(page, marks[("write", "player1", "round1:round")]) == ["22"]
    assert _written(page, marks[("write", "player1", "round2:total")]) == ["25"]


def test_tick_pad_gets_a_page_per_player_with_the_cards_ticked(tmp_path):
    (tmp_path / "pad.yaml").write_text(PAD, encoding="utf-8")
    item, blank = _blank("flip7-tick-pad")
    ann, bob = fill_pages(item, blank, tmp_path / "pad.yaml")
    marks = {(m.kind, m.owner, m.key): m for m in blank[0].marks}
    assert _written(ann, marks[("name", "player", "")]) == ["Ann"] and _written(bob, marks[("name", "player", "")]) == [
        "Bob"
    ]
    ticks = {t for (kind, owner, t) in marks if kind == "tick" and owner == "round1"}
    want = {("round1", "BUST"), ("round2", "8"), ("round2", "9"), ("round2", "10"), ("round2", "×2")} | {
        ("round3", str(n)) for n in range(7)
    }
    for r in ("round1", "round2", "round3"):
        for t in ticks:
            assert _ticked(bob, marks[("tick", r, t)]) == ((r, t) in want), (r, t)
    # Ann's third round was written as a score only: nothing ticked, the score written
    assert not any(_ticked(ann, marks[("tick", "round3", t)]) for t in ticks)
    assert _ticked(ann, marks[("tick", "round2", "+4")]) and _ticked(ann, marks[("tick", "round2", "12")])
    assert [_written(bob, marks[("write", f"round{r}", "total")]) for r in (1, 2, 3)] == [["0"], ["54"], ["90"]]
    assert [_written(ann, marks[("write", f"round{r}", "score")]) for r in (1, 2, 3)] == [["36"], ["16"], ["20"]]


def test_rounds_past_the_last_row_continue_on_another_page(tmp_path):
    rounds = "".join("  - Ann: [5]\n    Bob: [7]\n" for _ in range(17))  # the 6-player pad has 16 rows
    (tmp_path / "long.yaml").write_text(
        "game: flip7\nplayers: [Ann, Bob]\ntarget: 1000\nrounds:\n" + rounds, encoding="utf-8"
    )
    item, blank = _blank("flip7-pad")
    first, second = fill_pages(item, blank, tmp_path / "long.yaml")
    marks = {(m.kind, m.owner, m.key): m for m in blank[0].marks}
    assert _written(first, marks[("write", "player2", "round16:total")]) == [str(16 * 7)]
    assert _written(second, marks[("write", "player2", "round1:total")]) == [str(17 * 7)]
    assert _written(second, marks[("write", "player2", "round2:total")]) == []


def test_players_past_18_are_written_on_the_36_player_pads_second_page(tmp_path):
    names = [f"P{i}" for i in range(1, 21)]  # 20 players (two decks); player i plays the number card (i - 1) % 13
    # the 36-player pad prints columns 1-18 on its first page and 19-36 on its second: P19 and P20 are on the second
    rounds = "  - " + "\n    ".join(f"{n}: [{i % 13}]" for i, n in enumerate(names)) + "\n"
    (tmp_path / "big.yaml").write_text(
        "game: flip7\nplayers: [" + ", ".join(names) + "]\nrounds:\n" + rounds, encoding="utf-8"
    )
    item, blank = _blank("flip7-pad-36")
    pages = fill_pages(item, blank, tmp_path / "big.yaml")
    assert len(pages) == len(blank) == 2
    marks = [{(m.kind, m.owner, m.key): m for m in page.marks} for page in blank]
    assert _written(pages[0], marks[0][("name", "player18", "")]) == ["P18"]
    assert _written(pages[1], marks[1][("name", "player19", "")]) == ["P19"]
    assert _written(pages[1], marks[1][("write", "player20", "round1:total")]) == ["6"]  # P20's one card: 19 % 13


def test_fill_refuses_items_it_cannot_fill(tmp_path):
    (tmp_path / "pad.yaml").write_text(PAD, encoding="utf-8")
    item, blank = _blank("fundex-ledger")
    with pytest.raises(SheetsmithError, match="typed-in Flip 7 pad"):
        fill_pages(item, blank, tmp_path / "pad.yaml")


def test_render_fill_of_the_tick_pad_writes_a_pdf_page_per_player(tmp_path, capsys):
    (tmp_path / "pad.yaml").write_text(PAD, encoding="utf-8")
    code, out, err = status(["render", "flip7-tick-pad", "--fill", "pad.yaml", "-o", "ticks.pdf"], tmp_path, capsys)
    assert code == 0, err
    assert "(PDF, A4, 2 pages" in out


def test_a_filled_pad_prints_the_rules_its_file_is_scored_by(tmp_path, capsys):
    """A pad file with target 300 rendered on the pad: the header prints 300 (the totals follow 300); a --variant
    that says otherwise is refused rather than printing one rule above totals that follow another."""
    import pypdfium2 as pdfium

    (tmp_path / "pad.yaml").write_text(PAD.replace("rounds:", "target: 300\nrounds:"), encoding="utf-8")
    code, _, err = status(["render", "flip7-pad", "--fill", "pad.yaml", "-o", "pad.pdf"], tmp_path, capsys)
    assert code == 0, err
    text = pdfium.PdfDocument(str(tmp_path / "pad.pdf"))[0].get_textpage().get_text_range()
    assert "first to 300 ends the game" in text and "first to 200" not in text
    code, _, err = status(
        ["render", "flip7-pad", "--fill", "pad.yaml", "--variant", "target=250", "-o", "x.pdf"], tmp_path, capsys
    )
    assert code == 2 and "pad.yaml: target 300, but --variant prints 250" in err
    assert not (tmp_path / "x.pdf").exists()
