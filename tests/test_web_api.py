"""The web page (``sheetsmith serve``) through the framework's test client: every job, every error path,
a game surviving a restart of the app on the same database.

Expected values come from the rulebook (Flip 7 scoring examples), the
documented example game (docs/examples: Ann 44, Cy 43, Bob 34), paper sizes
in points, and the referee's own score of a simulated game's final sheets
(the truth the synthetic photos are drawn from), never from the page.
"""

from __future__ import annotations

import html
import io
import json
import re
import sqlite3
import zipfile
from pathlib import Path

import pypdfium2
import pytest
from fastapi.testclient import TestClient

from generator.games.allin.scoring import report as allin_report
from generator.jobs import verify
from generator.web.app import create_app

from . import webphotos

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "docs" / "examples"
QD_TEXT = (REPO / "layouts" / "allin" / "q-diamonds.yaml").read_text(encoding="utf-8")
MY_TEXT = QD_TEXT.replace("id: q-diamonds", "id: my-sheet")  # a user's copy has an id of its own


SAME_SITE = {"Origin": "http://testserver"}
"""What a browser sends with a form of the page's own (the test client sends no ``Origin`` by itself)."""


def client(folder: Path, **kw) -> TestClient:
    return TestClient(create_app(folder, photo_workers=1, **kw), raise_server_exceptions=False, headers=SAME_SITE)


@pytest.fixture
def web(tmp_path):
    with client(tmp_path) as c:
        yield c


def game_id(response) -> str:
    return str(response.url).rstrip("/").split("/")[-1].split("#")[0]


def store(c: TestClient):
    return c.app.app.state.store


# --------------------------------------------------------------------------- pages and printing


def test_every_page_answers(web):
    for url, words in {
        "/": "At the table",
        "/print": "Q♦",
        "/allin": "New game",
        "/flip7": "Players, 3 to 18",
        "/editor": "golden: QD",
    }.items():
        r = web.get(url)
        assert r.status_code == 200, url
        assert words in r.text, url
        assert "/static/style.css" in r.text
    assert web.get("/static/app.js").status_code == 200


@pytest.mark.parametrize("paper, size_pt", [("a4", (595, 842)), ("letter", (612, 792))])
def test_print_gives_the_pdf_on_each_paper(web, paper, size_pt):
    r = web.get(f"/print/pdf/q-diamonds?paper={paper}")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert f'filename="q-diamonds-{paper}.pdf"' in r.headers["content-disposition"]
    pdf = pypdfium2.PdfDocument(r.content)
    w, h = pdf[0].get_size()
    assert (round(w), round(h)) == size_pt  # A4 is 210 × 297 mm, Letter 8.5 × 11 in


def test_print_refuses_a_paper_it_has_no_size_for(web):
    # A5 is not one of the two papers the sheets are laid out for: say so instead of quietly serving A4
    r = web.get("/print/pdf/q-diamonds?paper=a5")
    assert r.status_code == 422 and "a4 or letter" in r.text
    assert web.get("/print/pdf/q-diamonds?paper=Letter").status_code == 200


def test_print_lists_every_shipped_item_with_a_preview(web):
    from generator.core.shipped import shipped_layouts

    text = web.get("/print").text
    for s in shipped_layouts():
        assert f'src="/print/preview/{s.id}.png' in text
    r = web.get("/print/preview/poker-deck.png")
    assert r.status_code == 200 and r.content.startswith(b"\x89PNG")
    assert web.get("/print/preview/no-such-thing.png").status_code == 404
    assert web.get("/print/pdf/no-such-thing").status_code == 404


@pytest.mark.slow
def test_previews_asked_for_at_once_are_all_drawn(web):
    from concurrent.futures import ThreadPoolExecutor

    from generator.core.shipped import shipped_layouts

    urls = [f"/print/preview/{s.id}.png?paper={p}" for s in shipped_layouts()[:6] for p in ("a4", "letter")]
    with ThreadPoolExecutor(8) as pool:  # a phone opening the Print page asks for every preview at once
        answers = list(pool.map(web.get, urls))
    assert all(r.status_code == 200 and r.content.startswith(b"\x89PNG") for r in answers)


def test_custom_layout_uploaded_then_printed(web):
    text = (
        QD_TEXT.replace("golden: QD", "golden: KH")
        .replace('name: "Q♦"', 'name: "K♥"')
        .replace("id: q-diamonds", "id: my-kh")
    )
    r = web.post("/print/custom", files={"layout": ("../../etc/passwd", text.encode(), "text/yaml")})
    assert r.status_code == 200 and "K♥" in r.text  # redirected to the Print page
    (layout,) = store(web).layouts()
    pdf = web.get(f"/print/custom/{layout['id']}/pdf?paper=letter")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert web.get(f"/print/custom/{layout['id']}/preview.png").content.startswith(b"\x89PNG")
    assert web.get(f"/print/custom/{layout['id']}/yaml").text == text
    web.post(f"/print/custom/{layout['id']}/delete")
    assert store(web).layouts() == []


def test_broken_layout_upload_is_a_page_with_the_line(web):
    broken = QD_TEXT.replace("golden: QD", "golden: QX")
    r = web.post("/print/custom", files={"layout": ("x.yaml", broken.encode(), "text/yaml")})
    assert r.status_code == 422
    assert "line 8, column 9" in r.text and "QX" in r.text and "Traceback" not in r.text
    r = web.post("/print/custom", files={"layout": ("x.yaml", b"\xff\xfe\x00garbage", "text/yaml")})
    assert r.status_code == 422 and "UTF-16 text (save it as UTF-8)" in r.text  # a UTF-16 byte-order mark
    r = web.post("/print/custom", files={"layout": ("x.yaml", b"game: allin\ngrid: [unclosed\n", "text/yaml")})
    assert r.status_code == 422 and "YAML syntax error" in r.text
    assert store(web).layouts() == []


