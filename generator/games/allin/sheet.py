"""Draw an All In (flip&write) player sheet into a scene.

What the All In rulebook says a sheet carries,
and where it is drawn here:

* upper, foldable part ("Fold the sheet … creating a screen"): title and
  sheet name, the player's name, the scoring aid from weakest to strongest
  with points, a score box per hand letter with what its Best Scoring Hand
  is worth, chips left and total; a fold line with a mark on each
  side of the page;
* the grid: card spaces joined by link lines, the starting dot in the
  bottom-left corner of starting spaces, each hand's letter, reward icon (one
  or two player figures, crossed when someone else completed the hand first)
  and bonus star with the one circle a player crosses for that hand's Best
  Scoring Hand, and the Golden Card printed as a card;
* in every card space: room for the value, the four suits to circle and a
  row of rank boxes to tick (for machine reading);
* the chip track: circles filled when chips are earned, a box under each
  ticked when it is spent ("Mark the Poker Chips you get in the lower part").

For the photo reader (``generator/reader``, docs/photos.md) every sheet also
carries four ArUco corner markers (and mid-edge ones where there is room),
whose ids name the paper, and a QR sheet code naming the format version, the
layout, the paper and a hash of every mark target's geometry.  The rank
boxes, chip circles and spent boxes are drawn in the light dropout colour.
Markers and the code are recorded in ``scene.marks`` too (kinds ``marker``
and ``code``), so the reader takes all positions from the code that draws them.

Everything is measured in millimetres from the top-left corner of the page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from generator.core.cards import RANK_LABELS, SHEET_RANK_ORDER, SUITS
from generator.games.allin.grid import Coord, cell_name
from generator.games.allin.layout import AllInLayout, Hand
from generator.printing.draw import PENCIL, person_path, rich_text, rich_width, suit_path, transform_ops
from generator.printing.paper import Paper
from generator.printing.readable import (
    MARKER_INSET,
    MARKER_QUIET,
    MARKER_SIZE,
    SHEET_FORMAT,
    SheetCode,
    code_box,
    code_matrix,
    geometry_hash,
    marker_boxes,
    marker_cells,
    squares_ops,
)
from generator.printing.scene import (
    PT,
    Circle,
    Line,
    MarkTarget,
    Paint,
    Path_,
    Rect,
    Scene,
    Text,
    fit_size,
    polygon_ops,
    star_points,
    text_width,
)

MIN_TYPE = 5.5
"""The smallest type printed on a sheet, in points: what a player reads at arm's length in a dim room."""

AID_HANDS = (
    # (category key, points, example in card codes with suit symbols)
    ("pair", 2, "7♠ 7♥"),
    ("two_pair", 4, "4♣ 4♦ 9♥ 9♠"),
    ("three_of_a_kind", 6, "Q♠ Q♥ Q♦"),
    ("straight", 8, "3♣ 4♦ 5♥ 6♠ 7♣"),
    ("full_house", 10, "8♠ 8♥ 8♦ 2♣ 2♦"),
    ("four_of_a_kind", 12, "K♠ K♥ K♦ K♣"),
    ("straight_flush", 14, "9♥ 10♥ J♥ Q♥ K♥"),
)
"""The seven scoring hands, weakest to strongest, with their points (rulebook table)."""

RANK_ROWS = (SHEET_RANK_ORDER[:7], SHEET_RANK_ORDER[7:])
"""Rank tick rows in a card space: A 2 3 4 5 6 7 above, 8 9 10 J Q K below."""


@dataclass(frozen=True)
class GridFrame:
    """Where the grid sits on the page: origin (mm), scale, and the scaled card and gap sizes."""

    x0: float
    y0: float
    scale: float
    card_w: float
    card_h: float
    gap_x: float
    gap_y: float

    def cell_box(self, coord: Coord) -> tuple[float, float, float, float]:
        """``(x, y, w, h)`` of the card space at lattice ``coord`` (mm)."""
        c, r = coord
        return (
            self.x0 + c * (self.card_w + self.gap_x),
            self.y0 + r * (self.card_h + self.gap_y),
            self.card_w,
            self.card_h,
        )


def build_allin_sheet(layout: AllInLayout, paper: Paper, lang: str = "en") -> Scene:
    """Draw the player sheet of ``layout`` on ``paper`` (portrait) with its labels in ``lang``; return the scene.

    The scene's ``marks`` hold every mark target with its box in mm; they do
    not depend on the language (nor on the labels), so a sheet printed in any
    language is read with the same geometry and sheet code.

    Raises:
        SheetsmithError: no message catalogue for ``lang``.
    """
    if lang != "en":
        layout = replace(layout, strings=layout.strings_for(lang))
    st = layout.style
    s = layout.strings
    W, H, m = paper.width, paper.height, st.margin
    scene = Scene(W, H, title=f"{s.title}: {sheet_title(s.sheet, layout.name)}")

    y = m
    y = _header(scene, layout, paper, y)
    y = _scoring_aid(scene, layout, W, m, y + 1.5)
    y = _score_table(scene, layout, W, m, y + 2.0)
    y = _fold(scene, layout, W, m, y + 2.5)
    band_top = H - MARKER_INSET - BAND_HEIGHT  # the bottom band: corner markers, chip track, sheet code
    y = _legend(scene, layout, W, m, y + 3.2)
    frame = _fit_grid(layout, W, m, y + 1.6, band_top - 2.6)
    _grid(scene, layout, frame)
    code_x, code_y, _ = code_box(paper)
    chip_x0 = max(m, MARKER_INSET + MARKER_SIZE + 3.0)
    _chip_track(scene, layout, chip_x0, code_x - 3.0, band_top)
    scene.add(
        Text(W - m, H - m + 4.2, f"sheetsmith · {layout.id} · {paper.label}", MIN_TYPE, color=st.soft, anchor="end")
    )
    scene.keep_text_inside(m, W - m)
    _machine_marks(scene, layout, paper)
    return scene


