"""Tests for generator.games.flip7.pad: typed-in Flip 7 score pads, their report and the table.

Every expected score is added up by hand from the rulebook's scoring rules
(numbers, x2 on the numbers only, +N, +15 for seven different numbers; bust 0),
and every error position is counted by hand in the YAML text of the test.
"""

from __future__ import annotations

import json
import textwrap

import pytest
from rich.console import Console

from generator.cli.tables import print_pad
from generator.core.errors import InputError
from generator.core.yamlpos import parse_yaml
from generator.games.flip7.pad import Pad, load_flip7_pad, pad_from_document, pad_report
from generator.games.flip7.rules import ScoreLine


@pytest.fixture
def pad(write_yaml):
    """Write a pad and read it."""

    def _pad(text: str) -> Pad:
        return load_flip7_pad(write_yaml(text, "pad.yaml"), display="pad.yaml")

    return _pad


@pytest.fixture
def errors(write_yaml):
    """Write a pad and return its structural errors as (line, col, message)."""

    def _errors(text: str) -> list[tuple[int, int, str]]:
        with pytest.raises(InputError) as exc:
            load_flip7_pad(write_yaml(text, "pad.yaml"), display="pad.yaml")
        for p in exc.value.problems:
            assert str(p).startswith(f"pad.yaml:{p.line}:{p.col}: error: ")
        return [(p.line, p.col, p.message) for p in exc.value.problems]

    return _errors


DESIGN_PAD = """
game: flip7
players: [Ann, Bob, Cy]
target: 200
rounds:
  - Ann: [3, 5, 7, 10, 11, x2]
    Bob: bust
    Cy: {score: 34}
  - Ann: {cards: [12, "+4"], score: 16}
    Bob: [0, 5]
    Cy: {cards: bust, score: 0}
"""


def test_design_example_scored_by_hand(pad):
    # The DESIGN.md example, with Bob and Cy's lines added to round 2 (every
    # player has a line every round).
    # Round 1: Ann (3+5+7+10+11) x 2 = 72; Bob bust 0; Cy written 34.
    # Round 2: Ann 12 + 4 = 16 (written 16: agrees); Bob 0 + 5 = 5; Cy bust 0.
    p = pad(DESIGN_PAD)
    assert p.players == ("Ann", "Bob", "Cy") and p.target == 200
    assert p.rounds[0]["Bob"] == ScoreLine(bust=True)
    assert p.rounds[1]["Ann"] == ScoreLine(cards=(12, "+4"), written=16)
    report = pad_report(p)
    assert report == {
        "game": "flip7",
        "decks": 1,
        "rounds": [{"Ann": 72, "Bob": 0, "Cy": 34}, {"Ann": 16, "Bob": 5, "Cy": 0}],
        "totals": {"Ann": 88, "Bob": 5, "Cy": 34},
        "status": "in_progress",
        "winners": [],
        "winner": None,
        "impossible": [],
        "problems": [],
        "warnings": [],
    }
    json.dumps(report)  # plain data


def test_game_finished_with_a_single_leader(pad):
    # 150 + 60 = 210 for Ann, 120 + 10 = 130 for Bob (cases file, second game).
    # The 150 before the last round is written as two rounds of 75: a single
    # round cannot score 150 (see the impossible-pad test below).
    p = pad(
        """
        game: flip7
        players: [Ann, Bob]
        rounds:
          - {Ann: {score: 75}, Bob: {score: 60}}
          - {Ann: {score: 75}, Bob: {score: 60}}
          - Ann: [12, 11, 10, 9, 8, "+10"]
            Bob: [10]
        """
    )
    # Ann 12+11+10+9+8 = 50, +10 = 60; Bob 10
    report = pad_report(p)
    assert report["rounds"][2] == {"Ann": 60, "Bob": 10}
    assert report["totals"] == {"Ann": 210, "Bob": 130}
    assert (report["status"], report["winners"], report["winner"]) == ("finished", ["Ann"], "Ann")


