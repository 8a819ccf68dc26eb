"""Benchmark: reading phone photos of filled Flip 7 tick pads, one row per kind of fault.

Run:  python benchmarks/bench_tickpads.py [--photos 100] [--per-family 20] [--start 20000] [--families other-hands]
                                          [--workers 2] [-v]

Every photo is synthetic and seeded: a Flip 7 game of 3 to 6 players played out by
the rules core's bots (``generator/games/flip7/round.py``, stop-at-T with T from 15
to 30), one player's tick pad drawn as people tick it (the cards in front of them
at the end of each round; a busted player ticks BUST, and half the time the cards
they had too; round scores and running totals written in the score columns) with
the All In benchmark's hands (``tests/synth/sheet_photos.py``: ticks or crosses,
pencil to felt pen, sloppiness), then photographed with the same camera and faults
(``synth.photograph``): the *realistic mix* (tilt up to 35°, any rotation, 40–95 %
of the frame, defocus and motion blur, noise, light gradient and soft shadow, JPEG
55–95, 1920 × 1080 to 4000 × 3000), the *hard sweep* (1280 × 720, tilt 40°, JPEG
40, printed at 94 %), a *hard shadow* edge swept across the table, *glare* on a
row, and *erased* ticks (1–4 ticks pencilled on blank boxes of played rows and
rubbed out, 15–60 % of the graphite left; about one pad in five is otherwise
ticked in pen), and *other hands* (boxes ticked, crossed, slashed, dashed or
filled in, by a hand up to 1.6 times as sloppy).

Counted: pads read exactly (nothing ``?``, every box of all 15 rows right); pads
flagged (some box or row ``?``, or the photo refused); pads with a box read wrong
*without* a ``?`` (must be 0) and the number of such boxes; the median time to
read a photo (warm, in this process).  Tune on seeds below 9000; report on
seeds nobody has looked at (docs/benchmarks.md names the range of its figures).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROWS = {
    "realistic mix": ["realistic"],
    "hard sweep": ["hard-small", "hard-tilt", "hard-jpeg", "hard-scaled"],
    "hard shadow": ["shadow"],
    "glare": ["glare"],
    "erased ticks": ["erased"],
    "other hands (✓ X / blob dash, sloppy)": ["other-hands"],
}
KEY = {"x2": "×2"}


def game_rows(rng: random.Random) -> tuple[list[list[str]], list[int]]:
    """One player's tick rows and round scores from a simulated game (at most the pad's 15 rounds)."""
    from generator.games.flip7.round import StopAt, play_game
    from generator.games.flip7.rules import round_score

    players = [f"P{i}" for i in range(1, rng.randint(3, 6) + 1)]
    result = play_game(players, StopAt(rng.randint(15, 30)), random.Random(rng.getrandbits(32)))
    me = rng.choice(players)
    rows, scores = [], []
    for r in result.rounds[:15]:
        pr = r.player(me)
        keys = list(dict.fromkeys(KEY.get(str(c), str(c)) for c in pr.cards))
        if pr.busted:
            keys = (keys if rng.random() < 0.5 else []) + ["BUST"]
            scores.append(0)
        else:
            scores.append(round_score(pr.cards))
        rows.append(keys)
    return rows, scores


def make_photo(job: tuple[str, int, str]) -> tuple[str, int, str, list[list[str]]]:
    """Make one photo (in a worker): ``(family, seed, jpeg path, true rows)``."""
    from generator.core.shipped import resolve_layout
    from generator.games.registry import load_any
    from generator.printing.paper import paper
    from tests.synth.sheet_photos import Pen, hard_params, random_style, realistic_params
    from tests.synth.tickpad import synth_tick_photo

    family, seed, folder = job
    rng = random.Random(f"tickbench:{family}:{seed}")
    rows, scores = game_rows(rng)
    prng = random.Random(f"tickparams:{family}:{seed}")
    p = hard_params(prng, family[5:]) if family.startswith("hard-") else realistic_params(prng)
    pad = load_any(resolve_layout("flip7-tick-pad"))
    style = random_style(rng)
    erased = []
    # the table's extent on the landscape page (mm): rows of tick boxes from about y 46 to 180
    if family == "shadow":
        import math

        ang = rng.uniform(0, 180)
        nx, ny = math.sin(math.radians(ang)), -math.cos(math.radians(ang))
        pos = ((seed % 64) + 0.5) / 64 * 2 - 1
        u0, v0 = 138 + pos * 120 * nx, 113 + pos * 67 * ny
        p = replace(
            p,
            shadow=0.0,
            hard_shadow=(u0, v0, ang + rng.choice([0, 180]), rng.uniform(0.55, 0.70), rng.uniform(0.3, 2.0)),
        )
    elif family == "glare":
        p = replace(
            p, glare=(rng.uniform(25, 250), rng.uniform(50, 180), rng.uniform(6.0, 18.0), rng.uniform(0.4, 1.8))
        )
    elif family == "other-hands":  # ticked, crossed, slashed, dashed or filled in, by a sloppier hand
        style = replace(style, box_mark="any", sloppiness=rng.uniform(1.0, 1.6))
    elif family == "erased":
        g = 1.0 - rng.uniform(0.3, 0.75)
        if rng.random() < 0.6:  # a hand in pencil; else in pen, the rubbed-out ticks pencilled (synth._erased)
            style = replace(style, pen=Pen("pencil", (g, g, g * 1.02), rng.uniform(0.35, 0.55), grainy=True))
        from generator.games.pads import TICKS

        for _ in range(rng.randint(1, 4)):
            r = rng.randrange(len(rows))
            free = [k for k in TICKS if k not in rows[r]]
            erased.append((r + 1, rng.choice(free), rng.uniform(0.15, 0.6)))
    photo = synth_tick_photo(
        pad, rows, paper("a4"), f"{family}:{seed}", params=p, style=style, scores=scores, erased=erased
    )
    path = Path(folder) / f"{family}-{seed}.jpg"
    path.write_bytes(photo.jpeg)
    return family, seed, str(path), rows


def evaluate(reading, rows: list[list[str]]) -> dict:
    """Compare a reading with the true rows: boxes wrong without a '?', '?' fields, exact."""
    wrong = 0
    for row in reading.rows:
        truth = set(rows[row.round - 1]) if row.round <= len(rows) else set()
        if row.reason:
            continue
        for k in row.inks:
            if k in row.unsure:
                continue
            if (k in row.ticked) != (k in truth):
                wrong += 1
    flagged = bool(reading.uncertain)
    return {"wrong": wrong, "flagged": flagged, "exact": not flagged and wrong == 0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--photos", type=int, default=100, help="photos of the realistic mix (default 100)")
    ap.add_argument(
        "--per-family", type=int, default=20, help="photos of every other row (default 20; the hard sweep splits it)"
    )
    ap.add_argument("--start", type=int, default=0, help="first seed (tune below 9000; report on unread seeds)")
    ap.add_argument("--families", help="only these rows' families, comma-separated (e.g. other-hands,erased)")
    ap.add_argument("--workers", type=int, default=2, help="processes making photos (default 2)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every photo not read exactly")
    args = ap.parse_args()

    from generator.core.errors import InputError
    from generator.reader.read import read_photo

    console = Console()
    jobs = []
    with tempfile.TemporaryDirectory() as folder:
        only = set(args.families.split(",")) if args.families else None
        for row, fams in ROWS.items():
            n = args.photos if row == "realistic mix" else args.per_family
            for i in range(n):
                if only is None or fams[i % len(fams)] in only:
                    jobs.append((fams[i % len(fams)], args.start + i, folder))
        results: dict[str, list[dict]] = {row: [] for row in ROWS}
        fam_row = {f: row for row, fams in ROWS.items() for f in fams}
        with Progress(console=console) as progress, ProcessPoolExecutor(args.workers) as pool:
            task = progress.add_task("tick pads", total=len(jobs))
            for family, seed, path, rows in pool.map(make_photo, jobs):
                t = time.perf_counter()
                try:
                    reading = read_photo(path)
                    res = evaluate(reading, rows)
                    res["why"] = "; ".join(f"{f}: {r}" for f, r in reading.uncertain[:3])
                except InputError as exc:
                    res = {"wrong": 0, "flagged": True, "exact": False, "why": "refused: " + exc.problems[0].message}
                res["seconds"] = time.perf_counter() - t
                res["seed"], res["family"] = seed, family
                results[fam_row[family]].append(res)
                if args.verbose and not res["exact"]:
                    progress.console.print(f"{family} {seed}: wrong {res['wrong']} {res['why']}")
                progress.advance(task)
    table = Table(title=f"Flip 7 tick pads from photos (seeds from {args.start})")
    for col in ("set", "pads", "read exactly", "flagged", "wrong without a flag", "boxes wrong", "median s"):
        table.add_column(col, justify="right" if col != "set" else "left")
    for row, res in results.items():
        if not res:
            continue
        n = len(res)
        table.add_row(
            row,
            str(n),
            f"{100 * sum(r['exact'] for r in res) / n:.0f} %",
            f"{100 * sum(r['flagged'] for r in res) / n:.0f} %",
            f"{sum(1 for r in res if r['wrong'])} ({100 * sum(1 for r in res if r['wrong']) / n:.0f} %)",
            str(sum(r["wrong"] for r in res)),
            f"{statistics.median(r['seconds'] for r in res):.2f}",
        )
    console.print(table)


if __name__ == "__main__":
    main()
