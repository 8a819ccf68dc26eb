"""An on-disk cache of what the reader rebuilds for every photo: the blank sheet's scene and its rendering.

Reading a photo needs the blank sheet the photo shows, twice: its scene (where
every box and circle is, :func:`generator.games.allin.sheet.build_allin_sheet`) and
the page rendered from it at the reader's resolution (the template the photo
is compared with).  Drawing and rendering take about 0.3 s and the imports of
reportlab and pdfium; a fresh ``sheetsmith verify photo.jpg`` would pay that
every time.  Both are kept in the user's cache folder (``platformdirs``:
``~/.cache/sheetsmith`` on Linux; ``SHEETSMITH_CACHE`` names another folder,
``SHEETSMITH_CACHE=off`` turns the cache off).

An entry's name is a hash of everything it depends on: the layout file's
bytes, the paper, the resolution, the sheetsmith version, the versions of
reportlab and pypdfium2 and a fingerprint of sheetsmith's own code and
templates (the size and time of every ``.py`` and template file), so a change
anywhere — a new release, an edited layout, a developer's edit to the drawing
code — reads as a miss and the entry is made anew.  An entry that cannot be
read is made anew; one that cannot be written is skipped (the cache only
saves time).  At most :data:`MAX_ENTRIES` files are kept, those unused longest removed first (reading an
entry marks it used).
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import re
from functools import lru_cache
from pathlib import Path
from typing import Callable

import numpy as np

MAX_ENTRIES = 64
"""Entries kept in the cache folder (files named like :data:`ENTRY`); the least recently used (written or read) go
first."""
MAX_BYTES = 200_000_000
"""… and at most this many bytes in all (a template is 12 MB: some 16 of them)."""
ENV = "SHEETSMITH_CACHE"
"""Environment variable: the cache folder, or ``off``."""


def cache_dir() -> Path | None:
    """The folder of the reader's cache, or ``None`` when the cache is off."""
    env = os.environ.get(ENV, "")
    if env.lower() in ("off", "0", "no", "none"):
        return None
    if env:
        return Path(env)
    from platformdirs import user_cache_path

    return user_cache_path("sheetsmith", appauthor=False) / "reader"


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of sheetsmith's version, its renderers' versions and the size and time of its code and template files."""
    from importlib import metadata

    from generator import __version__
    from generator.core.paths import TEMPLATES_DIR

    h = hashlib.sha256(f"sheetsmith {__version__}".encode())
    for dist in ("reportlab", "pypdfium2", "segno"):
        try:
            h.update(f"|{dist} {metadata.version(dist)}".encode())
        except metadata.PackageNotFoundError:
            h.update(f"|{dist} -".encode())
    package = Path(__file__).resolve().parents[1]
    for folder, pattern in ((package, "*.py"), (TEMPLATES_DIR, "*")):
        for path in sorted(folder.rglob(pattern)):
            try:
                st = path.stat()
            except OSError:
                continue
            h.update(f"|{path.relative_to(folder)}:{st.st_size}:{st.st_mtime_ns}".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def sheet_key(layout_id: str, source: str | Path | None, paper_id: str, *extra: object) -> str | None:
    """The part of an entry's name that names the sheet: the layout file's bytes, its id, the paper
    (and ``extra``); ``None`` for a layout that has no file (built in memory: not cached)."""
    if not source:
        return None
    try:
        content = Path(source).read_bytes()
    except OSError:
        return None
    h = hashlib.sha256(code_fingerprint().encode())
    h.update(content)
    h.update(repr((layout_id, paper_id, *extra)).encode("utf-8", "surrogateescape"))
    return h.hexdigest()[:32]


def _load(path: Path, read: Callable[[Path], object]):
    """The entry at ``path`` read by ``read`` (``None`` when missing, damaged or foreign: it is then made anew);
    an entry read is marked as just used, so that the folder's bounds remove the entries unused longest."""
    if not path.is_file():
        return None
    try:
        value = read(path)
    except Exception:  # a damaged or foreign entry: made anew
        return None
    if value is not None:
        try:
            os.utime(path)
        except OSError:  # a read-only cache: it only saves time
            pass
    return value


ENTRY = re.compile(r"(?:scene|template|darkness|markers)-[^./]+\.(?:pickle|npy)")
"""The name of a cache entry: only such files are ever removed from the folder (``SHEETSMITH_CACHE`` may name a
folder that holds the user's own files too; another process's temporary, ``.NAME.xxxxxxxx.tmp``, is left alone)."""


def _store(folder: Path, name: str, data: bytes) -> None:
    try:
        from generator.core.output import write_atomic

        write_atomic(folder / name, data)
        entries = sorted(
            ((p, p.stat()) for p in folder.iterdir() if ENTRY.fullmatch(p.name)),
            key=lambda e: e[1].st_mtime,
            reverse=True,
        )
        total = 0
        for k, (old, st) in enumerate(entries):  # newest first: keep while within both bounds
            total += st.st_size
            if k >= MAX_ENTRIES or (k > 0 and total > MAX_BYTES):
                old.unlink(missing_ok=True)
    except Exception:  # read-only home, full disk: the cache only saves time
        pass


def cached_scene(layout, paper, build: Callable[[], object]):
    """The blank sheet's scene for ``layout`` on ``paper``: from the cache, else ``build()`` (and kept)."""
    folder = cache_dir()
    key = sheet_key(layout.id, getattr(layout, "source", None), paper.id) if folder is not None else None
    if key is None or folder is None:  # (no folder: no key)
        return build()
    name = f"scene-{key}.pickle"
    scene = _load(folder / name, lambda p: pickle.loads(p.read_bytes()))
    if scene is None or type(scene).__name__ != "Scene":
        scene = build()
        _store(folder, name, pickle.dumps(scene, protocol=pickle.HIGHEST_PROTOCOL))
    return scene


