"""Where the shipped data lives: ``layouts/`` and ``templates/`` at the repository root.

sheetsmith is installed in editable mode (``pip install -e .``), so the data
folders are found next to the ``generator`` package.  ``SHEETSMITH_HOME`` may
point at another checkout.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(os.environ.get("SHEETSMITH_HOME") or Path(__file__).resolve().parents[1])
LAYOUTS_DIR = ROOT / "layouts"
TEMPLATES_DIR = ROOT / "templates"
