"""Drawing helpers shared by every sheet and card: suit shapes, player figures, text with suits.

Suit symbols are always drawn as filled vector paths, never as font glyphs,
so they print the same on every backend and never turn into missing-glyph
boxes.  Shapes are designed in a unit box (x and y from -1 to 1, y down) and
scaled to the requested height in millimetres.
"""

from __future__ import annotations

from typing import Iterable

from generator.core.cards import SUIT_SYMBOLS
from generator.printing.scene import Paint, Path_, PathOp, Scene, Text, cap_height, circle_ops, text_width

PENCIL = "#2f3640"
"""The colour of a player's pencil, in a sheet or pad drawn as a player fills it in."""

_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}

# Unit shapes: x, y in [-1, 1], y down; "C" = cubic Bézier (two controls, end point).
_HEART: tuple[PathOp, ...] = (
    ("M", 0.0, 0.95),
    ("C", -0.25, 0.62, -0.98, 0.22, -0.98, -0.34),
    ("C", -0.98, -0.82, -0.34, -1.06, 0.0, -0.55),
    ("C", 0.34, -1.06, 0.98, -0.82, 0.98, -0.34),
    ("C", 0.98, 0.22, 0.25, 0.62, 0.0, 0.95),
    ("Z",),
)
_DIAMOND: tuple[PathOp, ...] = (
    ("M", 0.0, -1.0),
    ("C", 0.22, -0.62, 0.45, -0.3, 0.74, 0.0),
    ("C", 0.45, 0.3, 0.22, 0.62, 0.0, 1.0),
    ("C", -0.22, 0.62, -0.45, 0.3, -0.74, 0.0),
    ("C", -0.45, -0.3, -0.22, -0.62, 0.0, -1.0),
    ("Z",),
)
_SPADE: tuple[PathOp, ...] = (
    ("M", 0.0, -1.0),
    ("C", -0.28, -0.62, -0.98, -0.28, -0.98, 0.2),
    ("C", -0.98, 0.64, -0.42, 0.78, -0.1, 0.42),
    ("C", -0.12, 0.7, -0.24, 0.88, -0.42, 1.0),
    ("L", 0.42, 1.0),
    ("C", 0.24, 0.88, 0.12, 0.7, 0.1, 0.42),
    ("C", 0.42, 0.78, 0.98, 0.64, 0.98, 0.2),
    ("C", 0.98, -0.28, 0.28, -0.62, 0.0, -1.0),
    ("Z",),
)


def _club() -> tuple[PathOp, ...]:
    ops: list[PathOp] = []
    for cx, cy in ((0.0, -0.5), (-0.52, 0.14), (0.52, 0.14)):
        ops += circle_ops(cx, cy, 0.44)
    # fill the gap between the three leaves
    ops += [("M", 0.0, -0.5), ("L", 0.52, 0.14), ("L", -0.52, 0.14), ("Z",)]
    ops += [
        ("M", -0.14, 0.05),
        ("L", 0.14, 0.05),
        ("C", 0.14, 0.55, 0.24, 0.86, 0.42, 1.0),
        ("L", -0.42, 1.0),
        ("C", -0.24, 0.86, -0.14, 0.55, -0.14, 0.05),
        ("Z",),
    ]
    return tuple(ops)


_UNIT = {"H": _HEART, "D": _DIAMOND, "S": _SPADE, "C": _club()}

# A standing player figure: head and shoulders, for the hand reward icons.
_PERSON: tuple[PathOp, ...] = (
    *circle_ops(0.0, -0.52, 0.36),
    ("M", -0.62, 1.0),
    ("C", -0.62, 0.35, -0.36, 0.0, 0.0, 0.0),
    ("C", 0.36, 0.0, 0.62, 0.35, 0.62, 1.0),
    ("Z",),
)


def transform_ops(ops: Iterable[PathOp], cx: float, cy: float, half: float) -> tuple[PathOp, ...]:
    """Scale unit-box operations by ``half`` (mm per unit) and move them to ``(cx, cy)``."""
    out: list[PathOp] = []
    for op in ops:
        name, *nums = op
        pts = [cx + v * half if i % 2 == 0 else cy + v * half for i, v in enumerate(nums)]
        out.append((name, *pts))
    return tuple(out)


def suit_path(suit: str, cx: float, cy: float, size: float, color: str) -> Path_:
    """A filled suit symbol centred at ``(cx, cy)``, ``size`` mm tall.

    Args:
        suit: ``S``, ``H``, ``D`` or ``C``.
        color: fill colour ``#rrggbb``.

    Raises:
        KeyError: ``suit`` is not one of the four suit letters.
    """
    return Path_(transform_ops(_UNIT[suit], cx, cy, size / 2), Paint(stroke=None, fill=color))


def person_path(cx: float, cy: float, size: float, color: str) -> Path_:
    """A filled player figure centred at ``(cx, cy)``, ``size`` mm tall."""
    return Path_(transform_ops(_PERSON, cx, cy, size / 2), Paint(stroke=None, fill=color))


def rich_width(text: str, size: float, weight: str = "regular") -> float:
    """Width in mm of ``text`` as :func:`rich_text` draws it (suit symbols as shapes)."""
    total = 0.0
    for part, suit in _split(text):
        total += _suit_advance(size) if suit else text_width(part, size, weight)
    return total


def rich_text(
    scene: Scene,
    x: float,
    y: float,
    text: str,
    size: float,
    *,
    weight: str = "regular",
    anchor: str = "start",
    color: str = "#000000",
    red: str = "#c8102e",
    black: str | None = None,
) -> float:
    """Draw ``text`` with any ``♠ ♥ ♦ ♣`` in it drawn as suit shapes; return its width in mm.

    Args:
        x, y: anchor point (mm); ``y`` is the baseline.
        size: font size in points.
        anchor: ``"start"``, ``"middle"`` or ``"end"``.
        color: text colour; ``red`` colours hearts and diamonds, ``black``
            (default: ``color``) spades and clubs.
    """
    width = rich_width(text, size, weight)
    left = x - (width / 2 if anchor == "middle" else width if anchor == "end" else 0.0)
    cursor = left
    for part, suit in _split(text):
        if suit:
            adv = _suit_advance(size)
            h = cap_height(size) * 1.08
            fill = red if suit in ("H", "D") else (black or color)
            scene.add(suit_path(suit, cursor + adv / 2, y - h / 2, h, fill))
            cursor += adv
        else:
            scene.add(Text(cursor, y, part, size, weight, "start", color))  # type: ignore[arg-type]
            cursor += text_width(part, size, weight)
    return width


def _suit_advance(size: float) -> float:
    return cap_height(size) * 1.08 * 0.95 + 0.12 * size * 25.4 / 72


def _split(text: str) -> list[tuple[str, str | None]]:
    """Split text into runs: ``(chars, None)`` for plain text, ``(symbol, suit)`` for each suit symbol."""
    out: list[tuple[str, str | None]] = []
    buf = ""
    for ch in text:
        if ch in _SYMBOL_TO_SUIT:
            if buf:
                out.append((buf, None))
                buf = ""
            out.append((ch, _SYMBOL_TO_SUIT[ch]))
        else:
            buf += ch
    if buf:
        out.append((buf, None))
    return out