# --------------------------------------------------------------------------- the editor


def test_editor_preview_draws_a_valid_layout(web):
    r = web.post("/editor/preview", data={"text": MY_TEXT, "paper": "letter"})
    body = r.json()
    assert body["ok"] and body["problems"] == []
    assert "<svg" in body["svg"][:400]
    assert body["title"] == "Q♦" and "10 hands" in body["summary"]


def test_editor_shows_the_line_and_column_of_a_broken_grid(web):
    broken = MY_TEXT.replace("*---o---o---o   o", "*---o---o---o   x", 1)
    line = broken.split("\n").index("  *---o---o---o   x") + 1  # the grid's first row
    body = web.post("/editor/preview", data={"text": broken}).json()
    assert not body["ok"] and body["svg"] == ""
    (p,) = body["problems"]
    assert (p["line"], p["col"]) == (line, 19) and "'x'" in p["message"]
    page = web.post("/editor", data={"text": broken, "action": "preview"})  # without JavaScript
    assert page.status_code == 422 and f'data-line="{line}"' in page.text


def test_editor_downloads_and_prints(web):
    r = web.post("/editor", data={"text": QD_TEXT, "action": "download"})
    assert r.text == QD_TEXT and "attachment" in r.headers["content-disposition"]
    r = web.post("/editor", data={"text": QD_TEXT, "action": "print"})
    assert r.status_code == 200 and len(store(web).layouts()) == 1
    start = web.get("/editor?start=k-spades").text
    assert "golden: KS" in start and "id: k-spades-2" in start  # the copy gets an id of its own


# --------------------------------------------------------------------------- Flip 7


def new_flip7(c: TestClient, players="Ann, Bob, Cy", target="200") -> str:
    r = c.post("/flip7", data={"players": players, "target": target, "title": "test"})
    assert r.status_code == 200, r.text
    return game_id(r)


def tap(round_lines: dict[int, list[str] | str], number: int = 0) -> dict:
    """The tap form: player index → the cards tapped, or 'bust'."""
    form: dict = {"round": str(number)}
    for i, cards in round_lines.items():
        if cards == "bust":
            form[f"b{i}"] = "1"
        else:
            form[f"p{i}"] = cards
    return form


def test_flip7_rounds_score_as_the_rulebook_examples(web):
    gid = new_flip7(web)
    # rulebook: 3 5 7 10 11 make 36; with the x2, 72; with a +10 instead, 46
    web.post(
        f"/flip7/{gid}/rounds",
        data=tap({0: ["3", "5", "7", "10", "11"], 1: ["3", "5", "7", "10", "11", "x2"], 2: "bust"}),
    )
    web.post(f"/flip7/{gid}/rounds", data=tap({0: ["12", "+10"], 1: "bust", 2: ["3", "5", "7", "10", "11", "+8"]}))
    # seven different numbers: 1+2+3+4+5+6+8 = 29, +15 = 44
    web.post(f"/flip7/{gid}/rounds", data=tap({0: ["0"], 1: ["1", "2", "3", "4", "5", "6", "8"], 2: ["x2"]}))
    rep = web.get(f"/flip7/{gid}/report.json").json()
    assert rep["rounds"] == [
        {"Ann": 36, "Bob": 72, "Cy": 0},
        {"Ann": 22, "Bob": 0, "Cy": 44},
        {"Ann": 0, "Bob": 44, "Cy": 0},
    ]
    assert rep["totals"] == {"Ann": 58, "Bob": 116, "Cy": 44} and rep["status"] == "in_progress"
    page = web.get(f"/flip7/{gid}").text
    assert re.search(r'data-player="Bob">\s*<th scope="row">Bob</th><td class="total">116</td>', page)
    pad = web.get(f"/flip7/{gid}/pad.yaml")
    verdict = verify.verify_texts([("pad.yaml", pad.content)])  # the download is a pad verify reads
    assert verdict.report == rep  # and the page's report is verify's


def test_flip7_preview_scores_while_tapping_and_keeps_the_taps(tmp_path):
    with client(tmp_path) as c:
        gid = new_flip7(c)
        body = c.post(
            f"/flip7/{gid}/preview", data={**tap({0: ["6", "7", "x2", "+4"], 1: "bust", 2: []}), "next": "1"}
        ).json()
        assert body["players"]["0"]["score"] == 30  # (6+7)×2 +4
        assert body["players"]["1"]["bust"] and body["players"]["1"]["score"] == 0
        assert store(c).game(gid).data["rounds"] == []  # not a round yet
    with client(tmp_path) as c:  # the tab was closed, the server restarted: the taps come back
        page = c.get(f"/flip7/{gid}").text
        assert re.search(r'name="p0" value="x2" checked', page) and re.search(r'name="b1" value="1" checked', page)
        assert not re.search(r'name="p2" value="\d+" checked', page)


def test_flip7_game_ends_with_a_winner_and_a_tie_plays_on(web):
    gid = new_flip7(web, target="50")
    web.post(
        f"/flip7/{gid}/rounds",
        data=tap({0: ["12", "11", "10", "9", "+8"], 1: ["12", "11", "10", "8", "7", "+2"], 2: ["1"]}),
    )
    rep = web.get(f"/flip7/{gid}/report.json").json()
    assert rep["totals"] == {"Ann": 50, "Bob": 50, "Cy": 1} and rep["status"] == "tied_play_another_round"
    assert "play another round" in web.get(f"/flip7/{gid}").text
    web.post(f"/flip7/{gid}/rounds", data=tap({0: ["2"], 1: "bust", 2: []}))
    rep = web.get(f"/flip7/{gid}/report.json").json()
    assert rep["status"] == "finished" and rep.get("winners", [rep.get("winner")]) == ["Ann"]
    page = web.get(f"/flip7/{gid}").text
    assert "Ann wins" in page and 'id="round-form"' not in page
    r = web.post(f"/flip7/{gid}/rounds", data=tap({0: ["2"], 1: ["3"], 2: ["4"]}))
    assert r.status_code == 422 and "the game ended after round 2" in r.text


