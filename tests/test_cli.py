"""The sheetsmith command, run as a user runs it (a subprocess), with its exit codes and messages."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator.core.shipped import shipped_layouts

from .grids import MIDDLE_ROWS, indented

USER_LAYOUT = (
    """\
# a small user sheet, outside the repository
game: allin
golden: 9C
name: "My 9♣"
grid: |
  *---o---o---o---o
  |   |   |   |   |
"""
    + indented(MIDDLE_ROWS)
    + """
  |   |       |   |
  o---o   *---o---o
hands:
  A: {reward: single, bonus: 2}
  B: {reward: double, bonus: 3}
  C: {reward: double, bonus: 3}
  D: {reward: double, bonus: 3}
  E: {reward: single, bonus: 2}
  F: {reward: single, bonus: 2}
  G: {reward: double, bonus: 4}
  H: {reward: double, bonus: 4}
  I: {reward: single, bonus: 3}
  J: {reward: double, bonus: 4}
  K: {reward: double, bonus: 4}
"""
)


REPO = Path(__file__).resolve().parents[1]


def run(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "generator.cli.app", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def test_render_a_user_layout_outside_the_repo(tmp_path):
    src = tmp_path / "mine" / "nine.yaml"
    src.parent.mkdir()
    src.write_text(USER_LAYOUT, encoding="utf-8")
    out = tmp_path / "nine.pdf"
    res = run("render", str(src), "-o", str(out), "--paper", "letter", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    doc = pdfium.PdfDocument(str(out))
    assert [round(v) for v in doc[0].get_size()] == [612, 792]
    text = doc[0].get_textpage().get_text_range()
    assert "My 9 sheet" in text  # the suit of the name is drawn as a shape
    doc.close()


@pytest.mark.slow
def test_render_formats_from_the_extension_and_refuses_to_overwrite(tmp_path):
    svg = tmp_path / "q.svg"
    assert run("render", "q-diamonds", "-o", str(svg)).returncode == 0
    assert svg.read_bytes().lstrip().startswith(b"<?xml") or b"<svg" in svg.read_bytes()[:400]
    before = svg.read_bytes()
    res = run("render", "q-diamonds", "-o", str(svg), "--paper", "letter")
    assert res.returncode == 2  # a usage mistake: the output exists and --force was not given
    assert "already exists; pass --force" in res.stderr
    assert svg.read_bytes() == before
    res = run("render", "q-diamonds", "-o", str(svg), "--paper", "letter", "--force")
    assert res.returncode == 0 and svg.read_bytes() != before
    png = tmp_path / "q.png"
    assert run("render", "q-diamonds", "--format", "png", "-o", str(png)).returncode == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_unknown_layout_id_suggests_the_close_one(tmp_path):
    res = run("render", "q-diamond", cwd=tmp_path)
    assert res.returncode == 2  # no such item: nothing could be read
    assert "did you mean q-diamonds" in res.stderr and "Traceback" not in res.stderr
    assert not (tmp_path / "output").exists()


def test_check_broken_layout_names_file_line_and_problem(tmp_path):
    bad = tmp_path / "broken.yaml"
    bad.write_text(USER_LAYOUT.replace("golden: 9C", "golden: 9X"), encoding="utf-8")
    good = tmp_path / "good.yaml"
    good.write_text(USER_LAYOUT, encoding="utf-8")
    res = run("check", "broken.yaml", "good.yaml", cwd=tmp_path)
    assert res.returncode == 1
    assert "broken.yaml:3:9: error: golden: '9X' is not a card code" in res.stderr
    assert "good.yaml: ok" in res.stdout
    assert "2 files: 1 valid, 1 with errors" in res.stdout
    assert run("check", "good.yaml", cwd=tmp_path).returncode == 0


def test_check_reports_a_yaml_syntax_error_with_its_line(tmp_path):
    bad = tmp_path / "syntax.yaml"
    bad.write_text(
        USER_LAYOUT.replace("  C: {reward: double, bonus: 3}", "  C: {reward: double, bonus: 3"), encoding="utf-8"
    )
    res = run("check", "syntax.yaml", cwd=tmp_path)
    assert res.returncode == 2  # not YAML: cannot be read at all (a layout error in a readable file is 1)
    assert res.stderr.startswith("syntax.yaml:") and "YAML syntax error" in res.stderr
    # the parser notices the unclosed '{' of line 18 on line 19; the message points at the '{'
    assert res.stderr.startswith("syntax.yaml:18:6: error: YAML syntax error")
    assert "noticed at line 19" in res.stderr and "close the {" in res.stderr
    assert "Traceback" not in res.stderr


def test_check_missing_file(tmp_path):
    res = run("check", "nope.yaml", cwd=tmp_path)
    assert res.returncode == 2 and "nope.yaml: error: file not found" in res.stderr


def test_check_warning_alone_passes(tmp_path):
    text = USER_LAYOUT.replace("  o---o   *---o---o", "  o---o   *---o").replace(
        "  |   |       |   |\n  o---o   *", "  |   |       |\n  o---o   *"
    )
    path = tmp_path / "small.yaml"
    path.write_text(text, encoding="utf-8")
    res = run("check", "small.yaml", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "warning: the grid has 23 writable spaces" in res.stderr


def test_layouts_lists_every_shipped_layout():
    res = run("layouts")
    assert res.returncode == 0
    for item in shipped_layouts():
        assert item.id in res.stdout


@pytest.mark.slow
def test_build_writes_every_pdf_and_png_and_ends_in_a_table(tmp_path):
    res = run("build", "--out-dir", str(tmp_path / "out"), "--dpi", "60")
    assert res.returncode == 0, res.stderr
    items = shipped_layouts()
    for item in items:
        for pap in ("a4", "letter"):
            folder = tmp_path / "out" / item.game
            assert (folder / f"{item.id}-{pap}.pdf").read_bytes()[:5] == b"%PDF-"
            assert (folder / f"{item.id}-{pap}.png").read_bytes()[:4] == b"\x89PNG"
            if item.game in ("decks", "chips"):
                assert (folder / f"{item.id}-{pap}.json").is_file()
            if item.game == "decks":
                assert (folder / f"{item.id}-{pap}-back.png").is_file()
    assert f"{2 * len(items)} of {2 * len(items)} written" in res.stdout
    # nothing half-written: no temporary files left behind
    assert not [p for p in (tmp_path / "out").rglob("*") if p.name.endswith(".tmp")]


@pytest.mark.slow
def test_usage_mistakes_give_a_short_message_not_a_traceback(tmp_path):
    for args in (
        ["render"],
        ["check"],
        ["build", "--paper", "a3"],
        ["frobnicate"],
        ["render", "q-diamonds", "--dpi", "1"],
    ):
        res = run(*args, cwd=tmp_path)
        assert res.returncode == 2, args
        assert "Traceback" not in res.stderr and "Error" in res.stderr
    assert not (tmp_path / "output").exists()


def test_paper_and_format_are_case_insensitive(tmp_path):
    res = run("render", "q-diamonds", "--paper", "A4", "--format", "PNG", "-o", str(tmp_path / "q.png"), "--dpi", "50")
    assert res.returncode == 0, res.stderr


def test_output_name_and_format_must_agree(tmp_path):
    res = run("render", "q-diamonds", "-o", str(tmp_path / "q.jpg"))
    assert res.returncode == 2 and "writes .pdf, .svg or .png files" in res.stderr
    res = run("render", "q-diamonds", "-o", str(tmp_path / "q.svg"), "--format", "pdf")
    assert res.returncode == 2 and "ends in .svg but --format is pdf" in res.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_render_default_output_goes_next_to_builds(tmp_path):
    res = run("render", "j-clubs", "--format", "svg", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "output" / "allin" / "j-clubs-a4.svg").is_file()


def test_a_sheet_scored_alone_is_said_once_under_the_tables():
    """The note that qualifies the scores of a lone sheet comes once, under its tables (it was also said on
    standard error first: a terminal showed it twice)."""
    res = run("verify", str(REPO / "docs" / "examples" / "ann.yaml"))
    assert res.returncode == 0, res.stderr
    note = "one sheet scored alone"
    assert res.stdout.count(note) == 1 and note not in res.stderr
    assert res.stdout.rstrip().splitlines()[-1].startswith(note)
