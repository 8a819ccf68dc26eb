"""Hostile and accidental bad input: every case gives a located message, exit 1, no traceback, nothing written.

Each case here came from an attempt to break the tool (alias bombs, control
characters, slipped grids, odd YAML typing, output paths).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from generator.core.errors import InputError
from generator.core.yamlpos import MAX_NODES, parse_yaml
from generator.games.allin.layout import load_allin_layout
from generator.games.allin.sheet import build_allin_sheet
from generator.printing.paper import paper
from generator.printing.scene import Text, text_width

from .test_layout_validation import BASE, with_line


def problems(text: str):
    with pytest.raises(InputError) as exc:
        parse_yaml(text, "x.yaml")
    return [(p.line, p.col, p.message) for p in exc.value.problems]


def layout_problems(tmp_path, text: str, name: str = "test-sheet.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_allin_layout(path, display=name)
    return [(p.line, p.col, p.message) for p in exc.value.problems if p.is_error]


def test_alias_bomb_is_stopped():
    levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for n in range(1, 9):
        prev = chr(ord("a") + n - 1)
        cur = chr(ord("a") + n)
        levels.append(
            f"{cur}: &{cur} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]"
        )
    probs = problems("\n".join(levels) + "\n")
    assert len(probs) == 1 and f"more than {MAX_NODES} values" in probs[0][2]


def test_recursive_alias():
    ((line, col, msg),) = problems("x: &x [*x]\n")
    assert line == 1 and "refers to the mapping or list it is inside" in msg


def test_deep_nesting():
    probs = problems("a: " + "[" * 300 + "]" * 300 + "\n")
    assert "nested too deeply" in probs[0][2]


def test_control_character():
    assert problems("game: allin\x01\n") == [
        (1, 12, "control character (U+0001 control character) in the file; remove it")
    ]


def test_unknown_tag_and_merge_key():
    assert problems("golden: !card QD\n")[0][2] == "the tag '!card' is not used by sheetsmith; remove it"
    assert problems("golden: !!python/name:os.system QD\n")[0][2].startswith(
        "the tag 'tag:yaml.org,2002:python/name:os.system'"
    )
    probs = problems("base: &b {reward: single}\nA:\n  <<: *b\n  bonus: 2\n")
    assert probs == [(3, 3, "merge keys (<<) are not supported; write the keys out")]


def test_values_are_never_reinterpreted():
    doc = parse_yaml("a: yes\nb: 0x10\nc: 1:05\nd: 2024-02-30\ne: true\nf: 12\ng: '12'\nh: 2.5\ni: NO\n1: x\n")
    assert doc.data == {
        "a": "yes",
        "b": "0x10",
        "c": "1:05",
        "d": "2024-02-30",
        "e": True,
        "f": 12,
        "g": "12",
        "h": 2.5,
        "i": "NO",
        "1": "x",
    }


def test_bonus_must_be_a_whole_number_written_as_one(tmp_path):
    for bad in ("yes", "1:05", "0x10", "'2'", "2.5"):
        probs = layout_problems(tmp_path, with_line(15, f"  A: {{reward: single, bonus: {bad}}}"))
        assert [p[0] for p in probs] == [15], bad


def test_blank_line_inside_the_grid(tmp_path):
    text = BASE.replace("  |   |   |   |   |\n  o---o---G", "  |   |   |   |   |\n\n  o---o---G")
    ((line, col, msg),) = layout_problems(tmp_path, text)
    assert line == 9 and msg.startswith("grid: this blank line shifts the grid")


def test_golden_card_on_the_edge(tmp_path):
    text = with_line(5, "  *---o---G---o   o").replace("  o---o---G---o---o", "  o---o---o---o---o")
    probs = layout_problems(tmp_path, text)
    assert (5, 11) in [(p[0], p[1]) for p in probs]
    assert any("on the edge of the grid" in p[2] for p in probs)


def test_four_dash_link(tmp_path):
    ((line, col, msg),) = layout_problems(tmp_path, with_line(7, "  o----o--o---o---o"))
    assert line == 7 and "exactly three dashes '---'; this one is longer" in msg


def test_look_alike_character(tmp_path):
    ((line, col, msg),) = layout_problems(tmp_path, with_line(7, "  \u041e---o---o---o---o"))
    assert (line, col) == (7, 3) and "U+041E CYRILLIC CAPITAL LETTER O" in msg


def test_folded_grid(tmp_path):
    ((line, col, msg),) = layout_problems(tmp_path, BASE.replace("grid: |", "grid: >"))
    assert line == 4 and "write the grid as 'grid: |'" in msg


def test_grid_too_wide_says_so_once(tmp_path):
    wide = "---".join(["o"] * 30)
    text = BASE.replace("  *---o---o---o   o\n", f"  *{wide[1:]}\n")
    probs = layout_problems(tmp_path, text)
    assert len(probs) == 1 and "30×5 cells; a printable sheet holds at most 8×8" in probs[0][2]


def test_extends_outside_the_layout_folder(tmp_path):
    ((line, col, msg),) = layout_problems(tmp_path, with_line(2, "extends: /etc/passwd"))
    assert (line, col) == (2, 10) and "no absolute paths or '..'" in msg


def test_extends_a_file_that_is_not_a_template(tmp_path):
    (tmp_path / "other.yaml").write_text("api_token: secret\n", encoding="utf-8")
    ((line, col, msg),) = layout_problems(tmp_path, with_line(2, "extends: other.yaml"))
    assert (line, col) == (2, 10) and "is not a template" in msg and "api_token" not in msg


def test_hand_without_a_value(tmp_path):
    probs = layout_problems(tmp_path, with_line(15, "  A:"))
    assert probs == [(15, 5, "hands.A needs a mapping of keys such as {reward: single, bonus: 2}, not None")]


def test_name_with_characters_the_font_lacks(tmp_path):
    ((line, col, msg),) = layout_problems(tmp_path, with_line(2, "name: 'Q\U0001f600'"))
    assert (line, col) == (2, 7) and "U+1F600 GRINNING FACE" in msg and "cannot be printed" in msg


def test_name_with_a_control_character(tmp_path):
    ((line, col, msg),) = layout_problems(tmp_path, with_line(2, 'name: "Q\\x01"'))
    assert line == 2 and "U+0001" in msg


def test_very_long_labels_stay_on_the_page(tmp_path):
    long = "W" * 150
    text = with_line(2, f"strings: {{player: {long}, fold: {long}, chips_help: {long}, golden: {long}, title: {long}}}")
    path = tmp_path / "test-sheet.yaml"
    path.write_text(text, encoding="utf-8")
    layout = load_allin_layout(path)
    for pid in ("a4", "letter"):
        pap = paper(pid)
        scene = build_allin_sheet(layout, pap)
        m = layout.style.margin
        for item in scene.items:
            if isinstance(item, Text) and not item.angle:
                w = text_width(item.text, item.size, item.weight)
                x0 = item.x - (w / 2 if item.anchor == "middle" else w if item.anchor == "end" else 0)
                assert m - 0.05 <= x0 and x0 + w <= pap.width - m + 0.05, item.text[:20]


def run(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "generator.cli.app", *args], capture_output=True, text=True, cwd=cwd, timeout=60
    )


def test_device_file_is_refused(tmp_path):
    res = run("check", "/dev/zero", cwd=tmp_path)
    assert res.returncode == 2 and "not a regular file" in res.stderr


def test_dangling_symlink_is_not_replaced_without_force(tmp_path):
    link = tmp_path / "out.pdf"
    os.symlink(tmp_path / "nowhere.pdf", link)
    res = run("render", "q-diamonds", "-o", str(link), cwd=tmp_path)
    assert res.returncode == 2 and "already exists" in res.stderr
    assert link.is_symlink() and not (tmp_path / "nowhere.pdf").exists()


def test_output_under_a_file(tmp_path):
    (tmp_path / "plain").write_text("x")
    res = run("render", "q-diamonds", "-o", str(tmp_path / "plain" / "q.pdf"), cwd=tmp_path)
    assert res.returncode == 2 and "is a file, not a folder" in res.stderr


@pytest.mark.slow
def test_terminated_build_leaves_no_temporary_files(tmp_path):
    import signal
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "generator.cli.app", "build", "--out-dir", str(tmp_path / "o")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 30
    while time.time() < deadline and not list((tmp_path / "o").rglob("*.pdf")):
        time.sleep(0.02)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 128 + signal.SIGTERM
    assert not [p for p in (tmp_path / "o").rglob("*") if p.name.endswith(".tmp")]
