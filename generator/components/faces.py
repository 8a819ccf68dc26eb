"""Card faces and backs, drawn into a trim box with art running into the bleed.

Every drawing function has the signature of :data:`generator.components.impose.DrawFn`:
``(scene, (x, y, w, h), bleed)``, millimetres.  The background fills the
bleed box; text and symbols stay inside the safe zone (:data:`SAFE` mm inside
the trim).  Suits are vector shapes.
"""

from __future__ import annotations

from functools import partial

from reportlab.lib.utils import simpleSplit

from ..cards import RED_SUITS
from ..draw import rich_text, suit_path, transform_ops
from ..scene import Circle, Line, Paint, Path_, Rect, Scene, Text, cap_height, fit_size, polygon_ops, registered_font, star_points, text_width
from .deck import Deck, Face
from .impose import Item

SAFE = 3.5
"""Safe zone: distance inside the trim that text and symbols keep (mm)."""
RED, BLACK, INK, PAPER = "#c8102e", "#1a1a1a", "#1d2b45", "#ffffff"

FLIP7_COLORS = [
    "#6b6b6b", "#8c5a2b", "#c0392b", "#d35400", "#e08e0b", "#b7950b", "#27ae60",
    "#138d75", "#1f77b4", "#2e4a9e", "#6c3483", "#a93287", "#7b241c",
]
"""Flip 7 number colours, 0 to 12, so equal numbers are spotted at a glance."""


def _bleed_box(box, bleed):
    x, y, w, h = box
    bx, by = bleed
    return (x - bx, y - by, w + 2 * bx, h + 2 * by)


def _background(scene: Scene, box, bleed: float, fill: str) -> None:
    bx, by, bw, bh = _bleed_box(box, bleed)
    scene.add(Rect(bx, by, bw, bh, Paint(None, fill)))


def _corner_index(scene: Scene, box, label: str, color: str, suit: str | None = None, size: float = 11.0) -> None:
    """The card's index in the top-left corner and, turned, in the bottom-right corner."""
    x, y, w, h = box
    cx = x + SAFE + 2.6
    scene.add(Text(cx, y + SAFE + 4.2, label, fit_size(label, size, 7.5, "bold"), "bold", "middle", color))
    scene.add(Text(x + w - SAFE - 2.6, y + h - SAFE - 4.2, label, fit_size(label, size, 7.5, "bold"), "bold", "middle", color, angle=180))
    if label in ("6", "9"):  # underline both corners so a turned 6 never reads as a 9
        size_mm = fit_size(label, size, 7.5, "bold")
        half = text_width(label, size_mm, "bold") / 2 + 0.3
        scene.add(Line(cx - half, y + SAFE + 5.0, cx + half, y + SAFE + 5.0, Paint(color, width=0.5)))
        bx, by = x + w - SAFE - 2.6, y + h - SAFE - 5.0
        scene.add(Line(bx - half, by, bx + half, by, Paint(color, width=0.5)))
    if suit:
        scene.add(suit_path(suit, cx, y + SAFE + 7.6, 3.6, color))
        turned = suit_path(suit, 0, 0, 3.6, color)
        scene.add(Path_(transform_ops(turned.ops, x + w - SAFE - 2.6, y + h - SAFE - 7.6, -1.0), turned.paint))


def _frame(scene: Scene, box, color: str) -> None:
    x, y, w, h = box
    scene.add(Rect(x + 2.0, y + 2.0, w - 4.0, h - 4.0, Paint(color, None, 0.35), r=2.5))


# --- poker deck -------------------------------------------------------------------


def playing_front(face: Face, scene: Scene, box, bleed: float) -> None:
    """A playing card: corner indices and a large central suit; court cards get a framed letter."""
    card = face.card
    assert card is not None
    x, y, w, h = box
    color = RED if card.suit in RED_SUITS else BLACK
    _background(scene, box, bleed, PAPER)
    scene.add(Rect(x + 1.6, y + 1.6, w - 3.2, h - 3.2, Paint("#c9ced8", None, 0.3), r=2.5))
    _corner_index(scene, box, card.rank_label, color, card.suit)
    cx, cy = x + w / 2, y + h / 2
    if card.rank in (11, 12, 13):
        scene.add(Rect(cx - 15, cy - 22, 30, 44, Paint(color, "#f6f1e4", 0.5), r=3))
        scene.add(Text(cx, cy + 2, card.rank_label, 40, "bold", "middle", color))
        scene.add(suit_path(card.suit, cx, cy + 13, 8, color))
        word = {11: "JACK", 12: "QUEEN", 13: "KING"}[card.rank]
        scene.add(Text(cx, cy - 14, word, 6.5, "bold", "middle", color))
    else:
        scene.add(suit_path(card.suit, cx, cy, 26 if card.rank == 14 else 20, color))
        if card.rank != 14:
            scene.add(Text(cx, cy + 24, card.rank_label, 14, "bold", "middle", color))


