"""The ``check`` job: layout, deck, chip sheet, pad and ledger files validated, every problem located."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from generator.core.errors import EXIT_OK, EXIT_PROBLEMS, InputError, Problem, UnreadableError


@dataclass
class Checked:
    """One file validated by :func:`check_files`.

    Attributes:
        file: the path as messages show it.
        item: the validated layout, deck, chip sheet or pad (None when it has errors).
        problems: errors and warnings, located ``FILE:LINE:COL``.
        unreadable: True when the file could not be read at all (missing, not YAML).
        title, summary: a short name and one-line summary of a valid item.
    """

    file: str
    item: Any = None
    problems: list[Problem] = field(default_factory=list)
    unreadable: bool = False
    title: str = ""
    summary: str = ""

    @property
    def ok(self) -> bool:
        """True when the file has no error (warnings allowed)."""
        return not any(p.is_error for p in self.problems)


def check_files(paths: Sequence[Path]) -> list[Checked]:
    """Validate every file; one :class:`Checked` per path, in order.

    Exit status of the whole check (:func:`check_exit_code`): 2 when a file
    cannot be read at all, else 1 when any file has an error, else 0.
    """
    from generator.core.paths import display_path
    from generator.games.registry import describe, load_any

    results = []
    for path in paths:
        name = display_path(Path(path))
        try:
            item = load_any(path)
        except InputError as exc:
            results.append(Checked(name, problems=list(exc.problems), unreadable=isinstance(exc, UnreadableError)))
            continue
        title, summary = describe(item)
        results.append(Checked(name, item=item, problems=list(item.warnings), title=title, summary=summary))
    return results


def check_exit_code(results: Sequence[Checked]) -> int:
    """The status of a ``check`` run: 2 any file unreadable, 1 any error, else 0 (warnings alone are fine)."""
    if any(r.unreadable for r in results):
        return 2
    return EXIT_PROBLEMS if any(not r.ok for r in results) else EXIT_OK


def load_text(text: str | bytes, file: str):
    """Validate a layout, deck, chip sheet, pad or ledger given as YAML text or bytes (the limits of a file apply).

    Raises:
        InputError: every problem, located ``FILE:LINE:COL``.
    """
    from generator.core.yamlpos import parse_yaml_bytes
    from generator.games.registry import item_from_document

    raw = text.encode("utf-8") if isinstance(text, str) else text
    doc = parse_yaml_bytes(raw, file)
    given = doc.data.get("id")
    stem = given if isinstance(given, str) and given.replace("-", "").replace("_", "").isalnum() else Path(file).stem
    return item_from_document(doc, NOWHERE / f"{stem}.yaml", command="render")  # no file name for id: to differ from


NOWHERE = Path("/nonexistent-sheetsmith-folder")
"""The folder text without a file is taken to be in: it holds nothing, so ``extends:`` finds shipped templates only."""


def check_text(text: str | bytes, file: str) -> Checked:
    """:func:`check_files` for YAML text (the layout editor, an upload): one :class:`Checked`."""
    from generator.games.registry import describe

    try:
        item = load_text(text, file)
    except InputError as exc:
        return Checked(file, problems=list(exc.problems), unreadable=isinstance(exc, UnreadableError))
    title, summary = describe(item)
    return Checked(file, item=item, problems=list(item.warnings), title=title, summary=summary)
