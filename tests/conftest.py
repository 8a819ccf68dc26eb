"""Shared test helpers."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(params=["pool", "process", "thread"])
def no_worker_processes(monkeypatch, request):
    """Worker processes cannot start, as in a sandbox or at a process limit: making the pool fails (its helper
    cannot fork: BlockingIOError), or every ``ProcessPoolExecutor.submit`` does (the fork server's socket refused:
    ConnectionRefusedError; no thread left: RuntimeError). Undo with ``monkeypatch.undo()``."""
    from concurrent.futures import ProcessPoolExecutor

    def fail(self, *args, **kwargs):
        if request.param == "pool":
            raise BlockingIOError(11, "Resource temporarily unavailable")
        if request.param == "process":
            raise ConnectionRefusedError(111, "Connection refused")
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(ProcessPoolExecutor, "__init__" if request.param == "pool" else "submit", fail)


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


MEMORY_KEPT = 300 << 20
"""The resident memory (bytes) above which a test's leftovers are let go after it (see :func:`_let_memory_go`)."""


PAGES_DROPPED = 600 << 20
"""The resident memory (bytes) above which the blank pages kept for made photos are dropped as well."""


READER_CACHES = (
    ("generator.reader.marks", "_TEMPLATES"),
    ("generator.reader.marks", "_DARKNESS"),
    ("generator.reader.light", "_SEEN"),
)
"""The reader's own caches of page images (module, name), which serve the next photo of the same sheet."""


def _resident_bytes() -> int:
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


@pytest.fixture(autouse=True)
def _let_memory_go():
    """After a test that left this process large (photos of 8 to 12 MP are made and read here), drop the caches
    of made photos and of the reader, and give the freed memory back: the tests run one after another in one
    process, and each photo test would otherwise start where the last one left the memory."""
    yield
    if _resident_bytes() < MEMORY_KEPT:
        return
    import functools
    import gc
    import sys

    photos = sys.modules.get("tests.synth.sheet_photos")
    if photos is not None and _resident_bytes() > PAGES_DROPPED:
        photos._PAGES.clear()
    for module, cache in READER_CACHES:  # blank templates and what was measured on them, kept by the reader
        held = getattr(sys.modules.get(module), cache, None)
        if held is not None:
            held.clear()
    for obj in gc.get_objects():
        if isinstance(obj, functools._lru_cache_wrapper) and getattr(obj, "__module__", "").startswith(
            ("generator", "tests")
        ):
            obj.cache_clear()
    gc.collect()
    try:
        import ctypes

        ctypes.CDLL(None).malloc_trim(0)  # glibc: return the freed heap to the system
    except (OSError, AttributeError):
        pass
