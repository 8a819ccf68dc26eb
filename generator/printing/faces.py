"""Card faces and backs, drawn into a trim box with art running into the bleed.

Every drawing function has the signature of :data:`generator.printing.impose.DrawFn`:
``(scene, (x, y, w, h), bleed)``, millimetres.  The background fills the
bleed box; text and symbols stay inside the safe zone (:data:`SAFE` mm inside
the trim).  Suits are vector shapes.  Every word comes from the message
catalogue of the language drawn (keyword ``t``, section ``cards`` of
``templates/lang/<code>.yaml``), except words a deck file writes itself.
"""

from __future__ import annotations

import re
from functools import lru_cache, partial

from generator.core.errors import InputError, Problem
from generator.printing.cardart import (
    BLACK,
    INK,
    PAPER,
    RED,
    SAFE,
    Box,
    background,
    bleed_box,
    corner_index,
    mix,
    two_way,
    underline,
)
from generator.printing.deck import Deck, Face, card_sizes
from generator.printing.draw import rich_text, rich_width
from generator.printing.i18n import Messages, messages
from generator.printing.impose import ImpositionError, Item, PrintOptions, impose
from generator.printing.paper import Paper
from generator.printing.poker import joker_front, playing_front
from generator.printing.scene import (
    PT,
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
)

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


# --- numbers, modifiers, actions, text ----------------------------------------------


def number_front(
    face: Face, scene: Scene, box: Box, bleed: tuple[float, float], *, t: Messages, palette: list[str] | None = None
) -> None:
    """A Flip 7 number card: a full-bleed field in the number's colour, the number large on a white disc,
    white two-way corner indices."""
    x, y, w, h = box
    value = face.value if face.value is not None else 0
    color = face.color or (palette[value % len(palette)] if palette else INK)
    background(scene, box, bleed, color)
    label = str(value)
    corner_index(scene, box, label, PAPER)
    cx, cy = x + w / 2, y + h / 2
    scene.add(Circle(cx, cy, 0.34 * w, Paint(None, PAPER)))
    scene.add(Circle(cx, cy, 0.34 * w - 1.6, Paint(color, None, 0.5)))
    size = fit_size(label, 46, 0.46 * w, "bold")
    scene.add(Text(cx, cy + cap_height(size) / 2, label, size, "bold", "middle", color))
    if value in (6, 9):  # tell 6 and 9 apart when the card is turned
        underline(scene, cx, cy + cap_height(size) / 2 + 0.16 * size * PT + 0.6, color, half=6.0, width=1.0)
    if face.set:
        word = t.get(f"cards.set.{face.set.lower()}", face.set).upper()
        scene.add(
            Text(cx, y + h - SAFE - 2.0, word, fit_size(word, 7, w - 2 * SAFE - 24, "bold"), "bold", "middle", PAPER)
        )


def fundex_front(face: Face, scene: Scene, box: Box, bleed: tuple[float, float], *, t: Messages) -> None:
    """An All In (Fundex) number card: white, with full-bleed bands of its set's colour top and bottom that
    carry the set's name, the number large in the middle on a die-like tile, two-way."""
    x, y, w, h = box
    value = face.value if face.value is not None else 0
    color = face.color or INK
    background(scene, box, bleed, PAPER)
    bx, by, bw, bh = bleed_box(box, bleed)
    band = 17.0
    scene.add(Rect(bx, by, bw, bleed[1] + band, Paint(None, color)))
    scene.add(Rect(bx, y + h - band, bw, bleed[1] + band, Paint(None, color)))
    label = str(value)
    word = t.get(f"cards.set.{face.set.lower()}", face.set).upper() if face.set else ""

    def half(s: Scene) -> None:
        size = fit_size(label, 20.0, 12.0, "bold")
        s.add(Text(x + SAFE + 6.0, y + band - 4.0, label, size, "bold", "middle", PAPER))
        if value in (6, 9):
            underline(s, x + SAFE + 6.0, y + band - 2.6, PAPER, label=label, size=size, width=0.6)
        if word:
            s.add(
                Text(x + w - SAFE - 1.0, y + band - 5.0, word, fit_size(word, 8, w - 30, "bold"), "bold", "end", PAPER)
            )

    two_way(scene, box, half)
    cx, cy = x + w / 2, y + h / 2
    side = 0.6 * w
    scene.add(Rect(cx - side / 2, cy - side / 2, side, side, Paint(color, "#f7f4ee", 1.0), r=5.0))
    size = fit_size(label, 54, side - 8.0, "bold")
    scene.add(Text(cx, cy + cap_height(size) / 2, label, size, "bold", "middle", color))
    if value in (6, 9):  # tell 6 and 9 apart when the card is turned
        underline(scene, cx, cy + cap_height(size) / 2 + 0.16 * size * PT + 0.6, color, half=6.0, width=1.0)


