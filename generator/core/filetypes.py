"""What a file is, from its first bytes: a photo sheetsmith reads, another format it names, or text.

A phone's HEIC photo is often sent as ``IMG_0001.jpg`` and a PDF can be named
``sheet.yaml``: the content decides (:func:`sniff`), and formats that are not
photos sheetsmith reads (a PDF, a camera RAW, a video) are named in the
message with how to get a photo (:func:`format_error`).  Light: no image
library is imported here.
"""

from __future__ import annotations

import os
import stat
import struct
from pathlib import Path

READS = "sheetsmith reads photos (JPEG, PNG, HEIC, WebP, TIFF) or typed-in sheets (.yaml)"
"""What the reader takes, as messages say it."""


PHOTO_SUFFIXES = (
    ".jpg",
    ".jpeg",
    ".jpe",
    ".png",
    ".webp",
    ".tif",
    ".tiff",
    ".bmp",
    ".heic",
    ".heif",
    ".hif",
    ".avif",
    ".gif",
    ".dng",
    ".cr2",
    ".cr3",
    ".nef",
    ".arw",
    ".orf",
    ".rw2",
    ".raf",
    ".pef",
    ".srw",
)
"""File name endings sent to the photo reader by :func:`looks_like_photo` (the content decides what the file is)."""


RAW_NAMES = {
    ".dng": "Adobe DNG",
    ".cr2": "Canon CR2",
    ".nef": "Nikon NEF",
    ".nrw": "Nikon NRW",
    ".arw": "Sony ARW",
    ".pef": "Pentax PEF",
    ".srw": "Samsung SRW",
    ".rwl": "Leica RWL",
    ".3fr": "Hasselblad 3FR",
    ".iiq": "Phase One IIQ",
}
"""Camera RAW kinds built on TIFF, named from the file's ending (their content only says "TIFF with a RAW inside")."""


_HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"hevm", b"hevs", b"mif1", b"msf1", b"mif2"}


_AVIF_BRANDS = {b"avif", b"avis"}


_VIDEO_BRANDS = {
    b"isom",
    b"iso2",
    b"iso4",
    b"iso5",
    b"iso6",
    b"mp41",
    b"mp42",
    b"mp71",
    b"avc1",
    b"M4V ",
    b"M4VH",
    b"M4VP",
    b"3gp4",
    b"3gp5",
    b"3gp6",
    b"3g2a",
    b"dash",
    b"f4v ",
}


_NOT_PHOTO = {
    "PDF": ("a PDF document", "photograph the printed sheet, or save the page as a PNG or JPEG image"),
    "video": ("a video ({kind})", "take a still photo of the sheet, or save one frame of the video as a JPEG"),
    "raw": (
        "a camera RAW file ({kind})",
        "export it as JPEG from the camera's or computer's photo app, or set the camera to save JPEG",
    ),
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
        brands = {head[8:12]} | {head[i : i + 4] for i in range(16, min(len(head), 16 + 4 * 16), 4)}
        major = head[8:12]
        if major == b"crx " or b"crx " in brands:
            return "raw", "Canon CR3"
        if major == b"qt  ":
            return "video", "QuickTime MOV"
        if major in _VIDEO_BRANDS or major.startswith(b"3g"):
            return "video", "MP4"
        if major in _AVIF_BRANDS or (
            brands & _AVIF_BRANDS and not brands & (_HEIF_BRANDS - {b"mif1", b"msf1", b"mif2"})
        ):
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
    if (
        head.startswith(b"BM")
        and len(head) >= 26
        and struct.unpack("<I", head[14:18])[0] in (12, 40, 52, 56, 64, 108, 124)
    ):
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
        count = struct.unpack(e + "H", head[off : off + 2])[0]
        tags: dict[int, tuple[int, bytes]] = {}
        for i in range(min(count, 256)):
            entry = head[off + 2 + 12 * i : off + 14 + 12 * i]
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
