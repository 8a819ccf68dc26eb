"""``sheetsmith new``: a starting file for a sheet of your own (a job: paths in, the written file out).

The file is a copy of a shipped sheet (``--from q-diamonds``) or a small
commented skeleton, with an id of its own (:func:`generator.core.shipped.fresh_id`:
never a shipped id, so nothing of the copy is ever taken for the shipped
sheet), and a first line telling editors with the YAML language server where
its JSON Schema is, for completion and checks as you type.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from generator.core.errors import OutputError, SheetsmithError
from generator.core.validation import quote

SKELETON = """\
# {title}
# The grid: 'o' a card space, '*' a starting space (rounds 1 and 2 go there),
# 'G' the Golden Card; '---' links two spaces in a row, '|' links a space to
# the one below. Cells sit every 4 characters on every other line.
# A hand is a straight run of linked spaces. Letters go to the rows top to
# bottom, then to the columns left to right; 'sheetsmith show FILE' draws them.
# Aim for 24 writable spaces (23 rounds and one Golden Deck card).
# Format: docs/layouts.md
game: allin
id: {id}
description: "My own sheet"
golden: JH                # the card printed in the Golden Card space
grid: |
  *---o---o---o---o
  |   |   |   |   |
  o---o---o---o---o
  |   |   |   |   |
  o---o---G---o---o
  |   |   |   |   |
  o---o---o---o---o
  |   |   |   |   |
  o---o---o---o---*
hands:                    # reward single: 1 chip to the first to fill it; double: 2 to the first, 1 later
  A: {{reward: single, bonus: 2}}   # row 1
  B: {{reward: double, bonus: 3}}   # row 2
  C: {{reward: double, bonus: 3}}   # row 3, through the Golden Card
  D: {{reward: double, bonus: 3}}   # row 4
  E: {{reward: single, bonus: 2}}   # row 5
  F: {{reward: single, bonus: 2}}   # column a
  G: {{reward: double, bonus: 3}}   # column b
  H: {{reward: double, bonus: 3}}   # column c, through the Golden Card
  I: {{reward: double, bonus: 3}}   # column d
  J: {{reward: single, bonus: 2}}   # column e
"""
"""The skeleton: a full 5×5 grid (24 writable spaces), ten hands of five, every key explained."""


@dataclass
class NewLayout:
    """What :func:`new_layout` wrote: the file, its id, and the shipped sheet or file it copies (None: the skeleton)."""

    path: Path
    id: str
    copied_from: Optional[str] = None


def schema_line(path: Path, kind: str = "allin-layout") -> str:
    """The ``# yaml-language-server: $schema=…`` line for a file at ``path``: the path of docs/schema/KIND.json,
    relative when ``path`` is inside the sheetsmith checkout."""
    from generator.core.paths import ROOT

    schema = ROOT / "docs" / "schema" / f"{kind}.json"
    folder = Path(path).resolve().parent
    try:
        folder.relative_to(ROOT.resolve())
        ref = os.path.relpath(schema, folder)  # inside the checkout: a path that moves with it
    except ValueError:
        ref = str(schema)  # elsewhere: where this checkout's schema is
    return f"# yaml-language-server: $schema={Path(ref).as_posix()}"


def _copy_text(text: str, new_id: str) -> str:
    """A shipped layout's text with its leading comments and its schema line dropped and its ``id:`` replaced."""
    lines = [ln for ln in text.splitlines() if not ln.startswith("# yaml-language-server:")]
    while lines and (lines[0].startswith("#") or not lines[0].strip()):
        lines.pop(0)
    body = "\n".join(lines) + "\n"
    if re.search(r"(?m)^id:", body):
        return re.sub(r"(?m)^id:.*$", f"id: {new_id}", body, count=1)
    return re.sub(r"(?m)^(game:.*)$", rf"\1\nid: {new_id}", body, count=1)


def _ids_beside(path: Path) -> set[str]:
    """The ids of the other layout files in ``path``'s folder (an ``id:`` line, else the file name), so a new
    sheet never takes the id of a sheet the user already has there."""
    import re

    ids = set()
    for other in path.parent.glob("*.y*ml"):
        if other == path or other.suffix.lower() not in (".yaml", ".yml"):
            continue
        try:
            head = other.read_text(encoding="utf-8", errors="replace")[:20000]
        except OSError:
            continue
        found = re.search(r"^id:\s*['\"]?([^'\"\s#]+)", head, re.M)
        ids.add(found.group(1) if found else other.stem)
    return ids


def new_layout(game: str, path: str | Path, *, source: Optional[str] = None, force: bool = False) -> NewLayout:
    """Write a starting layout file at ``path``.

    Args:
        game: ``allin`` (the only game with sheet layouts).
        path: the new file (``.yaml``); its name gives the id (:func:`~generator.core.shipped.fresh_id`),
            never one that another layout file in the same folder has.
        source: a shipped id or a layout file to copy; None writes the commented skeleton.
        force: replace ``path`` if it exists.

    Raises:
        SheetsmithError: another game, a name not ending in .yaml.
        InputError: ``source`` is not a valid All In layout.
        OutputError: ``path`` exists and ``force`` is False.
    """
    from generator.core.output import write_atomic
    from generator.core.shipped import fresh_id, resolve_layout
    from generator.games.allin.layout import load_layout

    if game != "allin":
        raise SheetsmithError(
            f"new allin: sheetsmith starts sheet layouts for All In only, not {quote(game)}; decks, pads and "
            "ledgers are shipped ready to print ('sheetsmith layouts' lists them)"
        )
    path = Path(path)
    if path.suffix.lower() not in (".yaml", ".yml"):
        raise SheetsmithError(f"{path}: give the new file a name ending in .yaml, e.g. my-sheet.yaml")
    if path.exists() and not force:
        raise OutputError(f"{path}: already exists; pass --force to replace it, or pick another name")
    new_id = fresh_id(path.stem, _ids_beside(path))
    if source is None:
        title = "My sheet, started by 'sheetsmith new allin'."
        text = SKELETON.format(title=title, id=new_id)
        copied = None
    else:
        src = resolve_layout(source)
        layout = load_layout(src)
        copied = f"{layout.name} ({layout.id})"
        header = f"# My sheet, a copy of {copied} made by 'sheetsmith new allin --from {source}'.\n"
        header += "# Format: docs/layouts.md\n"
        text = header + _copy_text(src.read_text(encoding="utf-8"), new_id)
    write_atomic(path, (schema_line(path) + "\n" + text).encode("utf-8"), overwrite=force)
    return NewLayout(path, new_id, copied)
