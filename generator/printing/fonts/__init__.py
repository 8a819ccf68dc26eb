"""The sheet fonts: DejaVu Sans (shipped here) and, for scripts it lacks, a fallback font found on this computer.

Every text of a scene is set in one font face, chosen per text
(:func:`face_for`): DejaVu Sans of the text's weight when it has a glyph for
every character (Latin with its extensions, Greek and Cyrillic always do),
else the first fallback face that has them all (a CJK font such as WenQuanYi
Micro Hei or Droid Sans Fallback, when one is installed).  A text that no
single face can draw is never drawn with boxes: readers refuse it first
(:func:`missing_glyphs` names the characters).

Fallback faces, in order: the files named in ``SHEETSMITH_FALLBACK_FONTS``
(separated by ``os.pathsep``), then :data:`FALLBACK_CANDIDATES` that exist,
then what ``fc-list`` lists for Chinese, Japanese and Korean.  Only TrueType
outlines are used (reportlab cannot embed CFF-based OpenType fonts; such
files are skipped).

The shipped files are subsets of DejaVu Sans 2.37 (``python -m generator.printing.fonts.subset``;
licence: ``LICENSE`` beside this file).  Latin glyphs measure exactly as in
Bitstream Vera, which DejaVu Sans extends.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent
FONT_FILES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf", "italic": "DejaVuSans-Oblique.ttf"}
"""The shipped face of each weight (italic is the handwriting on filled sheets)."""
FONT_NAMES = {"regular": "DejaVuSans", "bold": "DejaVuSans-Bold", "italic": "DejaVuSans-Oblique"}
"""The names the shipped faces are registered under with reportlab (and embedded in PDFs)."""
FAMILY = "DejaVu Sans"

FALLBACK_ENV = "SHEETSMITH_FALLBACK_FONTS"
FALLBACK_CANDIDATES = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/arphic/uming.ttc",
    "/usr/share/fonts/truetype/unfonts-core/UnDotum.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
    "/System/Library/Fonts/Supplemental/Arial Unicode.ttf",
    "C:/Windows/Fonts/msyh.ttc",
    "C:/Windows/Fonts/simsun.ttc",
    "C:/Windows/Fonts/meiryo.ttc",
    "C:/Windows/Fonts/malgun.ttf",
)
"""Where common CJK TrueType fonts live on Linux, macOS and Windows."""

DRAWN_AS_SHAPES = frozenset("♠♥♦♣")
"""Suit symbols: always drawn as vector shapes, never set in a font."""

EVERY_FACE_HAS = ((0x20, 0x7E), (0xA0, 0x24F), (0x400, 0x4FF))
"""Code point ranges (first, last) that each shipped DejaVu Sans face has a glyph for: ASCII, Latin-1 and
Latin Extended-A and B, Cyrillic (``tests/test_hardening.py`` reads the font files to check every one).  Text
within them is known to print without opening a font file: checking a layout's labels costs no font parsing."""


def _surely_printable(text: str) -> bool:
    """True when every character of ``text`` lies in :data:`EVERY_FACE_HAS` or is a suit drawn as a shape."""
    return all(any(a <= ord(ch) <= b for a, b in EVERY_FACE_HAS) or ch in DRAWN_AS_SHAPES for ch in text)


@dataclass(frozen=True)
class Face:
    """One font face: its reportlab name, file, index in a collection, and the characters it has a glyph for."""

    name: str
    path: Path
    index: int
    chars: frozenset[int]

    def covers(self, text: str) -> bool:
        """True when every character of ``text`` (suit symbols excepted) has a glyph in this face."""
        return all(ord(ch) in self.chars or ch in DRAWN_AS_SHAPES for ch in text)

    def missing(self, text: str) -> list[str]:
        """The characters of ``text`` this face has no glyph for, each once, in order."""
        return [ch for ch in dict.fromkeys(text) if ord(ch) not in self.chars and ch not in DRAWN_AS_SHAPES]


def font_path(weight: str) -> Path:
    """The shipped TrueType file of ``weight`` (``"regular"``, ``"bold"`` or ``"italic"``)."""
    return FONT_DIR / FONT_FILES[weight]


