"""Score pads and ledgers: Flip 7 score pad and tick pad, All In (Fundex) chip ledger, Flip Flop pot ledger.

Layout files (``layouts/pads/<id>.yaml``):

```yaml
kind: pad                 # pad | tick-pad | ledger
game: flip7               # flip7 (pad, tick-pad) | fundex | flipflop (ledger)
id: flip7-pad             # defaults to the file name
name: "Flip 7 score pad, 3-6 players"
orientation: portrait     # portrait | landscape
players: 6                # columns of players (Flip 7: 1 to 36; beyond 18, more pages)
rounds: 16                # rows
variant: {target: 200, flip7_bonus: 15}   # flip7 only; printed in the header
```

Every drawing records its write-in boxes and tick boxes as mark targets.
A Flip 7 score pad of more than 18 players (19 to 36 play with two decks)
is drawn on several pages, the players shared out evenly, numbered on from
page to page; a pad of 1 or 2 players is drawn with a warning (the game is
made for 3 to 18).

Every printed word comes from the message catalogue of the language drawn
(section ``pads`` of ``templates/lang/<code>.yaml``, :mod:`generator.printing.i18n`);
mark targets keep language-free keys (``round3:total``, ``BUST``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from generator.core.errors import Problem
from generator.core.models import StrictModel, validate
from generator.core.yamlpos import Document
from generator.games.flip7.rules import MAX_PLAYERS as FLIP7_MAX_PLAYERS
from generator.games.flip7.rules import PLAYERS_PER_DECK, player_count_warnings
from generator.printing.faces import FLIP7_COLORS
from generator.printing.i18n import Messages, messages
from generator.printing.paper import Paper
from generator.printing.readable import KEEP_CLEAR, add_machine_marks, is_turned, reserved_boxes
from generator.printing.scene import Line, MarkTarget, Paint, Rect, Scene, Text, cap_height, fit_size, text_width
from generator.printing.text import ComponentHeader

INK, SOFT, ACCENT, PANEL, DROPOUT = "#1d2b45", "#6b7a99", "#b8332e", "#eef2f8", "#8fb3de"
MARGIN = 10.0
PLAYERS_PER_PAGE = PLAYERS_PER_DECK
"""A Flip 7 score pad page holds at most 18 players; more players take more pages."""


class Variant(StrictModel):
    """Flip 7 variant printed on the pad: the target score and the Flip 7 bonus."""

    target: int = Field(default=200, ge=50, le=1000, strict=True)
    flip7_bonus: int = Field(default=15, ge=0, le=100, strict=True)


class PadSpec(ComponentHeader):
    """A pad or ledger file as written."""

    kind: Literal["pad", "tick-pad", "ledger"]
    game: Literal["flip7", "fundex", "flipflop"]
    orientation: Literal["portrait", "landscape"] = "portrait"
    players: int = Field(default=6, ge=1, le=FLIP7_MAX_PLAYERS, strict=True)
    rounds: int = Field(default=16, ge=1, le=30, strict=True)
    variant: Variant = Variant()

    @model_validator(mode="after")
    def _fits_the_game(self) -> "PadSpec":
        if self.kind in ("pad", "tick-pad") and self.game != "flip7":
            raise ValueError(f"a {self.kind} is for game flip7; use kind: ledger for {self.game}")
        if self.kind == "ledger" and self.game == "flip7":
            raise ValueError("Flip 7 uses kind: pad or tick-pad")
        limits = {"flip7": (1, FLIP7_MAX_PLAYERS), "fundex": (2, 4), "flipflop": (3, 5)}[self.game]
        if self.kind != "tick-pad" and not limits[0] <= self.players <= limits[1]:
            raise ValueError(f"{self.game} is played by {limits[0]} to {limits[1]} players, not {self.players}")
        return self


@dataclass
class Pad:
    """A validated pad or ledger layout."""

    id: str
    kind: str
    game: str
    name: str
    description: str
    orientation: str
    players: int
    rounds: int
    variant: Variant
    source: str = ""
    warnings: list[Problem] = field(default_factory=list)


def pad_from_document(doc: Document, path: Path) -> Pad:
    """Validate a parsed pad or ledger file.

    Raises:
        InputError: located problems.
    """
    spec = validate(PadSpec, doc)
    warnings = []
    if spec.kind == "pad" and spec.game == "flip7":
        warnings = [doc.problem(("players",), m, severity="warning") for m in player_count_warnings(spec.players)]
    return Pad(
        spec.id or path.stem,
        spec.kind,
        spec.game,
        spec.name,
        spec.description,
        spec.orientation,
        spec.players,
        spec.rounds,
        spec.variant,
        doc.file,
        warnings,
    )


def with_variant(pad: Pad, target: int | None = None, flip7_bonus: int | None = None) -> Pad:
    """The pad with its variant overridden (the ``--variant`` option)."""
    v = pad.variant
    return replace(
        pad,
        variant=Variant(
            target=target if target is not None else v.target,
            flip7_bonus=flip7_bonus if flip7_bonus is not None else v.flip7_bonus,
        ),
    )


def page_players(pad: Pad) -> list[range]:
    """The player numbers (1-based) on each page: one page up to 18 players; beyond, the players shared out
    evenly over as few pages as hold 18 each (36 players: 1–18 and 19–36; 24 players: 1–12 and 13–24)."""
    pages = -(-pad.players // PLAYERS_PER_PAGE) if pad.kind == "pad" else 1
    sizes = [pad.players // pages + (1 if i < pad.players % pages else 0) for i in range(pages)]
    out, first = [], 1
    for size in sizes:
        out.append(range(first, first + size))
        first += size
    return out


def describe_pad(pad: Pad) -> tuple[str, str]:
    """A pad's name and a one-line summary: ``(NAME, "flip7 score pad, portrait, 6 players, 16 rounds")``."""
    what = {"pad": "score pad", "tick-pad": "tick pad", "ledger": "ledger"}[pad.kind]
    who = "one player" if pad.players == 1 else f"{pad.players} players"
    pages = len(page_players(pad))
    who += f" on {pages} pages" if pages > 1 else ""
    return pad.name, f"{pad.game} {what}, {pad.orientation}, {who}, {pad.rounds} rounds"


