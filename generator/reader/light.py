"""The light on the page: how bright the paper is everywhere, where a hard shadow's edge runs, where glare is.

The reader divides the photo by the paper's brightness so that ink is measured
the same in sun and shade (:func:`estimate_light`).  The paper's brightness is
estimated from the photo itself, where the blank template says paper should
be (print is divided by its own printed colour first):

1. at :data:`LIGHT_PPM` pixels per mm, each colour channel divided by the
   template's, the median within 2.5 mm (thin pen strokes and noise vanish);
2. a grey *closing* (brightest, then darkest, within 9 mm): dark blobs smaller
   than 9 mm — filled chip circles, written digits, suit symbols — are filled
   from the paper around them, while a straight shadow edge, a step far longer
   than 9 mm, keeps its place exactly;
3. a slight smoothing.

A *hard shadow edge* is where that brightness changes by more than
:data:`EDGE_STEP` (as a log ratio) within 2 mm; soft shadows and gradients
change far more slowly.  The targets within :data:`EDGE_BAND_MM` of such an edge
cannot be measured reliably (the light there is known only to about a
millimetre): their fields are uncertain.  *Glare* is where the paper is much
brighter than the sheet's typical paper (:data:`GLARE_LEVEL`) or the sensor is
saturated.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.reader.numeric import median

LIGHT_PPM = 2.0
"""Resolution (pixels per mm) of the light estimate."""
EDGE_STEP = 0.25
"""A change of the paper's brightness by more than this log ratio within 2 mm is a hard shadow's edge (about 28 %)."""
EDGE_BAND_MM = 1.5
"""Targets this close to a hard shadow's edge (beyond the edge's own width) are not measured."""
GLARE_LEVEL = 1.18
"""Paper this much brighter than the sheet's typical paper is under glare."""
SATURATED = 0.985
"""A channel at least this bright (0–1) is clipped by the sensor."""


@dataclass
class Light:
    """The paper's brightness over a rectified page region, and where it cannot be trusted.

    Attributes:
        paper: the paper's brightness per pixel of the rectified region, ``(h, w, 3)`` float32 (BGR, 0–1).
        level: the brightest channel of the paper at :data:`LIGHT_PPM`, ``(h', w')``.
        edge: ``(h', w')`` bool — a hard shadow's edge runs here (widened by :data:`EDGE_BAND_MM`).
        saturated: ``(h', w')`` float — the share of clipped photo pixels.
        typical: the sheet's typical paper level (median of ``level``).
        origin: the region's top-left corner (mm).
    """

    paper: np.ndarray
    level: np.ndarray
    edge: np.ndarray
    saturated: np.ndarray
    typical: float
    origin: tuple[float, float]

    def _window(self, box_mm: tuple[float, float, float, float], pad: float = 0.0) -> tuple[slice, slice]:
        x0, y0, x1, y1 = box_mm
        ox, oy = self.origin
        h, w = self.level.shape
        a = max(0, int(np.floor((x0 - pad - ox) * LIGHT_PPM)))
        b = min(w, int(np.ceil((x1 + pad - ox) * LIGHT_PPM)))
        c = max(0, int(np.floor((y0 - pad - oy) * LIGHT_PPM)))
        d = min(h, int(np.ceil((y1 + pad - oy) * LIGHT_PPM)))
        return slice(c, max(c, d)), slice(a, max(a, b))

    def on_edge(self, box_mm: tuple[float, float, float, float]) -> bool:
        """True when a hard shadow's edge runs through (or near) the page box ``(x0, y0, x1, y1)`` mm."""
        sy, sx = self._window(box_mm)
        return bool(self.edge[sy, sx].any())

    def glare(self, box_mm: tuple[float, float, float, float]) -> bool:
        """True when the box is under glare: paper far brighter than the sheet's, or the sensor clipped."""
        sy, sx = self._window(box_mm, 1.0)
        lv = self.level[sy, sx]
        if lv.size == 0:
            return False
        return bool(float(lv.max()) > GLARE_LEVEL * self.typical or float(self.saturated[sy, sx].max()) > 0.05)


