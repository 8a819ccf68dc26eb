"""The photo reader's corpus: synthetic photos of filled All In sheets, read up to their ink measures.

Run:  python benchmarks/reader_corpus.py [--split train|validation|test] [--per-family 30] [--first 0]
                                         [--families other-hands,sleeve] [--workers 2] [--out output/reader-corpus]

Each photo is made as the photo benchmark makes it (``bench_photos.make_photo``: every family of fault, made the
way physics makes it), read by ``sheetsmith verify``'s reader, and kept as one pickle file: the truth, every mark
target's label (ticked, circled, filled or blank: a rubbed-out mark is blank), the reader's measurement (every
target's ink measures) and the rules reader's result.  The model reader is trained, its abstain bands set and its
figures reported from these files (``train_reader.py``), without making or reading the photos again.

The three splits never share a seed: ``train`` from 300000, ``validation`` from 400000, ``test`` from 500000 (the
photo benchmark's own report ranges lie elsewhere).  A file already made is kept, so a run can be resumed.
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.progress import Progress

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

SPLITS = {"train": 300_000, "validation": 400_000, "test": 500_000}
"""The first seed of each split."""
SKIPPED = ("two-sheets",)
"""Families whose photos are refused as a whole (nothing to label)."""


def labels(family: str, seed: int) -> dict[tuple[str, str, str], bool]:
    """Every mark target's truth for one photo: ``(kind, owner, key) -> marked``; targets not named are blank.

    A card's rank box is ticked and its suit circled; a test's extra marks are made; chip circles ``1..earned`` are
    filled and spent boxes ``1..spent`` ticked.  A rubbed-out mark is blank (it is not in the list).
    """
    from generator.games.allin.grid import cell_name
    from tests.synth.families import case

    c = case(family, seed)
    out: dict[tuple[str, str, str], bool] = {}
    for coord, card in c.sheet.cards.items():
        out[("rank", cell_name(coord), card.rank_label)] = True
        out[("suit", cell_name(coord), card.suit)] = True
    for name, label in c.extra.get("ranks", []):
        out[("rank", name, label)] = True
    for name, suit in c.extra.get("suits", []):
        out[("suit", name, suit)] = True
    for i in range(1, c.sheet.chips_earned + 1):
        out[("chip_earned", str(i), "")] = True
    for i in range(1, c.sheet.chips_spent + 1):
        out[("chip_spent", str(i), "")] = True
    return out


def collect(job: tuple[str, int, str]) -> str:
    """Worker: make, read and keep one photo; return its file's path."""
    from bench_photos import evaluate, make_photo

    from generator.core.errors import InputError
    from generator.reader import read_photo

    family, seed, folder = job
    target = os.path.join(folder, f"{family}-{seed}.pkl")
    if os.path.exists(target):
        return target
    _, _, path, truth = make_photo((family, seed, folder))
    record: dict = {"family": family, "seed": seed, "truth": truth, "labels": labels(family, seed)}
    try:
        reading = read_photo(path, layout=truth["read_layout"])
    except InputError as exc:
        record["error"] = "; ".join(p.message for p in exc.problems)
    else:
        m = reading.measurement
        m.page = None
        record.update(layout=reading.layout.id, measurement=m, rules=evaluate(reading, truth))
    finally:
        for p in (path, path + ".json"):
            if os.path.exists(p):
                os.remove(p)
    tmp = target + ".tmp"
    with open(tmp, "wb") as fh:
        pickle.dump(record, fh)
    os.replace(tmp, target)
    return target


def main() -> None:
    from tests.synth.families import FAMILIES

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", choices=sorted(SPLITS), action="append", help="the split(s) to make (default all)")
    ap.add_argument("--per-family", type=int, default=30, help="photos per family and split (default 30)")
    ap.add_argument("--families", help="only these families, comma-separated (default all)")
    ap.add_argument("--first", type=int, default=0, help="skip this many seeds of each family (default 0)")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--out", type=Path, default=Path("output/reader-corpus"), help="folder of the corpus files")
    args = ap.parse_args()
    jobs = []
    for split in args.split or list(SPLITS):
        folder = args.out / split
        folder.mkdir(parents=True, exist_ok=True)
        chosen = args.families.split(",") if args.families else FAMILIES
        for i in range(args.first, args.per_family):
            for family in chosen:
                if family not in SKIPPED:
                    jobs.append((family, SPLITS[split] + i, str(folder)))
    console = Console()
    with Progress(console=console) as progress, ProcessPoolExecutor(max_workers=args.workers) as pool:
        task = progress.add_task("photos", total=len(jobs))
        for _ in pool.map(collect, jobs, chunksize=1):
            progress.advance(task)
    console.print(f"{len(jobs)} photos in {args.out}")


if __name__ == "__main__":
    main()
