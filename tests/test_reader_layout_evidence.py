"""The sheet's own evidence wins over ``--layout``: a sheet whose code is covered, cut away or scribbled over is read
on the named layout only when its print is that layout's; another layout's print refuses the photo with a message
naming both (exit 2), never a reading scored on the wrong sheet's hands.

The photos are synthetic (``tests/synth``): a Q♦ sheet, its code then painted over or scribbled on through the
photo's own homography. Q♦, 7♦ and J♣ place their card spaces alike and differ in rewards and links; K♠ differs
in its spaces too.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from generator.core.shipped import resolve_layout
from generator.games.allin.bot import simulate_game
from generator.games.allin.layout import load_layout
from generator.printing.paper import paper
from generator.printing.readable import code_box
from generator.reader.errors import PhotoError
from generator.reader.printmatch import MIN_DIFFER_PX, preference
from generator.reader.read import read_photo
from tests.synth.sheet_photos import HandStyle, Pen, clean_params, synth_photo

# --- the comparison, on pages made by hand -----------------------------------------------------------------


def pages() -> tuple[np.ndarray, np.ndarray]:
    """Two blank pages (darkness, 60 × 80): a shared frame; a badge (20 × 20) each in a different place."""
    named = np.zeros((60, 80), np.float32)
    named[2:58, 2:6] = 0.6  # the shared print
    other = named.copy()
    named[10:30, 20:40] = 0.5
    other[30:50, 50:70] = 0.5
    return named, other


def test_a_photo_of_the_named_page_prefers_it_fully_whatever_its_light_and_contrast():
    named, other = pages()
    seen = np.ones(named.shape, bool)
    for level, gain in ((0.0, 1.0), (0.08, 0.7), (-0.05, 1.4)):
        assert preference(level + gain * named, seen, named, other) == pytest.approx(-1.0)


def test_a_photo_of_the_other_page_prefers_the_other():
    named, other = pages()
    seen = np.ones(named.shape, bool)
    rng = np.random.default_rng(1)
    photo = 0.05 + 0.8 * other + rng.normal(0, 0.02, other.shape)
    assert preference(photo, seen, named, other) > 0.5
    assert preference(photo, seen, other, named) == pytest.approx(-1.0, abs=0.05)


def test_too_little_difference_in_sight_or_no_print_at_all_tells_nothing():
    named, other = pages()
    seen = np.zeros(named.shape, bool)
    seen[:, :45] = True  # the other page's badge is out of sight; the named one's 400 pixels are seen
    assert MIN_DIFFER_PX <= 400
    assert preference(0.1 + named, seen, named, other) == pytest.approx(-1.0)
    seen[:, 25:] = False  # only 100 differing pixels left in sight
    assert preference(0.1 + other, seen, named, other) == 0.0
    blank = np.full(named.shape, 0.1, np.float32)
    assert preference(blank, np.ones(named.shape, bool), named, other) == 0.0


# --- photos ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def qd():
    """A Q♦ sheet (the truth) and its photo: the BGR image and the page-to-photo homography."""
    import cv2

    lay = load_layout(resolve_layout("q-diamonds"))
    game = simulate_game(lay, ["Ann", "Bob"], 11).result
    p = clean_params(rotation=-95.0, jpeg=95)
    style = HandStyle(Pen("blue", (0.12, 0.25, 0.65), 0.4), box_mark="tick", bubble="full")
    photo = synth_photo(game.sheets[0], paper("a4"), 11, params=p, style=style, dpi=150, game=game.score)
    return game.sheets[0], cv2.imdecode(np.frombuffer(photo.jpeg, np.uint8), cv2.IMREAD_COLOR), photo.homography


def on_photo(H: np.ndarray, pts_mm) -> np.ndarray:
    import cv2

    return cv2.perspectiveTransform(np.array([pts_mm], np.float64), H)[0]


def code_painted_over(img: np.ndarray, H: np.ndarray) -> np.ndarray:
    """The code and 2 mm around it painted dark grey: a torn-off corner on a dark table."""
    import cv2

    x, y, s = code_box(paper("a4"))
    out = img.copy()
    corners = on_photo(H, [[x - 2, y - 2], [x + s + 2, y - 2], [x + s + 2, y + s + 2], [x - 2, y + s + 2]])
    cv2.fillPoly(out, [corners.astype(np.int32)], (60, 70, 80))
    return out


def code_scribbled(img: np.ndarray, H: np.ndarray, strokes: int) -> np.ndarray:
    """``strokes`` pen lines (0.5 mm, brown) across the code."""
    import cv2

    x, y, s = code_box(paper("a4"))
    rng = np.random.default_rng(3)
    out = img.copy()
    width = max(1, int(round(np.linalg.norm(on_photo(H, [[x, y], [x + 0.5, y]])[1] - on_photo(H, [[x, y]])[0]))))
    for _ in range(strokes):
        a, b = on_photo(
            H, [[x + rng.uniform(0, s), y + rng.uniform(0, s)], [x + rng.uniform(0, s), y + rng.uniform(0, s)]]
        )
        cv2.line(out, tuple(int(v) for v in a), tuple(int(v) for v in b), (40, 50, 110), width, cv2.LINE_AA)
    return out


def write(tmp_path, name: str, img: np.ndarray):
    import cv2

    path = tmp_path / name
    assert cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


def assert_reads(path, sheet, layout: str) -> None:
    reading = read_photo(path, layout=layout)
    assert reading.layout.id == layout
    assert reading.uncertain == []
    assert {c: cr.card.code for c, cr in reading.cells.items() if cr.card} == {
        c: k.code for c, k in sheet.cards.items()
    }


@pytest.mark.slow
def test_a_sheet_without_its_code_is_read_on_its_own_layout(tmp_path, qd):
    sheet, img, H = qd
    assert_reads(write(tmp_path, "no-code.jpg", code_painted_over(img, H)), sheet, "q-diamonds")


@pytest.mark.slow
@pytest.mark.parametrize("wrong", ["7-diamonds", "j-clubs", "k-spades", "a-hearts"])
def test_a_sheet_without_its_code_is_refused_on_another_layouts_word(tmp_path, qd, wrong):
    _, img, H = qd
    path = write(tmp_path, "no-code.jpg", code_painted_over(img, H))
    with pytest.raises(PhotoError) as exc:
        read_photo(path, layout=wrong)
    assert exc.value.message == (
        f"the sheet's print is that of layout 'q-diamonds', not '{wrong}' as --layout {wrong} says (its code cannot "
        f"be read, and where the two layouts differ the photo shows 'q-diamonds'): give --layout q-diamonds"
    )


@pytest.mark.slow
@pytest.mark.parametrize("strokes", [6, 12])
def test_a_scribbled_code_never_lets_another_layout_be_read(tmp_path, qd, strokes):
    sheet, img, H = qd
    path = write(tmp_path, "scribbled.jpg", code_scribbled(img, H, strokes))
    assert_reads(path, sheet, "q-diamonds")
    for wrong in ("7-diamonds", "k-spades"):
        with pytest.raises(PhotoError) as exc:
            read_photo(path, layout=wrong)
        assert f"'{wrong}'" in exc.value.message  # named beside what the sheet shows, or its own code refused
        assert "q-diamonds" in exc.value.message or "does not match layout" in exc.value.message


@pytest.mark.slow
def test_the_refusal_exits_2_through_the_command_line_and_writes_nothing(tmp_path, qd):
    _, img, H = qd
    write(tmp_path, "ann.jpg", code_painted_over(img, H))
    r = subprocess.run(
        [sys.executable, "-m", "generator", "verify", "--layout", "7-diamonds", "ann.jpg"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert r.returncode == 2
    assert r.stderr.startswith("ann.jpg: error: the sheet's print is that of layout 'q-diamonds', not '7-diamonds'")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ann.jpg"]
