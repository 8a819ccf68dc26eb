"""Benchmark: reading phone photos of filled All In sheets.

Run:  python benchmarks/bench_photos.py [--photos 300] [--hard 40] [--workers 2] [--keep DIR]

Every photo is synthetic and seeded (``generator/reader/synth.py``): a game
simulated by the bot (``generator.rules.allin_bot.simulate_game``) on a shipped
layout, one player's final sheet drawn as a person marks it (ticks, crosses,
full and half-filled bubbles, circles with gaps; pencil down to 30 % grey,
blue or black pen), rendered at 300 dpi, and photographed: tilt up to 35°,
any in-plane rotation, the sheet covering 40–95 % of the frame on a textured
table, defocus and motion blur, sensor noise, a lighting gradient down to
40 % and a soft shadow, JPEG quality 55–95, 1920 × 1080 to 4000 × 3000
pixels.  The hard sweep is reported apart: 1280 × 720, tilt 40°, JPEG
quality 40, a page printed at 94 %.

Reported, for each set: per-mark accuracy (every rank box, suit, chip circle
and spent box, an unsure decision counting as not accurate), the share of
sheets read exactly (nothing uncertain, every field right), the share
flagged (some field reported uncertain, or the photo refused with an error),
the share read wrongly without a flag (must be 0), and the median and
95th-percentile time to read a photo; the time of the 12 MP photos alone too.
Photos are made in worker processes; reading is timed one photo at a time in
this process.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

HARD_CASES = ("small", "tilt", "jpeg", "scaled")


def make_photo(job: tuple[str, int, str, str]) -> tuple[str, int, str, str, dict]:
    """Worker: simulate a game, draw one sheet, photograph it, save the JPEG; return its path and truth."""
    from generator.paper import paper
    from generator.registry import load_layout, shipped_layouts
    from generator.rules.allin_bot import simulate_game
    from generator.reader.synth import hard_params, realistic_params, synth_photo

    kind, seed, folder, case = job
    path = os.path.join(folder, f"{kind}-{seed:04d}.jpg")
    if os.path.exists(path + ".json"):  # made before (--keep): reuse
        with open(path + ".json", encoding="utf-8") as fh:
            return kind, seed, case, path, json.load(fh)
    rng = random.Random(f"bench:{kind}:{seed}")
    layouts = [s for s in shipped_layouts() if s.game == "allin"]
    lay = load_layout(rng.choice(layouts).path)
    pap = paper(rng.choice(["a4", "letter"]))
    sim = simulate_game(lay, rng.randint(2, 4), rng.getrandbits(32))
    sheets = sim.result.sheets
    sheet = sheets[rng.randrange(len(sheets))]
    prng = random.Random(f"params:{kind}:{seed}")
    params = realistic_params(prng) if kind == "real" else hard_params(prng, case)
    photo = synth_photo(sheet, pap, f"{kind}:{seed}", params=params, game=sim.result.score)
    with open(path, "wb") as fh:
        fh.write(photo.jpeg)
    truth = {
        "cards": {f"{c[0]},{c[1]}": card.code for c, card in sheet.cards.items()},
        "earned": sheet.chips_earned,
        "spent": sheet.chips_spent,
        "layout": lay.id,
        "paper": pap.id,
        "frame": params.frame,
        "pen": photo.style.pen.kind,
    }
    with open(path + ".json", "w", encoding="utf-8") as fh:
        json.dump(truth, fh)
    return kind, seed, case, path, truth


def evaluate(reading, truth: dict) -> dict:
    """Compare a reading with the truth: mark counts, and whether the sheet is exact, flagged or wrong without a flag."""
    from generator.cards import parse_card

    cards = {tuple(int(v) for v in k.split(",")): parse_card(v) for k, v in truth["cards"].items()}
    marks = correct = 0
    wrong_field = False
    for coord, cr in reading.cells.items():
        card = cards.get(coord)
        name = cr.cell
        for t in reading.scene.marks:
            if t.owner != name or t.kind not in ("rank", "suit"):
                continue
            want = card is not None and (card.rank_label == t.key if t.kind == "rank" else card.suit == t.key)
            state = (cr.ranks if t.kind == "rank" else cr.suits).get(t.key, False)
            marks += 1
            correct += state is not None and bool(state) == want
        if cr.status == "card" and (card is None or cr.card.code != card.code):
            wrong_field = True
        if cr.status == "empty" and card is not None:
            wrong_field = True
    for count, want, n in ((reading.chips_earned, truth["earned"], "chip_earned"), (reading.chips_spent, truth["spent"], "chip_spent")):
        total = sum(1 for t in reading.scene.marks if t.kind == n)
        for i in range(1, total + 1):
            marks += 1
            if i in count.unsure:
                continue
            correct += (i in count.marked) == (i <= want)
        if count.value is not None and count.value != want:
            wrong_field = True
    flagged = bool(reading.uncertain)
    exact = not flagged and not wrong_field
    return {"marks": marks, "correct": correct, "exact": exact, "flagged": flagged, "wrong": wrong_field and not flagged,
            "wrong_any": wrong_field}


def run(kind: str, jobs: list, folder: str, workers: int, console: Console, verbose: bool) -> dict:
    from generator.errors import InputError
    from generator.reader import read_photo

    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        made = list(pool.map(make_photo, jobs, chunksize=2))
    console.print(f"{kind}: {len(made)} photos made in {time.perf_counter() - t0:.0f} s", highlight=False)
    rows = []
    for _kind, seed, case, path, truth in made:
        t = time.perf_counter()
        try:
            reading = read_photo(path)
            err = None
        except InputError as exc:
            reading, err = None, str(exc)
        dt = time.perf_counter() - t
        if reading is None:
            res = {"marks": 0, "correct": 0, "exact": False, "flagged": True, "wrong": False, "wrong_any": False, "error": err}
        else:
            res = evaluate(reading, truth)
            res["uncertain"] = reading.uncertain
        res.update(time=dt, case=case, seed=seed, frame=truth["frame"], pen=truth["pen"], layout=truth["layout"], path=path)
        rows.append(res)
        if verbose and (not res["exact"]):
            console.print(f"  {Path(path).name} {truth['layout']} {truth['frame']} {truth['pen']}: "
                          + (f"ERROR {err}" if reading is None else f"uncertain {res['uncertain']} wrong={res['wrong_any']}"), highlight=False)
    return summarise(rows)


def summarise(rows: list[dict]) -> dict:
    n = len(rows)
    marks = sum(r["marks"] for r in rows)
    times = sorted(r["time"] for r in rows)
    big = sorted(r["time"] for r in rows if r["frame"][0] * r["frame"][1] >= 11_000_000)
    return {
        "photos": n,
        "mark_accuracy": sum(r["correct"] for r in rows) / marks if marks else 0.0,
        "exact": sum(r["exact"] for r in rows) / n,
        "flagged": sum(r["flagged"] for r in rows) / n,
        "refused": sum(1 for r in rows if "error" in r) / n,
        "wrong_unflagged": sum(r["wrong"] for r in rows) / n,
        "median_s": statistics.median(times),
        "p95_s": times[min(n - 1, int(round(0.95 * (n - 1))))],
        "median_12mp_s": statistics.median(big) if big else float("nan"),
        "p95_12mp_s": big[min(len(big) - 1, int(round(0.95 * (len(big) - 1))))] if big else float("nan"),
        "photos_12mp": len(big),
        "rows": rows,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--photos", type=int, default=300, help="photos of the realistic mix (default 300)")
    ap.add_argument("--hard", type=int, default=40, help="photos of the hard sweep (default 40, 10 per case)")
    ap.add_argument("--workers", type=int, default=2, help="processes making photos (default 2)")
    ap.add_argument("--keep", type=Path, help="keep the photos in this folder")
    ap.add_argument("--start", type=int, default=0, help="first seed")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every photo not read exactly")
    args = ap.parse_args()
    console = Console(width=170)
    folder = str(args.keep) if args.keep else tempfile.mkdtemp(prefix="sheetsmith-photos-")
    os.makedirs(folder, exist_ok=True)
    results = {}
    real_jobs = [("real", args.start + i, folder, "") for i in range(args.photos)]
    if real_jobs:
        results["realistic mix"] = run("real", real_jobs, folder, args.workers, console, args.verbose)
    hard_jobs = [("hard", args.start + i, folder, HARD_CASES[i % len(HARD_CASES)]) for i in range(args.hard)]
    if hard_jobs:
        hard = run("hard", hard_jobs, folder, args.workers, console, args.verbose)
        results["hard sweep"] = hard
        for case in HARD_CASES:
            rows = [r for r in hard["rows"] if r["case"] == case]
            if rows:
                results[f"  hard: {case}"] = summarise(rows)
    table = Table(title="reading photos of filled sheets")
    for col in ("set", "photos", "mark accuracy", "read exactly", "flagged", "(refused)", "wrong, no flag",
                "median s", "p95 s", "12 MP median s", "12 MP p95 s"):
        table.add_column(col, justify="right" if col != "set" else "left")
    for name, r in results.items():
        table.add_row(
            name, str(r["photos"]), f"{100 * r['mark_accuracy']:.3f} %", f"{100 * r['exact']:.1f} %",
            f"{100 * r['flagged']:.1f} %", f"{100 * r['refused']:.1f} %", f"{100 * r['wrong_unflagged']:.1f} %",
            f"{r['median_s']:.2f}", f"{r['p95_s']:.2f}",
            f"{r['median_12mp_s']:.2f} ({r['photos_12mp']})" if r["photos_12mp"] else "—",
            f"{r['p95_12mp_s']:.2f}" if r["photos_12mp"] else "—",
        )
    console.print(table)
    if not args.keep:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