def _words(face: Face, t: Messages, label_field: str = "label") -> tuple[str, str]:
    """A face's label (or title) and text: its own, else ``cards.<key>.…`` of the catalogue ``t``."""
    label, text = face.label, face.text
    if face.key:
        text_field = "body" if label_field == "title" else "text"
        label = label or t(f"cards.{face.key}.{label_field}")
        if not text and t.get(f"cards.{face.key}.{text_field}") is not None:
            text = t(f"cards.{face.key}.{text_field}")
    return label, text


MODIFIER_GOLD, MODIFIER_INK, MODIFIER_FIELD = "#b08a1e", "#6b4f00", "#fff1c4"


def modifier_front(face: Face, scene: Scene, box: Box, bleed: tuple[float, float], *, t: Messages) -> None:
    """A modifier (×2, +2 … +10): a gold card, the label large on a star, two-way corner indices with a
    small star under them."""
    x, y, w, h = box
    background(scene, box, bleed, MODIFIER_FIELD)
    own, _ = _words(face, t)
    label = own.replace("x", "×") if own.startswith("x") else own
    corner_index(
        scene,
        box,
        label,
        MODIFIER_INK,
        lambda s, cx, top: s.add(Path_(polygon_ops(star_points(cx, top + 2.4, 2.6, 1.2)), Paint(None, MODIFIER_GOLD))),
        column=11.0,
    )
    cx, cy = x + w / 2, y + h / 2
    scene.add(Path_(polygon_ops(star_points(cx, cy, 0.37 * w, 0.25 * w, 8)), Paint(MODIFIER_GOLD, "#f7dc7c", 0.6)))
    size = fit_size(label, 36, 0.42 * w, "bold")  # stays inside the star, "+10" included
    scene.add(Text(cx, cy + cap_height(size) / 2, label, size, "bold", "middle", MODIFIER_INK))
    word = t("cards.modifier")
    scene.add(
        Text(cx, y + h - SAFE - 9.0, word, fit_size(word, 7, w - 2 * SAFE - 26, "bold"), "bold", "middle", MODIFIER_INK)
    )


