"""Stored form definitions: every released geometry of a sheet made to be read, kept so old sheets still read.

A sheet's code names its geometry (:func:`generator.printing.readable.geometry_hash`, six hex digits over every
mark target's box).  When the drawing changes, the sheets players printed before keep the old geometry; the
reader reads them against the *form* stored for that hash instead of today's drawing.

A form is the blank sheet's scene as data: its size, every primitive (the print the photo is compared with) and
every mark target's box, all in millimetres, as gzip-compressed JSON in one file named
``<item id>-<paper id>-<HASH>.json.gz``:

* shipped sheets: in this package's ``forms/`` folder, one file per released geometry, never removed (a test
  checks that today's drawing of every shipped sheet is stored; ``python -m generator.jobs.forms`` stores
  what is missing);
* a user's layout ``my-sheet.yaml``: in the folder ``my-sheet.forms/`` beside it, written when the sheet is drawn
  for print (:func:`generator.jobs.forms.keep_user_form`), only ever added to.
"""

from __future__ import annotations

import gzip
import json
import os
from dataclasses import astuple
from pathlib import Path
from typing import Any

from generator.core.errors import SheetsmithError
from generator.printing.scene import Circle, Line, MarkTarget, Paint, Path_, Primitive, Rect, Scene, Text

FORMS_DIR = Path(__file__).resolve().parent / "forms"
"""The stored forms of the shipped sheets."""

FORM_VERSION = 1
"""Version of the form file's own layout (``"form"`` in the file)."""

MAX_FORM_BYTES = 4_000_000
"""The most a form file may hold unpacked (a shipped form is about 250 KB): a larger one is refused unread."""

MAX_FORM_ITEMS = 20_000
"""The most primitives (and path operations, counted apart) a form may hold (a shipped sheet has about 1,200)."""


class FormError(SheetsmithError):
    """A stored form cannot be read (damaged, or written by a newer sheetsmith)."""


def form_name(item_id: str, paper_id: str, digest: str) -> str:
    """The file name of a form: ``q-diamonds-a4-3F9C2A.json.gz`` (ids in lower case, the hash in upper case)."""
    return f"{item_id.lower()}-{paper_id.lower()}-{digest.upper()}.json.gz"


def forms_beside(layout_file: Path) -> Path:
    """The folder of a user's layout's forms: ``my-sheet.yaml`` → ``my-sheet.forms/`` beside it."""
    return layout_file.with_name(f"{layout_file.stem}.forms")


# --- scene <-> data ------------------------------------------------------------------


def _num(v: float) -> float:
    return round(float(v), 3)


def _paint(p: Paint) -> list:
    return [p.stroke, p.fill, _num(p.width), None if p.dash is None else [_num(d) for d in p.dash]]


def _item(item: Primitive) -> list:
    if isinstance(item, Line):
        return ["line", _num(item.x1), _num(item.y1), _num(item.x2), _num(item.y2), _paint(item.paint)]
    if isinstance(item, Rect):
        return ["rect", _num(item.x), _num(item.y), _num(item.w), _num(item.h), _paint(item.paint), _num(item.r)]
    if isinstance(item, Circle):
        return ["circle", _num(item.cx), _num(item.cy), _num(item.r), _paint(item.paint)]
    if isinstance(item, Path_):
        return ["path", [[op[0], *(_num(v) for v in op[1:])] for op in item.ops], _paint(item.paint)]
    return [
        "text",
        _num(item.x),
        _num(item.y),
        item.text,
        _num(item.size),
        item.weight,
        item.anchor,
        item.color,
        _num(item.angle),
    ]


def scene_data(scene: Scene) -> dict[str, Any]:
    """``scene`` as JSON-ready data: size, primitives (to 0.001 mm) and mark targets (exact, as the hash sees them)."""
    return {
        "form": FORM_VERSION,
        "width": scene.width,
        "height": scene.height,
        "title": scene.title,
        "items": [_item(i) for i in scene.items],
        "marks": [list(astuple(m)) for m in scene.marks],
    }


def _unpaint(v: list) -> Paint:
    stroke, fill, width, dash = v
    return Paint(stroke, fill, float(width), None if dash is None else tuple(float(d) for d in dash))


def _unitem(v: list) -> Primitive:
    kind, *a = v
    if kind == "line":
        x1, y1, x2, y2 = map(float, a[:4])
        return Line(x1, y1, x2, y2, _unpaint(a[4]))
    if kind == "rect":
        x, y, w, h = map(float, a[:4])
        return Rect(x, y, w, h, _unpaint(a[4]), float(a[5]))
    if kind == "circle":
        cx, cy, r = map(float, a[:3])
        return Circle(cx, cy, r, _unpaint(a[3]))
    if kind == "path":
        return Path_(tuple((op[0], *map(float, op[1:])) for op in a[0]), _unpaint(a[1]))
    if kind == "text":
        x, y, text, size, weight, anchor, color, angle = a
        if weight not in ("regular", "bold", "italic") or anchor not in ("start", "middle", "end"):
            raise ValueError(f"text of weight {weight!r} anchored at {anchor!r}")
        return Text(float(x), float(y), str(text), float(size), weight, anchor, str(color), float(angle))
    raise ValueError(f"unknown primitive {kind!r}")


