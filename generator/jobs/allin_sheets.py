"""Players' All In sheets as plain data, for a page that keeps a game (``sheetsmith serve``).

A page keeps each player's sheet as one token per card space (a card code,
``.`` for empty, ``?`` for a field a person must look at) and the two chip
counts.  These jobs give it what it needs of a shipped layout to show and type
in a sheet (:func:`sheet_form`), the typed-in file of a player's tokens
(:func:`sheet_file`: the file ``sheetsmith verify`` reads), an uploaded typed-in
file read back into tokens (:func:`read_sheet_file`), and the problems of a sheet
placed on its card spaces (:func:`problems_by_cell`).  Scoring is
:func:`generator.jobs.verify.verify_texts`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping, Sequence

from generator.core.errors import InputError, Problem
from generator.core.shipped import resolve_layout, shipped_layouts
from generator.core.yamlpos import parse_yaml_bytes
from generator.games.allin.game_log import sheet_text
from generator.games.allin.grid import cell_name
from generator.games.allin.layout import AllInLayout, load_layout
from generator.games.allin.typed_sheet import sheet_from_document
from generator.jobs.check import NOWHERE


@dataclass(frozen=True)
class SheetForm:
    """What a page shows of a shipped All In layout.

    Attributes:
        id, name: the layout's id and printed name (``q-diamonds``, ``Q♦``).
        chips: circles on the chip track (the most chips a player can earn).
        golden: the Golden Card's code (``QD``).
        cols, rows: the lattice's size.
        grid: row by row, each lattice position as ``(cell, kind)``: its name (``b3``) and ``space``, ``golden``
            or ``none`` (no card space there).
        spaces: the names of the card spaces a player writes in, in the typed-in file's order.
    """

    id: str
    name: str
    chips: int
    golden: str
    cols: int
    rows: int
    grid: tuple[tuple[tuple[str, str], ...], ...]
    spaces: tuple[str, ...]


@lru_cache(maxsize=32)
def _layout(layout_id: str) -> AllInLayout:
    return load_layout(resolve_layout(layout_id))


def allin_layouts() -> list[dict]:
    """The shipped All In sheets a game can be played on: ``[{"id", "name"}]``, the Q♦ starter sheet first."""
    return [{"id": s.id, "name": _layout(s.id).name} for s in shipped_layouts() if s.game == "allin"]


@lru_cache(maxsize=32)
def sheet_form(layout_id: str) -> SheetForm:
    """The :class:`SheetForm` of a shipped layout.

    Raises:
        InputError: no shipped layout of that id.
    """
    lay = _layout(layout_id)
    grid = []
    for r in range(lay.grid.rows):
        row = []
        for c in range(lay.grid.cols):
            cell = lay.grid.cells.get((c, r))
            kind = "none" if cell is None else "golden" if cell.kind == "golden" else "space"
            row.append((cell_name((c, r)), kind))
        grid.append(tuple(row))
    return SheetForm(
        lay.id,
        lay.name,
        lay.chips,
        lay.golden.code,
        lay.grid.cols,
        lay.grid.rows,
        tuple(grid),
        tuple(cell_name(c) for c in lay.grid.writable),
    )


def sheet_file(
    layout_id: str, player: str, tokens: Mapping[str, str], earned: int | str, spent: int | str, *, comment: str
) -> str:
    """A player's typed-in sheet file (YAML) from the tokens of its card spaces (cell name → token; a space
    without one is empty) and the chip counts (a number, or ``?`` where a person must still look)."""
    lay = _layout(layout_id)
    return sheet_text(lay, player, lambda coord: tokens.get(cell_name(coord), "."), earned, spent, comment=comment)


def read_sheet_file(data: bytes, file: str = "upload.yaml") -> dict:
    """An uploaded typed-in sheet file read into ``{"layout", "player", "tokens", "chips": {"earned", "spent"}}``.

    Raises:
        InputError: not a valid typed-in sheet, or one whose ``layout:`` is not a shipped id (a page has no
            folder to find a layout file in); every problem located in ``file``.
    """
    doc = parse_yaml_bytes(data, file)
    shipped = {x["id"] for x in allin_layouts()}
    layout = doc.data.get("layout")
    if not isinstance(layout, str) or layout not in shipped:
        raise InputError([doc.problem(("layout",), "name a shipped layout id (this page cannot read layout files)")])
    sheet = sheet_from_document(doc, NOWHERE / file)
    tokens = {cell_name(c): (sheet.cards[c].code if c in sheet.cards else ".") for c in sheet.layout.grid.writable}
    return {
        "layout": sheet.layout.id,
        "player": sheet.player,
        "tokens": tokens,
        "chips": {"earned": sheet.chips_earned, "spent": sheet.chips_spent},
    }


def problems_by_cell(text: str, layout_id: str, problems: Sequence[Problem]) -> dict[str, list[str]]:
    """The problems of the typed-in sheet ``text`` (:func:`sheet_file`) by where they are: the card space's name
    (found from each problem's line and column), ``chips``, or ``sheet`` for the others; each message without
    its leading cell name."""
    lines = text.split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith("grid:")) + 1  # 0-based index of the first row
    form = sheet_form(layout_id)
    out: dict[str, list[str]] = {}
    for p in problems:
        where = "sheet"
        r = p.line - 1 - start
        if 0 <= r < form.rows and p.col:
            for c, m in enumerate(re.finditer(r"\S+", lines[start + r])):
                if m.start() <= p.col - 1 < m.end():
                    where = cell_name((c, r))
        elif p.line and lines[p.line - 1].startswith("chips:"):
            where = "chips"
        message = re.sub(r"^[a-z]+\d+: ", "", p.message)
        out.setdefault(where, []).append(message)
    return out
