"""The package layout is the architecture, and stays so.

* the import contracts of pyproject.toml (``[tool.importlinter]``): faces (``cli``, ``web``) over
  ``jobs`` over ``reader`` over ``games`` over ``printing`` over ``core``, nothing pointing back up;
  the games independent of each other; the faces reaching the rest through the jobs; the rules cores
  free of I/O and drawing;
* no import circle anywhere in the package, imports inside functions and for type checking included;
* no module takes a private name (``_name``) from another module;
* every module of the package is reached from the ``sheetsmith`` command (nothing ships for the tests
  alone), and no module of the package imports the tests;
* the code speaks of the product alone: no tuning history, no files outside the repository.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import grimp
import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "generator"


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph(
        "generator", include_external_packages=False, exclude_type_checking_imports=True, cache_dir=None
    )


def test_the_import_contracts_hold(capsys):
    from importlinter.cli import EXIT_STATUS_SUCCESS, lint_imports

    status = lint_imports(config_filename=str(REPO / "pyproject.toml"), no_cache=True, no_logo=True)
    assert status == EXIT_STATUS_SUCCESS, capsys.readouterr().out


def _circles(graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.find_modules_directly_imported_by(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_import_circle():
    """Imports inside functions and those made for type checking alone count too: a circle of annotations is still
    two modules that cannot be read one without the other."""
    graph = grimp.build_graph(
        "generator", include_external_packages=False, exclude_type_checking_imports=False, cache_dir=None
    )
    assert _circles(graph) == []


def test_the_circle_finder_finds_a_circle():
    g = grimp.ImportGraph()
    for m in ("p", "p.a", "p.b", "p.c"):
        g.add_module(m)
    g.add_import(importer="p.a", imported="p.b")
    g.add_import(importer="p.b", imported="p.a")
    g.add_import(importer="p.c", imported="p.a")
    assert _circles(g) == [["p.a", "p.b"]]


def _private_names(source: str) -> list[str]:
    """``from generator.x import _name`` and ``x._name`` where ``x`` is a module of the package imported by name."""
    tree = ast.parse(source)
    modules: set[str] = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("generator"):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"line {node.lineno}: from {node.module} import {alias.name}")
                elif alias.name[:1].islower():
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("generator"):
                    modules.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
        ):
            found.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
    return found


def test_no_module_takes_a_private_name_of_another():
    found = {str(p.relative_to(REPO)): _private_names(p.read_text(encoding="utf-8")) for p in PACKAGE.rglob("*.py")}
    assert {k: v for k, v in found.items() if v} == {}


def test_the_private_name_check_sees_both_ways_of_taking_one():
    source = (
        "from generator.core import output\nfrom generator.reader.read import _decide, decide\n"
        "import generator.core.yamlpos as yp\noutput._create()\nyp.parse_yaml('')\nself._x\n"
    )
    assert _private_names(source) == ["line 2: from generator.reader.read import _decide", "line 4: output._create"]


def test_every_module_serves_the_command(graph):
    """Every module is reached from ``python -m generator`` (the command's entry) or from a maintainer's
    ``python -m`` script (remaking the shipped fonts), imports inside functions followed: a module only the
    tests use does not ship."""
    seen: set[str] = set()
    todo = ["generator.__main__", "generator.printing.fonts.subset"]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        todo.extend(graph.find_modules_directly_imported_by(module))
        parts = module.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))  # a module's packages are imported with it
    assert sorted(set(graph.modules) - seen) == []


def test_the_package_never_imports_the_tests():
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            assert not any(n == "tests" or n.startswith("tests.") for n in names), f"{path}:{node.lineno}"


LAB_NOTES = re.compile(
    r"tuning|held-out|\btester|\bseeds? (from )?\d{3,}|DESIGN\.md|STYLE\.md|\bissue \d+|\d{3}_[0-9a-f]{16}\.txt",
    re.IGNORECASE,
)
"""Words of a lab notebook, not of a product: tuning runs, photo sets, testers, files outside the repository."""


def test_the_code_speaks_of_the_product_alone():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if LAB_NOTES.search(line):
                found.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
    assert found == []


@pytest.mark.parametrize(
    "line, note",
    [
        ("# held-out realistic 160038 read 9 for 8", True),
        ("(tuning seed 8304, 1920 × 1080)", True),
        ("an independent tester's photos", True),
        ("Jobs, then faces (STYLE.md): nothing here prints.", True),
        ("rulebook ``000_e6ed0c80d6705b52.txt``", True),
        ("seed: same seed, same game.", False),
        ("the photo is held against the marker's model", False),
    ],
)
def test_the_lab_note_words_are_told_apart(line, note):
    assert bool(LAB_NOTES.search(line)) == note