def joker_front(face: Face, scene: Scene, box, bleed: float) -> None:
    """A Joker: the word down the card and a star."""
    x, y, w, h = box
    _background(scene, box, bleed, PAPER)
    _frame(scene, box, "#6c3483")
    cx, cy = x + w / 2, y + h / 2
    scene.add(Path_(polygon_ops(star_points(cx, cy - 6, 14, 6)), Paint("#6c3483", "#f3e5f5", 0.6)))
    scene.add(Text(cx, cy + 20, "JOKER", 16, "bold", "middle", "#6c3483"))
    scene.add(Text(cx, cy + 27, "any card", 7, "regular", "middle", "#6c3483"))
    scene.add(Text(x + SAFE + 2.0, y + SAFE + 5.5, "JK", 9, "bold", "start", "#6c3483"))
    scene.add(Text(x + w - SAFE - 2.0, y + h - SAFE - 5.5, "JK", 9, "bold", "start", "#6c3483", angle=180))


# --- numbers, modifiers, actions, text ----------------------------------------------


def number_front(face: Face, scene: Scene, box, bleed: float, *, palette: list[str] | None = None) -> None:
    """A number card: the number large in the middle, small in two corners, in the card's colour."""
    x, y, w, h = box
    value = face.value if face.value is not None else 0
    color = face.color or (palette[value % len(palette)] if palette else INK)
    _background(scene, box, bleed, PAPER)
    scene.add(Rect(x + 2.0, y + 2.0, w - 4.0, h - 4.0, Paint(color, None, 1.2), r=3))
    label = str(value)
    _corner_index(scene, box, label, color)
    cx, cy = x + w / 2, y + h / 2
    scene.add(Circle(cx, cy, 21, Paint(color, None, 0.8)))
    size = fit_size(label, 44, 34, "bold")
    scene.add(Text(cx, cy + cap_height(size) / 2, label, size, "bold", "middle", color))
    if face.set:
        scene.add(Text(cx, y + h - SAFE - 1.0, face.set.upper(), 6.5, "bold", "middle", color))
    if value in (6, 9):  # tell 6 and 9 apart when the card is turned
        scene.add(Line(cx - 7, cy + 13, cx + 7, cy + 13, Paint(color, width=1.0)))


def modifier_front(face: Face, scene: Scene, box, bleed: float) -> None:
    """A modifier (×2, +2 … +10): the label large on a gold card."""
    x, y, w, h = box
    _background(scene, box, bleed, "#fff6d8")
    _frame(scene, box, "#b08a1e")
    label = face.label.replace("x", "×") if face.label.startswith("x") else face.label
    cx, cy = x + w / 2, y + h / 2
    scene.add(Path_(polygon_ops(star_points(cx, cy - 2, 22, 15, 8)), Paint("#b08a1e", "#f7e7a6", 0.6)))
    size = fit_size(label, 36, 26, "bold")  # stays inside the star, "+10" included
    scene.add(Text(cx, cy - 2 + cap_height(size) / 2, label, size, "bold", "middle", "#7a5c00"))
    scene.add(Text(x + SAFE + 1.0, y + SAFE + 4.5, label, 9, "bold", "start", "#7a5c00"))
    scene.add(Text(x + w - SAFE - 1.0, y + h - SAFE - 4.5, label, 9, "bold", "start", "#7a5c00", angle=180))
    scene.add(Text(cx, y + h - SAFE - 1.5, "MODIFIER", 6, "bold", "middle", "#7a5c00"))


def action_front(face: Face, scene: Scene, box, bleed: float) -> None:
    """An action card: its name as a banner and a short reminder of what it does."""
    x, y, w, h = box
    color = face.color or "#8e1b3a"
    _background(scene, box, bleed, color)
    scene.add(Rect(x + SAFE, y + SAFE, w - 2 * SAFE, h - 2 * SAFE, Paint("#ffffff", "#ffffff", 0.4), r=3))
    cx = x + w / 2
    scene.add(Text(cx, y + 26, face.label, fit_size(face.label, 15, w - 2 * SAFE - 4, "bold"), "bold", "middle", color))
    scene.add(Line(x + SAFE + 6, y + 30, x + w - SAFE - 6, y + 30, Paint(color, width=0.6)))
    _paragraphs(scene, x + SAFE + 3, y + 37, w - 2 * SAFE - 6, face.text, 9.0, INK, h - 37 - SAFE - 8)
    scene.add(Text(cx, y + h - SAFE - 3, "ACTION", 6, "bold", "middle", color))


