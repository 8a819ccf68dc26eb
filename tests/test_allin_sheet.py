"""Scoring typed-in All In sheets: hands, Best Scoring Hand, totals, winners, and input errors.

The example game (docs/examples/ann.yaml, bob.yaml on the Q♦ sheet) was
scored by hand, hand by hand:

Ann: A 10♠J♠Q♠K♠ nothing; B pair of 9s 2; C pair of queens (Q♦ is the Golden
Card) 2; D nothing; E pair of aces 2; F pair of 9s 2; G pair of 4s 2; H three
queens 6; I pair of 7s 2; J four 2s 12 -> 30 points; chips 6 - 2 = 4.
Bob: B two pair 4; C pair of 8s 2; G pair of 8s 2; H three queens 6; I three
4s 6; J straight 5-9 8 -> 28 points; a5 empty so F is incomplete; chips 5 - 1 = 4.
Best Scoring Hand (bonuses of the Q♦ layout A2 B4 C3 D4 E2 F4 G2 H2 I3 J3):
A, D nobody scores; B Bob (two pair > pair); C Ann (queens > eights);
E Ann alone; F Ann alone; G Bob (eights > fours); H both three queens, Ann's
other card A♣ beats Bob's 3♠; I Bob (trips > pair); J Ann (quads > straight).
Ann 3+2+4+2+3 = 14, Bob 4+2+3 = 9. Totals Ann 30+14+4 = 48, Bob 28+9+4 = 41.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from generator.core.cards import parse_card
from generator.core.errors import InputError
from generator.core.shipped import shipped_layouts
from generator.games.allin.filled import FilledSheet
from generator.games.allin.layout import load_layout
from generator.games.allin.scoring import report, score_game
from generator.games.allin.typed_sheet import load_allin_sheet

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
LAYOUTS = {s.id: s.path for s in shipped_layouts()}


def cards(grid: dict[str, str]):
    """{'a1': 'QH', ...} -> {(0, 0): Card}"""
    return {(ord(k[0]) - 97, int(k[1:]) - 1): parse_card(v) for k, v in grid.items()}


def test_example_game_scored_by_hand():
    ann = load_allin_sheet(EXAMPLES / "ann.yaml")
    bob = load_allin_sheet(EXAMPLES / "bob.yaml")
    game = score_game([ann, bob])
    a, b = game.players
    assert {k: h.points for k, h in a.hands.items()} == dict(A=0, B=2, C=2, D=0, E=2, F=2, G=2, H=6, I=2, J=12)
    assert {k: h.points for k, h in b.hands.items()} == dict(A=0, B=4, C=2, D=0, E=0, F=0, G=2, H=6, I=6, J=8)
    assert {k: h.bonus for k, h in a.hands.items() if h.bonus} == dict(C=3, E=2, F=4, H=2, J=3)
    assert {k: h.bonus for k, h in b.hands.items() if h.bonus} == dict(B=4, G=2, I=3)
    assert (a.hand_points, a.bonus_points, a.chips_left, a.total) == (30, 14, 4, 48)
    assert (b.hand_points, b.bonus_points, b.chips_left, b.total) == (28, 9, 4, 41)
    assert game.winners == ["Ann"]
    assert b.hands["F"].complete is False and a.hands["F"].complete is True
    assert [c.code for c in a.hands["H"].cards] == ["QH", "QD", "QS", "AC"]  # the Golden Card counts


def test_single_sheet_wins_every_bonus_it_scores():
    ann = load_allin_sheet(EXAMPLES / "ann.yaml")
    (a,) = score_game([ann]).players
    # every scoring letter: B4 C3 E2 F4 G2 H2 I3 J3
    assert a.bonus_points == 4 + 3 + 2 + 4 + 2 + 2 + 3 + 3


def test_full_tie_shares_bonus_and_win():
    lay = load_layout(LAYOUTS["q-diamonds"])
    grid = cards({"a1": "7S", "b1": "7H", "c1": "2C", "d1": "3D"})
    one = FilledSheet(lay, "One", grid, 2, 0)
    two = FilledSheet(lay, "Two", dict(grid), 2, 0)
    game = score_game([one, two])
    assert [p.hands["A"].bonus for p in game.players] == [2, 2]
    assert [p.total for p in game.players] == [2 + 2 + 2, 2 + 2 + 2]
    assert game.winners == ["One", "Two"]


def test_suits_never_break_a_tie_but_kickers_do():
    lay = load_layout(LAYOUTS["q-diamonds"])
    a = FilledSheet(lay, "A", cards({"a1": "7S", "b1": "7H", "c1": "KC", "d1": "3D"}))
    b = FilledSheet(lay, "B", cards({"a1": "7C", "b1": "7D", "c1": "KH", "d1": "3S"}))
    c = FilledSheet(lay, "C", cards({"a1": "7C", "b1": "7D", "c1": "QH", "d1": "3S"}))
    game = score_game([a, b, c])
    assert [p.hands["A"].bonus for p in game.players] == [2, 2, 0]


def test_tie_on_total_goes_to_most_chips_left():
    lay = load_layout(LAYOUTS["q-diamonds"])
    # X: a pair of 7s in A (2 points) and A's bonus (2, Y has nothing there) + 1 chip left = 5.
    x = FilledSheet(lay, "X", cards({"a1": "7S", "b1": "7H"}), 1, 0)
    # Y: nothing scores; 5 chips left = 5.
    y = FilledSheet(lay, "Y", {}, 5, 0)
    game = score_game([x, y])
    assert [p.total for p in game.players] == [5, 5]
    assert game.winners == ["Y"]


def test_report_has_exactly_the_documented_keys():
    # DESIGN.md "Verifier report" plus docs/formats.md: impossible per player, problems for the report
    game = score_game([load_allin_sheet(EXAMPLES / "ann.yaml")])
    rep = report(game)
    assert set(rep) == {"game", "layout", "players", "winners", "problems"}
    assert rep["game"] == "allin" and rep["layout"] == "q-diamonds" and rep["problems"] == []
    (p,) = rep["players"]
    assert set(p) == {"player", "hands", "hand_points", "bonus_points", "chips_left", "total", "impossible"}
    assert p["impossible"] is False
    assert p["hands"]["B"] == {
        "cards": ["9H", "9D", "QH", "5C", "2D"],
        "complete": True,
        "category": "pair",
        "points": 2,
        "bonus": 4,
    }
    assert p["hands"]["A"]["category"] is None
    assert p["hands"]["J"]["category"] == "four_of_a_kind"


def run(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "generator.cli.app", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def test_verify_json_on_stdout():
    res = run("verify", "ann.yaml", "bob.yaml", "--json", cwd=EXAMPLES)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert [(p["player"], p["total"]) for p in data["players"]] == [("Ann", 48), ("Bob", 41)]
    assert data["winners"] == ["Ann"]


def test_verify_table_ends_in_a_ranking():
    res = run("verify", "ann.yaml", "bob.yaml", cwd=EXAMPLES)
    assert res.returncode == 0
    tail = res.stdout[res.stdout.index("Ranking") :]
    assert tail.index("Ann") < tail.index("Bob") and "48" in tail and "41" in tail and "winner" in tail


# --- input errors: file, line and token ---------------------------------------------------

SHEET = """\
game: allin
layout: q-diamonds
player: Cy
grid: |
  10S JS  QS  KS  2H
  9H  9D  QH  5C  2D
  9C  4H  G   QC  2C
  3D  4D  QS  7H  2S
  AH  AD  AC  7S  8S
