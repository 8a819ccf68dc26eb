"""Typed-in All In sheets (docs/formats.md, "Typed-in All In sheet"): reading and checking them.

```yaml
game: allin
layout: q-diamonds    # a shipped layout id, or a path to a layout file
player: Ann
grid: |
  QH  10S 2C  .   -
  ...
chips: {earned: 5, spent: 2}
```

One whitespace-separated token per lattice position, row by row: a card
code, ``.`` for an empty space, ``G`` (or the golden card's code) for the
Golden Card, ``-`` where the layout has no space.  Every problem is reported
with ``FILE:LINE:COL`` of the offending token.  A sheet that reads is
returned even when no game can produce it (chips spent above chips earned,
cards apart from the starting spaces, …): those findings are the rules
core's (:mod:`generator.games.allin.plausible`), located through the
sheet's ``where`` (each card space's token and the chips values).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from pydantic import Field

from generator.core.cards import Card, CardCodeError, parse_card
from generator.core.errors import FindingsError, InputError, Problem
from generator.core.models import OneLine, StrictModel, validate
from generator.core.paths import display_path
from generator.core.shipped import shipped_layouts, unknown_layout
from generator.core.validation import text_problem
from generator.core.yamlpos import Document, load_yaml
from generator.games.allin.filled import FilledSheet
from generator.games.allin.grid import cell_name
from generator.games.allin.layout import AllInLayout, load_layout

_TOKEN = re.compile(r"\S+")


class _Chips(StrictModel):
    earned: int = Field(ge=0, le=999, strict=True)
    spent: int = Field(default=0, ge=0, le=999, strict=True)


class TypedSheetSpec(StrictModel):
    """The YAML of a typed-in All In sheet, as written."""

    game: str
    layout: str
    player: OneLine | None = Field(default=None, min_length=1, max_length=60)
    grid: str
    chips: _Chips = _Chips(earned=0, spent=0)


def find_layout(ref: str, sheet_path: Path) -> Path | None:
    """The layout file a sheet's ``layout:`` names: a shipped id, or a path relative to the sheet (then to the working
    folder)."""
    for item in shipped_layouts():
        if item.id == ref:
            return item.path
    for base in (sheet_path.parent, Path.cwd()):
        candidate = base / ref
        try:
            if candidate.is_file():
                return candidate
        except OSError:  # a name too long for the file system, …: not a file
            continue
    return None


def load_allin_sheet(path: str | Path, *, display: str | None = None) -> FilledSheet:
    """Read and check a typed-in All In sheet.

    Raises:
        InputError: every problem found, each ``FILE:LINE:COL`` (the layout's
            own problems are reported against the layout file).
    """
    path = Path(path)
    doc = load_yaml(path, display=display or display_path(path))
    return sheet_from_document(doc, path)


UNSURE = "?"
"""What a photo's reading writes for a field a person must look at: a grid token, or a chip count ``"?"``."""


def _unsure_message(field: str, what: str) -> str:
    return (
        f"{field}: uncertain in the photo; look at the sheet, write {what} in place of '?', then verify this file again"
    )


def sheet_from_document(doc: Document, path: Path) -> FilledSheet:
    """Check a parsed typed-in sheet (see :func:`load_allin_sheet`).

    Raises:
        InputError: the file is not a valid sheet (exit status 2).
        FindingsError: a valid sheet with fields a photo's reading left as ``?`` (a space, a chip count):
            one problem per field, at its ``?`` (exit status 1, as when the photo itself is verified).
    """
    unsure: list[Problem] = []
    chips = doc.data.get("chips")
    if isinstance(chips, dict) and any(chips.get(k) == UNSURE for k in ("earned", "spent")):
        for k in ("earned", "spent"):
            if chips.get(k) == UNSURE:
                unsure.append(doc.problem(("chips", k), _unsure_message(f"chips.{k}", "the number of circles filled")))
        doc = replace(doc, data={**doc.data, "chips": {k: (0 if v == UNSURE else v) for k, v in chips.items()}})
    spec = validate(TypedSheetSpec, doc)
    if spec.game != "allin":
        raise InputError([doc.problem(("game",), f"this is a sheet of game '{spec.game}'; expected 'allin'")])
    layout_path = find_layout(spec.layout, path)
    if layout_path is None:
        raise InputError([doc.problem(("layout",), unknown_layout(spec.layout))])
    layout = load_layout(layout_path)
    problems: list[Problem] = []
    where: dict[str, tuple[str, int, int]] = {}
    cards = _read_grid(spec.grid, layout, doc, problems, where, unsure)
    # the player is named after the file
    if spec.player is None and (name_problem := text_problem(path.stem, "the file name")):
        problems.append(doc.problem((), f"{name_problem[:-1]}; rename the file or add a 'player:' line)"))
    if problems:
        raise InputError(problems)
    if unsure:
        raise FindingsError(sorted(unsure, key=lambda p: (p.line, p.col)))
    for name, path_key in (
        ("grid", ("grid",)),
        ("chips.earned", ("chips", "earned")),
        ("chips.spent", ("chips", "spent")),
    ):
        at = doc.pos(path_key)
        where[name] = (doc.file, at.line, at.col)
    return FilledSheet(
        layout=layout,
        player=spec.player or path.stem,
        cards=cards,
        chips_earned=spec.chips.earned,
        chips_spent=spec.chips.spent,
        where=where,
    )


