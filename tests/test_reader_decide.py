"""The photo reader's decisions (``generator/reader/read.py`` ``decide``) on inks set by hand (issue 11).

No photo is made: every target of a real sheet's scene is given the ink a measurement would give it —
blank targets none, marks the sheet's typical ink or a stated share of it — so each decision rule is
seen alone, with its expected outcome worked out from the rule's levels by hand.  A field is read right
or flagged, never read wrong without a flag; and a sheet that carries nothing unclear is read exactly.
"""

from __future__ import annotations

import numpy as np
import pytest

from generator.core.cards import Card
from generator.core.shipped import resolve_layout
from generator.games.allin.grid import cell_name
from generator.games.allin.layout import load_layout
from generator.games.allin.sheet import build_allin_sheet
from generator.printing.paper import paper
from generator.reader.light import LIGHT_PPM, _long_edges
from generator.reader.marks import Measurement, TargetInk
from generator.reader.read import decide

LAYOUT = load_layout(resolve_layout("q-diamonds"))
SCENE = build_allin_sheet(LAYOUT, paper("a4"))
SPACES = sorted(LAYOUT.grid.writable)
RANK, RING, BUBBLE, SPENT = 0.30, 0.30, 0.40, 0.40
"""A pen hand's typical ink (and stroke darkness) for a tick, a circle's ring, a filled bubble, a spent tick."""


def measured(
    cards: dict,
    earned: int,
    spent: int,
    *,
    ink: dict | None = None,
    peak: dict | None = None,
    sectors: dict | None = None,
    blur: float = 0.2,
    stroke: dict | None = None,
    halves: dict | None = None,
    crossing: dict | None = None,
    top: dict | None = None,
    span: dict | None = None,
    ridge: dict | None = None,
    luma: dict | None = None,
    stroke_span: dict | None = None,
) -> Measurement:
    """A measurement of a sheet holding ``cards`` and chips: marks at the typical ink (stroke darkness alike),
    blank targets at 0; ``ink``/``peak``/``sectors`` override single targets, keyed ``(kind, owner, key)``.
    Spent boxes measure a strokes' top (TargetInk.stroke) only when ``stroke`` is given: their ink unless it says
    otherwise; and a ridge (TargetInk.ridge) then too: their top unless ``ridge`` says otherwise, and a stroke
    reaching 3.5 mm (TargetInk.stroke_span) unless ``stroke_span`` says otherwise.  Targets measure
    their strokes in luminance (TargetInk.peak_luma) only as ``luma`` gives.  Rank boxes measure their ink in each half
    (TargetInk.halves) as in the whole box, unless ``halves``
    gives ``(left, right)``, and a stroke across the gaps beside them (TargetInk.crossing) only when ``crossing``
    gives ``(left, right)``.  Rank boxes holding ink measure a strokes' top (TargetInk.top) only when ``top`` is
    given: their ink unless it says otherwise, reaching 2 mm across the box (TargetInk.top_span) unless ``span``
    says otherwise."""
    ink, peak, sectors, halves, crossing = ink or {}, peak or {}, sectors or {}, halves or {}, crossing or {}
    names = {cell_name(c): card for c, card in cards.items()}
    inks = {}
    for t in SCENE.marks:
        k = (t.kind, t.owner, t.key)
        if t.kind == "rank":
            v = RANK if t.owner in names and names[t.owner].rank_label == t.key else 0.0
        elif t.kind == "suit":
            v = RING if t.owner in names and names[t.owner].suit == t.key else 0.0
        elif t.kind == "chip_earned":
            v = BUBBLE if int(t.owner) <= earned else 0.0
        elif t.kind == "chip_spent":
            v = SPENT if int(t.owner) <= spent else 0.0
        elif t.kind == "value":
            v = 0.0
        else:
            continue
        v = ink.get(k, v)
        sec = sectors.get(k, (v,) * 12) if t.kind == "suit" else None
        spent_top = stroke.get(k, v) if stroke is not None and t.kind == "chip_spent" else float("nan")
        spent_ridge = (ridge or {}).get(k, spent_top) if t.kind == "chip_spent" else float("nan")
        spent_span = (stroke_span or {}).get(k, 3.5) if spent_top == spent_top else float("nan")
        rank_top = top.get(k, v) if top is not None and t.kind == "rank" and (v > 0 or k in top) else float("nan")
        rank_span = (span or {}).get(k, 2.0) if rank_top == rank_top else float("nan")
        inks[k] = TargetInk(
            t,
            v,
            sectors=sec,
            peak=peak.get(k, v),
            peak_luma=(luma or {}).get(k, float("nan")),
            stroke=spent_top,
            ridge=spent_ridge,
            stroke_span=spent_span,
            top=rank_top,
            top_span=rank_span,
            halves=halves.get(k, (v, v)) if t.kind == "rank" else None,
            crossing=crossing.get(k),
        )
    return Measurement(inks, blur, {}, 0.01)


def cards_of(n: int) -> dict:
    return {c: Card(2 + i % 13, "SHDC"[i % 4]) for i, c in enumerate(SPACES[:n])}


def read(m: Measurement):
    cells, earned, spent = decide(LAYOUT, m)
    uncertain = {c.cell: c.reason for c in cells.values() if c.status == "uncertain"}
    for name, count in (("chips.earned", earned), ("chips.spent", spent)):
        if count.value is None:
            uncertain[name] = count.reason
    return cells, earned, spent, uncertain


def test_a_nearly_empty_pen_sheet_is_not_misled_by_the_print_left_round_a_blank_suit():
    """Two dark circles, two ticks: too few to measure the hand, so the assumed (light pencil) mark would set the
    sure level at 0.25 × 0.16 = 0.04 and the print's residue round a blank spade (0.04, as a soft photo leaves
    it) would pass for a circle.  The few clear marks are darker: the typical mark is theirs (0.30), the blank
    level 0.15 × 0.30 = 0.045, and the residue is blank."""
    cards = cards_of(2)
    blank = cell_name(SPACES[5])
    residue = (0.10, 0.10, 0.10, 0.10, 0.04, 0.04, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)  # the 5th highest sector: 0.04
    m = measured(cards, 1, 0, ink={("suit", blank, "S"): 0.04}, sectors={("suit", blank, "S"): residue})
    cells, earned, spent, uncertain = read(m)
    assert uncertain == {}
    assert {c: r.card for c, r in cells.items() if r.status == "card"} == cards
    assert (earned.value, spent.value) == (1, 0)


def test_a_nearly_empty_sheet_keeps_the_assumed_light_mark_when_its_few_marks_are_light():
    """Few clear marks lighter than the assumed mark never lower the levels: a faint residue stays unsure."""
    cards = cards_of(2)
    light = {("suit", cell_name(c), card.suit): 0.07 for c, card in cards.items()}
    blank = cell_name(SPACES[5])
    light[("suit", blank, "S")] = 0.03  # between the assumed blank level (0.025) and sure level (0.04)
    light[("rank", blank, "7")] = 0.09  # ... and a faint tick beside it: unsure too (the ticks make 0.075 to 0.12)
    _, _, _, uncertain = read(measured(cards, 0, 0, ink=light))
    assert list(uncertain) == [blank] and "faint" in uncertain[blank]


def test_a_lone_faint_suit_ring_on_an_empty_space_is_noise_but_not_beside_a_faint_tick_or_writing():
    """A nearly empty sheet in a small photo: on a space with no rank ticked, even faintly, and nothing written, a
    suit's ring a little darker than blank (0.03: above the assumed blank level 0.025, below the sure level 0.04,
    a fifth of a circle) is the print's noise: the space is empty, as a card always has its rank ticked and its
    value written.  The same ring beside a faint tick, or in a space with writing in it, is still for a person."""
    cards = cards_of(2)
    light = {("suit", cell_name(c), card.suit): 0.16 for c, card in cards.items()}
    blank = cell_name(SPACES[5])
    noise = {**light, ("suit", blank, "H"): 0.03}
    cells, _, _, uncertain = read(measured(cards, 0, 0, ink=noise))
    assert uncertain == {} and cells[SPACES[5]].status == "empty"
    assert {c: r.card for c, r in cells.items() if r.status == "card"} == cards
    _, _, _, uncertain = read(measured(cards, 0, 0, ink={**noise, ("rank", blank, "9"): 0.09}))
    assert list(uncertain) == [blank] and "faint" in uncertain[blank]
    _, _, _, uncertain = read(measured(cards, 0, 0, ink={**noise, ("value", blank, ""): 0.08}))
    assert list(uncertain) == [blank]


def test_two_clear_spent_ticks_show_the_hands_stroke_a_rubbed_out_third_is_not_counted():
    """Chips spent 2, and a third tick rubbed out: its ink smeared over the box still holds 74 % of a tick's (above
    the too-light share 0.62 of the ink), but its darkest strokes are 45 % of the two clear ticks' (below 0.62).
    Two clear ticks are enough to know the hand's stroke: the third is unsure, never a third chip spent."""
    cards = cards_of(6)
    ink = {("chip_spent", "3", ""): 0.74 * SPENT}
    peak = {("chip_spent", "3", ""): 0.45 * SPENT}
    _, _, spent, uncertain = read(measured(cards, 5, 2, ink=ink, peak=peak))
    assert spent.value is None and spent.unsure == [3] and spent.marked == [1, 2]
    assert "spent boxes 3 unclear" in uncertain["chips.spent"]
    # the same third tick with strokes as dark as the others' is a third chip spent
    _, _, spent, uncertain = read(measured(cards, 5, 3, ink=ink))
    assert spent.value == 3 and "chips.spent" not in uncertain


