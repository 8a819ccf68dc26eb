"""Shared test helpers."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture
def write_yaml(tmp_path):
    """Write dedented YAML text to a file in tmp_path and return its path."""

    def _write(text: str, name: str = "layout.yaml") -> Path:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return path

    return _write


@pytest.fixture(autouse=True, scope="session")
def _reader_cache(tmp_path_factory):
    """The photo reader's on-disk cache (generator/reader/cache.py) in a folder of this test session,
    not the user's: tests neither depend on nor fill it (CLI subprocesses inherit it)."""
    import os

    old = os.environ.get("SHEETSMITH_CACHE")
    os.environ["SHEETSMITH_CACHE"] = str(tmp_path_factory.mktemp("reader-cache"))
    yield
    if old is None:
        os.environ.pop("SHEETSMITH_CACHE", None)
    else:
        os.environ["SHEETSMITH_CACHE"] = old
