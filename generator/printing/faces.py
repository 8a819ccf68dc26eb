"""Card faces and backs, drawn into a trim box with art running into the bleed.

Every drawing function has the signature of :data:`generator.printing.impose.DrawFn`:
``(scene, (x, y, w, h), bleed)``, millimetres.  The background fills the
bleed box; text and symbols stay inside the safe zone (:data:`SAFE` mm inside
the trim).  Suits are vector shapes.  Every word comes from the message
catalogue of the language drawn (keyword ``t``, section ``cards`` of
``templates/lang/<code>.yaml``), except words a deck file writes itself.
"""

from __future__ import annotations

from functools import partial
from typing import cast

from generator.core.cards import RED_SUITS
from generator.core.errors import InputError, Problem
from generator.printing.deck import Deck, Face, card_sizes
from generator.printing.draw import rich_text, rich_width, suit_path, transform_ops
from generator.printing.i18n import Messages, messages
from generator.printing.impose import ImpositionError, Item, PrintOptions, impose
from generator.printing.paper import Paper
from generator.printing.scene import (
    Circle,
    Line,
    Paint,
    Path_,
    Rect,
    Scene,
    Text,
    cap_height,
    fit_size,
    polygon_ops,
    star_points,
    text_width,
)

SAFE = 3.5
"""Safe zone: distance inside the trim that text and symbols keep (mm)."""
RED, BLACK, INK, PAPER = "#c8102e", "#1a1a1a", "#1d2b45", "#ffffff"

FLIP7_COLORS = [
    "#6b6b6b",
    "#8c5a2b",
    "#c0392b",
    "#d35400",
    "#e08e0b",
    "#b7950b",
    "#27ae60",
    "#138d75",
    "#1f77b4",
    "#2e4a9e",
    "#6c3483",
    "#a93287",
    "#7b241c",
]
"""Flip 7 number colours, 0 to 12, so equal numbers are spotted at a glance."""


def _bleed_box(box, bleed):
    x, y, w, h = box
    bx, by = bleed
    return (x - bx, y - by, w + 2 * bx, h + 2 * by)


def _background(scene: Scene, box, bleed: tuple[float, float], fill: str) -> None:
    bx, by, bw, bh = _bleed_box(box, bleed)
    scene.add(Rect(bx, by, bw, bh, Paint(None, fill)))


def _corner_index(scene: Scene, box, label: str, color: str, suit: str | None = None, size: float = 11.0) -> None:
    """The card's index in the top-left corner and, turned, in the bottom-right corner."""
    x, y, w, h = box
    cx = x + SAFE + 2.6
    scene.add(Text(cx, y + SAFE + 4.2, label, fit_size(label, size, 7.5, "bold"), "bold", "middle", color))
    scene.add(
        Text(
            x + w - SAFE - 2.6,
            y + h - SAFE - 4.2,
            label,
            fit_size(label, size, 7.5, "bold"),
            "bold",
            "middle",
            color,
            angle=180,
        )
    )
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


def playing_front(face: Face, scene: Scene, box, bleed: tuple[float, float], *, t: Messages) -> None:
    """A playing card: corner indices and a large central suit; court cards get a framed letter."""
    card = face.card
    assert card is not None
    # A playing face should be no Joker, but a "playing" entry that spells JK (ranks [J], suits [K]) makes one:
    # suit_path then raises KeyError, as it did before this cast.
    suit = cast(str, card.suit)
    x, y, w, h = box
    color = RED if card.suit in RED_SUITS else BLACK
    _background(scene, box, bleed, PAPER)
    scene.add(Rect(x + 1.6, y + 1.6, w - 3.2, h - 3.2, Paint("#c9ced8", None, 0.3), r=2.5))
    _corner_index(scene, box, card.rank_label, color, card.suit)
    cx, cy = x + w / 2, y + h / 2
    if card.rank in (11, 12, 13):
        scene.add(Rect(cx - 15, cy - 22, 30, 44, Paint(color, "#f6f1e4", 0.5), r=3))
        scene.add(Text(cx, cy + 2, card.rank_label, 40, "bold", "middle", color))
        scene.add(suit_path(suit, cx, cy + 13, 8, color))
        word = t({11: "cards.jack", 12: "cards.queen", 13: "cards.king"}[card.rank])
        scene.add(Text(cx, cy - 14, word, fit_size(word, 6.5, 28.0, "bold"), "bold", "middle", color))
    else:
        scene.add(suit_path(suit, cx, cy, 26 if card.rank == 14 else 20, color))
        if card.rank != 14:
            scene.add(Text(cx, cy + 24, card.rank_label, 14, "bold", "middle", color))