def sheet_title(label: str, name: str) -> str:
    """The sheet's name with its label: ``"{name} sheet"`` filled in (``"Q♦ sheet"``, ``"scheda Q♦"``);
    a label without ``{name}`` (an older ``strings: {sheet: …}``) follows the name."""
    return label.replace("{name}", name) if "{name}" in label else f"{name} {label}"


PLAYER_LABEL_W = 20.0
"""Room (mm) for the "Player" label before the name line; the line, and its mark target, start after it
in every language."""


# --- upper part ------------------------------------------------------------------


def _header(scene: Scene, layout: AllInLayout, paper: Paper, y: float) -> float:
    st, s = layout.style, layout.strings
    m = st.margin
    W = paper.width
    base = y + 8.0
    # the title sits between the top-left and top-middle markers, the name line
    # between the top-middle and top-right ones (see _machine_marks)
    keep = MARKER_INSET + MARKER_SIZE + 3.0
    left = max(m, keep)
    line_end = min(W - m, W - keep)
    mid_left, mid_right = W / 2 - MARKER_SIZE / 2 - 3.0, W / 2 + MARKER_SIZE / 2 + 3.0
    line_start = max(mid_right, line_end - 72.0)
    sheet_name = sheet_title(s.sheet, layout.name)
    room = mid_left - left
    need = rich_width(s.title, 22, "bold") + 5.0 + rich_width(sheet_name, 14, "bold")
    shrink = min(1.0, room / need)  # a long title or name is set smaller, never over the marker
    w = rich_text(scene, left, base, s.title, 22 * shrink, weight="bold", color=st.accent, red=st.red, black=st.ink)
    scene.add(Text(left, base + 4.6, s.subtitle, fit_size(s.subtitle, 7.5, room), color=st.soft))
    rich_text(
        scene,
        left + w + 5.0 * shrink,
        base,
        sheet_name,
        14 * shrink,
        weight="bold",
        color=st.ink,
        red=st.red,
        black=st.black,
    )
    player_size = fit_size(s.player, 8.0, PLAYER_LABEL_W)
    lx = line_start + PLAYER_LABEL_W + 2.0
    scene.add(Text(lx - 2.0, base, s.player, player_size, color=st.soft, anchor="end"))
    scene.add(Line(lx, base + 0.8, line_end, base + 0.8, Paint(st.ink, width=0.3)))
    scene.marks.append(MarkTarget("player", "sheet", "", lx, base - 6.0, line_end - lx, 7.0))
    return y + 14.0