def build_pad_pages(pad: Pad, paper: Paper, lang: str = "en") -> list[Scene]:
    """Draw a pad or ledger on ``paper`` in ``lang``: one scene per page (:func:`page_players`)."""
    groups = page_players(pad)
    return [build_pad(pad, paper, players=g, page=(i + 1, len(groups)), lang=lang) for i, g in enumerate(groups)]


def build_pad(
    pad: Pad, paper: Paper, *, players: range | None = None, page: tuple[int, int] = (1, 1), lang: str = "en"
) -> Scene:
    """Draw one page of a pad or ledger on ``paper`` (turned for landscape) and return the scene.

    ``players`` are the player numbers on this page (default: all, 1 to
    ``pad.players``); ``page`` is ``(this page, pages)``, shown in the header
    and the footer when there is more than one; ``lang`` the language of
    every printed word.

    Raises:
        SheetsmithError: no message catalogue for ``lang``.
    """
    t = messages(lang)
    players = players if players is not None else range(1, pad.players + 1)
    W, H = (paper.height, paper.width) if pad.orientation == "landscape" else (paper.width, paper.height)
    page_text = t("pads.page", page=page[0], pages=page[1])
    scene = Scene(W, H, title=pad.name if page[1] == 1 else f"{pad.name}, {page_text}")
    readable = (
        pad.kind == "tick-pad"
    )  # read from photos: corner markers and the sheet code (generator.printing.readable)
    y = _header(scene, pad, W, players, page, t, inset=KEEP_CLEAR if readable else MARGIN)
    if pad.kind == "pad":
        _score_pad(scene, pad, W, H, y, players, t)
    elif pad.kind == "tick-pad":
        _tick_pad(scene, pad, paper, W, H, y, t)
    elif pad.game == "fundex":
        _fundex_ledger(scene, pad, W, H, y, t)
    else:
        _flipflop_ledger(scene, pad, W, H, y, t)
    footer = f"sheetsmith · {pad.id} · {paper.label}" + (f" · {page_text}" if page[1] > 1 else "")
    scene.add(Text(W - MARGIN, H - MARGIN + 5.0, footer, 5.0, color=SOFT, anchor="end"))
    scene.keep_text_inside(MARGIN, W - MARGIN)
    if readable:
        add_machine_marks(scene, pad.id, paper, (pad.variant.target, pad.variant.flip7_bonus))
    return scene


