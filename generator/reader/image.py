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
                _check_frames(im, kind, display)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        m = re.search(r"\((\d+) pixels\)", str(exc))
        claimed = f" (its header claims {int(m.group(1)) / 1e6:.0f} MP)" if m else ""
        raise PhotoError(
            display,
            f"the image is too large to read safely{claimed}; sheetsmith reads photos up to {MAX_PIXELS // 1_000_000} "
            "MP: resize it",
        ) from None
    except PhotoError:
        raise
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
    if kind == "JPEG" or (kind == "PNG" and _plain_png(data)):
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
            img = _decode(data, kind)
        except PhotoError:
            raise
        except Exception as exc:
            raise PhotoError(
                display, f"the {kind} data cannot be decoded ({shown(str(exc))}); is the file complete?"
            ) from None
    return _descreened(img, display)


def _check_frames(im, kind: str, display: str) -> None:
    """Refuse a file holding several pictures (a multi-page TIFF, an animated GIF, WebP or PNG).

    Raises:
        PhotoError: more than one page or frame; the message says how many.  A JPEG's extra pictures (an MPO's
            depth or gain map, a preview) are not pages and are not counted, nor are a HEIC's auxiliary images.
    """
    import warnings

    if kind not in ("TIFF", "GIF", "WebP", "PNG", "HEIC", "AVIF"):
        return
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (Pillow warns of the damage it then raises for)
            frames = int(getattr(im, "n_frames", 1))
    except Exception:  # a later page announced but damaged: never read as if the file held one sheet
        raise PhotoError(
            display,
            f"this {kind} file announces more than one page, and a later one is damaged; sheetsmith reads one "
            "sheet per photo file: save each page as its own image (scan again if one is damaged) and give them all",
        ) from None
    if frames > 1:
        what = "pages" if kind == "TIFF" else "frames"
        raise PhotoError(
            display,
            f"this {kind} file holds {frames} {what}; sheetsmith reads one sheet per photo file and never drops one: "
            f'save each {what[:-1]} as its own image (a scanner\'s "one file per page" setting) and give them all',
        )


def _plain_png(data: bytes) -> bool:
    """A PNG of at most 8 bits per channel without transparency (OpenCV's colour decoding keeps all of it)."""
    if len(data) < 33 or data[12:16] != b"IHDR":
        return False
    depth, colour = data[24], data[25]
    head = data[: data.find(b"IDAT")] if b"IDAT" in data else data
    return depth <= 8 and colour in (0, 2, 3) and b"tRNS" not in head


_WIDE_MODES = ("I;16", "I;16L", "I;16B", "I;16N", "I", "F")


def _decode(data: bytes, kind: str) -> np.ndarray:
    """Decode ``data`` (any format Pillow opens) into BGR ``uint8``, upright.

    * Grey of more than 8 bits (16-bit, 12-bit data stored in 16 bits, 32-bit integer or float) is scaled by its own
      bit depth (:func:`_scaled`), never clipped to white.
    * Colour of more than 8 bits per channel (PNG, TIFF) is decoded by OpenCV at full depth and scaled the same way.
    * Transparency is laid over white paper (:func:`_on_white`): a sheet saved with its paper transparent.
    * The EXIF orientation is applied.
    """
    import cv2
    import numpy as np
    from PIL import Image

    with Image.open(io.BytesIO(data)) as im:
        orientation = _orientation(im)  # as stored (OpenCV's decoding below leaves it to us)
        deep = (kind == "PNG" and data[24] == 16 and data[25] in (2, 4, 6)) or (
            kind == "TIFF" and im.mode not in _WIDE_MODES and max(_tag(im, 258) or (8,)) > 8
        )
        if deep:
            arr = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
            if arr is None:
                raise ValueError("OpenCV cannot decode it")
            if arr.ndim == 3 and arr.shape[2] >= 3:  # OpenCV's BGR(A) to RGB(A)
                arr = arr[..., [2, 1, 0, 3][: arr.shape[2]]]
            rgb = _rgb8(arr)
            if kind == "TIFF":
                orientation = 1  # OpenCV's TIFF decoding turns the picture upright itself
        else:
            im.load()
            orientation = _orientation(im)  # what is left to do: Pillow turns a TIFF upright as it loads it
            if im.mode in _WIDE_MODES:
                rgb = _rgb8(np.asarray(im))
            elif "A" in im.mode or "a" in im.mode or "transparency" in im.info:
                rgb = _rgb8(np.asarray(im.convert("RGBA")))
            else:
                rgb = np.asarray(im.convert("RGB"))
    return np.ascontiguousarray(_upright(rgb, orientation)[:, :, ::-1])


def _tag(im, tag: int):
    tags = getattr(im, "tag_v2", None)
    value = tags.get(tag) if tags is not None else None
    return value if isinstance(value, tuple) else (value,) if isinstance(value, int) else None


