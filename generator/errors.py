"""Problems found in user files, reported as ``FILE:LINE:COL: severity: message``.

Every user-facing error in sheetsmith is a :class:`Problem` (one finding) or a
:class:`InputError` (one or more findings that stop the work).  The command
line prints them one per line and exits with status 1; no traceback.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Literal


@dataclass(frozen=True)
class Problem:
    """One finding in a user file.

    Attributes:
        file: the path as the user gave it (or a shipped layout's path).
        line: 1-based line number, or 0 when the problem concerns the whole file.
        col: 1-based column, or 0 when unknown.
        message: what is wrong and, where possible, what to write instead.
        severity: ``"error"`` stops rendering and scoring; ``"warning"`` does not.
    """

    file: str
    line: int
    col: int
    message: str
    severity: Literal["error", "warning"] = "error"

    def __str__(self) -> str:
        where = self.file
        if self.line:
            where += f":{self.line}"
            if self.col:
                where += f":{self.col}"
        return f"{where}: {self.severity}: {self.message}"

    @property
    def is_error(self) -> bool:
        """True when the problem is an error (not a warning)."""
        return self.severity == "error"


class SheetsmithError(Exception):
    """Base class of every error sheetsmith reports to a user (never shown as a traceback)."""


class InputError(SheetsmithError):
    """A user file cannot be used.  ``problems`` lists every finding (errors first, then warnings).

    ``str(err)`` is the findings, one ``FILE:LINE:COL: severity: message`` per line.
    """

    def __init__(self, problems: Iterable[Problem]):
        self.problems: list[Problem] = sorted(
            problems, key=lambda p: (not p.is_error, p.file, p.line, p.col)
        )
        super().__init__("\n".join(str(p) for p in self.problems))


class OutputError(SheetsmithError):
    """An output file cannot be written (exists and --force not given, folder missing, …)."""
