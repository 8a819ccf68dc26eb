"""Benchmark: ``sheetsmith serve`` under a game night's load, on loopback.

Run:  python benchmarks/bench_web.py [--phones 10] [--rate 50] [--seconds 60] [--workers 2]

Starts ``sheetsmith serve`` as a person would (a fresh process, a fresh data
folder, ``--workers`` photo readers), then:

1. **Photos**: one photo alone (a fresh game, three times), then ``--phones``
   and 30 simulated phones each upload a 12 MP photo (4000 × 3000 JPEG of a
   finished, synthetic Q♦ sheet) of a different player of one game, all at
   once, while a player at another table opens their game and taps every
   0.2 s; each upload is timed from the first byte sent to the read-back page
   received, sent again after ``Retry-After`` when the line is full (as the
   page tells the phone).  An upload succeeds when it answers 200 with the
   sheet read; the ratio of the p95 to one photo alone is printed.
2. **Flip 7 rounds**: ``--rate`` round submissions a second for ``--seconds``
   seconds, open loop (each request is sent at its time, whether or not the
   earlier ones have been answered), spread over one game per table of four
   players (one round a second per table); each answers 303 (saved).

Printed: requests, successes, median, 95th percentile and slowest latency per
phase, the CPU time the server and its photo workers spent per request (a
figure other programs on the machine do not change), and the resident memory
of the server with its photo workers (from /proc) before, between and after
the phases.  Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def twelve_mp_photos(n: int) -> list[bytes]:
    """``n`` photos (4000 × 3000) of different players' finished sheets of one simulated game."""
    from generator.core.shipped import resolve_layout
    from generator.games.allin.bot import simulate_game
    from generator.games.allin.layout import load_layout
    from generator.printing.paper import paper
    from tests.synth.sheet_photos import HandStyle, Pen, PhotoParams, synth_photo

    lay = load_layout(resolve_layout("q-diamonds"))
    names = [f"P{i + 1}" for i in range(min(n, 8))]
    result = simulate_game(lay, names, 3).result
    style = HandStyle(Pen("blue", (0.12, 0.25, 0.65), 0.4), box_mark="tick", bubble="full")
    out = []
    for i in range(n):
        p = PhotoParams(
            frame=(4000, 3000),
            coverage=0.8,
            tilt=10.0,
            tilt_axis=30.0,
            rotation=90.0 + 7 * i,
            defocus=1.0,
            motion=0.0,
            motion_angle=0.0,
            noise=0.01,
            light_min=0.85,
            light_angle=40.0,
            shadow=0.0,
            jpeg=88,
        )
        out.append(
            synth_photo(
                result.sheets[i % len(names)], paper("a4"), 100 + i, params=p, style=style, dpi=200, game=result.score
            ).jpeg
        )
    return out


