"""One test per layout validation rule: the message and the FILE:LINE:COL it names.

Line and column numbers are counted by hand in BASE below (1-based; the grid
block is indented by two spaces, so grid character k sits at column k + 3).
"""

from __future__ import annotations

import pytest

from generator.core.errors import InputError
from generator.games.allin.layout import load_allin_layout

from .grids import Q_DIAMONDS_GRID, indented

BASE = (
    """\
game: allin
id: test-sheet
golden: QD
grid: |
"""
    + indented(Q_DIAMONDS_GRID)
    + """
hands:
  A: {reward: single, bonus: 2}
  B: {reward: double, bonus: 4}
  C: {reward: double, bonus: 3}
  D: {reward: double, bonus: 4}
  E: {reward: single, bonus: 2}
  F: {reward: double, bonus: 4}
  G: {reward: single, bonus: 2}
  H: {reward: single, bonus: 2}
  I: {reward: double, bonus: 3}
  J: {reward: single, bonus: 3}
"""
)


def with_line(n: int, text: str, base: str = BASE) -> str:
    """BASE with its line n (1-based) replaced by ``text``."""
    lines = base.splitlines()
    lines[n - 1] = text
    return "\n".join(lines) + "\n"


def problems_of(tmp_path, text: str):
    path = tmp_path / "sheet.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_allin_layout(path, display="sheet.yaml")
    return exc.value.problems


def located(problems):
    return [(p.line, p.col, p.severity, p.message) for p in problems]


def test_base_layout_is_valid(tmp_path):
    path = tmp_path / "test-sheet.yaml"
    path.write_text(BASE, encoding="utf-8")
    layout = load_allin_layout(path)
    assert layout.id == "test-sheet" and layout.name == "Q♦" and layout.spaces == 24
    assert layout.warnings == []
    # singles A E G H J and doubles B C D F I -> 5 * 1 + 5 * 2 chip circles by default
    assert layout.chips == 15


def test_unknown_top_level_key(tmp_path):
    probs = problems_of(tmp_path, with_line(2, "colour: red"))
    assert [(p.line, p.col) for p in probs] == [(2, 1)]
    assert "unknown key 'colour'" in probs[0].message
    assert str(probs[0]).startswith("sheet.yaml:2:1: error: unknown key 'colour'")


def test_unknown_key_in_a_hand(tmp_path):
    probs = problems_of(tmp_path, with_line(15, "  A: {reward: single, bonus: 2, chips: 1}"))
    assert [(p.line, p.col) for p in probs] == [(15, 33)]
    assert "unknown key 'chips' in hands.A" in probs[0].message


def test_bad_golden_card_code(tmp_path):
    probs = problems_of(tmp_path, with_line(3, "golden: QX"))
    assert [(p.line, p.col) for p in probs] == [(3, 9)]
    assert "'QX' is not a card code" in probs[0].message


def test_golden_card_cannot_be_a_joker(tmp_path):
    probs = problems_of(tmp_path, with_line(3, "golden: JK"))
    assert (probs[0].line, probs[0].col) == (3, 9) and "not a Joker" in probs[0].message


def test_missing_hand_letter(tmp_path):
    text = BASE.replace("  J: {reward: single, bonus: 3}\n", "")
    probs = problems_of(tmp_path, text)
    assert [(p.line, p.col) for p in probs] == [(14, 1)]
    assert "hand 'J' (the column e1–e5) has no entry" in probs[0].message


def test_extra_hand_letter(tmp_path):
    probs = problems_of(tmp_path, BASE + "  K: {reward: single, bonus: 2}\n")
    assert [(p.line, p.col) for p in probs] == [(25, 3)]
    assert "hand 'K' is not in the grid, which has 10 hands (A–J)" in probs[0].message


def test_bad_reward_value(tmp_path):
    probs = problems_of(tmp_path, with_line(16, "  B: {reward: triple, bonus: 4}"))
    assert [(p.line, p.col) for p in probs] == [(16, 15)]
    assert "hands.B.reward must be 'single' or 'double'" in probs[0].message


def test_golden_card_without_all_eight_neighbours(tmp_path):
    text = with_line(7, "  o---o       o---o")  # c2 becomes a hole
    text = with_line(8, "  |   |       |   |", text)  # and loses its link to the Golden Card
    probs = [p for p in problems_of(tmp_path, text) if "Golden Card" in p.message]
    assert [(p.line, p.col) for p in probs] == [(9, 11)]
    assert "Golden Card needs a card space on all 8 sides" in probs[0].message
    assert probs[0].message.endswith("missing: c2")


def test_fewer_than_two_starting_spaces(tmp_path):
    probs = problems_of(tmp_path, with_line(13, "  o   o---o---o---o"))
    assert [(p.line, p.col) for p in probs] == [(4, 7)]
    assert "1 starting space(s)" in probs[0].message and "at least 2" in probs[0].message


def test_space_unreachable_from_the_starting_spaces(tmp_path):
    probs = problems_of(tmp_path, with_line(6, "  |   |       |"))  # e1 loses its only link
    assert [(p.line, p.col) for p in probs] == [(5, 19)]
    assert "space e1 cannot be reached from a starting space" in probs[0].message


def test_space_reachable_only_through_the_golden_card(tmp_path):
    text = """\
game: allin
golden: 5S
grid: |
  *---o   o   o---o
  |   |   |   |   |
  o---o   o   o---o
  |   |   |   |   |
  o---o---G---o---o
  |   |       |   |
  o---o---o---o---*
hands: {}
"""
    probs = [p for p in problems_of(tmp_path, text) if "cannot be reached" in p.message]
    # c1 and c2 hang on the Golden Card alone, which does not count as a written card
    assert [(p.line, p.col, p.message.split(" cannot")[0]) for p in probs] == [
        (4, 11, "grid: space c1"),
        (6, 11, "grid: space c2"),
    ]