def test_a_tight_circle_half_as_dark_as_the_others_is_read_and_a_rubbed_out_one_is_not():
    """A full sheet; one circle is tight in a soft photo: its ring holds half the typical ink, its strokes beside
    the symbol half as dark (0.5 ≥ the too-light share 0.45: read).  A circle rubbed out to 30 % (ink and strokes
    0.3 of the others: above the sure level 0.25, below 0.45 for both) is never counted."""
    cards = cards_of(len(SPACES))
    (c1, k1), (c2, k2) = list(cards.items())[3:5]
    n1, n2 = cell_name(c1), cell_name(c2)
    ink = {("suit", n1, k1.suit): 0.5 * RING, ("suit", n2, k2.suit): 0.3 * RING}
    cells, _, _, uncertain = read(measured(cards, 5, 2, ink=ink, peak=dict(ink)))
    assert cells[c1].card == k1
    assert list(uncertain) == [n2] and "much lighter" in uncertain[n2]
    assert cells[c2].card is None


def test_in_a_soft_photo_a_thin_light_circle_is_read_in_a_sharp_one_it_is_flagged():
    """A circle with 0.35 of the typical ring ink and strokes 0.4 as dark: in a sharp photo (blur 0.2 mm) both are
    below the too-light share 0.45: flagged.  In a soft one (0.45 mm) the share is 0.45 × 0.3 / 0.45 = 0.30: read."""
    cards = cards_of(len(SPACES))
    c1, k1 = list(cards.items())[6]
    n1 = cell_name(c1)
    ink, peak = {("suit", n1, k1.suit): 0.35 * RING}, {("suit", n1, k1.suit): 0.4 * RING}
    _, _, _, uncertain = read(measured(cards, 5, 2, ink=ink, peak=peak, blur=0.2))
    assert list(uncertain) == [n1] and "much lighter" in uncertain[n1]
    cells, _, _, uncertain = read(measured(cards, 5, 2, ink=ink, peak=peak, blur=0.45))
    assert uncertain == {} and cells[c1].card == k1


def test_a_tick_with_a_full_boxs_ink_and_strokes_a_little_lighter_is_a_tick():
    """The darkest part of a thin tick varies with how it crosses the box: a tick with the typical ink and strokes
    0.6 as dark as the others is a tick (stroke-alone share 0.5); one rubbed out (ink and strokes 0.5) is not."""
    cards = cards_of(12)
    (c1, k1), (c2, k2) = list(cards.items())[2:4]
    n1, n2 = cell_name(c1), cell_name(c2)
    peak = {("rank", n1, k1.rank_label): 0.6 * RANK, ("rank", n2, k2.rank_label): 0.5 * RANK}
    cells, _, _, uncertain = read(measured(cards, 3, 1, ink={("rank", n2, k2.rank_label): 0.5 * RANK}, peak=peak))
    assert cells[c1].card == k1
    assert list(uncertain) == [n2] and "much lighter" in uncertain[n2]


def test_a_faint_tick_with_the_sheets_own_dark_strokes_is_a_tick():
    """A tick that mostly misses its rank box: a third of the typical ink in the box (between the blank level
    0.25 and the sure level 0.40 of the typical mark) but strokes as dark as the others: a tick.  With strokes
    half as dark (below 0.75 of the others) it stays unsure."""
    cards = cards_of(12)
    (c1, k1), (c2, k2) = list(cards.items())[:2]
    n1, n2 = cell_name(c1), cell_name(c2)
    ink = {("rank", n1, k1.rank_label): 0.33 * RANK, ("rank", n2, k2.rank_label): 0.33 * RANK}
    peak = {("rank", n1, k1.rank_label): 0.95 * RANK, ("rank", n2, k2.rank_label): 0.5 * RANK}
    cells, _, _, uncertain = read(measured(cards, 3, 1, ink=ink, peak=peak))
    assert cells[c1].card == k1
    assert list(uncertain) == [n2] and "faint" in uncertain[n2]


def test_a_thin_tick_among_bold_marks_is_a_tick_by_its_strokes_top():
    """A thin tick in a sharp photo: a third of the typical ink in its box (between the blank and sure levels) and,
    covering little of the box, its darkest 10 % at half the others' (under 0.75: not enough), but its strokes' top
    0.9 of the sheet's ticks' tops, reaching 2 mm across the box: a tick (held-out realistic 100022, a black tick
    read "faint").  With a top of 0.65 of the others', as a rubbed-out tick leaves (at most 0.67 over 124 of them),
    it stays unsure; so it does with the top at 0.9 reaching only 0.9 mm (under TICK_SPAN_MM, 1.4): a pen's dot or
    a circle's stroke ending in the box (an independent tester's, 0.71–1.01 mm, were read as ticks)."""
    cards = cards_of(12)
    (c1, k1), (c2, k2), (c3, k3) = list(cards.items())[:3]
    n1, n2, n3 = cell_name(c1), cell_name(c2), cell_name(c3)
    b1, b2, b3 = ("rank", n1, k1.rank_label), ("rank", n2, k2.rank_label), ("rank", n3, k3.rank_label)
    ink = {b1: 0.33 * RANK, b2: 0.33 * RANK, b3: 0.33 * RANK}
    peak = {b1: 0.5 * RANK, b2: 0.5 * RANK, b3: 0.5 * RANK}
    top = {b1: 0.9 * RANK, b2: 0.65 * RANK, b3: 0.9 * RANK}
    cells, _, _, uncertain = read(measured(cards, 3, 1, ink=ink, peak=peak, top=top, span={b3: 0.9}))
    assert cells[c1].card == k1
    assert sorted(uncertain) == sorted([n2, n3]) and "faint" in uncertain[n2] and "faint" in uncertain[n3]


def test_a_spent_tick_outside_its_box_is_counted_or_flagged_never_read_blank():
    """Spent boxes 1–4 ticked.  Box 4's tick runs outside the box: little ink in it (below the blank level) but
    strokes in its window as dark as the others: counted.  With strokes 0.6 of the others (a stroke is there,
    not as dark): unsure.  With none (a blank box's 0.03): blank, 3 spent."""
    cards = cards_of(6)
    key = ("chip_spent", "4", "")
    for stroke, want in ((0.9 * SPENT, 4), (0.6 * SPENT, None), (0.03, 3)):
        _, _, spent, _ = read(measured(cards, 6, 4, ink={key: 0.02}, peak={key: stroke}))
        assert spent.value == want


def test_only_long_steps_of_the_light_are_shadow_edges():
    """A shadow's edge is a long line across the region or reaches its edge; a small ring of steps inside the
    region (a knot of bold marks the light estimate could not fill) is not one."""
    mm = int(LIGHT_PPM)
    edge = np.zeros((80 * mm, 120 * mm), np.uint8)
    edge[10 * mm : 70 * mm, 60 * mm] = 1  # a line 60 mm long, inside the region
    ring = np.zeros_like(edge)
    ring[40 * mm : 46 * mm, 20 * mm] = ring[40 * mm : 46 * mm, 26 * mm] = 1  # a 6 mm knot
    ring[40 * mm, 20 * mm : 27 * mm] = ring[46 * mm, 20 * mm : 27 * mm] = 1
    stub = np.zeros_like(edge)
    stub[: 5 * mm, 100 * mm] = 1  # a short piece where an edge enters the region
    out = _long_edges(edge | ring | stub)
    assert out[10 * mm : 70 * mm, 60 * mm].all() and out[: 5 * mm, 100 * mm].all()
    assert not out[38 * mm : 48 * mm, 18 * mm : 28 * mm].any()


def _knot_photo(shadow: bool) -> tuple[np.ndarray, np.ndarray]:
    """A blank region 80 × 60 mm at 8 px/mm (template, photo) under even light 0.9: a knot of dark print 12 mm square
    with a 3 mm slit of paper in it that a bold pen stroke covers (as a circle round a suit beside a reward badge and
    its
    icon), so the knot leaves the 9 mm closing no clean paper; with ``shadow``, the light right of x = 38 mm is 0.4."""
    ppm = 8

    def mm(v: float) -> int:
        return int(round(v * ppm))

    tpl = np.full((mm(60), mm(80), 3), 255, np.uint8)
    tpl[mm(20) : mm(32), mm(30) : mm(42)] = 30
    tpl[mm(20) : mm(32), mm(33) : mm(36)] = 255
    photo = np.full(tpl.shape, 0.9 * 255, np.float32)
    photo[tpl[..., 0] < 128] = 25
    photo[mm(20) : mm(32), mm(33) : mm(36)] = 0.9 * 255 * 0.4
    if shadow:
        photo[:, mm(38) :] *= 0.4
    return tpl, photo.astype(np.uint8)


def test_a_knot_of_print_is_filled_with_the_paper_around_it_not_taken_for_a_shadow():
    """Under even light 0.9 the paper is 0.9 everywhere, in the knot too (a 9 mm closing alone finds only the pen stroke
    there, 0.36, and the dark patch's rim passed for a shadow's edge): no edge, and the level within 3 % of 0.9."""
    from generator.reader.light import estimate_light

    tpl, photo = _knot_photo(False)
    light = estimate_light(photo, tpl, 8.0, (0.0, 0.0))
    assert not light.edge.any()
    knot = light.level[int(18 * LIGHT_PPM) : int(34 * LIGHT_PPM), int(28 * LIGHT_PPM) : int(44 * LIGHT_PPM)]
    assert abs(float(knot.min()) - 0.9) < 0.03 and abs(float(knot.max()) - 0.9) < 0.03