def _scoring_aid(scene: Scene, layout: AllInLayout, W: float, m: float, y: float) -> float:
    """The scoring aid: the comparison slot numbered 1, then the seven hands numbered 2 to 8, weakest first.

    The numbers are the rulebook's (*Poker Scoring Hands reference*): 1 is the
    comparison symbol showing which way hands get stronger, 2 the pair … 8 the
    straight flush, the same order as the Best Scoring Hand comparison
    (:class:`~generator.games.allin.hands.Category`), so a higher number beats
    a lower one.
    """
    st, s = layout.style, layout.strings
    height = 26.0
    scene.add(Rect(m, y, W - 2 * m, height, Paint(None, st.panel), r=2.0))
    title_size = fit_size(s.aid_title, 8.0, 45.0, "bold")
    scene.add(Text(m + 3.0, y + 4.6, s.aid_title, title_size, "bold", color=st.ink))
    # weaker → stronger arrow along the top strip, broken by "higher number wins" in its middle
    ax0 = m + 3.0 + text_width(s.aid_title, title_size, "bold") + 6.0
    weak_size, strong_size = fit_size(s.weaker, 6.0, 30.0), fit_size(s.stronger, 6.0, 30.0)
    scene.add(Text(ax0, y + 4.4, s.weaker, weak_size, color=st.soft))
    a_start = ax0 + text_width(s.weaker, weak_size) + 2.0
    a_end = W - m - 3.0 - text_width(s.stronger, strong_size) - 2.5
    note_size = fit_size(s.aid_numbers, 6.0, (a_end - a_start) * 0.6, "bold")
    note_w = text_width(s.aid_numbers, note_size, "bold")
    mid = (a_start + a_end) / 2
    arrow = Paint(st.soft, width=0.35)
    scene.add(Line(a_start, y + 3.0, mid - note_w / 2 - 2.0, y + 3.0, arrow))
    scene.add(Text(mid, y + 4.4, s.aid_numbers, note_size, "bold", color=st.ink, anchor="middle"))
    scene.add(Line(mid + note_w / 2 + 2.0, y + 3.0, a_end, y + 3.0, arrow))
    scene.add(
        Path_(
            polygon_ops([(a_end + 1.6, y + 3.0), (a_end - 0.4, y + 1.9), (a_end - 0.4, y + 4.1)]), Paint(None, st.soft)
        )
    )
    scene.add(Text(W - m - 3.0, y + 4.4, s.stronger, strong_size, color=st.soft, anchor="end"))

    n = len(AID_HANDS)
    gap = 1.2
    first_w = 9.0  # slot 1: the comparison symbol
    bw = (W - 2 * m - 6.0 - first_w - gap * n) / n
    by, bh = y + 6.3, 14.6
    x = m + 3.0
    scene.add(Rect(x, by, first_w, bh, Paint(st.ink, "#ffffff", 0.25), r=1.2))
    _aid_comparison(scene, x + first_w / 2, by + bh / 2 - 1.3, st)
    _aid_number(scene, x, by, bh, 1, st)
    note_left = 2 * AID_NUMBER_R + 1.0  # a slot's note is centred right of its number
    # every hand name at one size, every note at one size: the largest at which all seven fit
    name_size = min(
        fit_size(getattr(s, key), 6.6, bw - text_width(str(points), AID_POINTS_PT, "bold") - 3.0, "bold", MIN_TYPE)
        for key, points, _ in AID_HANDS
    )
    note_size = min(
        fit_size(getattr(s, f"{key}_note"), 5.8, bw - note_left - 0.6, "regular", MIN_TYPE) for key, _, _ in AID_HANDS
    )
    for k, (key, points, example) in enumerate(AID_HANDS):
        bx = x + first_w + gap + k * (bw + gap)
        scene.add(Rect(bx, by, bw, bh, Paint(st.ink, "#ffffff", 0.25), r=1.2))
        scene.add(Text(bx + 1.3, by + 4.0, getattr(s, key), name_size, "bold", color=st.ink))
        scene.add(Text(bx + bw - 1.1, by + 4.3, str(points), AID_POINTS_PT, "bold", color=st.accent, anchor="end"))
        ex_size = 6.4
        while rich_width(example, ex_size, "bold") > bw - 2.4 and ex_size > 4.0:
            ex_size -= 0.2
        rich_text(
            scene,
            bx + bw / 2,
            by + 9.3,
            example,
            ex_size,
            weight="bold",
            anchor="middle",
            color=st.ink,
            red=st.red,
            black=st.black,
        )
        _aid_number(scene, bx, by, bh, k + 2, st)
        left = bx + note_left
        scene.add(
            Text((left + bx + bw) / 2, by + 13.1, getattr(s, f"{key}_note"), note_size, color=st.soft, anchor="middle")
        )
    rule = s.aid_rule
    scene.add(Text(m + 3.0, y + height - 1.9, rule, fit_size(rule, 5.6, W - 2 * m - 6.0), color=st.ink))
    return y + height


AID_NUMBER_R = 1.5
"""Radius (mm) of the numbered disc in the bottom-left corner of each slot of the scoring aid."""

AID_POINTS_PT = 8.5
"""Size (points) of a hand's points in its slot of the scoring aid."""


def _aid_number(scene: Scene, bx: float, by: float, bh: float, number: int, st) -> None:
    """The slot's number (1 to 8) in a disc at the bottom-left corner of the slot at ``bx, by`` (``bh`` tall)."""
    r = AID_NUMBER_R
    cx, cy = bx + r + 0.6, by + bh - r - 0.6
    scene.add(Circle(cx, cy, r, Paint(None, st.ink)))  # ink, not the red of the points
    scene.add(Text(cx, cy + 0.75, str(number), MIN_TYPE, "bold", anchor="middle", color="#ffffff"))


def _aid_comparison(scene: Scene, cx: float, cy: float, st) -> None:
    """Slot 1's comparison symbol: a bold '<' drawn as a chevron (weaker on the left, stronger on the right)."""
    w, h = 3.0, 3.4
    ops = (("M", cx + w / 2, cy - h), ("L", cx - w / 2, cy), ("L", cx + w / 2, cy + h))
    scene.add(Path_(ops, Paint(st.ink, None, 0.9)))


