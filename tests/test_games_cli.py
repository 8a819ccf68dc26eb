"""verify (dispatch on game:), replay and simulate, run as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def run(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "generator.cli.app", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def test_verify_flip7_pad_example():
    """docs/examples/flip7-pad.yaml, added up by hand round by round:

    Ann 36 16 0 42 21 36(0-6 is a Flip 7: 21 + 15) 24 23 = 198
    Bob 0 54((8+9+10)×2) 33 14 0 21 42 37 = 201
    Cy 20 6 22 0 66((10+11+12)×2) 20 20(8+12; 22 was written) 71(5..11 = 56 + 15) = 225
    Cy passes 200 in round 8 and leads: the game is over and Cy wins.
    """
    res = run("verify", "flip7-pad.yaml", "--json", cwd=EXAMPLES)
    assert res.returncode == 1  # read, but Cy's written 22 in round 7 differs from the cards' 20
    assert "flip7-pad.yaml:26:9: error: round 7, Cy: written score 22 but the cards score 20" in res.stderr
    data = json.loads(res.stdout)
    assert data["totals"] == {"Ann": 198, "Bob": 201, "Cy": 225}
    assert data["rounds"][6] == {"Ann": 24, "Bob": 42, "Cy": 20}
    assert (data["status"], data["winner"]) == ("finished", "Cy")
    assert [(p["round"], p["player"]) for p in data["problems"]] == [(7, "Cy")]
    table = run("verify", "flip7-pad.yaml", cwd=EXAMPLES)
    assert "round 7, Cy: written score 22 but the cards score 20" in table.stdout and "winner: Cy" in table.stdout


def test_verify_flip7_tie_at_the_target(tmp_path):
    # rulebook game case: Ann 156 + 47 = 203, Bob 178 + 25 = 203: tied in the lead, play another round
    # (156 and 178 as two rounds each: a single round cannot score either)
    (tmp_path / "pad.yaml").write_text(
        "game: flip7\nplayers: [Ann, Bob]\nrounds:\n  - {Ann: {score: 78}, Bob: {score: 89}}\n"
        "  - {Ann: {score: 78}, Bob: {score: 89}}\n"
        "  - {Ann: {score: 47}, Bob: {score: 25}}\n",
        encoding="utf-8",
    )
    data = json.loads(run("verify", "pad.yaml", "--json", cwd=tmp_path).stdout)
    assert data["status"] == "tied_play_another_round" and data["winner"] is None


def test_verify_flip7_impossible_line_needs_correction(tmp_path):
    # Rulebook, Scoring: one round scores at most 171, and no even score from 146
    # to 170 can be made (see test_flip7.py::test_possible_scores).  Cy's 150 in
    # round 1 is impossible; his total 150 + 60 = 210 would end the game, but no
    # winner is named on it: status needs_correction, the place named once.
    (tmp_path / "pad.yaml").write_text(
        "game: flip7\nplayers: [Ann, Bob, Cy]\nrounds:\n"
        "  - {Ann: [12, 10], Bob: [9], Cy: {score: 150}}\n"
        "  - {Ann: [11, 8], Bob: [7, 5], Cy: {score: 60}}\n",
        encoding="utf-8",
    )
    res = run("verify", "pad.yaml", "--json", cwd=tmp_path)
    assert res.returncode == 1
    data = json.loads(res.stdout)
    assert (data["status"], data["winners"], data["winner"]) == ("needs_correction", [], None)
    assert data["impossible"] == [{"round": 1, "player": "Cy"}]
    assert res.stderr.count("no line of cards scores 150") == 1 and "pad.yaml:4:" in res.stderr
    table = run("verify", "pad.yaml", cwd=tmp_path)
    assert "the pad needs correcting at round 1, Cy" in table.stdout and "winner:" not in table.stdout


def test_verify_flip7_two_players_is_a_warning(tmp_path):
    # Rulebook, Setup: 3 to 18 players.  Two players are scored (Ann 22, Bob 5), with a warning, exit 0.
    (tmp_path / "pad.yaml").write_text(
        "game: flip7\nplayers: [Ann, Bob]\nrounds:\n  - {Ann: [10, 12], Bob: [5]}\n", encoding="utf-8"
    )
    res = run("verify", "pad.yaml", "--json", cwd=tmp_path)
    assert res.returncode == 0 and "pad.yaml:2:10: warning: 2 players" in res.stderr
    assert json.loads(res.stdout)["totals"] == {"Ann": 22, "Bob": 5}


def test_verify_refuses_mixed_games(tmp_path):
    res = run("verify", str(EXAMPLES / "ann.yaml"), str(EXAMPLES / "flip7-pad.yaml"), cwd=tmp_path)
    assert res.returncode == 2 and "verify one game at a time" in res.stderr


@pytest.mark.slow
def test_simulated_game_replays_and_its_sheets_verify_with_the_same_totals(tmp_path):
    res = run("simulate", "allin", "--players", "4", "--seed", "11", "-o", str(tmp_path / "g"))
    assert res.returncode == 0, res.stderr
    files = sorted(p.name for p in (tmp_path / "g").iterdir())
    assert "game.yaml" in files and len(files) == 5
    replayed = json.loads(run("replay", str(tmp_path / "g" / "game.yaml"), "--json").stdout)
    sheets = [str(tmp_path / "g" / f) for f in files if f != "game.yaml"]
    verified = json.loads(run("verify", *sheets, "--json").stdout)

    def totals(rep):
        return {p["player"]: p["total"] for p in rep["players"]}

    assert totals(replayed) == totals(verified) and len(totals(replayed)) == 4
    assert replayed["winners"] == verified["winners"]
    # same seed, same game
    again = run("simulate", "allin", "--players", "4", "--seed", "11", "-o", str(tmp_path / "h"))
    assert again.returncode == 0
    assert (tmp_path / "g" / "game.yaml").read_text() == (tmp_path / "h" / "game.yaml").read_text()
    # nothing the user made is overwritten without --force
    res = run("simulate", "allin", "--players", "4", "--seed", "12", "-o", str(tmp_path / "g"))
    assert res.returncode == 2 and "already exists" in res.stderr


@pytest.mark.slow
def test_simulate_into_its_default_folder_keeps_an_edited_file(tmp_path):
    """The default folder (output/games/...) is written again freely while its files are as sheetsmith wrote
    them (same seed, same bytes); a file edited since is replaced only with --force."""
    args = ("simulate", "allin", "--players", "2", "--seed", "3")
    log = tmp_path / "output" / "games" / "allin-q-diamonds-2p-seed3" / "game.yaml"
    assert run(*args, cwd=tmp_path).returncode == 0 and log.is_file()
    assert run(*args, cwd=tmp_path).returncode == 0  # the same game again: nothing of the user's is touched
    log.write_text(log.read_text(encoding="utf-8") + "# my note\n", encoding="utf-8")
    res = run(*args, cwd=tmp_path)
    assert res.returncode == 2 and "game.yaml: changed since sheetsmith wrote it; pass --force" in res.stderr
    assert log.read_text(encoding="utf-8").endswith("# my note\n")
    assert run(*args, "--force", cwd=tmp_path).returncode == 0
    assert not log.read_text(encoding="utf-8").endswith("# my note\n")


def test_replay_refuses_an_illegal_move(tmp_path):
    log = tmp_path / "bad.yaml"
    log.write_text(
        "game: allin\nkind: game-log\nlayout: q-diamonds\nplayers: [Ann]\n"
        "golden_deck: [9C, JK, 2D, KC, 7S, 5H, AS, 3C]\n"
        "rounds:\n  - revealed: [2S, 3S]\n    moves:\n      Ann: {cell: c3, card: 2S}\n",
        encoding="utf-8",
    )
    res = run("replay", str(log))
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert "round 1, Ann, c3" in res.stderr and res.stderr.startswith(str(log))


@pytest.mark.slow
def test_simulate_flip7_reports_and_repeats():
    a = run("simulate", "flip7", "--players", "3", "--seed", "5", "--games", "200", "--strategy", "stop-at-20")
    b = run("simulate", "flip7", "--players", "3", "--seed", "5", "--games", "200", "--strategy", "stop-at-20")
    assert a.returncode == 0 and a.stdout == b.stdout
    for word in ("bust rate", "mean round score", "rounds until someone reaches 200"):
        assert word in a.stdout
    bad = run("simulate", "flip7", "--strategy", "greedy")
    assert bad.returncode == 2 and "use stop-at-T" in bad.stderr


@pytest.mark.parametrize("strategy", ["stop-at-0", "stop-at-000", "stop-at-1000"])
def test_simulate_flip7_refuses_a_stop_at_no_game_ends_with(strategy):
    # stop-at-0 stays before any card: every round scores 0, nobody ever reaches the target
    res = run("simulate", "flip7", "--strategy", strategy, "--games", "1")
    assert res.returncode == 2 and "T from 1 to 999" in res.stderr and "rounds until" not in res.stdout


@pytest.mark.slow
def test_simulate_flip7_player_counts():
    # Rulebook, Setup: 3 to 18 players with one deck, a second deck beyond (up to 36 here).
    two = run("simulate", "flip7", "--players", "2", "--games", "20")
    assert two.returncode == 0 and "warning: 2 players" in two.stderr and "bust rate" in two.stdout
    big = run("simulate", "flip7", "--players", "36", "--games", "4")
    assert big.returncode == 0 and "36 players, 2 decks" in big.stdout and "warning" not in big.stderr
    over = run("simulate", "flip7", "--players", "37", "--games", "4")
    assert over.returncode == 2 and "up to 36" in over.stderr


@pytest.mark.slow
def test_verify_reads_a_photo_through_the_main_command(tmp_path):
    """A photo of Ann's sheet (turned 170°, synthesised from a simulated game) and Bob's typed-in sheet
    verify as one game, to exactly the report the two typed-in sheets give."""
    from generator.games.allin.filled import FilledSheet
    from generator.games.allin.game_log import write_sheet
    from generator.games.allin.scoring import report, score_game
    from generator.printing.paper import paper

    from .test_reader import game, params, write_photo

    result = game("q-diamonds", 11)
    ann, bob = result.sheets
    write_photo(tmp_path, "ann.jpg", ann, paper("a4"), 11, params(rotation=170.0), game=result.score)
    write_sheet(tmp_path / "bob.yaml", bob)
    res = run("verify", "ann.jpg", "bob.yaml", "--json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    truth = FilledSheet(ann.layout, "ann", ann.cards, ann.chips_earned, ann.chips_spent)
    assert json.loads(res.stdout) == report(score_game([truth, bob]))
    assert (tmp_path / "ann.read.yaml").is_file() and (tmp_path / "ann.read.png").is_file()
    res = run("verify", "bob.yaml", "--layout", "q-diamonds", cwd=tmp_path)
    assert res.returncode == 2 and "no photo was given" in res.stderr