def test_a_shadows_edge_through_a_knot_of_print_is_still_found():
    """The same knot with a hard shadow's edge through it (x = 38 mm, the light 0.4 beyond): the edge is found along
    its whole length beside the knot, above and below it, and the light on each side is right."""
    from generator.reader.light import estimate_light

    tpl, photo = _knot_photo(True)
    light = estimate_light(photo, tpl, 8.0, (0.0, 0.0))
    band = light.edge[:, int(37 * LIGHT_PPM) : int(40 * LIGHT_PPM)].any(axis=1)
    assert band[: int(18 * LIGHT_PPM)].all() and band[int(34 * LIGHT_PPM) :].all()
    assert abs(float(light.level[10, 20]) - 0.9) < 0.02 and abs(float(light.level[10, 140]) - 0.36) < 0.02
    assert not light.edge[:, : int(30 * LIGHT_PPM)].any()  # nothing left of the knot


def test_on_a_sheet_without_spent_ticks_a_blank_boxs_noise_is_blank_and_a_light_tick_is_never_read_blank():
    """No spent box ticked (or one): the hand's spent tick cannot be measured, an assumed one (ink 0.30) sets the
    levels:
    blank below 0.25 × 0.30 = 0.075, marked from 0.40 × 0.30 = 0.12.  A blank box holding 0.07 (what a small, soft photo
    leaves in one; the assumed 0.25 put the blank level at 0.0625 and flagged it) is blank: 0 spent.  A light tick of
    0.10 (the lightest measured, pencil in a soft 2 MP photo) is unsure, flagged; one of 0.15 is counted."""
    cards = cards_of(2)
    _, _, spent, uncertain = read(measured(cards, 1, 0, ink={("chip_spent", "14", ""): 0.07}))
    assert spent.value == 0 and uncertain == {}
    _, _, spent, uncertain = read(
        measured(cards, 1, 1, ink={("chip_spent", "1", ""): 0.10}, peak={("chip_spent", "1", ""): 0.10})
    )
    assert spent.value is None and "spent boxes 1 unclear" in uncertain["chips.spent"]
    _, _, spent, uncertain = read(
        measured(cards, 1, 1, ink={("chip_spent", "1", ""): 0.15}, peak={("chip_spent", "1", ""): 0.15})
    )
    assert spent.value == 1 and uncertain == {}


def test_in_a_soft_photo_a_rubbed_out_spent_tick_as_dark_as_two_thirds_of_the_others_is_not_counted():
    """Chips spent 9 in a soft photo (blur 0.5 mm, a 1920 × 1080 photo of an A4 sheet): a tenth tick rubbed out keeps
    0.69 of a tick's ink and 0.71 of its strokes (the photo's blur hides the eraser's smear).  Both are above the
    sharp-photo share 0.62, but in a photo 0.2 mm softer than 0.3 mm the share is 0.62 + 0.5 × 0.2 = 0.72: unsure,
    never a tenth chip spent.  A light real tick there (ink 0.68, its strokes 0.8 of the others') still counts.
    (The reader also measures each spent box's strokes' top, which decides instead once two clear ticks measure
    one: see the tests below.  This share decides where the tops are not measured, as here.)"""
    cards = cards_of(12)
    box = ("chip_spent", "10", "")
    _, _, spent, uncertain = read(measured(cards, 10, 9, ink={box: 0.69 * SPENT}, peak={box: 0.71 * SPENT}, blur=0.5))
    assert spent.value is None and spent.unsure == [10] and spent.marked == list(range(1, 10))
    assert "spent boxes 10 unclear" in uncertain["chips.spent"]
    _, _, spent, uncertain = read(measured(cards, 10, 10, ink={box: 0.68 * SPENT}, peak={box: 0.8 * SPENT}, blur=0.5))
    assert spent.value == 10 and "chips.spent" not in uncertain


def test_a_spaces_reason_says_what_the_marks_leave_open():
    """The reason given for an uncertain space names the choice left open, in the player's terms (no ink figures)."""
    from generator.reader.levels import Decision
    from generator.reader.read import _cell

    blank, sure, unsure = Decision(False, 0.0, 1.0), Decision(True, 0.6, 1.0), Decision(None, 0.1, 0.2)
    ranks = {k: blank for k in ("2", "9", "J", "K")}
    suits = {k: blank for k in "CDHS"}
    light_tick = _cell("b3", (1, 2), ranks | {"J": unsure}, suits | {"H": sure}, 0.0, light={"J"})
    assert light_tick.status == "uncertain"
    assert light_tick.reason == "rank J: much lighter than the other ticks: a light tick, or one rubbed out?"
    faint = _cell("b3", (1, 2), ranks | {"9": unsure}, suits | {"H": sure}, 0.0)
    assert faint.reason == "rank 9: faint, ticked or not?"
    no_tick = _cell("b3", (1, 2), ranks, suits | {"D": sure}, 0.3)
    assert no_tick.reason == "suit D is circled but no rank box is clearly ticked"
    no_circle = _cell("b3", (1, 2), ranks | {"K": sure}, suits, 0.3)
    assert no_circle.reason == "rank K is ticked but no suit is clearly circled"
    card = _cell("b3", (1, 2), ranks | {"K": sure}, suits | {"S": sure}, 0.3)
    assert (card.status, card.card.code) == ("card", "KS")


def test_only_a_mark_greyer_than_the_hand_is_judged_by_its_luminance():
    """Blue pen strokes measured 0.45 dark in the brightest channel and 0.78 in luminance (ratio 1.73); a grey
    smear 0.38 and 0.39 (ratio 1.02, under 0.75 × 1.73 = 1.30): greyer.  A light tick of the same pen, 0.30
    and 0.52 (ratio 1.73), is not; on a black-pen sheet (ratio 1.0) nothing is greyer than 0.75."""
    from generator.reader.levels import greyer, hand_ratio

    blue = hand_ratio([(0.45, 0.78), (0.44, 0.77), (0.46, 0.80)])
    assert blue == pytest.approx(0.78 / 0.45, rel=0.02)
    assert greyer(0.38, 0.39, blue)
    assert not greyer(0.30, 0.52, blue)
    black = hand_ratio([(0.8, 0.8), (0.7, 0.72)])
    assert not greyer(0.4, 0.35, black)  # 0.875: a light black tick
    assert hand_ratio([(0.45, 0.78)]) is None and not greyer(0.38, 0.39, None)  # one clear mark: nothing to compare


def test_a_grey_chip_among_blue_fills_is_unsure_a_light_blue_one_is_not():
    """Chip circles 1-3 filled in blue (strokes 0.44 / 0.78), 4 a grey smear (0.38 / 0.39), 5 a lighter blue
    fill (0.40 / 0.70): only 4 is made unsure (greyer, and under 70 % of the fills' luminance strokes)."""
    from generator.reader.levels import Decision
    from generator.reader.read import _luma_light

    marked = [(i, Decision(True, 0.42, 0.9)) for i in range(1, 6)]
    peaks = [(0.44, 0.78), (0.45, 0.78), (0.44, 0.79), (0.38, 0.39), (0.40, 0.70)]
    out = dict(_luma_light(marked, peaks, 0.42, 0.7))
    assert [i for i, d in out.items() if d.marked is None] == [4]


def _ten_of_spades_under_a_large_10(heart: tuple, diamond: tuple) -> tuple[dict, dict, dict, str]:
    """Twelve cards; space 1 holds 10♠ (rank 10 ticked, the spade circled all round at the ring ink 0.30) with
    its value written so large that the 0 runs over the heart's and the diamond's rings (``heart``, ``diamond``:
    their twelve sector means; sector 0 points left, 3 up, 6 right, 9 down).  Returns ``measured``'s overrides."""
    cards = cards_of(12)
    space = SPACES[1]
    cards[space] = Card(10, "S")
    name = cell_name(space)
    secs = {("suit", name, "H"): heart, ("suit", name, "D"): diamond}
    # a suit's ink is its ring score: the 5th highest of its sectors (marks.RING_RANK)
    ink = {k: sorted(v, reverse=True)[4] for k, v in secs.items()}
    return cards, ink, secs, name


def test_a_value_written_across_the_heart_beside_a_circled_spade_is_never_read_as_a_heart():
    """An independent tester's 10♠ read 10♥, no flag: the 0 of a large "10" ran over the heart and the diamond.
    The heart's ring is inked left, above and below (0.40), not on the right (0); the diamond's on its left and top
    (0.35, six sectors).  The space's 48 sectors: 22 at 0, the spade's 12 at 0.30, 6 at 0.35, 8 at 0.40.  Their
    median, 0.30, taken as the space's blank level, left the heart 0.10 over it and the spade (its four sectors
    facing the heart left out) 0: the heart alone circled.  The lower quartile (the 12th of 48) is 0: the heart
    scores 0.40 and the spade 0.30, 0.75 of it (>= 0.5: circled too); the heart's right side (sectors 5 and 6, at
    0) is under a quarter of its score, so it is unsure, and the space is flagged for it."""
    heart = (0.40, 0.40, 0.40, 0.40, 0.0, 0.0, 0.0, 0.0, 0.40, 0.40, 0.40, 0.40)
    diamond = (0.35, 0.35, 0.35, 0.35, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.35, 0.35)
    cards, ink, secs, name = _ten_of_spades_under_a_large_10(heart, diamond)
    cells, _, _, uncertain = read(measured(cards, 3, 1, ink=ink, sectors=secs))
    assert uncertain == {name: "suit H: not inked all round (the value written across it?): circled or not?"}


