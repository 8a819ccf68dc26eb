"""Work done ahead, in background threads: the one photo of a ``sheetsmith verify`` decoded while the rest of
sheetsmith is still being imported (:func:`read_early`), and parts of a reading made beside others (:class:`Ahead`).

A fresh ``sheetsmith verify photo.jpg`` spends about 0.35 s importing the layouts, the
rules and the reader before it opens the photo; decoding a 12 MP JPEG and finding its
markers takes another 0.2 s, nearly all of it in OpenCV, which lets other Python code
run meanwhile.  :func:`read_early` imports OpenCV and NumPy itself (imported by the thread
while the command's thread imports the rest, each import got half the interpreter's time)
and starts that work in a background thread as soon as the command knows its photo; :func:`take_early` hands the result
to
:func:`generator.reader.read.read_photo`, which would otherwise do the same work itself.

The result is used only when it is exactly what the ordinary path would give: the same
file (device, inode, size, modification and change times unchanged since the thread started) read
through the same functions (:func:`.image.load_photo`, :func:`.detect.detect_all_markers`);
a :class:`~.errors.PhotoError` is raised as the ordinary path would raise it; anything
else (no memory, an OpenCV failure) is left for the ordinary path to meet again.  The
thread writes nothing, so the console script's quick exit does not wait for it
(:func:`generator.cli.launch.quick_exit`); an ordinary interpreter exit does (the thread is no
daemon: one stopped at shutdown inside OpenCV aborts the process).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Callable

from generator.core.process import DISPOSABLE_THREAD
from generator.reader.errors import PhotoError


def _identity(path: Path) -> tuple[int, int, int, int, int] | None:
    """The file's (device, inode, size, modification time and status change time in ns), or ``None`` when it
    cannot be looked at.  (The change time too: a file rewritten in place at the same size, its modification
    time then set back, as ``rsync --inplace --times`` or ``touch -r`` do, keeps the other four.)"""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


class Ahead:
    """``fn(*args)`` run in a thread (:data:`~generator.core.process.DISPOSABLE_THREAD`: it writes nothing), while
    the calling thread does other work; for work done mostly inside OpenCV, NumPy or Pillow, which let Python
    run meanwhile.  :meth:`result` waits for it; :attr:`error` is what it raised, if anything.
    """

    def __init__(self, fn: Callable[..., Any], *args: Any) -> None:
        self._fn, self._args = fn, args
        self._value: Any = None
        self.error: BaseException | None = None
        # not a daemon: an ordinary interpreter exit waits for it (a daemon thread stopped at shutdown while inside
        # OpenCV aborts the process: "FATAL: exception not rethrown"); the console script's quick exit does not
        self._thread = threading.Thread(target=self._run, name=DISPOSABLE_THREAD, daemon=False)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._value = self._fn(*self._args)
        except BaseException as exc:  # noqa: BLE001  (the caller does the work itself, and meets the error in its own thread)
            self.error = exc

    def result(self):
        """The value ``fn`` returned, or ``None`` when it raised (the caller then does the work itself)."""
        self._thread.join()
        return None if self.error is not None else self._value


def _decode(path: Path, display: str) -> tuple:
    """The photo as :func:`generator.reader.read.read_photo` starts it: ``(image BGR, grey, marker detections)``."""
    import cv2

    # (leaf modules, OpenCV and NumPy: nothing the main thread, importing the layouts, may hold a lock on)
    from generator.reader.detect import detect_all_markers
    from generator.reader.image import load_photo

    img = load_photo(path, display)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    return img, gray, detect_all_markers(gray)


_PENDING: dict[tuple[str, str], tuple[tuple[int, int, int, int, int], Ahead]] = {}
"""(path, display) → the file's identity when its decoding started, and the decoding."""


def read_early(path: str | Path, display: str) -> None:
    """Start decoding the photo ``path`` (shown as ``display`` in messages) and finding its markers, in the background.

    Nothing happens when the file cannot even be looked at (the ordinary path reports it), or when its
    reading has already been started.
    """
    path = Path(path)
    identity = _identity(path)
    if identity is None or (os.fspath(path), display) in _PENDING:  # nothing to read, or already started
        return
    # OpenCV and NumPy imported here, before the thread starts: imported by the thread while this one imports the
    # rest of sheetsmith, each import got half the interpreter's time, and the decoding itself began only at 0.4 s
    import cv2  # noqa: F401

    from generator.reader import detect, image  # noqa: F401

    _PENDING[(os.fspath(path), display)] = (identity, Ahead(_decode, path, display))


def take_early(path: str | Path, display: str) -> tuple | None:
    """What :func:`read_early` found for ``path`` and ``display``: ``(image BGR uint8 (H, W, 3), grey (H, W),
    marker detections)``, waiting for it if need be; ``None`` when nothing was started for them, the file
    changed since, or the work failed other than with a :class:`~.errors.PhotoError`.

    Raises:
        PhotoError: the photo cannot be read (the message :func:`.image.load_photo` gives).
    """
    path = Path(path)
    pending = _PENDING.pop((os.fspath(path), display), None)
    if pending is None:
        return None
    identity, work = pending
    found = work.result()
    if _identity(path) != identity:
        return None
    if isinstance(work.error, PhotoError):
        raise work.error
    return found


__all__ = ["Ahead", "read_early", "take_early"]
