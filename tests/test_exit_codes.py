"""Exit status, the same for every command and game (DESIGN.md "Exit codes").

0: everything read and nothing wrong (warnings alone included);
1: read, but problems found (a rule broken, a written score that differs, an
   impossible sheet, a photo field that needs a person, validation errors in check);
2: an input could not be read at all (missing, not YAML, not an image, wrong
   format) or a usage error.

The commands run in-process through the console entry point (``generator.cli.app.main``),
which is what the ``sheetsmith`` script calls.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from generator.cli.app import main

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"

GOOD_SHEET = (EXAMPLES / "ann.yaml").read_text(encoding="utf-8")


def status(args, cwd: Path, capsys) -> tuple[int, str, str]:
    """Run ``sheetsmith ARGS`` in ``cwd``; return (exit status, stdout, stderr)."""
    old_argv, old_cwd = sys.argv, os.getcwd()
    sys.argv = ["sheetsmith", *map(str, args)]
    os.chdir(cwd)
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    finally:
        sys.argv = old_argv
        os.chdir(old_cwd)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- verify: All In typed-in sheets ------------------------------------------------------------


def test_verify_a_clean_sheet_exits_0(tmp_path, capsys):
    write(tmp_path, "ann.yaml", GOOD_SHEET)
    assert status(["verify", "ann.yaml"], tmp_path, capsys)[0] == 0


def test_verify_a_sheet_with_a_bad_card_code_exits_2(tmp_path, capsys):
    # 'QX' is not a card code: the sheet cannot be read as a sheet at all
    write(tmp_path, "ann.yaml", GOOD_SHEET.replace("10S JS", "QX  JS"))
    code, _, err = status(["verify", "ann.yaml"], tmp_path, capsys)
    assert code == 2 and "ann.yaml:7:3: error: a1: 'QX' is not a card code" in err


def test_verify_a_missing_file_exits_2(tmp_path, capsys):
    code, _, err = status(["verify", "nobody.yaml"], tmp_path, capsys)
    assert code == 2 and "nobody.yaml: error: file not found" in err


def test_verify_a_file_that_is_not_yaml_exits_2(tmp_path, capsys):
    write(tmp_path, "x.yaml", "game: allin\nplayer: [Ann\n")
    code, _, err = status(["verify", "x.yaml"], tmp_path, capsys)
    assert code == 2 and "YAML syntax error" in err


# -- verify: Flip 7 pads and round logs ---------------------------------------------------------

PAD = """game: flip7
players: [Ann, Bob, Cy]
rounds:
  - Ann: [3, 5, 7]
    Bob: bust
    Cy: {cards: [12, "+4"], score: SCORE}
