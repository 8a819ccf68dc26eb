"""Numbers in the two round-log formats (All In (Fundex), Flip Flop): ASCII digits only, bounded length.

``str.isdigit`` and ``\\d`` accept ``²``, ``٣``, ``５``; ``int`` then fails (or reads a digit nobody at the
table would), and 5,000 digits exceed Python's int-string limit.  A log must give a located
``FILE:LINE:COL`` error for every such number and never a traceback (issue 14, item 1).
"""

from __future__ import annotations

import doctest
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.core import validation
from generator.core.errors import InputError
from generator.games.flipflop.log import flipflop_report, load_flipflop_log
from generator.games.fundex.log import fundex_report, load_fundex_log

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
FUNDEX = (EXAMPLES / "fundex-game.yaml").read_text(encoding="utf-8")
FLIPFLOP = (EXAMPLES / "flipflop-evening.yaml").read_text(encoding="utf-8")
HUGE = "9" * 5000


def copy_with(tmp_path: Path, text: str, old: str, new: str, name: str = "log.yaml") -> Path:
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def position(text: str, old: str, offset: int) -> tuple[int, int]:
    """1-based line and column of character ``offset`` of the first ``old`` in ``text`` (the test's own count)."""
    at = text.index(old) + offset
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def test_ascii_number_doctest():
    result = doctest.testmod(validation)
    assert result.attempted >= 2 and result.failed == 0


# ---------------------------------------------------------------------------
# The reproductions of the issue, and their neighbours


@pytest.mark.parametrize("card", ["²", "٣", "５", "1" + HUGE])
def test_fundex_card_in_other_digits_is_a_located_error(tmp_path, card):
    """docs/examples/fundex-game.yaml with Ann's first card written "²" (and other non-ASCII digits, and a
    number far too long): one error at Ann's card, saying the cards are 1 to 13 in the digits 0-9."""
    old = "cards: {Ann: 5,"
    path = copy_with(tmp_path, FUNDEX, old, f'cards: {{Ann: "{card}",')
    line, col = position(FUNDEX, old, len("cards: {Ann: "))
    with pytest.raises(InputError) as exc:
        load_fundex_log(path)
    (problem,) = exc.value.problems
    assert (problem.file, problem.line, problem.col) == (str(path), line, col)
    assert "All In cards are the numbers 1 to 13, written with the digits 0-9" in problem.message


@pytest.mark.parametrize(
    "amount, says",
    [
        ("²", "write the number with the digits 0-9 only (at most 6 digits), not '²'"),
        ("٣", "write the number with the digits 0-9 only (at most 6 digits), not '٣'"),
        ("５", "write the number with the digits 0-9 only (at most 6 digits), not '５'"),
        ("nan", "write the number with the digits 0-9 only (at most 6 digits), not 'nan'"),
        (HUGE, "a number here has at most 6 digits; '" + "9" * 39 + "…' has 5000"),
        ("1234567", "a number here has at most 6 digits; '1234567' has 7"),
    ],
)
def test_fundex_bet_in_other_digits_or_too_long_is_a_located_error(tmp_path, amount, says):
    """A bet of '²' or of 5,000 digits: an error at the number, never a traceback."""
    old = "Ann bet 1, Bob pass, Cy meet, Dee meet"
    path = copy_with(tmp_path, FUNDEX, old, old.replace("bet 1", f"bet {amount}"))
    line, col = position(FUNDEX, old, len("Ann bet "))
    with pytest.raises(InputError) as exc:
        load_fundex_log(path)
    (problem,) = exc.value.problems
    assert (problem.line, problem.col) == (line, col)
    assert problem.message == f"the points of 'Ann bet': {says}"


def test_fundex_six_digit_bet_is_read_and_played_as_all_in(tmp_path):
    """999999 is within the limit: it is read, and the core plays it as ALL IN (Ann has 24 after the ante)."""
    old = "Ann bet 1, Bob pass, Cy meet, Dee meet"
    path = copy_with(tmp_path, FUNDEX, old, old.replace("bet 1", "bet 999999"))
    report = fundex_report(load_fundex_log(path))
    assert any("has only 24 chips" in p["message"] for p in report["problems"])


@pytest.mark.parametrize(
    "number, says",
    [
        ("²", "write the number with the digits 0-9 only (at most 6 digits), not '²'"),
        ("٣", "write the number with the digits 0-9 only (at most 6 digits), not '٣'"),
        (HUGE, "a number here has at most 6 digits; '" + "9" * 39 + "…' has 5000"),
    ],
)
def test_flipflop_layoff_number_in_other_digits_or_too_long_is_a_located_error(tmp_path, number, says):
    """docs/examples/flipflop-evening.yaml with `Cy layoff 8S on ²`: an error at the number."""
    old = "Cy layoff 8S on 1"
    path = copy_with(tmp_path, FLIPFLOP, old, f"Cy layoff 8S on {number}")
    line, col = position(FLIPFLOP, old, len("Cy layoff 8S on "))
    with pytest.raises(InputError) as exc:
        load_flipflop_log(path)
    (problem,) = exc.value.problems
    assert (problem.line, problem.col) == (line, col)
    assert problem.message == f"the spread number after 'on': {says}"


