"""Drawing a typed-in sheet as a player would have filled it (render --fill)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from generator.games.allin.scoring import score_game
from generator.games.allin.sheet import PENCIL, build_allin_sheet, fill_allin_sheet
from generator.games.allin.typed_sheet import load_allin_sheet
from generator.printing.paper import paper
from generator.printing.scene import Circle, Line, Path_, Text

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def inside(x, y, m):
    return m.x - 0.5 <= x <= m.x + m.w + 0.5 and m.y - 0.5 <= y <= m.y + m.h + 0.5


def test_filled_sheet_shows_every_mark():
    sheets = [load_allin_sheet(EXAMPLES / f"{n}.yaml") for n in ("ann", "bob", "cy")]
    ann = sheets[0]
    blank = build_allin_sheet(ann.layout, paper("a4"))
    n_items = len(blank.items)
    scene = fill_allin_sheet(blank, ann, score_game(sheets))
    added = scene.items[n_items:]
    marks = {(m.kind, m.owner, m.key): m for m in scene.marks}
    texts = [t for t in added if isinstance(t, Text)]
    # a1 holds 10S: "10" written in its value area, the 10 ticked, the spade circled
    a1 = marks[("value", "a1", "")]
    assert any(t.text == "10" and inside(t.x, t.y, a1) for t in texts)
    ticks = [p for p in added if isinstance(p, Path_)]
    ten = marks[("rank", "a1", "10")]
    assert any(inside(p.ops[1][1], p.ops[1][2], ten) for p in ticks)
    spade = marks[("suit", "a1", "S")]
    circles = [c for c in added if isinstance(c, Circle)]
    assert any(
        abs(c.cx - (spade.x + spade.w / 2)) < 0.01 and abs(c.cy - (spade.y + spade.h / 2)) < 0.01 for c in circles
    )
    # 24 written spaces: 24 values; chips: 6 circles filled, 2 spent boxes ticked
    values = [t for t in texts if any(inside(t.x, t.y, m) for m in scene.marks if m.kind == "value")]
    assert len(values) == 24
    filled = [c for c in circles if c.paint.fill == PENCIL]
    assert len(filled) == 6
    spent_boxes = [m for m in scene.marks if m.kind == "chip_spent"]
    spent_ticks = [p for p in ticks if any(inside(p.ops[1][1], p.ops[1][2], m) for m in spent_boxes)]
    assert len(spent_ticks) == 2
    # in the three-player game Ann wins the bonus of C, E, H and J (see test_roundtrip): those circles are crossed
    crossed = set()
    for line in (i for i in added if isinstance(i, Line)):
        for m in scene.marks:
            if m.kind == "bonus_star" and inside((line.x1 + line.x2) / 2, (line.y1 + line.y2) / 2, m):
                crossed.add(m.owner)
    assert crossed == {"C", "E", "H", "J"}
    # the totals: chips left 4, total 44; the player's name
    assert any(t.text == "44" and inside(t.x, t.y, marks[("total", "sheet", "")]) for t in texts)
    assert any(t.text == "4" and inside(t.x, t.y, marks[("chips_left", "sheet", "")]) for t in texts)
    assert any(t.text == "Ann" for t in texts)


@pytest.mark.slow
def test_render_fill_on_the_command_line(tmp_path):
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator.cli.app",
            "render",
            "q-diamonds",
            "--fill",
            "ann.yaml",
            "--with",
            "bob.yaml",
            "-o",
            str(tmp_path / "ann.png"),
            "--dpi",
            "60",
        ],
        capture_output=True,
        text=True,
        cwd=EXAMPLES,
        timeout=60,
    )
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "ann.png").read_bytes()[:4] == b"\x89PNG"
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator.cli.app",
            "render",
            "j-clubs",
            "--fill",
            "ann.yaml",
            "-o",
            str(tmp_path / "x.pdf"),
        ],
        capture_output=True,
        text=True,
        cwd=EXAMPLES,
        timeout=60,
    )
    assert res.returncode == 2 and "for layout 'q-diamonds', not 'j-clubs'" in res.stderr
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.slow
def test_a_filled_sheet_is_written_next_to_its_file_never_over_the_blank_sheet(tmp_path):
    """``render q-diamonds --fill ann.yaml`` writes ann-a4.pdf beside ann.yaml; the blank sheet's
    output/allin/q-diamonds-a4.pdf is not touched, and a second run needs --force (the file is the player's)."""
    (tmp_path / "ann.yaml").write_text((EXAMPLES / "ann.yaml").read_text(encoding="utf-8"), encoding="utf-8")

    def run(*extra):
        return subprocess.run(
            [sys.executable, "-m", "generator.cli.app", "render", "q-diamonds", "--fill", "ann.yaml", *extra],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=60,
        )

    res = run()
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "ann-a4.pdf").read_bytes()[:5] == b"%PDF-"
    assert not (tmp_path / "output").exists()
    before = (tmp_path / "ann-a4.pdf").read_bytes()
    res = run()
    assert res.returncode == 2 and "ann-a4.pdf: already exists; pass --force" in res.stderr
    assert (tmp_path / "ann-a4.pdf").read_bytes() == before
    assert run("--force").returncode == 0
