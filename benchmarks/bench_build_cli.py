"""Benchmark: what a user waits for when printing everything — ``sheetsmith build``, a fresh process, end to end.

Run:  python benchmarks/bench_build_cli.py [--repeat 5] [--compare CHECKOUT]

Times ``sheetsmith build -d DIR`` (every shipped item on A4 and Letter: the
PDFs, their PNG previews and the deck and chip manifests), interleaved run by
run so that a busy machine slows each alike:

* on every CPU this process may use (the items drawn by one worker process per
  CPU);
* on one CPU (the process's affinity set to a single CPU, so that the build
  draws every item in its own process: the baseline the workers are measured
  against);
* with ``--compare CHECKOUT``, another checkout of sheetsmith (for example an
  older commit unpacked with ``git archive``) on every CPU.

The output folder is emptied before every run.  Reported: median, best and
worst wall time, the CPU time of the build and its worker processes, and the
ratio of each median to the one-CPU median.  Figures go in docs/benchmarks.md;
no test asserts them.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench_verify_cli import REPO, _reap, become_subreaper, sheetsmith_command
from rich.console import Console
from rich.table import Table


def timed_build(cmd: list[str], env: dict, out: Path, cpus: set[int] | None) -> tuple[float, float]:
    """One fresh ``build`` into the emptied folder ``out``, on the CPUs ``cpus`` (None: all);
    ``(wall s, CPU s of it and every worker)``."""
    shutil.rmtree(out, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    res = subprocess.run(
        [*cmd, "build", "-d", str(out)],
        cwd=out.parent,  # not the repository: ``python -c`` puts the working folder first on the import path
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=None if cpus is None else (lambda: os.sched_setaffinity(0, cpus)),
    )
    wall = time.perf_counter() - start
    _reap()  # the fork server and its workers, adopted (become_subreaper)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if res.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} build failed ({res.returncode}):\n{res.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5, help="runs of each build (default 5)")
    ap.add_argument("--compare", type=Path, help="another sheetsmith checkout to time the same way, interleaved")
    args = ap.parse_args()
    become_subreaper()
    one_cpu = {min(os.sched_getaffinity(0))}
    cpus = len(os.sched_getaffinity(0))
    builds: dict[str, tuple[Path, set[int] | None]] = {
        f"this checkout, {cpus} CPUs": (REPO, None),
        "this checkout, 1 CPU": (REPO, one_cpu),
    }
    if args.compare:
        builds[f"{args.compare}, {cpus} CPUs"] = (args.compare.resolve(), None)
    work = Path(tempfile.mkdtemp(prefix="sheetsmith-build-"))
    load_before = os.getloadavg()[0]
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in builds}
    try:
        for tree, affinity in builds.values():  # a first run of each: bytecode written, files cached
            cmd, env = sheetsmith_command(tree)
            timed_build(cmd, env, work / "out", affinity)
        for _ in range(args.repeat):
            for name, (tree, affinity) in builds.items():
                cmd, env = sheetsmith_command(tree)
                times[name].append(timed_build(cmd, env, work / "out", affinity))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    baseline = statistics.median(w for w, _ in times["this checkout, 1 CPU"])
    table = Table(title=f"sheetsmith build (every shipped item, A4 and Letter), fresh processes, {args.repeat} runs")
    for col in ("build", "median wall s", "best s", "worst s", "CPU s (median)", "wall / 1 CPU"):
        table.add_column(col, justify="left" if col == "build" else "right")
    for name, rows in times.items():
        walls = [w for w, _ in rows]
        table.add_row(
            name,
            f"{statistics.median(walls):.2f}",
            f"{min(walls):.2f}",
            f"{max(walls):.2f}",
            f"{statistics.median(c for _, c in rows):.2f}",
            f"{statistics.median(walls) / baseline:.2f}",
        )
    console = Console(width=130)
    console.print(table)
    console.print(
        f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after, on {cpus} CPUs "
        "(above the CPU count, every wall figure is stretched by the other work)",
        highlight=False,
    )


if __name__ == "__main__":
    main()