def _score_table(scene: Scene, layout: AllInLayout, W: float, m: float, y: float) -> float:
    st, s = layout.style, layout.strings
    hands = list(layout.hands.values())
    label_w, chips_w, total_w = 20.5, 17.0, 19.0
    n = len(hands)
    col_w = min(15.0, (W - 2 * m - label_w - chips_w - total_w - 4.0) / max(n, 1))
    head_h, pts_h, bonus_h = 5.0, 8.5, 6.5
    x = m
    # Row labels
    for text, base in (
        (s.hand, y + head_h - 1.2),
        (s.points, y + head_h + pts_h / 2 + 1.1),
        (s.best_hand, y + head_h + pts_h + 3.0),
    ):
        scene.add(Text(x, base, text, fit_size(text, 6.5, label_w - 1.0, "bold"), "bold", color=st.ink))
    help_size = fit_size(s.best_hand_help, MIN_TYPE, label_w - 0.5)
    scene.add(Text(x, y + head_h + pts_h + 5.6, s.best_hand_help, help_size, color=st.soft))
    x += label_w
    for k, hand in enumerate(hands):
        cx = x + k * col_w
        mid = cx + col_w / 2
        scene.add(Text(mid, y + head_h - 1.2, hand.letter, 8.0, "bold", color=st.accent, anchor="middle"))
        scene.add(Rect(cx + 0.6, y + head_h, col_w - 1.2, pts_h, Paint(st.ink, "#ffffff", 0.3), r=0.8))
        scene.marks.append(MarkTarget("points", hand.letter, "", cx + 0.6, y + head_h, col_w - 1.2, pts_h))
        # what the hand's Best Scoring Hand is worth; the circle to cross is the one by its star on the grid
        by = y + head_h + pts_h + bonus_h / 2 + 0.4
        scene.add(Text(mid, by + 1.0, f"+{hand.bonus}", 6.3, "bold", color=st.soft, anchor="middle"))
    # separators between columns
    for k in range(1, n):
        sx = x + k * col_w
        scene.add(Line(sx, y + head_h + pts_h + 0.8, sx, y + head_h + pts_h + bonus_h, Paint(st.panel, width=0.3)))
    x_chips = W - m - total_w - chips_w - 2.0
    x_total = W - m - total_w
    for bx, bw, title, strong in ((x_chips, chips_w, s.chips_left, False), (x_total, total_w, s.total, True)):
        scene.add(
            Text(
                bx + bw / 2,
                y + head_h - 1.2,
                title,
                fit_size(title, 6.5, bw, "bold"),
                "bold",
                color=st.accent if strong else st.ink,
                anchor="middle",
            )
        )
        paint = Paint(st.accent if strong else st.ink, "#ffffff", 0.6 if strong else 0.3)
        scene.add(Rect(bx, y + head_h, bw, pts_h + bonus_h, paint, r=1.2))
        scene.marks.append(
            MarkTarget("total" if strong else "chips_left", "sheet", "", bx, y + head_h, bw, pts_h + bonus_h)
        )
    help_size = fit_size(s.total_help, MIN_TYPE, total_w + chips_w + 2.0)
    help_base = y + head_h + pts_h + bonus_h + 2.6
    if text_width(s.total_help, help_size) <= total_w:  # centred under the total, else ending with it
        scene.add(Text(x_total + total_w / 2, help_base, s.total_help, help_size, color=st.soft, anchor="middle"))
    else:
        scene.add(Text(x_total + total_w, help_base, s.total_help, help_size, color=st.soft, anchor="end"))
    return y + head_h + pts_h + bonus_h + 3.0


def _fold(scene: Scene, layout: AllInLayout, W: float, m: float, y: float) -> float:
    st, s = layout.style, layout.strings
    size = fit_size(s.fold, 6.0, W - 2 * m - 30.0)
    tw = text_width(s.fold, size)
    mid = W / 2
    dash = Paint(st.soft, width=0.3, dash=(2.0, 1.4))
    scene.add(Line(m, y, mid - tw / 2 - 2.5, y, dash))
    scene.add(Line(mid + tw / 2 + 2.5, y, W - m, y, dash))
    scene.add(Text(mid, y + 0.9 * size * 0.3528 / 2 + 0.2, s.fold, size, color=st.soft, anchor="middle"))
    # the two side marks the sheet is folded to
    for x_edge, direction in ((m - 0.6, -1), (W - m + 0.6, 1)):
        tip = x_edge
        back = x_edge + direction * 4.0
        scene.add(Path_(polygon_ops([(tip, y), (back, y - 2.2), (back, y + 2.2)]), Paint(None, st.ink)))
    return y


def _legend(scene: Scene, layout: AllInLayout, W: float, m: float, y: float) -> float:
    st, s = layout.style, layout.strings
    base = y + 1.6
    scene.add(Circle(m + 1.2, base - 1.0, 1.0, Paint(None, st.ink)))
    start_size = fit_size(s.start_help, 6.0, (W - 2 * m) * 0.3)
    scene.add(Text(m + 3.4, base, s.start_help, start_size, color=st.ink))
    left_end = m + 3.4 + text_width(s.start_help, start_size)
    # the reward legend stays right of the fold label above it, whose descenders its icons would touch
    fold_size = fit_size(s.fold, 6.0, W - 2 * m - 30.0)
    fold_end = W / 2 + text_width(s.fold, fold_size) / 2 + 2.5
    legend = (s.reward_single, s.reward_double)
    shrink = min(1.0, max(0.5, (W - m - fold_end - 2 * (6.2 + 5.0)) / sum(text_width(t, 6.0) for t in legend)))
    legend_sizes = {t: min(fit_size(t, 6.0, (W - 2 * m) * 0.2), 6.0 * shrink) for t in legend}
    right_start = W - m - sum(text_width(t, z) + 6.2 + 5.0 for t, z in legend_sizes.items())
    room = right_start - left_end - 8.0
    scene.add(
        Text(
            (left_end + right_start) / 2,
            base,
            s.space_help,
            fit_size(s.space_help, 6.0, room, "bold"),
            "bold",
            anchor="middle",
            color=st.ink,
        )
    )
    x = W - m
    for text, figures in ((s.reward_double, 2), (s.reward_single, 1)):
        tw = text_width(text, legend_sizes[text])
        scene.add(Text(x, base, text, legend_sizes[text], color=st.ink, anchor="end"))
        icon_w = 6.2
        _reward_icon(scene, x - tw - 1.2 - icon_w / 2, base - 1.3, figures, 0.75, st, icon_w / 0.75 / 8.6)
        x -= tw + icon_w + 5.0
    return y + 3.0