def _orientation(im) -> int:
    try:
        value = im.getexif().get(0x0112, 1)
    except Exception:
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def _upright(a: np.ndarray, orientation: int) -> np.ndarray:
    """``a`` (rows × columns [× channels]) turned upright from EXIF orientation 1–8."""

    if orientation in (5, 6, 7, 8):
        a = a.swapaxes(0, 1)  # 5: transposed; 6, 7, 8 from it
        return {5: a, 6: a[:, ::-1], 7: a[::-1, ::-1], 8: a[::-1]}[orientation]
    return {1: a, 2: a[:, ::-1], 3: a[::-1, ::-1], 4: a[::-1]}[orientation]


def _scaled(a: np.ndarray) -> np.ndarray:
    """Grey or colour values of any depth as ``float32`` in 0–1: integers divided by the full scale of the
    smallest of 8, 10, 12, 14, 16, 24 or 32 bits that holds their maximum (12-bit data in a 16-bit file is
    12-bit); floats up to 1 kept, larger ones read as integers; negative values and NaN are black."""
    import numpy as np

    f = np.nan_to_num(a.astype(np.float32), nan=0.0, posinf=0.0, neginf=0.0)
    np.maximum(f, 0.0, out=f)
    top = float(f.max()) if f.size else 0.0
    if a.dtype.kind == "f" and top <= 1.0:
        return f
    full = next((2.0**b - 1 for b in (8, 10, 12, 14, 16, 24, 32) if top <= 2.0**b - 1), top)
    return f / full


def _rgb8(a: np.ndarray) -> np.ndarray:
    """Pixels in RGB order — grey (2-D), grey + alpha, RGB or RGBA, of any depth — as RGB ``uint8`` with any
    transparency laid over white."""
    import numpy as np

    if a.ndim == 2:
        a = a[:, :, None]
    colour, alpha = (a[..., :-1], a[..., -1]) if a.shape[2] in (2, 4) else (a, None)
    rgb = _scaled(colour) if a.dtype != np.uint8 or a.shape[2] in (2, 4) else colour.astype(np.float32) / 255
    if alpha is not None:
        full = 1.0 if alpha.dtype.kind == "f" else float(np.iinfo(alpha.dtype).max)
        opaque = np.clip(np.nan_to_num(alpha.astype(np.float32)) / full, 0.0, 1.0)[..., None]
        rgb = rgb * opaque + (1.0 - opaque)  # transparency is the white paper behind it
    rgb = np.clip(rgb * 255 + 0.5, 0, 255).astype(np.uint8)
    return np.repeat(rgb, 3, axis=2) if rgb.shape[2] == 1 else rgb


DESCREEN_PX = 1.2
"""A picture of only black and white (a 1-bit or dithered image) is blurred by a Gaussian of this sigma (pixels)
before reading: its dots become the greys they stand for, as a camera's own blur would make them."""
DITHERED = 0.08
"""Share of a two-level picture's black pixels that stand alone (no black pixel above, below or beside them) from
which it is dithered: a dithered photo draws its greys with lone dots (a share of 0.1 to 0.5), a picture cut at
one grey level (a black-and-white scan, a "document" filter) draws solid strokes (under 0.05)."""


def _descreened(img: np.ndarray, display: str = "photo") -> np.ndarray:
    """``img`` (BGR ``uint8``) with a halftone's dots turned back into grey (:data:`DESCREEN_PX`) when a sample of
    its pixels holds no more than two levels; otherwise ``img`` itself.

    Raises:
        PhotoError: black and white drawn as solid strokes rather than dots (:data:`DITHERED`): every grey was cut to
            black or white at one level, and a faint mark, the printed boxes and the colours the reader tells
            print from ink by are gone with them.
    """
    import cv2
    import numpy as np

    sample = img[:: max(1, img.shape[0] // 97), :: max(1, img.shape[1] // 89)]
    if len(np.unique(sample)) > 2:
        return img
    grey = bool((sample[..., 0] == sample[..., 1]).all() and (sample[..., 1] == sample[..., 2]).all())
    if grey and _lone_dots(img[:, :, 1]) < DITHERED:  # (pure colours, 0 or 255 in each channel, are not cut grey)
        raise PhotoError(
            display,
            "this is a black-and-white picture (each pixel black or white, no grey): a scanner's or an app's "
            "black-and-white or document mode cuts faint marks and the sheet's colours away; scan in grey or colour, "
            "or take a photo",
        )
    return cv2.GaussianBlur(img, (0, 0), DESCREEN_PX)


def _lone_dots(channel: np.ndarray) -> float:
    """Share of the black pixels (under 128) of ``channel`` with no black pixel above, below or beside them."""
    import numpy as np

    black = channel < 128
    count = int(black.sum())
    if count == 0:
        return 1.0  # all white: nothing cut, nothing to read either (the marker search says so)
    near = np.zeros_like(black)
    near[1:] |= black[:-1]
    near[:-1] |= black[1:]
    near[:, 1:] |= black[:, :-1]
    near[:, :-1] |= black[:, 1:]
    return float((black & ~near).sum()) / count


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


__all__ = ["load_photo", "read_photo_file", "MAX_BYTES", "MAX_PIXELS"]
