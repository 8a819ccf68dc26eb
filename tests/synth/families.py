"""Named families of synthetic photos, each one kind of fault, for the benchmark and the tests.

A family turns a seed into a :class:`Case`: a finished sheet (a bot's game on a
shipped layout, or a sheet built to stress the decisions), how it is marked and
photographed, and what the reader must do with it.  The faults are made the way
physics makes them (:mod:`.synth_camera`): a shadow multiplies the light, glare
adds it, an eraser leaves part of the graphite, a folded screen stands up in
3-D in front of a pinhole camera.

Families: ``realistic`` (the everyday mix), ``hard-<case>`` (small frames, steep
tilt, low JPEG quality, a page printed at 94 %), ``shadow``, ``glare``, ``erased``,
``outside`` (a strip of the sheet outside the photo, read with ``--layout``),
``two-sheets``, ``dominant-suit``, ``dominant-rank``, ``full``, ``nearly-empty``,
``fold`` (5–20°), ``fold-steep`` (20–35°), ``curl`` (gentle), ``curl-strong``.

Home conditions: ``other-hands`` (boxes ticked, crossed, slashed, dashed or filled in; circles loose, open or
overshooting; values large), ``steep`` (45–60° off the page), ``dim-room`` (a warm lamp, high-ISO noise, 3–8 px of
hand shake), ``recycled`` (cream or grey paper from a printer low on toner, streaked), ``crumpled`` (crumpled,
then flattened by hand), ``sleeve`` (in a clear plastic sleeve with the lamp's reflection across it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from generator.core.cards import RANK_LABELS, RANKS, SUITS, Card
from generator.games.allin.grid import cell_name
from generator.printing.paper import Paper, paper
from tests.synth.sheet_photos import HandStyle, Pen, PhotoParams, hard_params, random_style, realistic_params

FAMILIES = (
    "realistic",
    "hard-small",
    "hard-tilt",
    "hard-jpeg",
    "hard-scaled",
    "shadow",
    "glare",
    "erased",
    "outside",
    "two-sheets",
    "dominant-suit",
    "dominant-rank",
    "full",
    "nearly-empty",
    "large-values",
    "fold",
    "fold-steep",
    "curl",
    "curl-strong",
    "other-hands",
    "steep",
    "dim-room",
    "recycled",
    "crumpled",
    "sleeve",
)


@dataclass
class Case:
    """One synthetic photo to make and read.

    Attributes:
        sheet: the truth (a FilledSheet); ``paper`` its paper; ``game`` its game's score (for the written totals).
        params: how it is photographed; ``style`` how it is marked (``None``: a random hand).
        extra: marks beyond the sheet's (see :func:`.synth.draw_marks`), e.g. erased ones.
        others: more sheets in the same photo.
        layout: the ``--layout`` to read it with (``None``: from the sheet code).
        refuse: the reader must refuse the photo (a message containing this), not read it.
    """

    sheet: object
    paper: Paper
    params: PhotoParams
    style: HandStyle | None = None
    extra: dict = field(default_factory=dict)
    others: tuple = ()
    game: object = None
    layout: str | None = None
    refuse: str | None = None


def _grid_box(scene) -> tuple[float, float, float, float]:
    ts = [t for t in scene.marks if t.kind in ("rank", "suit", "value")]
    return (min(t.x for t in ts), min(t.y for t in ts), max(t.x + t.w for t in ts), max(t.y + t.h for t in ts))


def _cells(scene) -> dict[str, tuple[float, float, float, float]]:
    """Each card space's box (mm) from its targets."""
    out: dict[str, list] = {}
    for t in scene.marks:
        if t.kind in ("rank", "suit", "value"):
            out.setdefault(t.owner, []).append(t)
    return {
        n: (min(t.x for t in ts), min(t.y for t in ts), max(t.x + t.w for t in ts), max(t.y + t.h for t in ts))
        for n, ts in out.items()
    }


def _random_card(rng: random.Random) -> Card:
    return Card(rng.choice(RANKS), rng.choice(SUITS))


