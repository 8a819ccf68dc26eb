"""What reading a photo writes: the typed-in sheet (``*.read.yaml``) and the annotated picture.

The ``.read.yaml`` is an ordinary typed-in sheet (docs/formats.md), so the
user can correct it and score it with ``sheetsmith verify``.  An uncertain
space is written ``?`` and an uncertain chip count ``"?"``: the file does not
verify until someone looks at the sheet and writes what is there.  Comments at
the top say where it came from and list every uncertain field with the reason.
The last comment line holds a checksum of the file as written, so a later
run can tell whether the user has edited it (and then leaves it alone).

The annotated PNG shows the page as the reader saw it (straightened, light
flattened): each space's card in green over the space, the rank box and suit
read outlined; uncertain spaces and chip counts in red with a question mark
and a short reason; chips counted as earned ringed, spent ones ticked.
"""

from __future__ import annotations

import hashlib
import io
import re
from pathlib import Path

import numpy as np

from ..allin_log import _scalar, grid_rows
from ..layout.grid import cell_name
from ..names import clean_name, shown
from .read import PhotoReading

CHECKSUM = re.compile(r"^# sheetsmith read checksum: ([0-9a-f]{12})[ \t\r]*$", re.M)
"""The checksum line: the first 12 hex digits of the SHA-256 of the rest of the file."""


def read_yaml(reading: PhotoReading, *, layout_ref: str | None = None, file_name: str = "FILE") -> str:
    """The typed-in sheet YAML of a reading, with its header comments and checksum line.

    Args:
        layout_ref: what to write after ``layout:`` (default: the layout id).
        file_name: the name the file is written under, for the instructions in its comments.
    """
    lay = reading.layout
    status = {"card": None, "uncertain": "?"}

    def token(coord):
        cr = reading.cells[coord]
        return cr.card.code if cr.status == "card" else status.get(cr.status) or "."

    rows = grid_rows(lay, token)
    fit = reading.fit
    w, h = reading.image_size
    head = [
        f"# Read by sheetsmith from the photo {shown(reading.display)} ({w} × {h}).",
        f"# Sheet: layout {lay.id}, {reading.paper.label}; code {_how(reading.code.how)}; "
        f"{len(fit.found)} markers, fit within {fit.residual_mm:.2f} mm; blur {reading.measurement.blur_mm:.2f} mm.",
        "# The handwritten values, names and scores are not read: each card is its ticked rank and circled suit.",
        f"# Check it against the sheet, correct what is wrong, then score this file: sheetsmith verify {shown(file_name)}",
    ]
    weak = sorted(
        [(c.confidence, c.cell) for c in reading.cells.values() if c.status != "uncertain" and c.confidence < 0.75]
        + [(n.confidence, f"chips.{k}") for k, n in (("earned", reading.chips_earned), ("spent", reading.chips_spent))
           if n.value is not None and n.confidence < 0.75]
    )
    if weak:
        head.append("# Read, but worth a look (confidence 0-1): " + ", ".join(f"{name} {conf:.2f}" for conf, name in weak[:8]))
    unc = reading.uncertain
    if unc:
        head.append("# UNCERTAIN — write what the sheet shows where '?' stands (a card code, or '.' for an empty space):")
        for field, reason in unc:
            head.append(f"#   {field}: {shown(reason)}")
    chips_e = reading.chips_earned.value
    chips_s = reading.chips_spent.value
    body = "\n".join(
        [
            "game: allin",
            f"layout: {_scalar(layout_ref or lay.id)}",
            f"player: {_scalar(clean_name(reading.player))}",
            "grid: |",
            *rows,
            f"chips: {{earned: {chips_e if chips_e is not None else chr(34) + '?' + chr(34)}, "
            f"spent: {chips_s if chips_s is not None else chr(34) + '?' + chr(34)}}}",
        ]
    ) + "\n"
    text = "\n".join(head) + "\n" + body
    return text + f"# sheetsmith read checksum: {_checksum(text)}\n"


def _how(how: str) -> str:
    return {"decoded": "read", "matched": "matched module by module", "none": "not read (layout given)"}.get(how, how)


def _checksum(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:12]


