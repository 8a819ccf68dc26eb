"""The model reader: one calibrated model per mark kind turns a target's ink measures into a decision.

For every mark target the reader measures (:class:`~generator.reader.marks.TargetInk`), :func:`features` gives a row
of numbers, normalised by the sheet's own hand: the target's ink over its space's (or row's) blank level, as a share
of the sheet's typical mark of its kind, its strokes' darkness against the sheet's clear marks, its neighbours', the
photo's blur and noise.  A forest of boosted decision trees per kind, trained on synthetic photos of every kind of
fault (``benchmarks/train_reader.py``), gives the probability that the target is marked; one abstain band per kind,
chosen on a validation split that training never sees so that no decision outside it was wrong there, turns it into
marked (at or over the band's top), blank (at or under its bottom) or unsure (``?``).

What is not a judgement of ink stays code: the markers and the fit (:mod:`.markers`, :mod:`.gridfit`), whether a
target is visible (:func:`~generator.reader.levels.hidden_reason`), and a card's logic (exactly one rank and one
suit, :func:`generator.reader.read.cell_reading`).

The weights are a NumPy archive shipped with the package (``weights.npz``, read without pickling): per kind the
trees' nodes (feature, threshold, children, the side a missing measure goes, leaf value), the baseline log-odds, the
feature names the trees were trained on (checked against :data:`FEATURES`) and the band.
"""

from __future__ import annotations

import math
from functools import cache
from importlib import resources
from statistics import median
from typing import TYPE_CHECKING

import numpy as np

from generator.reader.marks import DOWN_SECTORS, SIDE_SECTORS, UP_SECTORS, ring_score

if TYPE_CHECKING:  # pragma: no cover
    from generator.reader.marks import Measurement, TargetInk

KINDS = ("rank", "suit", "chip_earned", "chip_spent")
"""The mark kinds with a model of their own: rank box, suit ring, chip circle, spent box."""

COMMON = ("blur", "noise", "hand_rank", "hand_kind")
CHOICE = ("lift", "rel", "share", "is_top", "second", "space_top")
RANK = CHOICE + (
    "peak",
    "peak_rel",
    "peak_luma",
    "luma_lift",
    "top",
    "top_rel",
    "top_span",
    "half_lo",
    "half_hi",
    "cross_lo",
    "cross_hi",
    "prev",
    "next",
    "cover",
    "contrast",
    "value",
    "ring_top",
    "base_excess",
    "reg_score",
    "reg_shift",
    "space_cover",
    "space_contrast",
)
SUIT = CHOICE + (
    "ring",
    "ring_rel",
    "s_min",
    "s_q1",
    "s_med",
    "s_max",
    "up",
    "down",
    "side",
    "side_share",
    "above_facing",
    "below_facing",
    "far_up",
    "far_down",
    "near_above",
    "near_below",
    "peak",
    "peak_rel",
    "prev",
    "next",
    "contrast",
    "value",
    "box_top",
    "base_excess",
    "q_excess",
    "reg_score",
    "reg_shift",
    "space_contrast",
)
ROW = (
    "ink",
    "rel",
    "rel_rank",
    "peak",
    "peak_rel",
    "peak_luma",
    "luma_rel",
    "stroke",
    "ridge",
    "stroke_span",
    "index",
    "after_last",
    "prev",
    "next",
    "row_top",
    "row_med",
    "clear",
    "contrast",
    "earned_clear",
)
FEATURES = {
    "rank": COMMON + RANK,
    "suit": COMMON + SUIT,
    "chip_earned": COMMON + tuple(n for n in ROW if n not in ("stroke", "ridge", "stroke_span", "earned_clear")),
    "chip_spent": COMMON + ROW,
}
"""Each kind's feature names, in the order of the model's columns."""

NAN = float("nan")
MIN_HAND = 0.02
"""The smallest typical mark a sheet's hand is divided by (darkness, 0–1): a sheet with no clear mark of a kind."""


def _finite(v: float) -> bool:
    return v == v and not math.isinf(v)


def _hand(values: list[float]) -> float:
    """A sheet's typical clear mark of a kind from its groups' strongest ``values``: the median of those at least
    half the strongest group's (most groups hold a mark on a played sheet; on a nearly empty one, the few that do)."""
    vals = [v for v in values if _finite(v)]
    if not vals:
        return MIN_HAND
    top = max(vals)
    if top <= MIN_HAND:
        return MIN_HAND
    return max(MIN_HAND, float(median([v for v in vals if v >= 0.5 * top])))


