"""Stored form definitions: every released geometry of a sheet stays readable after the drawing changes.

A form holds the blank sheet's print and every mark target's box (``generator.printing.forms``); the reader reads a
photo against the form its sheet code names when today's drawing has another geometry.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from generator.core.errors import InputError
from generator.core.shipped import resolve_layout
from generator.games.allin.bot import simulate_game
from generator.games.allin.filled import FilledSheet
from generator.games.allin.layout import load_layout
from generator.games.allin.sheet import build_allin_sheet
from generator.jobs.forms import shipped_sheets
from generator.jobs.render import render_item
from generator.jobs.targets import output_target, write_rendered
from generator.printing.forms import (
    FORMS_DIR,
    FormError,
    form_bytes,
    form_name,
    forms_beside,
    load_form,
    scene_data,
    scene_of,
    stored_digests,
    stored_form,
)
from generator.printing.paper import paper
from generator.printing.readable import geometry_hash
from generator.printing.scene import Text
from generator.reader import read_photo
from tests.synth.sheet_photos import HandStyle, Pen, clean_params, synth_photo
from tests.test_reader import assert_reads_truth

REPO = Path(__file__).resolve().parents[1]

RELEASED = {
    # the shipped sheets' geometries as released before the card space was redrawn: (layout, paper) → hash
    ("q-diamonds", "a4"): "82ABCF",
    ("q-diamonds", "letter"): "2219DC",
    ("10-hearts", "a4"): "D84428",
    ("10-hearts", "letter"): "AC7A81",
    ("7-diamonds", "a4"): "369A28",
    ("7-diamonds", "letter"): "55324C",
    ("a-hearts", "a4"): "07050B",
    ("a-hearts", "letter"): "3BF6C2",
    ("j-clubs", "a4"): "CAE558",
    ("j-clubs", "letter"): "2BE30A",
    ("k-spades", "a4"): "8BDF1C",
    ("k-spades", "letter"): "ED7489",
}


def test_a_form_keeps_every_mark_target_exactly_and_the_print_to_a_micrometre():
    scene = build_allin_sheet(load_layout(resolve_layout("k-spades")), paper("letter"))
    back = scene_of(json.loads(gzip.decompress(form_bytes(scene))))
    assert (back.width, back.height, back.title) == (scene.width, scene.height, scene.title)
    assert back.marks == scene.marks
    assert geometry_hash(back) == geometry_hash(scene)
    assert len(back.items) == len(scene.items)
    for a, b in zip(scene.items, back.items):
        assert type(a) is type(b)
        if isinstance(a, Text):
            assert (a.text, a.weight, a.anchor, a.color) == (b.text, b.weight, b.anchor, b.color)
            assert (b.x, b.y, b.size) == pytest.approx((a.x, a.y, a.size), abs=0.00051)
        else:
            assert b.paint.stroke == a.paint.stroke and b.paint.fill == a.paint.fill
    assert form_bytes(scene) == form_bytes(scene)  # no time stamp: the same scene, the same file


@pytest.mark.parametrize(("layout_id", "paper_id"), sorted(RELEASED))
def test_every_released_geometry_of_the_shipped_sheets_is_kept(layout_id, paper_id):
    digest = RELEASED[(layout_id, paper_id)]
    assert digest in stored_digests(layout_id, paper_id)
    scene = stored_form(layout_id, paper_id, digest)
    assert scene is not None and geometry_hash(scene) == digest
    spaces = {t.owner for t in scene.marks if t.kind == "value"}
    lay = load_layout(resolve_layout(layout_id))
    assert spaces == {f"{'abcdefgh'[c]}{r + 1}" for (c, r), cell in lay.grid.cells.items() if cell.kind != "golden"}


def test_todays_drawing_of_every_shipped_sheet_is_stored():
    """A drawing change without its forms fails here: run ``python -m generator.jobs.forms`` and commit them."""
    drawn = list(shipped_sheets())
    assert len(drawn) == len(RELEASED)  # six sheets, two papers
    for lay, sheet_paper, scene in drawn:
        stored = stored_form(lay.id, sheet_paper.id, geometry_hash(scene))
        assert stored is not None, (lay.id, sheet_paper.id)
        assert stored.marks == scene.marks


def test_a_damaged_or_newer_form_is_refused_naming_its_file(tmp_path):
    scene = build_allin_sheet(load_layout(resolve_layout("q-diamonds")), paper("a4"))
    digest = geometry_hash(scene)
    broken = tmp_path / form_name("q-diamonds", "a4", digest)
    broken.write_bytes(b"\x1f\x8b not gzip")
    with pytest.raises(FormError, match=f"{broken.name}: not a readable form"):
        stored_form("q-diamonds", "a4", digest, (tmp_path,))
    newer = scene_data(scene) | {"form": 99}
    broken.write_bytes(gzip.compress(json.dumps(newer).encode()))
    with pytest.raises(FormError, match="form version 99; this sheetsmith reads version 1"):
        load_form(broken)
    moved = scene_data(scene)
    moved["marks"][0][3] += 1.0  # a box moved by 1 mm: the file's name no longer tells its geometry
    broken.write_bytes(gzip.compress(json.dumps(moved).encode()))
    with pytest.raises(FormError, match=f"hash to [0-9A-F]{{6}}, not {digest}"):
        stored_form("q-diamonds", "a4", digest, (tmp_path,))
    assert stored_form("q-diamonds", "a4", "000000", (tmp_path,)) is None


def _render(source: Path, paper_id: str = "a4"):
    done = render_item(source, fmt="svg", paper=paper_id)
    target, overwrite = output_target(done, force=True)
    write_rendered(done, target, overwrite)
    return done


def test_drawing_a_users_layout_keeps_its_form_beside_it_and_never_replaces_one(tmp_path):
    source = tmp_path / "mine.yaml"
    source.write_text((REPO / "layouts/allin/q-diamonds.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    done = _render(source)
    scene = build_allin_sheet(load_layout(source), paper("a4"))
    kept = forms_beside(source) / form_name("q-diamonds", "a4", geometry_hash(scene))
    assert kept.parent == tmp_path / "mine.forms"
    assert load_form(kept).marks == scene.marks
    assert any(str(kept) in note for note in done.notes)
    kept.write_bytes(b"the user's own bytes")  # an existing form is never replaced, even a damaged one
    again = _render(source)
    assert kept.read_bytes() == b"the user's own bytes"
    assert not any("kept this printing's form" in note for note in again.notes)
    _render(source, "letter")
    assert sorted(p.name.split("-")[2] for p in kept.parent.iterdir()) == ["a4", "letter"]


def test_drawing_a_shipped_layout_writes_no_form_beside_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _render(Path(resolve_layout("j-clubs")))
    assert not forms_beside(Path(resolve_layout("j-clubs"))).exists()


# --- photos of sheets printed before a change --------------------------------------------------------------------

BLUE = HandStyle(Pen("blue", (0.12, 0.25, 0.65), 0.4), box_mark="tick", bubble="full")


def _photo(tmp_path: Path, name: str, sheet: FilledSheet, printed, seed: int) -> Path:
    p = clean_params(frame=(2000, 1500), coverage=0.9, tilt=3.0, rotation=0.0, defocus=0.3, bend=0.0)
    photo = synth_photo(sheet, paper("a4"), seed, params=p, style=BLUE, dpi=150, printed=printed)
    path = tmp_path / name
    path.write_bytes(photo.jpeg)
    return path


@pytest.mark.slow
def test_a_sheet_printed_before_its_layout_was_edited_reads_on_the_form_kept_beside_it(tmp_path):
    source = tmp_path / "mine.yaml"
    text = (REPO / "layouts/allin/q-diamonds.yaml").read_text(encoding="utf-8").replace("id: q-diamonds", "id: mine")
    source.write_text(text, encoding="utf-8")
    _render(source)  # printed: its form is kept
    before = load_layout(source)
    printed = build_allin_sheet(before, paper("a4"))
    source.write_text(text + "style: {card_width: 23.0, gap_x: 12.0}\n", encoding="utf-8")  # then edited
    now = build_allin_sheet(load_layout(source), paper("a4"))
    assert geometry_hash(now) != geometry_hash(printed)
    sheet = simulate_game(before, ["Ann", "Bob"], 4).result.sheets[0]
    path = _photo(tmp_path, "ann.jpg", sheet, printed, 4)
    assert_reads_truth(read_photo(path, layout=str(source)), sheet)
    for kept in forms_beside(source).iterdir():
        kept.unlink()
    with pytest.raises(InputError, match=r"another version of layout 'mine' .* no form of that version"):
        read_photo(path, layout=str(source))


@pytest.mark.slow
@pytest.mark.parametrize(("layout_id", "seed"), [("q-diamonds", 21), ("10-hearts", 22)])
def test_a_photo_of_a_released_shipped_sheet_reads_on_its_stored_form(tmp_path, layout_id, seed):
    printed = stored_form(layout_id, "a4", RELEASED[(layout_id, "a4")], (FORMS_DIR,))
    lay = load_layout(resolve_layout(layout_id))
    sheet = simulate_game(lay, ["Ann", "Bob"], seed).result.sheets[0]
    path = _photo(tmp_path, "ann.jpg", sheet, printed, seed)
    assert_reads_truth(read_photo(path), sheet)


def test_a_hostile_form_is_refused_before_it_costs_memory_or_time(tmp_path):
    import generator.printing.forms as forms

    scene = build_allin_sheet(load_layout(resolve_layout("q-diamonds")), paper("a4"))
    digest = geometry_hash(scene)
    path = tmp_path / form_name("q-diamonds", "a4", digest)
    path.write_bytes(gzip.compress(b" " * (forms.MAX_FORM_BYTES + 10)))  # a small file that unpacks large
    with pytest.raises(FormError, match="unpacks to more than 4 MB"):
        load_form(path)
    path.write_bytes(gzip.compress(b"[" * 100_000))  # nested past the parser's depth
    with pytest.raises(FormError, match="not a readable form"):
        load_form(path)
    many = scene_data(scene)
    many["items"] += [["line", 0, 0, 1, 1, ["#000000", None, 0.1, None]]] * forms.MAX_FORM_ITEMS
    path.write_bytes(gzip.compress(json.dumps(many).encode()))
    with pytest.raises(FormError, match="more than 20000 primitives"):
        load_form(path)
    wide = scene_data(scene) | {"width": 2000.0}  # the marks still hash right: only the page is wrong
    path.write_bytes(gzip.compress(json.dumps(wide).encode()))
    with pytest.raises(FormError, match="its page is 2000 × 297 mm, not A4"):
        stored_form("q-diamonds", "a4", digest, (tmp_path,))


def test_a_form_that_cannot_be_kept_leaves_the_printout_written_and_says_so(tmp_path):
    source = tmp_path / "mine.yaml"
    source.write_text((REPO / "layouts/allin/q-diamonds.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    forms_beside(source).write_text("a file where the forms folder would go", encoding="utf-8")
    done = _render(source)
    assert (tmp_path / "mine-a4.svg").is_file()
    assert any("could not keep this printing's form" in note for note in done.notes)


@pytest.mark.slow
def test_a_layout_named_by_its_file_in_capitals_reads_back(tmp_path):
    """A layout without ``id:`` takes its file's name (``Mine``); its sheet code holds it in capitals."""
    source = tmp_path / "Mine.yaml"
    text = (REPO / "layouts/allin/q-diamonds.yaml").read_text(encoding="utf-8")
    source.write_text("\n".join(line for line in text.splitlines() if not line.startswith("id:")), encoding="utf-8")
    ann = (REPO / "docs/examples/ann.yaml").read_text(encoding="utf-8")
    ann = ann.replace("layout: q-diamonds", "layout: Mine.yaml")
    (tmp_path / "ann.yaml").write_text(ann, encoding="utf-8")
    done = render_item(source, fmt="png", dpi=200, fill=tmp_path / "ann.yaml")
    (tmp_path / "ann.png").write_bytes(done.data)
    reading = read_photo(tmp_path / "ann.png", layout=str(source))
    assert reading.uncertain == [] and reading.layout.id == "Mine"