def edited_by_user(text: str) -> bool:
    """True when a ``.read.yaml``'s text no longer matches the checksum it was written with
    (or has none, or several): someone edited it, so it must not be overwritten.

    The checksum covers the whole file but its own line, wherever that line stands: a line
    added after it, a changed comment or a removed blank line are all edits.
    """
    found = list(CHECKSUM.finditer(text))
    if len(found) != 1:
        return True
    m = found[0]
    end = m.end() + 1 if text[m.end():m.end() + 1] == "\n" else m.end()
    return _checksum(text[: m.start()] + text[end:]) != m.group(1)


def write_pair(yaml_path: str | Path, text: str, png_path: str | Path, png: bytes) -> None:
    """Write a reading's ``.read.yaml`` (``text``) and ``.read.png`` (``png`` bytes) as one unit: both or neither.

    Both are written whole to temporary files first, then renamed into place; when either
    fails (a full disk, no permission, Ctrl-C), neither is changed — an older pair stays
    as it was, and a new ``.read.yaml`` never sits next to an older ``.read.png``
    (:func:`generator.output.write_together`).

    Raises:
        OutputError: either file cannot be written (nothing was changed).
    """
    from ..output import write_together

    write_together([(Path(yaml_path), text.encode("utf-8", "surrogateescape")), (Path(png_path), png)])


def _font(size: int):
    from PIL import ImageFont

    from ..scene import font_path

    try:
        return ImageFont.truetype(str(font_path("bold")), size)
    except OSError:
        return ImageFont.load_default()


