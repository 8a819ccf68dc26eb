"""What ships with sheetsmith: the files under ``layouts/<folder>/<id>.yaml``, found by id or by path.

Sheet layouts, decks, chip sheets, pads and ledgers are named by id on the
command line, in typed-in sheets, in game logs and in a photo's sheet code; a
user's own file is named by its path.  A user's file must not take a shipped
id (:func:`shipped_id_clash`); :func:`fresh_id` finds one that is free.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from generator.core.errors import InputError, Problem
from generator.core.paths import LAYOUTS_DIR
from generator.core.validation import quote
from generator.core.yamlpos import shown


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
    raise InputError(
        [Problem(ref, 0, 0, f"no shipped layout {quote(ref)} and no such file{hint} (see 'sheetsmith layouts')")]
    )


def unknown_layout(ref: str) -> str:
    """The message for a typed-in sheet's or game log's ``layout:`` that names neither a shipped All In id nor a
    file: the close ids ("did you mean q-diamonds?"), else every shipped one."""
    ids = [s.id for s in shipped_layouts() if s.game == "allin"]
    close = difflib.get_close_matches(ref, ids, n=3)
    hint = f"did you mean {', '.join(close)}?" if close else f"shipped: {', '.join(ids)}"
    return f"layout {shown(ref)} is neither a shipped id nor a file; {hint}"


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
    return doc.problem(
        ("id",) if "id" in doc.data else (),
        (
            f"id '{item_id}' is the id of a shipped item; typed-in sheets, game logs and a photo's sheet code name "
            f"layouts by id, so give yours its own (e.g. 'id: {fresh}', or start from 'sheetsmith new')"
        ),
        severity="warning",
    )


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