def _disk(diameter_px: int) -> np.ndarray:
    import cv2

    d = max(3, diameter_px | 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))


EDGE_MIN_MM = 12.0
"""A step of the paper's brightness counts as a shadow's edge only when it runs at least this far, or reaches the
edge of the measured region: a shadow's edge is a long line across the sheet (cast by a phone, a hand, a lamp's
shade), while a dense knot of marks the closing cannot quite fill (a bold circle over black suits, a big written
value) leaves a small closed ring of steps inside the region."""


SPARSE_PAPER = 0.25
SPARSE_RAMP = 0.2
"""Where less than ``SPARSE_PAPER`` of the 9 mm disc around a point is paper the reader can measure (the rest is
print), the 9 mm closing has too little paper to go on; up to ``SPARSE_PAPER + SPARSE_RAMP`` it is blended with the
wider closing (:data:`KNOT_MM`), from there on it is trusted alone."""
KNOT_MM = 16.0
"""The wider closing's diameter (mm): it fills a knot of print up to this size (a reward badge beside its icon
and a space's suits) while a long straight shadow's edge, as with any closing, keeps its place."""


def _long_edges(edge: np.ndarray) -> np.ndarray:
    """``edge`` (``uint8`` at :data:`LIGHT_PPM`) without its small pieces that stay inside the region (see
    :data:`EDGE_MIN_MM`)."""
    import cv2

    n, labels, stats, _ = cv2.connectedComponentsWithStats(edge, connectivity=8)
    h, w = edge.shape
    keep = np.zeros(n, bool)
    margin = int(round(2 * LIGHT_PPM))
    for i in range(1, n):
        x, y, bw, bh = stats[i, :4]
        border = x <= margin or y <= margin or x + bw >= w - margin or y + bh >= h - margin
        keep[i] = border or np.hypot(bw, bh) / LIGHT_PPM >= EDGE_MIN_MM
    return keep[labels].astype(np.uint8)


def brightest_channel(img: np.ndarray) -> np.ndarray:
    """The largest of each pixel's three channels (``img.max(axis=2)``, same dtype), channel by channel through
    OpenCV: several times faster, and no whole-image copies (a fresh process pays for every new page of memory)."""
    import cv2

    return cv2.max(cv2.max(cv2.extractChannel(img, 0), cv2.extractChannel(img, 1)), cv2.extractChannel(img, 2))


_SEEN: dict[tuple, tuple] = {}


