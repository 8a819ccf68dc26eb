"""The copy of the shared cases in tests/data/cases must equal ../shared/cases (when that folder is present)."""

import pytest

from .cases import COPY, SHARED_CASES


@pytest.mark.skipif(not SHARED_CASES.is_dir(), reason="../shared/cases is not next to this repository")
def test_case_copies_match_shared():
    shared = {p.name: p.read_bytes() for p in SHARED_CASES.glob("*.yaml")}
    copy = {p.name: p.read_bytes() for p in COPY.glob("*.yaml")}
    assert copy == shared, "tests/data/cases differs from ../shared/cases: copy the new cases over"
