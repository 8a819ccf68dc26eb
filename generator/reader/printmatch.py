"""Which layout's print a photo shows, when its sheet code cannot say.

A sheet whose code is covered, torn off or scribbled over is read on the layout named with ``--layout``; but the
named layout must be the one printed, or every card would be scored on another sheet's hands. The print itself
tells layouts apart: their reward badges, link lines and labels differ even where their card spaces coincide.

The photo is rectified onto the page at :data:`PRINT_PPM` pixels per mm and its light flattened
(:func:`page_darkness`). For each other layout, its blank page and the named layout's are drawn at the same scale
and blurred as much as the photo; only where the two differ is the photo compared with them, and the page whose
print it misses less is the one it shows (:func:`preference`). Ink on the sheet falls on both alike; the whole
page, where most of the print is shared, would drown the difference.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from generator.reader.markers import SheetFit

if TYPE_CHECKING:  # pragma: no cover
    from generator.printing.scene import Scene

PRINT_PPM = 3.0
"""Pixels per page mm of the comparison: link lines (0.5 mm and wider) and badges stay visible; fast."""
PRINT_PREFERENCE = 0.0
"""The photo shows another layout than the named one when, where the two blank pages differ, it correlates more
with the other's print than with the named one's (:func:`preference` above this)."""
PRINT_CLEAR = 0.1
"""Above this :func:`preference` the other layout is named as the one printed; between :data:`PRINT_PREFERENCE` and
this, the photo is refused as not showing which (a steeply folded sheet can put either there)."""
MIN_DIFFER_PX = 200
"""Fewer differing pixels than this (at :data:`PRINT_PPM`, some 22 mm²) in the photo cannot tell two layouts apart:
:func:`preference` is then 0."""
LIGHT_MM = 5.0
"""The paper's brightness is taken as the closing (the brightest) over this many mm: wider than any print."""


def page_darkness(gray: np.ndarray, fit: SheetFit, ppm: float = PRINT_PPM) -> tuple[np.ndarray, np.ndarray]:
    """The photo (grey ``uint8``; ``fit`` maps page mm to its pixels, through the sheet's bend when it has one)
    rectified onto the whole page at ``ppm`` pixels per mm: its darkness (``float32``, 0 paper to 1 black, the light
    flattened) and where the page is in the photo (``bool``), both of shape ``(height, width)`` of the page."""
    import cv2

    f = min(1.0, 2 * ppm / fit.px_per_mm)  # scaled down first by area: no aliasing in the sampling
    small = cv2.resize(gray, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1.0 else gray
    w, h = int(round(fit.paper.width * ppm)), int(round(fit.paper.height * ppm))
    xs, ys = np.meshgrid((np.arange(w) + 0.5) / ppm, (np.arange(h) + 0.5) / ppm)
    at = fit.to_image(np.column_stack([xs.ravel(), ys.ravel()])) * f  # through the sheet's bend, if fitted
    mx, my = at[:, 0].reshape(h, w).astype(np.float32), at[:, 1].reshape(h, w).astype(np.float32)
    page = cv2.remap(small, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    page = page.astype(np.float32)
    inside = (mx >= 0) & (my >= 0) & (mx <= small.shape[1] - 1) & (my <= small.shape[0] - 1)
    k = max(3, int(round(LIGHT_MM * ppm)) | 1)
    light = cv2.GaussianBlur(cv2.morphologyEx(page, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8)), (0, 0), k / 2)
    return 1.0 - page / np.maximum(light, 1.0), inside


def _blank_darkness(template_rgb: np.ndarray, blur_mm: float, ppm: float) -> np.ndarray:
    """A blank page's darkness (``float32``, 0 paper to 1 black) blurred by ``blur_mm`` as the photo is."""
    import cv2

    tpl = 1.0 - cv2.cvtColor(template_rgb, cv2.COLOR_RGB2GRAY).astype(np.float32) / 255
    return cv2.GaussianBlur(tpl, (0, 0), blur_mm * ppm) if blur_mm * ppm > 0.3 else tpl


DIFFER = 0.05
"""Two blank pages differ where their blurred darknesses differ by at least this much."""


def preference(darkness: np.ndarray, seen: np.ndarray, named: np.ndarray, other: np.ndarray) -> float:
    """Which of two blank pages' darknesses (``named``, ``other``, same shape as ``darkness``) the photo's page
    ``darkness`` shows, judged where they differ and the photo sees (``seen``).

    The photo's print is scaled to the named page first (``darkness ≈ a + b · named`` by least squares over all it
    sees: the paper's level and the print's contrast); then, where the pages differ, the squared misses of the two
    pages are compared: ``(miss_named − miss_other) / (miss_named + miss_other)``, from −1 (the named page's print
    is there) to 1 (the other's is). 0 when they differ in fewer than :data:`MIN_DIFFER_PX` pixels that the photo
    sees, or when the photo shows no print at all."""
    h = min(darkness.shape[0], named.shape[0], other.shape[0])
    w = min(darkness.shape[1], named.shape[1], other.shape[1])
    photo, a_page, b_page, mask = darkness[:h, :w], named[:h, :w], other[:h, :w], seen[:h, :w]
    where = mask & (np.abs(b_page - a_page) >= DIFFER)
    if int(where.sum()) < MIN_DIFFER_PX:
        return 0.0
    x, y = a_page[mask].astype(np.float64), photo[mask].astype(np.float64)
    var = float(x.var())
    gain = float(((x - x.mean()) * (y - y.mean())).mean()) / var if var > 0 else 0.0
    if gain <= 0:
        return 0.0
    level = float(y.mean()) - gain * float(x.mean())
    seen_photo = photo[where].astype(np.float64) - level
    miss_named = float(((seen_photo - gain * a_page[where]) ** 2).sum())
    miss_other = float(((seen_photo - gain * b_page[where]) ** 2).sum())
    total = miss_named + miss_other
    return (miss_named - miss_other) / total if total > 0 else 0.0


def preferences(
    gray: np.ndarray, fit: SheetFit, blur_mm: float, named: tuple[Scene, tuple], others: dict[str, tuple[Scene, tuple]]
) -> dict[str, float]:
    """Each other candidate's :func:`preference` over the named layout's page, in the photo as ``fit`` puts it on
    the page; ``named`` and ``others`` give each blank sheet's scene and template key
    (:func:`generator.reader.marks.template`)."""
    from generator.reader.marks import template

    darkness, seen = page_darkness(gray, fit)
    own = _blank_darkness(template(*named, PRINT_PPM), blur_mm, PRINT_PPM)
    return {
        name: preference(darkness, seen, own, _blank_darkness(template(scene, key, PRINT_PPM), blur_mm, PRINT_PPM))
        for name, (scene, key) in others.items()
    }