def _paper_seen(template_rgb: np.ndarray, lw: int, lh: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What :func:`estimate_light` takes from the blank template alone, at ``(lw, lh)`` pixels: the template
    (BGR float32, 0–1), where paper is measured (bool), how far the 9 mm closing can be trusted there (0–1), and
    where enough paper is seen to look for a shadow's edge (bool).  Kept for the last few templates (the same
    template object serves every photo of its sheet: :func:`generator.reader.marks.blank_page`)."""
    import cv2

    key = (id(template_rgb), template_rgb.shape, lw, lh)
    hit = _SEEN.get(key)
    if hit is not None and hit[0] is template_rgb:
        return hit[1:]
    # (resized first, then swapped to BGR: the same pixels, a third of the time of resizing the reversed view)
    tpl = (
        cv2.cvtColor(cv2.resize(template_rgb, (lw, lh), interpolation=cv2.INTER_AREA), cv2.COLOR_RGB2BGR).astype(
            np.float32
        )
        / 255.0
    )
    # paper is measured where the template is (nearly) white or pale, a little away from darker print
    # (its edges are blurred differently in the photo); elsewhere the closing fills it in from around
    valid = cv2.erode((brightest_channel(tpl) >= 0.8).astype(np.uint8), _disk(3)).astype(bool)
    # a knot of print wider than the closing (a reward badge, its icon and a space's suits side by side) leaves
    # only a few paper pixels, dimmed by the print's blur and the marks: there the paper is taken from a wider closing
    # (the closing's value at a point comes from every point of the disc around it: the least paper any of them sees)
    big = _disk(int(9 * LIGHT_PPM))
    seen_share = cv2.filter2D(
        valid.astype(np.float32), -1, big.astype(np.float32) / float(big.sum()), borderType=cv2.BORDER_REPLICATE
    )
    trust = np.clip((cv2.erode(seen_share, big) - SPARSE_PAPER) / SPARSE_RAMP, 0.0, 1.0)
    # (not where the paper is hardly seen: a marker, the sheet code; the brightness there is guessed)
    seen = cv2.blur(valid.astype(np.float32), (int(4 * LIGHT_PPM) + 1,) * 2) > 0.25
    for arr in (tpl, valid, trust, seen):
        arr.setflags(write=False)
    _SEEN[key] = (template_rgb, tpl, valid, trust, seen)
    while len(_SEEN) > 4:
        _SEEN.pop(next(iter(_SEEN)), None)
    return tpl, valid, trust, seen


def estimate_light(rect: np.ndarray, template_rgb: np.ndarray, ppm: float, origin: tuple[float, float]) -> Light:
    """The paper's brightness over a rectified region (see the module docstring).

    Args:
        rect: the photo's page region, rectified, BGR ``uint8`` at ``ppm`` pixels per mm.
        template_rgb: the blank sheet over the same region at the same scale, RGB ``uint8``.
        origin: the region's top-left corner (mm).
    """
    import cv2

    h, w = rect.shape[:2]
    lw, lh = max(4, int(round(w / ppm * LIGHT_PPM))), max(4, int(round(h / ppm * LIGHT_PPM)))
    small = cv2.resize(rect, (lw, lh), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    clipped = (brightest_channel(rect) >= int(SATURATED * 255)).astype(np.float32)
    saturated = cv2.resize(clipped, (lw, lh), interpolation=cv2.INTER_AREA)
    tpl, valid, trust, seen = _paper_seen(template_rgb, lw, lh)
    ratio = np.where(valid[..., None], small / np.maximum(tpl, 0.8), 0).astype(np.float32)
    fine = cv2.medianBlur(ratio, 5)  # thin strokes and noise go, edges stay
    big = _disk(int(9 * LIGHT_PPM))
    closed = cv2.erode(cv2.dilate(fine, big), big)
    if float(trust.min()) < 1.0:
        wider = _disk(int(KNOT_MM * LIGHT_PPM))
        closed_wide = cv2.erode(cv2.dilate(fine, wider), wider)
        closed = (trust[..., None] * closed + (1.0 - trust[..., None]) * closed_wide).astype(np.float32)
    top = brightest_channel(closed)
    hole = top < 0.3 * max(float(median(top)), 1e-3)
    if hole.any():  # wider than 9 mm without paper (a marker, the code): the brightest within 15 mm
        wide = cv2.dilate(closed, _disk(int(15 * LIGHT_PPM)))
        closed[hole] = wide[hole]
    paper_small = cv2.GaussianBlur(closed, (0, 0), 1.0 * LIGHT_PPM)
    level = brightest_channel(paper_small)
    typical = float(median(level))
    # hard shadow edges: a big change of log brightness within 2 mm
    log = np.log(np.maximum(level, 1e-3))
    k = _disk(int(2 * LIGHT_PPM) + 1)
    step = cv2.dilate(log, k) - cv2.erode(log, k)
    edge = ((step > EDGE_STEP) & seen).astype(np.uint8)
    if edge.any():
        edge = _long_edges(edge)
        edge = cv2.dilate(edge, _disk(int(2 * EDGE_BAND_MM * LIGHT_PPM) + 1))
    paper = cv2.resize(paper_small, (w, h), interpolation=cv2.INTER_LINEAR)
    return Light(paper, level, edge.astype(bool), saturated, typical, origin)


__all__ = ["Light", "brightest_channel", "estimate_light", "LIGHT_PPM"]
