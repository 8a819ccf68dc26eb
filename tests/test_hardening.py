"""Issue 14, piece by piece: the validation rules, interrupted writes, multi-file outputs, fonts, terminal output.

The fuzz tests (test_fuzz.py) check the properties over many inputs; these
pin each mechanism down with inputs worked out by hand.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from fontTools.ttLib import TTFont

from generator.core import output
from generator.core.errors import OutputError, Problem, SheetsmithError, UnreadableError
from generator.core.validation import (
    NumberError,
    ascii_number,
    bad_char,
    capped_lines,
    describe_char,
    for_terminal,
    message_shape,
    text_problem,
)
from generator.core.yamlpos import binary_kind, parse_yaml
from generator.printing import fonts
from tests.fuzzing import EXAMPLES, LAYOUTS, REPO, check_run, run

ANN = (EXAMPLES / "ann.yaml").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- validation rules


@pytest.mark.parametrize("text, number", [("12", 12), ("-3", -3), ("+4", 4), ("000007", 7)])
def test_ascii_numbers(text, number):
    assert ascii_number(text) == number


@pytest.mark.parametrize("text", ["²", "٣", "５", "1.5", "nan", "", " 1", "1_000", "1e3", "1234567", "Ⅻ"])
def test_numbers_that_are_not_ascii_digits_are_refused(text):
    with pytest.raises(NumberError):
        ascii_number(text)


@pytest.mark.parametrize(
    "ch", ["\0", "\x1b", "\x07", "\x7f", "\x85", "\x9b", "\ud800", "\u202e", "\u2066", "\ufffe", "\U0010ffff"]
)
def test_control_characters_are_refused_everywhere(ch):
    assert bad_char(f"a{ch}b") == ch and bad_char(f"a{ch}b", multiline=True) == ch


def test_line_breaks_and_tabs_only_in_multiline_text():
    for ch in "\t\n\r":
        assert bad_char(f"a{ch}b") == ch and bad_char(f"a{ch}b", multiline=True) is None
    assert bad_char("a\u2028b") == "\u2028"
    assert bad_char("Алёна Ωμέγα 李 ♦ é") is None


def test_describe_char_names_control_characters():
    assert describe_char("\0") == "(U+0000 NULL)"
    assert describe_char("\x1b") == "(U+001B ESCAPE)"
    assert describe_char("\t") == "(U+0009 TAB)"
    assert describe_char("²") == "'²' (U+00B2 SUPERSCRIPT TWO)"
    assert describe_char("Q") == "'Q'"


def test_for_terminal_spells_out_what_a_terminal_acts_on():
    assert for_terminal("\x1b]0;PWNED\x07\x1b[31mAnn") == "\\x1b]0;PWNED\\x07\\x1b[31mAnn"
    assert for_terminal("a\u202eb\tc\nd") == "a\\u202eb\\tc\\nd"
    assert for_terminal("a\nb", keep_newlines=True) == "a\nb"
    assert for_terminal("Алёна 李 ♦") == "Алёна 李 ♦"


def test_text_problem_messages():
    assert text_problem("Ann\tB", "player") == (
        "player holds a line break or tab (U+0009 TAB); remove it (names and labels are one line of visible characters)"
    )
    assert text_problem("x" * 61, "player", max_length=60) == "player has 61 characters; at most 60 are allowed"
    assert text_problem("Ann", "player") is None


def test_repeated_messages_are_cut_to_ten_of_a_kind():
    problems = [Problem("a.yaml", 10 + n, 3, f"hand 'H{n}' is not in the grid") for n in range(25)]
    problems += [Problem("a.yaml", 5, 1, "missing key 'golden'")]
    lines = capped_lines(problems)
    assert len(lines) == 12
    assert lines[:10] == [str(p) for p in problems[:10]]
    assert lines[10] == "a.yaml: … and 15 more like this"
    assert lines[11] == "a.yaml:5:1: error: missing key 'golden'"
    assert message_shape("round 3, c4: 'QX' is not a card") == message_shape("round 12, d1: '9Z' is not a card")
    assert message_shape("missing key 'golden'") != message_shape("hand 'A' is not in the grid")


# --------------------------------------------------------------------------- the YAML reader


@pytest.mark.parametrize(
    "head, kind",
    [
        (b"%PDF-1.7\n", "a PDF document"),
        (b"PK\x03\x04rest", "a ZIP archive"),
        (b"\x89PNG\r\n\x1a\n....", "a PNG image"),
        (b"\xff\xd8\xff\xe0", "a JPEG image"),
        (b"GIF89a", "a GIF image"),
        (b"RIFF\x00\x00\x00\x00WEBPVP8 ", "a WebP image"),
        (b"\x00\x00\x00\x18ftypheic", "a HEIC image"),
        (b"\x1f\x8b\x08", "a gzip archive"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Microsoft Office document"),
        (b"\xff\xfeg\x00a\x00", "UTF-16 text"),
        (b"game: allin\x00\x00", "a binary file"),
    ],
)
def test_binary_files_are_named(tmp_path, head, kind):
    assert binary_kind(head).startswith(kind)
    assert binary_kind(b"game: allin\nplayer: Ann\n") is None


@pytest.mark.parametrize(
    "value, said",
    [
        ('"A\\0nn"', "(U+0000 NULL)"),
        ('"\\e[31mAnn"', "(U+001B ESCAPE)"),
        ('"\\u202eAnn"', "(U+202E RIGHT-TO-LEFT OVERRIDE)"),
        ('"\\ud800"', "(U+D800 unnamed)"),
        ('"\\x85"', "(U+0085 NEXT LINE)"),
    ],
)
def test_escapes_that_make_control_characters_are_refused_where_written(value, said):
    with pytest.raises(UnreadableError) as err:
        parse_yaml(f"game: allin\nplayer: {value}\n", "s.yaml")
    (p,) = err.value.problems
    assert (p.line, p.col) == (2, 9) and said in p.message


def test_an_escape_beyond_unicode_and_a_number_beyond_floats():
    with pytest.raises(UnreadableError) as err:
        parse_yaml('game: allin\nplayer: "\\U00110000"\n', "s.yaml")
    assert err.value.problems[0].line == 2 and "names a character that does not exist" in err.value.problems[0].message
    with pytest.raises(UnreadableError) as err:
        parse_yaml("diameter: 1.0e+999\n", "c.yaml")
    assert (
        str(err.value)
        == "c.yaml:1:11: error: '1.0e+999' is too large a number; sheetsmith numbers are written with at most 15 digits"
    )


def test_keys_with_control_characters_are_refused():
    with pytest.raises(UnreadableError) as err:
        parse_yaml('rounds:\n  - "A\\e": bust\n', "p.yaml")
    assert err.value.problems[0].line == 2 and "(U+001B ESCAPE)" in err.value.problems[0].message


def test_a_value_is_quoted_as_written(tmp_path):
    (tmp_path / "z.yaml").write_text(ANN.replace("player: Ann", "player: 0012"), encoding="utf-8")
    r = run(["verify", "z.yaml"], tmp_path)
    assert r.code == 2 and "z.yaml:5:9: error: player must be text, not 0012; put it in quotes" in r.err


# --------------------------------------------------------------------------- terminal output


@pytest.mark.parametrize("name", ["[/x]", "[bold]Ann", ":smile:", "Ann[/]"])
def test_names_are_printed_as_written_never_as_markup(tmp_path, name):
    (tmp_path / "m.yaml").write_text(ANN.replace("player: Ann", f'player: "{name}"'), encoding="utf-8")
    r = run(["verify", "m.yaml"], tmp_path)
    check_run(r)
    assert r.code == 0 and name in r.out


def test_file_names_with_escape_sequences_are_spelled_out(tmp_path):
    name = "\x1b[31mred.yaml"
    (tmp_path / name).write_text("game: allin\nplayer: [\n", encoding="utf-8")
    r = run(["verify", name], tmp_path)
    check_run(r)
    assert r.code == 2 and r.err.startswith("\\x1b[31mred.yaml:")


# --------------------------------------------------------------------------- interrupted writes


def test_a_signal_while_the_temporary_is_created_leaves_no_file(tmp_path, monkeypatch):
    """SIGTERM arriving just after the temporary file was made, before its creation returned: it is still removed.

    The signal is sent after other threads exist (numpy's, imported by verify), which is where holding signals
    in the main thread alone did not help.
    """
    import numpy  # noqa: F401  (starts worker threads, as a real run does)

    real = output._create

    def create_then_signal(path):
        made = real(path)
        os.kill(os.getpid(), signal.SIGTERM)  # the worst moment: the file exists, its descriptor is not yet returned
        time.sleep(0.05)
        return made

    def stop(signum, frame):
        raise SystemExit(128 + signum)

    old = signal.signal(signal.SIGTERM, stop)
    monkeypatch.setattr(output, "_create", create_then_signal)
    try:
        with pytest.raises(SystemExit):
            output.write_atomic(tmp_path / "sheet.pdf", b"%PDF-1.7 ...")
    finally:
        signal.signal(signal.SIGTERM, old)
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_write_keeps_the_old_file(tmp_path, monkeypatch):
    (tmp_path / "sheet.pdf").write_bytes(b"old")

    real_fdopen = os.fdopen

    class Half:
        def __init__(self, fd):
            self.fh = real_fdopen(fd, "wb")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, data):
            self.fh.write(data[:3])
            raise KeyboardInterrupt

    monkeypatch.setattr(output.os, "fdopen", lambda fd, mode: Half(fd))
    with pytest.raises(KeyboardInterrupt):
        output.write_atomic(tmp_path / "sheet.pdf", b"new and longer")
    monkeypatch.undo()
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.pdf"] and (tmp_path / "sheet.pdf").read_bytes() == b"old"


def test_stale_temporaries_of_our_own_pattern_are_removed(tmp_path):
    old = time.time() - 3600
    stale = tmp_path / ".q-diamonds-a4.pdf.ab_cd123.tmp"
    fresh = tmp_path / ".q-diamonds-a4.png.zzzzzzzz.tmp"
    other = tmp_path / ".notes.txt.abcdefgh.tmp"
    user = tmp_path / "q-diamonds-a4.pdf.tmp"
    for p in (stale, fresh, other, user):
        p.write_bytes(b"")
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    os.utime(user, (old, old))
    removed = output.remove_stale_temporaries(
        tmp_path, ["q-diamonds-a4.pdf", "q-diamonds-a4.png"], before=time.time() - 60
    )
    assert removed == [stale]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([fresh.name, other.name, user.name])


def test_build_clears_what_a_killed_build_left(tmp_path, monkeypatch):
    from generator.core import shipped

    one = [s for s in shipped.shipped_layouts() if s.id == "fundex-chips"]
    monkeypatch.setattr(shipped, "shipped_layouts", lambda: one)
    (tmp_path / "out" / "chips").mkdir(parents=True)
    stale = tmp_path / "out" / "chips" / ".fundex-chips-a4.pdf.k3j4h5g6.tmp"
    stale.write_bytes(b"")
    os.utime(stale, (time.time() - 3600,) * 2)
    r = run(["build", "-d", "out", "--paper", "a4", "--dpi", "50"], tmp_path)
    assert r.code == 0
    assert sorted(p.name for p in (tmp_path / "out" / "chips").iterdir()) == [
        "fundex-chips-a4-back.png",  # chips print on both sides: a preview of the backs page too
        "fundex-chips-a4.json",
        "fundex-chips-a4.pdf",
        "fundex-chips-a4.png",
    ]


def _sheetsmith(*args, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "generator.cli.app", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "sig, delay", [(signal.SIGTERM, 0.0), (signal.SIGTERM, 0.7), (signal.SIGINT, 0.3), (signal.SIGHUP, 0.5)]
)
def test_a_build_interrupted_by_a_signal_leaves_no_temporary_and_no_partial_file(tmp_path, sig, delay):
    """The signal comes while build writes (after its first folder appears, ``delay`` seconds later)."""
    proc = _sheetsmith("build", "-d", "out", "--paper", "a4", "--dpi", "50", cwd=tmp_path)
    deadline = time.time() + 120
    while not (tmp_path / "out").exists() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.01)
    time.sleep(delay)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode in (0, 128 + sig, 130), err.decode()
    assert b"Traceback" not in err
    left = [p for p in (tmp_path / "out").rglob("*") if p.is_file()] if (tmp_path / "out").exists() else []
    assert not [p for p in left if p.name.endswith(".tmp")]
    for p in left:  # every file there is whole
        data = p.read_bytes()
        if p.suffix == ".pdf":
            assert data.startswith(b"%PDF") and data.rstrip().endswith(b"%%EOF")
        elif p.suffix == ".png":
            assert data.startswith(b"\x89PNG") and data.endswith(b"IEND\xaeB`\x82")


# --------------------------------------------------------------------------- multi-file outputs


def test_replay_refuses_before_writing_any_sheet(tmp_path):
    from tests.test_fuzz import game_log_text

    (tmp_path / "game.yaml").write_text(game_log_text(), encoding="utf-8")
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "bob.yaml").write_text("mine\n", encoding="utf-8")  # the second player's sheet exists
    r = run(["replay", "game.yaml", "--sheets", "s"], tmp_path)
    assert r.code == 2 and "s/bob.yaml: already exists; pass --force" in r.err
    assert sorted(p.name for p in (tmp_path / "s").iterdir()) == ["bob.yaml"]  # ann.yaml was not written first
    assert (tmp_path / "s" / "bob.yaml").read_text(encoding="utf-8") == "mine\n"
    assert run(["replay", "game.yaml", "--sheets", "s", "--force"], tmp_path).code == 0
    assert sorted(p.name for p in (tmp_path / "s").iterdir()) == ["ann.yaml", "bob.yaml"]


def test_simulate_refuses_before_writing_the_log(tmp_path):
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "bob.yaml").write_text("mine\n", encoding="utf-8")
    r = run(["simulate", "allin", "--players", "2", "--seed", "3", "-o", "g"], tmp_path)
    assert r.code == 2 and "already exists" in r.err
    assert sorted(p.name for p in (tmp_path / "g").iterdir()) == ["bob.yaml"]


def test_check_targets_refuses_two_outputs_with_one_name(tmp_path):
    with pytest.raises(OutputError):
        output.check_targets([tmp_path / "a.yaml", tmp_path / "a.yaml"])


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize("text", ["nan,0", "0,inf", "٣,0", "1_0,0", "1e1,0", "1", "1,2,3", "", "11,0", "0x1,0"])
def test_back_offset_is_two_ascii_numbers_within_10_mm(text):
    from generator.jobs.render import parse_back_offset

    with pytest.raises(SheetsmithError):
        parse_back_offset(text)


def test_back_offset_accepts_plain_millimetres():
    from generator.jobs.render import parse_back_offset

    assert parse_back_offset("0.5,-0.3") == (0.5, -0.3)
    assert parse_back_offset(" 1 , -10 ") == (1.0, -10.0)


@pytest.mark.parametrize(
    "args",
    [
        ["render", "q-diamonds", "--dpi", "٣٠٠"],
        ["render", "poker-deck", "--bleed", "nan"],
        ["render", "poker-deck", "--bleed", "٣"],
        ["simulate", "flip7", "--players", "²"],
        ["simulate", "flip7", "--seed", "1" + "0" * 5000],
        ["simulate", "flip7", "--games", "٣"],
        ["simulate", "flip7", "--strategy", "stop-at-٣"],
    ],
)
def test_number_options_take_ascii_digits_only(tmp_path, args):
    r = run(args, tmp_path)
    check_run(r)
    assert r.code == 2


# --------------------------------------------------------------------------- fonts


def test_dejavu_covers_latin_greek_and_cyrillic_in_every_weight():
    """The shipped faces map every letter of these alphabets (read with fontTools, not with the code under test)."""
    alphabets = (
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzÀÉÎÕÜßçñøåœŁłŚżČěŘůŐű"
        "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩαβγδεζηθικλμνξοπρσςτυφχψωάέήίόύώ"
        "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюяЄІЇЎєіїў0123456789…—–·×"
    )
    for weight in ("regular", "bold", "italic"):
        cmap = TTFont(fonts.font_path(weight)).getBestCmap()
        assert [ch for ch in alphabets if ord(ch) not in cmap] == []
        assert fonts.missing_glyphs(alphabets, weight) == []


def test_ranges_every_face_has_are_in_every_face():
    """The ranges the glyph check trusts without opening a font (``fonts.EVERY_FACE_HAS``) are in each shipped
    face's character map, read with fontTools; a character outside them is still looked up in the font."""
    for weight in ("regular", "bold", "italic"):
        cmap = TTFont(fonts.font_path(weight)).getBestCmap()
        for first, last in fonts.EVERY_FACE_HAS:
            assert [hex(c) for c in range(first, last + 1) if c not in cmap] == []
    # U+0378 is unassigned (a gap in the Greek block): outside the trusted ranges, and no face has it
    assert fonts.missing_glyphs("A\u0378", "regular") == ["\u0378"]


def test_latin_measures_as_before():
    """DejaVu Sans keeps Vera's advance widths for Latin: sheets lay out as they did (reportlab's own Vera as
    oracle)."""
    import reportlab
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont as RLFont

    vera = Path(reportlab.__file__).parent / "fonts"
    for weight, file in (("regular", "Vera.ttf"), ("bold", "VeraBd.ttf"), ("italic", "VeraIt.ttf")):
        name = f"test-vera-{weight}"
        pdfmetrics.registerFont(RLFont(name, str(vera / file)))
        text = "Scoring hands Points Best hand Chips left Total 0123456789 ABCxyz"
        assert pdfmetrics.stringWidth(text, name, 10) == pytest.approx(
            pdfmetrics.stringWidth(text, fonts.primary(weight).name, 10)
        )


def _text_of(pdf: bytes) -> str:
    doc = pdfium.PdfDocument(pdf)
    try:
        return doc[0].get_textpage().get_text_range()
    finally:
        doc.close()


def test_a_cyrillic_and_greek_name_is_drawn_in_the_pdf_and_svg(tmp_path):
    name = "Алёна Ωμέγα"
    (tmp_path / "a.yaml").write_text(ANN.replace("player: Ann", f'player: "{name}"'), encoding="utf-8")
    r = run(["render", "q-diamonds", "--fill", "a.yaml", "-o", "a.pdf"], tmp_path)
    assert r.code == 0, r.err
    assert name in _text_of((tmp_path / "a.pdf").read_bytes())
    r = run(["render", "q-diamonds", "--fill", "a.yaml", "-o", "a.svg"], tmp_path)
    assert r.code == 0
    import base64
    import re
    import xml.dom.minidom

    svg = (tmp_path / "a.svg").read_text(encoding="utf-8")
    xml.dom.minidom.parseString(svg)
    assert name in svg
    # the embedded italic subset has a glyph for each letter of the name
    faces = re.findall(
        r"font-family: '([^']+)'; font-weight: (\w+); font-style: (\w+); src: url\(data:font/ttf;base64,([^)]+)\)", svg
    )
    italic = [data for fam, _, style, data in faces if style == "italic"]
    assert len(italic) == 1
    cmap = TTFont(io.BytesIO(base64.b64decode(italic[0]))).getBestCmap()
    assert all(ord(ch) in cmap for ch in name.replace(" ", ""))


def _tiny_font(path: Path, chars: str) -> None:
    """A TrueType font whose every glyph is a square, for the characters ``chars`` (a stand-in CJK font)."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    names = [".notdef", "space"] + [f"uni{ord(c):04X}" for c in chars]
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({32: "space", **{ord(c): f"uni{ord(c):04X}" for c in chars}})
    glyphs = {}
    for n in names:
        pen = TTGlyphPen(None)
        if n != "space":
            pen.moveTo((100, 0))
            pen.lineTo((100, 700))
            pen.lineTo((800, 700))
            pen.lineTo((800, 0))
            pen.closePath()
        glyphs[n] = pen.glyph()
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics({n: (900, 100) for n in names})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Tiny CJK", "styleName": "Regular"})
    fb.setupOS2()
    fb.setupPost()
    fb.save(str(path))


def test_a_name_outside_dejavu_uses_an_installed_cjk_font(tmp_path, monkeypatch):
    font = tmp_path / "tiny-cjk.ttf"
    _tiny_font(font, "李王Алёна")
    monkeypatch.setenv(fonts.FALLBACK_ENV, str(font))
    monkeypatch.setattr(fonts, "FALLBACK_CANDIDATES", ())
    monkeypatch.setattr(fonts, "_fc_list", lambda: [])
    fonts.fallbacks.cache_clear()
    try:
        assert fonts.face_for("Алёна 李", "italic").path == font
        assert fonts.face_for("Ann", "italic").path == fonts.font_path("italic")
        assert fonts.missing_glyphs("Алёна 李", "italic") == []
        assert fonts.missing_glyphs("李 Ω", "italic") == ["李"]  # no one face has both: never drawn
        (tmp_path / "c.yaml").write_text(ANN.replace("player: Ann", 'player: "Алёна 李"'), encoding="utf-8")
        r = run(["render", "q-diamonds", "--fill", "c.yaml", "-o", "c.pdf"], tmp_path)
        assert r.code == 0, r.err
        pdf = (tmp_path / "c.pdf").read_bytes()
        assert "Алёна 李" in _text_of(pdf)
        (tmp_path / "d.yaml").write_text(ANN.replace("player: Ann", 'player: "李 Ω"'), encoding="utf-8")
        r = run(["render", "q-diamonds", "--fill", "d.yaml", "-o", "d.pdf"], tmp_path)
        assert (
            r.code == 2
            and "d.yaml:5:9: error: player: '李' (U+674E CJK UNIFIED IDEOGRAPH-674E) cannot be printed: no font has "
            "them all"
            in r.err
        )
    finally:
        fonts.fallbacks.cache_clear()


def test_without_a_cjk_font_the_name_is_refused_not_boxed(tmp_path, monkeypatch):
    monkeypatch.delenv(fonts.FALLBACK_ENV, raising=False)
    monkeypatch.setattr(fonts, "FALLBACK_CANDIDATES", ())
    monkeypatch.setattr(fonts, "_fc_list", lambda: [])
    fonts.fallbacks.cache_clear()
    try:
        (tmp_path / "c.yaml").write_text(ANN.replace("player: Ann", 'player: "Алёна 李"'), encoding="utf-8")
        r = run(["render", "q-diamonds", "--fill", "c.yaml", "-o", "c.png"], tmp_path)
        assert r.code == 2 and not (tmp_path / "c.png").exists()
        assert r.err.strip() == (
            "c.yaml:5:9: error: player: '李' (U+674E CJK UNIFIED IDEOGRAPH-674E) cannot be printed: the sheet "
            "font DejaVu Sans has no such character and no CJK font is installed on this computer "
            "(Latin, Greek, Cyrillic and the suits ♠ ♥ ♦ ♣ are fine)"
        )
    finally:
        fonts.fallbacks.cache_clear()


def test_deck_text_outside_the_fonts_is_refused_at_check(tmp_path, monkeypatch):
    monkeypatch.setattr(fonts, "fallbacks", lambda: ())
    deck = (LAYOUTS / "decks" / "flip7-deck.yaml").read_text(encoding="utf-8")
    (tmp_path / "d.yaml").write_text(deck.replace('title: "FLIP 7"', 'title: "FLIP 李"'), encoding="utf-8")
    r = run(["check", "d.yaml"], tmp_path)
    assert r.code == 1 and "back.title: '李' (U+674E CJK UNIFIED IDEOGRAPH-674E) cannot be printed" in r.err


def test_a_grid_line_that_ends_inside_a_link():
    """Found by the fuzz tests: a truncated layout whose last line ends in '--' (a link cut short)."""
    from generator.games.allin.grid import parse_grid

    _, issues = parse_grid("o---o--\n")
    assert [(i.line, i.char, i.message) for i in issues] == [
        (0, 7, "a link between two cells is exactly three dashes '---'")
    ]


def test_json_output_escapes_what_a_terminal_acts_on(tmp_path):
    """A file name with a C1 control (\\x9b starts a sequence on some terminals): escaped in the JSON, same value."""
    import json

    name = "\x9bgame.yaml"
    (tmp_path / name).write_text((EXAMPLES / "fundex-game.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    r = run(["verify", name, "--json"], tmp_path)
    check_run(r)
    assert r.code == 0 and "\\u009bgame.yaml" in r.out
    assert json.loads(r.out)["file"] == name


@pytest.mark.parametrize("source", ["fundex-game.yaml", "flipflop-evening.yaml", "flip7-pad.yaml", "ann.yaml"])
def test_tables_show_file_names_spelled_out(tmp_path, source):
    """A file name with escape sequences, verified without --json: tables and problem lines spell it out."""
    text = (EXAMPLES / source).read_text(encoding="utf-8")
    if source == "fundex-game.yaml":  # one ledger slip, so a problem line names the file too
        text = text.replace("chips: {Ann: ", "chips: {Ann: 1", 1)
    if source == "ann.yaml":  # without player:, the sheet's player is named after the file: refused here
        text = text.replace("player: Ann\n", "")
    name = "\x1b]0;t\x07\x1b[2J" + source
    (tmp_path / name).write_text(text, encoding="utf-8")
    r = run(["verify", name], tmp_path)
    check_run(r)
    assert "\\x1b]0;t\\x07\\x1b[2J" in r.out + r.err
    if source == "ann.yaml":
        assert r.code == 2 and "holds a control character (U+001B ESCAPE)" in r.err and "add a 'player:' line" in r.err
    else:
        assert r.code in (0, 1)