def rss_mb(pid: int) -> float:
    """Resident memory of a process and all its children, MB (Linux /proc)."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as fh:
                total += next(int(ln.split()[1]) for ln in fh if ln.startswith("VmRSS:"))
            with open(f"/proc/{p}/task/{p}/children") as fh:
                todo += [int(c) for c in fh.read().split()]
        except (OSError, StopIteration):
            pass
    return total / 1024


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) used so far by a process and its children alive now (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            with open(f"/proc/{p}/task/{p}/children") as fh:
                todo += [int(c) for c in fh.read().split()]
        except (OSError, IndexError, ValueError):
            pass
    return total


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--phones", type=int, default=10)
    ap.add_argument("--rate", type=int, default=50, help="Flip 7 round submissions a second")
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2, help="photo reading processes of the server")
    args = ap.parse_args()
    console = Console(width=150)

    console.print(f"making {max(args.phones, 30)} photos of 4000 × 3000 …")
    photos = twelve_mp_photos(max(args.phones, 30))
    console.print(f"photo sizes: {min(map(len, photos)) / 1e6:.1f} to {max(map(len, photos)) / 1e6:.1f} MB")

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    data_dir = tempfile.mkdtemp(prefix="sheetsmith-bench-web-")
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from generator.cli.app import main; main()",
            "serve",
            "--port",
            str(port),
            "--data-dir",
            data_dir,
            "--workers",
            str(args.workers),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    rows = []
    memory = []
    ratios: list[tuple[int, float, float]] = []
    try:
        started = time.time()
        while True:
            try:
                httpx.get(base + "/", timeout=2)
                break
            except httpx.HTTPError:
                if time.time() - started > 60 or server.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        time.sleep(3)  # let the photo workers finish importing
        memory.append(("started", rss_mb(server.pid)))
        cpu0 = cpu_s(server.pid)

        # --- 1. one photo alone, then the phones all at once while a player taps
        def new_game(c: httpx.Client, title: str) -> str:
            r = c.post("/allin", data={"title": title, "layout": "q-diamonds"}, follow_redirects=False)
            return r.headers["location"].split("/")[-1]

        def upload(c: httpx.Client, gid: str, name: str, photo: bytes) -> tuple[float, bool, int]:
            """One phone's photo, sent again after ``Retry-After`` when the line is full (as the page says):
            ``(seconds until read back, read back, times told to wait)``."""
            t = time.perf_counter()
            waited = 0
            while True:
                r = c.post(
                    f"/allin/{gid}/players",
                    data={"name": name},
                    files={"photo": ("IMG.jpg", photo, "image/jpeg")},
                    follow_redirects=True,
                )
                if r.status_code != 429:
                    break
                waited += 1
                time.sleep(float(r.headers.get("retry-after", "1")))
            ok = r.status_code == 200 and "readback" in r.text
            return time.perf_counter() - t, ok, waited

        with httpx.Client(base_url=base, timeout=600, headers={"Origin": base}) as c:
            upload(c, new_game(c, "warm-up"), "Solo", photos[-1])  # the workers' first photo
            alone = []
            for k in range(3):
                gid = new_game(c, f"alone {k}")
                alone.append(upload(c, gid, "Solo", photos[k % len(photos)])[0])
            tap_game = c.post("/flip7", data={"players": "Ann, Bob, Cy"}, follow_redirects=False)
            tap_gid = tap_game.headers["location"].split("/")[-1]
        one = statistics.median(alone)
        rows.append(("one photo alone (median of 3)", 3, 3, alone, 0.0, 0))

        for phones in sorted({args.phones, 30}):
            cpu0 = cpu_s(server.pid)
            with httpx.Client(base_url=base, timeout=600, headers={"Origin": base}) as c:
                gid = new_game(c, f"{phones} phones")
            barrier = threading.Barrier(phones)
            done = threading.Event()

            def phone(i: int) -> tuple[float, bool, int]:
                with httpx.Client(base_url=base, timeout=600, headers={"Origin": base}) as c:
                    barrier.wait()
                    return upload(c, gid, f"Phone {i + 1}", photos[i % len(photos)])

            def taps() -> list[float]:
                """A player at another table opens their game and taps a round preview, every 0.2 s."""
                out = []
                with httpx.Client(base_url=base, timeout=60, headers={"Origin": base}) as c:
                    while not done.is_set():
                        t = time.perf_counter()
                        c.get(f"/flip7/{tap_gid}")
                        c.post(f"/flip7/{tap_gid}/preview", data={"p0": ["3"], "p1": ["4"], "p2": ["5"]})
                        out.append((time.perf_counter() - t) / 2)
                        time.sleep(0.2)
                return out

            with ThreadPoolExecutor(phones + 1) as pool:
                tapping = pool.submit(taps)
                results = list(pool.map(phone, range(phones)))
                done.set()
                tap_times = tapping.result()
            times = [t for t, _, _ in results]
            rows.append(
                (
                    f"{phones} phones upload a 12 MP photo at once",
                    phones,
                    sum(ok for _, ok, _ in results),
                    times,
                    (cpu_s(server.pid) - cpu0) / phones,
                    sum(w for _, _, w in results),
                )
            )
            rows.append(
                (
                    f"a tap at another table meanwhile ({phones} phones)",
                    len(tap_times),
                    len(tap_times),
                    tap_times,
                    0.0,
                    0,
                )
            )
            ratios.append((phones, pct(times, 0.95) / one, max(tap_times)))
        cpu1 = cpu_s(server.pid)
        memory.append(("after the photos", rss_mb(server.pid)))

        # --- 2. Flip 7 rounds, open loop
        tables = max(1, args.rate)
        with httpx.Client(base_url=base, timeout=60, headers={"Origin": base}) as c:
            games = []
            for t in range(tables):
                r = c.post(
                    "/flip7", data={"players": "Ann, Bob, Cy, Dee", "title": f"table {t}"}, follow_redirects=False
                )
                games.append(r.headers["location"].split("/")[-1])
        total = args.rate * args.seconds
        local = threading.local()

        def submit(i: int) -> tuple[float, bool]:
            due = t0 + i / args.rate
            time.sleep(max(0.0, due - time.perf_counter()))
            if not hasattr(local, "c"):
                local.c = httpx.Client(base_url=base, timeout=60, headers={"Origin": base})
            gid = games[i % len(games)]
            form = {"p0": ["1"], "b1": "1", "p2": [], "p3": ["0", "x2"]}  # low scores: no table reaches 200 in a minute
            start = time.perf_counter()
            try:
                r = local.c.post(f"/flip7/{gid}/rounds", data=form, follow_redirects=False)
                ok = r.status_code == 303
            except httpx.HTTPError:
                ok = False
            return time.perf_counter() - max(start, due), ok

        t0 = time.perf_counter() + 0.5
        with ThreadPoolExecutor(64) as pool:
            results = list(pool.map(submit, range(total)))
        elapsed = time.perf_counter() - t0
        times = [t for t, _ in results]
        rows.append(
            (
                f"Flip 7 rounds, {args.rate}/s for {args.seconds} s (took {elapsed:.0f} s)",
                total,
                sum(ok for _, ok in results),
                times,
                (cpu_s(server.pid) - cpu1) / total,
                0,
            )
        )
        memory.append(("after the rounds", rss_mb(server.pid)))
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()

    table = Table(title=f"sheetsmith serve on loopback ({os.cpu_count()} cores, {args.workers} photo workers)")
    for col in (
        "load",
        "requests",
        "succeeded",
        "told to wait (429)",
        "median s",
        "p95 s",
        "slowest s",
        "server CPU per request",
    ):
        table.add_column(col, justify="left" if col == "load" else "right")
    for name, n, ok, times, cpu, waited in rows:
        table.add_row(
            name,
            str(n),
            str(ok),
            str(waited),
            f"{statistics.median(times):.3f}",
            f"{pct(times, 0.95):.3f}",
            f"{max(times):.3f}",
            f"{cpu * 1000:.0f} ms" if cpu else "",
        )
    console.print(table)
    for phones, ratio, slowest_tap in ratios:
        console.print(
            f"{phones} phones: p95 = {ratio:.1f} × one photo alone; slowest tap meanwhile {slowest_tap:.3f} s"
        )
    with open("/proc/loadavg") as fh:
        console.print(f"load average of the machine at the end: {fh.read().split()[0]} (on {os.cpu_count()} cores)")
    mem = Table(title="resident memory of the server and its photo workers")
    mem.add_column("when")
    mem.add_column("MB", justify="right")
    for when, mb in memory:
        mem.add_row(when, f"{mb:.0f}")
    console.print(mem)
    out = server.stdout.read() if server.stdout else ""
    errors = [ln for ln in out.splitlines() if re.search(r"error|Traceback", ln, re.I)]
    if errors:
        console.print("[red]server reported:[/red]\n" + "\n".join(errors[:20]))


if __name__ == "__main__":
    main()