def action_icon(key: str, cx: float, cy: float, size: float, color: str, fill: str = PAPER) -> list:
    """The icon of an action card, ``size`` mm across, centred at ``(cx, cy)``: a snowflake (Freeze), three
    fanned cards (Flip Three), a shield (Second Chance), a bolt for any other action; drawn in ``color`` on
    ``fill``."""
    r = size / 2
    ink = Paint(color, None, max(0.35, size * 0.06))
    name = key.rsplit(".", 1)[-1]
    if name == "freeze":
        out: list = []
        for k in range(3):
            dx, dy = [(0.0, 1.0), (0.866, 0.5), (0.866, -0.5)][k]
            out.append(Line(cx - dx * r, cy - dy * r, cx + dx * r, cy + dy * r, ink))
            for sgn in (-1, 1):  # two small barbs near each tip
                tx, ty = cx + sgn * dx * r * 0.62, cy + sgn * dy * r * 0.62
                out.append(
                    Line(tx, ty, tx + sgn * (dx * 0.28 - dy * 0.22) * r, ty + sgn * (dy * 0.28 + dx * 0.22) * r, ink)
                )
                out.append(
                    Line(tx, ty, tx + sgn * (dx * 0.28 + dy * 0.22) * r, ty + sgn * (dy * 0.28 - dx * 0.22) * r, ink)
                )
        return out
    if name == "flip_three":
        w, h = 0.62 * size, 0.86 * size
        out = []
        for k, dx in enumerate((-0.3, 0.0, 0.3)):
            out.append(
                Rect(
                    cx + dx * r * 1.2 - w / 2,
                    cy - h / 2 + (1 - k) * 0.06 * size,
                    w,
                    h,
                    Paint(color, fill, max(0.35, size * 0.05)),
                    r=size * 0.08,
                )
            )
        out.append(Text(cx + 0.36 * r, cy + 0.22 * size, "3", size * 1.2, "bold", "middle", color))
        return out
    if name == "second_chance":
        return [
            Path_(
                (
                    ("M", cx, cy - r),
                    ("C", cx + 0.5 * r, cy - 0.75 * r, cx + 0.85 * r, cy - 0.8 * r, cx + 0.9 * r, cy - 0.8 * r),
                    ("C", cx + 0.9 * r, cy + 0.1 * r, cx + 0.5 * r, cy + 0.7 * r, cx, cy + r),
                    ("C", cx - 0.5 * r, cy + 0.7 * r, cx - 0.9 * r, cy + 0.1 * r, cx - 0.9 * r, cy - 0.8 * r),
                    ("C", cx - 0.85 * r, cy - 0.8 * r, cx - 0.5 * r, cy - 0.75 * r, cx, cy - r),
                    ("Z",),
                ),
                Paint(color, None, max(0.35, size * 0.07)),
            ),
            Text(cx, cy + 0.36 * r, "2", size * 1.3, "bold", "middle", color),
        ]
    bolt = [(0.15, -1.0), (-0.55, 0.1), (-0.05, 0.1), (-0.2, 1.0), (0.55, -0.15), (0.05, -0.15)]
    return [Path_(polygon_ops([(cx + a * r, cy + b * r) for a, b in bolt]), Paint(None, color))]


def action_front(face: Face, scene: Scene, box: Box, bleed: tuple[float, float], *, t: Messages) -> None:
    """An action card: a full-bleed border of its colour, its icon in two corners and large, its name and a
    short reminder of what it does."""
    x, y, w, h = box
    color = face.color or "#8e1b3a"
    label, text = _words(face, t)
    background(scene, box, bleed, color)
    inset = 4.5
    scene.add(Rect(x + inset, y + inset + 9.0, w - 2 * inset, h - 2 * inset - 18.0, Paint(None, PAPER), r=3))
    key = face.key or label.lower().replace(" ", "_")

    def corners(s: Scene) -> None:
        s.add(*action_icon(key, x + SAFE + 4.0, y + SAFE + 4.0, 7.0, PAPER, color))

    two_way(scene, box, corners)
    cx = x + w / 2
    scene.add(*action_icon(key, cx, y + 25.0, 15.0, color))
    scene.add(Text(cx, y + 40.0, label, fit_size(label, 14, w - 2 * inset - 6, "bold"), "bold", "middle", color))
    _paragraphs(scene, x + inset + 3, y + 44.0, w - 2 * inset - 6, text, 9.0, INK, h - 44.0 - inset - 11.0)
    word = t("cards.action")
    scene.add(
        Text(cx, y + h - inset - 3.2, word, fit_size(word, 7, w - 2 * inset - 22, "bold"), "bold", "middle", PAPER)
    )


