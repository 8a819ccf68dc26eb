"""Flip 7 tick pads: typed in and photographed (synthetic photos from fixed seeds), scored as one game.

The expected scores are worked out by hand from the rulebook's *Scoring* section
(its own example: 3, 5, 7, 10 and 11 make 36; with the x2, 72; with a +10 instead, 46),
never taken from the code's output.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from generator.core.shipped import resolve_layout
from generator.games.flip7.rules import tick_row_problems
from generator.games.registry import load_any
from generator.printing.paper import paper
from tests.synth.sheet_photos import HandStyle, Pen, PhotoParams, clean_params
from tests.synth.tickpad import synth_tick_photo

DPI = 150

# Three players, three rounds, worked by hand:
#   round 1  Ann 3 5 7 10 11 ×2 → (3+5+7+10+11)×2 = 72      Bob 3 5 7 10 11 +10 → 36+10 = 46   Cy BUST → 0
#   round 2  Ann 12 +4 → 16      Bob 0 1 2 4 6 8 9 (Flip 7) → 30+15 = 45      Cy 9 8 ×2 → 17×2 = 34
#   round 3  Ann 4 9 BUST → 0    Bob BUST → 0                                  Cy 12 11 +6 → 23+6 = 29
# totals: Ann 88, Bob 91, Cy 63; nobody at 200: in progress
TICKS = {
    "ann": [["3", "5", "7", "10", "11", "×2"], ["12", "+4"], ["4", "9", "BUST"]],
    "bob": [["3", "5", "7", "10", "11", "+10"], ["0", "1", "2", "4", "6", "8", "9"], ["BUST"]],
    "cy": [["BUST"], ["8", "9", "×2"], ["11", "12", "+6"]],
}
TYPED = {
    "ann": '[3, 5, 7, 10, 11, x2]\n  - [12, "+4"]\n  - [4, 9, bust]',
    "bob": '[3, 5, 7, 10, 11, "+10"]\n  - [0, 1, 2, 4, 6, 8, 9]\n  - bust',
    "cy": 'bust\n  - [8, 9, x2]\n  - [11, 12, "+6"]',
}
ROUNDS = [{"ann": 72, "bob": 46, "cy": 0}, {"ann": 16, "bob": 45, "cy": 34}, {"ann": 0, "bob": 0, "cy": 29}]
TOTALS = {"ann": 88, "bob": 91, "cy": 63}


def typed(player: str, rounds: str, extra: str = "") -> str:
    return f"game: flip7\nsheet: tick-pad\nplayer: {player}\n{extra}rounds:\n  - {rounds}\n"


def params(**kw) -> PhotoParams:
    """A clean photo of the pad, 2000 × 1500, upright, unless told otherwise."""
    return clean_params(**{"frame": (2000, 1500), "rotation": 0.0, **kw})


BLUE = HandStyle(Pen("blue", (0.12, 0.25, 0.65), 0.4), box_mark="tick")
PENCIL = HandStyle(Pen("pencil", (0.45, 0.45, 0.46), 0.45, grainy=True), box_mark="mixed")


def pad():
    return load_any(resolve_layout("flip7-tick-pad"))


def run_cli(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "generator.cli.app", "verify", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def test_typed_in_tick_pads_score_as_one_game(tmp_path):
    for name, rounds in TYPED.items():
        (tmp_path / f"{name}.yaml").write_text(typed(name, rounds), encoding="utf-8")
    res = run_cli("ann.yaml", "bob.yaml", "cy.yaml", "--json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    assert got["rounds"] == ROUNDS and got["totals"] == TOTALS
    assert got["status"] == "in_progress" and got["winners"] == []


@pytest.mark.slow
@pytest.mark.parametrize("rotation, style, seed", [(0.0, BLUE, 1), (183.0, PENCIL, 2), (-88.0, BLUE, 3)])
def test_photographed_tick_pads_verify_like_their_typed_in_twins(tmp_path, rotation, style, seed):
    for k, (name, rows) in enumerate(TICKS.items()):
        scores = [r[name] for r in ROUNDS]
        photo = synth_tick_photo(
            pad(),
            rows,
            paper("a4"),
            f"{seed}:{name}",
            params=params(rotation=rotation + 7 * k),
            style=style,
            dpi=DPI,
            scores=scores,
            player=name,
        )
        (tmp_path / f"{name}.jpg").write_bytes(photo.jpeg)
    res = run_cli("ann.jpg", "bob.jpg", "cy.jpg", "--json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    assert got["rounds"] == ROUNDS and got["totals"] == TOTALS and got["status"] == "in_progress"
    text = (tmp_path / "ann.read.yaml").read_text(encoding="utf-8")
    assert "sheet: tick-pad" in text and "player: ann" in text and "target: 200" in text
    assert '  - [3, 5, 7, 10, 11, x2]\n  - [12, "+4"]\n  - [4, 9, bust]\n' in text  # the typed-in twin, row by row
    assert (tmp_path / "ann.read.png").read_bytes()[:4] == b"\x89PNG"
    # the file written verifies to the same game as the photos
    res2 = run_cli("ann.read.yaml", "bob.read.yaml", "cy.read.yaml", "--json", cwd=tmp_path)
    assert res2.returncode == 0 and json.loads(res2.stdout)["totals"] == TOTALS


@pytest.mark.slow
@pytest.mark.parametrize("residue", [0.2, 0.35, 0.5, 0.7])
def test_a_rubbed_out_tick_is_never_counted(tmp_path, residue):
    from generator.reader.read import read_photo

    photo = synth_tick_photo(
        pad(), TICKS["ann"], paper("a4"), "erased", params=params(), style=PENCIL, dpi=DPI, erased=[(2, "7", residue)]
    )
    (tmp_path / "ann.jpg").write_bytes(photo.jpeg)
    reading = read_photo(tmp_path / "ann.jpg")
    assert "7" not in reading.rows[1].ticked  # blank, or unsure ('?'): never a tick
    assert [r.ticked for r in reading.played if r.round != 2] == [TICKS["ann"][0], TICKS["ann"][2]]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [4, 5, 6, 8])  # (each was counted before)
def test_a_pencilled_tick_rubbed_out_on_a_blue_pen_pad_is_never_counted(tmp_path, seed):
    """A 7 pencilled in on a pad ticked in blue pen, then rubbed out (60 % of the graphite left): in the
    brightest channel as dark as the pen's ticks, in luminance far lighter."""
    from generator.reader.read import read_photo

    photo = synth_tick_photo(
        pad(), TICKS["ann"], paper("a4"), f"erased{seed}", params=params(), style=BLUE, dpi=DPI, erased=[(2, "7", 0.6)]
    )
    (tmp_path / "ann.jpg").write_bytes(photo.jpeg)
    reading = read_photo(tmp_path / "ann.jpg")
    assert "7" not in reading.rows[1].ticked
    assert [r.ticked for r in reading.played if r.round != 2] == [TICKS["ann"][0], TICKS["ann"][2]]


