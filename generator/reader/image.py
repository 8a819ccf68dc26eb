"""Opening a photo safely: is it a file, is it an image we read, is it a sane size; decode it.

Before a byte of pixel data is read:

1. **The file.**  ``os.stat`` on the path (links followed): only a regular file
   is opened — a named pipe would block the run forever, a link to
   ``/dev/zero`` would fill the memory — and only one of at most
   :data:`MAX_BYTES` (a 3 GB file with a JPEG header is not a phone photo).
   The file is then opened without blocking and checked again on the open
   handle, so it cannot be swapped in between.
2. **The format, by content.**  The first bytes say what the file is, whatever
   its name (an iPhone's HEIC photo is often sent as ``IMG_0001.jpg``):
   :func:`sniff`.  Formats that are not photos sheetsmith can read — a PDF, a
   camera RAW, a video — are named in the message, with how to get a JPEG.
3. **The size in pixels**, from the header (Pillow opens lazily), so a
   decompression bomb — a small file claiming a huge picture — is refused
   before any pixel is decoded.

Decoding goes through OpenCV for JPEG and PNG (fast, EXIF orientation
applied), through Pillow for the rest, and through pillow-heif for HEIC/HEIF
(registered as a Pillow opener the first time a HEIC file is met, so other
photos do not pay for importing it).
"""

from __future__ import annotations

import io
import os
import re
import stat
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.filetypes import format_error, sniff
from generator.core.names import shown
from generator.reader.errors import PhotoError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

MAX_PIXELS = 64_000_000
"""Largest photo accepted, in pixels (width × height, from the header): 64 MP covers phone cameras."""
MAX_SIDE = 20_000
"""Longest side accepted, in pixels."""
MIN_SIDE = 600
"""A photo whose shorter side is below this many pixels is too small to read marks from."""
MAX_BYTES = 100_000_000
"""Largest photo file accepted, in bytes (100 MB; a 12 MP phone JPEG is 2–5 MB, a 48 MP HEIC about 10 MB)."""


def _size(n: int) -> str:
    return f"{n / 1e9:.1f} GB" if n >= 1e9 else f"{n / 1e6:.0f} MB"


