"""Writing output files safely: whole or not at all, and never over a user's file unasked.

Every output goes through :func:`write_atomic` or :func:`write_together`: a
temporary ``.NAME.xxxxxxxx.tmp`` in the target's folder, renamed over the
target when complete.  An interrupt (Ctrl-C, SIGTERM, SIGHUP:
:func:`generator.cli.app.main` turns the last two into ``SystemExit``) removes the
temporary file, including when it arrives while the file is being created:
its name is chosen (and known to the clean-up) before the file exists, so no
moment is left where a file exists whose name the clean-up does not know (as
there is inside ``tempfile.mkstemp``).  The same holds for an old file moved
aside (``.NAME.xxxxxxxx.old``) while a set of files is replaced.
:func:`remove_stale_temporaries` clears what a killed run (``kill -9``, a
power cut) left behind.

Several files that belong together are checked with :func:`check_targets`
before the first one is written.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path
from typing import Iterable, Sequence

from generator.core.errors import OutputError
from generator.core.names import shown

_TEMPORARY = re.compile(r"\.(?P<name>.+)\.[A-Za-z0-9_]{8}\.(?:tmp|old)")
"""The names of temporary files (``.NAME.`` + 8 letters or digits + ``.tmp``) and of old files moved aside
(``.old``)."""


def check_target(path: str | Path, *, overwrite: bool = True) -> Path:
    """Refuse an output path that :func:`write_atomic` would refuse, without writing anything.

    Raises:
        OutputError: a folder, an existing file with ``overwrite`` False, a
            parent that is a file, or a name the file system cannot take.
    """
    target = Path(path)
    try:
        if target.is_dir():
            raise OutputError(
                f"{shown(str(target))}: is a folder; give a file name such as {shown(str(target / 'sheet.pdf'))}"
            )
        if os.path.lexists(target) and not overwrite:
            raise OutputError(f"{shown(str(target))}: already exists; pass --force to replace it")
        for parent in target.parents:
            if os.path.lexists(parent) and not parent.is_dir():
                raise OutputError(f"{shown(str(target))}: {shown(str(parent))} is a file, not a folder")
    except OSError as exc:  # a name too long, a link loop in the folders, …
        raise OutputError(f"{shown(str(target))}: cannot write here ({exc.strerror})") from None
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
            raise OutputError(f"{shown(str(target))}: two outputs would have this name")
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
    targets = check_targets([p for p, _ in files])
    temps: list[tuple[Path, Path]] = []
    placed: list[tuple[Path, Path | None, Path]] = []
    current = targets[0] if targets else Path()
    try:
        for target, (_, data) in zip(targets, files):
            current = target
            _write_temp(target, data, temps)
        for tmp, target in temps:
            current = target
            old = _free_name(target, "old") if os.path.lexists(target) else None
            placed.append((target, old, tmp))  # known to the roll-back before anything moves
            if old is not None:
                os.replace(target, old)
            _place(tmp, target)
    except BaseException as exc:
        for target, old, tmp in reversed(placed):
            try:
                if not os.path.lexists(tmp) and os.path.lexists(target):
                    os.unlink(target)  # the new file went in: take it out again
                if old is not None and os.path.lexists(old):
                    os.replace(old, target)
            except OSError:
                pass
        for tmp, _ in temps:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        if isinstance(exc, OSError):
            raise OutputError(
                f"{shown(str(current))}: cannot write ({exc.strerror or exc}); nothing was written"
            ) from None
        raise
    for _, old, _ in placed:
        if old is not None:
            try:
                os.unlink(old)
            except OSError:
                pass
    return targets


def _free_name(target: Path, kind: str) -> Path:
    """A name no file has yet beside ``target``: ``.NAME.xxxxxxxx.tmp`` (or ``.old``), see :data:`_TEMPORARY`."""
    while True:
        candidate = target.parent / f".{target.name}.{secrets.token_hex(4)}.{kind}"
        if not os.path.lexists(candidate):
            return candidate


def _create(path: Path) -> int:
    """Create ``path`` (it must not exist) for writing, private to this user until renamed; return its descriptor."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)


def _place(tmp: Path, target: Path) -> None:
    os.replace(tmp, target)


def _write_temp(target: Path, data: bytes, temps: list[tuple[Path, Path]]) -> Path:
    """Write ``data`` whole to a new temporary file beside ``target``; append ``(temporary, target)`` to ``temps``
    and return the temporary's path.

    The temporary's name is in ``temps`` before the file exists, so the caller's
    clean-up removes it whatever interrupts the creation (a name free a moment
    ago that now exists is ours).
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = _free_name(target, "tmp")
    temps.append((tmp, target))
    while True:
        try:
            fd = _create(tmp)
            break
        except FileExistsError:  # another program took the name between the look and the creation: not ours
            temps.pop()
            tmp = _free_name(target, "tmp")
            temps.append((tmp, target))
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    os.chmod(tmp, 0o666 & ~_umask())  # created 0600; give the file the usual mode
    return tmp


def remove_stale_temporaries(folder: str | Path, names: Iterable[str], *, before: float) -> list[Path]:
    """Remove temporary and set-aside files of :func:`write_together` for ``names`` in ``folder``, changed before
    ``before``.

    Only files named like ``.NAME.xxxxxxxx.tmp`` (or ``.old``) for one of
    ``names`` are touched, and only when older than ``before`` (a Unix time:
    the start of the run), so another run writing there now keeps its own.

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
