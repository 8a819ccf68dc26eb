"""Standard output and error that may be closed, full or a pipe whose reader left: no traceback, a clear exit status.

Used by the console script before anything else (:mod:`generator.cli.launch`) and
by the commands (:mod:`generator.cli.app`).  Light: the standard library only.
"""

from __future__ import annotations

import errno
import io
import sys

from generator.core.process import point_at_null


class _ClosedOutput(io.TextIOBase):
    """Standard output when the process was started with it closed (``>&-``): every write fails with
    ``EBADF``, as a write to the closed descriptor would, so that printing a report ends the run as
    output that cannot be written does (:func:`output_failed`: exit status 2)."""

    encoding = "utf-8"
    errors = "strict"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def fileno(self) -> int:
        return 1

    def isatty(self) -> bool:
        return False


def guard_standard_streams() -> None:
    """Give a standard stream that was closed when the process started (``>&-``, ``2>&-``, ``<&-``) a stand-in.

    Python then starts with ``sys.stdout`` or ``sys.stderr`` ``None``: ``print(..., file=sys.stderr)`` would
    go to standard output (into a JSON report), writing to ``sys.stdout`` would end in a traceback, and the
    next file sheetsmith opens would take the free descriptor 0, 1 or 2 (a child process or a C library
    writing there would write into it).  So each closed descriptor is opened on the null device; a closed
    standard error takes the messages there (the exit status still tells how the run went), and a closed
    standard output becomes :class:`_ClosedOutput`, whose writes fail.  Idempotent.
    """
    import os

    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            point_at_null(fd)
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    if sys.stderr is None:
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)


STREAM_ERRORS = (errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG, errno.EBADF)
"""Errors of writing to standard output or error (they carry no file name): the reader of a pipe went
away, the file the output is redirected to cannot grow, or standard output was closed (``>&-``)."""


def output_failed(exc: OSError) -> int:
    """Standard output could not be written (``exc``): the exit status to end with, after saying why.

    A pipe whose reader stopped early (``sheetsmith layouts | head``) ends the run quietly with
    status 1, as typer (click) and rich end it when they meet the closed pipe first; any other
    failure (a full disk behind ``> report.json``) is said on standard error, exit status 2:
    what was printed is incomplete, never to be taken for a whole report.  Standard output is
    then pointed at the null device so that nothing else tries to write to it.
    """
    from generator.core.process import point_at_null

    try:
        point_at_null(sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    if exc.errno == errno.EPIPE:
        return 1
    try:
        sys.stderr.write(
            f"error: the output could not be written ({exc.strerror or exc}): what was printed is incomplete\n"
        )
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    from generator.core.errors import EXIT_UNREADABLE  # (only now: the console script starts without it)

    return EXIT_UNREADABLE
