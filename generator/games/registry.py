"""Shipped layouts (``layouts/<game>/<id>.yaml``) and loading any layout file by its ``game:``."""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from generator.core.errors import InputError, Problem, UnreadableError
from generator.games.allin.layout import AllInLayout, layout_from_document
from generator.core.paths import LAYOUTS_DIR, display_path  # (display_path: kept importable from here)
from generator.core.validation import quote, text_problem
from generator.core.yamlpos import load_yaml, shown

CHECK_READS = ("check and render read layout, deck, chip sheet, pad and ledger files (YAML); "
               "photos of sheets go to 'sheetsmith verify'")

GAMES = ("allin",)
"""Values of ``game:`` that layout files may have."""


@dataclass(frozen=True)
class ShippedLayout:
    """A layout file that ships with sheetsmith: its ``id`` (file name), ``game`` folder and path."""

    id: str
    game: str
    path: Path


def shipped_layouts() -> list[ShippedLayout]:
    """Every shipped layout, sorted by game then id (the Q♦ starter sheet first among All In sheets)."""
    found = [ShippedLayout(p.stem, p.parent.name, p) for p in LAYOUTS_DIR.glob("*/*.yaml")]
    return sorted(found, key=lambda s: (s.game, s.id != "q-diamonds", s.id))


