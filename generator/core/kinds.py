"""The kinds of sheetsmith files, told from a parsed file's keys (``kind:``, ``game:`` and a few others).

Layouts, decks, chip sheets and pads are checked and rendered; typed-in sheets,
score pads and round logs are verified; All In game logs are replayed.  A file
given to the wrong command gets a hint that names the right one
(:func:`wrong_command`).
"""

from __future__ import annotations

from pathlib import Path

from generator.core.errors import InputError, UnreadableError
from generator.core.validation import text_problem
from generator.core.yamlpos import Document

CHECK_READS = (
    "check and render read layout, deck, chip sheet, pad and ledger files (YAML); "
    "photos of sheets go to 'sheetsmith verify'"
)
"""What ``check`` and ``render`` read, as a message says it to a file that is no YAML."""

COMPONENT_KINDS = ("deck", "chips", "pad", "tick-pad", "ledger")
"""Values of ``kind:`` of the print-and-play components (sheet layouts have no ``kind:``, only ``game:``)."""


def check_item_file(doc: Document, path: Path, command: str = "check") -> None:
    """What every layout or component file must pass before its own validation: an id, or a file name that
    makes one; and no file meant for another command than ``command`` (:func:`wrong_command`).

    Raises:
        InputError: no ``id:`` and a file name that cannot be an id.
        UnreadableError: a typed-in sheet, pad or log given to ``command`` (exit 2), with the right command.
    """
    # the id defaults to the file name
    if doc.data.get("id") is None and (name_problem := text_problem(path.stem, "the file name")):
        raise InputError([doc.problem((), f"{name_problem[:-1]}; rename the file or add an 'id:' line)")])
    hint = wrong_command(doc.data, command, doc.file)
    if hint:
        raise UnreadableError([doc.problem((), hint)])  # a file for another command: unreadable here (exit 2)


def unknown_kind(doc: Document) -> InputError:
    """The error for a ``kind:`` that is none of :data:`COMPONENT_KINDS`."""
    kind = doc.data.get("kind")
    return InputError(
        [
            doc.problem(
                ("kind",),
                f"kind '{kind}' is not one of: {', '.join(COMPONENT_KINDS)} (sheet layouts have no kind:, only game:)",
            )
        ]
    )


def wrong_command(data: dict, command: str, file: str = "FILE") -> str | None:
    """A hint when a file is meant for another command than ``command`` (``check``/``render``, ``verify`` or
    ``replay``), else None.

    ``file`` is the file's name as the user wrote it, for the command line the hint suggests.
    """
    kind, game = data.get("kind"), data.get("game")
    if kind == "game-log" and command != "replay":
        return "this is an All In game log: referee it with 'sheetsmith replay FILE'"
    is_sheet = game == "allin" and ("player" in data or "layout" in data) and "hands" not in data
    if command == "render" and is_sheet:
        layout = data.get("layout") if isinstance(data.get("layout"), str) else "LAYOUT"
        return (
            f"this is a typed-in sheet, not a layout: draw it on its sheet with "
            f"'sheetsmith render {layout} --fill {file}', or score it with 'sheetsmith verify {file}'"
        )
    if command == "render" and game == "flip7" and kind is None and "rounds" in data:
        return (
            "this is a typed-in Flip 7 score pad, not a layout: draw it with 'sheetsmith render flip7-pad --fill "
            f"{file}' "
            f"(or flip7-tick-pad), or check it with 'sheetsmith verify {file}'"
        )
    if command in ("check", "render"):
        if is_sheet:
            return "this is a typed-in sheet, not a layout: score it with 'sheetsmith verify FILE'"
        if game in ("flip7", "fundex", "flipflop") and kind is None:
            return f"this is a {game} score pad or round log, not a layout: check it with 'sheetsmith verify FILE'"
    if command == "replay" and (kind in COMPONENT_KINDS or (game == "allin" and "hands" in data)):
        return f"this is a layout or component, not an All In game log: check it with 'sheetsmith check {file}'"
    if command == "replay" and is_sheet and kind is None:
        return f"this is a typed-in sheet, not an All In game log: score it with 'sheetsmith verify {file}'"
    if command == "replay" and kind is None and game in ("flip7", "fundex", "flipflop"):
        what = (
            "a Flip 7 score pad" if game == "flip7" else f"a {'Fundex' if game == 'fundex' else 'Flip Flop'} round log"
        )
        return f"this is {what}, not an All In game log: check it with 'sheetsmith verify {file}'"
    if command == "verify" and (kind is not None or (game == "allin" and "hands" in data)):
        return "this is a layout or component, not a finished sheet: validate it with 'sheetsmith check FILE'"
    return None