"""


def test_verify_a_pad_whose_written_score_matches_exits_0(tmp_path, capsys):
    # Cy's 12 and +4 make 16 (a number plus a modifier)
    write(tmp_path, "pad.yaml", PAD.replace("SCORE", "16"))
    assert status(["verify", "pad.yaml"], tmp_path, capsys)[0] == 0


def test_verify_a_pad_whose_written_score_differs_exits_1(tmp_path, capsys):
    write(tmp_path, "pad.yaml", PAD.replace("SCORE", "18"))
    code, out, err = status(["verify", "pad.yaml", "--json"], tmp_path, capsys)
    assert code == 1
    assert '"problems"' in out  # the report is still printed
    assert "pad.yaml:6:" in err and "round 1, Cy: written score 18 but the cards score 16" in err


def test_verify_a_round_log_with_a_rule_break_exits_1(tmp_path, capsys):
    # the shipped Fundex example is clean; an ledger amount one chip off is a rule break
    text = (EXAMPLES / "fundex-game.yaml").read_text(encoding="utf-8")
    assert status(["verify", EXAMPLES / "fundex-game.yaml"], tmp_path, capsys)[0] == 0
    lines = text.splitlines()
    n = next(i for i, ln in enumerate(lines) if ln.strip().startswith("chips: {Ann: "))
    value = int(lines[n].split("Ann: ")[1].split(",")[0])
    lines[n] = lines[n].replace(f"Ann: {value},", f"Ann: {value + 1},", 1)
    write(tmp_path, "slip.yaml", "\n".join(lines) + "\n")
    code, out, _ = status(["verify", "slip.yaml"], tmp_path, capsys)
    assert code == 1 and "slip.yaml:" in out and "round 1, Ann:" in out  # listed once, in the report's tables


# -- replay ------------------------------------------------------------------------------------


def test_replay_an_illegal_move_exits_1_and_an_unreadable_log_exits_2(tmp_path, capsys):
    # round 1 must be written in a starting space; c3 is the Golden Card's place on Q♦
    write(
        tmp_path,
        "bad.yaml",
        "game: allin\nkind: game-log\nlayout: q-diamonds\nplayers: [Ann]\n"
        "golden_deck: [9C, JK, 2D, KC, 7S, 5H, AS, 3C]\n"
        "rounds:\n  - revealed: [2S, 3S]\n    moves:\n      Ann: {cell: c3, card: 2S}\n",
    )
    code, _, err = status(["replay", "bad.yaml"], tmp_path, capsys)
    assert code == 1 and "round 1, Ann, c3" in err
    # with --json the report still goes to stdout when the status is 1 (docs/formats.md)
    code, out, err = status(["replay", "bad.yaml", "--json"], tmp_path, capsys)
    got = json.loads(out)
    assert code == 1 and got["status"] == "illegal_move" and len(got["problems"]) == 1
    assert got["problems"][0]["file"] == "bad.yaml" and "round 1, Ann, c3" in got["problems"][0]["message"]
    write(tmp_path, "broken.yaml", "game: allin\nkind: game-log\nrounds: [\n")
    assert status(["replay", "broken.yaml"], tmp_path, capsys)[0] == 2


# -- check ---------------------------------------------------------------------------------------


def test_check_exit_codes(tmp_path, capsys):
    layout = (Path(__file__).resolve().parents[1] / "layouts" / "allin" / "q-diamonds.yaml").read_text(encoding="utf-8")
    write(
        tmp_path,
        "good.yaml",
        layout.replace("id: q-diamonds", "id: my-sheet") if "id: q-diamonds" in layout else layout,
    )
    assert status(["check", "good.yaml"], tmp_path, capsys)[0] == 0
    write(tmp_path, "bad.yaml", layout.replace("golden: QD", "golden: QX"))
    code, _, err = status(["check", "bad.yaml"], tmp_path, capsys)
    assert code == 1 and "is not a card code" in err  # read, but the layout is invalid
    assert status(["check", "missing.yaml"], tmp_path, capsys)[0] == 2
    write(tmp_path, "notyaml.yaml", "game: allin\ngrid: [\n")
    assert status(["check", "notyaml.yaml"], tmp_path, capsys)[0] == 2
    # one unreadable file among valid ones: the run could not read everything
    assert status(["check", "good.yaml", "missing.yaml"], tmp_path, capsys)[0] == 2


# -- usage -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["render", "q-diamonds", "--dpi", "5"],  # out of range (typer)
        ["render", "poker-deck", "--back-offset", "1"],  # one value, two needed
        ["simulate", "flip7", "--strategy", "always"],  # unknown strategy
        ["simulate", "allin", "--seed", "-7"],  # a negative seed would play seed 7's game again
        ["frobnicate"],  # no such command
    ],
)
def test_usage_errors_exit_2(tmp_path, args, capsys):
    assert status(args, tmp_path, capsys)[0] == 2
    assert not (tmp_path / "output").exists()


def test_bare_command_prints_help_and_exits_0(tmp_path, capsys):
    code, out, _ = status([], tmp_path, capsys)
    assert code == 0 and "verify" in out and "Exit status" in out


@pytest.mark.slow
def test_ctrl_c_and_term_say_so_and_exit_128_plus_the_signal(tmp_path):
    """A long run stopped by Ctrl-C (SIGINT, 2) or TERM (15) says nothing was left half-written and
    exits 130 or 143, the shell's convention for a process ended by a signal."""
    import signal
    import subprocess
    import time

    for sig, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        proc = subprocess.Popen(
            [sys.executable, "-m", "generator.cli.app", "simulate", "flip7", "--games", "500000"],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(3)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == code
        assert "interrupted; nothing half-written was left behind" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "example, what",
    [
        ("fundex-game.yaml", "Fundex round log"),
        ("ann.yaml", "typed-in sheet"),
        ("flip7-pad.yaml", "Flip 7 score pad"),
        ("flipflop-evening.yaml", "Flip Flop round log"),
    ],
)
def test_replay_of_a_file_for_verify_exits_2_and_names_verify(tmp_path, capsys, example, what):
    # replay referees All In game logs only; any other game file is an unreadable input for it
    write(tmp_path, example, (EXAMPLES / example).read_text(encoding="utf-8"))
    code, _, err = status(["replay", example], tmp_path, capsys)
    assert code == 2
    assert what in err and "sheetsmith verify" in err