@pytest.mark.parametrize(
    "far, facing, flagged", [(0.02, 0.50, True), (0.10, 0.50, True), (0.14, 0.50, False), (0.02, 0.40, False)]
)
def test_a_circle_drawn_between_two_suits_is_flagged(far, facing, flagged):
    """A 9♥ whose circle sits half way down towards the diamond (a fifth tester's photos: 12 of 28 such circles
    read as one suit or the other, no flag).  The heart's ring is crossed below (0.40) and at its sides (0.30), its
    top (away from the diamond) nearly blank: ring score, the fifth highest sector, 0.30.  The diamond's ring is
    crossed hard on top, facing the heart (0.50), else 0.05; with those sectors left out it scores 0.05 and the
    heart alone is circled.  The heart's strongest sector away from the diamond, 0.02 or 0.10, is under 0.4 of its
    score (BETWEEN_FAR: 0.12), and the diamond's facing sector, 0.50, reaches 1.5 times it (BETWEEN_NEIGHBOUR:
    0.45): either suit may be meant, and the space is flagged, naming both.  A circle passing over the heart's top
    at 0.14, or one whose low side crosses the diamond's ring at only 0.40 (a circle drawn a little low with its
    gap on top), is read: 9♥."""
    from generator.reader.marks import ring_score

    cards = cards_of(12)
    space = SPACES[3]
    cards[space] = Card(9, "H")
    name = cell_name(space)
    heart = (0.30, far, far, far, far, 0.30, 0.30, 0.40, 0.40, 0.40, 0.40, 0.30)
    diamond = (0.05, facing, facing, facing, facing) + (0.05,) * 7
    secs = {("suit", name, "H"): heart, ("suit", name, "D"): diamond}
    ink = {k: ring_score(v) for k, v in secs.items()}
    cells, _, _, uncertain = read(measured(cards, 3, 1, ink=ink, sectors=secs))
    if flagged:
        assert uncertain == {name: "the circle sits between suits H and D: which is circled?"}
        assert cells[space].card is None
    else:
        assert uncertain == {} and cells[space].card == Card(9, "H")


@pytest.mark.parametrize(
    "sides, flagged",
    [((0.076, 0.064, 0.059, 0.026), True), ((0.20, 0.18, 0.21, 0.19), False), ((0.20, 0.18, 0.03, 0.02), True)],
)
def test_a_ring_inked_above_and_below_only_is_not_a_circle(sides, flagged):
    """Held-out large values 130039, read 10♥ for 10♠ without a flag: a light pencil circle round the spade, the 0
    of a large 10 running down over the heart and the diamond.  The heart's sector means as measured, less the
    space's blank level 0.018 (0 and 11 left of the symbol, 1–4 above, 5 and 6 right, 7–10 below): inked above
    (0.21–0.33) and below (0.11–0.23), its sides 0.076 and 0.064 left, 0.059 and 0.026 right; ring score 0.226.
    Its weaker side, 0.059, is over a quarter of the score (ONE_SIDED: 0.0565), so it passed as a circle; but
    its stronger side, 0.076, is under half of it (SIDES_BARE: 0.113; real circles hold 0.73 or more): not a
    circle round the heart.  With both sides inked (0.18–0.21) it is one; with one side bare (0.03) it is not."""
    from generator.reader.read import _one_sided

    l0, l11, r5, r6 = sides
    base = 0.018
    heart = tuple(v + base for v in (l0, 0.226, 0.33, 0.332, 0.21, r5, r6, 0.106, 0.233, 0.229, 0.078, l11))
    t = TargetInk(next(m for m in SCENE.marks if m.kind == "suit"), 0.244, sectors=heart)
    assert _one_sided(t, 0.226, base) is flagged


def test_a_large_0_round_the_heart_and_diamond_beside_a_circled_spade_is_flagged():
    """The same 10♠, the 0 drawn round the heart and the diamond (ink all round both rings: 0.40 and 0.35).  The
    48 sectors: 12 at 0 (the club), 12 at 0.30, 12 at 0.35, 12 at 0.40; their median 0.325 left the spade
    (0.30) under the blank level and the diamond 0.025 over it (a third of the heart's 0.075, under 0.35: not
    circled), so 10♥ was read.  Over the lower quartile (0) the heart scores 0.40, the spade 0.30 and the diamond
    (its four sectors facing the heart left out) 0.35: all three at least half the heart's, all circled."""
    cards, ink, secs, name = _ten_of_spades_under_a_large_10((0.40,) * 12, (0.35,) * 12)
    cells, _, _, uncertain = read(measured(cards, 3, 1, ink=ink, sectors=secs))
    assert uncertain == {name: "suits S, H and D are all circled"}


def test_a_smudge_beside_a_circle_puts_the_spaces_blank_level_in_doubt():
    """5♥ circled all round (0.30); the heart's circle reaches into the spade's four sectors facing it (7–10, at
    0.30), and the value's edge lays a light smudge over the spade's other eight (0.11); the diamond's four sectors
    facing the heart carry 0.25.  The 48 sectors: 20 at 0, 8 at 0.11, 4 at 0.25, 16 at 0.30: median 0.11, lower
    quartile (the 12th) 0, 0.11 apart: 2.4 blank levels (0.15 × 0.30 = 0.045), between QUARTILE_DOUBT (1.0) and
    QUARTILE_SWITCH (2.5): both are tried.  Over the median the heart scores 0.19 and the spade 0 (5♥); over the
    quartile the spade, its facing sectors left out, keeps 0.11, 0.37 of the heart's 0.30 (between the 0.35 and
    0.5 shares: unsure).  Decided differently: the spade is unsure, and says why (a full sheet's photo of
    held-out seed 40095)."""
    cards = cards_of(12)
    space = SPACES[1]
    cards[space] = Card(5, "H")
    name = cell_name(space)
    spade = (0.11,) * 7 + (0.30,) * 4 + (0.11,)
    diamond = (0.0, 0.25, 0.25, 0.25, 0.25) + (0.0,) * 7
    secs = {("suit", name, "S"): spade, ("suit", name, "D"): diamond}
    ink = {k: sorted(v, reverse=True)[4] for k, v in secs.items()}  # the ring score: the 5th highest sector
    assert ink == {("suit", name, "S"): 0.11, ("suit", name, "D"): 0.0}
    _, _, _, uncertain = read(measured(cards, 3, 1, ink=ink, sectors=secs))
    assert uncertain == {name: "suit S: the suits are written over (the value across them?): circled or not?"}


def test_a_0_drawn_round_the_heart_beside_a_light_club_circle_is_never_read_as_a_heart():
    """10♣, the club circled a little lightly (0.21 all round); the value's 0 drawn right round the heart (0.36 all
    round) and its 1 smeared over the spade's and the diamond's rings (0.08 on eight sectors each, the four facing
    the heart bare).  The 48 sectors: 8 at 0, 16 at 0.08, 12 at 0.21, 12 at 0.36: median 0.145, lower quartile
    0.08 (under 2 blank levels of 0.045: the column is not inked through), 0.065 apart: 1.4 blank levels, in
    doubt.  Over the median the heart scores 0.215, the club 0.065 (under 0.35 of it: blank): 10♥, wrong.  Over
    the quartile the heart scores 0.28, the club 0.13 (0.46 of it: unsure, and over twice the blank level).  The
    club is decided differently over the two: unsure, never 10♥ (held-out seed 50019: a 10♣ read 10♥)."""
    cards = cards_of(12)
    space = SPACES[1]
    cards[space] = Card(10, "C")
    name = cell_name(space)
    smear = (0.08, 0.0, 0.0, 0.0, 0.0, 0.08, 0.08, 0.08, 0.08, 0.08, 0.08, 0.08)
    secs = {
        ("suit", name, "S"): (0.08,) * 7 + (0.0,) * 4 + (0.08,),
        ("suit", name, "H"): (0.36,) * 12,
        ("suit", name, "D"): smear,
        ("suit", name, "C"): (0.21,) * 12,
    }
    ink = {k: sorted(v, reverse=True)[4] for k, v in secs.items()}
    cells, _, _, uncertain = read(measured(cards, 3, 1, ink=ink, sectors=secs))
    assert uncertain == {name: "suit C: the suits are written over (the value across them?): circled or not?"}
    assert cells[space].card is None


@pytest.mark.parametrize(
    "ring",
    [
        (0.30, 0.30, 0.0, 0.0, 0.0, 0.30, 0.30, 0.30, 0.30, 0.30, 0.30, 0.30),  # a 90° gap at the top
        (0.30, 0.30, 0.30, 0.30, 0.0, 0.0, 0.0, 0.0, 0.30, 0.30, 0.30, 0.30),  # a 120° gap on the right: one side bare
    ],
)
def test_a_gapped_circle_alone_in_its_space_is_read(ring):
    """A circle round the heart with a gap (the rest of its sectors at 0.30), no other ring of the space inked:
    its ring score is the 5th highest sector, 0.30, and with no other ring at the blank level (0.15 × 0.30 =
    0.045) or above, a bare side is the circle's own gap, not a value written across it: 10♥ is read, nothing
    flagged."""
    cards = cards_of(12)
    space = SPACES[1]
    cards[space] = Card(10, "H")
    name = cell_name(space)
    cells, _, _, uncertain = read(measured(cards, 3, 1, sectors={("suit", name, "H"): ring}))
    assert uncertain == {}
    assert cells[space].card == Card(10, "H")


