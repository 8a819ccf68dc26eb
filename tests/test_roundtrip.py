"""Round trip: a typed-in sheet for every shipped layout, scored through ``sheetsmith verify --json``.

Each sheet is scored alone (a game of one: every hand that scores wins its
bonus). Totals worked out by hand from the layout files:

* q-diamonds: docs/examples/ann.yaml: hands 30 (see test_allin_sheet), bonuses of
  B C E F G H I J = 4+3+2+4+2+2+3+3 = 23, chips 6-2 = 4 -> 57.
* k-spades: A = A♥ A♦ A♣ three of a kind 6; B = 2♠ 3♦ 4♥ 5♣ 6♠ 9♣ (six spaces) a
  straight 8; bonuses A2 + B5; chips 3 -> 14 + 7 + 3 = 24.
* a-hearts: C = A♠ K♥ + the Golden A♥: a pair 2; F = 9♠ 9♦ a pair 2; bonuses C3 + F2;
  chips 1-1 -> 4 + 5 + 0 = 9.
* j-clubs: column L = 10♣ Q♣ J♣(golden) K♣ A♣ a straight flush 14; bonus 3; chips 2 -> 19.
* 10-hearts: D = 5♠ 5♥ 5♦ 5♣ 9♥ 9♠: four of a kind 12 beats the full house; bonus 5 -> 17.
* 7-diamonds: C = 7♠ 7♥ 7♦(golden) 8♣ 8♦ a full house 10; bonus 3; chips 4-1 = 3 -> 16.

Those five are fragments that exercise scoring, not sheets a game leaves
(starting spaces empty, cards apart, chips without a completed hand): verify
scores them as written, marks them impossible and exits 1.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from generator.core.shipped import shipped_layouts

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"

SHEETS = {
    "k-spades": (
        """\
AH  AD  AC  -   -   -
2S  3D  4H  5C  6S  9C
.   .   G   .   .   .
-   .   .   .   .   .
-   .   .   .   .   .""",
        (3, 0),
        {"A": ("three_of_a_kind", 6, 2), "B": ("straight", 8, 5)},
        24,
    ),
    "a-hearts": (
        """\
-   .   .   .   -
.   .   .   .   .
AS  KH  G   .   .
.   .   .   .   .
.   -   .   -   .
.   .   -   9S  9D""",
        (1, 1),
        {"C": ("pair", 2, 3), "F": ("pair", 2, 2)},
        9,
    ),
    "j-clubs": (
        """\
.   .   10C .   .
.   .   QC  .   .
.   .   G   .   .
.   .   KC  .   .
.   .   AC  .   .""",
        (2, 0),
        {"L": ("straight_flush", 14, 3)},
        19,
    ),
    "10-hearts": (
        """\
-   -   .   .   .   -
-   .   .   .   .   -
.   .   .   G   .   .
5S  5H  5D  5C  9H  9S
-   .   .   .   .   -
-   -   .   .   -   -""",
        (0, 0),
        {"D": ("four_of_a_kind", 12, 5)},
        17,
    ),
    "7-diamonds": (
        """\
.   .   .   .   .
.   .   .   .   .
7S  7H  G   8C  8D
.   .   .   .   .
.   .   .   .   .""",
        (4, 1),
        {"C": ("full_house", 10, 3)},
        16,
    ),
}


def test_every_shipped_layout_has_a_round_trip_sheet():
    assert {s.id for s in shipped_layouts() if s.game == "allin"} == set(SHEETS) | {"q-diamonds"}


def verify_json(*paths, cwd, exit_code=0):
    res = subprocess.run(
        [sys.executable, "-m", "generator.cli.app", "verify", *map(str, paths), "--json"],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )
    assert res.returncode == exit_code, res.stderr
    return json.loads(res.stdout)


@pytest.mark.parametrize("layout_id", sorted(SHEETS))
def test_round_trip(tmp_path, layout_id):
    grid, (earned, spent), scoring, total = SHEETS[layout_id]
    body = "\n".join("  " + line for line in grid.splitlines())
    (tmp_path / "p.yaml").write_text(
        f"game: allin\nlayout: {layout_id}\nplayer: P\ngrid: |\n{body}\nchips: {{earned: {earned}, spent: {spent}}}\n",
        encoding="utf-8",
    )
    data = verify_json("p.yaml", cwd=tmp_path, exit_code=1)  # a fragment: impossible, scored all the same
    (player,) = data["players"]
    assert player["impossible"] is True and data["problems"]
    got = {k: (h["category"], h["points"], h["bonus"]) for k, h in player["hands"].items() if h["points"]}
    assert got == scoring
    assert player["total"] == total
    assert data["winners"] == ["P"]


def test_round_trip_q_diamonds_example():
    data = verify_json("ann.yaml", cwd=EXAMPLES)
    assert data["players"][0]["total"] == 57


def test_three_player_game():
    """docs/examples: Ann, Bob and Cy on the Q♦ sheet, scored by hand.

    Cy: B three kings 6, D three 6s 6, F pair of kings 2, G pair of 6s 2, I three jacks 6,
    J three 3s 6 -> 28; chips 3-3 = 0.
    Best Scoring Hand with all three: A, D... A nobody; B Cy (trips > two pair); C Ann
    (queens); D Cy alone; E Ann alone; F Cy (kings > nines); G Bob (eights > sixes > fours);
    H Ann (three queens, ace kicker); I Cy (jacks > fours); J Ann (quads).
    Ann 30 + (3+2+2+3) + 4 = 44; Bob 28 + 2 + 4 = 34; Cy 28 + (4+4+4+3) + 0 = 43.
    """
    data = verify_json("ann.yaml", "bob.yaml", "cy.yaml", cwd=EXAMPLES)
    totals = {p["player"]: (p["hand_points"], p["bonus_points"], p["chips_left"], p["total"]) for p in data["players"]}
    assert totals == {"Ann": (30, 10, 4, 44), "Bob": (28, 2, 4, 34), "Cy": (28, 15, 0, 43)}
    winners_of = {
        letter: sorted(p["player"] for p in data["players"] if p["hands"][letter]["bonus"]) for letter in "ABCDEFGHIJ"
    }
    assert winners_of == {
        "A": [],
        "B": ["Cy"],
        "C": ["Ann"],
        "D": ["Cy"],
        "E": ["Ann"],
        "F": ["Cy"],
        "G": ["Bob"],
        "H": ["Ann"],
        "I": ["Cy"],
        "J": ["Ann"],
    }
    assert data["winners"] == ["Ann"]
