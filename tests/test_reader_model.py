"""The model reader: its trees run without scikit-learn, its features are normalised by the sheet's own hand, and
its decisions become cards and counts through the same card logic as the rules reader."""

from __future__ import annotations

import math

import numpy as np
import pytest

from generator.printing.scene import MarkTarget
from generator.reader.marks import Measurement, TargetInk
from generator.reader.model import FEATURES, KINDS, Forest, features, forests


def _forest(kind: str = "rank") -> Forest:
    """Two trees by hand: the first splits feature 0 at 0.5 (a missing value goes left) into leaves -1 and +1, the
    second is one leaf of 0.25; the baseline log-odds is -0.25."""
    n = len(FEATURES[kind])
    arrays = {
        f"{kind}.feature": np.array([0, 0, 0, 0]),
        f"{kind}.threshold": np.array([0.5, 0.0, 0.0, 0.0]),
        f"{kind}.left": np.array([1, 0, 0, 0]),
        f"{kind}.right": np.array([2, 0, 0, 0]),
        f"{kind}.missing_left": np.array([True, False, False, False]),
        f"{kind}.leaf": np.array([False, True, True, True]),
        f"{kind}.value": np.array([0.0, -1.0, 1.0, 0.25]),
        f"{kind}.roots": np.array([0, 3]),
        f"{kind}.baseline": np.array(-0.25),
        f"{kind}.band": np.array([0.1, 0.9]),
        f"{kind}.names": np.array(FEATURES[kind]),
    }
    assert n > 1
    return Forest(arrays, kind)


def test_trees_by_hand():
    f = _forest()
    X = np.zeros((4, len(FEATURES["rank"])))
    X[:, 0] = [0.2, 0.5, 0.9, np.nan]
    # raw log-odds: -0.25 - 1 + 0.25 = -1 (left, at the threshold too, and missing), -0.25 + 1 + 0.25 = 1 (right)
    want = [1 / (1 + math.e), 1 / (1 + math.e), 1 / (1 + math.exp(-1)), 1 / (1 + math.e)]
    assert f.probability(X) == pytest.approx(want)
    assert f.band == (0.1, 0.9)
    assert f.probability(np.zeros((0, len(FEATURES["rank"])))).shape == (0,)


def test_weights_trained_on_other_features_are_refused():
    kind = "suit"
    arrays = {
        f"{kind}.feature": np.array([0]),
        f"{kind}.threshold": np.array([0.0]),
        f"{kind}.left": np.array([0]),
        f"{kind}.right": np.array([0]),
        f"{kind}.missing_left": np.array([False]),
        f"{kind}.leaf": np.array([True]),
        f"{kind}.value": np.array([0.0]),
        f"{kind}.roots": np.array([0]),
        f"{kind}.baseline": np.array(0.0),
        f"{kind}.band": np.array([0.1, 0.9]),
        f"{kind}.names": np.array(["lift", "rel"]),
    }
    with pytest.raises(ValueError, match="retrain"):
        Forest(arrays, kind)


def test_shipped_weights_load_for_every_kind():
    models = forests()
    assert set(models) == set(KINDS)
    for kind, f in models.items():
        blank, marked = f.band
        assert 0.0 <= blank <= marked <= 1.0, kind
        assert f.leaf[f.roots].sum() < len(f.roots)  # real trees, not leaves alone


def _ink(kind: str, owner: str, key: str, ink: float, peak: float = 0.0, **kw) -> TargetInk:
    return TargetInk(MarkTarget(kind, owner, key, 0.0, 0.0, 3.0, 3.0), ink, peak=peak, **kw)


RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _measurement() -> Measurement:
    """Two spaces: a1 with Q ticked (0.40 over a blank 0.02) and spades circled; a2 with 7 ticked lighter (0.20) and
    hearts circled.  Chips: 3 of 5 circles filled (0.5, 0.5, 0.3), one spent box ticked."""
    inks = {}
    for cell, ticked, tick, suit in (("a1", "Q", 0.42, "S"), ("a2", "7", 0.22, "H")):
        for r in RANKS:
            inks[("rank", cell, r)] = _ink(
                "rank", cell, r, tick if r == ticked else 0.02, peak=0.5 if r == ticked else 0.05
            )
        for s in "SHDC":
            sectors = tuple([0.3 if s == suit else 0.01] * 12)
            inks[("suit", cell, s)] = _ink("suit", cell, s, 0.3 if s == suit else 0.01, sectors=sectors)
        inks[("value", cell, "")] = _ink("value", cell, "", 0.05)
    for i, v in enumerate((0.5, 0.5, 0.3, 0.0, 0.0), start=1):
        inks[("chip_earned", str(i), "")] = _ink("chip_earned", str(i), "", v)
    for i, v in enumerate((0.4, 0.0, 0.0, 0.0, 0.0), start=1):
        inks[("chip_spent", str(i), "")] = _ink("chip_spent", str(i), "", v)
    return Measurement(inks=inks, blur_mm=0.2, registration={}, noise=0.01)


