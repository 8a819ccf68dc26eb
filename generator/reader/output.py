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
read outlined; uncertain spaces and chip counts framed in red with a question
mark and their name; chips counted as earned ringed, spent ones ticked.  A
column beside the page gives the summary and lists every uncertain field by
that name with its reason, wrapped: nothing is drawn over the page's print.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from generator.core.names import clean_name, shown
from generator.core.yamlpos import yaml_scalar
from generator.games.allin.game_log import grid_rows
from generator.games.allin.grid import cell_name

if TYPE_CHECKING:  # pragma: no cover
    from generator.reader.reading import PhotoReading

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
        f"# Sheet: layout {lay.id}, {reading.paper.label}; code {how_read(reading.code.how)}; "
        f"{len(fit.found)} markers, fit within {fit.residual_mm:.2f} mm; blur {reading.measurement.blur_mm:.2f} mm.",
        "# The handwritten values, names and scores are not read: each card is its ticked rank and circled suit.",
        "# Check it against the sheet, correct what is wrong, then score this file: sheetsmith verify "
        f"{shown(file_name)}",
    ]
    weak = sorted(
        [(c.confidence, c.cell) for c in reading.cells.values() if c.status != "uncertain" and c.confidence < 0.75]
        + [
            (n.confidence, f"chips.{k}")
            for k, n in (("earned", reading.chips_earned), ("spent", reading.chips_spent))
            if n.value is not None and n.confidence < 0.75
        ]
    )
    if weak:
        head.append(
            "# Read, but worth a look (confidence 0-1): " + ", ".join(f"{name} {conf:.2f}" for conf, name in weak[:8])
        )
    unc = reading.uncertain
    if unc:
        head.append(
            "# UNCERTAIN — write what the sheet shows where '?' stands (a card code, or '.' for an empty space):"
        )
        for field, reason in unc:
            head.append(f"#   {field}: {shown(reason)}")
    chips_e = reading.chips_earned.value
    chips_s = reading.chips_spent.value
    body = (
        "\n".join(
            [
                "game: allin",
                f"layout: {yaml_scalar(layout_ref or lay.id)}",
                f"player: {yaml_scalar(clean_name(reading.player))}",
                "grid: |",
                *rows,
                f"chips: {{earned: {chips_e if chips_e is not None else chr(34) + '?' + chr(34)}, "
                f"spent: {chips_s if chips_s is not None else chr(34) + '?' + chr(34)}}}",
            ]
        )
        + "\n"
    )
    text = "\n".join(head) + "\n" + body
    return text + f"# sheetsmith read checksum: {checksum(text)}\n"


def how_read(how: str) -> str:
    return {"decoded": "read", "matched": "matched module by module", "none": "not read (layout given)"}.get(how, how)


def checksum(text: str) -> str:
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
    end = m.end() + 1 if text[m.end() : m.end() + 1] == "\n" else m.end()
    return checksum(text[: m.start()] + text[end:]) != m.group(1)


def write_pair(yaml_path: str | Path, text: str, png_path: str | Path, png: bytes) -> None:
    """Write a reading's ``.read.yaml`` (``text``) and ``.read.png`` (``png`` bytes) as one unit: both or neither.

    Both are written whole to temporary files first, then renamed into place; when either
    fails (a full disk, no permission, Ctrl-C), neither is changed — an older pair stays
    as it was, and a new ``.read.yaml`` never sits next to an older ``.read.png``
    (:func:`generator.core.output.write_together`).

    Raises:
        OutputError: either file cannot be written (nothing was changed).
    """
    from generator.core.output import write_together

    write_together([(Path(yaml_path), text.encode("utf-8", "surrogateescape")), (Path(png_path), png)])


def annotation_font(size: int, weight: str = "bold"):
    from PIL import ImageFont

    from generator.printing.scene import font_path

    try:
        return ImageFont.truetype(str(font_path(weight)), size)
    except OSError:
        return ImageFont.load_default()


MARGIN_MM = 72.0
"""Width (mm at the picture's scale) of the column beside the page that lists what was read and every reason."""