def test_flip7_problems_show_next_to_their_cell(web):
    gid = new_flip7(web)
    eight = ["1", "2", "3", "4", "5", "6", "7", "8"]
    web.post(f"/flip7/{gid}/rounds", data=tap({0: eight, 1: ["1", "2", "3", "4", "5", "6", "9"], 2: ["x2"]}))
    rep = web.get(f"/flip7/{gid}/report.json").json()
    assert {(p["round"], p["player"]) for p in rep["problems"]} >= {(1, "Ann"), (1, None)}
    page = web.get(f"/flip7/{gid}").text
    ann_row = page[page.index('data-player="Ann"') : page.index('data-player="Bob"')]
    assert "8 number cards" in ann_row and 'class="bad' in ann_row
    assert "only one player per round" in page  # two Flip 7s in a round: the round's problem


def test_flip7_edit_and_undo_a_round(web):
    gid = new_flip7(web)
    web.post(f"/flip7/{gid}/rounds", data=tap({0: ["5"], 1: ["6"], 2: ["7"]}))
    web.post(f"/flip7/{gid}/rounds", data=tap({0: ["1"], 1: ["2"], 2: ["3"]}))
    web.post(f"/flip7/{gid}/rounds", data=tap({0: ["10"], 1: "bust", 2: ["7"]}, number=1))
    assert web.get(f"/flip7/{gid}/report.json").json()["totals"] == {"Ann": 11, "Bob": 2, "Cy": 10}
    web.post(f"/flip7/{gid}/undo")
    assert web.get(f"/flip7/{gid}/report.json").json()["totals"] == {"Ann": 10, "Bob": 0, "Cy": 7}


def test_flip7_a_house_bonus_scores_every_round_and_travels_with_the_pad(web):
    r = web.post("/flip7", data={"players": "Ann, Bob, Cy", "target": "200", "flip7_bonus": "30", "title": "house"})
    gid = game_id(r)
    # seven different numbers: 1+2+3+4+5+6+8 = 29, plus the house bonus 30 = 59 (the rulebook's 15 would make 44)
    web.post(f"/flip7/{gid}/rounds", data=tap({0: ["1", "2", "3", "4", "5", "6", "8"], 1: ["9"], 2: "bust"}))
    rep = web.get(f"/flip7/{gid}/report.json").json()
    assert rep["rounds"] == [{"Ann": 59, "Bob": 9, "Cy": 0}]
    assert "Flip 7 bonus 30" in web.get(f"/flip7/{gid}").text
    pad = web.get(f"/flip7/{gid}/pad.yaml")
    assert b"flip7_bonus: 30" in pad.content
    assert verify.verify_texts([("pad.yaml", pad.content)]).report["totals"] == {"Ann": 59, "Bob": 9, "Cy": 0}
    plain = new_flip7(web)  # left at 15: nothing extra in the game or its pad
    assert (
        "flip7_bonus" not in store(web).game(plain).data
        and b"flip7_bonus" not in web.get(f"/flip7/{plain}/pad.yaml").content
    )


@pytest.mark.parametrize("route", ["rounds", "preview"])
@pytest.mark.parametrize("number", ["abc", "-1", "2.5", "١"])
def test_flip7_a_round_number_that_is_not_a_whole_number_is_refused(web, route, number):
    gid = new_flip7(web)
    web.post(f"/flip7/{gid}/rounds", data=tap({0: ["5"], 1: ["6"], 2: ["7"]}))
    r = web.post(f"/flip7/{gid}/{route}", data=tap({0: ["1"], 1: ["2"], 2: ["3"]}) | {"round": number})
    assert r.status_code == 422 and "round: give the number of the round" in r.text
    assert web.get(f"/flip7/{gid}/report.json").json()["totals"] == {"Ann": 5, "Bob": 6, "Cy": 7}


@pytest.mark.parametrize("route", ["rounds", "preview"])
def test_flip7_a_file_sent_as_the_round_number_is_refused(web, route):
    gid = new_flip7(web)
    form = tap({0: ["1"], 1: ["2"], 2: ["3"]})
    del form["round"]
    r = web.post(f"/flip7/{gid}/{route}", data=form, files={"round": ("r.txt", b"1", "text/plain")})
    assert r.status_code == 422 and "round: give the number of the round" in r.text
    assert web.get(f"/flip7/{gid}/report.json").json()["rounds"] == []


def test_flip7_refuses_a_name_with_a_control_character(web):
    r = web.post("/flip7", data={"players": "A\x07b, Bob, Cy", "target": "200", "title": "t"})
    assert r.status_code == 400 and "holds a control character (U+0007 BELL)" in r.text
    assert store(web).games("flip7") == []


@pytest.mark.parametrize("bonus", ["-1", "101", "abc", "1e2", "١٥"])
def test_flip7_refuses_a_bonus_outside_0_to_100(web, bonus):
    r = web.post("/flip7", data={"players": "Ann, Bob, Cy", "target": "200", "flip7_bonus": bonus})
    assert r.status_code == 400 and f"Flip 7 bonus {bonus!r}" in html.unescape(r.text)
    assert store(web).games("flip7") == []


@pytest.mark.parametrize(
    "players, target, message",
    [
        ("Ann, Bob", "200", "2 players named"),
        (", ".join(f"P{i}" for i in range(19)), "200", "19 players named"),
        ("Ann, Bob, Cy", "abc", "target 'abc'"),
        ("Ann, Ann, Cy", "200", "listed twice"),
    ],
)
def test_flip7_refuses_a_bad_start(web, players, target, message):
    r = web.post("/flip7", data={"players": players, "target": target})
    assert r.status_code == 400 and message in html.unescape(r.text) and "Traceback" not in r.text
    assert store(web).games("flip7") == []


