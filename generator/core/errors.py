"""Problems found in user files, reported as ``FILE:LINE:COL: severity: message``.

Every user-facing error in sheetsmith is a :class:`Problem` (one finding) or a
:class:`InputError` (one or more findings that stop the work).  The command
line prints them one per line, never a traceback, and exits with the error's
:attr:`SheetsmithError.exit_code` (docs/formats.md, "Exit status"):

* ``0`` everything was read and nothing is wrong;
* ``1`` the input was read, but problems were found (a rule broken, a written
  score that differs, an impossible sheet, a photo field that needs a person,
  validation errors in ``check``): :class:`FindingsError`, or a job's result
  that carries problems;
* ``2`` an input could not be read at all (missing, not YAML, not an image,
  wrong format) or the command was used wrongly: :class:`InputError`,
  :class:`OutputError` and every other :class:`SheetsmithError`.
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


EXIT_OK = 0
"""Exit status: everything read, nothing wrong (warnings alone included)."""
EXIT_PROBLEMS = 1
"""Exit status: the input was read, but problems were found."""
EXIT_UNREADABLE = 2
"""Exit status: an input could not be read at all, or a usage error."""


class SheetsmithError(Exception):
    """Base class of every error sheetsmith reports to a user (never shown as a traceback).

    ``exit_code`` is the process status the command line ends with: 2 (cannot
    be read / used) unless a subclass says otherwise.
    """

    exit_code: int = EXIT_UNREADABLE


class InputError(SheetsmithError):
    """A user file cannot be used.  ``problems`` lists every finding (errors first, then warnings).

    ``str(err)`` is the findings, one ``FILE:LINE:COL: severity: message`` per line;
    ``notes`` says what was done before they stopped the work (files written).
    """

    def __init__(self, problems: Iterable[Problem], *, notes: Iterable[str] = ()):
        self.problems: list[Problem] = sorted(problems, key=lambda p: (not p.is_error, p.file, p.line, p.col))
        self.notes: list[str] = list(notes)  # what was done before the problems stopped the work
        super().__init__("\n".join(str(p) for p in self.problems))


class UnreadableError(InputError):
    """A file cannot be read at all: missing, not a regular file, not UTF-8, not YAML (exit status 2).

    ``check`` tells these apart from validation errors in a file it could read
    (exit status 1).
    """


class FindingsError(InputError):
    """The input was read, but what it says breaks a rule or needs a person (exit status 1).

    Used where a job cannot go on to a report: the first illegal move of a
    game log, a photo field that must be looked at.
    """

    exit_code = EXIT_PROBLEMS


class OutputError(SheetsmithError):
    """An output file cannot be written (exists and --force not given, folder missing, …)."""


class Interrupted(SystemExit):
    """The run was stopped by a signal (Ctrl-C, TERM, HUP): exit status 128 + the signal's number.

    A :class:`SystemExit`, so that no ``except Exception`` (nor typer's own Ctrl-C handling) swallows
    it; every output being written is removed on the way out (:mod:`generator.core.output`).
    """

    def __init__(self, signum: int):
        super().__init__(128 + signum)
        self.signum = signum
