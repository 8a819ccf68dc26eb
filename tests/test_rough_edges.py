"""Rough edges a new user hit (issue 15, item 7): piped output, misplaced indentation, short links, help text."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .test_exit_codes import status

REPO = Path(__file__).resolve().parents[1]
Q_DIAMONDS = (REPO / "layouts" / "allin" / "q-diamonds.yaml").read_text(encoding="utf-8")


def _sheetsmith(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    """``sheetsmith ARGS`` in a fresh process with stdout and stderr piped (not terminals)."""
    return subprocess.run(
        [sys.executable, "-m", "generator.cli.app", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "TERM": "dumb"},
        timeout=120,
    )


@pytest.mark.slow
def test_piped_output_is_never_wrapped_at_80_columns():
    res = _sheetsmith("layouts")
    assert res.returncode == 0, res.stderr
    # The contents column is written from the layouts' own numbers; on one line each, as a
    # terminal 200 columns wide would show it.  A console wrapping at 80 splits these cells.
    row = next(line for line in res.stdout.splitlines() if " q-diamonds " in line)
    assert "10 hands, 24 spaces, 5 single / 5 double rewards" in row
    row = next(line for line in res.stdout.splitlines() if " flip7-pad-18 " in line)
    assert "Flip 7 score pad, up to 18 players" in row and "landscape, 18 players, 14 rounds" in row


def test_a_hand_indented_one_space_too_far_is_not_called_a_grid_error(tmp_path, capsys):
    (tmp_path / "mine.yaml").write_text(
        Q_DIAMONDS.replace("  C: {reward: double, bonus: 3}", "   C: {reward: double, bonus: 3}"), encoding="utf-8"
    )
    code, _, err = status(["check", "mine.yaml"], tmp_path, capsys)
    assert code == 2
    # 'C:' is on line 22 of the file, its text starts at column 4 (3 spaces); the hands above start at column 3
    assert err.startswith("mine.yaml:22:4: error: YAML syntax error")
    assert "grid" not in err
    assert "indented 3 spaces" in err and "indented 2" in err


def test_a_grid_row_that_lost_its_indentation_still_gets_the_grid_hint(tmp_path, capsys):
    # line 14 of q-diamonds.yaml is the grid row with the Golden Card; moved to column 0
    (tmp_path / "mine.yaml").write_text(Q_DIAMONDS.replace("\n  o---o---G", "\no---o---G"), encoding="utf-8")
    code, _, err = status(["check", "mine.yaml"], tmp_path, capsys)
    assert code == 2 and err.startswith("mine.yaml:14:1: error: YAML syntax error") and "grid: |" in err


def test_a_two_dash_link_is_named_as_a_short_link(tmp_path, capsys):
    # first grid row '*---o---o---o   o' becomes '*--o---o---o   o': the link a1-b1 has two dashes
    (tmp_path / "mine.yaml").write_text(Q_DIAMONDS.replace("*---o---o---o   o", "*--o---o---o   o"), encoding="utf-8")
    code, _, err = status(["check", "mine.yaml"], tmp_path, capsys)
    assert code == 1
    # grid line 1 is file line 10; the 'o' after '*--' is character 3 of the row, column 3 + 2 + 1
    assert "mine.yaml:10:6: error: grid: a link is exactly three dashes '---'; this one has 2 ('--')" in err
    assert "move it" not in err


def test_help_shows_plain_names(tmp_path, capsys):
    code, out, _ = status(["check", "--help"], tmp_path, capsys)
    assert code == 0
    assert "Usage: sheetsmith check [OPTIONS] FILE..." in out
    assert "{files}" not in out and "<list[Path]>" not in out
    code, out, _ = status(["render", "--help"], tmp_path, capsys)
    assert code == 0
    assert "<bool>" not in out and "<str>" not in out
    force = next(line for line in out.splitlines() if "--force" in line)
    assert force.split()[0] == "--force" and force.split()[1] == "Replace"  # a flag: no value shown
    assert "-o, --output FILE" in out


def test_bare_sheetsmith_prints_help_and_exits_0(tmp_path, capsys):
    code, out, _ = status([], tmp_path, capsys)
    assert code == 0 and "Usage: sheetsmith" in out and "--install-completion" in out


def test_the_kept_top_level_help_is_what_typer_prints():
    from generator.cli.launch import TOP_HELP, typer_help

    assert TOP_HELP == typer_help(), "the CLI changed: run python -m generator.cli.launch to rewrite TOP_HELP"


def test_the_console_script_answers_help_without_loading_typer():
    code = (
        "import sys; sys.argv = ['sheetsmith', '--help']\n"
        "from generator.cli.launch import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    print('exit', e.code, 'typer' in sys.modules, "
        "file=sys.stderr)\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "100"},
    )
    assert res.stderr.strip() == "exit 0 False"
    assert res.stdout.startswith("Usage: sheetsmith [OPTIONS] COMMAND [ARGS]...")
