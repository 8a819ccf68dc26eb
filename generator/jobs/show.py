"""What a layout holds, as a player and a designer see it (``sheetsmith show``, ``sheetsmith layouts --json``).

Jobs (plain data out, nothing printed):

* :func:`show_item` – one item: for an All In sheet the grid (cells, starting
  spaces, the Golden Card), every hand (letter, cells, length, reward, bonus)
  and the counts a designer balances (spaces, hands of each length, chip track);
  for decks, chip sheets and pads a short description;
* :func:`grid_picture` – the grid as lines of text, the way the sheet draws it:
  row hands' letters right of their last space, column hands' letters under it;
* :func:`shipped_items` – every shipped item with its kind, game, paper sizes and file.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

PITCH = 8
"""Characters per lattice column in :func:`grid_picture`: a space ``[   ]`` (5) and a link ``───`` (3)."""
ROW_LABEL = 4
"""Characters before the first column: the row number, right-aligned, and a blank."""

KINDS = {"AllInLayout": "allin-layout", "Deck": "deck", "ChipSheet": "chips"}
"""Kind names of items by their class (pads use their own ``kind:``: pad, tick-pad, ledger)."""


def item_kind(item: Any) -> str:
    """``allin-layout``, ``deck``, ``chips``, ``pad``, ``tick-pad`` or ``ledger``."""
    return KINDS.get(type(item).__name__) or item.kind


def span(cells: list[str]) -> str:
    """Cells of a hand as a spreadsheet range: ``["a1", "b1", "c1"]`` → ``"a1–c1"``."""
    return f"{cells[0]}–{cells[-1]}"


def golden_label(card) -> str:
    """The Golden Card as printed: rank and suit symbol, ``Q♦``, ``10♥``."""
    from generator.core.cards import SUIT_SYMBOLS

    return f"{card.rank_label}{SUIT_SYMBOLS[card.suit]}"


def grid_picture(layout) -> list[str]:
    """An All In layout's grid as text lines (no colour), for a terminal.

    Each lattice position takes :data:`PITCH` characters: ``[   ]`` a card space,
    ``[ • ]`` a starting space, ``[Q♦ ]`` the Golden Card (its rank and suit),
    ``───`` and ``│`` the links.  A row hand's letter stands right of its last
    space, a column hand's letter under its last space, as on the printed sheet.
    Columns are headed ``a b c …`` and rows numbered ``1 2 3 …``.
    """
    from generator.games.allin.grid import cell_name

    grid = layout.grid
    width = ROW_LABEL + PITCH * grid.cols + 2
    row_letter = {h.cells[-1]: h.letter for h in layout.hands.values() if h.run.orientation == "row"}
    col_letter = {h.cells[-1]: h.letter for h in layout.hands.values() if h.run.orientation == "column"}
    golden = golden_label(layout.golden)
    header = [" "] * width
    for c in range(grid.cols):
        name = cell_name((c, 0))[:-1]
        x = ROW_LABEL + PITCH * c + 2
        header[x : x + len(name)] = name
    lines = ["".join(header).rstrip()]
    for r in range(grid.rows):
        cells = [" "] * width
        below = [" "] * width
        cells[:ROW_LABEL] = f"{r + 1:>{ROW_LABEL - 1}} "
        for c in range(grid.cols):
            x = ROW_LABEL + PITCH * c
            cell = grid.cells.get((c, r))
            if cell is not None:
                inner = {"space": "   ", "start": " • ", "golden": f"{golden:<3}"}[cell.kind]
                cells[x : x + 5] = f"[{inner}]"
            if grid.linked((c, r), (c + 1, r)):
                cells[x + 5 : x + 8] = "───"
            elif (c, r) in row_letter:
                cells[x + 6] = row_letter[(c, r)]
            if grid.linked((c, r), (c, r + 1)):
                below[x + 2] = "│"
            elif (c, r) in col_letter:
                below[x + 2] = col_letter[(c, r)]
        lines.append("".join(cells).rstrip())
        if "".join(below).strip() or r < grid.rows - 1:
            lines.append("".join(below).rstrip())
    while lines and not lines[-1]:
        lines.pop()
    return lines


def show_layout(layout, file: str) -> dict:
    """Everything :func:`show_item` reports about an All In layout, as JSON-ready data.

    Shape::

        {"kind": "allin-layout", "id", "name", "file", "description",
         "golden": {"card": "QD", "label": "Q♦", "cell": "c3"},
         "grid": {"columns": 5, "rows": 5},
         "starting_spaces": ["a1", "e5"],
         "hands": [{"letter": "A", "direction": "row", "cells": ["a1", …], "span": "a1–d1",
                    "length": 4, "golden": false, "reward": "single", "bonus": 2}, …],
         "counts": {"spaces": 24, "starting_spaces": 2, "hands": 10,
                    "hands_by_length": {"2": 0, "3": 1, …}, "single": 5, "double": 5,
                    "chip_track": 15, "chips_to_earn": 15},
         "picture": ["    a       b …", …]}

    ``length`` counts the hand's spaces, the Golden Card included; ``chips_to_earn``
    is the most one player can earn (1 per single hand, 2 per double hand).
    """
    from generator.games.allin.grid import cell_name

    g = layout.golden_coord
    hands = []
    for h in layout.hands.values():
        cells = [cell_name(c) for c in h.cells]
        hands.append(
            {
                "letter": h.letter,
                "direction": h.run.orientation,
                "cells": cells,
                "span": span(cells),
                "length": len(cells),
                "golden": g in h.cells,
                "reward": h.reward,
                "bonus": h.bonus,
            }
        )
    lengths = Counter(h["length"] for h in hands)
    longest = max(lengths, default=2)
    singles = sum(1 for h in hands if h["reward"] == "single")
    return {
        "kind": "allin-layout",
        "id": layout.id,
        "name": layout.name,
        "file": file,
        "description": layout.description,
        "golden": {"card": layout.golden.code, "label": golden_label(layout.golden), "cell": cell_name(g)},
        "grid": {"columns": layout.grid.cols, "rows": layout.grid.rows},
        "starting_spaces": [cell_name(c) for c in layout.grid.starts],
        "hands": hands,
        "counts": {
            "spaces": layout.spaces,
            "starting_spaces": len(layout.grid.starts),
            "hands": len(hands),
            "hands_by_length": {str(n): lengths.get(n, 0) for n in range(2, longest + 1)},
            "single": singles,
            "double": len(hands) - singles,
            "chip_track": layout.chips,
            "chips_to_earn": sum(h.max_chips for h in layout.hands.values()),
        },
        "picture": grid_picture(layout),
    }


def show_item(ref: str | Path) -> tuple[dict, list]:
    """Read one item (a shipped id or a YAML file) and describe it for ``sheetsmith show``.

    Returns:
        ``(data, warnings)``: the description (:func:`show_layout` for an All In sheet;
        ``kind``, ``id``, ``name``, ``file``, ``summary`` and a few facts for other items)
        and the item's warnings (:class:`~generator.core.errors.Problem`).

    Raises:
        InputError: the item cannot be read or has errors (located ``FILE:LINE:COL``).
    """
    from generator.core.paths import display_path
    from generator.core.shipped import resolve_layout
    from generator.games.registry import describe, load_any

    path = resolve_layout(str(ref))
    item = load_any(path, command="render")
    file = display_path(Path(path))
    kind = item_kind(item)
    if kind == "allin-layout":
        return show_layout(item, file), list(item.warnings)
    title, summary = describe(item)
    data: dict[str, Any] = {
        "kind": kind,
        "id": item.id,
        "name": title,
        "file": file,
        "game": item.game,
        "description": item.description,
        "summary": summary,
    }
    if kind == "deck":
        data["cards"] = len(item.faces)
        data["card_size"] = {"id": item.size_id, "width_mm": item.width, "height_mm": item.height}
    elif kind == "chips":
        data["chips"] = dict(sorted(Counter(str(c.value) for c in item.chips).items(), key=lambda kv: float(kv[0])))
        data["diameter_mm"] = item.diameter
    else:
        data.update(players=item.players, rounds=item.rounds, orientation=item.orientation)
    return data, list(item.warnings)


def shipped_items() -> tuple[list[dict], list]:
    """Every shipped item for ``sheetsmith layouts --json``: id, kind, game, name, paper sizes, file, summary.

    ``file`` is relative to the sheetsmith checkout (``layouts/allin/q-diamonds.yaml``).

    Returns:
        ``(items, problems)``: an item that does not validate is listed with ``"valid": false``
        and its problems are returned.
    """
    from generator.core.paths import ROOT
    from generator.core.shipped import shipped_layouts
    from generator.jobs.check import check_files
    from generator.printing.paper import papers

    paper_ids = list(papers())
    shipped = shipped_layouts()
    rows, problems = [], []
    for s, checked in zip(shipped, check_files([x.path for x in shipped])):
        row: dict[str, Any] = {
            "id": s.id,
            "folder": s.game,
            "file": s.path.relative_to(ROOT).as_posix(),
            "papers": paper_ids,
        }
        if checked.ok:
            item = checked.item
            row.update(
                kind=item_kind(item),
                game=getattr(item, "game", "allin"),
                name=checked.title,
                summary=checked.summary,
                valid=True,
            )
        else:
            row["valid"] = False
            problems.extend(checked.problems)
        rows.append(row)
    return rows, problems