def _reward_icon(
    scene: Scene, cx: float, cy: float, figures: int, scale: float, st, width_factor: float = 1.0
) -> tuple[float, float, float, float]:
    """Draw a reward icon (one or two player figures in a box to cross); return its box."""
    w, h = 8.6 * scale * width_factor, 6.2 * scale
    scene.add(Rect(cx - w / 2, cy - h / 2, w, h, Paint(st.ink, "#ffffff", 0.3), r=1.0 * scale))
    size = 4.6 * scale
    if figures == 1:
        scene.add(person_path(cx, cy + 0.2 * scale, size, st.ink))
    else:
        scene.add(person_path(cx - 1.9 * scale, cy + 0.2 * scale, size * 0.95, st.ink))
        scene.add(person_path(cx + 1.9 * scale, cy + 0.2 * scale, size * 0.95, st.ink))
    return (cx - w / 2, cy - h / 2, w, h)


# --- grid ------------------------------------------------------------------------


def _fit_grid(layout: AllInLayout, W: float, m: float, top: float, bottom: float) -> GridFrame:
    st = layout.style
    g = layout.grid
    need_w = g.cols * st.card_width + g.cols * st.gap_x
    need_h = g.rows * st.card_height + g.rows * st.gap_y
    scale = min(1.0, (W - 2 * m) / need_w, (bottom - top) / need_h)
    w, h = need_w * scale, need_h * scale
    slack = (W - 2 * m - w) / 2
    x0 = (W - w) / 2 + min(st.gap_x * scale / 2, slack)  # centre the cards when the margins leave room
    y0 = top + (bottom - top - h) / 2
    return GridFrame(x0, y0, scale, st.card_width * scale, st.card_height * scale, st.gap_x * scale, st.gap_y * scale)


