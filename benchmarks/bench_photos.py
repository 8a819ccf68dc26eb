"""Benchmark: reading phone photos of filled All In sheets, one row per kind of fault.

Run:  python benchmarks/bench_photos.py [--photos 300] [--per-family 40] [--hard 40] [--start 80000]
                                        [--count nearly-empty=100 ...] [--families shadow,glare]
                                        [--workers 2] [--keep DIR] [-v] [--side-by-side]

Every photo is synthetic and seeded (``tests/synth/families.py``,
``synth.py``, ``synth_camera.py``): a game simulated by the bots on a shipped
layout, one player's final sheet drawn as a person marks it (ticks, crosses,
full and half-filled bubbles, circles with gaps; pencil down to 30 % grey, blue
or black pen), rendered at 300 dpi and photographed through a pinhole camera:
tilt up to 35°, any in-plane rotation, the sheet covering 40–95 % of the frame
on a textured table, defocus and motion blur, sensor noise, a lighting
gradient down to 40 % and a soft shadow, JPEG quality 55–95, 1920 × 1080 to
4000 × 3000 pixels.  That is the *realistic mix*.  The families add one fault
each, made as physics makes it:

* hard sweep — 1280 × 720, tilt 40°, JPEG quality 40, a page printed at 94 %;
* hard shadow — a sharp edge (penumbra 0.3–2 mm) swept across the grid in 64
  positions, the shaded part 55–70 % darker (the light multiplied);
* glare — the lamp mirrored on a card space: a soft spot adding light (its
  core saturating the sensor), lowering the contrast under it;
* erased marks — pencil ticks, circles, chip bubbles and spent ticks rubbed out,
  15–60 % of the graphite left and smeared;
* partly outside — a strip of 15–60 mm along one side outside the photo, read
  with ``--layout``;  two sheets — two players' sheets side by side;
* dominant suit / dominant rank / full / nearly empty — sheets that stress the
  decisions: most spaces one suit, most one rank, every space and chip filled,
  one to three cards;
* large values — half the values or more written so large that they run on
  over the suit symbols beside them (the 0 of a "10" across a heart);
* folded screen — the part above the printed fold line standing up 5–20° and
  20–35°, lit differently; curled sheet — a cylinder lifting the edges
  3–10 mm (gentle) and 15–35 mm (strong);
* HEIC — the realistic mix saved as HEIC (when pillow-heif is installed; the
  reading of HEIC belongs to ``generator/reader/image.py``);
* home conditions — other hands (boxes ticked, crossed, slashed, dashed or
  filled in; suit circles loose, off-centre, open or overshooting), a steep
  shot 45–60° off the page, a dim room (a warm lamp, high-ISO noise, 3–8 px of
  hand shake), cream or grey recycled paper from a printer low on toner
  (faded, streaked print), a sheet crumpled and flattened by hand (creases
  that shade and shift the print), a clear plastic sleeve (a veil, and the
  lamp's reflection as a bright band).

Counted, for every set: the sheets read exactly (nothing ``?``, every field
right), the sheets flagged (some field ``?`` or the photo refused), the sheets
with a field read wrong *without* a ``?`` — any field, flagged sheet or not; a
field outside the photo given any value counts as wrong — and the number of
such fields; the share of fields read (not ``?``), the median time to read a
photo (warm, in this process) and that of the 12 MP photos.  Photos are made
in worker processes; reading is timed one photo at a time in this process.
Tune on seeds below 9000; report on seeds nobody has looked at: each table in
docs/benchmarks.md names the range it started from, and a run that finds a
fault spends its range (the next report starts higher).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
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
    "erased marks": ["erased"],
    "partly outside (--layout)": ["outside"],
    "two sheets": ["two-sheets"],
    "dominant suit": ["dominant-suit"],
    "dominant rank": ["dominant-rank"],
    "full sheet": ["full"],
    "nearly empty": ["nearly-empty"],
    "large values": ["large-values"],
    "folded screen 5–20°": ["fold"],
    "folded screen 20–35°": ["fold-steep"],
    "curled, gentle": ["curl"],
    "curled, strong": ["curl-strong"],
    "HEIC": ["heic"],
    "other hands (✓ X / blob dash, loose circles)": ["other-hands"],
    "steep, 45–60°": ["steep"],
    "dim room (warm lamp, noise, shake)": ["dim-room"],
    "recycled paper, low toner": ["recycled"],
    "crumpled, flattened by hand": ["crumpled"],
    "clear sleeve, reflection band": ["sleeve"],
}
"""Benchmark rows and the synthetic families each is made of."""


def heic_encoder():
    """The HEIC writer, or ``None`` (the HEIC row needs pillow-heif)."""
    try:
        import pillow_heif

        pillow_heif.register_heif_opener()
        return pillow_heif
    except ImportError:
        return None


def make_photo(job: tuple[str, int, str]) -> tuple[str, int, str, dict]:
    """Worker: make one family's photo for a seed, save it; return its path and truth."""
    import numpy as np

    from generator.games.allin.grid import cell_name
    from generator.games.allin.sheet import build_allin_sheet
    from tests.synth.families import case
    from tests.synth.sheet_photos import synth_photo

    family, seed, folder = job
    ext = ".heic" if family == "heic" else ".jpg"
    path = os.path.join(folder, f"{family}-{seed:05d}{ext}")
    if os.path.exists(path + ".json"):  # made before (--keep): reuse
        with open(path + ".json", encoding="utf-8") as fh:
            return family, seed, path, json.load(fh)
    c = case("realistic" if family == "heic" else family, seed)
    photo = synth_photo(
        c.sheet,
        c.paper,
        f"{family}:{seed}",
        params=c.params,
        style=c.style,
        game=c.game,
        extra=c.extra,
        others=c.others,
    )
    if family == "heic":
        import io

        from PIL import Image

        buf = io.BytesIO()
        Image.open(io.BytesIO(photo.jpeg)).save(buf, format="HEIF", quality=90)
        data = buf.getvalue()
    else:
        data = photo.jpeg
    with open(path, "wb") as fh:
        fh.write(data)
    # the fields not wholly in the photo (their targets' corners outside the frame): they must not be read
    scene = build_allin_sheet(c.sheet.layout, c.paper)
    fw, fh_ = c.params.frame
    H = photo.homography
    outside = set()
    for t in scene.marks:
        if t.kind not in ("rank", "suit", "chip_earned", "chip_spent"):
            continue
        pts = (
            np.array([[t.x, t.y, 1], [t.x + t.w, t.y, 1], [t.x, t.y + t.h, 1], [t.x + t.w, t.y + t.h, 1]], float) @ H.T
        )
        pts = pts[:, :2] / pts[:, 2:3]
        if (pts[:, 0] < 0).any() or (pts[:, 1] < 0).any() or (pts[:, 0] > fw - 1).any() or (pts[:, 1] > fh_ - 1).any():
            outside.add(
                t.owner if t.kind in ("rank", "suit") else "chips." + ("earned" if t.kind == "chip_earned" else "spent")
            )
    if "chips.earned" in outside:
        outside.add("chips.spent")  # spent boxes are read against the circles above them
    truth = {
        "cards": {f"{k[0]},{k[1]}": card.code for k, card in c.sheet.cards.items()},
        "earned": c.sheet.chips_earned,
        "spent": c.sheet.chips_spent,
        "layout": c.sheet.layout.id,
        "paper": c.paper.id,
        "frame": c.params.frame,
        "pen": photo.style.pen.kind,
        "read_layout": c.layout,
        "refuse": c.refuse,
        "outside": sorted(outside),
        "cells": [cell_name(k) for k in sorted(c.sheet.layout.grid.writable)],
    }
    with open(path + ".json", "w", encoding="utf-8") as fh:
        json.dump(truth, fh)
    return family, seed, path, truth