def _read_grid(
    text: str,
    layout: AllInLayout,
    doc: Document,
    problems: list[Problem],
    where: dict[str, tuple[str, int, int]],
    unsure: list[Problem],
) -> dict[tuple[int, int], Card]:
    """The cards of the ``grid:`` block by position; problems appended (``unsure``: a space left ``?`` by a
    photo's reading); ``where`` gets each card space's token position."""
    grid = layout.grid
    lines = text.split("\n")
    rows = [(i, ln) for i, ln in enumerate(lines) if ln.strip()]
    cards: dict[tuple[int, int], Card] = {}

    def at(line: int, char: int, message: str) -> Problem:
        pos = doc.block_text_pos(("grid",), line, char)
        return Problem(doc.file, pos.line, pos.col, message)

    if len(rows) != grid.rows:
        extra = rows[grid.rows][0] if len(rows) > grid.rows else None
        msg = (
            f"grid: {len(rows)} rows, but layout '{layout.id}' has {grid.rows} rows of {grid.cols} positions; "
            "write one line per row, '-' where the layout has no space"
        )
        problems.append(at(extra, 0, msg) if extra is not None else doc.problem(("grid",), msg))
    golden_codes = {"G", layout.golden.code}
    for r, (i, ln) in enumerate(rows[: grid.rows]):
        tokens = list(_TOKEN.finditer(ln))
        if len(tokens) != grid.cols:
            problems.append(
                at(
                    i,
                    tokens[-1].start() if len(tokens) > grid.cols else 0,
                    f"grid row {r + 1}: {len(tokens)} tokens, but layout '{layout.id}' has {grid.cols} positions per "
                    "row "
                    "(a card code, '.' for empty, G for the Golden Card, '-' for no space)",
                )
            )
            continue
        for c, tok in enumerate(tokens):
            coord = (c, r)
            word = tok.group()
            cell = grid.cells.get(coord)
            name = cell_name(coord)
            here = (i, tok.start())
            if cell is None:
                if word != "-":
                    problems.append(
                        at(*here, f"'{word}' at {name}, where layout '{layout.id}' has no card space; write '-'")
                    )
                continue
            if cell.kind == "golden":
                if _canon(word) not in golden_codes:
                    problems.append(
                        at(*here, f"'{word}' at {name}, over the Golden Card ({layout.golden.code}); write G there")
                    )
                continue
            pos = doc.block_text_pos(("grid",), *here)
            where[name] = (doc.file, pos.line, pos.col)
            if word == ".":
                continue
            if word == UNSURE:
                unsure.append(
                    at(
                        *here,
                        _unsure_message(name, "the card written there (a code such as QH, or '.' if it is empty)"),
                    )
                )
                continue
            if word == "-":
                problems.append(at(*here, f"'-' at {name}, which is a card space; write '.' if it is empty"))
                continue
            if word.upper() == "G":
                problems.append(at(*here, f"'G' at {name}; the Golden Card is at {cell_name(layout.golden_coord)}"))
                continue
            try:
                card = parse_card(word)
            except CardCodeError as exc:
                problems.append(at(*here, f"{name}: {exc}"))
                continue
            if card.is_joker:
                problems.append(at(*here, f"{name}: a Joker is never written on a sheet; write the card it stood for"))
                continue
            cards[coord] = card
    return cards


def _canon(word: str) -> str:
    if word.upper() == "G":
        return "G"
    try:
        return parse_card(word).code
    except CardCodeError:
        return word
