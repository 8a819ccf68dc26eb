"""Figures: every shipped All In sheet beside Q♦ (``sheetsmith balance``), as the Markdown table of docs/layouts.md.

Run:  python benchmarks/bench_balance.py [--games 500] [--players 4] [--seed 1] [--workers W]
  or: sheetsmith balance q-diamonds k-spades … --json > run.json; python benchmarks/bench_balance.py --from-json
  run.json
Prints the table (one row per sheet, Q♦ first), the run's games, players and seed, and how long the
run took. No test asserts these figures.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from rich.progress import Progress

from generator.core.shipped import shipped_layouts
from generator.jobs.play import balance_layouts


def markdown(rep: dict) -> str:
    """The comparison table of a ``balance`` JSON report."""
    rows = [
        "| sheet | hands | mean total | vs Q♦ | 10th / 90th pct | chips earned | hands completed | Golden Card "
        "surrounded | least completed hand |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for s in rep["layouts"]:
        low = min(s["hands"].items(), key=lambda kv: (kv[1]["completion_rate"], kv[0]))
        letter, h = low
        gap = "baseline" if s["id"] == rep["baseline"]["id"] else f"{s['mean_total_gap']:+.1%}"
        flag = " ⚠" if s["warnings"] else ""
        rows.append(
            f"| {s['name']} `{s['id']}` | {len(s['hands'])} | {s['mean_total']:.1f}{flag} | "
            f"{gap} | {s['p10_total']:.0f} / {s['p90_total']:.0f} | {s['mean_chips_earned']:.1f} | "
            f"{s['mean_hands_completed']:.1f} of {len(s['hands'])} | {s['golden_surround_rate']:.0%} | "
            f"{letter} ({h['cells']}, {h['length']}): {h['completion_rate']:.0%} |"
        )
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--from-json", type=Path, default=None, help="a saved 'sheetsmith balance … --json' report")
    args = ap.parse_args()
    if args.from_json:
        rep, took = json.loads(args.from_json.read_text(encoding="utf-8")), None
    else:
        ids = [s.id for s in shipped_layouts() if s.game == "allin"]
        t = time.perf_counter()
        with Progress() as progress:
            task = progress.add_task("playing", total=None)
            result = balance_layouts(
                ids,
                games=args.games,
                players=args.players,
                seed=args.seed,
                workers=args.workers,
                progress=lambda n, total: progress.update(task, advance=n, total=total),
            )
        took = time.perf_counter() - t
        rep = result.report()
    print(markdown(rep))
    print()
    print(
        f"{rep['games']} games of {rep['players']} players on each sheet, seed {rep['seed']}"
        + (f"; {took:.0f} s" if took is not None else "")
    )


if __name__ == "__main__":
    main()