def test_features_are_normalised_by_the_sheets_hand():
    out = features(["a1", "a2"], _measurement())
    keys, X = out["rank"]
    col = {n: i for i, n in enumerate(FEATURES["rank"])}
    q = X[keys.index(("rank", "a1", "Q"))]
    seven = X[keys.index(("rank", "a2", "7"))]
    blank = X[keys.index(("rank", "a1", "2"))]
    # lifts over each space's median (0.02): 0.40 and 0.20; the hand is their median (both over half the top): 0.30
    assert q[col["lift"]] == pytest.approx(0.40)
    assert q[col["hand_rank"]] == pytest.approx(0.30)
    assert q[col["rel"]] == pytest.approx(0.40 / 0.30)
    assert seven[col["rel"]] == pytest.approx(0.20 / 0.30)
    assert q[col["is_top"]] == 1.0 and blank[col["is_top"]] == 0.0
    assert blank[col["share"]] == pytest.approx(0.0)
    # the neighbours of Q are J and K, both blank (lift 0); the peak against the clear ticks' median peak (0.5)
    assert q[col["prev"]] == pytest.approx(0.0) and q[col["next"]] == pytest.approx(0.0)
    assert q[col["peak_rel"]] == pytest.approx(1.0)
    assert X.shape == (26, len(FEATURES["rank"]))
    keys, X = out["chip_earned"]
    col = {n: i for i, n in enumerate(FEATURES["chip_earned"])}
    # the row's hand: the median of the inks at least half its top (0.5, 0.5, 0.3): 0.5; its clear ones: 1-3
    third = X[keys.index(("chip_earned", "3", ""))]
    assert third[col["rel"]] == pytest.approx(0.6)
    assert third[col["clear"]] == 3.0 and third[col["after_last"]] == 0.0
    keys, X = out["chip_spent"]
    col = {n: i for i, n in enumerate(FEATURES["chip_spent"])}
    assert X[keys.index(("chip_spent", "2", ""))][col["earned_clear"]] == 3.0


def test_a_circle_drawn_off_towards_the_suit_below_shows_in_the_lean_features():
    """One space, its hearts circled low: the ring's lower sectors (7–10) inked 0.40, its upper ones (1–4) blank, and
    the diamonds' upper sectors, facing it, crossed at 0.30.  Sector means are over the space's blank level (the
    median of its 48 sectors: 0.0); the sheet's hand for suits is the one circled ring's ink over that level, 0.20."""
    inks = {}
    for r in RANKS:
        inks[("rank", "a1", r)] = _ink("rank", "a1", r, 0.4 if r == "5" else 0.02)
    rings = {s: [0.0] * 12 for s in "SHDC"}
    for j in (7, 8, 9, 10):
        rings["H"][j] = 0.4
    for j in (1, 2, 3, 4):
        rings["D"][j] = 0.3
    for s in "SHDC":
        inks[("suit", "a1", s)] = _ink("suit", "a1", s, 0.2 if s == "H" else 0.0, sectors=tuple(rings[s]))
    m = Measurement(inks=inks, blur_mm=0.2, registration={}, noise=0.01)
    keys, X = features(["a1"], m)["suit"]
    col = {n: i for i, n in enumerate(FEATURES["suit"])}
    hearts, diamonds, spades = (X[keys.index(("suit", "a1", s))] for s in "HDS")
    hand = hearts[col["hand_kind"]]
    assert hand == pytest.approx(0.2)  # the one ring with ink: its lift over the blank level
    # hearts: its far side from a neighbour above is its bottom (inked), from one below its top (blank)
    assert hearts[col["far_up"]] == pytest.approx(0.4 / hand)
    assert hearts[col["far_down"]] == pytest.approx(0.0)
    # the neighbours' sides facing it: spades' bottom (blank), diamonds' top (crossed)
    assert hearts[col["near_above"]] == pytest.approx(0.0)
    assert hearts[col["near_below"]] == pytest.approx(0.3 / hand)
    # diamonds sees the hearts' bottom facing it; spades has no neighbour above
    assert diamonds[col["near_above"]] == pytest.approx(0.4 / hand)
    assert math.isnan(spades[col["near_above"]])


@pytest.mark.slow
@pytest.mark.parametrize("style", ["pencil", "blue"])
def test_the_model_reads_clean_photos_as_their_sheets(tmp_path, style):
    """A bot's finished sheet, drawn in pencil or blue pen and photographed cleanly: the model reader's cards and chip
    counts are the sheet's own (the truth the photo was drawn from)."""
    from generator.printing.paper import paper
    from generator.reader import read_photo
    from generator.reader.read import decide_model
    from tests.test_reader import BLUE, PENCIL, game, params, write_photo

    result = game("q-diamonds", 11)
    sheet = result.sheets[0]
    path = write_photo(tmp_path, "ann.jpg", sheet, paper("a4"), 3, params(), PENCIL if style == "pencil" else BLUE)
    reading = read_photo(path)
    cells, earned, spent = decide_model(reading.layout, reading.measurement)
    assert all(c.status != "uncertain" for c in cells.values()), [c.reason for c in cells.values() if c.reason]
    got = {coord: c.card.code for coord, c in cells.items() if c.card}
    assert got == {coord: card.code for coord, card in sheet.cards.items()}
    assert (earned.value, spent.value) == (sheet.chips_earned, sheet.chips_spent)
