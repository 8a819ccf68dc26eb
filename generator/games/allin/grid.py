"""The ASCII grid of an All In sheet layout (docs/layouts.md, "The grid").

Format, in short:

* Cells sit on even lines (0, 2, 4, …) at character columns 0, 4, 8, …:
  ``o`` a card space, ``*`` a starting card space (the dot), ``G`` the Golden
  Card, a blank for no space.
* ``---`` between two cells on a cell line links them; ``|`` on the odd line
  below a cell links it to the cell below.
* A hand is a maximal straight run of two or more linked cells.  Letters go
  to horizontal runs top to bottom, left to right, then to vertical runs left
  to right, top to bottom.
* Cells are named like spreadsheet cells: column letter ``a, b, …`` from the
  left, row number ``1, 2, …`` from the top.

This module is pure: text in, :class:`Grid` and :class:`GridIssue` out.
Positions in issues are relative to the grid text (0-based line and
character); the layout loader maps them into the YAML file.
"""

from __future__ import annotations

import string
from collections import deque
from dataclasses import dataclass, field
from typing import Literal

CellKind = Literal["space", "start", "golden"]
Coord = tuple[int, int]
"""A lattice position ``(col, row)``, both 0-based, ``(0, 0)`` top left."""

_CELL_CHARS = {"o": "space", "*": "start", "G": "golden"}
PITCH = 4
"""Characters between two lattice columns in the ASCII grid."""


def cell_name(coord: Coord) -> str:
    """Spreadsheet-style name of a lattice position: ``(0, 0)`` → ``'a1'``, ``(2, 4)`` → ``'c5'``."""
    col, row = coord
    letters = ""
    n = col + 1
    while n > 0:  # a, b, …, z, aa, ab, … as spreadsheets do
        n, rem = divmod(n - 1, 26)
        letters = string.ascii_lowercase[rem] + letters
    return f"{letters}{row + 1}"


@dataclass(frozen=True)
class Cell:
    """One lattice position that holds something.

    Attributes:
        coord: ``(col, row)``, 0-based.
        kind: ``"space"`` (write a card here), ``"start"`` (a space with the
            starting dot) or ``"golden"`` (the printed Golden Card).
    """

    coord: Coord
    kind: CellKind

    @property
    def name(self) -> str:
        """Spreadsheet-style name, e.g. ``'a1'``."""
        return cell_name(self.coord)

    @property
    def writable(self) -> bool:
        """True for card spaces a player writes in (not the Golden Card)."""
        return self.kind != "golden"


@dataclass(frozen=True)
class HandRun:
    """A hand: a maximal straight run of two or more linked cells.

    Attributes:
        letter: ``'A'``, ``'B'``, … in the module docstring's order (rows, then columns).
        orientation: ``"row"`` (horizontal run) or ``"column"`` (vertical run).
        cells: the run's positions, left to right or top to bottom.
    """

    letter: str
    orientation: Literal["row", "column"]
    cells: tuple[Coord, ...]

    @property
    def last(self) -> Coord:
        """The run's last cell (rightmost or lowest): its label is drawn past it."""
        return self.cells[-1]


@dataclass(frozen=True)
class GridIssue:
    """A problem in the grid text.

    Attributes:
        line: 0-based line of the grid text.
        char: 0-based character on that line.
        message: what is wrong.
    """

    line: int
    char: int
    message: str


@dataclass
class Grid:
    """A parsed grid.

    Attributes:
        cols, rows: lattice size (columns of cells, rows of cells).
        cells: position → :class:`Cell`, only where a cell exists.
        links: unordered linked pairs, each a ``frozenset`` of two positions.
        hands: the hand runs, lettered.
        source: (grid line, character) of each cell in the text, for messages.
    """

    cols: int
    rows: int
    cells: dict[Coord, Cell] = field(default_factory=dict)
    links: set[frozenset[Coord]] = field(default_factory=set)
    hands: list[HandRun] = field(default_factory=list)
    source: dict[Coord, tuple[int, int]] = field(default_factory=dict)

    def linked(self, a: Coord, b: Coord) -> bool:
        """True when a link line joins ``a`` and ``b``."""
        return frozenset((a, b)) in self.links

    def neighbours(self, coord: Coord) -> list[Coord]:
        """Positions linked to ``coord`` (placement adjacency follows links only)."""
        c, r = coord
        return [n for n in ((c - 1, r), (c + 1, r), (c, r - 1), (c, r + 1)) if self.linked(coord, n)]

    @property
    def writable(self) -> list[Coord]:
        """Card spaces a player writes in, row by row."""
        return sorted((k for k, v in self.cells.items() if v.writable), key=lambda k: (k[1], k[0]))

    @property
    def starts(self) -> list[Coord]:
        """Starting card spaces (``*``), row by row."""
        return sorted((k for k, v in self.cells.items() if v.kind == "start"), key=lambda k: (k[1], k[0]))

    @property
    def golden(self) -> list[Coord]:
        """Positions of ``G`` cells (a valid layout has exactly one)."""
        return sorted((k for k, v in self.cells.items() if v.kind == "golden"), key=lambda k: (k[1], k[0]))

    def reachable(self, *, through_golden: bool = False) -> set[Coord]:
        """Writable spaces reachable from the starting spaces along links.

        Args:
            through_golden: whether the printed Golden Card counts as a written
                card for placement (a referee's option, default no: docs/rules.md, All In, *The sheet*).
        """
        seen = set(self.starts)
        todo = deque(seen)
        while todo:
            here = todo.popleft()
            for n in self.neighbours(here):
                cell = self.cells.get(n)
                if cell is None or n in seen:
                    continue
                if cell.kind == "golden" and not through_golden:
                    continue
                seen.add(n)
                todo.append(n)
        return {c for c in seen if self.cells[c].writable}