def _choice(v: float, ranked: list[float], hand: float) -> list[float]:
    """A choice's standing in its space (``ranked``: the space's choices' lifts, largest first): its lift, as a share
    of the hand, as a share of the space's largest; whether it is the largest; the largest other one's and the
    space's largest as shares of the hand."""
    second = ranked[1] if v >= ranked[0] and len(ranked) > 1 else ranked[0]
    return [v, v / hand, _div(v, ranked[0]), float(v >= ranked[0]), second / hand, ranked[0] / hand]


def _sectors_over(sectors: tuple[float, ...] | None, idx: tuple[int, ...], base: float) -> list[float]:
    """A ring's measured sectors ``idx`` over ``base``."""
    return [sectors[j] - base for j in idx if sectors and j < len(sectors) and _finite(sectors[j])]


def _sector_mean(sectors: tuple[float, ...] | None, idx: tuple[int, ...], base: float) -> float:
    """The mean of a ring's sectors ``idx`` over ``base`` (NaN when none is measured)."""
    vals = _sectors_over(sectors, idx, base)
    return float(np.mean(vals)) if vals else NAN


def _sector_max(sectors: tuple[float, ...] | None, idx: tuple[int, ...], base: float) -> float:
    """The highest of a ring's sectors ``idx`` over ``base`` (NaN when none is measured)."""
    return max(_sectors_over(sectors, idx, base), default=NAN)


def _div(a: float, b: float) -> float:
    return a / b if _finite(a) and _finite(b) and b > 1e-9 else NAN