def evaluate(reading, truth: dict) -> dict:
    """Compare a reading with the truth, field by field.

    A field is a card space or a chip count.  It is *wrong without a flag* when it is given a
    value (a card, ``.``, a count) that is not the truth, or any value while it lies outside
    the photo; a ``?`` is never wrong.
    """
    from generator.core.cards import parse_card

    cards = {tuple(int(v) for v in k.split(",")): parse_card(v) for k, v in truth["cards"].items()}
    outside = set(truth["outside"])
    wrong: list[str] = []
    fields = read = 0
    for coord, cr in reading.cells.items():
        card = cards.get(coord)
        fields += 1
        if cr.status == "uncertain":
            continue
        read += 1
        got = cr.card.code if cr.status == "card" else None
        if cr.cell in outside or got != (card.code if card else None):
            wrong.append(
                f"{cr.cell}={got or '.'}"
                + (" (outside)" if cr.cell in outside else f" (truth {card.code if card else '.'})")
            )
    for name, count, want in (
        ("chips.earned", reading.chips_earned, truth["earned"]),
        ("chips.spent", reading.chips_spent, truth["spent"]),
    ):
        fields += 1
        if count.value is None:
            continue
        read += 1
        if name in outside or count.value != want:
            wrong.append(f"{name}={count.value}" + (" (outside)" if name in outside else f" (truth {want})"))
    flagged = bool(reading.uncertain)
    return {"exact": not flagged and not wrong, "flagged": flagged, "wrong": wrong, "fields": fields, "read": read}


