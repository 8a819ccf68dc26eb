"""What a sheetsmith process sets up for itself: the garbage collector, the C library's memory, its threads.

Used by the console script (:mod:`generator.cli.launch`), the worker processes that read photos
(:mod:`generator.jobs.photo_service`) and draw items (:mod:`generator.jobs.render`), and the reader's early start
(:mod:`generator.reader.early`).
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator


def point_at_null(fd: int) -> None:
    """Make file descriptor ``fd`` (a standard stream) write to and read from the null device; quietly does
    nothing when that cannot be done."""
    import os

    try:
        null = os.open(os.devnull, os.O_RDWR)
    except OSError:
        return
    try:
        if null != fd:
            os.dup2(null, fd)
    except OSError:
        pass
    finally:
        if null != fd:
            os.close(null)


GC_THRESHOLDS = (100_000, 20, 20)
"""The cyclic garbage collector's thresholds in a short-lived process (:func:`quick_start`, the photo workers)."""


HEAP_MMAP_THRESHOLD = 32 << 20
"""Blocks up to this size (bytes; glibc's largest allowed) come from the heap, not from fresh pages
(:func:`keep_freed_memory`)."""


HEAP_TRIM_THRESHOLD = 512 << 20
"""Freed heap memory up to this size (bytes) stays with the process instead of going back to the system."""


def keep_freed_memory() -> None:
    """Let a short ``sheetsmith`` process reuse the memory it frees (glibc only; elsewhere nothing happens).

    Reading a photo makes and drops hundreds of page-sized arrays (4 to 48 MB).  glibc hands
    every block over 128 KB out as fresh pages from the system and returns them when freed,
    so each new array is paid again in page faults (the kernel zeroing every page): some
    40,000 of them in a fresh ``sheetsmith verify`` of one 12 MP photo.  With blocks up to
    :data:`HEAP_MMAP_THRESHOLD` taken from the heap and freed memory kept up to
    :data:`HEAP_TRIM_THRESHOLD`, the next array reuses pages already touched (26,000 faults;
    ``benchmarks/bench_verify_cli.py`` measures the effect).  The memory is the process's until
    it ends, which for a command is moments later.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt  # the C library the interpreter runs on
    except (OSError, AttributeError, ImportError):  # not glibc (musl has it as a stub), no ctypes
        return
    m_trim_threshold, m_mmap_threshold = -1, -3  # glibc's <malloc.h>
    mallopt(m_mmap_threshold, HEAP_MMAP_THRESHOLD)
    mallopt(m_trim_threshold, HEAP_TRIM_THRESHOLD)


DISPOSABLE_THREAD = "sheetsmith-disposable"
"""The name of a thread whose work a finished command may drop (it writes nothing): :func:`quick_exit` does not wait
for it (``os._exit`` ends it with the process).  It is no daemon: an ordinary interpreter exit waits for it, since a
daemon thread stopped at shutdown while inside OpenCV aborts the process."""


def usable_cpus() -> int:
    """How many CPUs this process may run on (its affinity where the system tells it, else every CPU)."""
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def worker_context(preload: list[str]):
    """How worker processes start: from a fork server (POSIX) that has imported ``preload`` (module names), else
    spawned.  Returns a :mod:`multiprocessing` context.

    Never forked from the calling process: a process that has used OpenCV's thread pool (an earlier photo, a web
    server) deadlocks its forked children in their first OpenCV call, and one with a progress bar's thread may fork
    a child holding its lock.  The fork server is a fresh process that imports ``preload`` once and forks each worker
    from there, so a worker starts in milliseconds.  One fork server serves a process: the first caller's
    ``preload`` is the one imported.
    """
    import multiprocessing as mp

    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(preload)
        return ctx
    return mp.get_context("spawn")


@contextmanager
def main_module_hidden() -> Iterator[None]:
    """While workers start, hide where ``__main__`` came from, so that they do not run it again.

    A process started by spawn or a fork server first re-imports the parent's main module (so that functions pickled
    from it can be found).  Nothing a worker runs lives there, and the main module may be costly: the ``sheetsmith``
    script imports the whole command line, ``python -m pytest`` all of pytest.
    """
    main = sys.modules.get("__main__")
    if main is None:
        yield
        return
    saved: dict[str, object] = {k: main.__dict__[k] for k in ("__file__", "__spec__") if k in main.__dict__}
    main.__dict__.pop("__file__", None)
    main.__spec__ = None
    try:
        yield
    finally:
        main.__dict__.pop("__spec__", None)
        main.__dict__.update(saved)