def annotated_png(reading: PhotoReading, *, ppm: float = 4.0) -> bytes:
    """The annotated picture of a reading, as PNG bytes (the whole page at ``ppm`` pixels per mm)."""
    import cv2
    from PIL import Image, ImageDraw

    from .marks import flatten

    paper = reading.paper
    img_bgr = reading.preview if reading.preview is not None and abs(reading.preview_ppm - ppm) < 1e-9 else _photo_page(reading, ppm)
    flat = np.clip(flatten(img_bgr, ppm) * 255, 0, 255).astype(np.uint8)
    base = Image.fromarray(cv2.cvtColor(flat, cv2.COLOR_BGR2RGB)).convert("RGB")
    # wash the page out a little so the annotations stand out
    base = Image.blend(base, Image.new("RGB", base.size, (255, 255, 255)), 0.35)
    draw = ImageDraw.Draw(base, "RGBA")
    green, red = (0, 140, 60), (210, 30, 30)
    marks = {(t.kind, t.owner, t.key): t for t in reading.scene.marks}
    inks = reading.measurement.inks

    def box(t, shift=(0.0, 0.0)):
        dx, dy = shift
        return [(t.x + dx) * ppm, (t.y + dy) * ppm, (t.x + t.w + dx) * ppm, (t.y + t.h + dy) * ppm]

    label_font = _font(max(10, int(5.5 * ppm)))
    small = _font(max(9, int(2.6 * ppm)))
    for coord, cr in reading.cells.items():
        name = cell_name(coord)
        value = marks[("value", name, "")]
        shift = inks[("value", name, "")].shift
        if cr.status == "card":
            t = marks[("rank", name, cr.card.rank_label)]
            draw.rectangle(box(t, shift), outline=green, width=max(1, int(0.4 * ppm)))
            s = marks[("suit", name, cr.card.suit)]
            bx = box(s, shift)
            draw.ellipse([bx[0] - 0.4 * ppm, bx[1] - 0.4 * ppm, bx[2] + 0.4 * ppm, bx[3] + 0.4 * ppm], outline=green, width=max(1, int(0.4 * ppm)))
            vb = box(value, shift)
            draw.text((vb[0] + 0.5 * ppm, vb[1]), cr.card.rank_label + cr.card.suit, fill=green + (235,), font=label_font)
        elif cr.status == "uncertain":
            x0 = min(t.x for t in reading.scene.marks if t.owner == name and t.kind in ("rank", "suit", "value"))
            y0 = min(t.y for t in reading.scene.marks if t.owner == name and t.kind in ("rank", "suit", "value"))
            x1 = max(t.x + t.w for t in reading.scene.marks if t.owner == name and t.kind in ("rank", "suit", "value"))
            y1 = max(t.y + t.h for t in reading.scene.marks if t.owner == name and t.kind in ("rank", "suit", "value"))
            dx, dy = shift
            draw.rectangle([(x0 + dx - 1) * ppm, (y0 + dy - 1) * ppm, (x1 + dx + 1) * ppm, (y1 + dy + 1) * ppm],
                           outline=red, width=max(2, int(0.7 * ppm)), fill=(255, 0, 0, 30))
            for k, state in list(cr.ranks.items()):
                draw.rectangle(box(marks[("rank", name, k)], shift), outline=red if state is None else (230, 120, 0), width=max(1, int(0.4 * ppm)))
            for k, state in list(cr.suits.items()):
                draw.ellipse(box(marks[("suit", name, k)], shift), outline=red if state is None else (230, 120, 0), width=max(1, int(0.4 * ppm)))
            vb = box(value, shift)
            draw.text((vb[0] + 0.5 * ppm, vb[1]), "?", fill=red, font=label_font)
            _wrap(draw, cr.reason, (x0 + dx) * ppm, (y1 + dy + 1.3) * ppm, (x1 - x0) * ppm + 2 * ppm, small, red)
    for kind, count in (("chip_earned", reading.chips_earned), ("chip_spent", reading.chips_spent)):
        for i in count.marked:
            t = marks[(kind, str(i), "")]
            b = box(t, inks[(kind, str(i), "")].shift)
            if kind == "chip_earned":
                draw.ellipse([b[0] - 0.5 * ppm, b[1] - 0.5 * ppm, b[2] + 0.5 * ppm, b[3] + 0.5 * ppm], outline=green, width=max(1, int(0.4 * ppm)))
            else:
                draw.rectangle(b, outline=green, width=max(1, int(0.4 * ppm)))
        for i in count.unsure:
            t = marks[(kind, str(i), "")]
            b = box(t, inks[(kind, str(i), "")].shift)
            draw.rectangle([b[0] - ppm, b[1] - ppm, b[2] + ppm, b[3] + ppm], outline=red, width=max(2, int(0.6 * ppm)))
    # the summary across the top
    cards = sum(1 for c in reading.cells.values() if c.status == "card")
    e, s = reading.chips_earned, reading.chips_spent
    lines = [
        f"{reading.display}: {reading.layout.id} ({paper.label}) — {cards} cards read, "
        f"chips earned {e.value if e.value is not None else '?'}, spent {s.value if s.value is not None else '?'}",
    ]
    unc = reading.uncertain
    lines.append("uncertain: " + "; ".join(f"{f}: {r}" for f, r in unc) if unc else "nothing uncertain")
    head_font = _font(max(10, int(3.2 * ppm)))
    y = 1.5 * ppm
    draw.rectangle([0, 0, base.size[0], 2 * 4.2 * ppm + 1.5 * ppm], fill=(255, 255, 255, 225))
    for i, line in enumerate(lines):
        draw.text((2 * ppm, y), line[:160], fill=(20, 20, 20) if i == 0 else (red if unc else green), font=head_font)
        y += 4.2 * ppm
    return _png(base)


PNG_LEVEL = 1
"""zlib level of the annotated picture: the fastest (a photo's grain compresses little more at 9, which
takes 20 times as long: 0.44 s against 0.02 s for an A4 page at 4 pixels per mm)."""


def _png(image) -> bytes:
    """A Pillow image as PNG bytes, compressed at :data:`PNG_LEVEL`."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=PNG_LEVEL)
    return buf.getvalue()


def _wrap(draw, text: str, x: float, y: float, width: float, font, fill) -> None:
    words = text.split()
    line = ""
    for w in words:
        trial = (line + " " + w).strip()
        if draw.textlength(trial, font=font) > width and line:
            draw.text((x, y), line, fill=fill, font=font)
            y += font.size * 1.15
            line = w
        else:
            line = trial
    if line:
        draw.text((x, y), line, fill=fill, font=font)


def _photo_page(reading: PhotoReading, ppm: float) -> np.ndarray:
    """The whole page cut from the photo through the homography at ``ppm`` (BGR)."""
    from .image import load_photo
    from .marks import rectify

    img = load_photo(reading.path, reading.display)
    return rectify(img, reading.fit, (0.0, 0.0, reading.paper.width, reading.paper.height), ppm)
