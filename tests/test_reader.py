"""Reading phone photos of filled All In sheets (issue 8).

Every photo here is synthetic, made in the test from a fixed seed
(``tests/synth/sheet_photos.py``): a bot's finished sheet, drawn as a player
marks it and photographed.  The truth is the typed-in sheet it was drawn
from; the reader never sees it.
"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from generator.core.shipped import resolve_layout
from generator.games.allin.bot import simulate_game
from generator.games.allin.filled import FilledSheet
from generator.games.allin.grid import cell_name
from generator.games.allin.layout import load_layout
from generator.games.allin.scoring import report, score_game
from generator.printing.paper import paper
from generator.reader import read_photo
from tests.synth.sheet_photos import HandStyle, Pen, PhotoParams, clean_params, synth_photo

REPO = Path(__file__).resolve().parents[1]
DPI = 150  # pages rendered at 150 dpi: small photos, quick tests


def params(**kw) -> PhotoParams:
    """A clean photo of the sheet, 1600 × 1200, unless told otherwise."""
    return clean_params(**kw)


PENCIL = HandStyle(
    Pen("pencil", (0.45, 0.45, 0.46), 0.45, grainy=True), box_mark="mixed", bubble="mixed", gap_circles=0.4
)
BLUE = HandStyle(Pen("blue", (0.12, 0.25, 0.65), 0.4), box_mark="tick", bubble="full")


def game(layout_id: str, seed: int, players=("Ann", "Bob")):
    lay = load_layout(resolve_layout(layout_id))
    return simulate_game(lay, list(players), seed).result


def write_photo(tmp_path: Path, name: str, sheet, pap, seed, p: PhotoParams, style=BLUE, **kw) -> Path:
    photo = synth_photo(sheet, pap, seed, params=p, style=style, dpi=DPI, **kw)
    path = tmp_path / name
    path.write_bytes(photo.jpeg)
    return path


def assert_reads_truth(reading, sheet: FilledSheet) -> None:
    assert reading.uncertain == []
    for coord, cr in reading.cells.items():
        want = sheet.cards.get(coord)
        assert (cr.card.code if cr.card else None) == (want.code if want else None), cr.cell
    assert reading.chips_earned.value == sheet.chips_earned
    assert reading.chips_spent.value == sheet.chips_spent


# --- the sheet carries what the reader needs ------------------------------------------------


@pytest.mark.slow
def test_every_layout_prints_markers_and_a_sheet_code():
    import cv2

    from generator.core.shipped import shipped_layouts
    from generator.games.allin.sheet import build_allin_sheet
    from generator.printing.backends import render_bytes
    from generator.printing.readable import SheetCode, geometry_hash

    for item in [s for s in shipped_layouts() if s.game == "allin"]:
        lay = load_layout(item.path)
        for pid in ("a4", "letter"):
            pap = paper(pid)
            scene = build_allin_sheet(lay, pap)
            markers = [m for m in scene.marks if m.kind == "marker"]
            assert {"tl", "tr", "br", "bl"} <= {m.owner for m in markers}
            assert len({m.key for m in markers}) == len(markers)  # distinct ids
            for m in markers:
                assert m.w >= 12 and m.x >= 10 and m.y >= 10
                assert m.x + m.w <= pap.width - 10 and m.y + m.h <= pap.height - 10
            assert geometry_hash(scene) == geometry_hash(build_allin_sheet(lay, pap))  # drawn the same way each time
    # the code reads back from a plain render, and names layout, paper, format and geometry
    lay = load_layout(resolve_layout("k-spades"))
    scene = build_allin_sheet(lay, paper("letter"))
    png = render_bytes([scene], "png", dpi=200)
    img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(img)
    code = SheetCode.parse(text)
    assert code == SheetCode(1, "k-spades", "letter", geometry_hash(scene))
    ids = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)).detectMarkers(img)[1]
    assert sorted(int(i) for i in ids.ravel()) == sorted(int(m.key) for m in scene.marks if m.kind == "marker")


# --- reading ------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "layout_id, paper_id, seed, style, p",
    [
        ("q-diamonds", "a4", 1, BLUE, params()),
        ("k-spades", "letter", 2, PENCIL, params(rotation=183.0, tilt=25.0, tilt_axis=100.0)),  # upside down, tilted
        (
            "a-hearts",
            "a4",
            3,
            BLUE,
            params(rotation=-80.0, light_min=0.42, light_angle=200.0, shadow=0.35),
        ),  # dim corner, shadow
    ],
    ids=["upright", "upside-down", "lighting-gradient"],
)
def test_photo_reads_every_mark_and_scores_like_the_typed_in_sheet(tmp_path, layout_id, paper_id, seed, style, p):
    result = game(layout_id, seed)
    sheet = result.sheets[0]
    path = write_photo(tmp_path, "ann.jpg", sheet, paper(paper_id), seed, p, style, game=result.score)
    reading = read_photo(path)
    assert reading.layout.id == layout_id and reading.paper.id == paper_id
    assert len(reading.fit.found) >= 4 and reading.fit.residual_mm < 1.0
    assert_reads_truth(reading, sheet)
    assert 0.0 < reading.confidence <= 1.0
    read = reading.filled_sheet()
    truth = FilledSheet(sheet.layout, read.player, sheet.cards, sheet.chips_earned, sheet.chips_spent)
    assert report(score_game([read])) == report(score_game([truth]))


@pytest.mark.slow
def test_blank_sheet_reads_blank(tmp_path):
    lay = load_layout(resolve_layout("j-clubs"))
    blank = FilledSheet(lay, "nobody", {}, 0, 0)
    path = write_photo(tmp_path, "blank.jpg", blank, paper("a4"), 5, params(rotation=10.0))
    reading = read_photo(path)
    assert reading.uncertain == []
    assert all(c.status == "empty" for c in reading.cells.values())
    assert (reading.chips_earned.value, reading.chips_spent.value) == (0, 0)


@pytest.mark.slow
def test_a_doubly_ticked_rank_makes_its_space_uncertain(tmp_path):
    result = game("q-diamonds", 7)
    sheet = result.sheets[0]
    coord, card = sorted(sheet.cards.items())[5]
    name = cell_name(coord)
    other = "K" if card.rank_label != "K" else "2"
    path = write_photo(tmp_path, "ann.jpg", sheet, paper("a4"), 7, params(), extra={"ranks": [(name, other)]})
    reading = read_photo(path)
    assert [f for f, _ in reading.uncertain] == [name]
    reason = dict(reading.uncertain)[name]
    assert card.rank_label in reason and other in reason and "ticked" in reason
    assert reading.cells[coord].card is None  # never guessed
    with pytest.raises(ValueError):
        reading.filled_sheet()


# --- verify with photos --------------------------------------------------------------------------


def run_cli(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "generator", "verify", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


@pytest.mark.slow
def test_verify_mixes_photos_and_typed_in_sheets(tmp_path):
    from generator.games.allin.game_log import write_sheet

    result = game("q-diamonds", 11)
    ann, bob = result.sheets
    write_photo(tmp_path, "ann.jpg", ann, paper("a4"), 11, params(rotation=-95.0), game=result.score)
    write_sheet(tmp_path / "bob.yaml", bob)
    res = run_cli("ann.jpg", "bob.yaml", "--json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    truth = FilledSheet(ann.layout, "ann", ann.cards, ann.chips_earned, ann.chips_spent)
    want = report(score_game([truth, bob]))
    assert got == want
    text = (tmp_path / "ann.read.yaml").read_text(encoding="utf-8")
    assert "layout: q-diamonds" in text and "player: ann" in text and "?" not in text.split("game:")[1]
    assert (tmp_path / "ann.read.png").read_bytes()[:4] == b"\x89PNG"
    # the written sheet verifies on its own, to the same report
    from generator.games.allin.typed_sheet import load_allin_sheet

    assert load_allin_sheet(tmp_path / "ann.read.yaml").cards == ann.cards
    # a second run rewrites the files sheetsmith wrote; an edited .read.yaml is left alone
    assert run_cli("ann.jpg", "bob.yaml", cwd=tmp_path).returncode == 0
    (tmp_path / "ann.read.yaml").write_text(text.replace("player: ann", "player: Annie"), encoding="utf-8")
    for _ in range(3):  # refused at once, while the photo is still being decoded in the background: the
        # interpreter's exit must wait for that (a daemon thread stopped inside OpenCV aborted the process)
        res = run_cli("ann.jpg", "bob.yaml", cwd=tmp_path)
        assert res.returncode == 2 and "has been edited since sheetsmith read ann.jpg" in res.stderr, (
            res.stderr
        )  # nothing read
        assert "FATAL" not in res.stderr
    assert "player: Annie" in (tmp_path / "ann.read.yaml").read_text(encoding="utf-8")


@pytest.mark.slow
def test_uncertain_fields_are_written_as_question_marks_and_verify_fails(tmp_path):
    result = game("q-diamonds", 7)
    sheet = result.sheets[0]
    coord, card = sorted(sheet.cards.items())[5]
    name = cell_name(coord)
    write_photo(
        tmp_path,
        "cy.jpg",
        sheet,
        paper("a4"),
        7,
        params(),
        extra={"ranks": [(name, "K" if card.rank_label != "K" else "2")]},
    )
    res = run_cli("cy.jpg", cwd=tmp_path)
    assert res.returncode == 1
    line = next(ln for ln in res.stderr.splitlines() if ": error: " in ln)
    assert line.startswith("cy.read.yaml:") and f"{name}: uncertain in the photo cy.jpg" in line
    lineno, col = (int(v) for v in line.split(":")[1:3])
    text = (tmp_path / "cy.read.yaml").read_text(encoding="utf-8")
    assert text.splitlines()[lineno - 1][col - 1] == "?"
    assert f"#   {name}:" in text
    assert (tmp_path / "cy.read.png").exists()


def png_header_only(width: int, height: int) -> bytes:
    """A PNG that claims ``width × height`` pixels: the header, no picture (a decompression bomb's shape)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b"")
    )