def _register(name: str, path: Path, index: int = 0) -> frozenset[int]:
    """Register a TrueType face with reportlab (once); return the code points it covers.

    Raises:
        reportlab.pdfbase.ttfonts.TTFError: not a TrueType-outline font.
    """
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    # Not getFont() first: for a name it does not know yet, it parses every Type 1 font metrics file it can find.
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(path), subfontIndex=index))
    return frozenset(pdfmetrics.getFont(name).face.charToGlyph)


@lru_cache(maxsize=None)
def primary(weight: str) -> Face:
    """The shipped DejaVu Sans face of ``weight``, registered with reportlab."""
    name = FONT_NAMES[weight]
    return Face(name, font_path(weight), 0, _register(name, font_path(weight)))


def _fc_list() -> list[str]:
    """Font files ``fc-list`` knows for Chinese, Japanese and Korean (empty without fontconfig)."""
    exe = shutil.which("fc-list")
    if exe is None:
        return []
    found: list[str] = []
    for lang in ("zh", "ja", "ko"):
        try:
            out = subprocess.run([exe, f":lang={lang}", "file"], capture_output=True, text=True, timeout=5).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        found += sorted(line.strip().rstrip(":") for line in out.splitlines() if line.strip())
    return found


@lru_cache(maxsize=None)
def fallbacks() -> tuple[Face, ...]:
    """Every usable fallback face found on this computer, in the order of the module docstring."""
    named = [p for p in os.environ.get(FALLBACK_ENV, "").split(os.pathsep) if p]
    paths = list(dict.fromkeys([*named, *FALLBACK_CANDIDATES, *_fc_list()]))
    faces: list[Face] = []
    for n, p in enumerate(paths):
        path = Path(p)
        if not path.is_file() or path.suffix.lower() not in (".ttf", ".ttc", ".otf"):
            continue
        try:
            chars = _register(f"SheetsmithFallback{n}", path)
        except Exception:  # noqa: BLE001 - CFF outlines, a broken file: reportlab refuses; try the next
            continue
        faces.append(Face(f"SheetsmithFallback{n}", path, 0, chars))
    return tuple(faces)


def face_for(text: str, weight: str = "regular") -> Face:
    """The face ``text`` is set in: DejaVu Sans of ``weight`` when it covers the text, else the first fallback
    that does, else DejaVu Sans (then :func:`missing_glyphs` is not empty and the text must not be drawn)."""
    first = primary(weight)
    if first.covers(text):
        return first
    for face in fallbacks():
        if face.covers(text):
            return face
    return first


def missing_glyphs(text: str, weight: str = "regular") -> list[str]:
    """Characters of ``text`` that would print as boxes: none when one face covers it all (see :func:`face_for`).

    When no face covers the whole text, the characters that the face with the
    fewest gaps lacks.
    """
    if _surely_printable(text):
        return []
    first = primary(weight)
    if first.covers(text):
        return []
    candidates = [first, *fallbacks()]
    return min((f.missing(text) for f in candidates), key=len)


def font_note() -> str:
    """Why text cannot be printed, naming the fonts tried: DejaVu Sans and any fallback found."""
    extra = [f.path.name for f in fallbacks()]
    if not extra:
        return f"the sheet font {FAMILY} has no such character and no CJK font is installed on this computer"
    return f"no font has them all (tried {FAMILY}, {', '.join(extra)})"


@lru_cache(maxsize=64)
def subset_ttf(path: Path, index: int, chars: frozenset[str]) -> bytes:
    """A TrueType font with only the glyphs of ``chars`` (for embedding in an SVG); hinting and names kept as they
    are."""
    import io
    import logging

    from fontTools import subset
    from fontTools.ttLib import TTFont

    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)
    font = TTFont(str(path), fontNumber=index, lazy=True)
    options = subset.Options()
    options.hinting = True  # keep glyphs as stored: no recompiling (fast); the shipped faces have no hints
    options.layout_features = []
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "kern", "FFTM"]
    options.notdef_outline = True
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(chars)) + " ")
    subsetter.subset(font)
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue()


__all__ = [
    "FONT_DIR",
    "FONT_FILES",
    "FONT_NAMES",
    "FAMILY",
    "FALLBACK_ENV",
    "Face",
    "font_path",
    "primary",
    "fallbacks",
    "face_for",
    "missing_glyphs",
    "font_note",
    "subset_ttf",
]