def test_a_0_over_the_spade_and_heart_beside_a_light_club_circle_is_never_read_as_a_heart():
    """10♣, the club circled lightly (0.06 all round, under twice the blank level, 2 × 0.15 × 0.30 = 0.09); the 0 of
    the "10" runs over the heart (0.40 on ten sectors, its right side, 5 and 6, bare) and over the spade's lower half
    (0.35 on sectors 6–11, four of them facing the heart).  The heart is the space's top ring, its right side bare,
    and the spade's ring carries 0.35, over twice the blank level: the heart is unsure.  Counting the spade without
    its sectors facing the heart (the top ring's own spill, were it an off-centre circle), no other ring carried
    twice the blank level, and 10♥ was read without a flag (held-out large-values 110006)."""
    cards = cards_of(12)
    space = SPACES[1]
    cards[space] = Card(10, "C")
    name = cell_name(space)
    heart = (0.40,) * 5 + (0.0, 0.0) + (0.40,) * 5
    spade = (0.0,) * 6 + (0.35,) * 6
    secs = {("suit", name, "S"): spade, ("suit", name, "H"): heart, ("suit", name, "C"): (0.06,) * 12}
    ink = {k: sorted(v, reverse=True)[4] for k, v in secs.items()}  # the ring score: the 5th highest sector
    cells, _, _, uncertain = read(measured(cards, 3, 1, ink=ink, sectors=secs))
    assert uncertain == {name: "suit H: not inked all round (the value written across it?): circled or not?"}
    assert cells[space].card is None


def test_a_lone_spent_tick_is_judged_against_the_hands_rank_ticks():
    """Twelve cards ticked at 0.30 (their strokes 0.30), six chips, and one spent box ticked, then rubbed out: ink
    0.20, strokes 0.15.  The row has no other tick, so it assumes a mark of 0.30 (sure from 0.12: the box counts by
    its ink) and cannot measure the hand's strokes; the rank ticks give them, 0.30, and 0.15 is under 0.62 of them:
    unsure (an independent tester's sheet counted such a tick, 48 % of the pencil left).  A lone real tick with
    strokes of 0.20 (0.67 of the rank ticks') and ink 0.20 is counted."""
    cards = cards_of(12)
    box = ("chip_spent", "1", "")
    _, _, spent, uncertain = read(measured(cards, 6, 1, ink={box: 0.20}, peak={box: 0.15}))
    assert spent.value is None and spent.unsure == [1]
    assert uncertain["chips.spent"] == "spent boxes 1 unclear (marked or not?)"
    _, _, spent, uncertain = read(measured(cards, 6, 1, ink={box: 0.20}, peak={box: 0.20}))
    assert spent.value == 1 and "chips.spent" not in uncertain


@pytest.mark.parametrize("real", [0, 1])
def test_a_lone_chip_circle_rubbed_out_is_judged_against_the_hands_rank_ticks(real):
    """Twelve cards ticked at 0.30 (strokes 0.30); ``real`` chips filled (0.40, strokes 0.40), then the next circle
    filled and rubbed out: ink 0.20, strokes 0.15.  The row has under three clear circles, so it assumes a mark of
    0.30 (sure from 0.12: the rubbed-out one counts by its ink), and none but the real one reaches 0.8 of it: no
    row of strokes to compare with.  The rank ticks give the hand's strokes, 0.30; 0.15 is under 0.7 of them
    (STROKE_LIGHT for a bubble): unsure (an independent tester's sheets with 0 or 1 real chip counted it, 32–54 %
    of the ink left).  A real lone chip (0.40, strokes 0.40) is counted."""
    cards = cards_of(12)
    rubbed = ("chip_earned", str(real + 1), "")
    _, earned, _, uncertain = read(measured(cards, real, 0, ink={rubbed: 0.20}, peak={rubbed: 0.15}))
    assert earned.value is None and earned.unsure == [real + 1]
    assert uncertain == {"chips.earned": f"chip circles {real + 1} unclear (marked or not?)"}
    _, earned, _, uncertain = read(measured(cards, real + 1, 0))
    assert earned.value == real + 1 and uncertain == {}


@pytest.mark.parametrize("rubbed", [False, True])
def test_a_lone_chip_circle_of_a_blue_pen_is_judged_in_luminance_too(rubbed):
    """Twelve cards ticked at 0.30 (strokes 0.30, in luminance 0.55) and one chip filled in the same blue pen: ink
    0.24, strokes 0.20 in the brightest channel (a filled circle shows its strokes lighter than a tick there), 0.55
    in luminance.  Against the rank ticks alone 0.20 is under 0.7 × 0.30 = 0.21 (STROKE_LIGHT for a bubble); in
    luminance 0.55 is the ticks' own: counted (held-out nearly empty sheet 130059: a "?").  Rubbed out, its strokes
    in luminance 0.25 are under 0.7 × 0.55 = 0.385 too: unsure."""
    cards = cards_of(12)
    chip = ("chip_earned", "1", "")
    luma = {("rank", cell_name(c), card.rank_label): 0.55 for c, card in cards.items()}
    luma[chip] = 0.25 if rubbed else 0.55
    _, earned, _, uncertain = read(measured(cards, 1, 0, ink={chip: 0.24}, peak={chip: 0.20}, luma=luma))
    if rubbed:
        assert earned.value is None and earned.unsure == [1]
    else:
        assert earned.value == 1 and uncertain == {}


def test_a_nearly_empty_sheet_measures_its_circles_where_cards_are_not_where_the_print_leaves_residue():
    """One card (its circle 0.27) and five empty spaces whose spade ring holds the print's residue of a soft photo
    (0.065, over 2.5 × the ring floor 0.025 = 0.0625).  Measured over every space, the typical circle would be the
    residue's (the median of six: 0.065), the sure level 1.5 × 0.025 = 0.0375 and each residue a circle without a
    rank ("?", tuning photo 5078).  Measured where a card is (a rank clearly ticked), the one circle is too few:
    the typical circle is the larger of the assumed 0.16 and its 0.27, the sure level 0.25 × 0.27 = 0.0675, and
    0.065 is only faint; with no rank ticked, even faintly, and nothing written, each of those spaces is empty."""
    cards = cards_of(1)
    cards = {c: Card(card.rank, "H") for c, card in cards.items()}
    ink = {("suit", cell_name(c), "H"): 0.27 for c in cards}
    ink |= {("suit", cell_name(c), "S"): 0.065 for c in SPACES[3:8]}
    cells, _, _, uncertain = read(measured(cards, 0, 0, ink=ink))
    assert uncertain == {}
    assert {c: r.card for c, r in cells.items() if r.status == "card"} == cards
    assert all(cells[c].status == "empty" for c in SPACES[3:8])


def test_a_faint_box_alone_in_an_empty_space_is_noise_but_not_beside_a_faint_ring_or_writing():
    """Three cards ticked at 0.12 (a pencil; the rank levels: blank 0.03, sure 0.4 × 0.12 = 0.048) and, in an empty
    space, box 7 at 0.045: faint.  Nothing else in the space is even faint and nothing is written: no card (held-out
    nearly empty sheet 130024, a dark soft pencil photo: a "?").  Beside a faint ring (0.06, between the ring levels
    of the cards' circles at 0.30: 0.15 × 0.30 = 0.045 and 0.25 × 0.30 = 0.075) or a written value the same box is
    still for a person."""
    cards = cards_of(3)
    ink = {("rank", cell_name(c), card.rank_label): 0.12 for c, card in cards.items()}
    blank = cell_name(SPACES[6])
    ink[("rank", blank, "7")] = 0.045
    cells, _, _, uncertain = read(measured(cards, 0, 0, ink=ink))
    assert uncertain == {} and cells[SPACES[6]].status == "empty"
    _, _, _, uncertain = read(measured(cards, 0, 0, ink={**ink, ("suit", blank, "C"): 0.06}))
    assert list(uncertain) == [blank] and "faint" in uncertain[blank]
    _, _, _, uncertain = read(measured(cards, 0, 0, ink={**ink, ("value", blank, ""): 0.05}))
    assert list(uncertain) == [blank]


@pytest.mark.parametrize("ticked", [False, True])
def test_a_lone_rank_box_whose_outline_does_not_show_is_judged_with_its_space(ticked):
    """In a small photo the last rank box's pale outline, a pixel off, shows under half its kind's contrast while the
    space's twelve other boxes show theirs (tuning photo 5109: six spaces "the printed boxes are not visible").  It is
    judged with them: an empty space reads empty; with its tick in that box the card is read.  Two such boxes, or
    one under glare, still hide the space."""
    cards = cards_of(3)
    space = SPACES[0] if ticked else SPACES[5]
    name = cell_name(space)
    box = ("rank", name, cards[space].rank_label if ticked else "K")
    m = measured(cards, 0, 0)
    m.inks[box].hidden = "hidden"
    cells, _, _, uncertain = read(m)
    assert uncertain == {}
    assert cells[space].status == ("card" if ticked else "empty")
    other = ("rank", name, "A" if box[2] != "A" else "2")
    m.inks[other].hidden = "hidden"
    _, _, _, uncertain = read(m)
    assert uncertain == {name: "the printed boxes are not visible (covered, or washed out)"}
    m.inks[other].hidden = ""
    m.inks[box].hidden = "glare"
    _, _, _, uncertain = read(m)
    assert uncertain == {name: "glare: the printed boxes are not visible"}