def _header(
    scene: Scene, pad: Pad, W: float, players: range, page: tuple[int, int], t: Messages, inset: float = MARGIN
) -> float:
    """The title, the rules line and (Flip 7) the target box; ``inset`` mm from the left and right edges
    (more than the margin where corner markers stand). Returns where the content below starts."""
    y = MARGIN
    title = t(f"pads.title_{pad.game}")
    right = W - inset - (34.0 if pad.game == "flip7" else 0.0)  # the target box, top right
    title_size = fit_size(title, 20, (right - inset) * 0.4, "bold")
    scene.add(Text(inset, y + 8, title, title_size, "bold", color=ACCENT))
    sub = t(
        {
            ("pad", "flip7"): "pads.score_pad",
            ("tick-pad", "flip7"): "pads.tick_pad",
            ("ledger", "fundex"): "pads.fundex_ledger",
            ("ledger", "flipflop"): "pads.flipflop_ledger",
        }[(pad.kind, pad.game)]
    )
    x = inset + text_width(title, title_size, "bold") + 4
    where = t("pads.page_players", page=page[0], pages=page[1], first=players[0], last=players[-1], players=pad.players)
    where_w = text_width(where, 9, "bold") + 4 if page[1] > 1 else 0.0
    sub_size = fit_size(sub, 11, right - x - where_w, "bold")
    scene.add(Text(x, y + 8, sub, sub_size, "bold", color=INK))
    if page[1] > 1:
        x += text_width(sub, sub_size, "bold") + 4
        scene.add(Text(x, y + 8, where, fit_size(where, 9, right - x, "bold"), "bold", color=SOFT))
    if pad.game == "flip7":
        v = pad.variant
        note = t("pads.flip7_rules", target=v.target, bonus=v.flip7_bonus)
        if pad.kind == "pad" and pad.players > PLAYERS_PER_DECK:
            note += " · " + t("pads.two_decks")
        scene.add(Text(inset, y + 13.5, note, fit_size(note, 7, W - 2 * inset - 40), color=SOFT))
        # the target, boxed, top right
        target = t("pads.target")
        scene.add(Rect(W - inset - 30, y, 30, 11, Paint(ACCENT, "#ffffff", 0.6), r=1.5))
        scene.add(Text(W - inset - 15, y + 4.0, target, fit_size(target, 5.5, 27, "bold"), "bold", "middle", ACCENT))
        scene.add(Text(W - inset - 15, y + 9.6, str(v.target), 11, "bold", "middle", ACCENT))
    else:
        note = t(f"pads.{pad.game}_rules")
        scene.add(Text(MARGIN, y + 13.5, note, fit_size(note, 7, W - 2 * MARGIN), color=SOFT))
    return y + 18.0


def _grid(scene: Scene, x: float, y: float, widths: list[float], heights: list[float], paint: Paint) -> None:
    """Lines of a table with the given column widths and row heights, from ``(x, y)``."""
    total_w, total_h = sum(widths), sum(heights)
    cx = x
    for w in [0.0] + widths:
        cx += w
        scene.add(Line(cx, y, cx, y + total_h, paint))
    cy = y
    for h in [0.0] + heights:
        cy += h
        scene.add(Line(x, cy, x + total_w, cy, paint))