def test_tie_in_the_lead_plays_another_round(pad):
    # 156 + 47 = 203 and 178 + 25 = 203 (cases file, first game): tied past 200.
    # 156 and 178 are the totals before the last round, written as two rounds
    # each (78 + 78, 89 + 89): one round cannot score 156 or 178.
    text = """
        game: flip7
        players: [Ann, Bob]
        rounds:
          - {Ann: {score: 78}, Bob: {score: 89}}
          - {Ann: {score: 78}, Bob: {score: 89}}
          - Ann: [12, 11, 10, 8, 6]
            Bob: [10, 7, "+8"]
        """
    report = pad_report(pad(text))
    # Ann 12+11+10+8+6 = 47; Bob 10+7+8 = 25
    assert report["rounds"][2] == {"Ann": 47, "Bob": 25}
    assert report["totals"] == {"Ann": 203, "Bob": 203}
    assert (report["status"], report["winners"], report["winner"]) == ("tied_play_another_round", [], None)
    # The extra round is allowed and decides it: Ann 3, Bob bust.
    report = pad_report(pad(textwrap.dedent(text) + "  - {Ann: [3], Bob: bust}\n"))
    assert report["totals"] == {"Ann": 206, "Bob": 203}
    assert (report["status"], report["winner"]) == ("finished", "Ann")


def test_variant_target(pad):
    text = """
        game: flip7
        players: [Ann, Bob]
        target: 50
        rounds:
          - {Ann: [10, 12, 11, 9, "+10"], Bob: [2]}
        """
    # Ann 10+12+11+9+10 = 52 >= 50
    report = pad_report(pad(text))
    assert (report["totals"], report["status"], report["winner"]) == ({"Ann": 52, "Bob": 2}, "finished", "Ann")


def test_problems_are_reported_and_impossible_lines_hold_back_the_winner(pad):
    p = pad(
        """
        game: flip7
        players: [Ann, Bob, Cy]
        rounds:
          - Ann: {cards: [12, "+4"], score: 17}
            Bob: [9, 4, 9]
            Cy: {score: 150}
          - Ann: [1, 2]
            Bob: [1, x2]
            Cy: [1, 2, 3, 4, 5, 6, 7, 8]
        """
    )
    report = pad_report(p)
    # Round 1: Ann's cards make 12 + 4 = 16 (17 written: 16 counts); Bob shows
    # 9 twice: a bust, 0; Cy's 150 cannot be made but is what the pad says.
    # Round 2: Ann 3, Bob 1 x 2 = 2; Cy eight numbers (impossible): 36 + 15 = 51.
    assert report["rounds"] == [{"Ann": 16, "Bob": 0, "Cy": 150}, {"Ann": 3, "Bob": 2, "Cy": 51}]
    assert report["totals"] == {"Ann": 19, "Bob": 2, "Cy": 201}
    # Cy's 201 rests on two lines no game produces: no winner is named on it
    assert (report["status"], report["winners"], report["winner"]) == ("needs_correction", [], None)
    where = [(q["round"], q["player"]) for q in report["problems"]]
    assert where == [(1, "Ann"), (1, "Bob"), (1, "Cy"), (2, "Cy"), (2, None)]
    # Ann's mismatched written score is a problem, but her cards say what counts:
    # that line is not impossible; the others are
    assert [(q["round"], q["player"]) for q in report["impossible"]] == [(1, "Bob"), (1, "Cy"), (2, "Cy"), (2, None)]
    msgs = [q["message"] for q in report["problems"]]
    assert "written score 17" in msgs[0] and "16 counts" in msgs[0]
    assert "9 appears twice" in msgs[1]
    assert "no line of cards scores 150" in msgs[2]
    assert "8 number cards" in msgs[3]
    # three 1s in round 2 (Ann, Bob, Cy); the deck has one
    assert "the number 1 appears 3 times" in msgs[4] and "Ann, Bob, Cy" in msgs[4]