@pytest.fixture(scope="module")
def bad_photos(tmp_path_factory):
    """One file per error case, made once."""
    import cv2

    folder = tmp_path_factory.mktemp("bad")
    rng = np.random.default_rng(3)
    table = cv2.GaussianBlur(
        rng.uniform(0, 255, (900, 1200, 3)).astype(np.uint8), (0, 0), 1.2
    )  # a wooden table, no sheet
    cv2.imwrite(str(folder / "table.jpg"), table)
    cv2.imwrite(str(folder / "plain.png"), np.full((1200, 1600, 3), (90, 140, 200), np.uint8))  # one even colour
    (folder / "notes.jpg").write_text("this is not a picture\n", encoding="utf-8")
    (folder / "bomb.png").write_bytes(png_header_only(30000, 30000))
    cv2.imwrite(str(folder / "tiny.jpg"), table[:400, :500])
    result = game("q-diamonds", 4)
    sheet = result.sheets[0]
    write_photo(folder, "far.jpg", sheet, paper("a4"), 4, params(frame=(1600, 1200), coverage=0.1))
    write_photo(folder, "blurred.jpg", sheet, paper("a4"), 4, params(defocus=6.0))
    write_photo(folder, "qd.jpg", sheet, paper("a4"), 4, params())
    return folder


