"""Opening a photo safely: is it an image, is it a sane size, decode it.

The header is read first (Pillow opens lazily: size and format without
decoding), so a decompression bomb — a small file claiming a huge picture —
is refused before any pixel is decoded.  Decoding then goes through OpenCV
(fast JPEG/PNG, EXIF orientation applied), with Pillow as a fallback for the
formats OpenCV does not read.
"""

from __future__ import annotations

import io
import re
import warnings
from pathlib import Path

import numpy as np

from .errors import PhotoError

MAX_PIXELS = 64_000_000
"""Largest photo accepted, in pixels (width × height, from the header): 64 MP covers phone cameras."""
MAX_SIDE = 20_000
"""Longest side accepted, in pixels."""
MIN_SIDE = 600
"""A photo whose shorter side is below this many pixels is too small to read marks from."""
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".tif", ".tiff", ".bmp", ".heic", ".gif")
"""File name endings taken as photos by :func:`looks_like_photo` (the content decides in the end)."""


def looks_like_photo(path: str | Path) -> bool:
    """True when ``path`` should be read as a photo rather than a YAML file: by its ending,
    or, for an unknown ending, by an image signature in its first bytes."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in PHOTO_SUFFIXES:
        return True
    if suffix in (".yaml", ".yml"):
        return False
    try:
        with open(p, "rb") as fh:
            head = fh.read(16)
    except OSError:
        return False
    return head.startswith((b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"GIF8", b"BM", b"II*\x00", b"MM\x00*")) or (
        head[:4] == b"RIFF" and head[8:12] == b"WEBP"
    )


def load_photo(path: str | Path, display: str) -> np.ndarray:
    """Read a photo file into a BGR ``uint8`` array of shape ``(height, width, 3)``.

    Args:
        path: the file.
        display: the name used in messages.

    Raises:
        PhotoError: the file is missing or not an image; its header announces
            more than :data:`MAX_PIXELS` pixels or a side above :data:`MAX_SIDE`
            (checked before decoding); its shorter side is under :data:`MIN_SIDE`;
            the data cannot be decoded.
    """
    from PIL import Image, UnidentifiedImageError

    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise PhotoError(display, "file not found") from None
    except OSError as exc:
        raise PhotoError(display, f"cannot be read ({exc.strerror})") from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:  # lazy: reads the header only
                width, height = im.size
                fmt = im.format or "image"
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        m = re.search(r"\((\d+) pixels\)", str(exc))
        claimed = f" (its header claims {int(m.group(1)) / 1e6:.0f} MP)" if m else ""
        raise PhotoError(
            display, f"the image is too large to read safely{claimed}; sheetsmith reads photos up to {MAX_PIXELS // 1_000_000} MP: resize it"
        ) from None
    except UnidentifiedImageError:
        raise PhotoError(display, "not an image sheetsmith can read: give a photo (JPEG, PNG, WebP, TIFF) or a typed-in sheet (.yaml)") from None
    except Exception as exc:  # a damaged header
        raise PhotoError(display, f"damaged image file ({exc})") from None
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
    import cv2

    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None or img.shape[0] * img.shape[1] != width * height:
        try:
            with Image.open(io.BytesIO(data)) as im:
                im = _exif_upright(im)
                rgb = np.asarray(im.convert("RGB"))
            img = np.ascontiguousarray(rgb[:, :, ::-1])
        except Exception as exc:
            raise PhotoError(display, f"the {fmt} data cannot be decoded ({exc}); is the file complete?") from None
    return img


def _exif_upright(im):
    from PIL import ImageOps

    try:
        return ImageOps.exif_transpose(im)
    except Exception:
        return im
