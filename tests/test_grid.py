"""Grid parsing: cells, links, starting spaces, the golden cell, hand runs and letters.

Every expected value below was worked out by hand from the drawings.
"""

from generator.games.allin.grid import cell_name, golden_ring, parse_grid

from .grids import Q_DIAMONDS_GRID

Q_DIAMONDS = Q_DIAMONDS_GRID


def names(coords):
    return [cell_name(c) for c in coords]


def runs(grid):
    return {h.letter: (h.orientation, names(h.cells)) for h in grid.hands}


def test_design_md_example_grid():
    grid, issues = parse_grid(Q_DIAMONDS)
    assert issues == []
    assert (grid.cols, grid.rows) == (5, 5)
    assert len(grid.cells) == 25
    assert len(grid.writable) == 24
    assert names(grid.starts) == ["a1", "e5"]
    assert names(grid.golden) == ["c3"]
    assert grid.linked((0, 0), (1, 0)) and not grid.linked((3, 0), (4, 0))
    assert grid.linked((4, 0), (4, 1)) and not grid.linked((2, 0), (2, 1))
    assert not grid.linked((1, 3), (1, 4)) and not grid.linked((0, 4), (1, 4))
    # horizontal links per cell line: 3 + 4 + 4 + 4 + 3; vertical per link line: 4 + 5 + 5 + 4
    assert len(grid.links) == 18 + 18
    assert runs(grid) == {
        "A": ("row", ["a1", "b1", "c1", "d1"]),
        "B": ("row", ["a2", "b2", "c2", "d2", "e2"]),
        "C": ("row", ["a3", "b3", "c3", "d3", "e3"]),
        "D": ("row", ["a4", "b4", "c4", "d4", "e4"]),
        "E": ("row", ["b5", "c5", "d5", "e5"]),
        "F": ("column", ["a1", "a2", "a3", "a4", "a5"]),
        "G": ("column", ["b1", "b2", "b3", "b4"]),
        "H": ("column", ["c2", "c3", "c4", "c5"]),
        "I": ("column", ["d1", "d2", "d3", "d4", "d5"]),
        "J": ("column", ["e1", "e2", "e3", "e4", "e5"]),
    }


def test_holes_and_broken_rows():
    text = """\
o---o   o---*
|       |
o   G---o---o
        |   |
*---o---o   o
"""
    grid, issues = parse_grid(text)
    assert issues == []
    assert (grid.cols, grid.rows) == (4, 3)
    # a hole at a2's right (no link), b1-c1 not linked, b2 empty is a G
    assert sorted(names(grid.cells)) == sorted(["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "d3"])
    assert names(grid.golden) == ["b2"]
    assert runs(grid) == {
        "A": ("row", ["a1", "b1"]),
        "B": ("row", ["c1", "d1"]),
        "C": ("row", ["b2", "c2", "d2"]),
        "D": ("row", ["a3", "b3", "c3"]),
        "E": ("column", ["a1", "a2"]),
        "F": ("column", ["c1", "c2", "c3"]),
        "G": ("column", ["d2", "d3"]),
    }
    # a2 is linked only upward; d1 is linked to nothing below
    assert grid.neighbours((0, 1)) == [(0, 0)]
    assert grid.neighbours((3, 0)) == [(2, 0)]


def test_lone_cells_and_gaps_in_columns_make_separate_runs():
    text = """\
o---o---o
|       |
o   o   o
|   |
o   o---o
    |   |
o---o   o
"""
    grid, issues = parse_grid(text)
    assert issues == []
    assert runs(grid) == {
        "A": ("row", ["a1", "b1", "c1"]),
        "B": ("row", ["b3", "c3"]),
        "C": ("row", ["a4", "b4"]),
        "D": ("column", ["a1", "a2", "a3"]),
        "E": ("column", ["b2", "b3", "b4"]),
        "F": ("column", ["c1", "c2"]),
        "G": ("column", ["c3", "c4"]),
    }
    assert grid.starts == [] and grid.golden == []


def test_reachability_follows_links_and_skips_the_golden_card():
    text = """\
*---o---G---o
            |
*---o       o
"""
    grid, issues = parse_grid(text)
    assert issues == []
    # d1 and d2 are only reachable through the Golden Card at c1
    assert sorted(names(grid.reachable())) == ["a1", "a2", "b1", "b2"]
    assert sorted(names(grid.reachable(through_golden=True))) == ["a1", "a2", "b1", "b2", "d1", "d2"]


def test_malformed_lines_are_located():
    text = "o--o\n|\no-x-o\n  |\no\n"
    grid, issues = parse_grid(text)
    found = {(i.line, i.char) for i in issues}
    assert (0, 1) in found or (0, 3) in found  # a two-dash link / off-lattice 'o'
    assert (2, 2) in found  # 'x' in a link
    assert (3, 2) in found  # '|' off the lattice
    assert all(i.message for i in issues)


def test_grid_ending_on_a_link_line():
    _, issues = parse_grid("o---o\n|   |\n")
    assert [(i.line, i.message.startswith("the grid ends on a link line")) for i in issues] == [(1, True)]


def test_link_to_nothing():
    _, issues = parse_grid("o---\n")
    assert len(issues) == 1 and issues[0].char == 1 and "join two cells" in issues[0].message


def test_golden_ring_is_the_eight_neighbours():
    assert sorted(golden_ring((2, 2))) == sorted([(1, 1), (2, 1), (3, 1), (1, 2), (3, 2), (1, 3), (2, 3), (3, 3)])
