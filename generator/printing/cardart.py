"""What every card face shares: the bleed box, the background, corner indices, colours, two-way drawing.

Boxes are ``(x, y, w, h)`` trim boxes in millimetres, bleed ``(bx, by)`` in
millimetres beyond them.  Nothing thin is drawn within 3 mm of the trim: a
miscut of a millimetre must not show as an uneven frame, so borders, where a
card has one, are full-bleed fills at least that wide.
"""

from __future__ import annotations

from generator.printing.scene import Line, Paint, Rect, Scene, Text, cap_height, text_width, turned

SAFE = 3.5
"""Safe zone: distance inside the trim that text and symbols keep (mm)."""
INDEX_CAP = 5.0
"""Height of a corner index's capitals (mm), as on a shop deck."""
RED, BLACK, INK, PAPER = "#c8102e", "#1a1a1a", "#1d2b45", "#ffffff"

Box = tuple[float, float, float, float]


def bleed_box(box: Box, bleed: tuple[float, float]) -> Box:
    """The trim box grown by the bleed: ``(x, y, w, h)`` in mm."""
    x, y, w, h = box
    bx, by = bleed
    return (x - bx, y - by, w + 2 * bx, h + 2 * by)


def background(scene: Scene, box: Box, bleed: tuple[float, float], fill: str) -> None:
    """Fill the card's bleed box with ``fill``."""
    bx, by, bw, bh = bleed_box(box, bleed)
    scene.add(Rect(bx, by, bw, bh, Paint(None, fill)))


def index_size(label: str, width: float, weight: str = "bold") -> float:
    """The font size (pt) giving ``label`` capitals :data:`INDEX_CAP` tall, narrowed to ``width`` mm."""
    size = INDEX_CAP / cap_height(1.0)
    wide = text_width(label, size, weight)
    return size if wide <= width else size * width / wide


def mix(a: str, b: str, k: float) -> str:
    """Colour ``a`` moved a fraction ``k`` (0 to 1) towards ``b``, both ``#rrggbb``."""
    ca = [int(a[i : i + 2], 16) for i in (1, 3, 5)]
    cb = [int(b[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(u + (v - u) * k):02x}" for u, v in zip(ca, cb))


def underline(
    scene: Scene,
    cx: float,
    y: float,
    color: str,
    *,
    label: str = "",
    size: float = 0.0,
    half: float = 0.0,
    width: float = 0.5,
) -> None:
    """A bar at height ``y`` (mm) centred on ``cx``, under a 6 or a 9 so a turned card never reads as the other:
    ``half`` mm each side, or as wide as ``label`` set at ``size`` pt plus 0.3 mm."""
    if not half:
        half = text_width(label, size, "bold") / 2 + 0.3
    scene.add(Line(cx - half, y, cx + half, y, Paint(color, width=width)))


def two_way(scene: Scene, box: Box, draw) -> None:
    """Draw ``draw(scene)`` and the same again turned half a turn about the card's centre."""
    x, y, w, h = box
    half = Scene(scene.width, scene.height)
    draw(half)
    scene.add(*half.items, *turned(half.items, x + w / 2, y + h / 2, 2))


def corner_index(
    scene: Scene,
    box: Box,
    label: str,
    color: str,
    mark=None,
    *,
    column: float = 8.6,
) -> None:
    """The card's index in the top-left corner and, turned, in the bottom-right corner.

    ``label`` is set :data:`INDEX_CAP` tall (narrowed to fit ``column`` mm);
    ``mark(scene, cx, top)`` draws what sits under it (a suit, an icon), its
    top at ``top`` mm, centred on ``cx``.  A 6 or a 9 is underlined so a turned
    card never reads as the other.
    """
    x, y, _, _ = box
    cx = x + SAFE + column / 2 - 0.3

    def draw(half: Scene) -> None:
        size = index_size(label, column)
        base = y + SAFE + 0.6 + cap_height(size)
        half.add(Text(cx, base, label, size, "bold", "middle", color))
        below = base + 1.2
        if label in ("6", "9"):
            underline(half, cx, base + 0.9, color, label=label, size=size)
            below += 0.8
        if mark is not None:
            mark(half, cx, below)

    two_way(scene, box, draw)
