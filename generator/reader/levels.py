"""Judging one target by its ink against the sheet's own levels: marked, blank or unsure.

Shared by every sheet kind the reader reads (All In sheets in :mod:`.read`,
tick pads in :mod:`.kinds.tickpad`): the two-threshold decision, a mark far
lighter than the sheet's own marks, a mark greyer than the hand's, and the
reason a field cannot be read at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.reader.numeric import median


@dataclass
class Decision:
    """One target's decision: ``True`` marked, ``False`` blank, ``None`` unsure; with ink and confidence 0–1."""

    marked: bool | None
    ink: float
    confidence: float


def decide_ink(ink: float, blank: float, sure: float, mark: float) -> Decision:
    if ink >= sure:
        return Decision(True, ink, float(min(1.0, (ink - sure) / max(mark - sure, 1e-6) * 0.5 + 0.5)))
    if ink < blank:
        return Decision(False, ink, float(min(1.0, (blank - ink) / max(blank, 1e-6) * 0.5 + 0.5)))
    return Decision(None, ink, 0.0)


def typical_peak(peaks: list[float], least: int = 3) -> float | None:
    """The sheet's typical stroke darkness from its clear marks (``None`` with fewer than ``least``)."""
    return float(median(peaks)) if len(peaks) >= least else None


def dark_strokes(peak: float | None, peak_level: float | None, share: float | None) -> bool:
    """True when an unsure mark's darkest strokes ``peak`` reach ``share`` of the sheet's own (``peak_level``: its
    clear marks' typical strokes, :func:`typical_peak`); never when the sheet has too few clear marks to tell
    (``peak_level`` is ``None``) nor when a measure is missing (NaN)."""
    return share is not None and peak is not None and peak_level is not None and peak >= share * peak_level


def too_light(
    ink: float,
    mark: float | None,
    peak: float | None,
    peak_level: float | None,
    share: float,
    stroke_share: float | None = None,
) -> bool:
    """True when a mark is far lighter than the sheet's own marks (the shares are :data:`generator.reader.read.LIGHT`);
    never when the sheet
    has too few clear marks of the kind to tell (``mark`` or, for boxes and circles, ``peak_level`` is ``None``)."""
    if mark is None:
        return False
    stroke_share = share if stroke_share is None else stroke_share
    if peak is not None and peak_level is not None and peak < stroke_share * peak_level:
        return True  # strokes far lighter than the sheet's own, however wide the smudge spreads the ink
    if ink >= share * mark:
        return False
    if peak is None:
        return True
    return peak_level is not None and peak < share * peak_level


GREYER = 0.75
"""A mark is *greyer* than the hand's own marks when the ratio of its strokes' luminance darkness to their
brightest-channel darkness is below this share of the sheet's typical ratio (:func:`hand_ratio`).  A blue pen's
strokes are about 1.7 times as dark in luminance as in the brightest channel, a pencil's or a black pen's about as
dark in both: a smear of pencil among blue ticks is greyer, a light tick of the same pen is not."""


def hand_ratio(pairs: list[tuple[float, float]]) -> float | None:
    """The sheet's typical ratio of luminance to brightest-channel stroke darkness, from its clear marks'
    ``(peak, peak_luma)`` (at least two with strokes darker than 0.05); ``None`` when too few."""
    ratios = [pl / p for p, pl in pairs if p > 0.05 and pl == pl]
    return float(median(ratios)) if len(ratios) >= 2 else None


def greyer(peak: float, peak_luma: float, ratio: float | None) -> bool:
    """True when a mark's strokes are greyer than the hand's (:data:`GREYER`); never without a ratio to compare."""
    if ratio is None or not peak_luma == peak_luma or peak <= 0.0:
        return False
    return peak_luma / peak < GREYER * ratio


HIDDEN = {
    "outside": "outside the photo",
    "edge": "a hard shadow's edge, or something over the sheet, runs across {what}: take the photo again in even light "
    "with nothing over the sheet",
    "glare": "glare: the printed {print} are not visible",
    "hidden": "the printed {print} are not visible (covered, or washed out)",
}
"""Why a field cannot be read, by the first of its targets' :attr:`~.marks.TargetInk.hidden` reasons."""


def hidden_reason(targets: list, what: str) -> str:
    """The reason a field cannot be read from its targets (``""`` when every one can be judged).

    ``what`` names the field's part: ``space``, ``chip circles``, ``spent boxes``."""
    reasons = {t.hidden for t in targets if t.hidden}
    # glare or covered: what most of the hidden targets show (a thumb's bright rim may pass for glare on one box)
    glare, hidden = (sum(t.hidden == k for t in targets) for k in ("glare", "hidden"))
    for key in ("outside", "edge", "glare" if glare >= hidden else "hidden", "hidden" if glare >= hidden else "glare"):
        if key in reasons:
            if what == "space":
                printed = "boxes"
                part = "the space"
            else:
                nums = sorted(int(t.target.owner) for t in targets if t.hidden == key)
                printed = f"{what} {span_text(nums)}"
                part = printed
                if key == "outside":
                    return f"{what} {span_text(nums)} are outside the photo"
            return HIDDEN[key].format(what=part, print=printed)
    return ""


def span_text(nums: list[int]) -> str:
    """``1–3, 5`` for ``[1, 2, 3, 5]``."""
    out, i = [], 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        out.append(str(nums[i]) if i == j else f"{nums[i]}–{nums[j]}")
        i = j + 1
    return ", ".join(out)