def model_reading(layout, measurement, probs: dict | None = None, bands: dict | None = None):
    """What the model reader decides from a photo's measurements, shaped as :func:`evaluate` reads a reading
    (``probs``, ``bands``: instead of the shipped model's, as :func:`generator.reader.read.decide_model` takes)."""
    from types import SimpleNamespace

    from generator.reader.read import decide_model

    cells, earned, spent = decide_model(layout, measurement, probs, bands)
    other = SimpleNamespace(cells=cells, chips_earned=earned, chips_spent=spent)
    other.uncertain = [(c.cell, c.reason) for c in cells.values() if c.status == "uncertain"] + [
        (n, c.reason) for n, c in (("chips.earned", earned), ("chips.spent", spent)) if c.value is None
    ]
    return other


def run(jobs: list, workers: int, console: Console, verbose: bool, side_by_side: bool = False) -> list[dict]:
    """Make the photos of ``jobs`` (in worker processes) and read each in this process (``side_by_side``: by the
    model reader too, on the same measurements)."""
    from generator.core.errors import InputError
    from generator.reader import read_photo

    rows = []
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("making photos", total=len(jobs))
        made = []
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for item in pool.map(make_photo, jobs, chunksize=1):
                made.append(item)
                progress.advance(task)
        task = progress.add_task("reading photos", total=len(made))
        for family, seed, path, truth in made:
            t = time.perf_counter()
            try:
                reading = read_photo(path, layout=truth["read_layout"])
                err = None
            except InputError as exc:
                reading, err = None, "; ".join(p.message for p in exc.problems)
            dt = time.perf_counter() - t
            if reading is None:
                res = {
                    "exact": False,
                    "flagged": True,
                    "wrong": [],
                    "fields": len(truth["cells"]) + 2,
                    "read": 0,
                    "error": err,
                }
            else:
                res = evaluate(reading, truth)
                res["uncertain"] = reading.uncertain
                if side_by_side:
                    other = model_reading(reading.layout, reading.measurement)
                    res["model"] = evaluate(other, truth) | {"uncertain": other.uncertain}
            if truth.get("refuse") and (reading is not None or truth["refuse"] not in err):
                res["wrong"] = res["wrong"] + [f"not refused with '{truth['refuse']}'" + (f" ({err})" if err else "")]
                res["exact"] = False
            elif truth.get("refuse"):
                res["exact"] = True  # refused as it must be
            res.update(
                time=dt,
                family=family,
                seed=seed,
                frame=truth["frame"],
                pen=truth["pen"],
                layout=truth["layout"],
                path=path,
            )
            rows.append(res)
            progress.advance(task)
            model = res.get("model")
            if verbose and not (res["exact"] and (model is None or model["exact"])):
                what = f"ERROR {err}" if reading is None else f"? {res['uncertain']}"
                if model is not None:  # (the model reader's reading of the same measurements)
                    what += f"  model: ? {model['uncertain']}" + (f"  WRONG {model['wrong']}" if model["wrong"] else "")
                console.print(
                    f"  {Path(path).name} {truth['layout']} {truth['paper']} {tuple(truth['frame'])} {truth['pen']}: "
                    f"{what}" + (f"  WRONG {res['wrong']}" if res["wrong"] else ""),
                    highlight=False,
                    markup=False,
                )
    return rows


def summarise(rows: list[dict]) -> dict:
    """The figures of one benchmark row."""
    n = len(rows)
    times = sorted(r["time"] for r in rows)
    big = sorted(r["time"] for r in rows if r["frame"][0] * r["frame"][1] >= 11_000_000)
    fields = sum(r["fields"] for r in rows)
    return {
        "photos": n,
        "exact": sum(r["exact"] for r in rows) / n,
        "flagged": sum(r["flagged"] for r in rows) / n,
        "refused": sum(1 for r in rows if "error" in r) / n,
        "wrong_sheets": sum(1 for r in rows if r["wrong"]),
        "wrong_fields": sum(len(r["wrong"]) for r in rows),
        "read_share": sum(r["read"] for r in rows) / fields if fields else 0.0,
        "median_s": statistics.median(times),
        "median_12mp_s": statistics.median(big) if big else float("nan"),
        "photos_12mp": len(big),
    }