def _grid(scene: Scene, layout: AllInLayout, f: GridFrame) -> None:
    st = layout.style
    g = layout.grid
    link = Paint(st.soft, width=0.5 * f.scale)  # lighter than the spaces' outlines: the spaces come first
    for pair in sorted(g.links, key=lambda p: sorted(p)):
        a, b = sorted(pair)
        ax, ay, aw, ah = f.cell_box(a)
        bx, by, _, _ = f.cell_box(b)
        if a[1] == b[1]:
            scene.add(Line(ax + aw, ay + ah / 2, bx, by + ah / 2, link))
        else:
            scene.add(Line(ax + aw / 2, ay + ah, bx + aw / 2, by, link))
    for coord, cell in sorted(g.cells.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if cell.kind == "golden":
            _golden_card(scene, layout, f, coord)
        else:
            _card_space(scene, layout, f, coord, start=cell.kind == "start")
    for hand in layout.hands.values():
        _hand_badge(scene, layout, f, hand)


def _card_space(scene: Scene, layout: AllInLayout, f: GridFrame, coord: Coord, *, start: bool) -> None:
    """One card space, designed on a 25 × 30 grid of units stretched to the space's size."""
    st = layout.style
    x, y, w, h = f.cell_box(coord)
    ux, uy = w / 25.0, h / 30.0  # mm per design unit across and down
    k = min(ux, uy)  # for sizes that must keep their shape
    name = cell_name(coord)
    scene.add(Rect(x, y, w, h, Paint(st.ink, "#ffffff", 0.4), r=1.8 * k))
    # value: the open area top-left
    scene.marks.append(MarkTarget("value", name, "", x + 1.2 * ux, y + 1.2 * uy, w - 7.6 * ux, 15.6 * uy))
    # suits to circle, in a column on the right
    sx = x + w - 3.5 * ux
    for i, suit in enumerate(SUITS):
        cy = y + (3.4 + i * 4.15) * uy
        color = st.red if suit in ("H", "D") else st.black
        scene.add(suit_path(suit, sx, cy, 2.9 * k, color))
        box = 3.9 * k
        scene.marks.append(MarkTarget("suit", name, suit, sx - box / 2, cy - box / 2, box, box))
    # separator, then the rank boxes to tick
    sep_y = y + 17.6 * uy
    scene.add(Line(x + 1.4 * ux, sep_y, x + w - 1.4 * ux, sep_y, Paint(st.dropout, width=0.25 * k)))
    pitch = (w - 2.2 * ux) / 7
    box = min(2.6 * k, pitch * 0.8)
    label_size = 4.4 * k
    for row, ranks in enumerate(RANK_ROWS):
        offset = 7 - len(ranks)  # the second row leaves the first slot for the starting dot
        label_base = y + (20.4 + row * 5.0) * uy
        box_top = label_base + 0.55 * uy
        for i, rank in enumerate(ranks):
            cx = x + 1.1 * ux + (i + offset + 0.5) * pitch
            label = RANK_LABELS[rank]
            scene.add(Text(cx, label_base, label, label_size, "bold", anchor="middle", color=st.dropout))
            scene.add(Rect(cx - box / 2, box_top, box, box, Paint(st.dropout, None, 0.25 * k), r=0.3 * k))
            scene.marks.append(MarkTarget("rank", name, label, cx - box / 2, box_top, box, box))
    if start:
        scene.add(Circle(x + 2.5 * ux, y + h - 2.5 * uy, 1.15 * k, Paint(None, st.ink)))


def _golden_card(scene: Scene, layout: AllInLayout, f: GridFrame, coord: Coord) -> None:
    st, s = layout.style, layout.strings
    k = f.scale
    x, y, w, h = f.cell_box(coord)
    card = layout.golden
    assert card.suit is not None  # the Golden Card is never a Joker (the layout refuses one)
    color = st.red if card.is_red else st.black
    scene.add(Rect(x, y, w, h, Paint(st.golden_edge, st.golden_fill, 0.8 * k), r=1.8 * k))
    scene.add(
        Rect(x + 1.3 * k, y + 1.3 * k, w - 2.6 * k, h - 2.6 * k, Paint(st.golden_edge, None, 0.25 * k), r=1.2 * k)
    )
    idx = card.rank_label
    size = 9.0 * k
    scene.add(Text(x + 3.6 * k, y + 6.0 * k, idx, size, "bold", anchor="middle", color=color))
    scene.add(suit_path(card.suit, x + 3.6 * k, y + 9.0 * k, 2.8 * k, color))
    # the same index, turned upside down, in the opposite corner
    scene.add(Text(x + w - 3.6 * k, y + h - 6.0 * k, idx, size, "bold", anchor="middle", color=color, angle=180))
    flipped = suit_path(card.suit, 0, 0, 2.8 * k, color)
    scene.add(Path_(transform_ops(flipped.ops, x + w - 3.6 * k, y + h - 9.0 * k, -1.0), flipped.paint))
    scene.add(suit_path(card.suit, x + w / 2, y + h / 2 - 1.2 * k, 10.5 * k, color))
    _golden_caption(scene, s.golden, x + w / 2, y + h / 2 + 8.6 * k, w - 11.0 * k - 0.6, st.golden_edge)


def _golden_caption(scene: Scene, caption: str, cx: float, base: float, room: float, color: str) -> bool:
    """The Golden Card's caption centred at ``cx`` from baseline ``base`` (mm), in at most ``room`` mm between the
    corner indices: on one line at :data:`MIN_TYPE` points or more, else on two lines split at a space, else left
    out (the gold space and its index say what it is). Returns False when it was left out."""
    size = fit_size(caption, 4.2 * 1.4, room, "bold", MIN_TYPE)
    if text_width(caption, size, "bold") <= room + 1e-6:
        scene.add(Text(cx, base, caption, size, "bold", anchor="middle", color=color))
        return True
    words = caption.split()
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    fitting = [p for p in splits if max(text_width(t, MIN_TYPE, "bold") for t in p) <= room + 1e-6]
    if not fitting:
        return False
    first, second = min(fitting, key=lambda p: max(text_width(t, MIN_TYPE, "bold") for t in p))
    lead = MIN_TYPE * 1.15 * PT
    scene.add(Text(cx, base - lead / 2, first, MIN_TYPE, "bold", anchor="middle", color=color))
    scene.add(Text(cx, base + lead / 2, second, MIN_TYPE, "bold", anchor="middle", color=color))
    return True


def _hand_badge(scene: Scene, layout: AllInLayout, f: GridFrame, hand: Hand) -> None:
    """A hand's badge past its last space: letter, reward icon, bonus star, and the Best Scoring Hand circle.

    Beside a row the four stand in a column (the circle under the star);
    under a column they stand in a line (the circle after the star).  The
    circle is the one the rulebook has players cross under a hand's points
    icon when they win its Best Scoring Hand (*End Game and Final Scoring*);
    it is recorded as a ``bonus_star`` mark target.
    """
    st = layout.style
    k = f.scale
    x, y, w, h = f.cell_box(hand.run.last)
    figures = 2 if hand.reward == "double" else 1
    r_circle = BONUS_CIRCLE_R * k
    if hand.run.orientation == "row":
        cx = x + w + f.gap_x / 2
        spots = ((cx, y + 4.5 * k), (cx, y + 12.5 * k), (cx, y + 20.4 * k), (cx, y + 26.8 * k))
    else:
        cy = y + h + f.gap_y / 2
        mid = x + w / 2
        spots = ((mid - 10.4 * k, cy), (mid - 2.8 * k, cy), (mid + 5.6 * k, cy), (mid + 11.9 * k, cy))
    (lx, ly), (rx, ry), (sx, sy), (ox, oy) = spots
    r = 3.0 * k
    scene.add(Circle(lx, ly, r, Paint(None, st.accent)))
    scene.add(Text(lx, ly + 1.45 * k, hand.letter, 8.5 * k, "bold", anchor="middle", color="#ffffff"))
    bx, by, bw, bh = _reward_icon(scene, rx, ry, figures, k, st)
    scene.marks.append(MarkTarget("reward", hand.letter, hand.reward, bx, by, bw, bh))
    scene.add(Path_(polygon_ops(star_points(sx, sy, 3.7 * k, 1.8 * k)), Paint(st.golden_edge, st.golden_fill, 0.3 * k)))
    number = max(MIN_TYPE, 6.4 * k)
    scene.add(
        Text(sx, sy + 1.15 * k * number / (6.4 * k), str(hand.bonus), number, "bold", anchor="middle", color=st.ink)
    )
    scene.add(Circle(ox, oy, r_circle, Paint(st.ink, "#ffffff", 0.3 * k)))
    scene.marks.append(
        MarkTarget("bonus_star", hand.letter, str(hand.bonus), ox - r_circle, oy - r_circle, 2 * r_circle, 2 * r_circle)
    )


BONUS_CIRCLE_R = 1.7
"""Radius (mm, before the grid's scale) of the Best Scoring Hand circle beside each bonus star."""


# --- chip track ------------------------------------------------------------------


def _chip_track(scene: Scene, layout: AllInLayout, x0: float, x1: float, y: float) -> None:
    """The chip track in the panel from ``x0`` to ``x1`` (mm), ``BAND_HEIGHT`` tall from ``y``.

    Circles and spent boxes are outlined in the dropout colour: clear on paper,
    faint to the photo reader, so only the player's marks count as ink.
    """
    st, s = layout.style, layout.strings
    scene.add(Rect(x0, y, x1 - x0, BAND_HEIGHT, Paint(None, st.panel), r=2.0))
    base = y + 5.0
    chips_size = fit_size(s.chips, 7.5, 40.0, "bold")
    scene.add(Text(x0 + 3.0, base, s.chips, chips_size, "bold", color=st.ink))
    help_x = x0 + 5.0 + text_width(s.chips, chips_size, "bold")
    scene.add(Text(help_x, base, s.chips_help, fit_size(s.chips_help, 6.0, x1 - 3.0 - help_x), color=st.soft))
    n = layout.chips
    avail = x1 - x0 - 6.0
    pitch = min(8.0, avail / n)
    r = min(2.6, pitch * 0.36)
    total = pitch * n
    cx0 = x0 + 3.0 + (avail - total) / 2
    for i in range(n):
        cx = cx0 + (i + 0.5) * pitch
        cy = y + 9.4
        scene.add(Circle(cx, cy, r, Paint(st.dropout, "#ffffff", 0.45)))
        scene.marks.append(MarkTarget("chip_earned", str(i + 1), "", cx - r, cy - r, 2 * r, 2 * r))
        b = r * 1.05
        top = cy + r + 1.0
        scene.add(Rect(cx - b / 2, top, b, b, Paint(st.dropout, "#ffffff", 0.4), r=0.3))
        scene.marks.append(MarkTarget("chip_spent", str(i + 1), "", cx - b / 2, top, b, b))


# --- machine reading: markers and the sheet code ------------------------------------

BAND_HEIGHT = 18.0
"""Height of the bottom band (chip track and sheet code), whose bottom is ``MARKER_INSET`` above the paper edge."""


def _machine_marks(scene: Scene, layout: AllInLayout, paper: Paper) -> None:
    """Draw the markers (corners always, mid-edges where there is room) and the sheet code.

    Records each printed marker as a mark target of kind ``marker`` (owner: its
    slot, key: its id) and the code's square as kind ``code``; the code holds the
    hash of all of them (:func:`geometry_hash`).
    """
    busy = [_bounds(item) for item in scene.items]
    cx, cy, cs = code_box(paper)
    busy.append((cx, cy, cx + cs, cy + cs))
    for marker_id, (slot, x, y) in marker_boxes(paper).items():
        q = MARKER_QUIET
        keep = (x - q, y - q, x + MARKER_SIZE + q, y + MARKER_SIZE + q)
        if len(slot) == 2 and slot[1] == "m" and any(_overlap(keep, b) for b in busy):
            continue  # a mid-edge marker only where nothing else is printed
        cell = MARKER_SIZE / 6
        cells = marker_cells(marker_id)
        squares = [(x + c * cell, y + r * cell, cell) for r in range(6) for c in range(6) if cells[r][c]]
        scene.add(Path_(squares_ops(squares), Paint(None, "#000000")))
        scene.marks.append(MarkTarget("marker", slot, str(marker_id), x, y, MARKER_SIZE, MARKER_SIZE))
    scene.marks.append(MarkTarget("code", "sheet", "", cx, cy, cs, cs))
    code = SheetCode(SHEET_FORMAT, layout.id, paper.id, geometry_hash(scene))
    matrix = code_matrix(code.text())
    module = cs / len(matrix)
    squares = [
        (cx + c * module, cy + r * module, module) for r, row in enumerate(matrix) for c, v in enumerate(row) if v
    ]
    scene.add(Path_(squares_ops(squares), Paint(None, "#000000")))


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _bounds(item) -> tuple[float, float, float, float]:
    """Bounding box ``(x0, y0, x1, y1)`` in mm of a primitive (text: from its width and size)."""
    if isinstance(item, Text):
        w = text_width(item.text, item.size, item.weight)
        h = item.size * 0.3528
        if item.angle:
            r = max(w, h)
            return (item.x - r, item.y - r, item.x + r, item.y + r)
        x0 = item.x - (w / 2 if item.anchor == "middle" else w if item.anchor == "end" else 0.0)
        return (x0, item.y - h, x0 + w, item.y + 0.3 * h)
    pad = (item.paint.width / 2) if item.paint.stroke else 0.0
    xs: Sequence[float]
    ys: Sequence[float]
    if isinstance(item, Line):
        xs, ys = (item.x1, item.x2), (item.y1, item.y2)
    elif isinstance(item, Rect):
        xs, ys = (item.x, item.x + item.w), (item.y, item.y + item.h)
    elif isinstance(item, Circle):
        xs, ys = (item.cx - item.r, item.cx + item.r), (item.cy - item.r, item.cy + item.r)
    else:
        pts = [v for op in item.ops for v in op[1:]]
        xs, ys = pts[0::2], pts[1::2]
    return (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)


# --- a filled-in sheet -------------------------------------------------------------


def fill_allin_sheet(scene: Scene, sheet, game=None) -> Scene:
    """Draw a player's marks over a blank sheet's scene, as a player would have filled it in.

    Uses the scene's mark targets: the value written in each card space,
    its rank ticked and its suit circled, chip circles filled for chips earned
    and spent boxes ticked, the hand points, chips left and total written, and
    the Best Scoring Hand circles crossed for the bonuses won.

    Args:
        scene: a scene made by :func:`build_allin_sheet` for ``sheet.layout``.
        sheet: a :class:`generator.games.allin.filled.FilledSheet`.
        game: the :class:`GameScore` the sheet belongs to (default: the sheet scored alone).

    Returns:
        the same scene, with the marks added.
    """
    from generator.games.allin.scoring import score_game

    game = game or score_game([sheet])
    score = next(p for p in game.players if p.player == sheet.player)
    marks: dict[tuple[str, str, str], MarkTarget] = {(m.kind, m.owner, m.key): m for m in scene.marks}
    pencil = Paint(PENCIL, None, 0.45)
    for coord, card in sheet.cards.items():
        name = cell_name(coord)
        value = marks[("value", name, "")]
        size = min(value.h * 0.62 / 0.3528 / 0.73, 30.0)
        scene.add(
            Text(value.x + value.w * 0.42, value.y + value.h * 0.78, card.rank_label, size, "italic", "middle", PENCIL)
        )
        rank = marks[("rank", name, card.rank_label)]
        _tick(scene, rank, pencil)
        suit = marks[("suit", name, card.suit)]
        scene.add(Circle(suit.x + suit.w / 2, suit.y + suit.h / 2, suit.w * 0.62, pencil))
    for i in range(1, sheet.chips_earned + 1):
        chip = marks.get(("chip_earned", str(i), ""))
        if chip:
            scene.add(Circle(chip.x + chip.w / 2, chip.y + chip.h / 2, chip.w * 0.36, Paint(None, PENCIL)))
    for i in range(1, sheet.chips_spent + 1):
        box = marks.get(("chip_spent", str(i), ""))
        if box:
            _tick(scene, box, pencil)
    for letter, hand in score.hands.items():
        box = marks[("points", letter, "")]
        scene.add(Text(box.x + box.w / 2, box.y + box.h * 0.78, str(hand.points), 11, "italic", "middle", PENCIL))
        if hand.bonus:  # the circle by the hand's star on the grid
            for circle in (m for m in scene.marks if m.kind == "bonus_star" and m.owner == letter):
                _cross(scene, circle, pencil)
    for kind, value in (("chips_left", score.chips_left), ("total", score.total)):
        box = marks[(kind, "sheet", "")]
        scene.add(Text(box.x + box.w / 2, box.y + box.h * 0.68, str(value), 16, "italic", "middle", PENCIL))
    player = marks[("player", "sheet", "")]
    scene.add(Text(player.x + 3.0, player.y + player.h * 0.8, sheet.player, 12, "italic", "start", PENCIL))
    return scene


def _tick(scene: Scene, box: MarkTarget, paint: Paint) -> None:
    x, y, w, h = box.x, box.y, box.w, box.h
    scene.add(
        Path_(
            (("M", x + 0.15 * w, y + 0.55 * h), ("L", x + 0.42 * w, y + 0.85 * h), ("L", x + 0.95 * w, y - 0.1 * h)),
            Paint(paint.stroke, None, paint.width),
        )
    )


def _cross(scene: Scene, box: MarkTarget, paint: Paint) -> None:
    x, y, w, h = box.x, box.y, box.w, box.h
    scene.add(Line(x - 0.1 * w, y - 0.1 * h, x + 1.1 * w, y + 1.1 * h, paint))
    scene.add(Line(x + 1.1 * w, y - 0.1 * h, x - 0.1 * w, y + 1.1 * h, paint))