# --------------------------------------------------------------------------- All In: typed in


def grid_form(sheet_file: Path) -> dict:
    """The typed-in grid form of an example sheet: one box per card space, the chips."""
    from generator.games.allin.grid import cell_name
    from generator.games.allin.typed_sheet import load_allin_sheet

    sheet = load_allin_sheet(sheet_file)
    form = {cell_name(c): card.code for c, card in sheet.cards.items()}
    form.update(chips_earned=str(sheet.chips_earned), chips_spent=str(sheet.chips_spent))
    return form


def new_allin(c: TestClient, layout="q-diamonds") -> str:
    r = c.post("/allin", data={"title": "test", "layout": layout})
    assert r.status_code == 200
    return game_id(r)


def add_typed(c: TestClient, gid: str, name: str, form: dict):
    """Add a player by typing their sheet in: the add form, then the grid saved; ``(player id, response)``."""
    r = c.post(f"/allin/{gid}/players", data={"name": name, "mode": "typed"})
    assert r.status_code == 200 and "/new/grid" in str(r.url)
    r = c.post(f"/allin/{gid}/new/grid", data={**form, "name": name})
    pid = next(p["id"] for p in store(c).game(gid).data["players"] if p["name"] == name)
    return pid, r


def test_allin_a_player_typed_in_exists_once_their_sheet_is_saved(web):
    gid = new_allin(web)
    r = web.post(f"/allin/{gid}/players", data={"name": "Ann", "mode": "typed"})
    assert "Ann joins the game when the sheet is saved" in r.text
    assert store(web).game(gid).data["players"] == []  # typing not begun, or given up: nobody waits for Ann
    # two phones typing Ann's sheet in at once: the first saved adds her, the second is told
    form = grid_form(EXAMPLES / "ann.yaml")
    first = web.post(f"/allin/{gid}/new/grid", data={**form, "name": "Ann"})
    second = web.post(f"/allin/{gid}/new/grid", data={**form, "name": "ann"})
    assert first.status_code == 200 and second.status_code == 400 and "already plays in this game" in second.text
    assert [p["name"] for p in store(web).game(gid).data["players"]] == ["Ann"]
    assert web.get(f"/allin/{gid}/report.json").json() == verify.verify([EXAMPLES / "ann.yaml"]).report


@pytest.mark.parametrize(
    "second, message",
    [
        ("ANN", "differ only in capitals"),
        ("Ann\u202eevil", "holds a control character"),
        ("Ann\tB", "holds a line break or tab"),
        ("Bo\x07b", "holds a control character"),
    ],
)
def test_allin_refuses_a_name_the_verifier_would_refuse(web, second, message):
    """The verifier refuses names in two sheets that differ only in capitals, and any control character:
    the page refuses them when the player is added, so that every game it keeps can be scored."""
    gid = new_allin(web)
    add_typed(web, gid, "Ann", grid_form(EXAMPLES / "ann.yaml"))
    r = web.post(f"/allin/{gid}/players", data={"name": second, "mode": "typed"})
    assert r.status_code == 400 and message in r.text
    assert [p["name"] for p in store(web).game(gid).data["players"]] == ["Ann"]


@pytest.mark.parametrize("renamed", ["ANN", "Bo\x01b", "x" * 50])
def test_allin_renaming_in_the_grid_form_to_a_refused_name_says_why(web, renamed):
    gid = new_allin(web)
    add_typed(web, gid, "Ann", grid_form(EXAMPLES / "ann.yaml"))
    bob, _ = add_typed(web, gid, "Bob", grid_form(EXAMPLES / "bob.yaml"))
    r = web.post(f"/allin/{gid}/p/{bob}/grid", data={**grid_form(EXAMPLES / "bob.yaml"), "name": renamed})
    assert r.status_code == 400 and "The name cannot be changed" in r.text
    assert [p["name"] for p in store(web).game(gid).data["players"]] == ["Ann", "Bob"]


def test_allin_typed_in_game_scores_like_the_documented_example(web):
    gid = new_allin(web)
    for name in ("Ann", "Bob", "Cy"):
        add_typed(web, gid, name, grid_form(EXAMPLES / f"{name.lower()}.yaml"))
    rep = web.get(f"/allin/{gid}/report.json").json()
    assert {p["player"]: p["total"] for p in rep["players"]} == {"Ann": 44, "Bob": 34, "Cy": 43}
    assert rep["winners"] == ["Ann"]
    page = web.get(f"/allin/{gid}").text
    ranking = page[page.index('id="ranking"') :]
    assert "Ann wins" in page and ranking.index(">Ann<") < ranking.index(">Cy<") < ranking.index(">Bob<")
    z = zipfile.ZipFile(io.BytesIO(web.get(f"/allin/{gid}/sheets.zip").content))
    assert sorted(z.namelist()) == ["ann.yaml", "bob.yaml", "cy.yaml", "report.json"]
    files = [(n, z.read(n)) for n in ("ann.yaml", "bob.yaml", "cy.yaml")]
    assert verify.verify_texts(files).report == json.loads(z.read("report.json"))


def test_allin_typed_in_error_is_shown_next_to_its_box(web):
    gid = new_allin(web)
    form = grid_form(EXAMPLES / "ann.yaml")
    form["b2"] = "QX"
    pid, r = add_typed(web, gid, "Ann", form)
    assert "/grid" in str(r.url)
    box = r'<td class="bad"><input name="b2" value="QX"[^>]*><span class="cell-problem"[^>]*>[^<]*QX'
    assert re.search(box, r.text)
    assert re.search(r'<ul class="cell-problems" id="cell-problems"><li><b>b2</b> [^<]*QX', r.text)
    assert web.get(f"/allin/{gid}/report.json").status_code == 409
    form["b2"] = "9D"
    web.post(f"/allin/{gid}/p/{pid}/grid", data=form)
    assert web.get(f"/allin/{gid}/report.json").json()["winners"] == ["Ann"]