chips: {earned: 6, spent: 2}
"""


def sheet_problems(tmp_path, text, name="cy.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_allin_sheet(path, display=name)
    return [(p.line, p.col, p.message) for p in exc.value.problems]


def test_unknown_card_code(tmp_path):
    ((line, col, msg),) = sheet_problems(tmp_path, SHEET.replace("9D  QH", "9D  QX"))
    assert (line, col) == (6, 11) and msg.startswith("c2: 'QX' is not a card code")


def test_wrong_number_of_tokens(tmp_path):
    ((line, col, msg),) = sheet_problems(tmp_path, SHEET.replace("  3D  4D  QS  7H  2S", "  3D  4D  QS  7H"))
    assert line == 8 and "grid row 4: 4 tokens" in msg and "5 positions per row" in msg


def test_wrong_number_of_rows(tmp_path):
    ((line, col, msg),) = sheet_problems(tmp_path, SHEET.replace("  AH  AD  AC  7S  8S\n", ""))
    assert line == 4 and "4 rows, but layout 'q-diamonds' has 5 rows" in msg


def test_card_written_over_the_golden_card(tmp_path):
    ((line, col, msg),) = sheet_problems(tmp_path, SHEET.replace("4H  G ", "4H  KD"))
    assert (line, col) == (7, 11) and "over the Golden Card (QD)" in msg


def test_golden_card_may_be_written_as_its_code(tmp_path):
    path = tmp_path / "cy.yaml"
    path.write_text(SHEET.replace("4H  G ", "4H  q♦"), encoding="utf-8")
    assert load_allin_sheet(path).player == "Cy"


def test_card_on_a_position_without_a_space(tmp_path):
    text = """\
