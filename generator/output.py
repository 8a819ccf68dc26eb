"""Writing output files safely: whole or not at all, and never over a user's file unasked.

Every output goes through :func:`write_atomic`: a temporary ``.NAME.xxxxxxxx.tmp``
in the target's folder, renamed over the target when complete.  An interrupt
(Ctrl-C, SIGTERM, SIGHUP: :func:`generator.cli.main` turns the last two into
``SystemExit``) removes the temporary file, including when it arrives while
the file is being created: its name is chosen (and known to the clean-up)
before the file exists, so no moment is left where a file exists whose name
the clean-up does not know (as there is inside ``tempfile.mkstemp``).  :func:`remove_stale_temporaries` clears
what a killed run (``kill -9``, a power cut) left behind.

Several files that belong together are checked with :func:`check_targets`
before the first one is written.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path
from typing import Iterable

from .errors import OutputError

_TEMPORARY = re.compile(r"\.(?P<name>.+)\.[A-Za-z0-9_]{8}\.tmp")
"""The names :func:`write_atomic` gives its temporary files: ``.NAME.`` + 8 letters or digits + ``.tmp``."""


def _temporary_name(target: Path) -> Path:
    """A free name for ``target``'s temporary file, in its folder (:data:`_TEMPORARY`)."""
    while True:
        candidate = target.parent / f".{target.name}.{secrets.token_hex(4)}.tmp"
        if not os.path.lexists(candidate):
            return candidate


def _create(path: Path) -> int:
    """Create ``path`` (it must not exist) for writing, private to this user until renamed; return its descriptor."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)


def check_target(path: str | Path, *, overwrite: bool = True) -> Path:
    """Refuse an output path that :func:`write_atomic` would refuse, without writing anything.

    Raises:
        OutputError: as :func:`write_atomic`, for a folder, an existing file
            with ``overwrite`` False, or a parent that is a file.
    """
    target = Path(path)
    try:
        if target.is_dir():
            raise OutputError(f"{target}: is a folder; give a file name such as {target / 'sheet.pdf'}")
        if os.path.lexists(target) and not overwrite:
            raise OutputError(f"{target}: already exists; pass --force to replace it")
        for parent in target.parents:
            if os.path.lexists(parent) and not parent.is_dir():
                raise OutputError(f"{target}: {parent} is a file, not a folder")
    except OSError as exc:  # a name too long, a link loop in the folders, …
        raise OutputError(f"{target}: cannot write here ({exc.strerror})") from None
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
    tmp = _temporary_name(target)  # named before it exists: whatever interrupts from here on, the clean-up knows it
    try:
        while True:
            try:
                fd = _create(tmp)
                break
            except FileExistsError:  # another run took the name between the look and the creation: not ours
                tmp = None
                tmp = _temporary_name(target)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # created 0600; give the file the usual mode
        os.replace(tmp, target)
        tmp = None
    except BaseException as exc:
        # An interrupt (Ctrl-C, SIGTERM turned into SystemExit) may come while the file is being created, before
        # ``fd`` is set: the name was free just before, so a file there now is ours.
        if tmp is not None and os.path.lexists(tmp):
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