def test_two_flip7_in_one_round_and_shared_modifier(pad):
    report = pad_report(
        pad(
            """
            game: flip7
            players: [Ann, Bob]
            rounds:
              - Ann: [0, 1, 2, 3, 4, 5, 6, "+4"]
                Bob: [7, 8, 9, 10, 11, 12, 2, "+4"]
            """
        )
    )
    # Ann 21 + 4 + 15 = 40; Bob 59 + 4 + 15 = 78
    assert report["rounds"] == [{"Ann": 40, "Bob": 78}]
    msgs = [q["message"] for q in report["problems"] if q["player"] is None]
    assert len(msgs) == 2
    assert "Ann and Bob" in msgs[0] and "Flip 7" in msgs[0]
    assert "+4 appears twice" in msgs[1]


def test_unquoted_plus_modifier_is_a_modifier(pad):
    # YAML reads +4 as the number 4; the pad reads what was typed.
    # [4, +4] is 4 + 4 = 8, not a repeated 4 (a bust).
    report = pad_report(pad("game: flip7\nplayers: [Ann]\nrounds:\n  - {Ann: [4, +4, X2]}\n"))
    # (4) x 2 + 4 = 12
    assert report["rounds"] == [{"Ann": 12}] and report["problems"] == []


def test_card_spellings(pad):
    report = pad_report(pad('game: flip7\nplayers: [Ann]\nrounds:\n  - {Ann: ["7", "×2", " +10 "]}\n'))
    assert report["rounds"] == [{"Ann": 24}]  # 7 x 2 + 10


def test_no_rounds_yet(pad):
    report = pad_report(pad("game: flip7\nplayers: [Ann, Bob, Cy]\n"))
    assert report == {
        "game": "flip7",
        "decks": 1,
        "rounds": [],
        "totals": {"Ann": 0, "Bob": 0, "Cy": 0},
        "status": "in_progress",
        "winners": [],
        "winner": None,
        "impossible": [],
        "problems": [],
        "warnings": [],
    }


IMPOSSIBLE_150 = """
game: flip7
players: [Ann, Bob, Cy]
rounds:
  - {Ann: [12, 10], Bob: [9], Cy: {score: 150}}
  - {Ann: [11, 8], Bob: [7, 5], Cy: {score: 60}}
  - {Ann: [3], Bob: bust, Cy: [4]}
"""


def test_impossible_written_score_needs_correction_and_names_no_winner(pad):
    # Rulebook, Scoring: numbers, doubled by x2 only, then +N, then +15 for a Flip 7.
    # Without a Flip 7 the most is 12+11+10+9+8+7 = 57, x2 114, +30 = 144; with a
    # Flip 7 and x2 the total is odd (even doubled sum + 15 + even +N); without
    # x2 at most 63 + 30 + 15 = 108.  So 150 cannot be scored in one round.
    # Totals by hand: Ann 22+19+3 = 44, Bob 9+12+0 = 21, Cy 150+60+4 = 214.
    # Cy passes 200 after round 2 on a total that rests on the 150: the game is
    # not over on it, round 3 is allowed, and no winner is named.
    report = pad_report(pad(IMPOSSIBLE_150))
    assert report["totals"] == {"Ann": 44, "Bob": 21, "Cy": 214}
    assert (report["status"], report["winners"], report["winner"]) == ("needs_correction", [], None)
    assert report["impossible"] == [{"round": 1, "player": "Cy"}]
    # reported once, where it is: round 1, Cy; later rounds carry no copy of it
    assert [(q["round"], q["player"]) for q in report["problems"]] == [(1, "Cy")]
    assert "no line of cards scores 150" in report["problems"][0]["message"]
    console = Console(record=True, width=140, color_system=None)
    print_pad(report, console)
    out = console.export_text()
    assert "status: the pad needs correcting at round 1, Cy; no winner is named until then" in out
    assert out.count("scores 150") == 1 and "winner: " not in out