def annotation_canvas(img_bgr: np.ndarray, ppm: float):
    """The canvas of an annotated picture: the straightened page (BGR, ``ppm`` pixels per mm) flattened and
    washed out a little so the annotations stand out, with a white column :data:`MARGIN_MM` wide beside it.

    Returns:
        ``(picture, (page width, page height) in pixels, column width in pixels)``; the picture is a PIL RGB image.
    """
    import cv2
    from PIL import Image

    from generator.reader.marks import flatten

    flat = np.clip(flatten(img_bgr, ppm) * 255, 0, 255).astype(np.uint8)
    page = Image.fromarray(cv2.cvtColor(flat, cv2.COLOR_BGR2RGB)).convert("RGB")
    page = Image.blend(page, Image.new("RGB", page.size, (255, 255, 255)), 0.35)
    col_w = int(round(MARGIN_MM * ppm))
    base = Image.new("RGB", (page.size[0] + col_w, page.size[1]), (255, 255, 255))
    base.paste(page, (0, 0))
    return base, page.size, col_w


def picture_page_size(picture: tuple[int, int], ppm: float = 4.0) -> tuple[int, int]:
    """The page's part of an annotated picture of ``picture`` (width, height) pixels drawn at ``ppm``: its width
    and height in pixels, at the picture's top left (the column of reasons, :data:`MARGIN_MM` wide, is right of
    it)."""
    return picture[0] - int(round(MARGIN_MM * ppm)), picture[1]


def annotated_png(reading: PhotoReading, *, ppm: float = 4.0) -> bytes:
    """The annotated picture of a reading (:func:`annotated_image`) as PNG bytes, compressed at :data:`PNG_LEVEL`."""
    return png_bytes(annotated_image(reading, ppm=ppm))