def test_two_golden_cards(tmp_path):
    probs = problems_of(tmp_path, with_line(7, "  o---G---o---o---o"))
    second = [p for p in probs if "a second 'G'" in p.message]
    assert [(p.line, p.col) for p in second] == [(9, 11)]
    assert "first is at b2" in second[0].message


def test_malformed_grid_line(tmp_path):
    probs = problems_of(tmp_path, with_line(7, "  o---o-x-o---o---o"))
    first = probs[0]
    assert (first.line, first.col) == (7, 9)
    assert "unexpected 'x'" in first.message


def test_yaml_syntax_error_names_the_real_line(tmp_path):
    probs = problems_of(tmp_path, with_line(18, "  D: reward: double"))
    assert [p.line for p in probs] == [18]
    assert "YAML syntax error" in probs[0].message


def test_duplicate_key(tmp_path):
    probs = problems_of(tmp_path, with_line(2, "golden: KS"))
    assert [(p.line, p.col) for p in probs] == [(3, 1)]
    assert "key 'golden' appears twice" in probs[0].message


def test_missing_golden_key(tmp_path):
    probs = problems_of(tmp_path, with_line(3, "# no golden card"))
    assert len(probs) == 1 and probs[0].line == 1 and "missing key 'golden'" in probs[0].message


def test_unknown_template(tmp_path):
    probs = problems_of(tmp_path, with_line(2, "extends: fancy-sheet"))
    assert [(p.line, p.col) for p in probs] == [(2, 10)]
    assert "template 'fancy-sheet' not found" in probs[0].message


def test_bad_style_override_is_located_in_the_layout(tmp_path):
    probs = problems_of(tmp_path, with_line(2, "style: {ink: blue, card_widht: 20}"))
    assert sorted((p.line, p.col, p.message.split(";")[0]) for p in probs) == [
        (2, 14, "style.ink must be a colour like '#1d2b45', not 'blue'"),
        (2, 20, "unknown key 'card_widht' in style"),
    ]


def test_not_24_spaces_is_only_a_warning(tmp_path):
    text = with_line(13, "      o---o---o---*")  # a5 gone: 23 writable spaces
    text = with_line(12, "          |   |   |", text)
    path = tmp_path / "test-sheet.yaml"
    path.write_text(text, encoding="utf-8")
    layout = load_allin_layout(path, display="test-sheet.yaml")
    assert [(w.line, w.col, w.severity) for w in layout.warnings] == [(4, 7, "warning")]
    assert "23 writable spaces" in layout.warnings[0].message


def test_every_problem_is_reported_in_one_pass(tmp_path):
    text = with_line(3, "golden: 1D")
    text = with_line(2, "colours: 3", text)
    text = with_line(7, "  o---o-x-o---o---o", text)
    probs = problems_of(tmp_path, text)
    assert {p.line for p in probs} >= {2, 3, 7}


def warnings_of(tmp_path, text: str, name: str = "test-sheet.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return [(w.line, w.col, w.message) for w in load_allin_layout(path, display=name).warnings]


def test_id_other_than_the_file_name_warns(tmp_path):
    ((line, col, msg),) = warnings_of(tmp_path, BASE, name="my-copy.yaml")
    assert (line, col) == (2, 5) and "id 'test-sheet' differs from the file name 'my-copy'" in msg


def test_name_of_another_card_warns(tmp_path):
    ((line, col, msg),) = warnings_of(tmp_path, with_line(2, "name: 'Q♦'").replace("golden: QD", "golden: 5C"))
    assert (line, col) == (2, 7) and "name 'Q♦' names another card than the Golden Card 5♣" in msg


def test_fewer_chip_circles_than_can_be_earned_warns(tmp_path):
    ((line, col, msg),) = warnings_of(tmp_path, BASE + "chips: 5\n")
    # singles A E G H J = 5 chips, doubles B C D F I = 5 x 2 chips: 15 in all
    assert (line, col) == (25, 8) and "5 chip circles, but a player can earn up to 15" in msg


def test_lowercase_hand_letter_is_explained(tmp_path):
    probs = problems_of(tmp_path, BASE.replace("  J: {reward", "  j: {reward"))
    assert any(p.line == 24 and "hand letters are capitals ('J')" in p.message for p in probs)


def test_misspelt_key_suggests_the_right_one(tmp_path):
    probs = problems_of(tmp_path, with_line(15, "  A: {rewad: single, bonus: 2}"))
    assert any(p.line == 15 and "unknown key 'rewad' in hands.A; did you mean 'reward'?" in p.message for p in probs)


def test_a_slipped_grid_line_reports_only_the_slip(tmp_path):
    probs = problems_of(tmp_path, with_line(9, "   o---o---G---o---o"))  # one space too many
    assert len(probs) == 1
    assert (probs[0].line, probs[0].col) == (9, 4)
    assert "off the lattice" in probs[0].message and "move it 1 character left" in probs[0].message


def test_two_dash_link_is_pointed_at(tmp_path):
    probs = problems_of(tmp_path, with_line(11, "  o---o--o---o---o"))
    assert probs[0].line == 11 and probs[0].col in (8, 9, 10)


def test_golden_written_as_a_number_gets_the_card_code_message(tmp_path):
    probs = problems_of(tmp_path, with_line(3, "golden: 10"))
    assert [(p.line, p.col) for p in probs] == [(3, 9)] and "'10' is not a card code" in probs[0].message