def test_flipflop_spread_numbers_start_at_one(tmp_path):
    old = "Cy layoff 8S on 1"
    for number in ("0", "-1"):
        path = copy_with(tmp_path, FLIPFLOP, old, f"Cy layoff 8S on {number}")
        with pytest.raises(
            InputError,
            match=rf"spreads are numbered 1, 2, … in the order they were laid this round, "
            rf"not {number}",
        ):
            load_flipflop_log(path)


@pytest.mark.parametrize(
    "text, old, new, offset",
    [
        (FUNDEX, "cards: {Ann: 5,", 'cards: {Ann: "²",', len("cards: {Ann: ")),
        (FLIPFLOP, "Cy layoff 8S on 1", "Cy layoff 8S on ²", len("Cy layoff 8S on ")),
    ],
)
def test_verify_reports_the_issue_reproductions_without_a_traceback(tmp_path, text, old, new, offset):
    """The command end to end: one located error line, no traceback, exit 2 (the log cannot be read)."""
    path = copy_with(tmp_path, text, old, new)
    line, col = position(text, old, offset)
    res = subprocess.run(
        [sys.executable, "-m", "generator.cli.app", "verify", str(path)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = res.stdout + res.stderr
    assert res.returncode == 2 and "Traceback" not in out
    assert f"{path}:{line}:{col}: error:" in out and "digits 0-9" in out


# ---------------------------------------------------------------------------
# Hypothesis: mutate the numbers of both formats

ODD_NUMBERS = st.one_of(
    st.sampled_from(
        [
            "²",
            "٣",
            "５",
            "߃",
            "𝟓",
            "١٢",
            "Ⅻ",
            "½",
            "nan",
            "NaN",
            ".nan",
            "-.inf",
            "inf",
            "1e400",
            "1_000",
            "0x1F",
            "-0",
            "+3",
            "00012",
            "1.5",
            "-1",
            "-999999",
            "9999999",
            "",
            "1 2",
        ]
    ),
    st.integers(-(10**7), 10**7).map(str),
    st.integers(7, 6000).map(lambda n: "9" * n),
    st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=4),
)
NUMBER = re.compile(r"[0-9]+")
IN_LINE = re.compile(r"(?<=bet |ise | on )[0-9]+")
"""Numbers read from inside a line (bet and raise amounts, lay-off spread numbers): drawn more often."""


def mutate(data, text: str) -> str:
    """Replace one to three numbers of ``text`` (values, amounts, card ranks alike) with odd ones."""
    spots = [m.span() for m in NUMBER.finditer(text)] + [m.span() for m in IN_LINE.finditer(text)] * 10
    chosen = sorted(
        set(data.draw(st.lists(st.sampled_from(spots), min_size=1, max_size=3), label="spots")), reverse=True
    )
    for start, end in chosen:
        new = data.draw(ODD_NUMBERS, label="number")
        if data.draw(st.booleans(), label="quoted"):
            new = f'"{new}"'
        text = text[:start] + new + text[end:]
    return text


def check_reads_or_locates(path: Path, load, report_of) -> None:
    """The property: either a report (plain data, `winners` a list, every problem located), or an
    InputError whose every problem names the file and a line.  Any other exception fails the test."""
    try:
        report = report_of(load(path))
    except InputError as exc:
        assert exc.problems
        for problem in exc.problems:
            assert problem.file == str(path) and problem.line >= 1, str(problem)
        return
    json.dumps(report)
    assert isinstance(report["winners"], list)
    for problem in report["problems"]:
        assert problem["line"] >= 1 and problem["at"].startswith(f"{path}:"), problem


@pytest.mark.slow
@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_mutated_numbers_in_a_fundex_log_give_a_report_or_a_located_error(tmp_path, data):
    path = tmp_path / "fundex.yaml"
    path.write_text(mutate(data, FUNDEX), encoding="utf-8")
    check_reads_or_locates(path, load_fundex_log, fundex_report)


@pytest.mark.slow
@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_mutated_numbers_in_a_flipflop_log_give_a_report_or_a_located_error(tmp_path, data):
    path = tmp_path / "flipflop.yaml"
    path.write_text(mutate(data, FLIPFLOP), encoding="utf-8")
    check_reads_or_locates(path, load_flipflop_log, flipflop_report)