@pytest.mark.slow
def test_a_half_rubbed_out_tick_is_a_question_mark_and_exit_1(tmp_path):
    rows = TICKS["ann"]
    photo = synth_tick_photo(
        pad(), rows, paper("a4"), "erased", params=params(), style=PENCIL, dpi=DPI, erased=[(2, "7", 0.5)]
    )
    (tmp_path / "ann.jpg").write_bytes(photo.jpeg)
    res = run_cli("ann.jpg", cwd=tmp_path)
    assert res.returncode == 1, res.stderr
    line = next(ln for ln in res.stderr.splitlines() if ": error: " in ln)
    assert line.startswith("ann.read.yaml:") and "round2.7: uncertain in the photo ann.jpg" in line
    lineno, col = (int(v) for v in line.split(":")[1:3])
    text = (tmp_path / "ann.read.yaml").read_text(encoding="utf-8")
    assert text.splitlines()[lineno - 1][col - 1 : col + 3] == '"7?"'
    assert text.splitlines()[lineno - 1] == '  - [7?, 12, "+4"]'.replace("7?", '"7?"')
    # the file read back still holds the '?': not scored, exit 1; once a person decides, it scores
    res = run_cli("ann.read.yaml", cwd=tmp_path)
    assert res.returncode == 1 and "round 2: uncertain in the photo" in res.stderr
    (tmp_path / "fixed.yaml").write_text(text.replace('"7?", ', ""), encoding="utf-8")
    res = run_cli("fixed.yaml", "--json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["totals"] == {"ann": 88}


@pytest.mark.slow
def test_a_blank_pad_reads_no_rounds(tmp_path):
    photo = synth_tick_photo(pad(), [], paper("a4"), "blank", params=params(rotation=270.0), style=BLUE, dpi=DPI)
    (tmp_path / "dee.jpg").write_bytes(photo.jpeg)
    from generator.reader.read import read_photo

    reading = read_photo(tmp_path / "dee.jpg")
    assert reading.uncertain == [] and reading.played == []
    assert "rounds: []" in reading.to_yaml()


@pytest.mark.parametrize(
    "cards, bust, needle",
    [
        ([0, 1, 2, 3, 4, 5, 6], True, "BUST ticked beside 7 different numbers"),  # a Flip 7 ends the round: no bust
        ([0, 1, 2, 3, 4, 5, 6, 7], False, "8 number cards"),  # more than 7 numbers
        ([3, "x2", "x2"], False, "x2 appears twice"),  # one x2 in the deck
    ],
)
def test_impossible_rows_are_flagged(cards, bust, needle):
    assert any(needle in m for m in tick_row_problems(cards, bust))


def test_possible_rows_are_not_flagged():
    assert tick_row_problems([4, 9], True) == []  # busted with a 4 and a 9 out
    assert tick_row_problems([0, 1, 2, 3, 4, 5, 6, "x2", "+10"], False) == []  # a Flip 7 with modifiers


@pytest.mark.slow
def test_impossible_rows_make_the_game_need_correcting(tmp_path):
    (tmp_path / "ann.yaml").write_text(
        typed("ann", "[0, 1, 2, 3, 4, 5, 6, bust]\n  - [3, 5, 7, 10, 11, 12, 9, 8]"), encoding="utf-8"
    )
    (tmp_path / "bob.yaml").write_text(typed("bob", "[12]\n  - [x2, x2, 4]"), encoding="utf-8")
    res = run_cli("ann.yaml", "bob.yaml", "--json", cwd=tmp_path)
    assert res.returncode == 1
    got = json.loads(res.stdout)
    assert got["status"] == "needs_correction" and got["winners"] == []
    where = {(p["round"], p["player"]) for p in got["impossible"]}
    assert {(1, "ann"), (2, "ann"), (2, "bob")} <= where
    res = run_cli("ann.yaml", "bob.yaml", cwd=tmp_path)
    assert "ann.yaml:5:5: error: round 1, ann: BUST ticked beside 7 different numbers" in res.stdout + res.stderr


@pytest.mark.slow
def test_the_end_of_the_game_tie_and_winner(tmp_path):
    # Ann: 12 11 10 9 8 7 6 + ×2 +10 → (63)×2 + 10 + 15 = 151, then 12 11 10 +10 → 43: 194, then 8 → 202
    # Bob: 5 4 3 2 1 0 +8 → 23, then 12 ×2 → 24 (47), then 12 11 10 9 8 7 6 → 63+15 = 78 (125)
    ann = '[6, 7, 8, 9, 10, 11, 12, x2, "+10"]\n  - [10, 11, 12, "+10"]\n  - [8]'
    bob = '[0, 1, 2, 3, 4, 5, "+8"]\n  - [12, x2]\n  - [6, 7, 9, 10, 11, 12, 0]'
    (tmp_path / "ann.yaml").write_text(typed("ann", ann), encoding="utf-8")
    (tmp_path / "bob.yaml").write_text(typed("bob", bob), encoding="utf-8")
    got = json.loads(run_cli("ann.yaml", "bob.yaml", "--json", cwd=tmp_path).stdout)
    assert got["totals"] == {"ann": 202, "bob": 47 + 55 + 15}
    assert got["status"] == "finished" and got["winners"] == ["ann"]
    # a pad with fewer rounds than the others: the rounds it lacks count 0, reported (exit 1)
    (tmp_path / "bob.yaml").write_text(typed("bob", '[0, 1, 2, 3, 4, 5, "+8"]'), encoding="utf-8")
    res = run_cli("ann.yaml", "bob.yaml", "--json", cwd=tmp_path)
    assert (
        res.returncode == 1
        and "round 2, bob: this pad has 1 round, the game 3; the rounds it lacks count 0" in res.stdout + res.stderr
    )
    assert json.loads(res.stdout)["totals"] == {"ann": 202, "bob": 23}
    # a tie for the lead at the target plays another round: with a target of 50,
    # Ann 12 11 10 9 +8 → 42+8 = 50 and Bob 12 11 10 9 8 → 50; then Ann 3, Bob 2: Ann 53 wins
    (tmp_path / "ann.yaml").write_text(typed("ann", '[9, 10, 11, 12, "+8"]', "target: 50\n"), encoding="utf-8")
    (tmp_path / "bob.yaml").write_text(typed("bob", "[8, 9, 10, 11, 12]", "target: 50\n"), encoding="utf-8")
    got = json.loads(run_cli("ann.yaml", "bob.yaml", "--json", cwd=tmp_path).stdout)
    assert (
        got["totals"] == {"ann": 50, "bob": 50} and got["status"] == "tied_play_another_round" and got["winners"] == []
    )
    (tmp_path / "ann.yaml").write_text(typed("ann", '[9, 10, 11, 12, "+8"]\n  - [3]', "target: 50\n"), encoding="utf-8")
    (tmp_path / "bob.yaml").write_text(typed("bob", "[8, 9, 10, 11, 12]\n  - [2]", "target: 50\n"), encoding="utf-8")
    got = json.loads(run_cli("ann.yaml", "bob.yaml", "--json", cwd=tmp_path).stdout)
    assert got["totals"] == {"ann": 53, "bob": 52} and got["status"] == "finished" and got["winners"] == ["ann"]


@pytest.mark.slow
def test_the_web_scorer_starts_a_game_from_tick_pad_photos(tmp_path):
    from fastapi.testclient import TestClient

    from generator.web.app import create_app

    files = []
    for k, (name, rows) in enumerate(TICKS.items()):
        photo = synth_tick_photo(
            pad(),
            rows,
            paper("a4"),
            f"web:{name}",
            params=params(rotation=90.0 * k),
            style=BLUE,
            dpi=DPI,
            scores=[r[name] for r in ROUNDS],
            player=name,
        )
        files.append(("photos", (f"{name}.jpg", photo.jpeg, "image/jpeg")))
    names = {"player": list(TICKS)}  # a name box per photo, as the page's script makes them
    with TestClient(
        create_app(tmp_path / "store", photo_workers=1),
        raise_server_exceptions=False,
        headers={"Origin": "http://testserver"},
    ) as web:
        res = web.post("/flip7/photos", data={"title": "pads", **names}, files=files)
        assert res.status_code == 200 and "/flip7/" in str(res.url), res.text[:500]
        game_id = str(res.url).rstrip("/").split("/")[-1]
        got = web.get(f"/flip7/{game_id}/report.json").json()
        assert got["rounds"] == ROUNDS and got["totals"] == TOTALS
        # two photos are not a game: refused, nothing guessed
        res = web.post("/flip7/photos", data={"title": "two"}, files=files[:2])
        assert "2 photos; give one tick pad photo per player" in res.text
        # one pad's photo sent for two players: refused, that pad would count twice
        twin = [*files[:2], ("photos", ("dee.jpg", files[0][1][1], "image/jpeg"))]
        res = web.post("/flip7/photos", data={"title": "twin", "players": "Ann, Bob, Dee"}, files=twin)
        assert (
            "The tick pads cannot be scored yet" in res.text
            and "Dee: the same photo as Ann&#39;s (identical files)" in res.text
        )
        # players are named by people, never by the files: unnamed, they are Player 1, 2, 3
        esc = [("photos", ("ann\x1b[31m.jpg", files[0][1][1], "image/jpeg")), *files[1:]]
        res = web.post("/flip7/photos", data={"title": "esc"}, files=esc)
        assert res.status_code == 200 and "\x1b" not in res.text
        game_id = str(res.url).rstrip("/").split("/")[-1]
        assert set(web.get(f"/flip7/{game_id}/report.json").json()["totals"]) == {"Player 1", "Player 2", "Player 3"}
        # a name typed with an escape sequence, or one name too few, is refused before any photo is read
        res = web.post("/flip7/photos", data={"player": ["Ann\x1b[31m", "Bob", "Cy"]}, files=files)
        assert res.status_code == 400 and "control character" in res.text
        res = web.post("/flip7/photos", data={"players": "Ann, Bob"}, files=files)
        assert "2 names for 3 photos" in res.text


@pytest.mark.slow
def test_the_web_pages_read_a_tick_pad_photo_as_a_pad_and_refuse_it_as_an_all_in_sheet(tmp_path):
    """The web page's worker jobs: the pad's JPEG shows the picture ``verify`` writes as ``.read.png``; the All In
    job, given a pad (no layout to refuse it by), says what the photo shows, not that the reader failed."""
    import io

    from PIL import Image

    from generator.jobs.photo_reads import read_sheet, read_tick_pad
    from generator.reader.read import read_photo

    photo = synth_tick_photo(
        pad(), TICKS["cy"], paper("a4"), "web-jobs", params=params(rotation=30.0), style=BLUE, dpi=DPI
    )
    got = read_tick_pad(photo.jpeg, ".jpg", layout=None, player="cy", display="cy.jpg")
    assert got["rows"] == [["bust"], ["8", "9", "x2"], ["11", "12", "+6"]] and got["uncertain"] == []
    (tmp_path / "cy.jpg").write_bytes(photo.jpeg)
    with Image.open(io.BytesIO(read_photo(tmp_path / "cy.jpg", display="cy.jpg", player="cy").annotated_png())) as im:
        buf = io.BytesIO()
        im.convert("RGB").save(buf, "JPEG", quality=85)  # the PNG's pixels, as a JPEG of the same quality
    assert got["jpeg"] == buf.getvalue()
    assert read_sheet(photo.jpeg, ".jpg", layout=None, player="cy", display="cy.jpg") == {
        "error": "cy.jpg shows a Flip 7 tick pad, not an All In sheet: score it on the Flip 7 page"
    }


@pytest.mark.slow
def test_layout_option_names_the_pad_or_is_refused(tmp_path):
    photo = synth_tick_photo(
        pad(), TICKS["cy"], paper("a4"), "layout", params=params(rotation=30.0), style=BLUE, dpi=DPI
    )
    (tmp_path / "cy.jpg").write_bytes(photo.jpeg)
    res = run_cli("cy.jpg", "--layout", "q-diamonds", cwd=tmp_path)
    assert res.returncode == 2 and "shows a sheet of layout 'flip7-tick-pad', not 'q-diamonds'" in res.stderr
    assert not (tmp_path / "cy.read.yaml").exists()
    res = run_cli("cy.jpg", "--layout", "flip7-tick-pad", "--json", cwd=tmp_path)
    assert res.returncode == 0 and json.loads(res.stdout)["totals"] == {"cy": 63}


# --- what only a person can settle: a score written without ticks, a target the code did not confirm -------------


def _render_pages(tmp_path: Path, pad_text: str, *extra: str) -> list[Path]:
    """The tick pad filled from a typed-in score pad, one PNG page per player (``p-p01.png`` …)."""
    (tmp_path / "pad.yaml").write_text(pad_text, encoding="utf-8")
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator.cli.app",
            "render",
            "flip7-tick-pad",
            "--fill",
            "pad.yaml",
            "-f",
            "png",
            "--pages",
            "all",
            "-o",
            "p.png",
            *extra,
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    return sorted(tmp_path.glob("p-p*.png"))


@pytest.mark.slow
def test_a_score_written_on_a_row_with_nothing_ticked_is_never_read_as_an_empty_round(tmp_path):
    # Cy's round 1 has only its score written (20) and no box ticked: read as [] it would count 0
    pages = _render_pages(
        tmp_path,
        "game: flip7\nplayers: [Ann, Cy]\nrounds:\n  - Ann: [3, 5]\n    Cy: {score: 20}\n"
        "  - Ann: [4]\n    Cy: [6, 7]\n",
    )
    res = run_cli(pages[1].name, cwd=tmp_path)
    assert res.returncode == 1 and "a score is written but no box is ticked" in res.stderr
    read = (tmp_path / "p-p02.read.yaml").read_text(encoding="utf-8")
    assert 'rounds:\n  - ["?"]\n  - [6, 7]\n' in read
    assert run_cli(pages[0].name, cwd=tmp_path).returncode == 0  # Ann's rows are ticked: nothing to ask


@pytest.mark.slow
def test_a_pad_whose_code_was_not_read_leaves_its_target_to_a_person(tmp_path):
    # printed for a game to 100; the code is covered, so --layout names the pad and the target printed on it is
    # unchecked
    from PIL import Image, ImageDraw

    [page] = _render_pages(
        tmp_path, "game: flip7\ntarget: 100\nplayers: [Cy]\nrounds:\n  - Cy: [3, 5]\n", "--variant", "target=100"
    )
    img = Image.open(page).convert("RGB")
    k = img.size[0] / 297.0  # pixels per mm of the landscape page
    ImageDraw.Draw(img).rectangle(
        [267 * k, 23 * k, 289 * k, 45 * k], fill="white"
    )  # the sheet code (269–287, 25–43 mm)
    img.save(tmp_path / "cy.png")
    res = run_cli("cy.png", "--layout", "flip7-tick-pad", cwd=tmp_path)
    assert res.returncode == 1 and "target" in res.stderr
    read = (tmp_path / "cy.read.yaml").read_text(encoding="utf-8")
    assert 'target: "200?"' in read and "rounds:\n  - [3, 5]\n" in read
    (tmp_path / "cy.yaml").write_text(
        read.replace('"200?"', "100"), encoding="utf-8"
    )  # the person writes what the pad shows
    res = run_cli("cy.yaml", "--json", cwd=tmp_path)
    assert res.returncode == 0 and json.loads(res.stdout)["totals"] == {"cy": 8}  # named after the photo


def test_bust_written_twice_in_a_row_is_refused_where_it_is(tmp_path):
    """A tick pad's row has one BUST box: ``[bust, bust]`` is a slip of the typing, named at the second one."""
    (tmp_path / "ann.yaml").write_text(typed("ann", "[bust, bust]"), encoding="utf-8")
    res = run_cli("ann.yaml", cwd=tmp_path)
    assert res.returncode == 2
    assert (
        "ann.yaml:5:12: error: round 1: bust is written twice; the row has one BUST box: write it once"
        in res.stdout + res.stderr
    )


@pytest.mark.slow
def test_a_tick_pad_player_name_has_at_most_60_characters_as_on_every_sheet(tmp_path):
    (tmp_path / "ok.yaml").write_text(typed("A" * 60, "[4]"), encoding="utf-8")
    (tmp_path / "long.yaml").write_text(typed("A" * 61, "[4]"), encoding="utf-8")
    assert run_cli("ok.yaml", cwd=tmp_path).returncode == 0
    res = run_cli("long.yaml", cwd=tmp_path)
    assert res.returncode == 2
    assert "long.yaml:3:9: error: player: string should have at most 60 characters" in res.stdout + res.stderr


def test_rounds_after_the_end_are_located_in_the_pads_that_hold_them(tmp_path):
    # Target 20.  Round 1: Ann 10+11 = 21, Bob 3, Cy 5: Ann leads alone at the target, so the game
    # ended after round 1 (rulebook End of the game).  tb.yaml holds 1 round after it, tc.yaml 2:
    # a rule broken, not an unreadable file (exit 1), named at each pad's row 2 (line 7, col 5).
    (tmp_path / "ta.yaml").write_text(typed("Ann", "[10, 11]", "target: 20\n"), encoding="utf-8")
    (tmp_path / "tb.yaml").write_text(typed("Bob", "[3]\n  - [4]", "target: 20\n"), encoding="utf-8")
    (tmp_path / "tc.yaml").write_text(typed("Cy", "[5]\n  - [6]\n  - [7]", "target: 20\n"), encoding="utf-8")
    res = run_cli("ta.yaml", "tb.yaml", "tc.yaml", "--json", cwd=tmp_path)
    assert res.returncode == 1, res.stderr
    got = json.loads(res.stdout)
    assert (got["status"], got["winners"]) == ("needs_correction", [])
    assert got["impossible"] == [{"round": 2, "player": "Bob"}, {"round": 2, "player": "Cy"}]
    assert "ta.yaml" not in res.stderr  # Ann's pad stops where the game did: nothing lacks, nothing extra
    assert (
        "tb.yaml:7:5: error: round 2, Bob: the game ended after round 1 (Ann leads alone with 21, target 20); "
        "remove the 1 round after it" in res.stderr
    )
    assert (
        "tc.yaml:7:5: error: round 2, Cy: the game ended after round 1" in res.stderr
        and "remove the 2 rounds" in res.stderr
    )


@pytest.mark.slow
def test_a_variant_flip7_bonus_is_scored_on_tick_pads(tmp_path):
    # `render flip7-tick-pad --variant target=300,flip7_bonus=30` prints a bonus of 30.
    # Ann: 0..6 = 21 + 30 = 51; Bob: 12 x2 = 24.  With the rulebook's 15, Ann's row would be 36.
    (tmp_path / "ann.yaml").write_text(
        typed("Ann", "[0, 1, 2, 3, 4, 5, 6]", "target: 300\nflip7_bonus: 30\n"), encoding="utf-8"
    )
    (tmp_path / "bob.yaml").write_text(typed("Bob", "[12, x2]", "target: 300\nflip7_bonus: 30\n"), encoding="utf-8")
    res = run_cli("ann.yaml", "bob.yaml", "--json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["rounds"] == [{"Ann": 51, "Bob": 24}]
    # one game has one bonus: a pad without the line (15) beside one of 30 is refused, named where it is
    (tmp_path / "bob.yaml").write_text(typed("Bob", "[12, x2]", "target: 300\n"), encoding="utf-8")
    res = run_cli("ann.yaml", "bob.yaml", cwd=tmp_path)
    assert res.returncode == 2 and "bob.yaml:1:1: error: a Flip 7 bonus of 15, but 'ann.yaml' says 30" in res.stderr


def _pad_decided(fifth: dict[str, tuple[float, ...]], edge: str | None = None):
    """Rows decided from a five-round pad (5 mm boxes 1 mm apart, in the order of ``TICK_KEYS``): rounds 1–4 hold
    one clear tick each in box 5 (ink 0.30, strokes 0.6 dark: the pad's hand, its ink 0.29 over the rows' paper at
    0.01), every other box blank (ink 0.01, strokes 0.05); the fifth round's boxes ``fifth`` get ``(ink, strokes)``
    or ``(ink, strokes, strokes in luminance)``.  ``edge``: in every round that box lies on a hard shadow's edge
    (hidden, its "ink" 0.90: darker than any tick)."""
    from types import SimpleNamespace

    from generator.printing.scene import MarkTarget
    from generator.reader.kinds.tickpad import TICK_KEYS, decide
    from generator.reader.marks import Measurement, TargetInk

    marks, inks = [], {}
    for n in range(1, 6):
        for k in TICK_KEYS:
            t = MarkTarget("tick", f"round{n}", k, 6.0 * TICK_KEYS.index(k), 8.0 * n, 5.0, 5.0)
            marks.append(t)
            ink, peak, luma = 0.01, 0.05, []
            if n < 5 and k == "5":
                ink, peak = 0.30, 0.6
            elif n == 5 and k in fifth:
                ink, peak, *luma = fifth[k]
            hidden = "edge" if k == edge else ""
            if hidden:
                ink, peak = 0.90, 0.9
            inks[("tick", f"round{n}", k)] = TargetInk(
                t, ink, peak=peak, peak_luma=luma[0] if luma else peak, ink_luma=ink, hidden=hidden
            )
    rows = decide(SimpleNamespace(marks=marks), Measurement(inks=inks, blur_mm=0.2, registration={}, noise=0.01))
    assert [r.ticked for r in rows[:4]] == [["5"]] * 4
    return rows[4]


def test_a_blank_box_crossed_by_dark_strokes_is_unsure_not_blank():
    """In the fifth round a dash in box 7 inks the box only 0.01 over paper (blank by its ink: under a quarter of
    0.29) but its strokes are 0.3 dark, half the hand's (over 0.3 of 0.6): unsure.  Box 8's strokes at 0.1 (a sixth)
    stay blank."""
    row = _pad_decided({"7": (0.02, 0.3), "8": (0.02, 0.1)})
    assert row.ticked == []
    assert set(row.unsure) == {"7"}


def test_a_thin_mark_drawn_as_hard_as_the_others_is_ticked():
    """Box 7's ink is 0.10 over paper: a third of the hand's 0.29, between the blank level (a quarter) and the sure
    one (0.4 of it), so unsure by its ink; its strokes are 0.5 dark, 0.83 of the hand's 0.6 (at least 0.75): a slash
    or a thin tick of the same pen, ticked.  Box 8 holds as much ink but strokes only 0.4 dark (0.67 of the hand's,
    as what an eraser leaves): still unsure.  Box 9 matches box 7 in the brightest channel but its strokes in
    luminance are 0.3, half the hand's there (a grey smear of pencil among pen ticks): unsure."""
    row = _pad_decided({"7": (0.11, 0.5), "8": (0.11, 0.4), "9": (0.11, 0.5, 0.3)})
    assert row.ticked == ["7"]
    assert set(row.unsure) == {"8", "9"}


def test_boxes_on_a_shadows_edge_do_not_set_the_hands_level():
    """Box +8 lies on a hard shadow's edge in every round (hidden, "ink" 0.90): it is never read, and the typical
    tick is the visible boxes' (0.29), so the fifth round's tick in box 7 (ink 0.30) is ticked, not left under a
    blank level set by the edge (a quarter of 0.89: 0.22 would leave a tick of 0.29 unsure, and lighter ones blank)."""
    row = _pad_decided({"7": (0.30, 0.6)}, edge="+8")
    assert row.ticked == ["7"]
    assert set(row.unsure) == {"+8"}


def test_a_dark_stroke_beside_a_tick_is_not_taken_for_a_thin_mark():
    """Box 8 is ticked clearly (ink 0.30); box 9 beside it holds ink 0.10 with strokes 0.5 dark: it may be box 8's
    tick running on, so it stays unsure, while the same in box 11, two boxes away, is a thin mark of its own."""
    row = _pad_decided({"8": (0.30, 0.6), "9": (0.11, 0.5), "11": (0.11, 0.5)})
    assert row.ticked == ["8", "11"]
    assert set(row.unsure) == {"9"}
