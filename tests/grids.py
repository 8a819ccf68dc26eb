"""Grid texts shared by several test files (drawn by hand; see DESIGN.md's example)."""

Q_DIAMONDS_GRID = """\
*---o---o---o   o
|   |       |   |
o---o---o---o---o
|   |   |   |   |
o---o---G---o---o
|   |   |   |   |
o---o---o---o---o
|       |   |   |
o   o---o---o---*
"""
"""The Q♦ sheet's grid: 5×5 lattice, 24 writable spaces, starting spaces a1 and e5, Golden Card c3."""

MIDDLE_ROWS = "\n".join(Q_DIAMONDS_GRID.splitlines()[2:7])
"""Lines 3-7 of the Q♦ grid: rows 2-4, full and fully linked, reused by grids that differ at the edges."""


def indented(grid: str, by: int = 2) -> str:
    """The grid's lines indented for a ``grid: |`` block."""
    return "\n".join(" " * by + line if line else line for line in grid.splitlines())
