"""Benchmark: how long a user waits for a fresh ``sheetsmith`` process.

Run:  python benchmarks/bench_startup.py [--runs N]

Three things, each in fresh processes, interleaved run by run so that a busy
machine slows them alike; the median of N runs each:

* ``sheetsmith --help`` (the console script answers it without loading typer: generator/cli/launch.py);
* ``sheetsmith render q-diamonds -f pdf -o FILE --force`` (read, check, draw, write the Q♦ sheet);
* a bare reportlab script drawing as many primitives as the Q♦ sheet has (the same counts
  of lines, rectangles, circles, paths and text runs, text in the same embedded TrueType
  fonts) into a PDF: the floor a Python PDF tool cannot go under.

sheetsmith's own modules are compiled to bytecode before the runs, as an installed package has
them (a missing cache would time Python's compiler, not sheetsmith).

Prints the figures and the ratios; targets: render ≤ 3 × the bare script, --help ≤ 0.2 s.
Figures go in docs/benchmarks.md; no test asserts them.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from generator.printing.fonts import FONT_DIR  # noqa: E402  (the sheet's own TrueType files)

BARE = """
import io, sys
from reportlab.pdfgen import canvas
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from pathlib import Path
fonts = Path({fonts!r})
pdfmetrics.registerFont(TTFont("Sans", str(fonts / "DejaVuSans.ttf")))
pdfmetrics.registerFont(TTFont("Sans-Bold", str(fonts / "DejaVuSans-Bold.ttf")))
buf = io.BytesIO()
c = canvas.Canvas(buf, pagesize=(595.27, 841.89), pageCompression=1, initialFontName="Sans")
n = {counts!r}
for i in range(n.get("Line", 0)):
    c.setStrokeColorRGB(0.1, 0.2, 0.3); c.setLineWidth(0.5); c.line(20 + i % 500, 30, 40 + i % 500, 800)
for i in range(n.get("Rect", 0)):
    c.setFillColorRGB(0.9, 0.9, 1); c.roundRect(20 + i % 500, 40 + i % 700, 30, 20, 3, stroke=1, fill=1)
for i in range(n.get("Circle", 0)):
    c.circle(50 + i % 500, 60 + i % 700, 5, stroke=1, fill=0)
for i in range(n.get("Path_", 0)):
    p = c.beginPath(); p.moveTo(30, 30); p.curveTo(40, 50, 60, 50, 70, 30); p.lineTo(50, 10); p.close()
    c.drawPath(p, stroke=0, fill=1)
for i in range(n.get("Text", 0)):
    c.setFillColorRGB(0.1, 0.1, 0.2); c.setFont("Sans-Bold" if i % 3 else "Sans", 8)
    c.saveState(); c.translate(20 + i % 500, 20 + i % 800); c.drawString(0, 0, "Text %d" % i); c.restoreState()
c.showPage(); c.save()
open(sys.argv[1], "wb").write(buf.getvalue())
"""


def q_diamonds_counts() -> Counter:
    """How many primitives of each kind the Q♦ sheet's scene holds (A4)."""
    from generator.core.shipped import resolve_layout
    from generator.games.allin.layout import load_layout
    from generator.games.allin.sheet import build_allin_sheet
    from generator.printing.paper import paper

    scene = build_allin_sheet(load_layout(resolve_layout("q-diamonds")), paper("a4"))
    return Counter(type(item).__name__ for item in scene.items)


def sheetsmith_command() -> list[str]:
    """The installed ``sheetsmith`` script next to this Python, else ``python -m generator.cli.app``."""
    script = Path(sys.executable).with_name("sheetsmith")
    return [str(script)] if script.exists() else [sys.executable, "-m", "generator.cli.app"]


def once(cmd: list[str], cwd: str) -> tuple[float, float]:
    """Wall-clock seconds and CPU seconds (user + system) of one fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=9, help="fresh processes per measurement (median reported)")
    args = ap.parse_args()
    counts = q_diamonds_counts()
    # sheetsmith's modules compiled to bytecode first, as an installed package has them (reportlab's come so from
    # pip): a stale or missing cache (PYTHONDONTWRITEBYTECODE set, a fresh edit) would time the compiler instead
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(Path(__file__).resolve().parents[1] / "generator")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    work = tempfile.mkdtemp(prefix="bench-startup-")
    try:
        bare = Path(work) / "bare.py"
        bare.write_text(BARE.format(counts=dict(counts), fonts=str(FONT_DIR)), encoding="utf-8")
        tool = sheetsmith_command()
        runs = {
            "python -c pass (the interpreter alone)": [sys.executable, "-c", "pass"],
            "bare reportlab script, same primitives": [sys.executable, str(bare), str(Path(work) / "bare.pdf")],
            "sheetsmith render q-diamonds -f pdf": [
                *tool,
                "render",
                "q-diamonds",
                "-f",
                "pdf",
                "-o",
                str(Path(work) / "q.pdf"),
                "--force",
            ],
            "sheetsmith --help": [*tool, "--help"],
        }
        times: dict[str, list[float]] = {k: [] for k in runs}
        cpu: dict[str, list[float]] = {k: [] for k in runs}
        for cmd in runs.values():  # warm the file cache once
            once(cmd, work)
        for _ in range(args.runs):
            for name, cmd in runs.items():
                wall, used = once(cmd, work)
                times[name].append(wall)
                cpu[name].append(used)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    med = {k: statistics.median(v) for k, v in times.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    print(
        f"Fresh processes, median of {args.runs} (interleaved); load average {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} cores; Q♦ scene: {sum(counts.values())} primitives "
        f"({', '.join(f'{v} {k}' for k, v in sorted(counts.items()))})"
    )
    print(f"{'':44} {'wall s':>7} {'min s':>7} {'CPU s':>7}")
    for name, t in times.items():
        print(f"{name:44} {med[name]:7.3f} {min(t):7.3f} {med_cpu[name]:7.3f}")
    bare, render, helps = (
        "bare reportlab script, same primitives",
        "sheetsmith render q-diamonds -f pdf",
        "sheetsmith --help",
    )
    print(
        f"render / bare reportlab: {med[render] / med[bare]:.2f}× wall, {med_cpu[render] / med_cpu[bare]:.2f}× CPU  "
        "(target ≤ 3×)"
    )
    print(
        f"--help: {med[helps]:.3f} s wall, {med_cpu[helps]:.3f} s CPU  (target ≤ 0.2 s; the interpreter alone: "
        f"{med['python -c pass (the interpreter alone)']:.3f} s wall)"
    )


if __name__ == "__main__":
    main()
