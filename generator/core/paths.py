"""Where the shipped data lives: ``layouts/`` and ``templates/``.

* In a checkout (``pip install -e .``, the README's way) they sit at the repository root,
  next to the ``generator`` package.
* A wheel (``pip install .``, ``pipx install``) carries them to ``<prefix>/share/sheetsmith``
  (``[tool.setuptools.data-files]`` in ``pyproject.toml``); the prefix is the environment's,
  or the user's for ``pip install --user``.
* ``SHEETSMITH_HOME`` may point at another checkout (or any folder holding both).
"""

from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path

SHARE = Path("share") / "sheetsmith"
"""Where a wheel puts the shipped data, under an installation's data prefix."""


def data_root(env: str | None = None, package_parent: Path | None = None) -> Path:
    """The folder that holds ``layouts/`` and ``templates/``: ``env`` (``SHEETSMITH_HOME``) when set, else the
    checkout around the package, else the first installation prefix whose ``share/sheetsmith`` has them.

    Falls back to the checkout's folder (where a missing layout is then reported as missing).
    """
    if env:
        return Path(env)
    checkout = package_parent or Path(__file__).resolve().parents[2]
    if (checkout / "layouts").is_dir():
        return checkout
    prefixes = [sysconfig.get_path("data"), sys.prefix, sys.base_prefix]
    try:
        prefixes.append(sysconfig.get_path("data", f"{os.name}_user"))
    except KeyError:  # pragma: no cover - a platform without a user scheme
        pass
    for prefix in prefixes:
        if prefix and (Path(prefix) / SHARE / "layouts").is_dir():
            return Path(prefix) / SHARE
    return checkout


ROOT = data_root(os.environ.get("SHEETSMITH_HOME"))
LAYOUTS_DIR = ROOT / "layouts"
TEMPLATES_DIR = ROOT / "templates"


def display_path(path: Path) -> str:
    """A path as messages show it: relative to the working folder when inside it, by the name the user gave (a
    symbolic link is named, not its target).  (Here, among the light modules, so that ``sheetsmith verify`` can
    name its photo before the layouts are imported.)"""
    try:
        return str(Path(os.path.abspath(path)).relative_to(Path(os.path.abspath(os.getcwd()))))
    except (ValueError, OSError):  # outside the folder, or no working folder any more
        return str(path)