def joker_front(face: Face, scene: Scene, box, bleed: tuple[float, float], *, t: Messages) -> None:
    """A Joker: the word down the card and a star."""
    x, y, w, h = box
    _background(scene, box, bleed, PAPER)
    _frame(scene, box, "#6c3483")
    cx, cy = x + w / 2, y + h / 2
    scene.add(Path_(polygon_ops(star_points(cx, cy - 6, 14, 6)), Paint("#6c3483", "#f3e5f5", 0.6)))
    joker, any_card = t("cards.joker"), t("cards.any_card")
    scene.add(Text(cx, cy + 20, joker, fit_size(joker, 16, w - 2 * SAFE - 4, "bold"), "bold", "middle", "#6c3483"))
    scene.add(Text(cx, cy + 27, any_card, fit_size(any_card, 7, w - 2 * SAFE - 4), "regular", "middle", "#6c3483"))
    scene.add(Text(x + SAFE + 2.0, y + SAFE + 5.5, "JK", 9, "bold", "start", "#6c3483"))
    scene.add(Text(x + w - SAFE - 2.0, y + h - SAFE - 5.5, "JK", 9, "bold", "start", "#6c3483", angle=180))


# --- numbers, modifiers, actions, text ----------------------------------------------


def number_front(
    face: Face, scene: Scene, box, bleed: tuple[float, float], *, t: Messages, palette: list[str] | None = None
) -> None:
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
        word = t.get(f"cards.set.{face.set.lower()}", face.set).upper()  # a set the catalogue knows is translated
        scene.add(
            Text(cx, y + h - SAFE - 1.0, word, fit_size(word, 6.5, w - 2 * SAFE - 16, "bold"), "bold", "middle", color)
        )
    if value in (6, 9):  # tell 6 and 9 apart when the card is turned
        scene.add(Line(cx - 7, cy + 13, cx + 7, cy + 13, Paint(color, width=1.0)))


def _words(face: Face, t: Messages, label_field: str = "label") -> tuple[str, str]:
    """A face's label (or title) and text: its own, else ``cards.<key>.…`` of the catalogue ``t``."""
    label, text = face.label, face.text
    if face.key:
        text_field = "body" if label_field == "title" else "text"
        label = label or t(f"cards.{face.key}.{label_field}")
        if not text and t.get(f"cards.{face.key}.{text_field}") is not None:
            text = t(f"cards.{face.key}.{text_field}")
    return label, text


def modifier_front(face: Face, scene: Scene, box, bleed: tuple[float, float], *, t: Messages) -> None:
    """A modifier (×2, +2 … +10): the label large on a gold card."""
    x, y, w, h = box
    _background(scene, box, bleed, "#fff6d8")
    _frame(scene, box, "#b08a1e")
    own, _ = _words(face, t)
    label = own.replace("x", "×") if own.startswith("x") else own
    cx, cy = x + w / 2, y + h / 2
    scene.add(Path_(polygon_ops(star_points(cx, cy - 2, 22, 15, 8)), Paint("#b08a1e", "#f7e7a6", 0.6)))
    size = fit_size(label, 36, 26, "bold")  # stays inside the star, "+10" included
    scene.add(Text(cx, cy - 2 + cap_height(size) / 2, label, size, "bold", "middle", "#7a5c00"))
    scene.add(Text(x + SAFE + 1.0, y + SAFE + 4.5, label, 9, "bold", "start", "#7a5c00"))
    scene.add(Text(x + w - SAFE - 1.0, y + h - SAFE - 4.5, label, 9, "bold", "start", "#7a5c00", angle=180))
    word = t("cards.modifier")
    scene.add(
        Text(cx, y + h - SAFE - 1.5, word, fit_size(word, 6, w - 2 * SAFE - 4, "bold"), "bold", "middle", "#7a5c00")
    )