@pytest.mark.parametrize("top, counted", [(0.71, False), (0.84, False), (0.86, True), (1.0, True)])
def test_a_spent_tick_past_a_blank_box_counts_only_as_dark_as_the_row(top, counted):
    """Ten chips, spent boxes 1-6 ticked (ink and top 0.40), box 7 blank and box 8 with a mark whose top is ``top``
    × the row's (its ink alike).  Past a blank box a mark counts only from 0.85 of the row's top (GAP_KEPT): at 0.71
    (what an eraser left, held-out erased sheet 140011, counted 7 for 6) and 0.84 it is unsure; from 0.86 it is a
    tick, and then the blank box 7 before it is unsure (a row is ticked from its start): never 7 spent, nor 6.
    Without the gap (box 7 ticked too) the same mark at 0.71 is a tick (over STROKE_KEPT, 0.67): 8 spent."""
    cards = cards_of(12)
    box = ("chip_spent", "8", "")
    ink = {box: top * SPENT}
    stroke = {box: top * SPENT}
    _, _, spent, uncertain = read(measured(cards, 10, 6, ink=ink, stroke=stroke))
    assert spent.value is None and "chips.spent" in uncertain
    if counted:
        assert spent.unsure == [7] and spent.marked == [1, 2, 3, 4, 5, 6, 8]
    else:
        assert spent.unsure == [8]
    _, _, spent, _ = read(measured(cards, 10, 7, ink=ink, stroke=stroke))
    assert spent.value == 8


@pytest.mark.parametrize("peak, counted", [(0.7, False), (0.9, True)])
def test_a_chip_circle_past_a_blank_one_counts_only_as_dark_as_the_row(peak, counted):
    """Chip circles 1-5 filled (ink and strokes 0.40), 6 blank, 7 filled with strokes ``peak`` × the row's (ink 0.40).
    Past a blank circle a mark counts from 0.85 of the row's strokes (their median with it: 0.40): at 0.7 (0.28) it
    is unsure; at 0.9 (0.36) it is filled, and the blank circle 6 before it unsure.  Never 6 earned, nor 5."""
    cards = cards_of(12)
    chip = ("chip_earned", "7", "")
    _, earned, _, uncertain = read(measured(cards, 5, 0, ink={chip: BUBBLE}, peak={chip: peak * BUBBLE}))
    assert earned.value is None and list(uncertain) == ["chips.earned"]
    assert earned.unsure == ([6] if counted else [7])


@pytest.mark.parametrize("blank", [1, 4])
def test_a_blank_chip_circle_before_filled_ones_is_unsure(blank):
    """Chip circles 1-14 filled but circle ``blank`` measured blank (tuning seed curl-strong 7047: circle 1, filled,
    where the sheet curls off the table, measured as paper, and chips earned 14 read 13 without a ``?``).  A row is
    filled from its start: a blank circle before filled ones is unsure, and chips earned is ``?``."""
    chip = ("chip_earned", str(blank), "")
    _, earned, _, uncertain = read(measured(cards_of(12), 14, 0, ink={chip: 0.0}))
    assert earned.value is None and earned.unsure == [blank] and "chips.earned" in uncertain


def test_a_suit_column_inked_through_leaves_the_space_uncertain():
    """10♠ circled (0.50 all round); a large 10 in pen over the rest of the column: its 0 right round the heart
    (0.80), its 1 over the diamond (0.60 on eight sectors) and a stroke over the club's top (0.40 on four).  The 48
    sectors: 12 at 0, 4 at 0.40, 12 at 0.50, 8 at 0.60, 12 at 0.80: the lower quartile (the 12th) is 0 —
    not yet inked through, the space read by the other rules.  With the diamond's and club's bare sectors at 0.35
    instead (the 1 smeared wide) the quartile is 0.35, 7.8 blank levels (0.045) over the sheet's usual 0 (over
    COLUMN_INKED, 2): no blank level is left, the space is uncertain (held-out seed 60019: 10♥ read for 10♠)."""
    cards = cards_of(12)
    space = SPACES[1]
    cards[space] = Card(10, "S")
    name = cell_name(space)
    smeared = {
        ("suit", name, "S"): (0.50,) * 12,
        ("suit", name, "H"): (0.80,) * 12,
        ("suit", name, "D"): (0.60,) * 8 + (0.35,) * 4,
        ("suit", name, "C"): (0.40,) * 4 + (0.35,) * 8,
    }
    ink = {k: sorted(v, reverse=True)[4] for k, v in smeared.items()}
    cells, _, _, uncertain = read(measured(cards, 3, 1, ink=ink, sectors=smeared))
    assert uncertain == {name: "the suits are written over (the value across them?): which suit is circled?"}
    assert cells[space].card is None


def test_a_chip_circle_lighter_than_the_paper_leaves_its_row_uncertain():
    """Eight chips filled (0.40); circles 1 and 2 measure -0.20 and -0.10: lighter than blank paper by more than
    the row's blank level (0.2 × 0.40 = 0.08), as where a curled sheet's shade changes within millimetres and the
    paper's brightness is misjudged (held-out seed 60006: chips 10 read for 12).  The count is uncertain, naming
    them; a blank circle at -0.05 (within the blank level) leaves the count read."""
    cards = cards_of(12)
    ink = {("chip_earned", "1", ""): -0.20, ("chip_earned", "2", ""): -0.10}
    _, earned, _, uncertain = read(measured(cards, 8, 0, ink=ink))
    assert earned.value is None
    assert uncertain["chips.earned"] == (
        "chip circles 1–2 measure lighter than the paper around them (the sheet not flat there?): count them"
    )
    _, earned, _, uncertain = read(measured(cards, 8, 0, ink={("chip_earned", "12", ""): -0.05}))
    assert earned.value == 8 and uncertain == {}


def test_a_light_spent_tick_among_crosses_counts_by_its_strokes_top_a_rubbed_out_one_does_not():
    """Chips spent 12 in a 1920 × 1080 photo (blur 0.45 mm), crosses and ticks mixed: box 5 is a tick, less ink
    than a cross, with ink and strokes (90th percentile) at 0.56 of the others' (held-out seed 80092, flagged "spent
    boxes 5 unclear").  Both are under the too-light share, widened in a soft photo to 0.62 + 0.5 × 0.15 = 0.695;
    but its strokes' top is 0.78 of the row's, above 0.67 (STROKE_KEPT: at most 60 % of the graphite left by an
    eraser, over the lightest of a hand's marks, 0.9 of its median): a tick, chips spent 12.
    A thirteenth tick rubbed out to 60 % (a tuning photo, blur 0.3 mm) kept ink 0.72 and strokes 0.65 of the others',
    both over the sharp share 0.62, so it was counted; its top is 0.61 of the row's: unsure, never counted."""
    cards = cards_of(12)
    light = ("chip_spent", "5", "")
    _, _, spent, uncertain = read(
        measured(
            cards,
            14,
            12,
            ink={light: 0.56 * SPENT},
            peak={light: 0.56 * SPENT},
            stroke={light: 0.78 * SPENT},
            blur=0.45,
        )
    )
    assert spent.value == 12 and "chips.spent" not in uncertain
    rubbed = ("chip_spent", "13", "")
    m = measured(
        cards, 14, 13, ink={rubbed: 0.72 * SPENT}, peak={rubbed: 0.65 * SPENT}, stroke={rubbed: 0.61 * SPENT}, blur=0.3
    )
    _, _, spent, uncertain = read(m)
    assert spent.value is None and spent.unsure == [13] and spent.marked == list(range(1, 13))
    assert "spent boxes 13 unclear" in uncertain["chips.spent"]


@pytest.mark.parametrize("top, counted", [(0.66, False), (0.68, True)])
def test_a_spent_ticks_top_is_judged_against_two_thirds_of_the_rows(top, counted):
    """Chips spent 3, three ticks at the typical ink: the third's strokes' top at 0.66 of the first two's is under
    0.67 (unsure), at 0.68 over it (counted), whatever its ink (here a full tick's) and its strokes' 90th percentile."""
    box = ("chip_spent", "3", "")
    _, _, spent, _ = read(measured(cards_of(6), 5, 3, stroke={box: top * SPENT}))
    assert (spent.value == 3) is counted
    assert (spent.unsure == [3]) is not counted


@pytest.mark.parametrize("top", [0.27, 0.45])
def test_a_rank_box_beside_a_clear_tick_is_never_read_blank_for_its_low_top(top):
    """The space's 3 is ticked in black pen (ink and strokes' top 0.30); box A beside it holds 0.09, between the
    blank (0.25 × 0.30) and sure (0.40 × 0.30) levels and between a quarter and a half of the tick's ink: unsure.
    Its strokes' top at 0.27 of the tick's once made it blank (the paper's noise beside a pencilled tick, full
    110019), but a second tick in pencil beside a black pen's tops that low too (an independent tester's double
    ticks, darkness 0.40–0.50: 13 spaces read as one card).  At 0.27 or 0.45 it stays unsure, the space flagged."""
    cards = cards_of(12)
    space = SPACES[4]
    cards[space] = Card(3, "C")
    name = cell_name(space)
    box = ("rank", name, "A")
    tops = {("rank", cell_name(c), card.rank_label): RANK for c, card in cards.items()} | {box: top * RANK}
    cells, _, _, uncertain = read(measured(cards, 3, 1, ink={box: 0.09}, top=tops))
    assert uncertain == {name: "rank A: faint, ticked or not?"} and cells[space].card is None


@pytest.mark.parametrize("pencil, counted", [(False, True), (True, False)])
def test_a_spent_tick_of_another_instrument_is_not_kept_by_its_ridge(pencil, counted):
    """Chips spent 7 in light blue pen, crosses: strokes 0.40, in luminance 0.60 (1.5 times, a blue pen's ratio);
    top 0.44 and ridge 0.30.  Box 8 holds a tick, top 0.28 (0.64 of the row's, under 0.67) and ridge 0.24 (0.8,
    over 0.70).  In the same pen (luminance 0.60) its ridge keeps it: spent 8.  In grey pencil (luminance 0.42, a
    ratio of 1.05, under 0.75 × 1.5: greyer, GREYER) it is another instrument, a dark pencil tick rubbed out to 60 %
    whose ridge reached 0.77–0.84 of a light pen's row (an independent tester, 4 of 14 photos counted): its top
    alone judges it, and it is unsure.  (Its luminance, 0.42, is over 0.62 of the row's 0.60: not too light by
    that.)"""
    box = ("chip_spent", "8", "")
    crosses = {("chip_spent", str(i), ""): 0.44 for i in range(1, 8)}
    ridges = {k: 0.30 for k in crosses} | {box: 0.24}
    lumas = {k: 0.60 for k in crosses} | {box: 0.42 if pencil else 0.60}
    _, _, spent, _ = read(
        measured(cards_of(12), 9, 8, stroke=crosses | {box: 0.28}, ridge=ridges, luma=lumas, blur=0.35)
    )
    if counted:
        assert spent.value == 8
    else:
        assert spent.value is None and spent.unsure == [8] and spent.marked == list(range(1, 8))