def test_corrected_pad_names_its_winner(pad):
    # The same pad with Cy's first round corrected to 50 (e.g. 12+11+10+9+8 = 50):
    # Cy 50+60+4 = 114; nobody has 200: in progress.  Corrected to 140 instead
    # (57 x 2 = 114, +10+8+6+2 = 140): Cy 140+60 = 200 after round 2, alone in the
    # lead: the game ended there, so round 3 is a round after the end: a rule broken
    # (the file was read), the pad needs correcting at round 3 and names no winner.
    report = pad_report(pad(IMPOSSIBLE_150.replace("{score: 150}", "{score: 50}")))
    assert (report["status"], report["winners"], report["impossible"]) == ("in_progress", [], [])
    report = pad_report(pad(IMPOSSIBLE_150.replace("{score: 150}", "{score: 140}")))
    assert (report["status"], report["winners"], report["winner"]) == ("needs_correction", [], None)
    assert report["impossible"] == [{"round": 3, "player": None}]
    ((where, msg),) = [((q["round"], q["player"]), q["message"]) for q in report["problems"]]
    assert where == (3, None) and "the game ended after round 2" in msg and "Cy leads alone with 200" in msg


def test_one_or_two_players_scored_with_a_warning(pad):
    # Rulebook, Setup: the game plays 3 to 18 players.  Two players are scored
    # all the same (Ann 10+12 = 22, Bob 5), with a warning; three are not warned.
    report = pad_report(pad("game: flip7\nplayers: [Ann, Bob]\nrounds:\n  - {Ann: [10, 12], Bob: [5]}\n"))
    assert report["totals"] == {"Ann": 22, "Bob": 5} and report["problems"] == []
    (w,) = report["warnings"]
    assert "2 players" in w["message"] and "3 to 18" in w["message"]
    p = pad("game: flip7\nplayers: [Ann]\n")
    (pw,) = p.warnings
    assert pw.severity == "warning" and pw.line == 2 and "1 player:" in pw.message
    assert pad_report(pad("game: flip7\nplayers: [Ann, Bob, Cy]\n"))["warnings"] == []
    console = Console(record=True, width=100, color_system=None)
    print_pad(report, console)
    assert "warning: 2 players" in console.export_text()


def _big_round(n: int, twelves: int) -> str:
    names = [f"P{i}" for i in range(1, n + 1)]
    lines = ", ".join(f"{p}: [12]" if i < twelves else f"{p}: bust" for i, p in enumerate(names))
    return f"game: flip7\nplayers: [{', '.join(names)}]\nrounds:\n  - {{{lines}}}\n"


def test_19_to_36_players_play_with_two_decks(pad):
    # Rulebook, Setup: one deck (twelve 12s) up to 18 players, a second deck beyond.
    # Thirteen players showing a 12 in one round: impossible with one deck (18
    # players), possible with two (19 players: twenty-four 12s).
    one = pad_report(pad(_big_round(18, 13)))
    assert one["decks"] == 1 and one["status"] == "needs_correction"
    assert one["impossible"] == [{"round": 1, "player": None}]
    assert "appears 13 times" in one["problems"][0]["message"] and "holds 12" in one["problems"][0]["message"]
    two = pad_report(pad(_big_round(19, 13)))
    assert (two["decks"], two["problems"], two["status"], two["warnings"]) == (2, [], "in_progress", [])
    assert sum(two["totals"].values()) == 13 * 12
    full = pad_report(pad(_big_round(36, 24)))
    assert full["decks"] == 2 and full["problems"] == []
    # twenty-five 12s: more than two decks hold
    assert "appears 25 times" in pad_report(pad(_big_round(36, 25)))["problems"][0]["message"]


# --------------------------------------------------------------------------
# Structural errors: FILE:LINE:COL


def test_unknown_card_and_action_card(errors):
    text = (
        "game: flip7\n"
        "players: [Ann, Bob]\n"
        "rounds:\n"
        "  - Ann: [3, x3, 13]\n"  # x3 at col 14, 13 at col 18
        "    Bob: [5, freeze, +3]\n"  # freeze col 14, +3 col 22
    )
    got = errors(text)
    assert [(line, col) for line, col, _ in got] == [(4, 14), (4, 18), (5, 14), (5, 22)]
    assert "round 1, Ann: 'x3' is not a Flip 7 card" in got[0][2]
    assert "13 is not a Flip 7 card" in got[1][2]
    assert "'freeze' is an action card" in got[2][2] and "leave it out" in got[2][2]
    assert "+3 is not a modifier" in got[3][2]