game: allin
layout: k-spades
player: Di
grid: |
  AS  .   .   -   -   KH
  .   .   .   .   .   .
  .   .   G   .   .   .
  -   .   .   .   .   .
  -   .   .   .   .   .
"""
    probs = sheet_problems(tmp_path, text, "di.yaml")
    assert probs == [(5, 23, "'KH' at f1, where layout 'k-spades' has no card space; write '-'")]


def test_dash_on_a_card_space(tmp_path):
    ((line, col, msg),) = sheet_problems(tmp_path, SHEET.replace("  AH  AD", "  -   AD"))
    assert (line, col) == (9, 3) and "'-' at a5, which is a card space" in msg


def test_chips_spent_above_earned_is_read_then_found_impossible_at_the_value(tmp_path):
    # Spending Poker Chips: only chips a player has can be spent. The sheet reads; the
    # plausibility check reports it at the 'spent' value, and the score is still computed.
    path = tmp_path / "cy.yaml"
    path.write_text(SHEET.replace("spent: 2", "spent: 7"), encoding="utf-8")
    sheet = load_allin_sheet(path, display="cy.yaml")
    (p,) = score_game([sheet]).players
    assert p.chips_left == -1 and p.impossible
    ((prob),) = p.problems
    assert (prob.cell, prob.rule, prob.at) == ("chips.spent", "chips-spent", ("cy.yaml", 10, 27))
    assert "7 chips spent but only 6 earned" in prob.message


def test_joker_on_a_sheet(tmp_path):
    ((line, col, msg),) = sheet_problems(tmp_path, SHEET.replace("  9C  4H", "  JK  4H"))
    assert (line, col) == (7, 3) and "Joker is never written" in msg


def test_unknown_layout(tmp_path):
    ((line, col, msg),) = sheet_problems(tmp_path, SHEET.replace("layout: q-diamonds", "layout: q-diamond"))
    assert (
        (line, col) == (2, 9)
        and "layout 'q-diamond' is neither a shipped id" in msg
        and "did you mean q-diamonds" in msg
    )


def test_different_layouts_in_one_game(tmp_path):
    (tmp_path / "cy.yaml").write_text(SHEET, encoding="utf-8")
    other = SHEET.replace("layout: q-diamonds", "layout: 7-diamonds").replace("player: Cy", "player: Eve")
    (tmp_path / "eve.yaml").write_text(other, encoding="utf-8")
    res = run("verify", "cy.yaml", "eve.yaml", cwd=tmp_path)
    assert res.returncode == 2  # the sheets cannot be one game: nothing is scored
    assert "eve.yaml:2:9: error: this sheet uses layout '7-diamonds' but cy.yaml uses 'q-diamonds'" in res.stderr
    assert res.stdout == ""