_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a device file"),
    (stat.S_ISBLK, "a device file"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


def _not_regular(mode: int) -> str | None:
    for test, name in _KINDS:
        if test(mode):
            return name
    return None if stat.S_ISREG(mode) else "not a regular file"


def read_photo_file(path: str | Path, display: str) -> bytes:
    """The bytes of a photo file, after checking that it is a regular file of a sane size.

    Args:
        path: the file (a link is followed).
        display: the name used in messages.

    Raises:
        PhotoError: the file is missing; it is (or links to) a named pipe, a device, a
            socket or a folder; it is empty or larger than :data:`MAX_BYTES`; it cannot be read.
    """
    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        if os.path.islink(p):
            raise PhotoError(display, f"is a link to {shown(os.readlink(p))}, which does not exist") from None
        raise PhotoError(display, "file not found") from None
    except OSError as exc:
        raise PhotoError(display, f"cannot be read ({exc.strerror})") from None
    kind = _not_regular(st.st_mode)
    if kind is not None:
        where = f"is a link to {shown(os.path.realpath(p))}, {kind}" if os.path.islink(p) else f"is {kind}"
        raise PhotoError(display, f"{where}, not a photo file: give the photo itself")
    _check_bytes(st.st_size, display)
    try:
        fd = os.open(
            p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
        )
    except OSError as exc:
        raise PhotoError(display, f"cannot be read ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)  # the file opened is the file checked (it may have been replaced meanwhile)
        kind = _not_regular(st.st_mode)
        if kind is not None:
            raise PhotoError(display, f"is {kind}, not a photo file: give the photo itself")
        _check_bytes(st.st_size, display)
        try:
            data = fh.read(MAX_BYTES + 1)
        except OSError as exc:
            raise PhotoError(display, f"cannot be read ({exc.strerror})") from None
    _check_bytes(len(data), display)
    return data


def _check_bytes(n: int, display: str) -> None:
    if n == 0:
        raise PhotoError(display, "the file is empty (0 bytes): copy the photo again")
    if n > MAX_BYTES:
        raise PhotoError(
            display,
            f"the file is {_size(n)}; sheetsmith reads photo files up to {_size(MAX_BYTES)} (a phone photo is 2 to 10 "
            "MB): "
            "give a single photo, saved as JPEG",
        )


_HEIF_READY: list[bool] = []


def _register_heif(display: str) -> None:
    """Make Pillow open HEIC/HEIF through pillow-heif (once per process)."""
    if _HEIF_READY:
        return
    try:
        import pillow_heif
    except ImportError:
        raise PhotoError(
            display,
            "this is a HEIC photo, and pillow-heif, which sheetsmith reads HEIC with, is not installed: "
            "install it (pip install pillow-heif), or save the photo as JPEG "
            "(on an iPhone: Settings > Camera > Formats > Most Compatible)",
        ) from None
    pillow_heif.register_heif_opener()
    _HEIF_READY.append(True)


def load_photo(path: str | Path, display: str) -> np.ndarray:
    """Read a photo file into a BGR ``uint8`` array of shape ``(height, width, 3)``, upright (EXIF/HEIF orientation
    applied).

    Args:
        path: the file.
        display: the name used in messages.

    Raises:
        PhotoError: the file is missing, not a regular file, empty or over :data:`MAX_BYTES`
            (:func:`read_photo_file`); it is not an image sheetsmith reads (the message names
            PDFs, camera RAWs and videos, and how to get a JPEG); its header announces more than
            :data:`MAX_PIXELS` pixels or a side above :data:`MAX_SIDE` (checked before decoding);
            its shorter side is under :data:`MIN_SIDE`; the data cannot be decoded.
    """
    import numpy as np

    data = read_photo_file(path, display)
    family, kind = sniff(data[:16384], Path(path).suffix.lower())
    message = format_error(family, kind)
    if message:
        raise PhotoError(display, message)
    if kind == "HEIC":
        _register_heif(display)
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:  # lazy: reads the header only
                width, height = im.size
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        m = re.search(r"\((\d+) pixels\)", str(exc))
        claimed = f" (its header claims {int(m.group(1)) / 1e6:.0f} MP)" if m else ""
        raise PhotoError(
            display,
            f"the image is too large to read safely{claimed}; sheetsmith reads photos up to {MAX_PIXELS // 1_000_000} "
            "MP: resize it",
        ) from None
    except UnidentifiedImageError:
        raise PhotoError(
            display, f"the {kind} data cannot be read: the file is damaged or incomplete; copy the photo again"
        ) from None
    except Exception as exc:  # a damaged header
        raise PhotoError(display, f"damaged {kind} file ({shown(str(exc))})") from None
    if width * height > MAX_PIXELS or max(width, height) > MAX_SIDE:
        raise PhotoError(
            display,
            f"the image is {width} × {height} pixels ({width * height / 1e6:.0f} MP); sheetsmith reads photos up to "
            f"{MAX_PIXELS // 1_000_000} MP and {MAX_SIDE} pixels a side: resize it",
        )
    if min(width, height) < MIN_SIDE:
        raise PhotoError(
            display,
            f"the image is only {width} × {height} pixels; photograph the sheet so that it is at least "
            f"{MIN_SIDE} pixels on its shorter side (a phone's normal photo is fine)",
        )
    img = None
    if kind in ("JPEG", "PNG"):
        import cv2

        reduce = _reduction(data, width, height) if kind == "JPEG" else 1
        flag = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4}[reduce]
        try:
            img = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
        except cv2.error:
            img = None
        if (
            img is not None
            and abs(img.shape[0] * img.shape[1] * reduce * reduce - width * height) > (width + height) * reduce
        ):
            img = None
    if img is None:
        try:
            with Image.open(io.BytesIO(data)) as im:
                im = _exif_upright(im)
                rgb = np.asarray(im.convert("RGB"))
            img = np.ascontiguousarray(rgb[:, :, ::-1])
        except Exception as exc:
            raise PhotoError(
                display, f"the {kind} data cannot be decoded ({shown(str(exc))}); is the file complete?"
            ) from None
    return img


REDUCE_FROM = 20_000_000
"""JPEGs of more pixels than this are looked at in a quick 1/8-size decode first (:func:`_reduction`)."""
KEEP_PX_PER_MM = 11.5
"""A reduced decode must keep at least this many pixels per page mm (the reader works at 8 and scales
larger photos down to 10 anyway: :func:`generator.reader.marks.shrink`)."""


def _reduction(data: bytes, width: int, height: int) -> int:
    """1, 2 or 4: how much smaller a large JPEG can be decoded without losing what the reader uses.

    A 48 MP photo of a sheet holds some 25 pixels per page millimetre; the reader scales it
    down to 10 before reading.  Decoding it at half size straight from the JPEG (libjpeg's
    DCT scaling: a quarter of the work, and no 48 MP image to scale down) gives the same.
    How large the sheet is in the photo is found on a 1/8-size decode (fast): the markers
    there give the pixels per mm; the reduction is the largest that keeps
    :data:`KEEP_PX_PER_MM`.  Photos under :data:`REDUCE_FROM` pixels (a 12 MP phone photo
    needs all its pixels) and photos whose markers are not found there are decoded whole.
    """
    if width * height <= REDUCE_FROM:
        return 1
    import cv2
    import numpy as np

    from generator.reader.markers import detect_markers, fit_sheet

    try:
        small = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_REDUCED_GRAYSCALE_8)
    except cv2.error:
        return 1
    if small is None:
        return 1
    fit = fit_sheet(detect_markers(small))
    if fit is None:
        return 1
    ppm = fit.px_per_mm * max(width, height) / max(small.shape)
    return next((r for r in (4, 2) if ppm / r >= KEEP_PX_PER_MM), 1)


def _exif_upright(im):
    from PIL import ImageOps

    try:
        return ImageOps.exif_transpose(im)
    except Exception:
        return im


__all__ = ["load_photo", "read_photo_file", "MAX_BYTES", "MAX_PIXELS"]
