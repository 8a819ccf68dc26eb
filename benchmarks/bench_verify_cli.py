"""Benchmark: what a user waits for — fresh ``sheetsmith verify`` processes on 12 MP photos, end to end.

Run:  python benchmarks/bench_verify_cli.py [--repeat 5] [--keep DIR] [--seed 1] [--compare CHECKOUT]

Four synthetic 12 MP photos (4000 × 3000, ``tests/synth/sheet_photos.py``) of
one simulated four-player game on the Q♦ sheet are made once (seeded; kept
with ``--keep``).  Then, alternating so that both see the same machine load:

* ``sheetsmith verify ann.jpg`` — one photo, a fresh process, end to end
  (start-up, imports, reading, the ``.read.yaml`` and ``.read.png`` written,
  scoring, the report printed);
* ``sheetsmith verify ann.jpg bob.jpg cy.jpg dee.jpg`` — the whole game, the
  photos read in parallel worker processes;
* the floor: a fresh Python process that imports OpenCV, decodes the same
  JPEG, and finds the ArUco markers on a copy of a quarter of its pixels
  (half each side) — the least any photo reader must do (target: one photo
  end to end within 2 × the floor).

Reported: median and best wall time of each, their ratio (target: four
photos ≤ 2.5 × one photo), the CPU time of the processes (user + system,
the worker processes included: what the machine spent, whatever else it was
doing — on a busy machine the wall figures stretch, the CPU figures much less), and
next to them the warm in-process read time (``read_photo`` alone, in this
process, after a first read: the figure ``bench_photos.py`` reports).  The
first run of a fresh cache folder (the blank sheet drawn and rendered, then
kept) is timed apart.  The ``.read.*`` files are deleted before every run.

``--compare CHECKOUT`` times another checkout of sheetsmith (e.g. the
``main`` branch unpacked with ``git archive``) the same way, interleaved
with this one, so that both figures come from one run under one machine
load (the development machine is shared: compare figures of one run only).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from rich.table import Table

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

NAMES = ("ann", "bob", "cy", "dee")


def make_photos(folder: Path, seed: int) -> list[Path]:
    """Four 12 MP photos of one simulated game (made once: reused when already in ``folder``)."""
    paths = [folder / f"{n}.jpg" for n in NAMES]
    if all(p.exists() for p in paths):
        return paths
    from generator.core.shipped import resolve_layout
    from generator.games.allin.bot import simulate_game
    from generator.games.allin.layout import load_layout
    from generator.printing.paper import paper
    from tests.synth.sheet_photos import realistic_params, synth_photo

    result = simulate_game(load_layout(resolve_layout("q-diamonds")), [n.title() for n in NAMES], seed).result
    for i, (path, sheet) in enumerate(zip(paths, result.sheets)):
        rng = random.Random(f"bench-verify:{seed}:{i}")
        p = realistic_params(rng, frame=(4000, 3000) if i % 2 == 0 else (3000, 4000))
        p = replace(
            p,
            coverage=rng.uniform(0.6, 0.9),
            tilt=rng.uniform(0, 20),
            defocus=rng.uniform(0.3, 0.8),
            motion=0.0,
            light_min=rng.uniform(0.7, 1.0),
            shadow=0.0,
            jpeg=rng.randint(80, 95),
        )
        photo = synth_photo(sheet, paper("a4"), f"bench-verify:{seed}:{i}", params=p, game=result.score)
        path.write_bytes(photo.jpeg)
    return paths


def sheetsmith_command(tree: Path) -> tuple[list[str], dict]:
    """``sheetsmith`` as its console script runs it (the entry point named in the checkout's ``pyproject.toml``),
    from the checkout ``tree``; with the environment that makes this Python import that checkout's ``generator``."""
    with open(tree / "pyproject.toml", "rb") as fh:
        module, _, func = tomllib.load(fh)["project"]["scripts"]["sheetsmith"].partition(":")
    entry = f"from {module} import {func}; {func}()"
    cmd = [sys.executable, "-c", f"import sys; sys.argv[0] = 'sheetsmith'; {entry}"]
    env = {**os.environ, "PYTHONPATH": str(tree) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    # a user's Python keeps the compiled bytecode of sheetsmith's modules (pip compiles an installed package; an
    # editable install writes it on the first run): a development shell that forbids it would time a compile of
    # every module on every run (0.03-0.05 s), which no user waits for
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return cmd, env


def become_subreaper() -> bool:
    """Linux: adopt the orphans of the processes run here (the fork server and its workers outlive
    ``sheetsmith`` by a moment), so that their CPU time is counted too."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def _reap() -> None:
    while True:
        try:
            os.wait4(-1, 0)
        except ChildProcessError:
            return


def timed_run(cmd: list[str], cwd: Path, env: dict) -> tuple[float, float, int]:
    """Run ``cmd`` fresh after deleting the ``.read.*`` files; ``(wall s, CPU s of it and all its descendants, exit
    status)``."""
    for f in cwd.glob("*.read.*"):
        f.unlink()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    res = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t
    _reap()  # the fork server and its workers, adopted (become_subreaper)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if res.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({res.returncode}):\n{res.stderr}")
    return wall, cpu, res.returncode


FLOOR = """
import sys
import cv2
img = cv2.imread(sys.argv[1], cv2.IMREAD_COLOR)
grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
quarter = cv2.resize(grey, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
corners, ids, _ = detector.detectMarkers(quarter)
if ids is None or len(ids) < 4:
    sys.exit(f"the floor found {0 if ids is None else len(ids)} markers")
"""
"""The floor's program: OpenCV imported, the JPEG decoded, the markers found on a quarter-size copy."""


def warm_read(photo: Path, repeat: int) -> float:
    """Median time of ``read_photo`` in this process, after one read to warm it up."""
    from generator.reader import read_photo

    read_photo(photo)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        read_photo(photo)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5, help="runs of each command (default 5)")
    ap.add_argument("--keep", type=Path, help="keep the photos in this folder (reused on the next run)")
    ap.add_argument("--seed", type=int, default=1, help="the simulated game's seed (default 1)")
    ap.add_argument("--compare", type=Path, help="another sheetsmith checkout to time the same way, interleaved")
    args = ap.parse_args()
    console = Console(width=150)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="sheetsmith-verify-"))
    folder.mkdir(parents=True, exist_ok=True)
    cache = Path(tempfile.mkdtemp(prefix="sheetsmith-cache-"))
    os.environ["SHEETSMITH_CACHE"] = str(cache)
    become_subreaper()
    trees = {"this checkout": REPO}
    if args.compare:
        trees[f"{args.compare}"] = args.compare.resolve()
    runs: dict[tuple[str, str], list[tuple[float, float, int]]] = {}
    cold: dict[str, tuple[float, float, int]] = {}
    try:
        t = time.perf_counter()
        photos = make_photos(folder, args.seed)
        console.print(f"4 photos of 4000 × 3000 in {folder} ({time.perf_counter() - t:.0f} s to make)", highlight=False)
        for name, tree in trees.items():
            cmd, env = sheetsmith_command(tree)
            cold[name] = timed_run(
                cmd + ["verify", photos[0].name], folder, env
            )  # a fresh cache: the blank sheet drawn
        floor_cmd = [sys.executable, "-c", FLOOR, photos[0].name]
        for _ in range(args.repeat):
            runs.setdefault(("floor", "1"), []).append(timed_run(floor_cmd, folder, dict(os.environ)))
            for name, tree in trees.items():
                cmd, env = sheetsmith_command(tree)
                for key, files in (("1", photos[:1]), ("4", photos)):
                    runs.setdefault((name, key), []).append(
                        timed_run(cmd + ["verify", *(p.name for p in files)], folder, env)
                    )
        warm = warm_read(photos[0], args.repeat)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
        for f in folder.glob("*.read.*"):
            f.unlink()
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    table = Table(
        title=f"sheetsmith verify, 12 MP photos, fresh processes ({args.repeat} runs each, {os.cpu_count()} CPUs)"
    )
    for col in ("checkout", "what", "median wall s", "best wall s", "CPU s (median)", "exit"):
        table.add_column(col, justify="left" if col in ("checkout", "what") else "right")
    ratios = {}
    for name in trees:
        one, four = runs[(name, "1")], runs[(name, "4")]
        m1, m4 = statistics.median(w for w, _, _ in one), statistics.median(w for w, _, _ in four)
        ratios[name] = (m1, m4)
        for what, rows in (("verify 1 photo, end to end", one), ("verify 4 photos, end to end", four)):
            table.add_row(
                name,
                what,
                f"{statistics.median(w for w, _, _ in rows):.2f}",
                f"{min(w for w, _, _ in rows):.2f}",
                f"{statistics.median(c for _, c, _ in rows):.2f}",
                str(rows[-1][2]),
            )
        w, c, code = cold[name]
        table.add_row(name, "verify 1 photo, first run (empty cache)", f"{w:.2f}", "", f"{c:.2f}", str(code))
    floor = runs[("floor", "1")]
    floor_wall = statistics.median(w for w, _, _ in floor)
    table.add_row(
        "floor",
        "import OpenCV, decode, find the markers (quarter size)",
        f"{floor_wall:.2f}",
        f"{min(w for w, _, _ in floor):.2f}",
        f"{statistics.median(c for _, c, _ in floor):.2f}",
        str(floor[-1][2]),
    )
    table.add_row("this checkout", "read_photo alone, warm, in-process", f"{warm:.2f}", "", "", "")
    console.print(table)
    for name, (m1, m4) in ratios.items():
        console.print(
            f"{name}: 4 photos / 1 photo = {m4 / m1:.2f} × (target ≤ 2.5 ×); 1 photo end to end {m1:.2f} s "
            f"= {m1 / floor_wall:.2f} × the floor (target ≤ 2 ×)",
            highlight=False,
        )
    console.print(
        f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs "
        "(above the CPU count, every wall figure is stretched by the other work)",
        highlight=False,
    )


if __name__ == "__main__":
    main()