def annotated_image(reading: PhotoReading, *, ppm: float = 4.0):
    """The annotated picture of a reading, as an RGB Pillow image: the whole page at ``ppm`` pixels per mm and, beside
    it, a column with the summary and every uncertain field's reason, keyed by the cell name shown on the page.
    (The web page sends it as a JPEG, straight from the image.)

    On the page: each card read in green over its space, its rank box and suit outlined; each uncertain
    space framed in red with a ``?`` and its cell name; chips counted ringed; unclear chips framed in red.
    """
    from PIL import ImageDraw

    paper = reading.paper
    if reading.canvas is not None and abs(reading.preview_ppm - ppm) < 1e-9:
        ground, page_size, col_w = reading.canvas
        base = ground.copy()  # (drawn on: the reading's own stays blank)
    else:
        img_bgr = (
            reading.preview
            if reading.preview is not None and abs(reading.preview_ppm - ppm) < 1e-9
            else _photo_page(reading, ppm)
        )
        base, page_size, col_w = annotation_canvas(img_bgr, ppm)
    draw = ImageDraw.Draw(base, "RGBA")
    green, red, orange, ink = (0, 140, 60), (210, 30, 30), (230, 120, 0), (20, 20, 20)
    marks = {(t.kind, t.owner, t.key): t for t in reading.scene.marks}
    inks = reading.measurement.inks
    line = max(1, int(0.4 * ppm))

    def box(t, shift=(0.0, 0.0)):
        dx, dy = shift
        return [(t.x + dx) * ppm, (t.y + dy) * ppm, (t.x + t.w + dx) * ppm, (t.y + t.h + dy) * ppm]

    label_font = annotation_font(max(10, int(5.5 * ppm)))
    key_font = annotation_font(max(9, int(3.0 * ppm)))
    for coord, cr in reading.cells.items():
        name = cell_name(coord)
        value = marks[("value", name, "")]
        shift = inks[("value", name, "")].shift
        if cr.status == "card":
            card = cr.card
            # status "card": the card of a ticked rank and a circled suit (never a Joker)
            assert card is not None and card.suit is not None
            t = marks[("rank", name, card.rank_label)]
            draw.rectangle(box(t, shift), outline=green, width=line)
            s = marks[("suit", name, card.suit)]
            bx = box(s, shift)
            draw.ellipse(
                [bx[0] - 0.4 * ppm, bx[1] - 0.4 * ppm, bx[2] + 0.4 * ppm, bx[3] + 0.4 * ppm], outline=green, width=line
            )
            vb = box(value, shift)
            draw.text((vb[0] + 0.5 * ppm, vb[1]), card.rank_label + card.suit, fill=green + (235,), font=label_font)
        elif cr.status == "uncertain":
            own = [t for t in reading.scene.marks if t.owner == name and t.kind in ("rank", "suit", "value")]
            x0, y0 = min(t.x for t in own), min(t.y for t in own)
            x1, y1 = max(t.x + t.w for t in own), max(t.y + t.h for t in own)
            dx, dy = shift
            draw.rectangle(
                [(x0 + dx - 1) * ppm, (y0 + dy - 1) * ppm, (x1 + dx + 1) * ppm, (y1 + dy + 1) * ppm],
                outline=red,
                width=max(2, int(0.7 * ppm)),
                fill=(255, 0, 0, 30),
            )
            for k, state in list(cr.ranks.items()):
                draw.rectangle(
                    box(marks[("rank", name, k)], shift), outline=red if state is None else orange, width=line
                )
            for k, state in list(cr.suits.items()):
                draw.ellipse(box(marks[("suit", name, k)], shift), outline=red if state is None else orange, width=line)
            vb = box(value, shift)
            draw.text((vb[0] + 0.5 * ppm, vb[1]), "?", fill=red, font=label_font)
            tag(draw, name, (x0 + dx - 1) * ppm, (y1 + dy + 1) * ppm, key_font, red)
    for kind, field_name, count in (
        ("chip_earned", "chips.earned", reading.chips_earned),
        ("chip_spent", "chips.spent", reading.chips_spent),
    ):
        for i in count.marked:
            b = box(marks[(kind, str(i), "")], inks[(kind, str(i), "")].shift)
            if kind == "chip_earned":
                draw.ellipse(
                    [b[0] - 0.5 * ppm, b[1] - 0.5 * ppm, b[2] + 0.5 * ppm, b[3] + 0.5 * ppm], outline=green, width=line
                )
            else:
                draw.rectangle(b, outline=green, width=line)
        for i in count.unsure:
            b = box(marks[(kind, str(i), "")], inks[(kind, str(i), "")].shift)
            draw.rectangle([b[0] - ppm, b[1] - ppm, b[2] + ppm, b[3] + ppm], outline=red, width=max(2, int(0.6 * ppm)))
        if count.value is None:
            ts = [t for t in reading.scene.marks if t.kind == kind]
            x0, y0 = min(t.x for t in ts) - 1, min(t.y for t in ts) - 1
            x1, y1 = max(t.x + t.w for t in ts) + 1, max(t.y + t.h for t in ts) + 1
            draw.rectangle([x0 * ppm, y0 * ppm, x1 * ppm, y1 * ppm], outline=red, width=max(2, int(0.5 * ppm)))
            tag(draw, field_name, x1 * ppm + ppm, y0 * ppm, key_font, red)
    # the column: what was read, then every uncertain field keyed by its name on the page
    cards = sum(1 for c in reading.cells.values() if c.status == "card")
    earned, spent = reading.chips_earned, reading.chips_spent
    x, width = page_size[0] + 3 * ppm, col_w - 6 * ppm
    head, body, bold = (
        annotation_font(max(10, int(3.4 * ppm))),
        annotation_font(max(9, int(2.8 * ppm)), "regular"),
        annotation_font(max(9, int(2.8 * ppm))),
    )
    y = 6 * ppm
    y = wrap_text(draw, reading.display, x, y, width, head, ink)
    y = wrap_text(draw, f"layout {reading.layout.id} ({paper.label})", x, y + 0.5 * ppm, width, body, ink)
    y = wrap_text(
        draw,
        f"{cards} cards read; chips earned {earned.value if earned.value is not None else '?'}, "
        f"spent {spent.value if spent.value is not None else '?'}",
        x,
        y + 0.5 * ppm,
        width,
        body,
        ink,
    )
    unc = reading.uncertain
    y += 3 * ppm
    if not unc:
        wrap_text(draw, "Nothing uncertain.", x, y, width, head, green)
    else:
        y = wrap_text(
            draw,
            f"{len(unc)} uncertain: look at the sheet and write what is there in the .read.yaml",
            x,
            y,
            width,
            bold,
            red,
        )
        y += 2 * ppm
        bottom = page_size[1] - 4 * ppm
        groups: dict[str, list[str]] = {}  # fields with the same reason are listed together
        for field_name, reason in unc:
            groups.setdefault(reason, []).append(field_name)
        for n, (reason, fields) in enumerate(groups.items()):
            if y > bottom - 3 * body.size:
                wrap_text(
                    draw,
                    f"… and {sum(len(f) for f in list(groups.values())[n:])} more: see the .read.yaml",
                    x,
                    y,
                    width,
                    bold,
                    red,
                )
                break
            y = wrap_text(draw, ", ".join(fields), x, y, width, bold, red)
            y = wrap_text(draw, reason, x + 2 * ppm, y, width - 2 * ppm, body, ink) + 1.5 * ppm
    return base


