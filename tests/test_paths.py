"""The shipped data is found in a checkout and in a wheel install (generator/core/paths.py, pyproject's data-files)."""

from __future__ import annotations

import glob
import sys
import sysconfig
import tomllib
from pathlib import Path

from generator.core import paths

REPO = Path(__file__).resolve().parents[1]


def _tree(root: Path) -> Path:
    (root / "layouts" / "allin").mkdir(parents=True)
    (root / "templates").mkdir()
    return root


def test_the_environment_variable_wins(tmp_path):
    assert (
        paths.data_root(str(tmp_path / "elsewhere"), package_parent=_tree(tmp_path / "checkout"))
        == tmp_path / "elsewhere"
    )


def test_a_checkout_keeps_its_own_folders(tmp_path):
    checkout = _tree(tmp_path / "checkout")
    assert paths.data_root(None, package_parent=checkout) == checkout


def test_a_wheel_install_finds_them_under_its_prefix(tmp_path, monkeypatch):
    site = tmp_path / "venv" / "lib" / "site-packages"  # the package without layouts/ beside it
    site.mkdir(parents=True)
    prefix = tmp_path / "venv"
    _tree(prefix / "share" / "sheetsmith")
    monkeypatch.setattr(
        sysconfig, "get_path", lambda name, scheme=None: str(prefix) if name == "data" and scheme is None else None
    )
    assert paths.data_root(None, package_parent=site) == prefix / "share" / "sheetsmith"


def test_a_user_install_finds_them_under_the_user_prefix(tmp_path, monkeypatch):
    user = tmp_path / "home" / ".local"
    _tree(user / "share" / "sheetsmith")
    monkeypatch.setattr(
        sysconfig, "get_path", lambda name, scheme=None: str(user) if scheme and scheme.endswith("_user") else None
    )
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "nowhere"))
    monkeypatch.setattr(sys, "base_prefix", str(tmp_path / "nowhere"))
    assert paths.data_root(None, package_parent=tmp_path / "pkg") == user / "share" / "sheetsmith"


def test_nothing_found_falls_back_to_the_checkout_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(sysconfig, "get_path", lambda name, scheme=None: str(tmp_path / "empty"))
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "empty"))
    monkeypatch.setattr(sys, "base_prefix", str(tmp_path / "empty"))
    assert paths.data_root(None, package_parent=tmp_path / "pkg") == tmp_path / "pkg"


def test_the_wheel_carries_every_shipped_layout_template_and_schema():
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    data_files = config["tool"]["setuptools"]["data-files"]
    carried = {}
    for target, patterns in data_files.items():
        assert target.startswith("share/sheetsmith/")
        for pattern in patterns:
            for found in glob.glob(str(REPO / pattern)):
                rel = Path(found).relative_to(REPO)
                carried[rel.as_posix()] = f"{target}/{rel.name}"
    shipped = {
        p.relative_to(REPO).as_posix()
        for folder in ("layouts", "templates", "docs/schema")
        for p in (REPO / folder).rglob("*")
        if p.is_file()
    }
    assert shipped and shipped == set(carried)
    # each lands at the same place under share/sheetsmith as in the checkout, where generator/core/paths.py looks
    assert all(dest == f"share/sheetsmith/{src}" for src, dest in carried.items())
