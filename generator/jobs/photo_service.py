"""The worker processes that read photos: one service for a command's photos and for a server's evening.

``sheetsmith verify`` starts a :class:`PhotoService` for its photos and stops it when
they are read; ``sheetsmith serve`` keeps one running and hands it each photo a phone
sends.  Workers start from a fork server (POSIX) that has imported the reader
(:data:`WORKER_MODULES`), so a worker starts in milliseconds; elsewhere they are spawned.
A worker never forks from the calling process: a process that has used OpenCV's
thread pool (an earlier photo, a web server) deadlocks its forked children in their
first OpenCV call.
"""

from __future__ import annotations

import os
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Callable, Iterator

from generator.core.process import main_module_hidden, usable_cpus, worker_context


def worker_count(photos: int) -> int:
    """How many worker processes read ``photos`` photos: one per CPU this process may use, at most one per photo."""
    return max(1, min(photos, usable_cpus()))


_QUEUE = None
"""In a worker: where it reports each photo's stages (None: nobody listens)."""


TEMP_PREFIX = "sheetsmith-photo-"
"""Start of the name of a worker's temporary folder; the worker's process id follows (:func:`temp_folder`)."""


def temp_folder():
    """A temporary folder for one photo, named after this process (``sheetsmith-photo-<pid>-…``), so that
    :func:`sweep_orphans` can tell one left by a process that was killed."""
    import os
    import tempfile

    return tempfile.TemporaryDirectory(prefix=f"{TEMP_PREFIX}{os.getpid()}-")


def sweep_orphans() -> int:
    """Remove the photo folders of processes that no longer run (killed before they could clean up); return how
    many.  Folders of running processes, and anything not named by :func:`temp_folder`, are left alone."""
    import re
    import shutil
    import tempfile

    removed = 0
    for path in Path(tempfile.gettempdir()).glob(f"{TEMP_PREFIX}*"):
        m = re.fullmatch(rf"{re.escape(TEMP_PREFIX)}(\d+)-\w+", path.name)
        if not m or not path.is_dir() or _running(int(m.group(1))):
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed += not path.exists()
    return removed


