"""A photo sent by a page read into plain data: the sheet's tokens, what is uncertain, where each field is.

Run in a :class:`~generator.jobs.photo_service.PhotoService` worker by the web page
(``sheetsmith serve``): :func:`read_sheet` for an All In sheet, :func:`read_tick_pad`
for a Flip 7 tick pad.  Each returns ``{"error": message}`` when the photo cannot be
read (the reader's message, which says what to do), never raises.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Optional

from generator.jobs.photo_service import temp_folder


def read_sheet(data: bytes, suffix: str, *, layout: Optional[str], player: str, display: str) -> dict:
    """Read one photo (its bytes) into plain data; runs in a worker process.

    Args:
        data: the photo file's bytes (the type already checked by content).
        suffix: the file ending matching the content (``.jpg``, ``.png`` …).
        layout: the game's shipped layout id (used when the sheet code cannot be read, checked against it otherwise).
        player: the player's name; ``display``: the photo's name in messages.

    Returns:
        ``{"error": message}`` when the photo cannot be read (the reader's
        message, which says what to do), else ``{"layout", "paper", "tokens"
        (cell → card code, ``.`` or ``?``), "chips" ({"earned", "spent"}: a number
        or None when uncertain), "uncertain" ([{"field", "reason"}]), "boxes"
        (field → [x, y, w, h] as shares of the annotated picture), "jpeg" (the annotated
        picture, JPEG), "read_yaml", "summary"}``.
    """
    from generator.core.errors import InputError
    from generator.reader.output import annotated_image, read_yaml
    from generator.reader.read import read_photo

    with temp_folder() as folder:
        path = Path(folder) / f"photo{suffix}"
        path.write_bytes(data)
        try:
            reading = read_photo(path, layout=layout, display=display, player=player)
            if hasattr(reading, "played"):  # (no --layout to refuse it: the reader read it as what it is)
                return {"error": f"{display} shows a Flip 7 tick pad, not an All In sheet: score it on the Flip 7 page"}
            picture = annotated_image(reading)
            jpeg = _jpeg(picture)
        except InputError as exc:
            return {"error": "; ".join(p.message for p in exc.problems) or str(exc)}
        except Exception as exc:  # a fault of the reader's: the page says so, the server goes on
            return {
                "error": f"the reader failed on this photo ({type(exc).__name__}: {exc}); take it again, or type the "
                "sheet in"
            }
    tokens = {
        # status "card" always comes with its card (generator.reader.reading.CellReading)
        cr.cell: (
            cr.card.code if cr.status == "card" and cr.card is not None else "?" if cr.status == "uncertain" else "."
        )
        for cr in reading.cells.values()
    }
    return {
        "layout": reading.layout.id,
        "paper": reading.paper.id,
        "tokens": tokens,
        "chips": {"earned": reading.chips_earned.value, "spent": reading.chips_spent.value},
        "uncertain": [{"field": f, "reason": r} for f, r in reading.uncertain],
        "boxes": _boxes(reading, picture.size),
        "jpeg": jpeg,
        "read_yaml": read_yaml(reading, file_name=f"{player}.yaml"),
        "summary": f"{sum(1 for t in tokens.values() if t not in '.?')} cards read, {len(reading.uncertain)} uncertain",
    }


def read_tick_pad(data: bytes, suffix: str, *, layout: Optional[str], player: str, display: str) -> dict:
    """Read one photo of a Flip 7 tick pad (its bytes) into plain data; runs in a worker process.

    Returns:
        ``{"error": message}`` when the photo cannot be read or shows another sheet, else ``{"player",
        "target", "flip7_bonus" (the pad's, 15 unless a variant), "rows" (each round's tokens: ``3``, ``x2``, ``+4``,
        ``bust``; ``7?`` or ``?`` where a person
        must look), "uncertain" ([{"field", "reason"}]), "jpeg" (the annotated picture), "read_yaml"}``.
    """
    from generator.core.errors import InputError
    from generator.reader.read import read_photo
    from generator.reader.reading import PhotoReading

    with temp_folder() as folder:
        path = Path(folder) / f"photo{suffix}"
        path.write_bytes(data)
        try:
            reading = read_photo(path, layout=layout, display=display, player=player)
            if isinstance(reading, PhotoReading):  # not a TickPadReading (which has ``played``)
                return {"error": f"{display} shows an All In sheet, not a Flip 7 tick pad: score it on the All In page"}
            jpeg = _jpeg(reading.annotated_image())
        except InputError as exc:
            return {"error": "; ".join(p.message for p in exc.problems) or str(exc)}
        except Exception as exc:  # a fault of the reader's: the page says so, the server goes on
            return {
                "error": f"the reader failed on this photo ({type(exc).__name__}: {exc}); take it again, or tap the "
                "rounds in"
            }
    return {
        "player": player,
        "target": reading.pad.variant.target,
        "flip7_bonus": reading.pad.variant.flip7_bonus,
        "rows": [r.tokens() for r in reading.played],
        "uncertain": [{"field": f, "reason": r} for f, r in reading.uncertain],
        "jpeg": jpeg,
        "read_yaml": reading.to_yaml(file_name=f"{player}.read.yaml"),
    }


def _boxes(reading, picture: tuple[int, int]) -> dict[str, list[float]]:
    """Each card space's and each chip track's box, ``[x, y, w, h]`` as shares of the annotated picture of
    ``picture`` (width, height) pixels: the page fills its height on the left, beside the column of reasons
    (:func:`generator.reader.output.picture_page_size`), so a box tapped on the picture is the field printed there."""
    from generator.reader.output import picture_page_size

    width, height = picture
    page_w, page_h = picture_page_size(picture)
    sx, sy = page_w / reading.paper.width / width, page_h / reading.paper.height / height  # picture share per mm
    groups: dict[str, list] = {}
    for t in reading.scene.marks:
        if t.kind in ("rank", "suit", "value"):
            groups.setdefault(t.owner, []).append(t)
        elif t.kind == "chip_earned":
            groups.setdefault("chips.earned", []).append(t)
        elif t.kind == "chip_spent":
            groups.setdefault("chips.spent", []).append(t)
    out = {}
    for name, ts in groups.items():
        x0, y0 = min(t.x for t in ts) - 1, min(t.y for t in ts) - 1
        x1, y1 = max(t.x + t.w for t in ts) + 1, max(t.y + t.h for t in ts) + 1
        out[name] = [round(x0 * sx, 5), round(y0 * sy, 5), round((x1 - x0) * sx, 5), round((y1 - y0) * sy, 5)]
    return out


def page_boxes_on_picture(boxes: dict[str, list[float]], picture: bytes) -> dict[str, list[float]]:
    """Boxes given as shares of the page alone (``[x, y, w, h]``) as shares of the annotated ``picture`` (its
    image bytes), whose page part is left of the column of reasons; unchanged when the picture cannot be opened."""
    from PIL import Image

    from generator.reader.output import picture_page_size

    try:
        with Image.open(io.BytesIO(picture)) as im:
            size = im.size
    except Exception:  # a damaged picture: the boxes as they are
        return boxes
    share = picture_page_size(size)[0] / size[0]
    return {field: [x * share, y, w * share, h] for field, (x, y, w, h) in boxes.items()}


def _jpeg(image, quality: int = 85) -> bytes:
    """The annotated picture (a Pillow image) as JPEG bytes: light for a phone on the page.  (Made from the
    image itself: encoding a PNG first, then decoding it, took 0.1 s more a photo.)"""
    buf = io.BytesIO()
    image.convert("RGB").save(buf, "JPEG", quality=quality)
    return buf.getvalue()
