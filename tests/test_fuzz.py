"""Every input format and every option, fuzzed (issue 14): no traceback, no stray file, no escape sequence.

Each test starts from shipped files and docs/examples, mutates them with
hypothesis (odd numbers, other scripts' digits, control characters, huge
values, NaN, other types, deleted, duplicated or swapped lines, truncation,
tabs, a BOM, CRLF, any character) and runs the command in-process.  The
property (tests/fuzzing.py, :func:`check_run`): exit status 0, 1 or 2; no
traceback; nothing printed a terminal would act on; every error about the
fuzzed file names its line; nothing written when the run fails, no
temporary file left either way.

The examples are derandomised so CI is repeatable; ``FUZZ_EXAMPLES=10`` runs
ten times as many (with fresh random draws) for a deeper search.
"""

from __future__ import annotations

import os
import shutil
import xml.dom.minidom
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzzing import EXAMPLES, LAYOUTS, check_run, mutated, mutations, run, scratch

DEEP = int(os.environ.get("FUZZ_EXAMPLES", "1"))


def fuzz(examples: int):
    """Hypothesis settings for ``examples`` runs (times ``FUZZ_EXAMPLES``)."""
    return settings(
        max_examples=examples * DEEP,
        deadline=None,
        derandomize=DEEP == 1,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


COMPONENTS = sorted(p for p in LAYOUTS.glob("*/*.yaml"))


@lru_cache(maxsize=None)
def game_log_text() -> str:
    """A legal two-player All In game log, played by the bots (the shipped Q♦ sheet)."""
    from generator.games.allin.bot import simulate_game
    from generator.games.allin.game_log import dump_game_log
    from generator.games.allin.layout import load_layout

    return dump_game_log(simulate_game(load_layout(LAYOUTS / "allin" / "q-diamonds.yaml"), 2, 3).log)


def setup_folder(d: Path) -> None:
    """What every example's folder holds besides the fuzzed file: a symlink loop, a folder, a plain file."""
    os.symlink("loop.yaml", d / "loop.yaml")
    (d / "a-folder").mkdir()
    (d / "plain").write_text("x\n", encoding="utf-8")


# --------------------------------------------------------------------------- input formats


@pytest.mark.slow
@fuzz(60)
@given(source=st.sampled_from(COMPONENTS), ops=mutations)
def test_check_every_layout_deck_chip_sheet_and_pad(source, ops):
    with scratch() as d:
        setup_folder(d)
        (d / f"{source.stem}.yaml").write_bytes(mutated(source.read_text(encoding="utf-8"), ops))
        check_run(run(["check", f"{source.stem}.yaml"], d), fuzzed=f"{source.stem}.yaml")


@fuzz(20)
@given(
    source=st.sampled_from([*COMPONENTS, EXAMPLES / "ann.yaml", EXAMPLES / "flip7-pad.yaml"]),
    ops=mutations,
    as_json=st.booleans(),
)
def test_show_a_mutated_file(source, ops, as_json):
    with scratch() as d:
        setup_folder(d)
        (d / f"{source.stem}.yaml").write_bytes(mutated(source.read_text(encoding="utf-8"), ops))
        check_run(
            run(["show", f"{source.stem}.yaml", *(["--json"] if as_json else [])], d), fuzzed=f"{source.stem}.yaml"
        )


@fuzz(6)
@given(source=st.sampled_from([p for p in COMPONENTS if p.parent.name != "decks"]), ops=mutations)
def test_render_a_mutated_layout(source, ops):
    with scratch() as d:
        setup_folder(d)
        (d / f"{source.stem}.yaml").write_bytes(mutated(source.read_text(encoding="utf-8"), ops))
        r = run(["render", f"{source.stem}.yaml", "-o", "out.pdf"], d)
        # a user's All In layout also keeps its sheet's form beside it (generator.printing.forms)
        check_run(r, fuzzed=f"{source.stem}.yaml", outputs=("out.pdf", "out.json", f"{source.stem}.forms"))


@pytest.mark.slow
@fuzz(40)
@given(ops=mutations)
def test_verify_a_typed_in_sheet(ops):
    with scratch() as d:
        setup_folder(d)
        (d / "ann.yaml").write_bytes(mutated((EXAMPLES / "ann.yaml").read_text(encoding="utf-8"), ops))
        shutil.copy(EXAMPLES / "bob.yaml", d / "bob.yaml")
        check_run(run(["verify", "ann.yaml", "bob.yaml"], d), fuzzed="ann.yaml")


@pytest.mark.slow
@fuzz(8)
@given(ops=mutations)
def test_fill_a_sheet_as_svg(ops):
    """render --fill: the SVG written is well-formed XML, whatever the sheet said."""
    with scratch() as d:
        setup_folder(d)
        (d / "ann.yaml").write_bytes(mutated((EXAMPLES / "ann.yaml").read_text(encoding="utf-8"), ops))
        r = run(["render", "q-diamonds", "--fill", "ann.yaml", "-o", "out.svg"], d)
        check_run(r, fuzzed="ann.yaml", outputs=("out.svg",))
        if r.code == 0:
            xml.dom.minidom.parse(str(d / "out.svg"))


@fuzz(30)
@given(ops=mutations)
def test_replay_a_game_log(ops):
    with scratch() as d:
        setup_folder(d)
        (d / "game.yaml").write_bytes(mutated(game_log_text(), ops))
        check_run(run(["replay", "game.yaml", "--sheets", "sheets"], d), fuzzed="game.yaml", outputs=("sheets",))


@pytest.mark.slow
@fuzz(40)
@given(source=st.sampled_from(["flip7-pad.yaml", "fundex-game.yaml", "flipflop-evening.yaml"]), ops=mutations)
def test_verify_a_pad_or_round_log(source, ops):
    with scratch() as d:
        setup_folder(d)
        (d / source).write_bytes(mutated((EXAMPLES / source).read_text(encoding="utf-8"), ops))
        check_run(run(["verify", source], d), fuzzed=source)


@fuzz(10)
@given(
    source=st.sampled_from(["flip7-pad.yaml", "fundex-game.yaml", "flipflop-evening.yaml", "ann.yaml"]), ops=mutations
)
def test_verify_json_is_json(source, ops):
    """--json prints one JSON document on stdout, or nothing when the file cannot be read."""
    import json

    with scratch() as d:
        (d / source).write_bytes(mutated((EXAMPLES / source).read_text(encoding="utf-8"), ops))
        r = run(["verify", source, "--json"], d)
        check_run(r, fuzzed=source)
        if r.code in (0, 1) and r.out.strip():
            json.loads(r.out[r.out.index("{") :])


# --------------------------------------------------------------------------- options

ODD_INTS = [
    "0",
    "-1",
    "1",
    "2",
    "٣",
    "²",
    "５",
    "1e3",
    "nan",
    "inf",
    "",
    " ",
    "1_0",
    "0x10",
    "9" * 30,
    "9" * 5000,
    "3.5",
    "+2",
]
ODD_FLOATS = ["0", "3", "6", "6.01", "-0", "nan", "NaN", "inf", "-inf", "1e308", "1e309", "٣", "²", "1_0", "", "0x1p1"]
ODD_OFFSETS = [
    "0,0",
    "1,-1",
    "nan,0",
    "0,nan",
    "inf,0",
    "1e309,0",
    "٣,0",
    "1",
    "1,2,3",
    "",
    ",",
    "a,b",
    "10.5,0",
    " 1 , 2 ",
    "1e1,0",
    "0x1,0",
    "1_0,0",
    "½,0",
    "1" * 5000 + ",0",
]
ODD_NAMES = [
    "out.pdf",
    "out.svg",
    "out.png",
    "out.txt",
    "out",
    "sub/out.pdf",
    "a-folder",
    "plain/out.pdf",
    "plain",
    "\x1b[31mred.pdf",
    "l\u202eoop.pdf",
    "loop.yaml",
    "out.PDF",
    ".pdf",
    " .pdf",
    "x" * 3000 + ".pdf",
]
REFS = [
    "q-diamonds",
    "poker-deck",
    "flip7-pad",
    "fundex-chips",
    "fundex-ledger",
    "nope",
    "loop.yaml",
    "missing.yaml",
    "a-folder",
    "plain",
    "\x1b]0;x\x07",
    "Q-DIAMONDS",
    "q-diamond",
    "../layouts/allin/q-diamonds.yaml",
    "x" * 3000,
    "x" * 3000 + ".yaml",
]


def _opt(name, values):
    """``[name, value]`` for one of ``values``, or nothing."""
    return st.one_of(st.just([]), st.sampled_from(values).map(lambda v: [name, v]))


def _flag(name):
    return st.one_of(st.just([]), st.just([name]))


render_args = st.tuples(
    st.sampled_from(REFS).map(lambda r: [r]),
    _opt("--format", ["pdf", "svg", "png", "PDF", "jpg", ""]),
    _opt("--paper", ["a4", "letter", "A4", "a5", ""]),
    _opt("-o", ODD_NAMES),
    _flag("--force"),
    _opt("--dpi", ["50", "72"] + ODD_INTS),
    _opt("--bleed", ODD_FLOATS),
    _flag("--no-backs"),
    _opt("--back-offset", ODD_OFFSETS),
    _opt("--card-size", ["poker", "bridge", "poker-in", "huge", "", "POKER"]),
    _opt(
        "--variant",
        [
            "target=150",
            "flip7_bonus=0",
            "target=²",
            "target=1" + "0" * 5000,
            "target=",
            "x=1",
            "target=49",
            "target=150,flip7_bonus=15",
            ",",
            "target=٣٠٠",
        ],
    ),
    _opt("--fill", ["ann.yaml", "missing.yaml", "loop.yaml", "a-folder", "plain"]),
    _opt("--page", ["1", "2", "all", "0", "²", "99999", "x", ""]),
).map(lambda parts: ["render"] + [a for p in parts for a in p])

YAML_NAMES = [
    "mine.yaml",
    "existing/ann.yaml",
    "a-folder",
    "plain/x.yaml",
    "\x1b[31mx.yaml",
    "x" * 3000 + ".yaml",
    "loop.yaml",
    "sub/new.yaml",
    "mine.txt",
    "",
]
designer_args = st.one_of(
    st.tuples(
        st.just(["new"]),
        st.sampled_from(YAML_NAMES).map(lambda v: [v]),
        _opt("--from", REFS + ["ann.yaml", "q.yaml"]),
        _flag("--force"),
    ),
    st.tuples(
        st.just(["show"]),
        st.sampled_from(
            [
                "q.yaml",
                "ann.yaml",
                "fp.yaml",
                "game.yaml",
                "loop.yaml",
                "missing.yaml",
                "plain",
                "a-folder",
                "q-diamonds",
                "poker-deck",
            ]
        ).map(lambda v: [v]),
        _flag("--json"),
    ),
    st.tuples(
        st.just(["schema"]),
        st.sampled_from(
            [
                "allin-layout",
                "deck",
                "chips",
                "pad",
                "allin-sheet",
                "flip7-pad",
                "allin-game-log",
                "fundex-log",
                "flipflop-log",
                "nope",
                "\x1b[2J",
                "",
            ]
        ).map(lambda v: [v]),
    ),
    # balance with at least one bad option: refused before any game is played
    st.tuples(
        st.just(["balance"]),
        st.sampled_from(
            [["--games", v] for v in ("0", "٣", "nan", "-1", "9" * 30)]
            + [["--players", v] for v in ("0", "9", "²")]
            + [["--workers", v] for v in ("0", "-1", "٣")]
            + [["--seed", "²"]]
        ),
    ),
).map(lambda parts: [a for p in parts for a in p])

simulate_args = st.one_of(
    st.tuples(
        st.just(["simulate", "allin"]),
        _opt("--players", ["1", "2"] + ODD_INTS),
        _opt("--seed", ["1", "7", "-3"] + ODD_INTS),
        _opt("--layout", REFS),
        st.sampled_from(["g", "a-folder", "plain", "plain/g", "existing"]).map(lambda v: ["-o", v]),
        _flag("--force"),
    ),
    st.tuples(
        st.just(["simulate", "flip7"]),
        _opt("--players", ["3", "4"] + ODD_INTS),
        _opt("--seed", ["1", "-3"] + ODD_INTS),
        st.sampled_from(["1", "5"] + [v for v in ODD_INTS if not v.strip().isdigit() or len(v) > 6]).map(
            lambda v: ["--games", v]
        ),
        _opt("--target", ["50", "200", "49", "1001", "²", "nan"]),
        _opt(
            "--strategy",
            ["stop-at-20", "stop-at-²", "stop-at-", "stop-at-9999", "stop-at-٣", "always", "", "stop-at-" + "9" * 5000],
        ),
    ),
).map(lambda parts: [a for p in parts for a in p])

other_args = st.one_of(
    st.tuples(
        st.just(["verify"]),
        st.lists(
            st.sampled_from(
                ["ann.yaml", "bob.yaml", "missing.yaml", "loop.yaml", "a-folder", "plain", "fp.yaml", "\x1b[2J.yaml"]
            ),
            min_size=0,
            max_size=3,
        ),
        _flag("--json"),
        _opt("--layout", REFS),
    ),
    st.tuples(
        st.just(["replay"]),
        st.sampled_from([["game.yaml"], ["ann.yaml"], ["loop.yaml"], ["missing.yaml"], []]),
        _flag("--json"),
        _opt("--sheets", ["s", "a-folder", "plain", "plain/s", "existing"]),
        _flag("--force"),
    ),
    st.tuples(
        st.just(["check"]),
        st.lists(
            st.sampled_from(
                ["q.yaml", "ann.yaml", "loop.yaml", "missing.yaml", "a-folder", "plain", "\x1b]0;t\x07.yaml"]
            ),
            min_size=0,
            max_size=3,
        ),
    ),
    # build with at least one bad option: it must stop before writing anything
    st.tuples(
        st.just(["build", "-d", "out"]),
        st.sampled_from(
            [["--dpi", v] for v in ODD_INTS if v not in ("1", "2")]
            + [["--bleed", v] for v in ("nan", "7", "٣", "inf")]
            + [["--back-offset", v] for v in ODD_OFFSETS if v not in ("0,0", "1,-1", " 1 , 2 ", "1e1,0")]
            + [["--paper", "a5"]]
        ),
    ),
    st.tuples(
        st.sampled_from(
            [
                ["layouts"],
                ["--version"],
                ["--help"],
                ["frobnicate"],
                ["render"],
                [],
                ["\x1b[31mfoo"],
                ["render", "q-diamonds", "--\x1b[2Jx"],
                ["render", "q-diamonds", "--paper", "\x1b]0;t\x07"],
            ]
        )
    ),
).map(lambda parts: [a for p in parts for a in p])


def options_folder(d: Path) -> None:
    setup_folder(d)
    shutil.copy(EXAMPLES / "ann.yaml", d / "ann.yaml")
    shutil.copy(EXAMPLES / "bob.yaml", d / "bob.yaml")
    shutil.copy(EXAMPLES / "flip7-pad.yaml", d / "fp.yaml")
    shutil.copy(LAYOUTS / "allin" / "q-diamonds.yaml", d / "q.yaml")
    (d / "game.yaml").write_text(game_log_text(), encoding="utf-8")
    (d / "existing").mkdir()
    (d / "existing" / "ann.yaml").write_text("mine\n", encoding="utf-8")  # a user's file: never overwritten unasked
    (d / "existing" / "game.yaml").write_text("mine\n", encoding="utf-8")


@fuzz(45)
@given(args=st.one_of(render_args, simulate_args, other_args, designer_args))
def test_every_option(args):
    with scratch() as d:
        options_folder(d)
        r = run(args, d)
        check_run(r, outputs=None)  # what a successful run writes depends on the options; a failed one writes nothing
        if "--force" not in args:
            assert (d / "existing" / "ann.yaml").read_text(encoding="utf-8") == "mine\n"
            assert (d / "existing" / "game.yaml").read_text(encoding="utf-8") == "mine\n"


# --------------------------------------------------------------------------- the issue's reproductions, one by one


def test_reproductions_of_the_issue(tmp_path):
    """Each reproduction of issue 14 gives a one-line located error (or correct output) with exit 1 or 2."""
    fundex = (EXAMPLES / "fundex-game.yaml").read_text(encoding="utf-8")
    flipflop = (EXAMPLES / "flipflop-evening.yaml").read_text(encoding="utf-8")
    ann = (EXAMPLES / "ann.yaml").read_text(encoding="utf-8")
    (tmp_path / "fx.yaml").write_text(fundex.replace("Ann: 5, Bob: 2", 'Ann: "²", Bob: 2', 1), encoding="utf-8")
    (tmp_path / "ff.yaml").write_text(flipflop.replace("Cy layoff 8S on 1", "Cy layoff 8S on ²"), encoding="utf-8")
    (tmp_path / "big.yaml").write_text(fundex.replace("Ann bet 1", "Ann bet 1" + "0" * 5000, 1), encoding="utf-8")
    (tmp_path / "nul.yaml").write_text(ann.replace("player: Ann", 'player: "A\\0nn"'), encoding="utf-8")
    (tmp_path / "esc.yaml").write_text(
        ann.replace("player: Ann", 'player: "\\e]0;PWNED\\a\\e[31mAnn"'), encoding="utf-8"
    )
    (tmp_path / "zeros.yaml").write_text(ann.replace("player: Ann", "player: 0012"), encoding="utf-8")
    (tmp_path / "cjk.yaml").write_text(ann.replace("player: Ann", 'player: "Алёна 李"'), encoding="utf-8")
    os.symlink("loop.yaml", tmp_path / "loop.yaml")
    pdf = run(["render", "q-diamonds", "-o", "sheet.pdf"], tmp_path)
    assert pdf.code == 0
    cases = [
        (["verify", "fx.yaml"], 2, "fx.yaml:11:18: error: "),
        (["verify", "ff.yaml"], 2, "ff.yaml:19:25: error: "),
        (["verify", "big.yaml"], 2, "big.yaml:"),
        (["render", "flip7-pad", "--variant", "target=²", "-o", "v.pdf"], 2, "--variant"),
        (["simulate", "flip7", "--strategy", "stop-at-²"], 2, "--strategy"),
        (["render", "poker-deck", "--back-offset", "nan,nan", "-o", "d.pdf"], 2, "--back-offset"),
        (["build", "--back-offset", "nan,0", "-d", "out"], 2, "--back-offset"),
        (["check", "loop.yaml"], 2, "loop.yaml: error: is a symbolic link that leads back to itself"),
        (["verify", "loop.yaml"], 2, "loop.yaml: error: is a symbolic link that leads back to itself"),
        (["replay", "loop.yaml"], 2, "loop.yaml: error: is a symbolic link that leads back to itself"),
        (["render", "loop.yaml"], 2, "loop.yaml: error: is a symbolic link that leads back to itself"),
        (["render", "q-diamonds", "--fill", "loop.yaml", "-o", "f.svg"], 2, "loop.yaml: error: is a symbolic link"),
        (
            ["render", "q-diamonds", "--fill", "nul.yaml", "-o", "x.svg"],
            2,
            "nul.yaml:5:9: error: 'A\\x00nn' holds the control character (U+0000 NULL)",
        ),
        (
            ["verify", "esc.yaml"],
            2,
            "esc.yaml:5:9: error: '\\x1b]0;PWNED\\x07\\x1b[31mAnn' holds the control character (U+001B ESCAPE)",
        ),
        (["verify", "sheet.pdf"], 2, "sheet.pdf: error: this is a PDF document"),
        (
            ["check", "sheet.pdf"],
            2,
            "sheet.pdf: error: this is a PDF document, not YAML text; check and render read layout",
        ),
        (["verify", "zeros.yaml"], 2, "zeros.yaml:5:9: error: player must be text, not 0012;"),
    ]
    for args, code, said in cases:
        r = run(args, tmp_path)
        check_run(r, outputs=())
        assert r.code == code, (args, r.code, r.err)
        assert said in r.err, (args, r.err)
        assert len(r.err.strip().splitlines()) == 1, (args, r.err)
    # names outside the sheet font: refused unless a font has them all (never boxes)
    from generator.printing.fonts import missing_glyphs

    r = run(["render", "q-diamonds", "--fill", "cjk.yaml", "-o", "cjk.pdf"], tmp_path)
    check_run(r, fuzzed="cjk.yaml", outputs=("cjk.pdf",))
    if missing_glyphs("Алёна 李", "italic"):
        assert (
            r.code == 2
            and "cjk.yaml:5:9: error: player: '李' (U+674E CJK UNIFIED IDEOGRAPH-674E) cannot be printed" in r.err
        )
    else:
        assert r.code == 0


def test_a_layout_with_3000_hands_prints_a_few_lines(tmp_path):
    """Repeated messages are cut: 10 of a kind, then one '… and N more like this' line."""
    text = (LAYOUTS / "allin" / "q-diamonds.yaml").read_text(encoding="utf-8")
    hands = "hands:\n" + "".join(f"  H{n}: {{reward: single, bonus: 2}}\n" for n in range(3000))
    (tmp_path / "big.yaml").write_text(text[: text.index("hands:")] + hands, encoding="utf-8")
    r = run(["check", "big.yaml"], tmp_path)
    check_run(r, fuzzed="big.yaml")
    lines = r.err.strip().splitlines()
    assert r.code == 1
    not_in_grid = [ln for ln in lines if "is not in the grid" in ln]
    assert len(not_in_grid) == 10 and "big.yaml: … and 2,990 more like this" in lines
    assert len(lines) <= 25
