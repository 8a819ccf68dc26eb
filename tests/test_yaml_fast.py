"""sheetsmith reads YAML through libyaml when PyYAML has it (start-up speed, issue 15 item 9):
the documents, values and positions must be exactly those of the pure-Python parser."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from generator.core.errors import InputError
from generator.core.yamlpos import parse_yaml

REPO = Path(__file__).resolve().parents[1]
FILES = (
    sorted(REPO.glob("layouts/*/*.yaml"))
    + sorted(REPO.glob("templates/*.yaml"))
    + sorted((REPO / "docs" / "examples").glob("*.yaml"))
)

MIXED = """\
a: 1
b: '2'
c: "three"
d: |
  o---o
e: [1, x2, "+4", yes, 0x10, ~, 1.5]
f: &anchor {g: plain, h: 'quoted'}
i: *anchor
"""


def _slow(text: str, monkeypatch):
    with monkeypatch.context() as m:
        m.delattr(yaml, "CSafeLoader", raising=False)
        return parse_yaml(text, "f.yaml")


@pytest.mark.skipif(not getattr(yaml, "__with_libyaml__", False), reason="PyYAML without libyaml: one parser only")
@pytest.mark.parametrize(
    "text", [p.read_text(encoding="utf-8") for p in FILES] + [MIXED], ids=[p.name for p in FILES] + ["mixed"]
)
def test_libyaml_and_pure_python_read_the_same(text, monkeypatch):
    fast, slow = parse_yaml(text, "f.yaml"), _slow(text, monkeypatch)
    assert fast.data == slow.data
    assert fast.values == slow.values and fast.keys == slow.keys

    def shape(doc):
        return {
            k: (type(n).__name__, getattr(n, "style", None), getattr(n, "flow_style", None), n.tag)
            for k, n in doc.nodes.items()
        }

    assert shape(fast) == shape(slow)


def test_plain_scalars_are_typed_as_before():
    data = parse_yaml(MIXED, "f.yaml").data
    assert data["a"] == 1 and data["b"] == "2" and data["e"] == [1, "x2", "+4", "yes", "0x10", None, 1.5]
    assert data["i"] == {"g": "plain", "h": "quoted"}


def test_a_syntax_error_has_the_pure_python_message():
    with pytest.raises(InputError) as info:
        parse_yaml("a: 1\n  b: 2\n", "f.yaml")
    # libyaml would say "mapping values are not allowed in this context" too; PyYAML's wording and position
    assert str(info.value).startswith("f.yaml:2:4: error: YAML syntax error: mapping values are not allowed here")