def _player_table(
    scene: Scene,
    W: float,
    H: float,
    y: float,
    players: int,
    rounds: int,
    subs: list[str],
    t: Messages,
    label_w: float = 9.0,
    extra: Sequence[tuple[str, float]] = (),
    owner: str = "",
    first: int = 1,
    labels: dict[str, str] | None = None,
) -> tuple[float, float, float]:
    """A table: a round column, optional extra columns, then for each player a name box over sub-columns.

    ``players`` columns, numbered from ``first``.  ``subs`` and the titles of
    ``extra`` are keys (mark targets keep them); ``labels`` maps each to the
    word printed (default: the key itself).  Returns ``(x0, row_top, row_h)``:
    where the rows start and their height.
    """
    labels = labels or {}
    x0 = MARGIN
    avail_w = W - 2 * MARGIN - label_w - sum(w for _, w in extra)
    col_w = avail_w / (players * len(subs))
    name_h, sub_h = 9.0, 5.0
    row_top = y + name_h + sub_h
    row_h = min(12.0, (H - MARGIN - 6.0 - row_top) / (rounds + 1))
    # header: name boxes and sub titles
    scene.add(Rect(x0, y, W - 2 * MARGIN, name_h + sub_h, Paint(None, PANEL)))
    round_word = t("pads.round")
    scene.add(
        Text(
            x0 + label_w / 2,
            y + name_h + sub_h - 1.5,
            round_word,
            fit_size(round_word, 6, label_w - 1, "bold"),
            "bold",
            "middle",
            INK,
        )
    )
    x = x0 + label_w
    for key, w in extra:
        title = labels.get(key, key)
        scene.add(
            Text(x + w / 2, y + name_h + sub_h - 1.5, title, fit_size(title, 6, w - 1, "bold"), "bold", "middle", INK)
        )
        x += w
    for p in range(players):
        px = x + p * col_w * len(subs)
        pw = col_w * len(subs)
        scene.add(Rect(px + 0.8, y + 0.8, pw - 1.6, name_h - 1.6, Paint(SOFT, "#ffffff", 0.3), r=1.0))
        who = t("pads.player_n", n=first + p)
        scene.add(Text(px + 1.8, y + 3.4, who, fit_size(who, 4.2, pw - 3.6), color=SOFT))
        scene.marks.append(MarkTarget("name", f"player{first + p}", "", px + 0.8, y + 0.8, pw - 1.6, name_h - 1.6))
        for k, sub in enumerate(subs):
            sx = px + k * col_w
            word = labels.get(sub, sub)
            scene.add(
                Text(
                    sx + col_w / 2,
                    y + name_h + sub_h - 1.5,
                    word,
                    fit_size(word, 5.5, col_w - 0.8, "bold"),
                    "bold",
                    "middle",
                    SOFT,
                )
            )
    widths = [label_w] + [w for _, w in extra] + [col_w] * (players * len(subs))
    heights = [row_h] * rounds
    for r in range(rounds):
        ry = row_top + r * row_h
        if r % 2:
            scene.add(Rect(x0, ry, sum(widths), row_h, Paint(None, "#f7f9fc")))
        scene.add(
            Text(
                x0 + label_w / 2,
                ry + row_h / 2 + 1.4,
                str(r + 1),
                fit_size(str(r + 1), 8, label_w - 1),
                "bold",
                "middle",
                INK,
            )
        )
        for p in range(players):
            for k, sub in enumerate(subs):
                sx = x + (p * len(subs) + k) * col_w
                scene.marks.append(
                    MarkTarget("write", f"player{first + p}", f"round{r + 1}:{sub}", sx, ry, col_w, row_h)
                )
    _grid(scene, x0, row_top, widths, heights, Paint("#c5cedd", width=0.25))
    # heavier lines between players
    for p in range(players + 1):
        px = x + p * col_w * len(subs)
        scene.add(Line(px, y, px, row_top + rounds * row_h, Paint(INK, width=0.5)))
    scene.add(Rect(x0, y, sum(widths), row_top - y + rounds * row_h, Paint(INK, None, 0.6)))
    return x0, row_top, row_h