@pytest.mark.slow
@pytest.mark.parametrize(
    "name, args, message",
    [
        ("table.jpg", (), "no All In sheet found"),
        # nothing in it at all: no edges, yet not a blur (a blurred sheet would still show its tones)
        (
            "plain.png",
            (),
            "no All In sheet found: none of the sheet's corner markers (black squares) is in the photo; if the "
            "whole sheet is, move closer and hold the phone still: they were too small or too soft to make out",
        ),
        (
            "notes.jpg",
            (),
            "not an image (the file holds text): sheetsmith reads photos (JPEG, PNG, HEIC, WebP, TIFF) or typed-in "
            "sheets (.yaml)",
        ),
        ("bomb.png", (), "too large to read safely (its header claims 900 MP)"),
        ("tiny.jpg", (), "only 500 × 400 pixels"),
        ("far.jpg", (), "the sheet is too small in the photo"),
        ("blurred.jpg", (), "too blurred"),
        ("qd.jpg", ("--layout", "j-clubs"), "a sheet of layout 'q-diamonds', not 'j-clubs'"),
    ],
)
def test_photo_errors_exit_2_and_write_nothing(bad_photos, tmp_path, name, args, message):
    import shutil

    shutil.copy(bad_photos / name, tmp_path / name)
    before = sorted(p.name for p in tmp_path.iterdir())
    res = run_cli(name, *args, cwd=tmp_path)
    assert res.returncode == 2  # the photo cannot be read at all
    assert res.stderr.startswith(f"{name}: error: ") and message in res.stderr, res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.slow