@pytest.mark.parametrize("word", ["second_chance", "Second Chance", "flip_three", "flip-three"])
def test_every_action_card_is_refused(errors, word):
    ((line, col, msg),) = errors(f"game: flip7\nplayers: [Ann]\nrounds:\n  - Ann: [3, '{word}']\n")
    assert (line, col) == (4, 14) and "is an action card" in msg


def test_unknown_and_missing_player(errors):
    text = (
        "game: flip7\n"
        "players: [Ann, Bob, Cy]\n"
        "rounds:\n"
        "  - Ann: [3]\n"  # round 1 mapping starts at line 4, col 5
        "    Bobb: [4]\n"  # key at line 5, col 5
    )
    got = errors(text)
    assert (5, 5) in [(a, b) for a, b, _ in got]
    unknown = next(m for a, b, m in got if (a, b) == (5, 5))
    assert "'Bobb' is not one of the players" in unknown and "did you mean 'Bob'?" in unknown
    missing = next(m for a, b, m in got if (a, b) == (4, 5))
    assert "round 1 has no line for Bob, Cy" in missing


def test_round_after_the_end_is_a_rule_broken_not_an_unreadable_file(write_yaml):
    # Rulebook, End of the game: the game ends at the end of the round in which someone
    # reaches the target.  Target 20: Ann 10+11 = 21 after round 1, Bob 3: Ann leads alone,
    # so round 2 was never played.  The file was read: exit 1, located at round 2 (line 6, col 5).
    from generator.jobs.verify import verify

    text = (
        "game: flip7\n"
        "players: [Ann, Bob]\n"
        "target: 20\n"
        "rounds:\n"
        "  - {Ann: [10, 11], Bob: [3]}\n"
        "  - {Ann: [1], Bob: [2]}\n"
    )
    verdict = verify([write_yaml(text, "pad.yaml")])
    assert verdict.exit_code == 1
    rep = verdict.report
    assert (rep["status"], rep["winners"], rep["winner"]) == ("needs_correction", [], None)
    assert rep["impossible"] == [{"round": 2, "player": None}]
    assert rep["totals"] == {"Ann": 22, "Bob": 5}  # every round read is still scored
    (err,) = [p for p in verdict.problems if p.is_error]
    assert (err.line, err.col) == (6, 5)
    assert "the game ended after round 1" in err.message and "Ann leads alone with 21" in err.message
    assert "remove the 1 round after it" in err.message


def test_an_end_on_an_impossible_round_is_no_end(pad):
    # Target 50.  Round 1: Ann {score: 120} needs the x2 (without it a line makes at most
    # 63 + 30 + 15 = 108), but Bob's cards hold the deck's only x2: the round is impossible,
    # so Ann's 120 is no end of the game and round 2 is read as played (no second finding).
    report = pad_report(
        pad(
            "game: flip7\nplayers: [Ann, Bob]\ntarget: 50\nrounds:\n"
            "  - {Ann: {score: 120}, Bob: [3, x2]}\n  - {Ann: [1], Bob: [2]}\n"
        )
    )
    assert report["impossible"] == [{"round": 1, "player": None}]
    assert [q["round"] for q in report["problems"]] == [1]


@pytest.mark.parametrize(
    "line_text, col, expected",
    [
        ("Ann: 34", 10, "a score alone is written {score: 34}"),
        ("Ann: busted", 10, "write a list of cards"),
        ("Ann: {score: -3}", 18, "the score must be a whole number 0 or more"),
        ("Ann: {score: 3.5}", 18, "the score must be a whole number 0 or more"),
        ("Ann: {points: 3}", 11, "unknown key 'points'"),
        ("Ann: {}", 10, "empty mapping"),
        ("Ann: {cards: 7}", 18, "cards must be a list"),
        ("Ann: [2.0]", 11, "2.0 is not a Flip 7 card"),
        ("Ann: [true]", 11, "True is not a Flip 7 card"),
        ("Ann:", 9, "write a list of cards"),
    ],
)
def test_bad_lines(errors, line_text, col, expected):
    ((line, c, msg),) = errors(f"game: flip7\nplayers: [Ann]\nrounds:\n  - {line_text}\n")
    assert line == 4 and c == col and expected in msg


