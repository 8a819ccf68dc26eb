"""Typed-in Flip 7 pads drawn on the printed score pad and tick pad, as players fill them in.

The drawing uses only the blank pad's mark targets (name boxes, write-in boxes,
tick boxes: :mod:`generator.games.pads` records them), so it follows any
change to the pad's geometry.  What is drawn is what the player wrote: the
score written on a line where the file gives one (even a wrong one: the
drawing shows the paper, ``verify`` checks it), else the score of the line's
cards (0 for a bust), and the running totals of those.

* Score pad: the players' names over their columns (on whichever page of
  the pad holds the column), then per round each player's round score and
  running total.  Rounds past the pad's last row continue on another copy of
  the pad, totals carried.
* Tick pad (one per player): a page per player, the name on the line, per
  round the cards ticked (numbers, modifiers, BUST), the score and the total.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from generator.core.errors import SheetsmithError
from generator.printing.draw import PENCIL
from generator.printing.scene import MarkTarget, Paint, Path_, Scene, Text

if TYPE_CHECKING:  # pragma: no cover
    from generator.games.flip7.pad import Pad as TypedPad

HAND = Paint(PENCIL, None, 0.4)


def _marks(scene: Scene) -> dict[tuple[str, str, str], MarkTarget]:
    return {(m.kind, m.owner, m.key): m for m in scene.marks}


def _write(scene: Scene, box: MarkTarget, text: str, *, start: bool = False) -> None:
    """Handwriting in a box: italic, sized to the box, centred (or from the left edge with ``start``)."""
    size = min(box.h * 0.62 / 0.3528, 12.0)
    width_pt = len(text) * size * 0.55 * 0.3528
    if width_pt > box.w * 0.9:
        size *= box.w * 0.9 / width_pt
    y = box.y + box.h * 0.72
    if start:  # a name: low in its box, clear of the box's small printed label
        scene.add(Text(box.x + 3.0, box.y + box.h * 0.86, text, size * 0.85, "italic", "start", PENCIL))
    else:
        scene.add(Text(box.x + box.w / 2, y, text, size, "italic", "middle", PENCIL))


def _tick(scene: Scene, box: MarkTarget) -> None:
    x, y, w, h = box.x, box.y, box.w, box.h
    scene.add(
        Path_(
            (("M", x + 0.15 * w, y + 0.55 * h), ("L", x + 0.42 * w, y + 0.85 * h), ("L", x + 0.95 * w, y - 0.1 * h)),
            HAND,
        )
    )


def _scores(pad: "TypedPad") -> list[dict[str, int]]:
    """Each round's score as the player wrote it on the pad: the written score where the file gives one
    (right or wrong: ``verify`` is what checks it), else the score of the line's cards (0 for a bust)."""
    from generator.games.flip7.pad import pad_report

    counted = pad_report(pad)["rounds"]
    return [
        {name: (line.written if line.written is not None else row[name]) for name, line in lines.items()}
        for lines, row in zip(pad.rounds, counted)
    ]


def fill_score_pad(blank: list[Scene], pad: "TypedPad") -> list[Scene]:
    """The blank score pad's pages filled with the typed-in pad; the whole pad again for rounds past its last row.

    ``blank`` is every page of the pad (a 36-player pad has players 1-18 on one page and
    19-36 on the next); each player is written on the page that has their column.

    Raises:
        SheetsmithError: more players than the pad has columns (name the larger pad to use).
    """
    where = {m.owner: n for n, page in enumerate(blank) for m in page.marks if m.kind == "name"}
    marks = [_marks(page) for page in blank]
    if len(pad.players) > len(where):
        raise SheetsmithError(
            f"{pad.file}: {len(pad.players)} players, but this pad has {len(where)} columns; "
            "use flip7-pad-18 (up to 18 players) or flip7-pad-36 (up to 36)"
        )
    first_page = marks[where["player1"]]
    subs = [
        key.split(":", 1)[1]
        for (kind, owner, key) in first_page
        if kind == "write" and owner == "player1" and key.startswith("round1:")
    ]
    rows = sum(
        1
        for (kind, owner, key) in first_page
        if kind == "write" and owner == "player1" and key.endswith(":" + subs[-1])
    )
    scores = _scores(pad)
    totals = {p: 0 for p in pad.players}
    out = []
    for first in range(0, max(len(scores), 1), rows):
        pages = copy.deepcopy(blank)
        for k, name in enumerate(pad.players, start=1):
            n = where[f"player{k}"]
            _write(pages[n], marks[n][("name", f"player{k}", "")], name, start=True)
            for r, row in enumerate(scores[first : first + rows], start=1):
                totals[name] += row[name]
                _write(pages[n], marks[n][("write", f"player{k}", f"round{r}:{subs[0]}")], str(row[name]))
                _write(pages[n], marks[n][("write", f"player{k}", f"round{r}:{subs[-1]}")], str(totals[name]))
        out.extend(pages)
    return out


TICK_OF_MODIFIER = {"x2": "×2"}
"""Typed-in card → tick box label where they differ (numbers are their digits, +N modifiers the same)."""


def fill_tick_pads(scene: Scene, pad: "TypedPad") -> list[Scene]:
    """One filled tick pad per player (more when the game has more rounds than rows), in player order.

    ``scene`` is the blank tick pad (one page).
    """
    marks = _marks(scene)
    rows = sum(1 for m in scene.marks if m.kind == "write" and m.key == "score")
    scores = _scores(pad)
    pages = []
    for name in pad.players:
        total = 0
        for first in range(0, max(len(scores), 1), rows):
            page = copy.deepcopy(scene)
            if ("name", "player", "") in marks:
                _write(page, marks[("name", "player", "")], name, start=True)
            for r, (line, row) in enumerate(
                zip(pad.rounds[first : first + rows], scores[first : first + rows]), start=1
            ):
                owner = f"round{r}"
                score_line = line[name]
                ticks = (
                    ["BUST"]
                    if score_line.bust
                    else [TICK_OF_MODIFIER.get(str(c), str(c)) for c in score_line.cards or ()]
                )
                for t in ticks:
                    box = marks.get(("tick", owner, t))
                    if box is not None:
                        _tick(page, box)
                total += row[name]
                _write(page, marks[("write", owner, "score")], str(row[name]))
                _write(page, marks[("write", owner, "total")], str(total))
            pages.append(page)
    return pages