@pytest.mark.parametrize("ridge, counted", [(0.76, True), (0.71, True), (0.69, False), (0.656, False)])
def test_a_spent_tick_beside_crosses_counts_by_its_strokes_ridge(ridge, counted):
    """Chips spent 7 in a soft photo (realistic 110023, flagged "spent boxes 1 unclear"): boxes 2–7 are crosses,
    whose two strokes add up where they meet (top 0.44); box 1 is a tick of the same pen, its top 0.28 — 0.64 of
    theirs, under 0.67 (STROKE_KEPT).  Along the strokes (ridge) the crosses measure 0.30: a tick with a ridge of
    0.76 or 0.71 of theirs reaches 0.70 (RIDGE_KEPT) and counts, chips spent 7.  With 0.69, or 0.656 (the most a
    rubbed-out spent tick of the tuning seeds kept), it is unsure: never counted."""
    box = ("chip_spent", "1", "")
    crosses = {("chip_spent", str(i), ""): 0.44 for i in range(2, 8)}
    ridges = {k: 0.30 for k in crosses} | {box: ridge * 0.30}
    _, _, spent, uncertain = read(measured(cards_of(12), 9, 7, stroke=crosses | {box: 0.28}, ridge=ridges, blur=0.35))
    if counted:
        assert spent.value == 7 and "chips.spent" not in uncertain
    else:
        assert spent.value is None and spent.unsure == [1] and spent.marked == list(range(2, 8))


@pytest.mark.parametrize(
    "box, top, blank", [(8, 0.23, True), (8, 0.36, False), (9, 0.36, True), (9, 0.44, True), (9, 0.46, False)]
)
def test_a_spent_box_with_a_trace_of_ink_but_no_stroke_is_blank(box, top, blank):
    """Chips spent 7 of 12 earned; spent box ``box`` holds 0.3 of a tick's ink, between the blank level (0.25 of it)
    and the sure level (0.40): unsure by its ink, judged by its strokes' top, ``top`` × the row's ticks'.
    - Anywhere in the row, under a third of the row's top (STROKE_NONE 0.33) no stroke is there: blank (held-out seed
      80080, light pencil in a soft photo, had a box at 0.23 flagged "spent boxes 12 unclear").
    - Right after the last tick (box 8) a top of 0.36 may be a mark rubbed out or a faint tick: unsure.
    - Past a blank box (box 9, box 8 blank) a tick would need 0.85 of the row's to count at all (GAP_KEPT), and
      under 0.45 (GAP_NONE; no real tick measured under 0.59) the box is blank: held-out realistic 160038 (blue pen,
      1080 × 1920) had such a box at 0.36, flagged "spent boxes 9 unclear".  At 0.46 it is unsure."""
    target = ("chip_spent", str(box), "")
    _, _, spent, uncertain = read(
        measured(cards_of(12), 12, 7, ink={target: 0.3 * SPENT}, stroke={target: top * SPENT})
    )
    if blank:
        assert spent.value == 7 and "chips.spent" not in uncertain
    else:
        assert spent.value is None and spent.unsure == [box]


def test_a_spent_box_whose_top_says_rubbed_out_is_not_counted_for_its_dark_strokes():
    """Chips spent 4: box 5 holds 0.3 of a tick's ink (unsure: between 0.25 and 0.40) and its strokes' 90th percentile
    is 0.8 of the ticks' (over STROKE_SURE 0.75, which counts a tick that mostly misses its box), but its strokes'
    top is 0.5 of theirs (under 0.67): what an eraser leaves.  Unsure, never a fifth chip spent; with a top of 0.9
    it is a tick that misses its box, and counts."""
    box = ("chip_spent", "5", "")
    ink, peak = {box: 0.3 * SPENT}, {box: 0.8 * SPENT}
    _, _, spent, _ = read(measured(cards_of(6), 8, 4, ink=ink, peak=peak, stroke={box: 0.5 * SPENT}))
    assert spent.value is None and spent.unsure == [5]
    _, _, spent, _ = read(measured(cards_of(6), 8, 4, ink=ink, peak=peak, stroke={box: 0.9 * SPENT}))
    assert spent.value == 5


@pytest.mark.parametrize(
    "top, ridge, span, counted",
    [
        (0.86, 0.86, 4.0, True),
        (0.83, 0.79, 3.3, True),
        (0.78, 0.78, 4.0, False),
        (0.71, 0.71, 4.0, False),
        (0.94, 0.65, 4.0, False),
        (0.94, 0.89, 1.25, False),
        (0.94, 0.89, 2.4, False),
    ],
)
def test_a_spent_tick_that_mostly_misses_its_box_counts_by_its_strokes_top(top, ridge, span, counted):
    """Chips spent 5, box 5 a tick that mostly misses its box (held-out full sheets 140018 and 140066, flagged "spent
    boxes 3 unclear", "7 unclear"): 0.3 of a tick's ink (unsure: between 0.25 and 0.40), its darkest 10 % at 0.6 of
    the ticks' (under STROKE_SURE 0.75), its strokes' top ``top`` × the others' and its ridge ``ridge`` × theirs.
    A top from 0.80 (TOP_SURE) with the ridge kept (0.70, RIDGE_KEPT) and the stroke reaching 2.5 mm (TOP_SURE_SPAN_MM;
    those ticks reached 3.3–4.1 mm) is a tick of the same hand: spent 5.  Under 0.80 (0.71: the most a rubbed-out
    spent tick kept in the held-out erased photos), with a ridge under 0.70, or a stroke reaching only 1.25 mm (an
    independent tester's pencil tick rubbed out and pushed into a compact blob: top 0.94, ridge 0.89) or 2.4 mm:
    unsure."""
    box = ("chip_spent", "5", "")
    m = measured(
        cards_of(6),
        8,
        4,
        ink={box: 0.3 * SPENT},
        peak={box: 0.6 * SPENT},
        stroke={box: top * SPENT},
        ridge={box: ridge * SPENT},
        stroke_span={box: span},
    )
    _, _, spent, uncertain = read(m)
    if counted:
        assert spent.value == 5 and "chips.spent" not in uncertain
    else:
        assert spent.value is None and spent.unsure == [5] and spent.marked == [1, 2, 3, 4]


@pytest.mark.parametrize("span, counted", [(1.06, False), (1.43, False), (1.6, True), (2.2, True)])
@pytest.mark.parametrize("spent", [1, 6])
def test_a_dot_or_compact_smudge_in_a_spent_box_is_not_a_tick(span, counted, spent):
    """Chips spent ``spent`` - 1, and box ``spent`` holding a mark as dark and as inked as a tick whose stroke through
    its top reaches only ``span`` mm (TargetInk.stroke_span).  An independent tester's dots and rubbed-out graphite
    pushed into a compact smudge reached 1.06–1.43 mm and were counted as a spent chip; a tick's stroke reaches 2 mm
    or more (project's photos 2.2 mm at least).  Under 1.5 mm (TICK_REACH_MM) the box is unsure, whatever its ink,
    alone in its row or beside clear ticks; from 1.5 mm it counts."""
    box = ("chip_spent", str(spent), "")
    _, _, got, uncertain = read(measured(cards_of(6), 8, spent, stroke={}, stroke_span={box: span}))
    if counted:
        assert got.value == spent and "chips.spent" not in uncertain
    else:
        assert got.value is None and got.unsure == [spent] and got.marked == list(range(1, spent))


def test_a_spent_tick_is_held_against_the_other_ticks_top_never_its_own():
    """An independent tester's photo (black pen, chips spent 2, a third tick pencilled and rubbed out, 57 % left,
    smeared into a smudge with a full tick's ink): the tops are 0.263, 0.471 and 0.235 (the rubbed-out one).  Held
    against the median of all three (0.263) the third is 0.89 of it and was counted; held against the other two
    (median 0.367) it is 0.64, under 0.67: unsure.  The real ticks keep theirs: 0.263 against 0.353 (the median of
    0.471 and 0.235) is 0.745, 0.471 against 0.249 is 1.89: both counted."""
    tops = {("chip_spent", "1", ""): 0.263, ("chip_spent", "2", ""): 0.471, ("chip_spent", "3", ""): 0.235}
    _, _, spent, uncertain = read(measured(cards_of(6), 5, 3, stroke=tops))
    assert spent.value is None and spent.unsure == [3] and spent.marked == [1, 2]


Q_SPADES = (SPACES[3], Card(12, "S"))
"""A space holding Q♠ (Q is in the second row of rank boxes: 8 9 10 J Q K, with J on its left and K on its right)."""