def action_front(face: Face, scene: Scene, box, bleed: tuple[float, float], *, t: Messages) -> None:
    """An action card: its name as a banner and a short reminder of what it does."""
    x, y, w, h = box
    color = face.color or "#8e1b3a"
    label, text = _words(face, t)
    _background(scene, box, bleed, color)
    scene.add(Rect(x + SAFE, y + SAFE, w - 2 * SAFE, h - 2 * SAFE, Paint("#ffffff", "#ffffff", 0.4), r=3))
    cx = x + w / 2
    scene.add(Text(cx, y + 26, label, fit_size(label, 15, w - 2 * SAFE - 4, "bold"), "bold", "middle", color))
    scene.add(Line(x + SAFE + 6, y + 30, x + w - SAFE - 6, y + 30, Paint(color, width=0.6)))
    _paragraphs(scene, x + SAFE + 3, y + 37, w - 2 * SAFE - 6, text, 9.0, INK, h - 37 - SAFE - 8)
    word = t("cards.action")
    scene.add(Text(cx, y + h - SAFE - 3, word, fit_size(word, 6, w - 2 * SAFE - 4, "bold"), "bold", "middle", color))


def text_front(face: Face, scene: Scene, box, bleed: tuple[float, float], *, t: Messages) -> None:
    """A text card (instructions, quick reference): a title bar and paragraphs fitted to the card."""
    x, y, w, h = box
    color = face.color or INK
    title, text = _words(face, t, "title")
    _background(scene, box, bleed, PAPER)
    bx, by, bw, _ = _bleed_box(box, bleed)
    scene.add(Rect(bx, by, bw, bleed[1] + SAFE + 9.0, Paint(None, color)))
    scene.add(
        Text(x + w / 2, y + SAFE + 5.4, title, fit_size(title, 10, w - 2 * SAFE, "bold"), "bold", "middle", "#ffffff")
    )
    top = y + SAFE + 13.5
    _paragraphs(scene, x + SAFE, top, w - 2 * SAFE, text, 9.0, INK, y + h - SAFE - top)


def wrap(text: str, size: float, width: float, weight: str = "regular") -> list[str]:
    """``text`` broken into lines at most ``width`` mm wide at ``size`` points, at ordinary spaces only.

    A no-break space (U+00A0, as French sets before ``:`` and ``;``) keeps its
    neighbours on one line; a word wider than ``width`` gets a line of its own
    (the caller shrinks the size until no line is too wide).  Widths are
    measured as :func:`~generator.printing.draw.rich_text` draws (suits as shapes).
    """
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if not word:
            continue
        trial = f"{line} {word}" if line else word
        if line and rich_width(trial, size, weight) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def _paragraphs(
    scene: Scene, x: float, y: float, width: float, text: str, size: float, color: str, room: float
) -> None:
    """Word-wrapped paragraphs (:func:`wrap`) at the largest size, in 0.1 pt steps from ``size`` down to 4 pt,
    at which they fit ``room`` mm of height and every line ``width``."""
    paragraphs = [p for p in text.split("\n") if p.strip()]

    def set_at(pt: float):
        lines = [wrap(p, pt, width) for p in paragraphs]
        line_h = pt * 0.3528 * 1.25
        height = sum(len(ls) for ls in lines) * line_h + (len(lines) - 1) * line_h * 0.45
        widest = max((rich_width(line, pt) for ls in lines for line in ls), default=0.0)
        return lines, line_h, height <= room and widest <= width

    steps = [round(size - 0.1 * k, 2) for k in range(int(round((size - 4.0) / 0.1)) + 1)]  # size … 4.0
    lo, hi = 0, len(steps) - 1  # bisect for the first step that fits (a smaller size almost always fits too)
    while lo < hi:
        mid = (lo + hi) // 2
        if set_at(steps[mid])[2]:
            hi = mid
        else:
            lo = mid + 1
    k = lo
    while k < len(steps) - 1 and not set_at(steps[k])[2]:  # wrapping can make a size fit where a smaller one does not
        k += 1
    size = steps[k]
    lines, line_h, _ = set_at(size)
    cursor = y + size * 0.3528
    for ls in lines:
        for line in ls:
            rich_text(scene, x, cursor, line, size, color=color, red=RED, black=BLACK)
            cursor += line_h
        cursor += line_h * 0.45