def test_allin_typed_in_sheet_file_upload(web):
    gid = new_allin(web)
    r = web.post(
        f"/allin/{gid}/players",
        data={"name": "Bob", "mode": "photo"},
        files={"file": ("bob.yaml", (EXAMPLES / "bob.yaml").read_bytes(), "text/yaml")},
    )
    assert r.status_code == 200
    rep = web.get(f"/allin/{gid}/report.json").json()
    assert rep == verify.verify([EXAMPLES / "bob.yaml"]).report  # what 'sheetsmith verify bob.yaml --json' prints
    bad = (EXAMPLES / "bob.yaml").read_text().replace("layout: q-diamonds", "layout: ../../secret.yaml")
    r = web.post(
        f"/allin/{gid}/players", data={"name": "Cy", "mode": "photo"}, files={"file": ("x", bad.encode(), "text/yaml")}
    )
    assert r.status_code == 422 and "shipped layout" in r.text


# --------------------------------------------------------------------------- All In: photos


def truth_totals(n: int) -> dict[str, int]:
    result = webphotos.game()
    from generator.games.allin.scoring import score_game

    rep = allin_report(score_game(result.sheets[:n]))
    return {p["player"]: p["total"] for p in rep["players"]}


@pytest.mark.slow
def test_allin_photos_read_corrected_by_tapping_and_scored(web):
    gid = new_allin(web)
    jpeg, cell, truth = webphotos.uncertain_photo(0)
    r = web.post(f"/allin/{gid}/players", data={"name": "Ann"}, files={"photo": ("IMG_1.jpg", jpeg, "image/jpeg")})
    ann = str(r.url).split("/p/")[1]
    assert 'class="field uncertain"' in r.text and f'data-field="{cell}"' in r.text
    for i, name in ((1, "Bob"), (2, "Cy")):
        web.post(
            f"/allin/{gid}/players", data={"name": name}, files={"photo": ("p.jpg", webphotos.photo(i), "image/jpeg")}
        )
    assert web.get(f"/allin/{gid}/report.json").status_code == 409  # Ann's sheet still has a field to check
    assert "Waiting for: Ann" in web.get(f"/allin/{gid}").text
    r = web.post(f"/allin/{gid}/p/{ann}/fix", data={"field": cell, "rank": truth[:-1], "suit": truth[-1]})
    assert 'class="field fixed"' in r.text
    rep = web.get(f"/allin/{gid}/report.json").json()
    assert {p["player"]: p["total"] for p in rep["players"]} == truth_totals(3)
    assert rep["winners"] == webphotos.game().score.winners
    g = store(web).game(gid)
    assert all(store(web).blob(gid, p["photo"]) for p in g.data["players"])  # the photos are kept with the game
    img = web.get(f"/allin/{gid}/blob/{g.data['players'][0]['annotated']}")
    assert img.headers["content-type"] == "image/jpeg"


@pytest.mark.slow
def test_allin_chips_corrected_by_number(web):
    gid = new_allin(web)
    jpeg = webphotos.photo(1)
    r = web.post(f"/allin/{gid}/players", data={"name": "Bob"}, files={"photo": ("p.jpg", jpeg, "image/jpeg")})
    bob = str(r.url).split("/p/")[1]
    r = web.post(f"/allin/{gid}/p/{bob}/fix", data={"field": "chips.earned", "count": "99"})
    assert r.status_code == 422 and "whole number from 0 to" in r.text
    web.post(f"/allin/{gid}/p/{bob}/fix", data={"field": "chips.spent", "count": "0"})
    sheet = webphotos.game().sheets[1]
    rep = web.get(f"/allin/{gid}/report.json").json()
    assert rep["players"][0]["chips_left"] == sheet.chips_earned


@pytest.mark.slow
def test_the_same_photo_for_two_players_is_refused_for_the_second(web):
    """One sheet photographed once and given to two players would count twice: the second is not read."""
    gid = new_allin(web)
    jpeg = webphotos.photo(1)
    web.post(f"/allin/{gid}/players", data={"name": "Bob"}, files={"photo": ("bob.jpg", jpeg, "image/jpeg")})
    r = web.post(f"/allin/{gid}/players", data={"name": "Cy"}, files={"photo": ("cy.jpg", jpeg, "image/jpeg")})
    assert r.status_code == 422 and "the same photo as Bob&#39;s (identical files)" in r.text
    assert "Cy was not added" in r.text
    assert [p["name"] for p in store(web).game(gid).data["players"]] == ["Bob"]  # the game never waits for Cy


def test_a_picture_that_is_no_sheet_gets_the_readers_message(web):
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (1200, 900), (250, 250, 245)).save(buf, "PNG")
    gid = new_allin(web)
    r = web.post(f"/allin/{gid}/players", data={"name": "Ann"}, files={"photo": ("a.png", buf.getvalue(), "image/png")})
    assert r.status_code == 422 and "no All In sheet found" in r.text and "Ann was not added" in r.text
    assert store(web).game(gid).data["players"] == []  # a refused photo adds no player, and keeps no photo
    with sqlite3.connect(store(web).path) as db:  # read beside the server's own connection
        assert db.execute("SELECT COUNT(*) FROM blobs WHERE game_id = ?", (gid,)).fetchone() == (0,)
    assert web.get("/").status_code == 200


