"""Benchmark: the edit loop — how long the test suite takes and how much memory it holds.

Run:  python benchmarks/bench_tests.py [--quick-only] [--serial]

Runs, each as a fresh ``pytest`` process from the repository root:

* ``pytest -m "not slow"`` — the quick check while editing (target: under 90 s on 2 CPUs);
* ``pytest`` — the whole suite, the README's test command (target: within 6 minutes on 2 CPUs);
* with ``--serial``, the whole suite again in one process (``-n 0``), the baseline the
  parallel run is measured against.

Reported for each: the tests passed, wall and CPU time (every worker included), the
peak resident memory of the largest process (pytest or a worker), and the peak of the
whole run's memory together (the proportional set size of pytest and all its workers);
both sampled every 0.2 s, Linux only.  Target: no process above 1.5 GB.  Figures go in
docs/benchmarks.md; no test asserts them.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

REPO = Path(__file__).resolve().parents[1]


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            return [int(p) for p in fh.read().split()]
    except OSError:
        return []


def _pss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _high_water_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def tree_memory(root: int) -> tuple[int, int]:
    """``(the proportional set size of root and every process under it, shared pages counted once; the largest
    peak resident size among them)``, in bytes."""
    total, largest, todo = 0, 0, [root]
    while todo:
        pid = todo.pop()
        total += _pss_bytes(pid)
        largest = max(largest, _high_water_bytes(pid))
        todo.extend(_children(pid))
    return total, largest


def run(args: list[str]) -> dict:
    """One fresh pytest process: its summary line, wall and CPU seconds, the largest process and the run's peak."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    peak = [0, 0]

    def sample() -> None:
        while proc.poll() is None:
            together, largest = tree_memory(proc.pid)
            peak[0], peak[1] = max(peak[0], together), max(peak[1], largest)
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, _ = proc.communicate()
    wall = time.perf_counter() - start
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    summary = next((line for line in reversed(out.splitlines()) if re.search(r"\d+ (passed|failed)", line)), "?")
    return {
        "summary": summary.strip("= "),
        "wall": wall,
        "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
        "largest": peak[1],
        "together": peak[0],
        "status": proc.returncode,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick-only", action="store_true", help='only pytest -m "not slow"')
    ap.add_argument("--serial", action="store_true", help="also the whole suite in one process (the baseline)")
    args = ap.parse_args()
    runs = {'pytest -m "not slow"': ["-m", "not slow"]}
    if not args.quick_only:
        runs["pytest (the whole suite)"] = []
    if args.serial:
        runs["pytest -n 0 (the whole suite in one process)"] = ["-n", "0"]
    cpus = len(os.sched_getaffinity(0))
    load_before = os.getloadavg()[0]
    results = {}
    for name, extra in runs.items():
        print(f"running {name} …", file=sys.stderr, flush=True)
        results[name] = run(extra)
    table = Table(title=f"the test suite, fresh processes, {cpus} CPUs")
    for col in ("run", "result", "wall", "CPU s", "largest process", "all processes together"):
        table.add_column(col, justify="left" if col in ("run", "result") else "right")
    for name, r in results.items():
        minutes, seconds = divmod(r["wall"], 60)
        table.add_row(
            name,
            r["summary"],
            f"{int(minutes)}:{seconds:04.1f}",
            f"{r['cpu']:.0f}",
            f"{r['largest'] / 2**30:.2f} GB",
            f"{r['together'] / 2**30:.2f} GB",
        )
    console = Console(width=150)
    console.print(table)
    console.print(
        f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after, on {cpus} CPUs "
        "(above the CPU count, every wall figure is stretched by the other work)",
        highlight=False,
    )


if __name__ == "__main__":
    main()
