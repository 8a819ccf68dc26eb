"""``sheetsmith show`` and ``sheetsmith layouts --json`` (issue 15, item 1).

Expected values are read off the grids by hand (DESIGN.md's Q♦ example names every hand).
"""

from __future__ import annotations

import json
from pathlib import Path

from generator.core.shipped import shipped_layouts

from .test_exit_codes import status

REPO = Path(__file__).resolve().parents[1]

Q_DIAMONDS_PICTURE = """\
      a       b       c       d       e
  1 [ • ]───[   ]───[   ]───[   ] A [   ]
      │       │               │       │
  2 [   ]───[   ]───[   ]───[   ]───[   ] B
      │       │       │       │       │
  3 [   ]───[   ]───[Q♦ ]───[   ]───[   ] C
      │       │       │       │       │
  4 [   ]───[   ]───[   ]───[   ]───[   ] D
      │       G       │       │       │
  5 [   ]   [   ]───[   ]───[   ]───[ • ] E
      F               H       I       J"""

Q_DIAMONDS_HANDS = [  # letter, span, length, with the Golden Card, reward, bonus (layouts/allin/q-diamonds.yaml)
    ("A", "a1–d1", 4, False, "single", 2),
    ("B", "a2–e2", 5, False, "double", 4),
    ("C", "a3–e3", 5, True, "double", 3),
    ("D", "a4–e4", 5, False, "double", 4),
    ("E", "b5–e5", 4, False, "single", 2),
    ("F", "a1–a5", 5, False, "double", 4),
    ("G", "b1–b4", 4, False, "single", 2),
    ("H", "c2–c5", 4, True, "single", 2),
    ("I", "d1–d5", 5, False, "double", 3),
    ("J", "e1–e5", 5, False, "single", 3),
]


def test_show_json_of_q_diamonds(tmp_path, capsys):
    code, out, err = status(["show", "q-diamonds", "--json"], tmp_path, capsys)
    assert code == 0 and not err
    data = json.loads(out)
    assert data["id"] == "q-diamonds" and data["name"] == "Q♦" and data["kind"] == "allin-layout"
    assert data["golden"] == {"card": "QD", "label": "Q♦", "cell": "c3"}
    assert data["grid"] == {"columns": 5, "rows": 5}
    assert data["starting_spaces"] == ["a1", "e5"]
    got = [(h["letter"], h["span"], h["length"], h["golden"], h["reward"], h["bonus"]) for h in data["hands"]]
    assert got == Q_DIAMONDS_HANDS
    assert data["hands"][7]["cells"] == ["c2", "c3", "c4", "c5"]
    # 25 lattice positions, every one a cell: 24 writable spaces and the Golden Card
    assert data["counts"] == {
        "spaces": 24,
        "starting_spaces": 2,
        "hands": 10,
        "hands_by_length": {"2": 0, "3": 0, "4": 4, "5": 6},
        "single": 5,
        "double": 5,
        "chip_track": 15,
        "chips_to_earn": 5 * 1 + 5 * 2,
    }
    assert "\n".join(data["picture"]) == Q_DIAMONDS_PICTURE


def test_show_prints_the_grid_the_hands_and_the_counts(tmp_path, capsys):
    code, out, _ = status(["show", "q-diamonds"], tmp_path, capsys)
    assert code == 0
    assert Q_DIAMONDS_PICTURE in out
    assert "│ H    │ c2–c5 (with Q♦) │      4 │ single: 1 chip to the first     │    +2 │" in out
    assert "24 writable spaces (2 starting), Golden Card at c3; 10 hands (4 of 4, 6 of 5 spaces)" in out
    assert "chip track 15 circles, a player can earn 15" in out


def test_show_counts_hands_by_length_on_j_clubs(tmp_path, capsys):
    # J♣: rows 1, 2, 4, 5 split into a hand of 2 and one of 3; row 3 and every column are hands of 5
    code, out, _ = status(["show", "j-clubs", "--json"], tmp_path, capsys)
    data = json.loads(out)
    assert data["counts"]["hands_by_length"] == {"2": 4, "3": 4, "4": 0, "5": 6}
    assert data["counts"]["chips_to_earn"] == 8 * 1 + 6 * 2


def test_show_a_users_file_with_a_golden_ten(tmp_path, capsys):
    text = (
        (REPO / "layouts" / "allin" / "10-hearts.yaml").read_text(encoding="utf-8").replace("id: 10-hearts", "id: mine")
    )
    (tmp_path / "mine.yaml").write_text(text, encoding="utf-8")
    code, out, err = status(["show", "mine.yaml", "--json"], tmp_path, capsys)
    assert code == 0 and not err
    data = json.loads(out)
    assert data["file"] == "mine.yaml" and data["id"] == "mine"
    # the Golden Card 10♥ fills its whole space: "[10♥]"
    assert "[   ]───[10♥]───[   ]" in data["picture"][5]


def test_show_of_a_broken_file_gives_located_errors(tmp_path, capsys):
    text = (
        (REPO / "layouts" / "allin" / "q-diamonds.yaml").read_text(encoding="utf-8").replace("golden: QD", "golden: QX")
    )
    (tmp_path / "bad.yaml").write_text(text, encoding="utf-8")
    code, out, err = status(["show", "bad.yaml"], tmp_path, capsys)
    assert code == 2 and "bad.yaml:8:9: error: golden: 'QX' is not a card code" in err and not out


def test_show_a_deck(tmp_path, capsys):
    code, out, _ = status(["show", "poker-deck", "--json"], tmp_path, capsys)
    data = json.loads(out)
    assert code == 0 and data["kind"] == "deck" and data["cards"] == 54  # 52 and two Jokers


def test_layouts_json_lists_every_shipped_item(tmp_path, capsys):
    code, out, _ = status(["layouts", "--json"], tmp_path, capsys)
    assert code == 0
    rows = {r["id"]: r for r in json.loads(out)}
    assert set(rows) == {s.id for s in shipped_layouts()}
    expected = {
        "q-diamonds": ("allin-layout", "allin"),
        "poker-deck": ("deck", "allin"),
        "flip7-deck": ("deck", "flip7"),
        "fundex-chips": ("chips", "fundex"),
        "flip7-pad": ("pad", "flip7"),
        "flip7-tick-pad": ("tick-pad", "flip7"),
        "fundex-ledger": ("ledger", "fundex"),
        "flipflop-ledger": ("ledger", "flipflop"),
    }
    for item_id, (kind, game) in expected.items():
        assert (rows[item_id]["kind"], rows[item_id]["game"]) == (kind, game), item_id
    for row in rows.values():
        assert row["papers"] == ["a4", "letter"] and row["valid"] is True
        assert (REPO / row["file"]).is_file() and row["file"] == f"layouts/{row['folder']}/{row['id']}.yaml"