def _running(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _end_with(pid: int) -> None:
    """In a worker: end as soon as process ``pid``, the one that made the pool, ends, even killed: a worker is
    otherwise kept alive by the pipes it shares with the fork server and its pool.  A thread waits on the process
    (a pidfd on Linux; elsewhere it looks every two seconds), removes this worker's photo folders and ends the
    process at once (in the middle of a photo too: nobody waits for it any more)."""
    import os
    import select
    import threading
    import time

    def watch() -> None:
        try:
            fd = os.pidfd_open(pid)  # (Linux only)
        except (AttributeError, OSError):
            while _running(pid):
                time.sleep(2.0)
        else:
            select.select([fd], [], [])
        import shutil
        import tempfile

        for folder in Path(tempfile.gettempdir()).glob(f"{TEMP_PREFIX}{os.getpid()}-*"):
            shutil.rmtree(folder, ignore_errors=True)
        os._exit(0)

    threading.Thread(target=watch, name="sheetsmith-server-watch", daemon=True).start()


def _init_worker(queue, short_lived: bool, owner: int = 0) -> None:
    """In each worker: report stages through ``queue`` (None: none); leave Ctrl-C to the parent; one OpenCV
    thread (the photos are the parallel work); the garbage collector as a short command has it
    (:data:`generator.core.process.GC_THRESHOLDS`), and blind to what the fork server imported (``gc.freeze``: its
    passes no longer walk those objects, nor copy their pages).  A ``short_lived`` worker (it reads a command's
    photo or two, then ends) also keeps the memory it frees for the next photo
    (:func:`generator.core.process.keep_freed_memory`).  Every worker ends when process ``owner`` (the one that
    made the pool; 0: none) ends, and on SIGTERM removes its photo's temporary folder on the way out."""
    import gc
    import signal

    from generator.core.process import GC_THRESHOLDS, keep_freed_memory

    gc.set_threshold(*GC_THRESHOLDS)
    gc.freeze()

    global _QUEUE
    _QUEUE = queue
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGTERM"):  # ended from outside: the photo's temporary folder is removed on the way out
        signal.signal(signal.SIGTERM, _exit_on_term)
    if owner:
        _end_with(owner)
    try:
        import cv2

        cv2.setNumThreads(1)
    except ImportError:  # pragma: no cover
        pass
    if short_lived:
        keep_freed_memory()


def _exit_on_term(signum, frame) -> None:
    raise SystemExit(128 + signum)


def report_stage(index: int, stage: str) -> None:
    """In a worker: say that photo ``index`` reached ``stage`` (to the :class:`PhotoService` that listens)."""
    if _QUEUE is not None:
        _QUEUE.put((index, stage))


WORKER_MODULES = [
    "numpy",
    "cv2",
    "PIL.Image",
    "PIL.ImageDraw",
    "PIL.JpegImagePlugin",
    "PIL.PngImagePlugin",
    "platformdirs",
    "generator.jobs.photos",
    "generator.reader.read",
    "generator.reader.output",
    "generator.reader.marks",
    "generator.reader.cache",
    "generator.reader.kinds.tickpad",
    "generator.games.registry",
    "generator.games.pads",
    "generator.games.allin.layout",
]
"""What a worker needs for its first photo: imported once by the fork server, before it forks the workers."""


def _context():
    """How workers start (:func:`generator.core.process.worker_context`): from a fork server that has imported
    :data:`WORKER_MODULES`, else spawned."""
    return worker_context(WORKER_MODULES)


def ensure_fork_server() -> None:
    """Start the fork server now (where workers start from one), so that it imports the reader while the
    caller goes on; quietly nothing where it cannot (the pool says why when it is needed)."""
    if _context().get_start_method() != "forkserver":
        return
    from multiprocessing import forkserver

    with main_module_hidden():
        try:
            forkserver.ensure_running()
        except Exception:  # the pool starts it (or says why it cannot) when it is needed
            pass


class PhotoService:
    """Worker processes reading photos, each in its own process: ``submit(fn, ...)`` returns a future.

    Args:
        workers: how many photos are read at once.
        stages: listen to the workers' :func:`report_stage` (read them with :meth:`stages`).
        short_lived: the workers read a command's photos and end (they keep freed memory for the next
            photo); a server's workers read photos all evening and give freed memory back.
        max_tasks_per_child: photos a worker reads before a fresh one takes its place (None: no limit).
    """

    def __init__(
        self, workers: int, *, stages: bool = False, short_lived: bool = True, max_tasks_per_child: int | None = None
    ):
        self.workers = max(1, workers)
        self._ctx = _context()
        self._queue = self._ctx.Queue() if stages else None
        self._short_lived = short_lived
        self._max_tasks = max_tasks_per_child
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Start the pool (the workers start with the first photos submitted)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=self._ctx,
                initializer=_init_worker,
                initargs=(self._queue, self._short_lived, os.getpid()),
                max_tasks_per_child=self._max_tasks,
            )

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        """Read a photo: ``fn(*args, **kwargs)`` in a worker (a module-level function: it is sent by name).
        A pool whose worker died (out of memory?) is replaced first."""
        self.start()
        with main_module_hidden():  # the workers start during submits
            try:
                return self._pool.submit(fn, *args, **kwargs)  # type: ignore[union-attr]
            except BrokenProcessPool:
                self.restart()
                return self._pool.submit(fn, *args, **kwargs)  # type: ignore[union-attr]

    def restart(self) -> None:
        """Replace a broken pool (a worker died) by a fresh one; photos in flight are lost."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = None
        self.start()

    def stages(self) -> Iterator[tuple[int, str]]:
        """The ``(index, stage)`` reports the workers sent since the last call (none unless ``stages``)."""
        from queue import Empty

        while self._queue is not None:
            try:
                yield self._queue.get_nowait()
            except (Empty, OSError, EOFError):
                return

    def shutdown(self, *, wait: bool = True, cancel: bool = False) -> None:
        """Stop the workers: after the photos submitted (``wait``), or at once dropping those not started
        (``cancel``)."""
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=cancel)
            self._pool = None
        if self._queue is not None:
            self._queue.close()
            self._queue = None
