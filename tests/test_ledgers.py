"""A slip on a paper ledger is reported where it starts, not again in every later round."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def verify_json(path, status=0):
    """The JSON report of ``sheetsmith verify PATH``; ``status`` is the exit code expected (1: rule breaks)."""
    res = subprocess.run(
        [sys.executable, "-m", "generator.cli.app", "verify", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == status, res.stderr
    return json.loads(res.stdout)


def test_one_ledger_slip_is_one_problem(tmp_path):
    # Round 1 of the example: Ann wins the pot of 4 antes + 3 bets and ends on 30. Writing 31
    # there (and carrying the +1 into every later row, as a tired scorer would) is one slip.
    text = (EXAMPLES / "fundex-game.yaml").read_text(encoding="utf-8")
    lines = text.splitlines()
    for n, line in enumerate(lines):
        if line.strip().startswith("chips: {Ann: "):
            value = int(line.split("Ann: ")[1].split(",")[0])
            lines[n] = line.replace(f"Ann: {value},", f"Ann: {value + 1},", 1)
    bad = tmp_path / "slip.yaml"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = verify_json(bad, status=1)  # the slip is a rule break: exit 1
    ann = [p for p in report["problems"] if p["player"] == "Ann"]
    assert [p["round"] for p in ann] == [1]
    assert "the ledger gives Ann 31 points of chips after round 1, but the round leaves 30" in ann[0]["message"]
    assert verify_json(EXAMPLES / "fundex-game.yaml")["problems"] == []