def cached_template(
    key: tuple, ppm: float, render: Callable[[], np.ndarray], page_mm: tuple[float, float] | None = None
) -> np.ndarray:
    """The blank page rendered at ``ppm`` pixels per mm (RGB ``uint8``): from the cache, else ``render()`` (and kept).

    Args:
        key: ``(layout id, layout file, geometry hash, paper id)``, as :func:`generator.reader.marks.template` takes it.
        page_mm: the page's ``(width, height)`` in mm: an entry more than a pixel off that size at ``ppm`` (a
            foreign or damaged file under the right name) is rendered anew.

    Stored as a NumPy ``.npy`` file, uncompressed: an A4 page at 8 pixels per mm is 12 MB, and reads back in
    a few milliseconds, where decoding the same page from PNG (0.5 MB) took 60 ms of every fresh
    ``sheetsmith verify``.  :data:`MAX_BYTES` bounds the folder.
    """

    def valid(a: np.ndarray) -> bool:
        if a.dtype != np.uint8 or a.ndim != 3 or a.shape[2] != 3:
            return False
        return page_mm is None or (
            abs(a.shape[1] - page_mm[0] * ppm) <= 1.5 and abs(a.shape[0] - page_mm[1] * ppm) <= 1.5
        )

    return cached_array("template", key, (ppm,), render, valid)


def cached_darkness(
    key: tuple, extra: tuple, shape: tuple[int, int], make: Callable[[], tuple[np.ndarray, np.ndarray]]
) -> tuple[np.ndarray, np.ndarray]:
    """The blank page's darkness and luminance darkness over a region (float32 ``(h, w)`` each, as
    :func:`generator.reader.marks.template_darkness` makes them): from the cache, else ``make()`` (and kept).

    Args:
        key: the sheet, as for :func:`cached_template`.
        extra: what else they depend on: the resolution, the region and the colour softness.
        shape: the region's ``(h, w)`` in pixels: an entry of another size (a foreign or damaged file under
            the right name) is made anew, never compared with a photo.

    Both are kept in one ``.npy`` file (``(2, h, w)`` float32, about 18 MB for the region of an A4 page at 8 pixels
    per mm): read back in some 20 ms, where making them takes 0.1 s of OpenCV work.
    """
    both = cached_array(
        "darkness", key, extra, lambda: np.stack(make()), lambda a: a.dtype == np.float32 and a.shape == (2, *shape)
    )
    return both[0], both[1]


def cached_marker_models(
    parts: tuple, make: Callable[[], np.ndarray], valid: Callable[[np.ndarray], bool]
) -> np.ndarray:
    """A table of one corner marker's blur models (:func:`generator.reader.marks.marker_models`), which depends on
    sheetsmith's code and ``parts`` alone (no sheet): from the cache folder's ``markers-{hash}.npy``, else ``make()``
    (and kept).  Read memory-mapped: a photo's reading looks at about half of its rows.

    Making the models took 0.06 s of every fresh ``sheetsmith verify``; a table is 3.4 MB at 8 pixels per mm.
    """
    folder = cache_dir()
    if folder is None:
        return make()
    h = hashlib.sha256(code_fingerprint().encode())
    h.update(repr(parts).encode())
    return _cached_npy(folder, f"markers-{h.hexdigest()[:32]}.npy", make, valid, mmap=True)


def cached_array(
    kind: str, key: tuple, extra: tuple, make: Callable[[], np.ndarray], valid: Callable[[np.ndarray], bool]
) -> np.ndarray:
    """An array made for a sheet: from the cache folder's ``{kind}-{hash}.npy``, else ``make()`` (and kept).

    Args:
        kind: what the array is (the start of the file's name).
        key: ``(layout id, layout file, geometry hash, paper id)``; a layout without a file is not cached.
        extra: the rest of what the array depends on (part of the hash).
        valid: whether an array read back is of the expected dtype and shape (else it is made anew).
    """
    folder = cache_dir()
    layout_id, source, digest, paper_id = key
    name_key = sheet_key(layout_id, source, paper_id, digest, *extra) if folder is not None else None
    if name_key is None or folder is None:  # (no folder: no key)
        return make()
    return _cached_npy(folder, f"{kind}-{name_key}.npy", make, valid)


def _cached_npy(
    folder: Path, name: str, make: Callable[[], np.ndarray], valid: Callable[[np.ndarray], bool], mmap: bool = False
) -> np.ndarray:
    """The array in ``folder / name`` when it reads back ``valid`` (memory-mapped, read-only, with ``mmap``),
    else ``make()``, kept there."""

    def read(path: Path) -> np.ndarray | None:
        arr = np.load(path, allow_pickle=False, mmap_mode="r" if mmap else None)
        return arr if valid(arr) else None

    arr = _load(folder / name, read)
    if arr is not None:
        return arr
    arr = np.ascontiguousarray(make())
    buf = io.BytesIO()
    np.save(buf, arr, allow_pickle=False)
    _store(folder, name, buf.getvalue())
    return arr


__all__ = [
    "cache_dir",
    "cached_array",
    "cached_darkness",
    "cached_marker_models",
    "cached_scene",
    "cached_template",
    "code_fingerprint",
    "sheet_key",
    "ENTRY",
    "MAX_ENTRIES",
    "MAX_BYTES",
]