PNG_LEVEL = 1
"""zlib level of the annotated picture: the fastest (a photo's grain compresses little more at 9, which
takes 20 times as long: 0.44 s against 0.02 s for an A4 page at 4 pixels per mm)."""


def png_bytes(image) -> bytes:
    """A Pillow image (RGB) as PNG bytes (8-bit RGB), compressed at :data:`PNG_LEVEL`, through OpenCV's libpng with
    no row filter and zlib's run-length strategy: a photo's grain gains nothing from PNG's filters, which Pillow tries
    on every row.  Half the time of Pillow's encoder (0.045 s against 0.097 s for an A4 page at 4 pixels per mm), and
    a smaller file (1.5 MB against 1.7 MB); the same pixels."""
    import cv2

    bgr = cv2.cvtColor(np.asarray(image.convert("RGB")), cv2.COLOR_RGB2BGR)
    _, data = cv2.imencode(
        ".png",
        bgr,
        [
            cv2.IMWRITE_PNG_COMPRESSION,
            PNG_LEVEL,
            cv2.IMWRITE_PNG_FILTER,
            cv2.IMWRITE_PNG_FILTER_NONE,
            cv2.IMWRITE_PNG_STRATEGY,
            cv2.IMWRITE_PNG_STRATEGY_RLE,
        ],
    )
    return data.tobytes()


def tag(draw, text: str, x: float, y: float, font, fill) -> None:
    """A small label on a white ground (a field's name beside its frame on the page)."""
    w = draw.textlength(text, font=font)
    draw.rectangle([x, y, x + w + 4, y + font.size * 1.2], fill=(255, 255, 255, 230))
    draw.text((x + 2, y), text, fill=fill, font=font)


def wrap_text(draw, text: str, x: float, y: float, width: float, font, fill) -> float:
    """Draw ``text`` wrapped at word boundaries to ``width`` pixels from ``(x, y)``; return the y below it."""
    words = []
    for w in text.split():  # a word wider than the column (a long file path) is cut into pieces that fit
        while draw.textlength(w, font=font) > width and len(w) > 1:
            n = len(w) - 1
            while n > 1 and draw.textlength(w[:n], font=font) > width:
                n -= 1
            words.append(w[:n])
            w = w[n:]
        words.append(w)
    line = ""
    step = font.size * 1.2
    for w in words:
        trial = (line + " " + w).strip()
        if draw.textlength(trial, font=font) > width and line:
            draw.text((x, y), line, fill=fill, font=font)
            y += step
            line = w
        else:
            line = trial
    if line:
        draw.text((x, y), line, fill=fill, font=font)
        y += step
    return y


def _photo_page(reading: PhotoReading, ppm: float) -> np.ndarray:
    """The whole page cut from the photo through the homography at ``ppm`` (BGR)."""
    from generator.reader.image import load_photo
    from generator.reader.marks import rectify

    img = load_photo(reading.path, reading.display)
    return rectify(img, reading.fit, (0.0, 0.0, reading.paper.width, reading.paper.height), ppm)