def test_a_sheet_of_another_version_or_format_is_refused(tmp_path, monkeypatch):
    import generator.games.allin.sheet as allin
    import tests.synth.sheet_photos as synth
    from generator.core.errors import InputError

    sheet = game("q-diamonds", 6).sheets[0]
    sharp = params(frame=(2000, 1500), coverage=0.9, tilt=3.0, rotation=0.0, defocus=0.3, bend=0.0)
    # another version of the layout: same id, one bonus changed (the geometry hash changes with it)
    text = (REPO / "layouts" / "allin" / "q-diamonds.yaml").read_text(encoding="utf-8")
    changed = text.replace("bonus: 3", "bonus: 5", 1)
    assert changed != text
    (tmp_path / "q-diamonds.yaml").write_text(changed, encoding="utf-8")
    old = load_layout(tmp_path / "q-diamonds.yaml")
    synth._PAGES.clear()
    path = write_photo(tmp_path, "old.jpg", FilledSheet(old, "x", sheet.cards, 0, 0), paper("a4"), 6, sharp)
    with pytest.raises(InputError, match="printed from another version of layout 'q-diamonds'"):
        read_photo(path)
    # a newer sheet format
    monkeypatch.setattr(allin, "SHEET_FORMAT", 2)
    synth._PAGES.clear()
    path = write_photo(tmp_path, "new.jpg", sheet, paper("a4"), 6, sharp)
    monkeypatch.undo()
    synth._PAGES.clear()
    with pytest.raises(InputError, match="printed in sheet format 2; this sheetsmith reads format 1"):
        read_photo(path)


@pytest.mark.slow
def test_layout_option_reads_a_sheet_whose_code_is_hidden(tmp_path):
    """With the code covered, the markers still place the sheet and --layout names it."""
    import cv2

    from generator.core.errors import InputError
    from generator.printing.readable import code_box
    from generator.reader.markers import detect_markers, fit_sheet

    result = game("7-diamonds", 9)
    sheet = result.sheets[0]
    path = write_photo(tmp_path, "dee.jpg", sheet, paper("a4"), 9, params(rotation=0.0))
    img = cv2.imread(str(path))
    fit = fit_sheet(detect_markers(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)))
    x, y, s = code_box(paper("a4"))
    quad = fit.to_image(np.array([[x - 1, y - 1], [x + s + 1, y - 1], [x + s + 1, y + s + 1], [x - 1, y + s + 1]]))
    cv2.fillPoly(img, [quad.astype(np.int32)], (235, 235, 235))  # a thumb over the code
    cv2.imwrite(str(path), img)
    with pytest.raises(InputError, match="cannot be read; name the sheet's layout with --layout ID"):
        read_photo(path)
    reading = read_photo(path, layout="7-diamonds")
    assert reading.code.how == "none"
    assert_reads_truth(reading, sheet)