def features(cells: list[str], m: Measurement) -> dict[str, tuple[list[tuple[str, str, str]], np.ndarray]]:
    """Every target's feature row, by kind: ``{kind: (keys, X)}``, ``X`` of shape ``(len(keys), len(FEATURES[kind]))``
    (``float64``; NaN where a measure does not exist).  ``cells``: the sheet's card spaces by name."""
    inks = m.inks
    by: dict[tuple[str, str], list[tuple[str, TargetInk]]] = {}
    for (kind, owner, key), t in inks.items():
        by.setdefault((kind, owner), []).append((key, t))
    spaces = [c for c in cells if ("rank", c) in by]
    rank_base = {c: float(median([t.ink for _, t in by[("rank", c)]])) for c in spaces}
    rank_lift = {c: {k: t.ink - rank_base[c] for k, t in by[("rank", c)]} for c in spaces}
    suit_base = {}
    for c in spaces:
        sectors = [v for _, t in by.get(("suit", c), []) for v in (t.sectors or ()) if _finite(v)]
        suit_base[c] = (
            float(median(sectors)) if sectors else float(median([t.ink for _, t in by.get(("suit", c), [])] or [0]))
        )
    suit_lift = {c: {k: t.ink - suit_base[c] for k, t in by.get(("suit", c), [])} for c in spaces}
    hand_rank = _hand([max(v.values()) for v in rank_lift.values() if v])
    hand_suit = _hand([max(v.values()) for v in suit_lift.values() if v])
    rank_peaks = [t.peak for c in spaces for k, t in by[("rank", c)] if rank_lift[c][k] >= 0.5 * hand_rank]
    peak_rank = float(median(rank_peaks)) if rank_peaks else NAN
    tops = [t.top for c in spaces for k, t in by[("rank", c)] if rank_lift[c][k] >= 0.5 * hand_rank and _finite(t.top)]
    top_rank = float(median(tops)) if tops else NAN
    suit_peaks = [t.peak for c in spaces for k, t in by.get(("suit", c), []) if suit_lift[c][k] >= 0.5 * hand_suit]
    peak_suit = float(median(suit_peaks)) if suit_peaks else NAN
    common = [m.blur_mm, m.noise, hand_rank]
    usual_rank = float(median(list(rank_base.values()))) if rank_base else 0.0
    usual_suit = float(median(list(suit_base.values()))) if suit_base else 0.0
    quartile = {}
    for c in spaces:
        sectors = sorted(v for _, t in by.get(("suit", c), []) for v in (t.sectors or ()) if _finite(v))
        quartile[c] = sectors[(len(sectors) - 1) // 4] if sectors else 0.0
    usual_quartile = float(median(list(quartile.values()))) if quartile else 0.0

    def registration(name: str) -> tuple[float, float]:
        dx, dy, score, _ = m.registration.get(name, (NAN, NAN, NAN, False))
        return score, math.hypot(dx, dy)

    def mean_of_finite(values: list[float]) -> float:
        vals = [v for v in values if _finite(v)]
        return float(np.mean(vals)) if vals else NAN

    out: dict[str, tuple[list, list]] = {k: ([], []) for k in KINDS}
    for c in spaces:
        value = inks[("value", c, "")].ink if ("value", c, "") in inks else NAN
        lifts = rank_lift[c]
        order = list(lifts)
        ranked = sorted(lifts.values(), reverse=True)
        slifts = suit_lift[c]
        sranked = sorted(slifts.values(), reverse=True) or [0.0]
        for i, (k, t) in enumerate(by[("rank", c)]):
            v = lifts[k]
            halves = t.halves or (NAN, NAN)
            cross = t.crossing or (NAN, NAN)
            luma = t.ink_luma - float(median([u.ink_luma for _, u in by[("rank", c)]]))
            row = [
                *_choice(v, ranked, hand_rank),
                t.peak,
                _div(t.peak, peak_rank),
                t.peak_luma,
                luma,
                t.top,
                _div(t.top, top_rank),
                t.top_span,
                _div(min(halves) - rank_base[c], hand_rank),
                _div(max(halves) - rank_base[c], hand_rank),
                min(cross),
                max(cross),
                lifts[order[i - 1]] / hand_rank if i > 0 else NAN,
                lifts[order[i + 1]] / hand_rank if i + 1 < len(order) else NAN,
                t.cover,
                t.contrast,
                value,
                sranked[0] / hand_suit,
                (rank_base[c] - usual_rank) / hand_rank,
                *registration(c),
                mean_of_finite([u.cover for _, u in by[("rank", c)]]),
                mean_of_finite([u.contrast for _, u in by[("rank", c)]]),
            ]
            out["rank"][0].append(("rank", c, k))
            out["rank"][1].append([*common, hand_rank, *row])
        sorder = list(slifts)
        suit_inks = dict(by.get(("suit", c), []))
        facing = {
            k: tuple(_sector_mean(t.sectors, idx, suit_base[c]) for idx in (UP_SECTORS, DOWN_SECTORS, SIDE_SECTORS))
            for k, t in suit_inks.items()
        }
        sides = [f[2] for f in facing.values() if _finite(f[2])]
        top_side = max(sides) if sides else NAN
        for i, (k, t) in enumerate(suit_inks.items()):
            v = slifts[k]
            sec = sorted(s - suit_base[c] for s in (t.sectors or ()) if _finite(s)) or [NAN]
            secs = t.sectors or ()
            up, down, side = facing[k]
            ring = ring_score(secs) - suit_base[c] if secs else NAN
            lean = (  # the far side of its own ring, and the sides of its neighbours' facing it
                _sector_max(secs, DOWN_SECTORS, suit_base[c]),
                _sector_max(secs, UP_SECTORS, suit_base[c]),
                _sector_max(suit_inks[sorder[i - 1]].sectors, DOWN_SECTORS, suit_base[c]) if i > 0 else NAN,
                _sector_max(suit_inks[sorder[i + 1]].sectors, UP_SECTORS, suit_base[c]) if i + 1 < len(sorder) else NAN,
            )
            row = [
                *_choice(v, sranked, hand_suit),
                ring,
                _div(ring, hand_suit),
                sec[0],
                sec[(len(sec) - 1) // 4],
                sec[len(sec) // 2],
                sec[-1],
                up,
                down,
                side,
                _div(side, top_side),
                facing[sorder[i - 1]][1] / hand_suit if i > 0 else NAN,
                facing[sorder[i + 1]][0] / hand_suit if i + 1 < len(sorder) else NAN,
                *(v / hand_suit for v in lean),
                t.peak,
                _div(t.peak, peak_suit),
                slifts[sorder[i - 1]] / hand_suit if i > 0 else NAN,
                slifts[sorder[i + 1]] / hand_suit if i + 1 < len(sorder) else NAN,
                t.contrast,
                value,
                ranked[0] / hand_rank,
                (suit_base[c] - usual_suit) / hand_suit,
                (quartile[c] - usual_quartile) / hand_suit,
                *registration(c + "/suits"),
                mean_of_finite([u.contrast for _, u in by.get(("suit", c), [])]),
            ]
            out["suit"][0].append(("suit", c, k))
            out["suit"][1].append([*common, hand_suit, *row])
    earned_clear = NAN
    for kind in ("chip_earned", "chip_spent"):
        row_t = sorted(((int(o), ts[0][1]) for (kk, o), ts in by.items() if kk == kind), key=lambda x: x[0])
        if not row_t:
            continue
        vals = [t.ink for _, t in row_t]
        hand = _hand(vals)
        top = max(vals)
        clear = [i for i, t in row_t if t.ink >= 0.5 * top and t.ink >= 2 * MIN_HAND]
        last = max(clear, default=0)
        peaks = [t.peak for i, t in row_t if i in clear]
        peak_row = float(median(peaks)) if peaks else NAN
        lumas = [t.peak_luma for i, t in row_t if i in clear and _finite(t.peak_luma)]
        luma_row = float(median(lumas)) if lumas else NAN
        med = float(median(vals))
        for j, (i, t) in enumerate(row_t):
            named = dict(
                zip(
                    ROW,
                    (
                        t.ink,
                        t.ink / hand,
                        t.ink / hand_rank,
                        t.peak,
                        _div(t.peak, peak_row),
                        t.peak_luma,
                        _div(t.peak_luma, luma_row),
                        t.stroke,
                        t.ridge,
                        t.stroke_span,
                        float(i),
                        float(i - last),
                        vals[j - 1] / hand if j > 0 else NAN,
                        vals[j + 1] / hand if j + 1 < len(vals) else NAN,
                        top / hand,
                        med / hand,
                        float(len(clear)),
                        t.contrast,
                        earned_clear,
                    ),
                    strict=True,
                )
            )
            row = [named[n] for n in FEATURES[kind][len(COMMON) :]]
            out[kind][0].append((kind, str(i), ""))
            out[kind][1].append([*common, hand, *row])
        if kind == "chip_earned":
            earned_clear = float(len(clear))
    return {
        k: (keys, np.asarray(rows, dtype=np.float64).reshape(len(keys), len(FEATURES[k])))
        for k, (keys, rows) in out.items()
    }


class Forest:
    """A kind's boosted trees as flat arrays (all trees' nodes one after another).

    Attributes:
        feature, threshold, left, right, missing_left, leaf, value: per node; ``left``/``right`` are absolute node
            indices; a row goes left when its feature is at most ``threshold`` (a NaN goes where ``missing_left``
            says).
        roots: each tree's first node; ``baseline``: the log-odds before any tree; ``band``: ``(blank, marked)``
            probabilities (at or under the first: blank; at or over the second: marked).
    """

    def __init__(self, arrays: dict[str, np.ndarray], kind: str):
        self.feature = arrays[f"{kind}.feature"].astype(np.int64)
        self.threshold = arrays[f"{kind}.threshold"].astype(np.float64)
        self.left = arrays[f"{kind}.left"].astype(np.int64)
        self.right = arrays[f"{kind}.right"].astype(np.int64)
        self.missing_left = arrays[f"{kind}.missing_left"].astype(bool)
        self.leaf = arrays[f"{kind}.leaf"].astype(bool)
        self.value = arrays[f"{kind}.value"].astype(np.float64)
        self.roots = arrays[f"{kind}.roots"].astype(np.int64)
        self.baseline = float(arrays[f"{kind}.baseline"])
        blank, marked = (float(v) for v in arrays[f"{kind}.band"])
        self.band = (blank, marked)
        names = [str(v) for v in arrays[f"{kind}.names"]]
        if names != list(FEATURES[kind]):
            raise ValueError(f"the {kind} model was trained on other features: retrain it (benchmarks/train_reader.py)")

    def probability(self, X: np.ndarray) -> np.ndarray:
        """The probability that each row's target is marked (shape ``(len(X),)``)."""
        n = len(X)
        if n == 0:
            return np.zeros(0)
        node = np.broadcast_to(self.roots, (n, len(self.roots))).copy()
        rows = np.arange(n)[:, None]
        while True:
            inner = ~self.leaf[node]
            if not inner.any():
                break
            x = X[rows, self.feature[node]]
            go_left = np.where(np.isnan(x), self.missing_left[node], x <= self.threshold[node])
            node = np.where(inner, np.where(go_left, self.left[node], self.right[node]), node)
        raw = self.baseline + self.value[node].sum(axis=1)
        return 1.0 / (1.0 + np.exp(-raw))


WEIGHTS = "weights.npz"


@cache
def forests() -> dict[str, Forest]:
    """The shipped models, by kind (loaded once per process)."""
    with resources.files("generator.reader").joinpath(WEIGHTS).open("rb") as fh:
        arrays = dict(np.load(fh, allow_pickle=False))
    return {k: Forest(arrays, k) for k in KINDS}


def probabilities(cells: list[str], m: Measurement) -> dict[tuple[str, str, str], float]:
    """Every measured target's probability of being marked, by ``(kind, owner, key)``."""
    out: dict[tuple[str, str, str], float] = {}
    models = forests()
    for kind, (keys, X) in features(cells, m).items():
        out.update(zip(keys, models[kind].probability(X).tolist(), strict=True))
    return out


__all__ = ["FEATURES", "KINDS", "Forest", "features", "forests", "probabilities"]
