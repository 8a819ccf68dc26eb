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