def test_not_an_image_nor_a_sheet_and_heic(web):
    gid = new_allin(web)
    r = web.post(
        f"/allin/{gid}/players", data={"name": "Ann"}, files={"photo": ("a.jpg", b"%PDF-1.4 not a photo", "image/jpeg")}
    )
    # named as a photo: the page says what the file holds, as the command line does (not a YAML parser's complaint)
    assert (
        r.status_code == 422
        and "this is a PDF document" in r.text
        and "typed-in sheet sheetsmith can read" not in r.text
    )
    r = web.post(
        f"/allin/{gid}/players", data={"name": "Ann"}, files={"photo": ("text.jpg", b"hello there\n", "image/jpeg")}
    )
    assert r.status_code == 422 and "not an image (the file holds text)" in r.text
    # the same bytes under a sheet's name are a typed-in sheet that is not valid
    r = web.post(
        f"/allin/{gid}/players", data={"name": "Ann"}, files={"file": ("ann.yaml", b"hello there\n", "text/yaml")}
    )
    assert r.status_code == 422 and "not a valid typed-in sheet" in r.text
    heic = b"\x00\x00\x00\x18ftypheic" + b"\x00" * 64
    r = web.post(f"/allin/{gid}/players", data={"name": "Bob"}, files={"photo": ("a.heic", heic, "image/heic")})
    # an HEIC picture goes to the reader, as on the command line (pillow-heif): a damaged one gets its message
    assert "the HEIC data cannot be read: the file is damaged or incomplete" in r.text
    assert store(web).game(gid).data["players"] == []


@pytest.mark.slow
def test_a_photo_over_time_is_an_error_and_the_server_keeps_serving(tmp_path):
    with client(tmp_path, photo_timeout=0.001) as c:
        gid = new_allin(c)
        r = c.post(
            f"/allin/{gid}/players", data={"name": "Ann"}, files={"photo": ("p.jpg", webphotos.photo(0), "image/jpeg")}
        )
        assert "took longer than" in r.text and store(c).game(gid).data["players"] == []
        assert c.get("/flip7").status_code == 200


# --------------------------------------------------------------------------- safety


def test_upload_over_the_limit_is_refused(tmp_path):
    with client(tmp_path, max_upload=100_000) as c:
        gid = new_allin(c)
        r = c.post(
            f"/allin/{gid}/players",
            data={"name": "Ann"},
            files={"photo": ("p.jpg", b"\xff\xd8\xff" + b"0" * 200_000, "image/jpeg")},
        )
        assert r.status_code == 413 and "larger than" in r.text
        assert store(c).game(gid).data["players"] == []