def scene_of(data: dict[str, Any]) -> Scene:
    """The scene :func:`scene_data` stored.

    Raises:
        FormError: the data is not a form this sheetsmith can read.
    """
    try:
        if data.get("form") != FORM_VERSION:
            raise FormError(f"form version {data.get('form')!r}; this sheetsmith reads version {FORM_VERSION}")
        if len(data["items"]) > MAX_FORM_ITEMS or len(data["marks"]) > MAX_FORM_ITEMS:
            raise FormError(f"more than {MAX_FORM_ITEMS} primitives or marks: not a sheet's form")
        ops = sum(len(v[1]) for v in data["items"] if isinstance(v, list) and v and v[0] == "path")
        if ops > 10 * MAX_FORM_ITEMS:
            raise FormError(f"more than {10 * MAX_FORM_ITEMS} path operations: not a sheet's form")
        scene = Scene(float(data["width"]), float(data["height"]), title=str(data.get("title", "")))
        scene.items = [_unitem(v) for v in data["items"]]
        scene.marks = [
            MarkTarget(str(kind), str(owner), str(key), float(x), float(y), float(w), float(h))
            for kind, owner, key, x, y, w, h in data["marks"]
        ]
    except FormError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise FormError(f"a damaged form ({exc})") from None
    return scene


# --- files -----------------------------------------------------------------------------


def load_form(path: Path) -> Scene:
    """The scene of the form file ``path``.

    Raises:
        FormError: the file cannot be read or is not a form (the message names it).
    """
    try:
        with gzip.open(path, "rb") as f:
            raw = f.read(MAX_FORM_BYTES + 1)
        if len(raw) > MAX_FORM_BYTES:
            raise FormError(f"unpacks to more than {MAX_FORM_BYTES // 1_000_000} MB: not a sheet's form")
        data = json.loads(raw)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        return scene_of(data)
    except FormError as exc:
        raise FormError(f"{path}: {exc}") from None
    except (OSError, EOFError, ValueError, RecursionError) as exc:
        raise FormError(f"{path}: not a readable form ({type(exc).__name__}: {exc})"[:300]) from None


def stored_form(item_id: str, paper_id: str, digest: str, folders: tuple[Path, ...] = (FORMS_DIR,)) -> Scene | None:
    """The stored form of ``item_id`` on ``paper_id`` whose geometry hash is ``digest``, from the first of
    ``folders`` that holds one; ``None`` when none does.

    Raises:
        FormError: a form file is found but cannot be read, its page is not ``paper_id`` (upright or turned), or
            its marks do not hash to ``digest``.
    """
    from generator.printing.paper import papers
    from generator.printing.readable import geometry_hash

    name = form_name(item_id, paper_id, digest)
    for folder in folders:
        path = folder / name
        if path.is_file():
            scene = load_form(path)
            sheet = papers().get(paper_id.lower())
            if sheet is not None and sorted((round(scene.width, 1), round(scene.height, 1))) != sorted(
                (round(sheet.width, 1), round(sheet.height, 1))
            ):
                raise FormError(f"{path}: its page is {scene.width:g} × {scene.height:g} mm, not {sheet.label}")
            if geometry_hash(scene) != digest.upper():
                raise FormError(f"{path}: its mark targets hash to {geometry_hash(scene)}, not {digest.upper()}")
            return scene
    return None


def stored_digests(item_id: str, paper_id: str, folder: Path = FORMS_DIR) -> list[str]:
    """The geometry hashes of the forms of ``item_id`` on ``paper_id`` stored in ``folder``, sorted."""
    prefix = form_name(item_id, paper_id, "")[: -len(".json.gz")]
    if not folder.is_dir():
        return []
    out = []
    for path in folder.glob(f"{prefix}*.json.gz"):
        digest = path.name[len(prefix) : -len(".json.gz")]
        if len(digest) == 6 and all(c in "0123456789ABCDEF" for c in digest):
            out.append(digest)
    return sorted(out)


def form_bytes(scene: Scene) -> bytes:
    """A form file's bytes for ``scene`` (the same bytes for the same scene: no time in the gzip header)."""
    text = json.dumps(scene_data(scene), ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def keep_form(scene: Scene, item_id: str, paper_id: str, digest: str, folder: Path) -> Path | None:
    """Store ``scene`` as the form of ``item_id`` on ``paper_id`` with geometry ``digest`` in ``folder`` (made when
    missing), unless a form of that name is there already (a stored form is never replaced).

    Returns:
        The file written, or ``None`` when one was there.

    Raises:
        OutputError: the folder or file cannot be written.
    """
    from generator.core.output import write_atomic

    target = folder / form_name(item_id, paper_id, digest)
    if os.path.lexists(target):  # whatever is there (a file, a link, even a broken one) is left alone
        return None
    return write_atomic(target, form_bytes(scene), overwrite=False)