def text_front(face: Face, scene: Scene, box: Box, bleed: tuple[float, float], *, t: Messages) -> None:
    """A text card (instructions, quick reference): a full-bleed title band and paragraphs set as large as
    the card holds (up to 11 pt), each lead phrase in bold."""
    x, y, w, h = box
    color = face.color or INK
    title, text = _words(face, t, "title")
    background(scene, box, bleed, PAPER)
    bx, by, bw, _ = bleed_box(box, bleed)
    scene.add(Rect(bx, by, bw, bleed[1] + SAFE + 10.0, Paint(None, color)))
    scene.add(
        Text(x + w / 2, y + SAFE + 6.2, title, fit_size(title, 12, w - 2 * SAFE, "bold"), "bold", "middle", PAPER)
    )
    top = y + SAFE + 14.0
    _paragraphs(scene, x + SAFE, top, w - 2 * SAFE, text, 11.0, INK, y + h - SAFE - top)


LEAD = re.compile(r"^(?P<bullet>\S{1,2} )?\*\*(?P<lead>.+?)\*\*(?P<rest>.*)$")
"""A paragraph with bold lead words: ``**Values:** A 1, …`` or, after a bullet, ``• **Roll.** …``."""


def _runs(paragraph: str) -> list[tuple[str, str]]:
    """A paragraph's words with their weight: ``**lead words**`` at the start (after a bullet, if any) are
    bold; a ``**`` never closed is dropped."""
    m = LEAD.match(paragraph)
    if m:
        bullet, lead, rest = m.group("bullet") or "", m.group("lead"), m.group("rest")
        return (
            [(word, "regular") for word in bullet.split(" ") if word]
            + [(word, "bold") for word in lead.split(" ") if word]
            + [(word, "regular") for word in rest.split(" ") if word]
        )
    return [(word, "regular") for word in paragraph.replace("**", "").split(" ") if word]


def wrap(text: str, size: float, width: float, weight: str = "regular") -> list[str]:
    """``text`` broken into lines at most ``width`` mm wide at ``size`` points, at ordinary spaces only.

    A no-break space (U+00A0, as French sets before ``:`` and ``;``) keeps its
    neighbours on one line; a word wider than ``width`` gets a line of its own
    (the caller shrinks the size until no line is too wide).  Widths are
    measured as :func:`~generator.printing.draw.rich_text` draws (suits as shapes).
    """
    return [
        " ".join(w for w, _ in line) for line in _wrap_runs([(w, weight) for w in text.split(" ") if w], size, width)
    ]


def _wrap_runs(words: list[tuple[str, str]], size: float, width: float) -> list[list[tuple[str, str]]]:
    """``words`` (with their weights) broken into lines at most ``width`` mm wide at ``size`` pt."""
    space = _unit_width(" ", "regular") * size
    lines: list[list[tuple[str, str]]] = []
    line: list[tuple[str, str]] = []
    wide = 0.0
    for word in words:
        more = _unit_width(*word) * size
        if line and wide + space + more > width:
            lines.append(line)
            line, wide = [word], more
        else:
            wide += (space if line else 0.0) + more
            line.append(word)
    if line:
        lines.append(line)
    return lines


@lru_cache(maxsize=4096)
def _unit_width(word: str, weight: str) -> float:
    """Width in mm of ``word`` at 1 pt as :func:`rich_text` draws it (widths grow in proportion to the size)."""
    return rich_width(word, 1.0, weight)


def _line_width(line: list[tuple[str, str]], size: float) -> float:
    return size * (
        sum(_unit_width(word, weight) for word, weight in line) + _unit_width(" ", "regular") * (len(line) - 1)
    )


def _paragraphs(
    scene: Scene, x: float, y: float, width: float, text: str, size: float, color: str, room: float
) -> None:
    """Word-wrapped paragraphs at the largest size, in 0.1 pt steps from ``size`` down to 4 pt, at which they
    fit ``room`` mm of height and every line ``width``; lead words marked ``**…**`` in bold."""
    paragraphs = [_runs(p) for p in text.split("\n") if p.strip()]

    def set_at(pt: float):
        lines = [_wrap_runs(p, pt, width) for p in paragraphs]
        line_h = pt * 0.3528 * 1.25
        height = sum(len(ls) for ls in lines) * line_h + (len(lines) - 1) * line_h * 0.45
        widest = max((_line_width(line, pt) for ls in lines for line in ls), default=0.0)
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
    space = rich_width(" ", size)
    cursor = y + size * 0.3528
    for ls in lines:
        for line in ls:
            left = x
            groups = _groups(line)
            for n, (group, weight) in enumerate(groups):
                left += rich_text(scene, left, cursor, group, size, weight=weight, color=color, red=RED, black=BLACK)
                left += space if n < len(groups) - 1 else 0.0
            cursor += line_h
        cursor += line_h * 0.45


