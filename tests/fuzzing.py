"""Helpers of the fuzz tests (tests/test_fuzz.py): run ``sheetsmith`` in-process, mutate YAML, check a run.

A run is judged by what a user sees (issue 14): the exit status is 0, 1 or 2;
nothing escapes as a traceback; what is printed holds no control character a
terminal would act on; an error about a fuzzed file names its line; a run
that fails leaves no file behind, and no run leaves a temporary file.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from generator.cli.app import main

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "docs" / "examples"
LAYOUTS = REPO / "layouts"


@dataclass
class Run:
    """One in-process ``sheetsmith`` run: exit status, what it printed, the files it left in its folder."""

    code: int
    out: str
    err: str
    before: set[str]
    after: set[str]


def files_under(folder: Path) -> set[str]:
    """Every file and folder under ``folder``, relative, hidden ones included."""
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def run(args: list[str], cwd: Path) -> Run:
    """``sheetsmith ARGS`` in ``cwd`` through the console entry point, stdout and stderr captured."""
    old_argv, old_cwd = sys.argv, os.getcwd()
    before = files_under(cwd)
    out, err = io.StringIO(), io.StringIO()
    sys.argv = ["sheetsmith", *map(str, args)]
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else -1)
    finally:
        sys.argv = old_argv
        os.chdir(old_cwd)
    return Run(code, out.getvalue(), err.getvalue(), before, files_under(cwd))


WHOLE_FILE = (
    "file not found",
    "this is ",
    "is not a regular file",
    "is a folder",
    "larger than",
    "symbolic link",
    "cannot read the file",
    "nested too deeply",
    "the file name",
)
"""Errors about a file as a whole: they carry no line number."""


def check_run(r: Run, *, fuzzed: str | None = None, outputs: tuple[str, ...] | None = ()) -> None:
    """Assert the properties of issue 14 for one run (see the module docstring).

    Args:
        fuzzed: the name of the mutated file as messages show it: its error lines must name a line.
        outputs: files (or folders) the command may write when it succeeds (None: any).
    """
    assert r.code in (0, 1, 2), (r.code, r.err[-2000:])
    for stream in (r.out, r.err):
        assert "Traceback" not in stream, stream[-3000:]
        bad = [
            ch
            for ch in stream
            if ch != "\n"
            and (
                unicodedata.category(ch) in ("Cc", "Cs")
                or ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
            )
        ]
        assert not bad, (bad[:5], stream[-2000:])
    if fuzzed is not None:
        for line in r.err.splitlines():
            if line.startswith(f"{fuzzed}:") and ": error:" in line and not any(w in line for w in WHOLE_FILE):
                assert re.match(rf"{re.escape(fuzzed)}:[1-9][0-9]*(:[0-9]+)?: error: ", line), line
    new = r.after - r.before
    assert not [n for n in new if n.endswith((".tmp", ".old"))], new
    if r.code != 0:
        assert not new, (new, r.err[-1000:])
    elif outputs is not None:
        assert all(any(n == o or n.startswith(o + os.sep) for o in outputs) for n in new), (new, outputs)


@contextlib.contextmanager
def scratch():
    """A fresh folder for one example (hypothesis runs many examples in one test)."""
    with tempfile.TemporaryDirectory(prefix="sheetsmith-fuzz-") as d:
        yield Path(d)


# --------------------------------------------------------------------------- mutations

ODD_SCALARS = [
    "-1",
    "0",
    "0012",
    "1_000",
    "007.50",
    "99999999999999999999",
    "1" * 40,
    "1e999",
    "1.0e+999",
    "-1.0e+999",
    ".nan",
    ".inf",
    "-.inf",
    "NaN",
    "0x1F",
    "0o17",
    "1:30",
    "+4",
    "3.0",
    "²",
    "٣",
    "５",
    '"٣٣"',
    '"²"',
    "'１２'",
    "Ⅻ",
    "½",
    '"\\0"',
    '"\\e[31mX"',
    '"\\x1b]0;T\\a"',
    '"\\u202eX"',
    '"\\ud800"',
    '"\\U00110000"',
    '"a\\tb"',
    '"a\\nb"',
    '"\\x85"',
    '"\\uFFFE"',
    '"\\x7f"',
    '"\\u2028"',
    "9" * 5000,
    "x" * 3000,
    '"李李李"',
    '"Алёна Ωμέγα"',
    '"[/x]"',
    '"[bold]x"',
    '":smile:"',
    '"%s%n"',
    '"😀"',
    "[]",
    "{}",
    "null",
    "~",
    "true",
    "no",
    "[1, [2, [3]]]",
    "{a: 1}",
    "&a x",
    "*a",
    "!!python/object:os.system x",
    "!!binary aGk=",
    "!!str 12",
    "'",
    '"',
    "|",
    ">",
    "- x",
    "? x",
    "@x",
    "`x",
    "2001-01-01",
    "../../etc/passwd",
    "/dev/zero",
    "/dev/stdin",
    "loop.yaml",
    "missing.yaml",
    "q-diamonds",
    "k-spades",
    "x" * 300 + "/y",
    "a-folder",
    "plain/x.yaml",
]
"""Values a scalar is replaced with: odd numbers, other scripts' digits, control characters written as
escapes, huge values, other types, YAML syntax out of place, paths."""

ODD_KEYS = ["x", "game", "kind", "id", "players", "rounds", "hands", '"\\e"', "<<", "? [a]", "1", "Ann", "A"]

_SCALAR = re.compile(r"(?:(?<=: )|(?<=- )|(?<=\[)|(?<=, )|(?<=\{))[^\s,\]\}#\[\{][^,\]\}#\n]*")
_KEY = re.compile(r"(?m)^(\s*(?:- )?)([^\s:#][^:#\n]*)(?=:)")


def _nth(matches: list, k: int):
    return matches[k % len(matches)] if matches else None


def mutate(text: str, op: tuple) -> str:
    """Apply one mutation (see :func:`mutations`) to YAML text."""
    kind = op[0]
    lines = text.split("\n")
    if kind == "scalar":
        m = _nth(list(_SCALAR.finditer(text)), op[1])
        return text if m is None else text[: m.start()] + op[2] + text[m.end() :]
    if kind == "key":
        m = _nth(list(_KEY.finditer(text)), op[1])
        return text if m is None else text[: m.start(2)] + op[2] + text[m.end(2) :]
    if kind == "delete":
        del lines[op[1] % len(lines)]
        return "\n".join(lines)
    if kind == "duplicate":
        i = op[1] % len(lines)
        lines.insert(i, lines[i])
        return "\n".join(lines)
    if kind == "swap":
        i, j = op[1] % len(lines), op[2] % len(lines)
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)
    if kind == "truncate":
        return text[: int(len(text) * op[1])]
    if kind == "tab":
        i = op[1] % len(lines)
        lines[i] = "\t" + lines[i] if op[2] else lines[i].replace(": ", ":\t", 1)
        return "\n".join(lines)
    if kind == "bom":
        return "\ufeff" + text
    if kind == "crlf":
        return text.replace("\n", "\r\n")
    if kind == "char":
        at = int(len(text) * op[1])
        return text[:at] + op[2] + text[at:]
    if kind == "indent":
        i = op[1] % len(lines)
        lines[i] = " " * op[2] + lines[i]
        return "\n".join(lines)
    raise ValueError(kind)


_index = st.integers(min_value=0, max_value=10_000)
_fraction = st.floats(min_value=0.0, max_value=1.0)
one_mutation = st.one_of(
    st.tuples(st.just("scalar"), _index, st.sampled_from(ODD_SCALARS)),
    st.tuples(st.just("scalar"), _index, st.text(min_size=0, max_size=6)),
    st.tuples(st.just("key"), _index, st.sampled_from(ODD_KEYS)),
    st.tuples(st.just("delete"), _index),
    st.tuples(st.just("duplicate"), _index),
    st.tuples(st.just("swap"), _index, _index),
    st.tuples(st.just("truncate"), _fraction),
    st.tuples(st.just("tab"), _index, st.booleans()),
    st.tuples(st.just("bom")),
    st.tuples(st.just("crlf")),
    st.tuples(st.just("char"), _fraction, st.characters(codec=None, exclude_categories=())),
    st.tuples(st.just("indent"), _index, st.integers(min_value=1, max_value=5)),
)
mutations = st.lists(one_mutation, min_size=1, max_size=3)
"""One to three mutations: replace a scalar or key, delete, duplicate or swap lines, truncate, insert a tab,
a BOM, CRLF line ends, any character (controls and lone surrogates included), or indentation."""


def mutated(text: str, ops: list[tuple]) -> bytes:
    """``text`` after every mutation of ``ops``, as the bytes written to the file (lone surrogates kept: not UTF-8)."""
    for op in ops:
        text = mutate(text, op)
    return text.encode("utf-8", "surrogatepass")