def test_token_required_on_lan(tmp_path):
    with client(tmp_path, token="s3cret-token") as c:
        assert c.get("/").status_code == 401
        assert c.get("/flip7?token=wrong").status_code == 401
        assert c.post("/flip7", data={"players": "a,b,c"}).status_code == 401
        assert c.get("/static/style.css").status_code == 401
        r = c.get("/?token=s3cret-token", follow_redirects=False)
        # the code goes into a cookie, and out of the address: shown, kept in the history or sent on nowhere
        assert r.status_code == 303 and r.headers["location"] == "/"
        assert "sheetsmith_token=s3cret-token" in r.headers["set-cookie"] and r.headers["cache-control"] == "no-store"
        assert c.get("/").status_code == 200  # the cookie carries on
        assert c.get("/flip7").status_code == 200
        r = c.get("/allin?lang=de&token=s3cret-token&x=", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/allin?lang=de&x="  # the rest of the query kept
        c.cookies.clear()
        assert c.get("/flip7").status_code == 401


def test_a_form_without_origin_needs_the_cookie_of_a_page_of_this_server(tmp_path):
    """Old browsers name no ``Origin``: such a form counts only with the form cookie every page leaves (a cookie a
    browser sends only with this server's own requests), and never when marked as sent from another site."""
    with TestClient(create_app(tmp_path, photo_workers=1), raise_server_exceptions=False) as c:
        r = c.post("/flip7", data={"players": "Ann, Bob, Cy"})
        assert r.status_code == 403 and "open the page and send it from there" in r.text
        assert c.get("/flip7").status_code == 200  # a page of this server: it leaves the cookie
        r = c.post("/flip7", data={"players": "Ann, Bob, Cy"}, headers={"Sec-Fetch-Site": "cross-site"})
        assert r.status_code == 403 and store(c).games("flip7") == []
        assert c.post("/flip7", data={"players": "Ann, Bob, Cy"}).status_code == 200
        assert len(store(c).games("flip7")) == 1


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://testserver.evil.example"])
def test_form_from_another_site_is_refused(web, origin):
    # "null" is what a sandboxed frame on any site sends
    r = web.post("/flip7", data={"players": "Ann, Bob, Cy"}, headers={"Origin": origin})
    assert r.status_code == 403 and store(web).games("flip7") == []
    r = web.post("/flip7", data={"players": "Ann, Bob, Cy"}, headers={"Origin": "http://testserver"})
    assert r.status_code == 200 and len(store(web).games("flip7")) == 1


@pytest.mark.parametrize("code", ["%C3%A9", "%FF", "s3cret-tok%C3%A9n", "%00"])
def test_an_access_code_in_any_characters_is_refused_not_a_server_error(tmp_path, code):
    with client(tmp_path, token="s3cret-token") as c:
        assert c.get(f"/?token={code}").status_code == 401
        assert c.get("/", headers={"Cookie": "sheetsmith_token=é".encode()}).status_code == 401


def test_a_page_for_this_computer_only_answers_to_its_own_host_names(tmp_path):
    with TestClient(
        create_app(tmp_path, photo_workers=1, hosts=("127.0.0.1", "localhost")),
        base_url="http://127.0.0.1:8000",
        headers={"Origin": "http://127.0.0.1:8000"},
    ) as c:
        assert c.get("/").status_code == 200
        assert c.get("/", headers={"Host": "localhost:8000"}).status_code == 200
        # a name of another site pointed at this computer (DNS rebinding)
        assert c.get("/", headers={"Host": "attacker.example:8000"}).status_code == 400
        rebound = {"Host": "attacker.example:8000", "Origin": "http://attacker.example:8000"}  # its page's own origin
        r = c.post("/flip7", data={"players": "Ann, Bob, Cy"}, headers=rebound)
        assert r.status_code == 400 and store(c).games("flip7") == []


def test_unknown_game_is_a_page_not_a_traceback(web):
    for url in ("/allin/nope", "/flip7/nope", "/allin/nope/p/x", "/flip7/nope/pad.yaml"):
        r = web.get(url)
        assert r.status_code == 404 and "nothing at this address" in r.text


# --------------------------------------------------------------------------- nothing lost


@pytest.mark.slow
def test_games_resume_after_a_restart_and_delete_removes_photos(tmp_path):
    with client(tmp_path) as c:
        f7 = new_flip7(c)
        c.post(f"/flip7/{f7}/rounds", data=tap({0: ["3", "5", "7", "10", "11", "x2"], 1: ["4"], 2: "bust"}))
        ai = new_allin(c)
        add_typed(c, ai, "Ann", grid_form(EXAMPLES / "ann.yaml"))
        c.post(
            f"/allin/{ai}/players", data={"name": "Bob"}, files={"photo": ("p.jpg", webphotos.photo(1), "image/jpeg")}
        )
        photo = store(c).game(ai).data["players"][1]["photo"]
    with client(tmp_path) as c:  # a new server on the same data folder
        assert c.get(f"/flip7/{f7}/report.json").json()["totals"] == {"Ann": 72, "Bob": 4, "Cy": 0}
        assert c.get(f"/allin/{ai}/blob/{photo}").content == webphotos.photo(1)
        rep = c.get(f"/allin/{ai}/report.json").json()
        assert [p["player"] for p in rep["players"]] == ["Ann", "Bob"]
        c.post(f"/allin/{ai}/delete")
        assert c.get(f"/allin/{ai}").status_code == 404
        assert store(c).blob(ai, photo) is None


@pytest.mark.slow
def test_the_pages_jpeg_is_the_annotated_picture_the_png_holds():
    """The web page's JPEG is made from the annotated picture itself (no PNG encoded and decoded on the way):
    it must show exactly the picture that ``sheetsmith verify`` writes as ``.read.png``."""
    from PIL import Image

    from generator.jobs.photo_reads import read_sheet
    from generator.reader.output import annotated_png
    from generator.reader.read import read_photo

    jpeg = webphotos.photo(1)
    page = read_sheet(jpeg, ".jpg", layout=None, player="Bob", display="bob.jpg")
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "photo.jpg"
        path.write_bytes(jpeg)
        png = annotated_png(read_photo(path, display="bob.jpg", player="Bob"))
    with Image.open(io.BytesIO(png)) as im:
        buf = io.BytesIO()
        im.convert("RGB").save(buf, "JPEG", quality=85)  # the PNG's pixels, as a JPEG of the same quality
    assert page["jpeg"] == buf.getvalue()


def test_boxes_kept_as_shares_of_the_page_move_onto_the_pictures_page_part():
    # a picture of an A4 page at 4 px/mm (840 × 1188) beside its 72 mm column (288 px): 1128 px wide in all
    from PIL import Image

    from generator.jobs.photo_reads import page_boxes_on_picture

    buf = io.BytesIO()
    Image.new("RGB", (1128, 1188), "white").save(buf, "JPEG")
    moved = page_boxes_on_picture({"e2": [0.5, 0.2, 0.1, 0.05]}, buf.getvalue())
    assert moved["e2"] == pytest.approx([0.5 * 840 / 1128, 0.2, 0.1 * 840 / 1128, 0.05])
    assert page_boxes_on_picture({"e2": [0.5, 0.2, 0.1, 0.05]}, b"not a picture") == {"e2": [0.5, 0.2, 0.1, 0.05]}


def test_allin_typed_sheet_spending_more_chips_than_earned_is_shown_impossible(web):
    """As ``sheetsmith verify`` marks it: a player spends only chips already earned (6 earned, 9 spent here), so
    no game produces the sheet; it is scored as written, never shown clear."""
    gid = new_allin(web)
    form = grid_form(EXAMPLES / "ann.yaml")
    assert form["chips_earned"] == "6"
    form["chips_spent"] = "9"
    add_typed(web, gid, "Ann", form)
    add_typed(web, gid, "Bob", grid_form(EXAMPLES / "bob.yaml"))
    page = html.unescape(web.get(f"/allin/{gid}").text)
    players = page[page.index('id="players"') : page.index('id="score"')]
    ann = players[players.index(">Ann<") : players.index(">Bob<")]
    bob = players[players.index(">Bob<") :]
    assert "✗ impossible sheet" in ann and "✓ clear" not in ann
    assert "✓ clear" in bob
    assert "No game can produce the sheet of Ann" in page
    assert re.search(r"<td>Ann <small>\(impossible sheet\)</small></td>", page)
    assert "9 chips spent but only 6 earned" in page


def flip7_rounds(c: TestClient, gid: str) -> list:
    return store(c).game(gid).data["rounds"]


def test_flip7_the_same_round_sent_twice_is_saved_once(web):
    gid = new_flip7(web)
    form = {**tap({0: ["3", "5"], 1: "bust", 2: ["12"]}), "next": "1"}
    assert web.post(f"/flip7/{gid}/rounds", data=form).status_code == 200
    assert web.post(f"/flip7/{gid}/rounds", data=form).status_code == 200  # a double tap, a resent form
    assert len(flip7_rounds(web, gid)) == 1


def test_flip7_two_phones_saving_round_1_keep_the_first_and_tell_the_second(web):
    gid = new_flip7(web)
    # each phone tapped its own player into the page made for round 1
    ann = web.post(f"/flip7/{gid}/rounds", data={**tap({0: ["3", "5"], 1: [], 2: []}), "next": "1"})
    bob = web.post(f"/flip7/{gid}/rounds", data={**tap({0: [], 1: ["9"], 2: []}), "next": "1"})
    assert ann.status_code == 200 and bob.status_code == 409
    assert "round 1 was saved on another phone meanwhile" in html.unescape(bob.text) and "reload" in bob.text
    assert len(flip7_rounds(web, gid)) == 1  # never a second, half round


def test_flip7_a_second_undo_from_the_same_page_removes_nothing_more(web):
    gid = new_flip7(web)
    for k in (1, 2):
        web.post(f"/flip7/{gid}/rounds", data={**tap({0: ["3"], 1: ["4"], 2: ["5"]}), "next": str(k)})
    assert len(flip7_rounds(web, gid)) == 2
    web.post(f"/flip7/{gid}/undo", data={"rounds": "2"})
    web.post(f"/flip7/{gid}/undo", data={"rounds": "2"})  # the same tap again, or a second phone on the old page
    assert len(flip7_rounds(web, gid)) == 1
    assert web.post(f"/flip7/{gid}/undo", data={"rounds": "many"}).status_code == 422


@pytest.mark.slow
def test_allin_a_correction_made_on_a_reading_since_replaced_is_refused(web):
    gid = new_allin(web)
    photo = {"photo": ("bob.jpg", webphotos.photo(1), "image/jpeg")}
    r = web.post(f"/allin/{gid}/players", data={"name": "Bob"}, files=photo)
    bob = str(r.url).split("/p/")[1]
    first = re.search(r'name="revision" value="([^"]+)"', r.text).group(1)  # the tab's sheet, as it showed it
    web.post(f"/allin/{gid}/p/{bob}/photo", data={"again": "1"})  # read again in another tab
    tap = {"field": "a1", "rank": "A", "suit": "S"}
    r = web.post(f"/allin/{gid}/p/{bob}/fix", data={**tap, "revision": first})
    assert r.status_code == 409 and "taken again or typed in on another phone" in html.unescape(r.text)
    assert store(web).game(gid).data["players"][0].get("corrections", {}) == {}
    page = web.get(f"/allin/{gid}/p/{bob}").text
    second = re.search(r'name="revision" value="([^"]+)"', page).group(1)
    web.post(f"/allin/{gid}/p/{bob}/grid", data=grid_form(EXAMPLES / "bob.yaml"))  # typed in on another phone
    r = web.post(f"/allin/{gid}/p/{bob}/fix", data={**tap, "revision": second})
    assert r.status_code == 409
    page = web.get(f"/allin/{gid}/p/{bob}").text
    third = re.search(r'name="revision" value="([^"]+)"', page).group(1)
    r = web.post(f"/allin/{gid}/p/{bob}/fix", data={**tap, "revision": third})
    assert r.status_code == 200 and store(web).game(gid).data["players"][0]["corrections"] == {"a1": "AS"}


def test_allin_two_adds_of_one_name_at_once_make_one_player(web, monkeypatch):
    """Two phones add "Ann" at the same moment: each page checked the name before the other's was stored (as if
    the early check saw no Ann), and the store, checking again as it writes, keeps one Ann."""
    import generator.web.allin_pages as pages

    monkeypatch.setattr(pages, "_name_problem", lambda *args, **kwargs: None)  # each request's stale view
    gid = new_allin(web)
    sheet = {"file": ("ann.yaml", (EXAMPLES / "ann.yaml").read_bytes(), "text/yaml")}
    first = web.post(f"/allin/{gid}/players", data={"name": "Ann", "mode": "photo"}, files=sheet)
    second = web.post(f"/allin/{gid}/players", data={"name": "ANN", "mode": "photo"}, files=sheet)
    typed = web.post(f"/allin/{gid}/new/grid", data={**grid_form(EXAMPLES / "ann.yaml"), "name": "ann"})
    assert first.status_code == 200 and second.status_code == 400 and typed.status_code == 400
    assert "already plays in this game" in second.text
    assert [p["name"] for p in store(web).game(gid).data["players"]] == ["Ann"]


def test_reader_messages_speak_of_the_games_sheet_not_of_an_option():
    from generator.web.allin_pages import in_page_words

    assert in_page_words("the photo shows a sheet of layout 'q-diamonds', not 'j-clubs' as --layout j-clubs says") == (
        "the photo shows a sheet of layout 'q-diamonds', not 'j-clubs', the sheet this game is played on"
    )
    assert in_page_words(
        "the sheet's print is that of layout 'q-diamonds', not '7-diamonds' as --layout 7-diamonds says (its code "
        "cannot be read, and where the two layouts differ the photo shows 'q-diamonds'): give --layout q-diamonds"
    ) == (
        "the sheet's print is that of layout 'q-diamonds', not '7-diamonds', the sheet this game is played on (its "
        "code cannot be read, and where the two layouts differ the photo shows 'q-diamonds'): score it in a game on "
        "the q-diamonds sheet"
    )


@pytest.mark.slow
def test_a_photo_of_another_sheet_is_refused_in_the_pages_words(web):
    gid = new_allin(web, layout="7-diamonds")
    photo = {"photo": ("ann.jpg", webphotos.photo(0), "image/jpeg")}  # a Q♦ sheet
    r = web.post(f"/allin/{gid}/players", data={"name": "Ann"}, files=photo)
    text = html.unescape(r.text)
    assert r.status_code == 422 and "--layout" not in text
    assert "the photo shows a sheet of layout 'q-diamonds', not '7-diamonds', the sheet this game is played on" in text


def test_a_pdf_chosen_as_a_sheet_file_is_named_as_a_pdf(web):
    gid = new_allin(web)
    pdf = {"file": ("scan.pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "application/pdf")}
    r = web.post(f"/allin/{gid}/players", data={"name": "Ann"}, files=pdf)
    assert r.status_code == 422 and "this is a PDF document" in r.text and "YAML" not in r.text
    assert store(web).game(gid).data["players"] == []
