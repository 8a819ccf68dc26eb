"""Benchmark: how long each shipped item takes to draw and render, and how big its files are.

Run:  python benchmarks/bench_build.py [--repeat N] [--paper a4|letter]

Prints one row per shipped layout, deck, chip sheet, pad and ledger: the time
to draw its pages (the scene), to render them as PDF, SVG and PNG (150 dpi,
first page), and the file sizes; then the totals.  Figures go in
docs/benchmarks.md; no test asserts them.  The time a user waits for the
whole of ``sheetsmith build`` is taken in a fresh process by
``benchmarks/bench_startup.py``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from rich.console import Console
from rich.table import Table

from generator.core.shipped import shipped_layouts
from generator.games.registry import load_any, pages_for
from generator.printing.backends import render_bytes
from generator.printing.paper import paper


def timed(fn, repeat):
    """The median wall time (seconds) of ``repeat`` calls of ``fn`` and the last call's result."""
    times, result = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5, help="runs per figure; the median is shown (default 5)")
    ap.add_argument("--paper", choices=("a4", "letter"), default="a4")
    args = ap.parse_args()
    sheet = paper(args.paper)
    table = Table(title=f"drawing and rendering every shipped item, {args.paper}, median of {args.repeat}")
    for col in ("item", "pages", "scene ms", "PDF ms", "PDF KB", "SVG ms", "SVG KB", "PNG 150 dpi ms", "PNG KB"):
        table.add_column(col, justify="right")
    totals = [0.0, 0.0, 0.0, 0.0]
    items = shipped_layouts()
    for shipped in items:
        item = load_any(shipped.path)
        t_scene, (scenes, _manifest) = timed(lambda: pages_for(item, sheet), args.repeat)
        t_pdf, pdf = timed(lambda: render_bytes(scenes, "pdf"), args.repeat)
        t_svg, svg = timed(lambda: render_bytes(scenes[:1], "svg"), args.repeat)
        t_png, png = timed(lambda: render_bytes(scenes[:1], "png", dpi=150), args.repeat)
        for i, t in enumerate((t_scene, t_pdf, t_svg, t_png)):
            totals[i] += t
        table.add_row(
            f"{shipped.game}/{shipped.id}",
            str(len(scenes)),
            f"{t_scene * 1e3:.0f}",
            f"{t_pdf * 1e3:.0f}",
            f"{len(pdf) / 1024:.0f}",
            f"{t_svg * 1e3:.0f}",
            f"{len(svg) / 1024:.0f}",
            f"{t_png * 1e3:.0f}",
            f"{len(png) / 1024:.0f}",
        )
    ms = [f"{t * 1e3:.0f}" for t in totals]
    table.add_row(f"all {len(items)}", "", ms[0], ms[1], "", ms[2], "", ms[3], "")
    Console(width=140).print(table)


if __name__ == "__main__":
    main()
