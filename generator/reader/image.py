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
import struct
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from generator.reader.errors import PhotoError
from generator.core.names import shown

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
READS = "sheetsmith reads photos (JPEG, PNG, HEIC, WebP, TIFF) or typed-in sheets (.yaml)"
"""What the reader takes, as messages say it."""
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".jpe", ".png", ".webp", ".tif", ".tiff", ".bmp", ".heic", ".heif", ".hif",
                  ".avif", ".gif", ".dng", ".cr2", ".cr3", ".nef", ".arw", ".orf", ".rw2", ".raf", ".pef", ".srw")
"""File name endings sent to the photo reader by :func:`looks_like_photo` (the content decides what the file is)."""
RAW_NAMES = {".dng": "Adobe DNG", ".cr2": "Canon CR2", ".nef": "Nikon NEF", ".nrw": "Nikon NRW", ".arw": "Sony ARW",
             ".pef": "Pentax PEF", ".srw": "Samsung SRW", ".rwl": "Leica RWL", ".3fr": "Hasselblad 3FR", ".iiq": "Phase One IIQ"}
"""Camera RAW kinds built on TIFF, named from the file's ending (their content only says "TIFF with a RAW inside")."""

_HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"hevm", b"hevs", b"mif1", b"msf1", b"mif2"}
_AVIF_BRANDS = {b"avif", b"avis"}
_VIDEO_BRANDS = {b"isom", b"iso2", b"iso4", b"iso5", b"iso6", b"mp41", b"mp42", b"mp71", b"avc1", b"M4V ", b"M4VH",
                 b"M4VP", b"3gp4", b"3gp5", b"3gp6", b"3g2a", b"dash", b"f4v "}
_NOT_PHOTO = {
    "PDF": ("a PDF document", "photograph the printed sheet, or save the page as a PNG or JPEG image"),
    "video": ("a video ({kind})", "take a still photo of the sheet, or save one frame of the video as a JPEG"),
    "raw": ("a camera RAW file ({kind})", "export it as JPEG from the camera's or computer's photo app, or set the camera to save JPEG"),
    "JPEG XL": ("a JPEG XL image", "save it again as an ordinary JPEG or PNG"),
    "archive": ("a ZIP archive (or an office document)", "unpack it and give the photo inside"),
    "text": ("a text file", "a typed-in sheet is read as one when its name ends in .yaml"),
}


def sniff(head: bytes, suffix: str = "") -> tuple[str, str]:
    """What a file is, from its first bytes (at least 64; a few KB lets TIFF-based RAWs be told apart).

    Args:
        head: the file's first bytes.
        suffix: the file name's ending, lower case; only used to *name* a TIFF-based camera RAW.

    Returns:
        ``(family, kind)``: family ``"photo"`` (kind ``JPEG``, ``PNG``, ``HEIC``, ``AVIF``, ``WebP``, ``TIFF``,
        ``GIF``, ``BMP``), one of the families of formats that are not photos sheetsmith reads
        (``PDF``, ``video``, ``raw``, ``JPEG XL``, ``archive``, ``text``), or ``("unknown", "")``.
    """
    if head.startswith(b"\xff\xd8\xff"):
        return "photo", "JPEG"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "photo", "PNG"
    if head[4:8] == b"ftyp":
        brands = {head[8:12]} | {head[i:i + 4] for i in range(16, min(len(head), 16 + 4 * 16), 4)}
        major = head[8:12]
        if major == b"crx " or b"crx " in brands:
            return "raw", "Canon CR3"
        if major == b"qt  ":
            return "video", "QuickTime MOV"
        if major in _VIDEO_BRANDS or major.startswith(b"3g"):
            return "video", "MP4"
        if major in _AVIF_BRANDS or (brands & _AVIF_BRANDS and not brands & (_HEIF_BRANDS - {b"mif1", b"msf1", b"mif2"})):
            return "photo", "AVIF"
        if brands & _HEIF_BRANDS:
            return "photo", "HEIC"
        return "video", "MP4"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "photo", "WebP"
    if head[:4] == b"RIFF" and head[8:12] == b"AVI ":
        return "video", "AVI"
    if head.startswith(b"\x1aE\xdf\xa3"):
        return "video", "Matroska/WebM"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "photo", "GIF"
    if head.startswith(b"BM") and len(head) >= 26 and struct.unpack("<I", head[14:18])[0] in (12, 40, 52, 56, 64, 108, 124):
        return "photo", "BMP"
    if head.startswith(b"%PDF"):
        return "PDF", "PDF"
    if head.startswith((b"FUJIFILMCCD-RAW",)):
        return "raw", "Fujifilm RAF"
    if head.startswith((b"IIRO", b"IIRS", b"MMOR")):
        return "raw", "Olympus ORF"
    if head.startswith(b"IIU\x00"):
        return "raw", "Panasonic RW2"
    if head.startswith(b"II\x1a\x00\x00\x00HEAPCCDR"):
        return "raw", "Canon CRW"
    if head.startswith(b"FOVb"):
        return "raw", "Sigma X3F"
    if head.startswith((b"II*\x00", b"MM\x00*")):
        raw = _tiff_raw(head, suffix)
        return ("raw", raw) if raw else ("photo", "TIFF")
    if head.startswith((b"\xff\x0a", b"\x00\x00\x00\x0cJXL \r\n\x87\n")):
        return "JPEG XL", "JPEG XL"
    if head.startswith(b"PK\x03\x04"):
        return "archive", "ZIP"
    if head and b"\x00" not in head:
        try:
            head.decode("utf-8")
            return "text", "text"
        except UnicodeDecodeError as exc:
            if exc.start >= len(head) - 3:  # a character cut by the end of the sample
                return "text", "text"
    return "unknown", ""