def _model_columns(rows: list[dict]) -> tuple[str, str, str]:
    """The model reader's sheets exact, flagged and wrong without a ``?`` (a photo refused before any mark is judged
    is the same for both readers)."""
    n = len(rows)
    models = [r.get("model") or {k: r[k] for k in ("exact", "flagged", "wrong")} for r in rows]
    exact = sum(m["exact"] for m in models)
    flagged = sum(m["flagged"] for m in models)
    return f"{100 * exact / n:.1f} %", f"{100 * flagged / n:.1f} %", str(sum(1 for m in models if m["wrong"]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--photos", type=int, default=300, help="photos of the realistic mix (default 300)")
    ap.add_argument("--per-family", type=int, default=40, help="photos of every other family (default 40)")
    ap.add_argument("--hard", type=int, default=40, help="photos of the hard sweep (default 40, 10 per case)")
    ap.add_argument("--families", help="only these rows' families, comma-separated (e.g. shadow,glare,realistic)")
    ap.add_argument(
        "--count",
        action="append",
        default=[],
        metavar="FAMILY=N",
        help="photos of one family, over --photos, --per-family or --hard (repeatable): "
        "e.g. --count nearly-empty=100 for a row whose exact share must show 99 %%",
    )
    ap.add_argument("--workers", type=int, default=2, help="processes making photos (default 2)")
    ap.add_argument("--keep", type=Path, help="keep the photos in this folder (and reuse them on the next run)")
    ap.add_argument("--start", type=int, default=0, help="first seed (tune below 9000; report on unread seeds)")
    ap.add_argument("--json", type=Path, help="also write every photo's result to this file")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every photo not read exactly")
    ap.add_argument(
        "--side-by-side",
        action="store_true",
        help="also decide every photo by the model reader (generator/reader/model.py), on the same measurements",
    )
    args = ap.parse_args()
    families = {f for fams in ROWS.values() for f in fams}
    counts: dict[str, int] = {}
    for item in args.count:
        fam, _, n = item.partition("=")
        if fam not in families or not n.isdigit():
            ap.error(f"--count {item}: give FAMILY=N, FAMILY one of {', '.join(sorted(families))}")
        counts[fam] = int(n)
    console = Console(width=180)
    folder = str(args.keep) if args.keep else tempfile.mkdtemp(prefix="sheetsmith-photos-")
    os.makedirs(folder, exist_ok=True)
    only = set(args.families.split(",")) if args.families else None
    heic = heic_encoder() is not None
    jobs = []
    for fams in ROWS.values():
        for k, fam in enumerate(fams):
            if only is not None and fam not in only:
                continue
            if fam == "heic" and not heic:
                continue
            if fam in counts:
                n = counts[fam]
            elif fam == "realistic":
                n = args.photos
            elif fam.startswith("hard-"):
                n = args.hard // len(fams) + (1 if k < args.hard % len(fams) else 0)
            else:
                n = args.per_family
            jobs += [(fam, args.start + i, folder) for i in range(n)]
    t0 = time.perf_counter()
    rows = run(jobs, args.workers, console, args.verbose, args.side_by_side)
    console.print(f"{len(rows)} photos made and read in {time.perf_counter() - t0:.0f} s", highlight=False)
    table = Table(title=f"reading photos of filled sheets (seeds from {args.start})")
    for col in (
        "set",
        "photos",
        "sheets exact",
        "flagged (refused)",
        "sheets wrong, no ?",
        "fields wrong, no ?",
        "fields read",
        "median s",
        "12 MP median s",
        *(("model: exact", "flagged", "sheets wrong, no ?") if args.side_by_side else ()),
    ):
        table.add_column(col, justify="right" if col != "set" else "left")
    for name, fams in ROWS.items():
        part = [r for r in rows if r["family"] in fams]
        if not part:
            if "heic" in fams and not heic and (only is None or "heic" in only):
                table.add_row(name, "—", "skipped: pillow-heif is not installed", "", "", "", "", "", "")
            continue
        s = summarise(part)
        table.add_row(
            name,
            str(s["photos"]),
            f"{100 * s['exact']:.1f} %",
            f"{100 * s['flagged']:.1f} % ({100 * s['refused']:.0f} %)",
            str(s["wrong_sheets"]),
            str(s["wrong_fields"]),
            f"{100 * s['read_share']:.1f} %",
            f"{s['median_s']:.2f}",
            f"{s['median_12mp_s']:.2f} ({s['photos_12mp']})" if s["photos_12mp"] else "—",
            *(_model_columns(part) if args.side_by_side else ()),
        )
    console.print(table)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, default=str), encoding="utf-8")
    if not args.keep:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