def test_a_form_of_other_card_spaces_or_a_damaged_one_refuses_the_photo_naming_why(tmp_path):
    from generator.reader.errors import PhotoError
    from generator.reader.read import _earlier_form

    source = tmp_path / "mine.yaml"
    text = (REPO / "layouts/allin/q-diamonds.yaml").read_text(encoding="utf-8").replace("id: q-diamonds", "id: mine")
    source.write_text(text, encoding="utf-8")
    lay = load_layout(source)
    today = geometry_hash(build_allin_sheet(lay, paper("a4")))
    other = build_allin_sheet(load_layout(resolve_layout("10-hearts")), paper("a4"))  # a 6 × 6 grid, not Q♦'s
    digest = geometry_hash(other)
    folder = forms_beside(source)
    folder.mkdir()
    (folder / form_name("mine", "a4", digest)).write_bytes(form_bytes(other))
    with pytest.raises(PhotoError, match="whose card spaces were not today's"):
        _earlier_form(lay, paper("a4"), digest, "ann.jpg", today)
    (folder / form_name("mine", "a4", digest)).write_bytes(b"not a form")
    with pytest.raises(PhotoError, match="stored form cannot be used: .*mine-a4-.*not a readable form"):
        _earlier_form(lay, paper("a4"), digest, "ann.jpg", today)
