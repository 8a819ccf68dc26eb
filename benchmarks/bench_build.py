"""Benchmark: how long sheets take to draw and render, and how big the files are.

Run:  python benchmarks/bench_build.py [--repeat N]
Prints one row per shipped layout (A4): scene, PDF, SVG and PNG times and
sizes, then the totals. Figures go in the README; no test asserts them.
"""

from __future__ import annotations

import argparse
import statistics
import time

from rich.console import Console
from rich.table import Table

from generator.core.shipped import shipped_layouts
from generator.games.allin.layout import load_layout
from generator.games.allin.sheet import build_allin_sheet
from generator.printing.backends import render_bytes
from generator.printing.paper import paper


def timed(fn, repeat):
    times, result = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    table = Table(title=f"sheet rendering, A4, median of {args.repeat}")
    for col in ("layout", "scene ms", "PDF ms", "PDF KB", "SVG ms", "SVG KB", "PNG 150 dpi ms", "PNG KB"):
        table.add_column(col, justify="right")
    totals = [0.0, 0.0, 0.0, 0.0]
    for item in shipped_layouts():
        lay = load_layout(item.path)
        t_scene, scene = timed(lambda: build_allin_sheet(lay, paper("a4")), args.repeat)
        t_pdf, pdf = timed(lambda: render_bytes([scene], "pdf"), args.repeat)
        t_svg, svg = timed(lambda: render_bytes([scene], "svg"), args.repeat)
        t_png, png = timed(lambda: render_bytes([scene], "png", dpi=150), args.repeat)
        for i, t in enumerate((t_scene, t_pdf, t_svg, t_png)):
            totals[i] += t
        table.add_row(
            item.id,
            f"{t_scene * 1e3:.0f}",
            f"{t_pdf * 1e3:.0f}",
            f"{len(pdf) / 1024:.0f}",
            f"{t_svg * 1e3:.0f}",
            f"{len(svg) / 1024:.0f}",
            f"{t_png * 1e3:.0f}",
            f"{len(png) / 1024:.0f}",
        )
    ms = [f"{t * 1e3:.0f}" for t in totals]
    table.add_row("all six", ms[0], ms[1], "", ms[2], "", ms[3], "")
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