def _tiff_raw(head: bytes, suffix: str) -> str | None:
    """The camera RAW kind of a TIFF-structured file, or ``None`` for an ordinary TIFF.

    A DNG carries the DNGVersion tag (50706) in its first directory; Canon's CR2
    writes ``CR`` after the header; the other TIFF-based RAWs (NEF, ARW, PEF …)
    start with a reduced-resolution preview (NewSubfileType 1) and keep the
    sensor data in sub-directories (tag 330).
    """
    if head[8:10] == b"CR":
        return "Canon CR2"
    e = "<" if head[:2] == b"II" else ">"
    try:
        off = struct.unpack(e + "I", head[4:8])[0]
        count = struct.unpack(e + "H", head[off:off + 2])[0]
        tags: dict[int, tuple[int, bytes]] = {}
        for i in range(min(count, 256)):
            entry = head[off + 2 + 12 * i: off + 14 + 12 * i]
            if len(entry) < 12:
                break
            tag, typ = struct.unpack(e + "HH", entry[:4])
            tags[tag] = (typ, entry[8:12])
    except struct.error:
        return None
    if 50706 in tags:
        return "Adobe DNG"
    if 330 in tags and 254 in tags:
        typ, raw = tags[254]
        value = struct.unpack(e + ("I" if typ == 4 else "H"), raw if typ == 4 else raw[:2])[0]
        if value & 1:
            return RAW_NAMES.get(suffix, "RAW")
    return None


def looks_like_photo(path: str | Path) -> bool:
    """True when ``path`` goes to the photo reader rather than the YAML readers.

    By its ending (:data:`PHOTO_SUFFIXES`: images, camera RAWs), else — for an ending
    other than ``.yaml``/``.yml`` — by its first bytes, read only from a regular file:
    any binary format :func:`sniff` knows (images, PDF, RAW, video).  A named pipe or a
    device is never opened here.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in PHOTO_SUFFIXES:
        return True
    if suffix in (".yaml", ".yml"):
        return False
    try:
        if not stat.S_ISREG(os.stat(p).st_mode):
            return False
        with open(p, "rb") as fh:
            head = fh.read(4096)
    except (OSError, ValueError):
        return False
    family, _ = sniff(head, suffix)
    return family not in ("text", "unknown")


def _size(n: int) -> str:
    return f"{n / 1e9:.1f} GB" if n >= 1e9 else f"{n / 1e6:.0f} MB"


_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a device file"), (stat.S_ISBLK, "a device file"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))


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
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
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
            f"the file is {_size(n)}; sheetsmith reads photo files up to {_size(MAX_BYTES)} (a phone photo is 2 to 10 MB): "
            "give a single photo, saved as JPEG",
        )


def format_error(family: str, kind: str) -> str | None:
    """The message for a file whose format is not a photo sheetsmith reads (``None`` for a photo)."""
    if family == "photo":
        return None
    if family == "unknown":
        return f"not an image: {READS}"
    what, advice = _NOT_PHOTO[family]
    if family == "text":
        return f"not an image (the file holds text): {READS}; {advice}"
    return f"this is {what.format(kind=kind)}; {READS}: {advice}"


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
    """Read a photo file into a BGR ``uint8`` array of shape ``(height, width, 3)``, upright (EXIF/HEIF orientation applied).

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
            display, f"the image is too large to read safely{claimed}; sheetsmith reads photos up to {MAX_PIXELS // 1_000_000} MP: resize it"
        ) from None
    except UnidentifiedImageError:
        raise PhotoError(display, f"the {kind} data cannot be read: the file is damaged or incomplete; copy the photo again") from None
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
        if img is not None and abs(img.shape[0] * img.shape[1] * reduce * reduce - width * height) > (width + height) * reduce:
            img = None
    if img is None:
        try:
            with Image.open(io.BytesIO(data)) as im:
                im = _exif_upright(im)
                rgb = np.asarray(im.convert("RGB"))
            img = np.ascontiguousarray(rgb[:, :, ::-1])
        except Exception as exc:
            raise PhotoError(display, f"the {kind} data cannot be decoded ({shown(str(exc))}); is the file complete?") from None
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


__all__ = ["load_photo", "read_photo_file", "looks_like_photo", "sniff", "format_error", "MAX_BYTES", "MAX_PIXELS", "READS"]