def test_bad_top_level(errors):
    ((line, col, msg),) = errors("game: allin\nplayers: [Ann]\n")
    assert (line, col) == (1, 7) and "expected 'flip7'" in msg
    ((line, col, msg),) = errors("game: flip7\nplayers: [Ann, 7]\n")
    assert (line, col) == (2, 16) and "must be text" in msg
    ((line, col, msg),) = errors("game: flip7\nplayers: [Ann]\nround: []\n")
    assert (line, col) == (3, 1) and "did you mean 'rounds'?" in msg
    ((line, col, msg),) = errors("game: flip7\nplayers: [Ann, Ann]\n")
    assert (line, col) == (2, 16) and "listed twice" in msg
    ((line, col, msg),) = errors("game: flip7\nplayers: []\n")
    assert line == 2 and "at least one player" in msg
    ((line, col, msg),) = errors("game: flip7\nplayers: [Ann]\ntarget: 0\n")
    assert line == 3
    ((line, col, msg),) = errors("game: flip7\nplayers: [Ann]\nrounds:\n  - [3, 4]\n")
    assert (line, col) == (4, 5) and "round 1 must be a mapping" in msg
    players = ", ".join(f"P{i}" for i in range(37))
    ((line, col, msg),) = errors(f"game: flip7\nplayers: [{players}]\n")
    assert line == 2 and "up to 36 with two" in msg


def test_pad_from_document():
    doc = parse_yaml("game: flip7\nplayers: [Ann]\nrounds:\n  - {Ann: bust}\n", "x.yaml")
    assert pad_report(pad_from_document(doc))["rounds"] == [{"Ann": 0}]


# --------------------------------------------------------------------------
# The table


def test_print_pad_table(pad):
    p = pad(
        """
        game: flip7
        players: [Ann, Bob]
        rounds:
          - {Ann: [10, 12], Bob: {cards: [5], score: 6}}
          - {Ann: [3], Bob: bust}
        """
    )
    console = Console(record=True, width=120, color_system=None)
    print_pad(pad_report(p), console, target=p.target)
    out = console.export_text()
    assert "target 200" in out
    # running totals: Ann 22 then 25; Bob 5 then 5
    rows = [ln for ln in out.splitlines() if ln.strip().startswith(("│     1", "│     2"))]
    assert [ln.split() for ln in rows] == [
        ["│", "1", "│", "22", "22", "│", "!5", "5", "│"],
        ["│", "2", "│", "3", "25", "│", "0", "5", "│"],
    ]
    assert "round 1, Bob: written score 6 but the cards score 5" in out
    assert "in progress" in out and "winner" not in out


def test_print_pad_winner(pad):
    p = pad("game: flip7\nplayers: [Ann, Bob]\ntarget: 10\nrounds:\n  - {Ann: [11], Bob: [4]}\n")
    console = Console(record=True, width=100, color_system=None)
    print_pad(pad_report(p), console)
    out = console.export_text()
    assert "status: finished; winner: Ann" in out


# --------------------------------------------------------------------------
# Scores written alone take their share of the round (rulebook Setup: one x2 per
# deck; How to play: the round ends at the first Flip 7)

BREAK_IT = """
game: flip7
players: [Ann, Bob, Cy]
rounds:
  - Ann: {score: 171}
    Bob: {score: 169}
    Cy: {score: 3}
  - Ann: {score: 10}
    Bob: {score: 40}
    Cy: {score: 3}
"""