# --- backs ------------------------------------------------------------------------------


def deck_back(deck: Deck, scene: Scene, box, bleed: tuple[float, float], *, t: Messages) -> None:
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
    subtitle = deck.back.subtitle or (t(f"cards.{deck.back.key}.subtitle") if deck.back.key else "")
    scene.add(
        Text(
            x + w / 2,
            y + h / 2 + (1.5 if subtitle else 4.0),
            title,
            fit_size(title, 18, w - 20, "bold"),
            "bold",
            "middle",
            "#ffffff",
        )
    )
    if subtitle:
        scene.add(
            Text(x + w / 2, y + h / 2 + 8.5, subtitle, fit_size(subtitle, 7, w - 20), "regular", "middle", "#ffffff")
        )


FRONTS = {
    "playing": playing_front,
    "joker": joker_front,
    "number": number_front,
    "modifier": modifier_front,
    "action": action_front,
    "text": text_front,
}


def deck_items(deck: Deck, lang: str = "en") -> list[Item]:
    """Every card of ``deck`` as an imposition :class:`Item` (front and back drawings), its words in ``lang``.

    Raises:
        SheetsmithError: no message catalogue for ``lang``.
    """
    t = messages(lang)
    palette = FLIP7_COLORS if deck.game == "flip7" else None
    back = partial(deck_back, deck, t=t)
    items = []
    for face in deck.faces:
        draw = FRONTS[face.type]
        if face.type == "number":
            front = partial(number_front, face, t=t, palette=palette)
        else:
            front = partial(draw, face, t=t)
        items.append(Item(face.name, front, back))
    return items


def deck_pages(deck: Deck, paper: Paper, options: PrintOptions, lang: str = "en") -> tuple[list[Scene], dict]:
    """The deck imposed on ``paper`` (fronts, and mirrored backs unless ``options.backs`` is off) with its words
    in ``lang``, and its manifest (language-free: cards are named as in English).

    Raises:
        InputError: the cards do not fit the paper.
        SheetsmithError: no message catalogue for ``lang``.
    """
    words = messages(lang).section("print")
    size_id = options.card_size or deck.size_id
    w, h, label = card_sizes()[size_id]
    try:
        pages, manifest = impose(
            deck_items(deck, lang),
            paper,
            w,
            h,
            bleed=options.bleed,
            backs=options.backs,
            back_offset=options.back_offset,
            title=deck.name,
            footer=f"sheetsmith · {deck.id} · {paper.label} · {label}",
            words=words,
        )
    except ImpositionError as exc:
        raise InputError([Problem(deck.source, 0, 0, str(exc))]) from None
    return pages, {"component": deck.id, "kind": "deck", "card_size": size_id, **manifest}


def describe_deck(deck: Deck) -> tuple[str, str]:
    """A deck's name and a one-line summary of its contents: ``(NAME, "94 cards, poker 63 × 88 mm")``."""
    return deck.name, f"{len(deck.faces)} cards, {card_sizes()[deck.size_id][2]}"