def text_front(face: Face, scene: Scene, box, bleed: float) -> None:
    """A text card (instructions, quick reference): a title bar and paragraphs fitted to the card."""
    x, y, w, h = box
    color = face.color or INK
    _background(scene, box, bleed, PAPER)
    bx, by, bw, _ = _bleed_box(box, bleed)
    scene.add(Rect(bx, by, bw, bleed[1] + SAFE + 9.0, Paint(None, color)))
    scene.add(Text(x + w / 2, y + SAFE + 5.4, face.label, fit_size(face.label, 10, w - 2 * SAFE, "bold"), "bold", "middle", "#ffffff"))
    top = y + SAFE + 13.5
    _paragraphs(scene, x + SAFE, top, w - 2 * SAFE, face.text, 9.0, INK, y + h - SAFE - top)


def _paragraphs(scene: Scene, x: float, y: float, width: float, text: str, size: float, color: str, room: float) -> None:
    """Word-wrapped paragraphs (reportlab's simpleSplit), shrunk until they fit ``room`` mm of height."""
    paragraphs = [p for p in text.split("\n") if p.strip()]
    while size > 4.0:
        lines = []
        for p in paragraphs:
            lines.append(simpleSplit(p, registered_font("regular", p), size, width / 25.4 * 72))
        line_h = size * 0.3528 * 1.25
        height = sum(len(ls) for ls in lines) * line_h + (len(lines) - 1) * line_h * 0.45
        if height <= room:
            break
        size -= 0.25
    cursor = y + size * 0.3528
    for ls in lines:
        for line in ls:
            rich_text(scene, x, cursor, line, size, color=color, red=RED, black=BLACK)
            cursor += line_h
        cursor += line_h * 0.45


# --- backs ------------------------------------------------------------------------------


def deck_back(deck: Deck, scene: Scene, box, bleed: float) -> None:
    """The deck's back: its colour into the bleed, a diamond lattice, the title in a framed panel."""
    x, y, w, h = box
    color = deck.back.color
    _background(scene, box, bleed, color)
    light = Paint("#ffffff", None, 0.25)
    bx, by, bw, bh = _bleed_box(box, bleed)
    step = 7.0
    k = -bh
    while k < bw:
        # 45° lines x = bx + k ± t, y = by + t, clipped to the bleed box (0 ≤ x - bx ≤ bw, 0 ≤ t ≤ bh)
        t0, t1 = max(0.0, -k), min(bh, bw - k)
        if t1 > t0:
            scene.add(Line(bx + k + t0, by + t0, bx + k + t1, by + t1, light))
        t0, t1 = max(0.0, k + bh - bw), min(bh, k + bh)
        if t1 > t0:
            scene.add(Line(bx + k + bh - t0, by + t0, bx + k + bh - t1, by + t1, light))
        k += step
    scene.add(Rect(x + 7, y + h / 2 - 14, w - 14, 28, Paint("#ffffff", color, 0.8), r=3))
    title = deck.back.title
    scene.add(Text(x + w / 2, y + h / 2 + (1.5 if deck.back.subtitle else 4.0), title, fit_size(title, 18, w - 20, "bold"), "bold", "middle", "#ffffff"))
    if deck.back.subtitle:
        scene.add(Text(x + w / 2, y + h / 2 + 8.5, deck.back.subtitle, fit_size(deck.back.subtitle, 7, w - 20), "regular", "middle", "#ffffff"))


FRONTS = {
    "playing": playing_front,
    "joker": joker_front,
    "number": number_front,
    "modifier": modifier_front,
    "action": action_front,
    "text": text_front,
}


def deck_items(deck: Deck) -> list[Item]:
    """Every card of ``deck`` as an imposition :class:`Item` (front and back drawings)."""
    palette = FLIP7_COLORS if deck.game == "flip7" else None
    back = partial(deck_back, deck)
    items = []
    for face in deck.faces:
        draw = FRONTS[face.type]
        if face.type == "number":
            front = partial(number_front, face, palette=palette)
        else:
            front = partial(draw, face)
        items.append(Item(face.name, front, back))
    return items