def resolve_layout(ref: str) -> Path:
    """Turn a command-line LAYOUT (a shipped id or a path to a YAML file) into a file path.

    Raises:
        InputError: neither a file nor a shipped id; the message suggests close ids.
    """
    p = Path(ref)
    if p.suffix.lower() in (".yaml", ".yml") or os.path.lexists(p):
        if not os.path.lexists(p):
            raise InputError([Problem(ref, 0, 0, "file not found")])
        return p  # a dangling or looping link is named by load_yaml
    ids = {s.id: s.path for s in shipped_layouts()}
    if ref in ids:
        return ids[ref]
    close = difflib.get_close_matches(ref, list(ids), n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else f"; shipped layouts: {', '.join(ids)}"
    raise InputError([Problem(ref, 0, 0, f"no shipped layout {quote(ref)} and no such file{hint} (see 'sheetsmith layouts')")])


def unknown_layout(ref: str) -> str:
    """The message for a typed-in sheet's or game log's ``layout:`` that names neither a shipped All In id nor a
    file: the close ids ("did you mean q-diamonds?"), else every shipped one."""
    ids = [s.id for s in shipped_layouts() if s.game == "allin"]
    close = difflib.get_close_matches(ref, ids, n=3)
    hint = f"did you mean {', '.join(close)}?" if close else f"shipped: {', '.join(ids)}"
    return f"layout {shown(ref)} is neither a shipped id nor a file; {hint}"


def load_layout(path: str | Path) -> AllInLayout:
    """Read and validate an All In sheet layout file (``game: allin``).

    Raises:
        InputError: every error found, located ``FILE:LINE:COL``; also when the
            file is a deck or chip sheet rather than a sheet layout.
    """
    item = load_any(path)
    if not isinstance(item, AllInLayout):
        raise InputError([Problem(display_path(Path(path)), 0, 0, "this is a deck or chip sheet, not an All In sheet layout")])
    return item


def wrong_command(data: dict, command: str, file: str = "FILE") -> str | None:
    """A hint when a file is meant for another command than ``command`` (``check``/``render``, ``verify`` or ``replay``), else None.

    ``file`` is the file's name as the user wrote it, for the command line the hint suggests.
    """
    kind, game = data.get("kind"), data.get("game")
    if kind == "game-log" and command != "replay":
        return "this is an All In game log: referee it with 'sheetsmith replay FILE'"
    is_sheet = game == "allin" and ("player" in data or "layout" in data) and "hands" not in data
    if command == "render" and is_sheet:
        layout = data.get("layout") if isinstance(data.get("layout"), str) else "LAYOUT"
        return (f"this is a typed-in sheet, not a layout: draw it on its sheet with "
                f"'sheetsmith render {layout} --fill {file}', or score it with 'sheetsmith verify {file}'")
    if command == "render" and game == "flip7" and kind is None and "rounds" in data:
        return (f"this is a typed-in Flip 7 score pad, not a layout: draw it with 'sheetsmith render flip7-pad --fill {file}' "
                f"(or flip7-tick-pad), or check it with 'sheetsmith verify {file}'")
    if command in ("check", "render"):
        if is_sheet:
            return "this is a typed-in sheet, not a layout: score it with 'sheetsmith verify FILE'"
        if game in ("flip7", "fundex", "flipflop") and kind is None:
            return f"this is a {game} score pad or round log, not a layout: check it with 'sheetsmith verify FILE'"
    if command == "replay" and kind is None and game in ("flip7", "fundex", "flipflop"):
        what = "a Flip 7 score pad" if game == "flip7" else f"a {'Fundex' if game == 'fundex' else 'Flip Flop'} round log"
        return f"this is {what}, not an All In game log: check it with 'sheetsmith verify {file}'"
    if command == "verify" and (kind is not None or (game == "allin" and "hands" in data)):
        return "this is a layout or component, not a finished sheet: validate it with 'sheetsmith check FILE'"
    return None


def is_shipped(path: str | Path) -> bool:
    """True when ``path`` is a file under the shipped ``layouts/`` folder."""
    try:
        Path(path).resolve().relative_to(LAYOUTS_DIR.resolve())
    except ValueError:
        return False
    return True


def shipped_id_clash(item_id: str, path: Path, doc) -> Problem | None:
    """A warning when a user's file (not under ``layouts/``) has the id of a shipped item, else None.

    A copy of a shipped sheet that keeps its id would be taken for the shipped
    sheet wherever a layout is named by id: typed-in sheets, game logs, the
    sheet code a photo is read by.  ``doc`` is the file's
    :class:`~generator.core.yamlpos.Document` (the warning points at its ``id:``).
    """
    if is_shipped(path) or item_id not in {s.id for s in shipped_layouts()}:
        return None
    fresh = fresh_id(path.stem)
    return doc.problem(("id",) if "id" in doc.data else (), (
        f"id '{item_id}' is the id of a shipped item; typed-in sheets, game logs and a photo's sheet code name "
        f"layouts by id, so give yours its own (e.g. 'id: {fresh}', or start from 'sheetsmith new')"), severity="warning")


def fresh_id(stem: str, also_taken: Iterable[str] = ()) -> str:
    """An id for a user's file named ``stem``: lower-case letters, digits and '-', never a shipped id
    nor one of ``also_taken`` (the ids of the user's other layouts).

    ``"My Sheet"`` → ``"my-sheet"``; ``"q-diamonds"`` → ``"q-diamonds-2"`` (the next free number).
    """
    import re

    base = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")[:34] or "my-sheet"
    taken = {s.id for s in shipped_layouts()} | set(also_taken)
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def load_any(path: str | Path, *, command: str = "check"):
    """Read and validate any shipped kind of file: a sheet layout (``game: allin``),
    a deck (``kind: deck``), a chip sheet (``kind: chips``), or a pad or ledger
    (``kind: pad``, ``tick-pad``, ``ledger``).

    ``command`` (``check`` or ``render``) picks the hint given for a file meant
    for another command (a typed-in sheet, a log).

    Raises:
        InputError: every error found, located ``FILE:LINE:COL``.
    """
    path = Path(path)
    return item_from_document(load_yaml(path, display=display_path(path), reads=CHECK_READS), path, command=command)


def item_from_document(doc, path: Path, *, command: str = "check"):
    """Validate a parsed layout, deck, chip sheet, pad or ledger (see :func:`load_any`).

    ``path`` gives the default id (its stem) and the folder that ``extends:``
    names a template file in; for text that has no file (a web upload, the
    editor), pass a path in a folder that holds nothing.

    Raises:
        InputError: every error found, located ``FILE:LINE:COL``.
    """
    kind = doc.data.get("kind")
    if doc.data.get("id") is None and text_problem(path.stem, "the file name"):  # the id defaults to the file name
        raise InputError([doc.problem((), f"{text_problem(path.stem, 'the file name')[:-1]}; rename the file or add an 'id:' line)")])
    hint = wrong_command(doc.data, command, doc.file)
    if hint:
        raise UnreadableError([doc.problem((), hint)])  # a file for another command: unreadable here (exit 2)
    if kind in ("deck", "chips", "pad", "tick-pad", "ledger"):
        if kind == "deck":
            from generator.printing.deck import deck_from_document

            item = deck_from_document(doc, path)
        elif kind == "chips":
            from generator.printing.chips import chips_from_document

            item = chips_from_document(doc, path)
        else:
            from generator.printing.pads import pad_from_document

            item = pad_from_document(doc, path)
        clash = shipped_id_clash(item.id, path, doc)
        if clash is not None:
            item.warnings.append(clash)
        return item
    if kind is not None:
        raise InputError([doc.problem(("kind",), f"kind '{kind}' is not one of: deck, chips, pad, tick-pad, ledger (sheet layouts have no kind:, only game:)")])
    game = doc.data.get("game")
    if game == "allin":
        return layout_from_document(doc, path)
    if game is None:
        raise InputError([doc.problem((), f"missing key 'game'; add e.g. 'game: allin' (games: {', '.join(GAMES)})")])
    raise InputError(
        [doc.problem(("game",), f"game '{game}' has no layouts in this version; games: {', '.join(GAMES)}")]
    )