def case(family: str, seed: int, *, frame: tuple[int, int] | None = None) -> Case:
    """The case of ``family`` for ``seed`` (``frame``: force the photo size, e.g. small for tests)."""
    from generator.core.shipped import shipped_layouts
    from generator.games.allin.bot import simulate_game
    from generator.games.allin.filled import FilledSheet
    from generator.games.allin.layout import load_layout
    from generator.games.allin.sheet import build_allin_sheet

    rng = random.Random(f"family:{family}:{seed}")
    layouts = [s for s in shipped_layouts() if s.game == "allin"]
    lay = load_layout(rng.choice(layouts).path)
    pap = paper(rng.choice(["a4", "letter"]))
    sim = simulate_game(lay, rng.randint(2, 4), rng.getrandbits(32))
    sheets = sim.result.sheets
    sheet = sheets[rng.randrange(len(sheets))]
    game = sim.result.score
    prng = random.Random(f"params:{family}:{seed}")
    if family.startswith("hard-"):
        p = hard_params(prng, family[5:])
    else:
        p = realistic_params(prng, frame)
    if frame is not None:
        p = replace(p, frame=frame)
    scene = build_allin_sheet(lay, pap)
    c = Case(sheet, pap, p, game=game)
    chips = sum(1 for t in scene.marks if t.kind == "chip_earned")
    if family in ("realistic",) or family.startswith("hard-"):
        return c
    if family == "shadow":
        # an edge swept across the grid: the seed picks one of 64 positions along the edge's normal
        import math

        x0, y0, x1, y1 = _grid_box(scene)
        ang = rng.uniform(0, 180)
        nx, ny = math.sin(math.radians(ang)), -math.cos(math.radians(ang))
        reach = abs(nx) * (x1 - x0) / 2 + abs(ny) * (y1 - y0) / 2
        pos = ((seed % 64) + 0.5) / 64 * 2 - 1
        u0, v0 = (x0 + x1) / 2 + pos * reach * nx, (y0 + y1) / 2 + pos * reach * ny
        side = rng.choice([0, 180])
        c.params = replace(
            p, shadow=0.0, hard_shadow=(u0, v0, ang + side, rng.uniform(0.55, 0.70), rng.uniform(0.3, 2.0))
        )
        return c
    if family == "glare":
        bx = rng.choice(list(_cells(scene).values()))
        u0 = rng.uniform(bx[0], bx[2])
        v0 = rng.uniform(bx[1], bx[3])
        c.params = replace(p, glare=(u0, v0, rng.uniform(6.0, 18.0), rng.uniform(0.4, 1.8)))
        return c
    if family == "erased":
        g = 1.0 - rng.uniform(0.3, 0.75)
        style = random_style(rng)
        if rng.random() < 0.6:  # a hand in pencil; else in pen, the rubbed-out marks pencilled (synth._erased)
            style = replace(style, pen=Pen("pencil", (g, g, g * 1.02), rng.uniform(0.35, 0.55), grainy=True))
        c.style = style
        erased = []
        written = sorted(sheet.cards.items())
        for coord, card in rng.sample(written, min(len(written), rng.randint(1, 4))):
            name = cell_name(coord)
            if rng.random() < 0.6:
                erased.append(
                    (
                        "rank",
                        name,
                        rng.choice([r for r in RANK_LABELS.values() if r != card.rank_label]),
                        rng.uniform(0.15, 0.6),
                    )
                )
            else:
                erased.append(("suit", name, rng.choice([s for s in SUITS if s != card.suit]), rng.uniform(0.15, 0.6)))
        empty = sorted(set(sheet.layout.grid.writable) - set(sheet.cards))
        if empty and rng.random() < 0.5:  # a whole card pencilled into an empty space, then rubbed out
            name = cell_name(rng.choice(empty))
            residue = rng.uniform(0.15, 0.6)
            erased += [
                ("rank", name, rng.choice(list(RANK_LABELS.values())), residue),
                ("suit", name, rng.choice(SUITS), residue),
            ]
        for i in range(sheet.chips_earned + 1, min(chips, sheet.chips_earned + rng.randint(0, 3)) + 1):
            erased.append(("chip_earned", str(i), "", rng.uniform(0.15, 0.6)))
        for i in range(sheet.chips_spent + 1, min(sheet.chips_earned, sheet.chips_spent + rng.randint(0, 2)) + 1):
            erased.append(("chip_spent", str(i), "", rng.uniform(0.15, 0.6)))
        c.extra = {"erased": erased}
        return c
    if family == "outside":
        side = rng.choice(["top", "bottom", "left", "right"])
        c.params = replace(
            p,
            cut=(side, rng.uniform(15.0, 60.0)),
            rotation=rng.choice([0, 90, 180, 270]) + rng.uniform(-8, 8),
            tilt=rng.uniform(0, 20),
            coverage=rng.uniform(0.6, 0.9),
        )
        c.layout = lay.id
        return c
    if family == "two-sheets":
        w, h = p.frame
        c.params = replace(
            p,
            frame=(max(w, h), min(w, h)),
            coverage=rng.uniform(0.6, 0.85),
            tilt=rng.uniform(0, 20),
            rotation=rng.uniform(-10, 10),
        )
        c.others = (sheets[(sheets.index(sheet) + 1) % len(sheets)],)
        c.refuse = "two sheets in one photo"
        return c
    if family == "dominant-suit":
        suit = rng.choice(SUITS)
        cards = {k: Card(v.rank, suit) if rng.random() < rng.uniform(0.7, 0.95) else v for k, v in sheet.cards.items()}
        c.sheet = FilledSheet(lay, sheet.player, cards, sheet.chips_earned, sheet.chips_spent)
        c.game = None
        return c
    if family == "dominant-rank":
        rank = rng.choice(RANKS)
        cards = {k: Card(rank, v.suit) if rng.random() < rng.uniform(0.6, 0.9) else v for k, v in sheet.cards.items()}
        c.sheet = FilledSheet(lay, sheet.player, cards, sheet.chips_earned, sheet.chips_spent)
        c.game = None
        return c
    if family == "full":
        cards = {k: _random_card(rng) for k in lay.grid.writable}
        earned = chips
        c.sheet = FilledSheet(lay, sheet.player, cards, earned, rng.randint(0, earned))
        c.game = None
        return c
    if family == "nearly-empty":
        keep = rng.sample(sorted(sheet.cards), min(len(sheet.cards), rng.randint(1, 3)))
        earned = rng.randint(0, 2)
        c.sheet = FilledSheet(lay, sheet.player, {k: sheet.cards[k] for k in keep}, earned, rng.randint(0, earned))
        c.game = None
        return c
    if family == "large-values":
        # the values written so large that they run over the suit column (most often a "10": its 0 crosses a suit)
        c.style = replace(random_style(rng), large_values=rng.uniform(0.5, 1.0))
        return c
    if family in ("fold", "fold-steep"):
        lo, hi = (5.0, 20.0) if family == "fold" else (20.0, 35.0)
        c.params = replace(p, fold=rng.uniform(lo, hi), fold_light=rng.uniform(0.75, 1.08), tilt=rng.uniform(0, 30))
        return c
    if family in ("curl", "curl-strong"):
        lo, hi = (3.0, 10.0) if family == "curl" else (15.0, 35.0)
        c.params = replace(p, curl=rng.uniform(lo, hi), curl_along=rng.choice(["v", "v", "u"]), bend=0.0)
        return c
    if family == "other-hands":
        c.style = replace(
            random_style(rng),
            box_mark="any",
            bubble="mixed",
            loose_circles=rng.uniform(0.3, 0.8),
            large_values=rng.uniform(0.0, 0.4),
            sloppiness=rng.uniform(1.0, 1.6),
        )
        return c
    if family == "steep":
        c.params = replace(p, tilt=rng.uniform(45.0, 60.0), coverage=rng.uniform(0.6, 0.85))
        return c
    if family == "dim-room":
        c.params = replace(
            p,
            cast=(1.0, rng.uniform(0.76, 0.88), rng.uniform(0.5, 0.65)),
            light_min=rng.uniform(0.5, 0.85),
            noise=rng.uniform(0.03, 0.06),
            motion=rng.uniform(3.0, 8.0),
            motion_angle=rng.uniform(0, 180),
            defocus=rng.uniform(0.6, 1.2),
            jpeg=rng.randint(75, 90),
        )
        return c
    if family == "recycled":
        tone = rng.choice([(0.96, 0.92, 0.8), (0.93, 0.9, 0.82), (0.84, 0.84, 0.82), (0.8, 0.79, 0.76)])
        c.params = replace(p, paper_tone=tone, toner=rng.uniform(0.35, 0.8), streaks=rng.uniform(0.0, 0.7))
        return c
    if family == "crumpled":
        c.params = replace(p, crumple=rng.uniform(0.5, 1.5), bend=rng.uniform(0.3, 1.0))
        return c
    if family == "sleeve":
        x0, y0, x1, y1 = _grid_box(scene)
        u0, v0 = rng.uniform(x0, x1), rng.uniform(y0, y1)
        band = (u0, v0, rng.uniform(0, 180), rng.uniform(15, 50), rng.uniform(0.3, 1.2))
        c.params = replace(p, haze=rng.uniform(0.02, 0.06), band=band)
        return c
    raise ValueError(f"unknown family {family!r}; families: {', '.join(FAMILIES)}")


__all__ = ["FAMILIES", "Case", "case"]
