"""Synthetic phone photos of filled Flip 7 tick pads, for tests and the photo benchmark.

The pad is drawn blank from its layout (markers and code included), a player's ticks are
drawn on it as people draw them — the same hands as for All In sheets
(:class:`~tests.synth.sheet_photos.HandStyle`: ticks or crosses, pencil to felt pen,
sloppiness) — the scores and totals are written by hand in their columns, and the page
is photographed with the same camera, light and faults (:func:`tests.synth.sheet_photos.photograph`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from generator.printing.paper import Paper
from generator.printing.scene import MarkTarget, Scene
from tests.synth.sheet_photos import (
    HandStyle,
    PhotoParams,
    _box_mark,
    _erased,
    _Ink,
    cached_page,
    photograph,
    random_style,
    realistic_params,
)


@dataclass
class SynthTickPhoto:
    """A synthetic photo of a tick pad: JPEG bytes, how it was taken and drawn, and the rows ticked
    (``rows[r]``: the tick keys of round ``r + 1``, as :data:`generator.games.pads.TICKS` names them)."""

    jpeg: bytes
    params: PhotoParams
    style: HandStyle
    rows: list[list[str]]
    homography: np.ndarray


def blank_pad_page(pad, paper: Paper, dpi: int) -> tuple[Scene, np.ndarray]:
    """The blank pad's scene and its page rendered at ``dpi``: ``(H, W, 3)`` float32 RGB in 0–1 (cached)."""
    from generator.games.pads import build_pad

    key = (pad.id, pad.source, pad.variant.target, pad.variant.flip7_bonus, paper.id)
    return cached_page(key, lambda: build_pad(pad, paper), dpi)


def draw_ticks(
    page: np.ndarray,
    scene: Scene,
    rows: list[list[str]],
    style: HandStyle,
    rng: random.Random,
    dpi: int,
    *,
    scores: list[int] | None = None,
    player: str = "",
    erased: list[tuple[int, str, float]] = (),
) -> np.ndarray:
    """Draw ``rows`` of ticks (and each round's score and running total when given) on a copy of ``page``.

    Args:
        erased: ``(round, tick key, residue)``: a tick made, then rubbed out leaving ``residue`` (0–1) of it.
    """
    page = page.copy()
    ink = _Ink(page, dpi, style.pen, rng)
    marks = {(m.kind, m.owner, m.key): m for m in scene.marks}
    for r, key, residue in erased:
        t = marks[("tick", f"round{r}", key)]
        _erased(
            page, dpi, style, rng, MarkTarget("rank", t.owner, t.key, t.x, t.y, t.w, t.h), residue
        )  # drawn as a box mark
    total = 0
    for r, keys in enumerate(rows, start=1):
        for key in keys:
            _box_mark(ink, marks[("tick", f"round{r}", key)], style, rng)
        if scores is not None and r <= len(scores):
            total += scores[r - 1]
            for what, value in (("score", scores[r - 1]), ("total", total)):
                box = marks[("write", f"round{r}", what)]
                ink.text(box.x + box.w * 0.15, box.y + box.h * 0.75, str(value), box.h * 0.55, max_width=box.w * 0.8)
    if player:
        name = marks.get(("name", "player", ""))
        if name is not None:
            ink.text(name.x + 3.0, name.y + name.h * 0.8, player, 4.5)
    return page


def synth_tick_photo(
    pad,
    rows: list[list[str]],
    paper: Paper,
    seed: int | str,
    *,
    params: PhotoParams | None = None,
    style: HandStyle | None = None,
    dpi: int = 300,
    scores: list[int] | None = None,
    player: str = "",
    erased: list[tuple[int, str, float]] = (),
) -> SynthTickPhoto:
    """A synthetic phone photo of a tick pad with ``rows`` ticked (see :func:`draw_ticks`), seeded like
    :func:`tests.synth.sheet_photos.synth_photo`: everything random comes from ``seed``."""
    rng = random.Random(f"synth-tick:{seed}")
    style = style or random_style(rng)
    params = params or realistic_params(rng)
    scene, blank = blank_pad_page(pad, paper, dpi)
    page = draw_ticks(blank, scene, rows, style, rng, dpi, scores=scores, player=player, erased=erased)
    del blank
    shown = Paper(paper.id, scene.width, scene.height, paper.label)  # the page as it lies (landscape)
    jpeg, H = photograph(page, shown, params, rng, dpi)
    return SynthTickPhoto(jpeg, params, style, rows, H)
