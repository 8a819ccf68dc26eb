"""Make the fonts shipped in ``generator/printing/fonts/`` from the DejaVu Sans release files.

    python -m generator.printing.fonts.subset /usr/share/fonts/truetype/dejavu   # Debian: fonts-dejavu-core 2.37

DejaVu Sans covers far more than a game sheet needs; the shipped files keep
Latin (with its extensions and Vietnamese), Greek, Cyrillic, punctuation,
currency, letter-like symbols, arrows, basic mathematics, geometric shapes,
miscellaneous symbols and dingbats, and drop the OpenType layout tables
(GSUB, GPOS, GDEF, kern) and hinting, which neither reportlab (PDF) nor the
SVG backend use.  Glyph outlines and advance widths are unchanged, so text
measures exactly as in DejaVu Sans (and, for Latin, as in Bitstream Vera).
Licence: generator/printing/fonts/LICENSE (the DejaVu fonts licence, which allows
shipping them, modified or not, inside a software package).
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

RANGES = [
    (0x0020, 0x007E),
    (0x00A0, 0x024F),
    (0x0250, 0x02FF),
    (0x0300, 0x036F),  # Latin, IPA, modifiers, combining marks
    (0x0370, 0x03FF),
    (0x1F00, 0x1FFF),  # Greek and Greek Extended
    (0x0400, 0x052F),  # Cyrillic and its supplement
    (0x1E00, 0x1EFF),
    (0x2C60, 0x2C7F),
    (0xA720, 0xA7FF),
    (0xFB00, 0xFB06),  # more Latin
    (0x2000, 0x206F),
    (0x20A0, 0x20CF),
    (0x2100, 0x22FF),
    (0x2460, 0x24FF),
    (0x25A0, 0x27BF),  # symbols
    (0xFFFD, 0xFFFD),
]
FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf")


def main(source: str) -> None:
    out = Path(__file__).resolve().parent
    unicodes = [u for a, b in RANGES for u in range(a, b + 1)]
    for name in FILES:
        font = TTFont(Path(source) / name)
        options = subset.Options()
        options.hinting = False
        options.name_IDs = ["*"]
        options.name_languages = ["*"]
        options.notdef_outline = True
        options.layout_features = []
        options.drop_tables += ["FFTM", "GSUB", "GPOS", "GDEF", "kern"]
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=unicodes)
        subsetter.subset(font)
        font.save(out / name)
        print(name, len(font.getGlyphOrder()), "glyphs", (out / name).stat().st_size, "bytes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/truetype/dejavu")