def _groups(line: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A line's words joined into runs of one weight: ``[("Values:", "bold"), ("A 1, 2-10 …", "regular")]``."""
    out: list[tuple[str, str]] = []
    for word, weight in line:
        if out and out[-1][1] == weight:
            out[-1] = (out[-1][0] + " " + word, weight)
        else:
            out.append((word, weight))
    return out


# --- backs ------------------------------------------------------------------------------


def deck_back(deck: Deck, scene: Scene, box: Box, bleed: tuple[float, float], *, t: Messages) -> None:
    """The deck's back, the same on every card and the same upside down: its colour into the bleed, a
    diamond lattice centred on the card inside a white line 5 mm in, a medallion with the title once upright
    and once turned."""
    x, y, w, h = box
    color = deck.back.color
    background(scene, box, bleed, color)
    cx, cy = x + w / 2, y + h / 2
    inset = 5.0
    scene.add(Rect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, Paint("#ffffff", None, 0.5), r=3.0))
    light = Paint(mix(color, "#ffffff", 0.35), None, 0.3)
    left, right, top, bottom = x + inset + 1.5, x + w - inset - 1.5, y + inset + 1.5, y + h - inset - 1.5
    step = 6.0
    for k in range(-12, 13):  # 45° lines through points k·step along the card's middle row, clipped to the panel
        for sgn in (1, -1):
            seg = _clip_diagonal(cx + k * step, cy, sgn, left, top, right, bottom)
            if seg:
                scene.add(Line(seg[0], seg[1], seg[2], seg[3], light))
    title = deck.back.title
    subtitle = deck.back.subtitle or (t(f"cards.{deck.back.key}.subtitle") if deck.back.key else "")
    rx, ry = 0.36 * w, 0.2 * h
    scene.add(Rect(cx - rx, cy - ry, 2 * rx, 2 * ry, Paint("#ffffff", color, 0.8), r=rx * 0.6))
    scene.add(
        Rect(
            cx - rx + 1.6,
            cy - ry + 1.6,
            2 * rx - 3.2,
            2 * ry - 3.2,
            Paint(mix(color, "#ffffff", 0.35), None, 0.4),
            r=rx * 0.6 - 1.6,
        )
    )

    def half(s: Scene) -> None:
        size = fit_size(title, 15, 2 * rx - 12, "bold")
        s.add(Text(cx, cy - 2.0, title, size, "bold", "middle", PAPER))
        if subtitle:
            s.add(
                Text(
                    cx,
                    cy - 2.0 - cap_height(size) - 2.2,
                    subtitle,
                    fit_size(subtitle, 6, 2 * rx - 20),
                    "regular",
                    "middle",
                    PAPER,
                )
            )

    two_way(scene, box, half)


def _clip_diagonal(
    px: float, py: float, sgn: int, left: float, top: float, right: float, bottom: float
) -> tuple[float, float, float, float] | None:
    """The part of the line through ``(px, py)`` with slope ``sgn`` (y = py + sgn·(x − px)) inside the box,
    as ``(x1, y1, x2, y2)``, or ``None``."""
    lo, hi = left, right
    # top ≤ py + sgn (x − px) ≤ bottom
    a, b = px + (top - py) / sgn, px + (bottom - py) / sgn
    lo, hi = max(lo, min(a, b)), min(hi, max(a, b))
    if hi - lo < 0.2:
        return None
    return (lo, py + sgn * (lo - px), hi, py + sgn * (hi - px))


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
        if face.type == "number" and face.set:
            front = partial(fundex_front, face, t=t)
        elif face.type == "number":
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