def parse_grid(text: str) -> tuple[Grid, list[GridIssue]]:
    """Parse grid text into a :class:`Grid` and the issues found.

    The grid is returned even when there are issues (with whatever could be
    read), so that every problem is reported in one pass.

    Checks made here (the layout checks the rest): characters allowed, cells
    only at multiples of 4 on even lines, links exactly ``---`` between two
    cells, ``|`` only under a cell and above a cell, and the grid ending on
    a cell line.
    """
    issues: list[GridIssue] = []
    raw_lines = text.split("\n")
    while raw_lines and not raw_lines[-1].strip():
        raw_lines.pop()
    lead = 0
    while lead < len(raw_lines) and not raw_lines[lead].strip():
        lead += 1
    if lead == len(raw_lines):
        return Grid(0, 0), [GridIssue(0, 0, "the grid is empty; draw cells with o, * and G")]
    lines = [ln.rstrip() for ln in raw_lines]
    for i, ln in enumerate(lines):
        if "\t" in ln:
            issues.append(GridIssue(i, ln.index("\t"), "tab in the grid; use spaces"))
    # Work on the lines from the first non-blank one; keep indexes absolute for messages.
    body = list(range(lead, len(lines)))
    if len(body) % 2 == 0:
        last = body.pop()  # report it once, then read the grid without it
        issues.append(GridIssue(last, 0, "the grid ends on a link line; the last line must be a row of cells"))
    rows = (len(body) + 1) // 2
    width = max(len(lines[i]) for i in body[::2]) if body else 0
    cols = width // PITCH + 1 if width else 0
    grid = Grid(cols=cols, rows=rows)

    # Cells first.
    for r, i in enumerate(body[::2]):
        ln = lines[i]
        for j, ch in enumerate(ln):
            if j % PITCH == 0:
                if ch in _CELL_CHARS:
                    grid.cells[(j // PITCH, r)] = Cell((j // PITCH, r), _CELL_CHARS[ch])  # type: ignore[arg-type]
                    grid.source[(j // PITCH, r)] = (i, j)
                elif ch == "-" and ln[j - 3 : j] == "---":
                    issues.append(GridIssue(i, j, "a link is exactly three dashes '---'; this one is longer"))
                elif ch != " " and ch != "\t":
                    issues.append(GridIssue(i, j, _bad_char(ch, "a cell position (o, *, G or blank)")))
    # Horizontal links.
    for r, i in enumerate(body[::2]):
        ln = lines[i]
        for c in range(cols):
            seg = ln[c * PITCH + 1 : c * PITCH + PITCH]
            if not seg.strip():
                continue
            start = c * PITCH + 1
            if seg != "-" * (PITCH - 1):
                bad = next((k for k, ch in enumerate(seg) if ch != "-"), len(seg))
                ch = seg[bad] if bad < len(seg) else ""  # '' : the line ends inside the link ('--')
                if ch and ch in _CELL_CHARS and bad and seg[:bad] == "-" * bad:
                    msg = (
                        f"a link is exactly three dashes '---'; this one has {bad} ('{seg[:bad]}'), "
                        f"so the '{ch}' after it is off the lattice"
                    )
                elif ch and ch in _CELL_CHARS:
                    msg = _off_lattice(ch, start + bad)
                elif ch in ("-", " ", ""):
                    msg = "a link between two cells is exactly three dashes '---'"
                else:
                    msg = _bad_char(ch, "a link ('---' or blank)")
                issues.append(GridIssue(i, start + bad, msg))
                continue
            a, b = (c, r), (c + 1, r)
            if a not in grid.cells or b not in grid.cells:
                issues.append(GridIssue(i, start, "'---' must join two cells; a cell is missing at one end"))
                continue
            grid.links.add(frozenset((a, b)))
    # Vertical links.
    for r, i in enumerate(body[1::2]):
        ln = lines[i]
        if any(ch in ln for ch in "o*G") or "---" in ln:
            # Cells on a link line: an extra or missing line above shifted every line after it.
            blank = next((b for b in body[: body.index(i)][::2] if not lines[b].strip()), None)
            if blank is not None:
                cause = GridIssue(
                    blank,
                    0,
                    "this blank line shifts the grid: cell lines and link lines alternate; remove it "
                    "(an empty link line between two rows is fine, a blank cell line is not)",
                )
            else:
                cause = GridIssue(
                    i,
                    0,
                    "cells on a link line: cell lines and link lines alternate, so a line above is extra or missing",
                )
            keep = [x for x in issues if x.line < min(i, cause.line) and "must join" not in x.message]
            return grid, keep + [cause]
        for j, ch in enumerate(ln):
            if ch == " ":
                continue
            if ch != "|":
                if ch in "-o*G":
                    msg = f"'{ch}' on a link line; cells and '---' go on the even lines, only '|' here"
                else:
                    msg = _bad_char(ch, "a vertical link ('|' or blank)")
                issues.append(GridIssue(i, j, msg))
                continue
            if j % PITCH:
                issues.append(GridIssue(i, j, _off_lattice("|", j)))
                continue
            a, b = (j // PITCH, r), (j // PITCH, r + 1)
            if a not in grid.cells or b not in grid.cells:
                issues.append(GridIssue(i, j, "'|' must join a cell above to a cell below; one is missing"))
                continue
            grid.links.add(frozenset((a, b)))

    grid.hands = _hand_runs(grid)
    return grid, _root_causes(issues)


def _root_causes(issues: list[GridIssue]) -> list[GridIssue]:
    """Keep the issues a user should fix first.

    One slipped character makes several things wrong on its line and leaves
    the links above and below it dangling.  Keep the first real mistake on
    each line, and drop "link to nothing" issues next to a line that has one.
    """
    primary = [i for i in issues if "must join" not in i.message]
    first: dict[int, GridIssue] = {}
    for issue in sorted(primary, key=lambda i: (i.line, i.char)):
        first.setdefault(issue.line, issue)
    kept = list(first.values())
    for issue in issues:
        if "must join" in issue.message and not any(abs(issue.line - ln) <= 1 for ln in first):
            kept.append(issue)
    return sorted(kept, key=lambda i: (i.line, i.char))


def _off_lattice(ch: str, char: int) -> str:
    """Say how far ``ch`` at grid character ``char`` is from the nearest lattice column, and which way to move it."""
    off = char % PITCH
    if off <= PITCH // 2:
        fix = f"move it {off} character{'s' if off > 1 else ''} left"
    else:
        fix = f"move it {PITCH - off} character{'s' if PITCH - off > 1 else ''} right"
    what = "'|' must stand right under a cell" if ch == "|" else f"'{ch}' is off the lattice"
    return f"{what}: cells sit every 4 characters, in line with the grid's first column; {fix}"


def _bad_char(ch: str, where: str) -> str:
    if " " < ch < "\x7f":
        return f"unexpected '{ch}' in {where}"
    import unicodedata

    name = unicodedata.name(ch, "unnamed character")
    shown = f"{ch!r} " if ch.isprintable() else ""
    return f"unexpected {shown}(U+{ord(ch):04X} {name}) in {where}; type the plain ASCII character"


def _hand_runs(grid: Grid) -> list[HandRun]:
    """Hands in letter order: horizontal runs top→bottom, left→right; then vertical runs left→right, top→bottom."""
    runs: list[tuple[str, tuple[Coord, ...]]] = []
    for r in range(grid.rows):
        c = 0
        while c < grid.cols:
            run = [(c, r)]
            while grid.linked(run[-1], (run[-1][0] + 1, r)):
                run.append((run[-1][0] + 1, r))
            if len(run) >= 2:
                runs.append(("row", tuple(run)))
            c = run[-1][0] + 1
    for c in range(grid.cols):
        r = 0
        while r < grid.rows:
            run = [(c, r)]
            while grid.linked(run[-1], (c, run[-1][1] + 1)):
                run.append((c, run[-1][1] + 1))
            if len(run) >= 2:
                runs.append(("column", tuple(run)))
            r = run[-1][1] + 1
    letters = string.ascii_uppercase
    return [
        HandRun(letters[k] if k < len(letters) else f"?{k}", orient, cells)  # type: ignore[arg-type]
        for k, (orient, cells) in enumerate(runs)
    ]


def golden_ring(coord: Coord) -> list[Coord]:
    """The 8 lattice positions around ``coord`` (orthogonal and diagonal)."""
    c, r = coord
    return [(c + dc, r + dr) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dc, dr) != (0, 0)]