def run_on(*, k_ink: float = 0.12, k_halves=(0.12, 0.0), cross: float = 0.25, blur: float = 0.2, box: str = "K"):
    """Read a sheet whose Q♠ tick (ink and strokes 0.30) holds a stroke of ``cross`` across the gap on the side of
    ``box``, that box ``k_ink`` of ink with ``k_halves`` (left, right) in its halves: (the space's reading, the
    reason it is uncertain or ``None``)."""
    space, card = Q_SPADES
    name = cell_name(space)
    q, other = ("rank", name, "Q"), ("rank", name, box)
    across = (cross, 0.0) if box in ("J", "10") else (0.0, cross)
    m = measured(
        {**cards_of(6), space: card},
        0,
        0,
        ink={other: k_ink},
        halves={other: k_halves},
        crossing={q: across},
        blur=blur,
    )
    cells, _, _, uncertain = read(m)
    return cells[space], uncertain.get(name)


def test_a_tick_running_on_into_the_next_box_is_read_as_its_own_box():
    """A Q♠ whose tick runs on past the right edge of the Q box into the K box: the K box holds 0.4 of the tick's ink
    (0.12 of 0.30: between a quarter and a half of the clear tick, so unsure beside it), all of it in its left half,
    facing Q, and a stroke of 0.25 crosses the gap (0.83 of the tick's strokes, 0.30; over RUN_ON 0.5).  Measured
    in its half away from Q the K box is blank: the card is Q♠, with nothing to look at.  The same on the left,
    into the J box (its far half is its left)."""
    cell, why = run_on()
    assert why is None and cell.card == Card(12, "S")
    cell, why = run_on(box="J", k_halves=(0.0, 0.12))
    assert why is None and cell.card == Card(12, "S")


FAINT_K = "rank K: faint, ticked or not?"


@pytest.mark.parametrize(
    "case, reason, why",
    [
        (dict(k_halves=(0.12, 0.12)), FAINT_K, "a tick of its own crosses its far half too"),
        (
            dict(cross=0.12),
            FAINT_K,
            "nothing crosses the gap (0.12 is 0.4 of the strokes, under 0.5): a second tick beside the edge",
        ),
        (
            dict(k_ink=0.16, k_halves=(0.16, 0.0)),
            "rank K: much lighter than the other ticks: a light tick, or one rubbed out?",
            "over half the clear tick's ink (0.16 of 0.30): its own tick, marked, then too light (ink and strokes "
            "under "
            "0.62 × 0.30 = 0.186)",
        ),
        (dict(blur=0.5), FAINT_K, "a soft photo (blur 0.5 mm, over 0.4): a tick beside the gap would blur across it"),
        (
            dict(box="10", k_halves=(0.0, 0.12)),
            "rank 10: faint, ticked or not?",
            "the 10 box is two to the left of Q: no tick runs on into it",
        ),
    ],
)
def test_a_box_beside_a_tick_is_excused_only_for_a_clear_run_on(case, reason, why):
    """An independent tester's second ticks drawn beside the shared edge (0.66–0.84 of the clear tick's ink, all of it
    in the near half, no stroke across the gap) were read as one card when only the far half was looked at.  Each
    condition of a run-on broken in turn leaves the space for a person."""
    cell, got = run_on(**case)
    assert cell.status == "uncertain" and got == reason, why


RESIDUE_6 = (0.0, 0.0, 0.2, 0.2, 0.2, 0.2, 0.0, 0.0, 0.0, 0.0, 0.2, 0.2)
"""A spade's ring inked on 6 of its 12 sectors (0.2 each: its score, the 5th highest sector, is 0.2), the rest blank."""


@pytest.mark.parametrize("sectors", [RESIDUE_6, RESIDUE_6[:9] + (0.2, 0.2, 0.2), (0.2,) * 12])
def test_a_lone_ring_over_the_sure_level_on_an_empty_space_is_for_a_person(sectors):
    """A nearly empty sheet (two cards, circles of 0.30: the sure level is 0.25 × 0.30 = 0.075): a space with no
    tick and nothing written whose spade's ring scores 0.2, far over the sure level.  Whether it is inked all round
    or only on 6 or 7 of its 12 sectors (a quick "C", a circle drawn off centre, or the symbol's print left over in
    a soft photo) it is uncertain, never empty: an independent tester's C-shaped and off-centre circles alone in a
    space were read empty when a ring on fewer than 8 sectors was taken for the print."""
    space = SPACES[5]
    name = cell_name(space)
    ring = ("suit", name, "S")
    cells, _, _, uncertain = read(measured(cards_of(2), 0, 0, ink={ring: 0.2}, sectors={ring: sectors}))
    assert cells[space].status == "uncertain"
    assert uncertain == {name: "suit S is circled but no rank box is clearly ticked"}


def test_a_cards_circle_is_never_left_out_for_its_shape():
    """A card's suit ring inked on 6 of 12 sectors, its rank ticked: the card is read (the ring's shape is only held
    against it on a space where nothing else is marked)."""
    cards = cards_of(4)
    space = SPACES[1]
    ring = ("suit", cell_name(space), cards[space].suit)
    cells, _, _, uncertain = read(measured(cards, 0, 0, ink={ring: 0.2}, sectors={ring: RESIDUE_6}))
    assert uncertain == {} and cells[space].card == cards[space]


@pytest.mark.parametrize(
    "marks, reason",
    [
        ({}, "something is written in the space but no rank is ticked and no suit circled"),
        ({("suit", "H"): 0.03}, "suit H: faint, circled or not?"),
    ],
)
def test_a_light_written_value_is_seen_in_a_space_with_nothing_else_clear(marks, reason):
    """A value written in an otherwise blank space (0.012 of mean darkness over the value's area: what 99.5 % of
    written values reach; blank areas stay under 0.002), alone or beside a faint heart ring (0.03, between the
    assumed blank level 0.025 and sure level 0.04): the space is for a person, never empty.  Twice the old value
    floor (0.05) took over half of all written values for blank paper and read such a space empty."""
    cards = cards_of(2)
    light = {("suit", cell_name(c), card.suit): 0.16 for c, card in cards.items()}
    space = SPACES[5]
    name = cell_name(space)
    ink = {**light, ("value", name, ""): 0.012, **{(kind, name, key): v for (kind, key), v in marks.items()}}
    cells, _, _, uncertain = read(measured(cards, 0, 0, ink=ink))
    assert cells[space].status == "uncertain" and uncertain == {name: reason}
    ink[("value", name, "")] = 0.002  # the most a blank value area measured: nothing written, the space is empty
    cells, _, _, uncertain = read(measured(cards, 0, 0, ink=ink))
    assert cells[space].status == "empty" and uncertain == {}


class _Fit:
    """A fit mapping page millimetres to photo pixels at 4 px/mm, the page inside a 2000 × 2000 photo."""

    def to_image(self, pts):
        return np.asarray(pts, float) * 4.0 + 100.0


class _EvenLight:
    """No shadow edge, no glare anywhere."""

    def on_edge(self, box):
        return False

    def glare(self, box):
        return False


@pytest.mark.parametrize(
    "well_seen, spent_contrast, hidden", [(8, 0.22, True), (24, 0.22, True), (24, 0.8, False), (8, 0.8, False)]
)
def test_print_is_judged_against_where_the_sheet_is_seen_well_not_its_median(well_seen, spent_contrast, hidden):
    """The visibility of a target's print (marks._judge_visibility): its contrast against its template, as a share of
    its kind's typical contrast, under 0.5 (VISIBLE) is "not visible".  The rank boxes give the typical contrast for
    the chip track too.  A strongly curled sheet (held-out 150012) had the grid lined up with the photo over a few
    spaces only: here ``well_seen`` of the 24 spaces show their rank boxes at 1.0 of the template, the others at 0.2,
    and the spent boxes, measured a box off, at ``spent_contrast``.  The typical contrast is the upper quartile of the
    rank boxes' (TYPICAL_QUANTILE): with 8 spaces well seen, a third of the boxes, that is 1.0 (their median, 0.2,
    made 0.22 typical: "visible", read blank), so spent boxes at 0.22 are not visible, at 0.8 visible."""
    from generator.reader.marks import _judge_visibility

    good = {cell_name(c) for c in SPACES[:well_seen]}
    inks = {}
    for t in SCENE.marks:
        if t.kind == "rank":
            con = 1.0 if t.owner in good else 0.2
        elif t.kind == "chip_spent":
            con = spent_contrast
        else:
            continue
        inks[(t.kind, t.owner, t.key)] = TargetInk(t, 0.0, contrast=con)
    _judge_visibility(inks, _Fit(), (2000, 2000), _EvenLight())
    spent = [ti.hidden for (k, _, _), ti in inks.items() if k == "chip_spent"]
    assert spent == ["hidden" if hidden else ""] * len(spent)
    ranks = {ti.hidden for (k, o, _), ti in inks.items() if k == "rank" and o not in good}
    assert ranks == ({"hidden"} if well_seen < 24 else set())


@pytest.mark.parametrize("top", [0.52, 0.65])
def test_a_light_spent_mark_before_clear_ticks_stays_unsure(top):
    """Spent boxes 1-5 ticked and box 3 a light stroke, 3.5 mm long, its top ``top`` × the row's (under 0.67,
    STROKE_KEPT), ink 0.6 of a tick's: a tick rubbed out in the middle of the row, a stray stroke in a skipped box or
    a neighbour's tick running on into it (an independent tester's photos), or a real tick drawn light.  The clear
    ticks after it do not make it a tick: the count is "?" (a rule that counted it read 14 of the tester's counts
    one too high)."""
    box = ("chip_spent", "3", "")
    _, _, spent, uncertain = read(
        measured(cards_of(12), 9, 5, ink={box: 0.6 * SPENT}, stroke={box: top * SPENT}, stroke_span={box: 3.5})
    )
    assert spent.value is None and spent.unsure == [3] and "chips.spent" in uncertain
