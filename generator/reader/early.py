"""Work done ahead, in background threads: the one photo of a ``sheetsmith verify`` decoded while the rest of
sheetsmith is still being imported (:func:`read_early`), and parts of a reading made beside others (:class:`Ahead`).

A fresh ``sheetsmith verify photo.jpg`` spends about 0.35 s importing the layouts, the
rules and the reader before it opens the photo; decoding a 12 MP JPEG and finding its
markers takes another 0.2 s, nearly all of it in OpenCV, which lets other Python code
run meanwhile.  :func:`read_early` starts that work in a background thread as soon as the
command knows its photo; :func:`take_early` hands the result to
:func:`generator.reader.read.read_photo`, which would otherwise do the same work itself.

The result is used only when it is exactly what the ordinary path would give: the same
file (device, inode, size and modification time unchanged since the thread started) read
through the same functions (:func:`.image.load_photo`, :func:`.detect.detect_all_markers`);
a :class:`~.errors.PhotoError` is raised as the ordinary path would raise it; anything
else (no memory, an OpenCV failure) is left for the ordinary path to meet again.  The
thread writes nothing, so a process may end without waiting for it
(:func:`generator.launch.quick_exit`).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from ..launch import DISPOSABLE_THREAD
from .errors import PhotoError


def _identity(path: Path) -> tuple[int, int, int, int] | None:
    """The file's (device, inode, size, modification time in ns), or ``None`` when it cannot be looked at."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


class _EarlyRead:
    """One photo being decoded in a daemon thread (see the module docstring)."""

    def __init__(self, path: Path, display: str, identity: tuple[int, int, int, int]):
        self.path, self.display, self.identity = path, display, identity
        self.result: tuple | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name=DISPOSABLE_THREAD, daemon=True)

    def _run(self) -> None:
        try:
            import cv2

            # (leaf modules, OpenCV and NumPy: nothing the main thread, importing the layouts, may hold a lock on)
            from .detect import detect_all_markers
            from .image import load_photo

            img = load_photo(self.path, self.display)
            gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
            self.result = (img, gray, detect_all_markers(gray))
        except BaseException as exc:  # noqa: BLE001  (handed to the thread that takes the result)
            self.error = exc


_PENDING: dict[tuple[str, str], _EarlyRead] = {}


def read_early(path: str | Path, display: str) -> None:
    """Start decoding the photo ``path`` (shown as ``display`` in messages) and finding its markers, in the background.

    Nothing happens when the file cannot even be looked at (the ordinary path reports it), or when its
    reading has already been started.
    """
    path = Path(path)
    identity = _identity(path)
    if identity is None or (os.fspath(path), display) in _PENDING:  # nothing to read, or already started
        return
    early = _EarlyRead(path, display, identity)
    _PENDING[(os.fspath(path), display)] = early
    early.thread.start()


def take_early(path: str | Path, display: str) -> tuple | None:
    """What :func:`read_early` found for ``path`` and ``display``: ``(image BGR uint8 (H, W, 3), grey (H, W),
    marker detections)``, waiting for it if need be; ``None`` when nothing was started for them, the file
    changed since, or the work failed other than with a :class:`~.errors.PhotoError`.

    Raises:
        PhotoError: the photo cannot be read (the message :func:`.image.load_photo` gives).
    """
    early = _PENDING.pop((os.fspath(Path(path)), display), None)
    if early is None:
        return None
    early.thread.join()
    if _identity(early.path) != early.identity:
        return None
    if isinstance(early.error, PhotoError):
        raise early.error
    if early.error is not None:
        return None
    return early.result


class Ahead:
    """``fn(*args)`` run in a daemon thread (:data:`~generator.launch.DISPOSABLE_THREAD`: it writes nothing), while
    the calling thread does other work; for work done mostly inside OpenCV, NumPy or Pillow, which let Python
    run meanwhile.  :meth:`result` waits for it.
    """

    def __init__(self, fn, *args):
        self._fn, self._args = fn, args
        self._value = None
        self._failed = False
        self._thread = threading.Thread(target=self._run, name=DISPOSABLE_THREAD, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._value = self._fn(*self._args)
        except BaseException:  # noqa: BLE001  (the caller does the work itself, and meets the error in its own thread)
            self._failed = True

    def result(self):
        """The value ``fn`` returned, or ``None`` when it raised (the caller then does the work itself)."""
        self._thread.join()
        return None if self._failed else self._value


__all__ = ["Ahead", "read_early", "take_early"]