def _score_pad(scene: Scene, pad: Pad, W: float, H: float, y: float, players: range, t: Messages) -> None:
    narrow = (W - 2 * MARGIN - 9.0) / (2 * len(players)) < 10.0
    subs = ["pts", "total"] if narrow else ["round", "total"]
    labels = {"pts": t("pads.round_score_short"), "round": t("pads.round_score"), "total": t("pads.total")}
    x0, top, row_h = _player_table(scene, W, H, y, len(players), pad.rounds, subs, t, first=players[0], labels=labels)
    note = t("pads.score_note", bonus=pad.variant.flip7_bonus)
    if len(players) < pad.players:
        note += " · " + t("pads.pages_note")
    scene.add(Text(MARGIN, top + pad.rounds * row_h + 5.0, note, fit_size(note, 6.5, W - 2 * MARGIN), color=SOFT))


TICKS = [str(n) for n in range(13)] + ["×2", "+2", "+4", "+6", "+8", "+10", "BUST"]
"""The tick boxes of one round on the tick pad: every number, every modifier, and bust."""


def _tick_pad(scene: Scene, pad: Pad, paper: Paper, W: float, H: float, y: float, t: Messages) -> None:
    """The tick pad's table. It keeps clear of the corner markers and the sheet code
    (:func:`generator.printing.readable.reserved_boxes`): the table stops short of the code's
    column on the right, and above the bottom markers."""
    left = KEEP_CLEAR
    player = t("pads.player")  # up to 20 mm of label, ending where the name line starts in every language
    scene.add(Text(left + 20.0, y + 3.5, player, fit_size(player, 7, 20.0, "bold"), "bold", "end", INK))
    scene.add(Line(left + 22.0, y + 4.0, left + 100.0, y + 4.0, Paint(INK, width=0.3)))
    scene.marks.append(MarkTarget("name", "player", "", left + 22.0, y - 2.0, 78.0, 6.0))
    y += 8.0
    # the right edge: left of the code (and of the markers) wherever they share the table's height
    reserved = reserved_boxes(paper, is_turned(paper, scene))
    table_right = min([W - MARGIN] + [b[0] - 1.0 for b in reserved if b[0] > W / 2 and b[1] < H / 2 and b[3] > y])
    table_bottom = min([H - MARGIN - 8.0] + [b[1] - 7.0 for b in reserved if b[1] > H / 2])
    label_w, score_w, total_w = 9.0, 14.0, 16.0
    box_area = table_right - MARGIN - label_w - score_w - total_w
    pitch = box_area / len(TICKS)
    head_h = 6.0
    row_h = min(11.0, (table_bottom - y - head_h) / pad.rounds)
    scene.add(Rect(MARGIN, y, table_right - MARGIN, head_h, Paint(None, PANEL)))
    round_word = t("pads.round")
    scene.add(
        Text(
            MARGIN + label_w / 2,
            y + 4.3,
            round_word,
            fit_size(round_word, 5.5, label_w - 1, "bold"),
            "bold",
            "middle",
            INK,
        )
    )
    for k, tick in enumerate(TICKS):
        cx = MARGIN + label_w + (k + 0.5) * pitch
        word = t("pads.bust") if tick == "BUST" else tick
        if tick.isdigit():  # a number: white on the colour its cards are printed in
            size = fit_size(word, 7, pitch - 1.4, "bold")
            fill = Paint(None, FLIP7_COLORS[int(tick)])
            scene.add(Rect(cx - pitch / 2 + 0.3, y + 0.5, pitch - 0.6, head_h - 1.0, fill, r=0.8))
            scene.add(Text(cx, y + head_h / 2 + cap_height(size) / 2, word, size, "bold", "middle", "#ffffff"))
        else:
            color = ACCENT if tick == "BUST" else "#7a5c00"
            scene.add(Text(cx, y + 4.3, word, fit_size(word, 7, pitch - 0.6, "bold"), "bold", "middle", color))
    sx = MARGIN + label_w + box_area
    for word, cx, w in (
        (t("pads.score"), sx + score_w / 2, score_w),
        (t("pads.total"), sx + score_w + total_w / 2, total_w),
    ):
        scene.add(Text(cx, y + 4.3, word, fit_size(word, 6, w - 1, "bold"), "bold", "middle", INK))
    top = y + head_h
    box = min(pitch * 0.62, row_h * 0.55, 5.0)
    for r in range(pad.rounds):
        ry = top + r * row_h
        if r % 2:
            scene.add(Rect(MARGIN, ry, table_right - MARGIN, row_h, Paint(None, "#f7f9fc")))
        scene.add(Text(MARGIN + label_w / 2, ry + row_h / 2 + 1.4, str(r + 1), 8, "bold", "middle", INK))
        for k, tick in enumerate(TICKS):
            cx = MARGIN + label_w + (k + 0.5) * pitch
            cy = ry + row_h / 2
            color = ACCENT if tick == "BUST" else DROPOUT
            scene.add(Rect(cx - box / 2, cy - box / 2, box, box, Paint(color, None, 0.35), r=0.4))
            scene.marks.append(MarkTarget("tick", f"round{r + 1}", tick, cx - box / 2, cy - box / 2, box, box))
        scene.marks.append(MarkTarget("write", f"round{r + 1}", "score", sx, ry, score_w, row_h))
        scene.marks.append(MarkTarget("write", f"round{r + 1}", "total", sx + score_w, ry, total_w, row_h))
    _grid(scene, MARGIN, top, [label_w, box_area, score_w, total_w], [row_h] * pad.rounds, Paint("#c5cedd", width=0.25))
    scene.add(Rect(MARGIN, y, table_right - MARGIN, head_h + pad.rounds * row_h, Paint(INK, None, 0.6)))
    # separators: numbers | modifiers | bust
    for k in (13, 19):
        lx = MARGIN + label_w + k * pitch
        scene.add(Line(lx, y, lx, top + pad.rounds * row_h, Paint(INK, width=0.4)))
    note = t("pads.tick_note", bust=t("pads.bust"))
    scene.add(Text(left, top + pad.rounds * row_h + 5.0, note, fit_size(note, 6.5, W - 2 * left), color=SOFT))


def _fundex_ledger(scene: Scene, pad: Pad, W: float, H: float, y: float, t: Messages) -> None:
    x0, top, row_h = _player_table(
        scene,
        W,
        H,
        y,
        pad.players,
        10,
        ["card", "bet", "chips"],
        t,
        extra=[("dice", 9.0), ("roll", 10.0), ("pot", 12.0)],
        labels=t.section("pads.fundex"),
    )
    note = t("pads.fundex.note")
    scene.add(Text(MARGIN, top + 10 * row_h + 5.0, note, fit_size(note, 6.5, W - 2 * MARGIN), color=SOFT))


def _flipflop_ledger(scene: Scene, pad: Pad, W: float, H: float, y: float, t: Messages) -> None:
    x0, top, row_h = _player_table(
        scene,
        W,
        H,
        y,
        pad.players,
        pad.rounds,
        ["won", "stakes"],
        t,
        extra=[("up_card", 12.0), ("game", 12.0), ("flip", 12.0), ("flop", 12.0)],
        labels=t.section("pads.flipflop"),
    )
    note = t("pads.flipflop.note")
    scene.add(Text(MARGIN, top + pad.rounds * row_h + 5.0, note, fit_size(note, 6.5, W - 2 * MARGIN), color=SOFT))
