"""Writing output files safely: whole or not at all, and never over a user's file unasked."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import OutputError


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
    if target.is_dir():
        raise OutputError(f"{target}: is a folder; give a file name such as {target / 'sheet.pdf'}")
    if os.path.lexists(target) and not overwrite:
        raise OutputError(f"{target}: already exists; pass --force to replace it")
    for parent in target.parents:
        if parent.exists() and not parent.is_dir():
            raise OutputError(f"{target}: {parent} is a file, not a folder")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise OutputError(f"{target}: cannot write here ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the file the usual mode
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(f"{target}: cannot write ({exc.strerror})") from None
        raise
    return target


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
