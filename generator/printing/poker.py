"""The poker deck's faces: standard pip layouts, two-way court figures, two different Jokers.

Number cards carry the standard pip layouts of a shop deck, two-way: every
pip below the card's middle is turned half a turn.  Courts are our own
emblem figures, a bust in the upper half and the same turned in the lower:
the King with a pointed crown and a beard, the Queen with a rounded crown,
long hair and a rose, the Jack with a feathered cap.  The two Jokers are a
jester in colour and a jester in black.  Every box is a trim box in
millimetres, ``(x, y, w, h)``.
"""

from __future__ import annotations

from typing import cast

from generator.core.cards import RED_SUITS
from generator.printing.cardart import (
    BLACK,
    PAPER,
    RED,
    SAFE,
    Box,
    background,
    corner_index,
    index_size,
    two_way,
)
from generator.printing.deck import Face
from generator.printing.draw import suit_path
from generator.printing.i18n import Messages
from generator.printing.scene import Circle, Line, Paint, Path_, Rect, Scene, Text, cap_height, circle_ops, polygon_ops

PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((0, -1), (0, 1)),
    3: ((0, -1), (0, 0), (0, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
    7: ((-1, -1), (1, -1), (0, -0.5), (-1, 0), (1, 0), (-1, 1), (1, 1)),
    8: ((-1, -1), (1, -1), (0, -0.5), (-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)),
    9: ((-1, -1), (1, -1), (-1, -1 / 3), (1, -1 / 3), (0, 0), (-1, 1 / 3), (1, 1 / 3), (-1, 1), (1, 1)),
    10: (
        (-1, -1),
        (1, -1),
        (0, -2 / 3),
        (-1, -1 / 3),
        (1, -1 / 3),
        (-1, 1 / 3),
        (1, 1 / 3),
        (0, 2 / 3),
        (-1, 1),
        (1, 1),
    ),
}
"""The pip layout of each number card: ``(column, row)`` with columns -1, 0, 1 and rows from -1 (top) to 1
(bottom); a pip with a row below 0 is turned half a turn."""

PIP_COLUMN = 0.2
"""Distance of the side pip columns from the card's middle, as a fraction of the card's width."""
PIP_ROW = 0.3
"""Distance of the top and bottom pip rows from the card's middle, as a fraction of the card's height."""
PIP_SIZE = 0.135
"""Height of a pip, as a fraction of the card's width."""

GOLD, SKIN, HAIR, ROBE_DARK = "#e0a526", "#f6d9b8", "#6b3e1f", "#1f3a93"


def _suit_colour(suit: str) -> str:
    return RED if suit in RED_SUITS else BLACK


def pip_centres(rank: int, box: Box) -> list[tuple[float, float, bool]]:
    """Where the pips of a number card of ``rank`` (2 to 10) go: ``(x, y, turned)`` in mm."""
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    return [(cx + u * PIP_COLUMN * w, cy + v * PIP_ROW * h, v > 0) for u, v in PIPS[rank]]


def _pip(suit: str, px: float, py: float, size: float, color: str, turned: bool) -> Path_:
    path = suit_path(suit, px, py, size, color)
    if not turned:
        return path
    ops = [(op[0], *[2 * (px if k % 2 == 0 else py) - v for k, v in enumerate(op[1:])]) for op in path.ops]
    return Path_(tuple(ops), path.paint)


def playing_front(face: Face, scene: Scene, box: Box, bleed: tuple[float, float], *, t: Messages) -> None:
    """A playing card: two-way corner indices; pips in the standard layout, a large Ace, or a court figure."""
    card = face.card
    assert card is not None
    suit = cast(str, card.suit)  # a "playing" entry spelling JK is refused when the deck is read
    x, y, w, h = box
    color = _suit_colour(suit)
    background(scene, box, bleed, PAPER)
    corner_index(
        scene, box, card.rank_label, color, lambda s, cx, top: s.add(suit_path(suit, cx, top + 2.2, 4.4, color))
    )
    cx, cy = x + w / 2, y + h / 2
    if card.rank in (11, 12, 13):
        _court(scene, box, card.rank, suit, t)
    elif card.rank == 14:
        if suit == "S":  # the Ace of Spades, as on most decks, is the ornate one
            scene.add(Circle(cx, cy, 0.3 * w, Paint(BLACK, None, 0.5)))
            scene.add(Circle(cx, cy, 0.3 * w - 1.2, Paint(GOLD, None, 0.8)))
            scene.add(suit_path(suit, cx, cy, 0.44 * w, color))
        else:
            scene.add(suit_path(suit, cx, cy, 0.36 * w, color))
    else:
        for px, py, turned in pip_centres(int(card.rank or 0), box):
            scene.add(_pip(suit, px, py, PIP_SIZE * w, color, turned))


# --- court figures ----------------------------------------------------------------------------------


def _court(scene: Scene, box: Box, rank: int, suit: str, t: Messages) -> None:
    """A court card: a cream panel with a bust in its upper half and the same turned in the lower half."""
    x, y, w, h = box
    color = _suit_colour(suit)
    robe = RED if suit in RED_SUITS else ROBE_DARK
    left, top, right, bottom = x + 13.0, y + 8.0, x + w - 13.0, y + h - 8.0
    scene.add(Rect(left, top, right - left, bottom - top, Paint(color, "#fbf3df", 0.5), r=2.0))
    cx, cy = x + w / 2, y + h / 2
    unit = (right - left) / 40.0  # the figure is drawn for a 40 mm panel and scaled

    def bust(half: Scene) -> None:
        def P(dx: float, dy: float) -> tuple[float, float]:
            return cx + dx * unit, cy + dy * unit

        def poly(points, fill, stroke=None, width=0.3) -> None:
            half.add(Path_(polygon_ops([P(a, b) for a, b in points]), Paint(stroke, fill, width)))

        # shoulders and robe, the collar, a band of gold down the front
        half.add(
            Path_(
                (
                    ("M", *P(-17, 0)),
                    ("C", *P(-17, -8), *P(-11, -12), *P(-5, -13)),
                    ("L", *P(5, -13)),
                    ("C", *P(11, -12), *P(17, -8), *P(17, 0)),
                    ("Z",),
                ),
                Paint(BLACK, robe, 0.3),
            )
        )
        poly([(-2.2, -13), (2.2, -13), (2.2, 0), (-2.2, 0)], GOLD)
        poly([(-6, -13.5), (6, -13.5), (0, -8.5)], "#ffffff", BLACK)
        if rank == 12:  # the Queen's long hair falls behind her head to the shoulders
            poly([(-7.5, -26), (7.5, -26), (8.5, -13), (-8.5, -13)], HAIR)
        half.add(Path_(circle_ops(*P(0, -20.5), 5.6 * unit), Paint(BLACK, SKIN, 0.3)))
        half.add(Circle(*P(-2.0, -21.2), 0.55 * unit, Paint(None, BLACK)))
        half.add(Circle(*P(2.0, -21.2), 0.55 * unit, Paint(None, BLACK)))
        if rank == 13:  # the King: a pointed crown with jewels, and a beard
            poly([(-6, -25), (-6, -32), (-3, -28), (0, -33.5), (3, -28), (6, -32), (6, -25)], GOLD, BLACK)
            for jx in (-3.0, 0.0, 3.0):
                half.add(Circle(*P(jx, -26.6), 0.7 * unit, Paint(None, RED if jx else ROBE_DARK)))
            half.add(
                Path_(
                    (
                        ("M", *P(-5.4, -19)),
                        ("C", *P(-5, -13), *P(-2, -11), *P(0, -11)),
                        ("C", *P(2, -11), *P(5, -13), *P(5.4, -19)),
                        ("C", *P(3, -16.8), *P(-3, -16.8), *P(-5.4, -19)),
                        ("Z",),
                    ),
                    Paint(BLACK, HAIR, 0.25),
                )
            )
        elif rank == 12:  # the Queen: a rounded crown with pearls, and a rose
            half.add(
                Path_(
                    (
                        ("M", *P(-6, -25)),
                        ("C", *P(-6, -29), *P(-3, -31), *P(-2, -29)),
                        ("C", *P(-1, -32), *P(1, -32), *P(2, -29)),
                        ("C", *P(3, -31), *P(6, -29), *P(6, -25)),
                        ("Z",),
                    ),
                    Paint(BLACK, GOLD, 0.3),
                )
            )
            for jx in (-3.0, 0.0, 3.0):
                half.add(Circle(*P(jx, -31.0 if jx == 0 else -29.6), 0.75 * unit, Paint(BLACK, "#ffffff", 0.2)))
            for k, (rx, ry) in enumerate(((0.0, -1.3), (1.2, 0.0), (0.0, 1.3), (-1.2, 0.0), (0.0, 0.0))):
                fill = RED if k < 4 else GOLD
                half.add(Circle(*P(9.5 + rx, -7.5 + ry), 1.2 * unit, Paint(BLACK if k < 4 else None, fill, 0.2)))
            half.add(Line(*P(9.5, -6), *P(9.5, -1.5), Paint("#1e7b4f", width=0.5)))
        else:  # the Jack: a flat cap with a feather
            half.add(
                Path_(
                    (
                        ("M", *P(-7.5, -24)),
                        ("C", *P(-7.5, -29), *P(7.5, -29.5), *P(8, -24.5)),
                        ("Z",),
                    ),
                    Paint(BLACK, robe, 0.3),
                )
            )
            half.add(
                Path_(
                    (
                        ("M", *P(3, -27)),
                        ("C", *P(6, -34), *P(11, -35), *P(14, -33)),
                        ("C", *P(10, -32), *P(7, -30), *P(5, -26.5)),
                        ("Z",),
                    ),
                    Paint(BLACK, GOLD, 0.25),
                )
            )
            poly([(-5.6, -22.5), (-4.6, -25), (4.6, -25), (5.6, -22.5)], HAIR)
        # the suit beside the head, and the court's letter on the other side
        half.add(suit_path(suit, *P(-12.5, -27), 5.0 * unit, color))
        letter = {11: "J", 12: "Q", 13: "K"}[rank]
        size = index_size(letter, 6.0) * 0.9
        half.add(Text(*P(12.5, -27 + cap_height(size) / (2 * unit)), letter, size, "bold", "middle", color))

    two_way(scene, box, bust)
    scene.add(Line(left + 1.0, cy, right - 1.0, cy, Paint(color, width=0.4)))


# --- Jokers -----------------------------------------------------------------------------------------

JOKER_COLOURS = (("#6c3483", "#c8102e", GOLD), (BLACK, "#5d6d7e", "#aab7b8"))
"""Hat, hat and bells of the coloured Joker and of the black Joker."""


def joker_front(face: Face, scene: Scene, box: Box, bleed: tuple[float, float], *, t: Messages) -> None:
    """A Joker: a jester two-way, the word JOKER stacked in two corners; copy 0 in colour, copy 1 in black."""
    x, y, w, h = box
    variant = (face.value or 0) % 2
    hat_a, hat_b, bell = JOKER_COLOURS[variant]
    background(scene, box, bleed, PAPER)
    word = t("cards.joker")
    cx, cy = x + w / 2, y + h / 2
    unit = (w - 24.0) / 40.0

    def corner(half: Scene) -> None:
        letters = [c for c in word if not c.isspace()][:6]
        size = 2.9 / cap_height(1.0)
        for k, ch in enumerate(letters):
            half.add(Text(x + SAFE + 2.4, y + SAFE + 3.0 + k * 3.8, ch, size, "bold", "middle", hat_a))
        half.add(suit_path("D", x + SAFE + 2.4, y + SAFE + 3.9 + len(letters) * 3.8, 3.2, hat_b))

    def jester(half: Scene) -> None:
        def P(dx: float, dy: float) -> tuple[float, float]:
            return cx + dx * unit, cy + dy * unit

        half.add(
            Path_(
                polygon_ops([P(-16, 0), P(-8, -6), P(-4, -12), P(4, -12), P(8, -6), P(16, 0)]),
                Paint(BLACK, hat_a, 0.3),
            )
        )
        for k in range(-3, 4):  # a ruff of points under the chin
            half.add(
                Path_(
                    polygon_ops([P(2.6 * k - 1.5, -12), P(2.6 * k + 1.5, -12), P(2.6 * k, -8.6)]),
                    Paint(BLACK, "#ffffff", 0.2),
                )
            )
        half.add(Path_(circle_ops(*P(0, -18), 6.0 * unit), Paint(BLACK, SKIN, 0.3)))
        half.add(Circle(*P(-2.1, -18.8), 0.6 * unit, Paint(None, BLACK)))
        half.add(Circle(*P(2.1, -18.8), 0.6 * unit, Paint(None, BLACK)))
        half.add(
            Path_(
                (
                    ("M", *P(-2.6, -15.8)),
                    ("C", *P(-1, -14.2), *P(1, -14.2), *P(2.6, -15.8)),
                    ("C", *P(1, -15), *P(-1, -15), *P(-2.6, -15.8)),
                    ("Z",),
                ),
                Paint(None, "#c8102e"),
            )
        )
        # a three-pointed hat, each point ending in a bell
        for tip, fill in (((-13, -30), hat_a), ((0, -36), hat_b), ((13, -30), hat_a)):
            half.add(Path_(polygon_ops([P(-6, -22.5), P(*tip), P(6, -22.5)]), Paint(BLACK, fill, 0.3)))
            half.add(Circle(*P(*tip), 1.4 * unit, Paint(BLACK, bell, 0.25)))
        half.add(Rect(*P(-6.5, -24), 13 * unit, 2.2 * unit, Paint(BLACK, bell, 0.25)))

    two_way(scene, box, corner)
    two_way(scene, box, jester)
    scene.add(Line(x + 12.0, cy, x + w - 12.0, cy, Paint(hat_a, width=0.4, dash=(1.2, 1.0))))