@pytest.mark.parametrize("example", ["ann.yaml", "flip7-pad.yaml", "fundex-game.yaml"])
def test_check_of_a_file_for_another_command_exits_2(tmp_path, capsys, example):
    # "wrong format" is an input check cannot read (exit 2), as for verify, render and replay
    write(tmp_path, example, (EXAMPLES / example).read_text(encoding="utf-8"))
    code, _, err = status(["check", example], tmp_path, capsys)
    assert code == 2 and "sheetsmith verify" in err


def test_two_sheets_whose_players_differ_only_in_capitals_are_refused(tmp_path, capsys):
    # 'ann' (a photo's file name) and 'Ann' (typed in) are the same player's sheet given twice, not two players
    write(tmp_path, "Ann.yaml", GOOD_SHEET)
    write(tmp_path, "ann2.yaml", GOOD_SHEET.replace("player: Ann", "player: ann"))
    code, _, err = status(["verify", "Ann.yaml", "ann2.yaml"], tmp_path, capsys)
    assert code == 2 and "differ only in capitals" in err


def test_a_blank_sheet_is_scored_but_named_as_blank(tmp_path, capsys):
    # nothing written scores 0, and a finished game leaves no blank sheet (round 1 had a starting space to write
    # in: the rulebook's "players must write down a card"): exit 1, and the note says it is most likely the wrong one
    write(tmp_path, "ann.yaml", GOOD_SHEET)
    write(
        tmp_path,
        "bo.yaml",
        "game: allin\nlayout: q-diamonds\nplayer: Bo\ngrid: |\n"
        + "  .  .  .  .  .\n" * 2
        + "  .  .  G  .  .\n"
        + "  .  .  .  .  .\n" * 2
        + "chips: {earned: 0}\n",
    )
    code, out, err = status(["verify", "ann.yaml", "bo.yaml"], tmp_path, capsys)
    assert "nothing is written on Bo's sheet" in out + err
    assert code == 1 and "bo.yaml:4:7: error: 0 cards written, but a game has 23 rounds" in out + err


def test_the_same_photo_under_two_names_is_refused_before_reading(tmp_path, capsys):
    # a copy of ann's photo named bob.png would score ann's sheet for two players
    from PIL import Image

    Image.new("RGB", (800, 600), "white").save(tmp_path / "ann.png")
    (tmp_path / "bob.png").write_bytes((tmp_path / "ann.png").read_bytes())
    code, _, err = status(["verify", "ann.png", "bob.png"], tmp_path, capsys)
    assert code == 2 and "bob.png: error: the same photo as ann.png" in err
    assert not list(tmp_path.glob("*.read.*"))


def test_a_question_mark_left_from_a_photo_exits_1_as_the_photo_does(tmp_path, capsys):
    """A ``.read.yaml`` verified as it is (its ``?`` not yet replaced) needs a person, like the photo: exit 1, every
    ``?`` located; not "not a card code" (exit 2)."""
    lines = GOOD_SHEET.splitlines()
    row = next(i for i, ln in enumerate(lines) if ln.startswith("  10S JS"))
    lines[row] = lines[row].replace("JS ", "?  ", 1)  # b1, the second token of grid row 1
    lines = [ln.replace("earned: 6", 'earned: "?"') for ln in lines]
    write(tmp_path, "ann.read.yaml", "\n".join(lines) + "\n")
    code, out, err = status(["verify", "ann.read.yaml"], tmp_path, capsys)
    assert code == 1 and out == ""
    b1 = f"ann.read.yaml:{row + 1}:7: error: b1: uncertain in the photo"
    chips_line = next(i for i, ln in enumerate(lines) if ln.startswith("chips:")) + 1
    assert b1 in err and f"ann.read.yaml:{chips_line}:17: error: chips.earned: uncertain in the photo" in err
    code, out, _ = status(["verify", "ann.read.yaml", "--json"], tmp_path, capsys)
    got = json.loads(out)
    assert code == 1 and got["status"] == "uncertain"
    assert [(p["line"], p["col"]) for p in got["problems"]] == [(row + 1, 7), (chips_line, 17)]
