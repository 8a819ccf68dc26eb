"""Where the cases with known answers are: ``../shared/cases/`` when the repository sits next to it, else the copy in
``tests/data/cases/``.

The copy lets a fresh clone run every test; ``test_case_copies_match_shared`` checks
that it has not drifted from the shared originals whenever both are present.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED_CASES = HERE.parents[0].parent / "shared" / "cases"
COPY = HERE / "data" / "cases"


def case_file(name: str) -> Path:
    """The cases file ``name`` (e.g. ``"flip7.yaml"``): the shared original if present, else the copy."""
    shared = SHARED_CASES / name
    return shared if shared.is_file() else COPY / name