def test_scores_written_alone_that_need_the_same_x2_are_impossible_cli(tmp_path):
    # Without the x2 a line makes at most 63 + 30 + 15 = 108 (a Flip 7 of 12..6, every +N);
    # without a Flip 7 at most 57 x 2 + 30 = 144.  171 and 169 both need the x2 and a
    # Flip 7: one deck has one x2, and the round ends at the first Flip 7.
    import subprocess
    import sys

    (tmp_path / "pad.yaml").write_text(BREAK_IT.lstrip(), encoding="utf-8")
    res = subprocess.run(
        [sys.executable, "-m", "generator.cli.app", "verify", "pad.yaml", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert res.returncode == 1, res.stderr
    rep = json.loads(res.stdout)
    assert (rep["status"], rep["winners"], rep["winner"]) == ("needs_correction", [], None)
    assert rep["impossible"] == [{"round": 1, "player": None}]
    assert rep["totals"] == {"Ann": 181, "Bob": 209, "Cy": 6}
    assert "pad.yaml:4:5: error: round 1: Ann's score 171 cannot be made without" in res.stderr


def test_a_score_written_alone_beside_the_cards_holding_the_x2(pad):
    # 120 > 108 needs the x2 (line 5: Ann), Bob's cards hold it: round 1 is impossible.
    # Bob: (12+11+10+9+8) x 2 = 100.  Without Bob's x2, (50) = 50 and the round is fine.
    text = (
        "game: flip7\nplayers: [Ann, Bob, Cy]\nrounds:\n"
        "  - Ann: {score: 120}\n    Bob: [12, 11, 10, 9, 8, x2]\n    Cy: bust\n"
    )
    report = pad_report(pad(text))
    assert report["rounds"] == [{"Ann": 120, "Bob": 100, "Cy": 0}]
    assert report["status"] == "needs_correction" and report["impossible"] == [{"round": 1, "player": None}]
    report = pad_report(pad(text.replace(", x2]", "]")))
    assert report["rounds"] == [{"Ann": 120, "Bob": 50, "Cy": 0}]
    assert (report["status"], report["problems"]) == ("in_progress", [])


def test_a_variant_flip7_bonus_on_a_score_pad(pad, errors):
    # Variant printed with `render flip7-pad --variant flip7_bonus=30`: a Flip 7 adds 30.
    # Ann 0..6 = 21 + 30 = 51; Bob {score: 186} = 63 x 2 + 30 + 30, possible only with bonus 30;
    # Cy 12 + x2 = 24.  Without the key, 186 is no score (the most is 171) and Ann's row is 36.
    text = (
        "game: flip7\nplayers: [Ann, Bob, Cy]\nflip7_bonus: 30\nrounds:\n"
        "  - {Ann: [0, 1, 2, 3, 4, 5, 6], Bob: {score: 150}, Cy: [12, x2]}\n"
    )
    report = pad_report(pad(text))
    assert report["rounds"] == [{"Ann": 51, "Bob": 150, "Cy": 24}]
    # Bob's 150 (even, above 144) needs a Flip 7 and the x2: Ann holds the Flip 7, Cy the x2
    assert report["status"] == "needs_correction"
    report = pad_report(pad(text.replace("Bob: {score: 150}", "Bob: {score: 40}")))
    assert report["rounds"] == [{"Ann": 51, "Bob": 40, "Cy": 24}] and report["problems"] == []
    default = pad_report(pad(text.replace("flip7_bonus: 30\n", "")))
    assert default["rounds"][0]["Ann"] == 21 + 15
    ((line, col, msg),) = errors(text.replace("flip7_bonus: 30", "flip7_bonus: 101"))
    assert (line, col) == (3, 14) and "100" in msg
    # dump_pad writes the bonus back when it is not 15; the file reads back the same
    from generator.games.flip7.pad import dump_pad

    p = pad(text)
    again = pad(dump_pad(p.players, list(p.rounds), flip7_bonus=p.flip7_bonus))
    assert again.flip7_bonus == 30 and pad_report(again)["rounds"] == pad_report(p)["rounds"]
