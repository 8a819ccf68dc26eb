"""Writing output files safely: whole or not at all, and never over a user's file unasked.

Every output goes through :func:`write_atomic`: a temporary ``.NAME.xxxxxxxx.tmp``
in the target's folder, renamed over the target when complete.  An interrupt
(Ctrl-C, SIGTERM, SIGHUP: :func:`generator.cli.main` turns the last two into
``SystemExit``) removes the temporary file, including when it arrives while
the file is being created: the signals are held from just before the file
exists until its clean-up is armed.  :func:`remove_stale_temporaries` clears
what a killed run (``kill -9``, a power cut) left behind.

Several files that belong together are checked with :func:`check_targets`
before the first one is written.
"""

from __future__ import annotations

import os
import re
import signal
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

from .errors import OutputError

_HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
_TEMPORARY = re.compile(r"\.(?P<name>.+)\.[A-Za-z0-9_]{8}\.tmp")
"""The names :func:`write_atomic` gives its temporary files (``tempfile.mkstemp`` adds 8 characters)."""


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP (delivered when the block ends); a no-op where signals cannot be masked."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def check_target(path: str | Path, *, overwrite: bool = True) -> Path:
    """Refuse an output path that :func:`write_atomic` would refuse, without writing anything.

    Raises:
        OutputError: as :func:`write_atomic`, for a folder, an existing file
            with ``overwrite`` False, or a parent that is a file.
    """
    target = Path(path)
    if target.is_dir():
        raise OutputError(f"{target}: is a folder; give a file name such as {target / 'sheet.pdf'}")
    if os.path.lexists(target) and not overwrite:
        raise OutputError(f"{target}: already exists; pass --force to replace it")
    for parent in target.parents:
        if os.path.lexists(parent) and not parent.is_dir():
            raise OutputError(f"{target}: {parent} is a file, not a folder")
    return target


def check_targets(paths: Iterable[str | Path], *, overwrite: bool = True) -> list[Path]:
    """:func:`check_target` for every file of a multi-file output, before the first is written.

    Raises:
        OutputError: the first path that would be refused (nothing has been written), or two outputs with one name.
    """
    seen: set[Path] = set()
    out = []
    for path in paths:
        target = check_target(path, overwrite=overwrite)
        if target in seen:
            raise OutputError(f"{target}: two outputs would have this name")
        seen.add(target)
        out.append(target)
    return out


def write_atomic(path: str | Path, data: bytes, *, overwrite: bool = True) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same folder, then rename.

    A reader never sees a half-written file, and an interrupted run leaves the
    old file (if any) in place and no temporary file behind.  Missing parent
    folders are created.

    Args:
        overwrite: when False and ``path`` exists, nothing is written.

    Raises:
        OutputError: ``path`` exists and ``overwrite`` is False, is a folder,
            or cannot be written.
    """
    target = check_target(path, overwrite=overwrite)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{target}: cannot write here ({exc.strerror})") from None
    tmp = None
    try:
        with _signals_held():  # an interrupt now waits until the clean-up below is armed
            try:
                fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
            except OSError as exc:
                raise OutputError(f"{target}: cannot write here ({exc.strerror})") from None
            fh = os.fdopen(fd, "wb")
        with fh:  # a held signal is delivered here, with ``tmp`` known
            fh.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the file the usual mode
        os.replace(tmp, target)
    except BaseException as exc:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        if isinstance(exc, OSError):
            raise OutputError(f"{target}: cannot write ({exc.strerror})") from None
        raise
    return target


def remove_stale_temporaries(folder: str | Path, names: Iterable[str], *, before: float) -> list[Path]:
    """Remove temporary files of :func:`write_atomic` for ``names`` in ``folder`` last changed before ``before``.

    Only files named like ``.NAME.xxxxxxxx.tmp`` for one of ``names`` are
    touched, and only when older than ``before`` (a Unix time: the start of
    the run), so another run writing there now keeps its own.

    Returns:
        The files removed.
    """
    folder = Path(folder)
    wanted = set(names)
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    for entry in entries:
        m = _TEMPORARY.fullmatch(entry.name)
        if not m or m.group("name") not in wanted:
            continue
        try:
            if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mtime < before:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
