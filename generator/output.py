"""Writing output files safely: whole or not at all, and never over a user's file unasked."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Sequence

from .errors import OutputError
from .names import shown


def write_atomic(path: str | Path, data: bytes, *, overwrite: bool = True) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same folder, then rename.

    A reader never sees a half-written file, and an interrupted run leaves the
    old file (if any) in place.  Missing parent folders are created.

    Args:
        overwrite: when False and ``path`` exists, nothing is written.

    Raises:
        OutputError: ``path`` exists and ``overwrite`` is False, is a folder,
            or cannot be written.
    """
    target = Path(path)
    _check_target(target)
    if os.path.lexists(target) and not overwrite:
        raise OutputError(f"{shown(str(target))}: already exists; pass --force to replace it")
    write_together([(target, data)])
    return target


def write_together(files: Sequence[tuple[str | Path, bytes]]) -> list[Path]:
    """Write several files as one unit: all of them, or none (the old ones, if any, stay as they were).

    Every file is first written whole to a temporary file next to it; only when all
    are written are they renamed into place, each old file moved aside until every
    new one is in place.  When writing or renaming fails, or the run is interrupted
    (Ctrl-C, SIGTERM), the temporaries are removed and the old files put back, so a
    new file never sits next to an old partner (a new ``ann.read.yaml`` next to an
    older ``ann.read.png``).  Only a power cut or SIGKILL between the renames can split a set.

    Args:
        files: ``(path, data)`` pairs; missing parent folders are created.

    Returns:
        the paths written, in order.

    Raises:
        OutputError: a path is a folder or under a file, or some file cannot be written
            (the disk is full, no permission): nothing was changed.
    """
    targets = [Path(p) for p, _ in files]
    for target in targets:
        _check_target(target)
    temps: list[tuple[str, Path]] = []
    placed: list[tuple[Path, str | None, str]] = []
    current = targets[0] if targets else Path()
    try:
        for (target, (_, data)) in zip(targets, files):
            current = target
            temps.append((_write_temp(target, data), target))
        for tmp, target in temps:
            current = target
            old = None
            if os.path.lexists(target):
                old = _aside(target)
            placed.append((target, old, tmp))
            _place(tmp, target)
    except BaseException as exc:
        for target, old, tmp in reversed(placed):
            try:
                if not os.path.lexists(tmp) and os.path.lexists(target):
                    os.unlink(target)  # the new file went in: take it out again
                if old is not None:
                    os.replace(old, target)
            except OSError:
                pass
        for tmp, _ in temps:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        if isinstance(exc, OSError):
            raise OutputError(f"{shown(str(current))}: cannot write ({exc.strerror or exc}); nothing was written") from None
        raise
    for _, old, _ in placed:
        if old is not None:
            try:
                os.unlink(old)
            except OSError:
                pass
    return targets


def _check_target(target: Path) -> None:
    if target.is_dir():
        raise OutputError(f"{shown(str(target))}: is a folder; give a file name such as {shown(str(target / 'sheet.pdf'))}")
    for parent in target.parents:
        if parent.exists() and not parent.is_dir():
            raise OutputError(f"{shown(str(target))}: {shown(str(parent))} is a file, not a folder")


def _write_temp(target: Path, data: bytes) -> str:
    """``data`` written whole to a new temporary file beside ``target``; its path."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the file the usual mode
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp


def _aside(target: Path) -> str:
    """Move an existing ``target`` to a fresh name beside it (to be put back, or deleted); return that name."""
    fd, old = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent)
    os.close(fd)
    try:
        os.replace(target, old)
    except BaseException:
        os.unlink(old)
        raise
    return old


def _place(tmp: str, target: Path) -> None:
    os.replace(tmp, target)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
