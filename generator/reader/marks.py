"""Measuring the marks: rectify, flatten the light, register each card space, score every target.

All work happens on the page rectified through the homography at
:data:`PPM` pixels per millimetre, next to the same page rendered blank from
the scene (the template):

1. **Flatten the light.** Each colour channel is divided by an estimate of the
   paper's brightness around it (a 9 mm maximum filter, smoothed), which
   removes gradients, shadows and colour casts.  *Darkness* is then
   ``1 − max(R, G, B)``: the dropout blue of the rank boxes and chip circles
   is light in every channel's maximum, pencil and pen are not.
2. **Blur.** How soft the photo is, as a Gaussian sigma in millimetres, is
   measured on the markers (their rendering is known exactly).
3. **Register.** Each card space (and each chip) is matched against the template,
   blurred alike, within a few millimetres; a shift that disagrees with a smooth
   fit over the page is replaced by the fit.
4. **Score.** The template's print (blurred alike) is subtracted, the dark
   print's edges masked, and each target's *ink* measured: the mean extra
   darkness inside a rank or spent box, inside a chip circle, and, for a suit,
   around the symbol — the darkest third of each of twelve sectors of a ring, taking the sixth highest,
   so a circle with a gap still counts but a neighbour's circle does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from generator.printing.readable import MARKER_SIZE, marker_cells
from generator.printing.scene import MarkTarget, Scene
from generator.reader.light import brightest_channel, estimate_light
from generator.reader.markers import SheetFit
from generator.reader.numeric import median

PPM = 8.0
"""Pixels per millimetre of the rectified page."""
SEARCH_MM = 2.0
"""How far (mm) a card space may lie from where the homography puts it."""
GRID_SEARCH_MM = 1.2
"""… and from where the fit on the grid's own print puts it (less than half a rank box's pitch)."""
RING_SECTORS = 12
RING_RANK = 5
"""A suit's ring score is the ``RING_RANK``-th highest of its ``RING_SECTORS`` sector means."""

WIDE_SPREAD = 1.5
"""A spent box's ink over the box and around it (a tick along the outline or overshooting the box) is diluted over
that wider window: it is multiplied by this before it is compared with the ink inside the box."""
WIDE_OUTSIDE_MM2 = 0.4
"""...only when the wider window has at least this much area (mm²) to measure outside the box's inner square; in a
soft photo the margin kept clear of the print leaves it only the box's centre, a smaller sample of the inner ink
that is not diluted (multiplied, a blank box's noise would reach a light tick's ink)."""


@dataclass
class TargetInk:
    """One mark target and the ink measured in it (darkness above the blank paper, 0–1)."""

    target: MarkTarget
    ink: float
    shift: tuple[float, float] = (0.0, 0.0)
    sectors: tuple[float, ...] | None = None
    """For a suit: the mean extra darkness in each of the ring's sectors (NaN where masked),
    sector 0 pointing left, counting clockwise on the page (3 points up, 9 down)."""
    peak: float = 0.0
    """The darkest strokes' darkness (90th percentile of the extra darkness where the ink is measured):
    a mark rubbed out is lighter than the sheet's own strokes, however much of the box it covers."""
    contrast: float = float("nan")
    """How dark the target's own print shows, as a share of what the template expects (NaN: no print to see);
    :func:`measure` turns it into a share of the sheet's typical contrast for the kind."""
    cover: float = float("nan")
    """For a rank box: its print against the band around it (:func:`_cover`), as a share of the template's."""
    peak_luma: float = float("nan")
    """For a rank or tick box, a chip circle or a spent box: :attr:`peak` measured in luminance darkness instead of
    the brightest channel's (NaN elsewhere).  Blue ink is dark in luminance but only middling in the brightest
    channel, where a grey smear of rubbed-out graphite can match it; in luminance the smear stays far lighter."""
    ink_luma: float = float("nan")
    """For a rank or tick box: :attr:`ink` measured in luminance darkness (NaN elsewhere)."""
    stroke: float = float("nan")
    """For a spent box: its strokes' top, the darkest point of the extra darkness in luminance over the box and
    around it, smoothed over 0.15 mm (:func:`_stroke_top`), against the paper beside the box (NaN elsewhere).
    :attr:`peak`, a quantile, falls with how little of the window a mark covers (a tick among crosses); the top
    does not, and a mark rubbed out keeps at most the share of its graphite the eraser left (read.STROKE_KEPT).
    In luminance, as :attr:`peak_luma`: a blue pen's strokes are dark there, a grey smear of pencil is not."""
    ridge: float = float("nan")
    """For a spent box: its strokes' ridge, the median darkness along their crests (:func:`_stroke_top`), as
    :attr:`stroke` is taken.  In a soft photo a cross's two strokes add up where they meet, so its top stands
    well over a tick's of the same pen (a tick among crosses tops at about 0.63–0.67 of theirs);
    along the strokes both are one stroke's darkness (read.RIDGE_KEPT)."""
    stroke_span: float = float("nan")
    """For a spent box: how far (mm, the diagonal of its extent) the stroke through its top reaches, over the box
    and around it: the connected pixels at least half as dark as the top, over the paper beside the box
    (:func:`_stroke_top`).  A tick, even one that mostly misses its box, is a stroke 2 mm long or more; what an eraser
    pushes into a compact smudge reaches about 1 mm (read.TICK_REACH_MM, read.TOP_SURE_SPAN_MM)."""
    halves: tuple[float, float] | None = None
    """For a rank box: :attr:`ink` measured in each half of the box alone, its left half and its right half
    (:func:`_halves`).  A tick that runs on past its own box into the next one inks only the half of that box
    facing it; the half away from it stays blank, while a tick of its own crosses both halves."""
    top: float = float("nan")
    """For a rank box with some ink (:data:`HALVES_OVER`): its strokes' top inside the box (:func:`_inner_box`), the
    darkest point of its extra darkness (as :attr:`ink`, not luminance) smoothed over :data:`STROKE_SMOOTH_MM`; NaN
    for the other boxes.  A thin tick covers little of its box, so its :attr:`ink` and :attr:`peak` (the darkest
    40 % and 10 %) fall short of the sheet's bolder marks; its top does not (nor does a pen's dot's)."""
    top_span: float = float("nan")
    """With :attr:`top`: how far (mm) the strokes at least half as dark as the top reach across the box (the
    diagonal of the smallest rectangle holding them).  A tick crosses its box; a dot, or the end of a circle's
    stroke running into the box, does not."""
    crossing: tuple[float, float] | None = None
    """For a rank box: how dark a stroke running across the gap to its left and to its right neighbour is
    (:func:`_crossing`; 0 where nothing crosses).  A tick that runs on into the next box crosses the gap; a tick
    drawn in the next box, however near its edge, does not."""
    hidden: str = ""
    """Why the target cannot be judged: ``outside`` (the photo), ``edge`` (of a hard shadow), ``glare``,
    ``hidden`` (its print is not visible), or ``""``."""


UP_SECTORS = (1, 2, 3, 4)
DOWN_SECTORS = (7, 8, 9, 10)
"""The ring sectors facing the suit above and the suit below."""
LEFT_SECTORS = (11, 0)
RIGHT_SECTORS = (5, 6)
"""The side sectors on the symbol's left and on its right: a circle round the symbol passes through both sides."""
SIDE_SECTORS = LEFT_SECTORS + RIGHT_SECTORS
"""The ring sectors left and right of the symbol (only its own circle passes there)."""


def ring_score(sectors: tuple[float, ...], exclude: tuple[int, ...] = ()) -> float:
    """A suit's ring score from its sector means: the ``RING_RANK``-th highest of twelve, or with
    ``exclude``d sectors (those facing a circled neighbour) the fourth highest of the rest."""
    vals = sorted((v for k, v in enumerate(sectors) if k not in exclude and v == v), reverse=True)
    rank = RING_RANK if not exclude else 4
    if len(vals) < rank:
        return 0.0
    return float(vals[rank - 1])


@dataclass
class Measurement:
    """Everything measured on one photo.

    Attributes:
        inks: (kind, owner, key) → :class:`TargetInk` for every rank, suit, value, chip_earned and chip_spent target.
        blur_mm: the photo's softness, Gaussian sigma in mm on the page.
        registration: cell or chip name → (shift x, shift y in mm, match score 0–1, used the fit instead).
        noise: the spread (robust sigma) of ink over blank paper.
        origin: the top-left corner (mm) of the page region measured.
    """

    inks: dict[tuple[str, str, str], TargetInk]
    blur_mm: float
    registration: dict[str, tuple[float, float, float, bool]]
    noise: float
    page: np.ndarray | None = field(repr=False, default=None)
    origin: tuple[float, float] = (0.0, 0.0)
    levels: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    """Filled in by the decisions: kind → (blank level, sure level, typical mark ink)."""


# --- the template -------------------------------------------------------------------------

_TEMPLATES: dict[tuple, np.ndarray] = {}


def template(scene: Scene, key: tuple, ppm: float = PPM) -> np.ndarray:
    """The blank page rendered from its PDF at ``ppm``: RGB ``uint8`` (cached by ``key``)."""
    from generator.reader.cache import cached_template

    k = (*key, ppm)
    if k not in _TEMPLATES:

        def render():
            from generator.printing.backends.pdf import render_pdf
            from generator.printing.backends.png import pdf_to_images

            return np.asarray(pdf_to_images(render_pdf([scene]), dpi=ppm * 25.4)[0], np.uint8)

        _TEMPLATES[k] = cached_template(
            key, ppm, render, (scene.width, scene.height)
        )  # on disk across runs (reader/cache.py)
        while len(_TEMPLATES) > 12:
            _TEMPLATES.pop(next(iter(_TEMPLATES)))
    return _TEMPLATES[k]


_DARKNESS: dict[tuple, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
"""The template's darkness over a measured region, by template, region and colour softness (the same for
photos of one sheet taken alike)."""


def template_darkness(rgb: np.ndarray, chroma_sigma_px: float) -> tuple[np.ndarray, np.ndarray]:
    """Darkness ``1 − max(R,G,B)`` and luminance darkness of a template crop (RGB uint8).

    The colour is first blurred by ``chroma_sigma_px`` (luminance kept sharp), as a
    camera and JPEG do: a thin light-blue line then greys in the template as it does
    in the photo, and subtracts cleanly.
    """
    import cv2

    # one channel at a time and in place: the same values as splitting and merging whole images, but half the
    # memory written (a fresh process pays for every new page of memory: 0.28 s -> 0.14 s for an A4 template)
    img = np.divide(rgb, np.float32(255.0), dtype=np.float32)
    if chroma_sigma_px > 0.3:
        ycc = cv2.cvtColor(img, cv2.COLOR_RGB2YCrCb)
        for ch in (1, 2):  # Cr, Cb
            cv2.insertChannel(cv2.GaussianBlur(cv2.extractChannel(ycc, ch), (0, 0), chroma_sigma_px), ycc, ch)
        img = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2RGB)
    d = brightest_channel(img)
    np.subtract(np.float32(1.0), d, out=d)
    np.clip(img, 0, 1, out=img)
    lum = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
    np.subtract(np.float32(1.0), lum, out=lum)
    return d, lum


# --- rectifying -----------------------------------------------------------------------------


def shrink(img: np.ndarray, fit: SheetFit, ppm: float = PPM) -> tuple[np.ndarray, SheetFit]:
    """The photo scaled down (area averaging) when it holds far more detail than ``ppm``
    pixels per page mm, with the fit adjusted to it; else both unchanged. Faster, and no aliasing."""
    import cv2

    if fit.px_per_mm <= 1.5 * ppm:
        return img, fit
    f = 1.25 * ppm / fit.px_per_mm
    small = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    H = np.diag([f, f, 1.0]) @ fit.homography
    return small, replace(fit, homography=H, px_per_mm=fit.px_per_mm * f)


def rectify(
    img: np.ndarray,
    fit: SheetFit,
    box_mm: tuple[float, float, float, float],
    ppm: float = PPM,
    border: float | tuple | None = None,
) -> np.ndarray:
    """The page region ``(x0, y0, x1, y1)`` mm cut from the photo through the fit (its homography, and
    its warp when the sheet is not flat), at ``ppm`` pixels per mm (same dtype, BGR).  Beyond the photo's
    edge its last pixels are repeated, or ``border`` (a colour; a grey level for a one-channel image) is shown."""
    import cv2

    mode = cv2.BORDER_REPLICATE if border is None else cv2.BORDER_CONSTANT
    value = border if border is not None else 0
    x0, y0, x1, y1 = box_mm
    H = fit.homography
    size = (int(round((x1 - x0) * ppm)), int(round((y1 - y0) * ppm)))
    if fit.warp is None:
        S = np.array([[1 / ppm, 0, x0], [0, 1 / ppm, y0], [0, 0, 1]], np.float64)
        return cv2.warpPerspective(
            img, H @ S, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=mode, borderValue=value
        )
    dx, dy = fit.warp.grid(box_mm, ppm)
    u = (x0 + np.arange(size[0], dtype=np.float32) / ppm)[None, :] + dx
    v = (y0 + np.arange(size[1], dtype=np.float32) / ppm)[:, None] + dy
    d = H[2, 0] * u + H[2, 1] * v + H[2, 2]
    mx = ((H[0, 0] * u + H[0, 1] * v + H[0, 2]) / d).astype(np.float32)
    my = ((H[1, 0] * u + H[1, 1] * v + H[1, 2]) / d).astype(np.float32)
    return cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=mode, borderValue=value)


def flatten(bgr: np.ndarray, ppm: float = PPM) -> np.ndarray:
    """Divide each channel by the paper's local brightness; float32 in about 0–1.2."""
    import cv2

    img = bgr.astype(np.float32) / 255.0
    h, w = img.shape[:2]
    small = cv2.resize(img, (max(4, int(w / ppm)), max(4, int(h / ppm))), interpolation=cv2.INTER_AREA)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
    paper = cv2.dilate(small, kernel)
    paper = cv2.GaussianBlur(paper, (0, 0), 3.0)
    paper = cv2.resize(paper, (w, h), interpolation=cv2.INTER_LINEAR)
    return img / np.maximum(paper, 0.05)


# --- blur --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BlurField:
    """How soft the photo is, measured on each marker found and spread over the page.

    A blur is measured in photo pixels at each marker (a camera blurs in pixels)
    and turned into page millimetres with the local scale of the homography, so
    the far side of a tilted sheet gets the larger blur it has.

    Attributes:
        points: the markers' centres (mm); ``sigma_px`` the blur measured there (photo pixels).
        median: the median blur over the markers, in page mm (the photo's quality figure).
    """

    fit: SheetFit
    points: tuple[tuple[float, float], ...]
    sigma_px: tuple[float, ...]
    median: float

    def at(self, x: float, y: float) -> float:
        """The blur (Gaussian sigma, mm on the page) expected at page point ``(x, y)`` mm."""
        if not self.points:
            return self.median
        d = np.array([np.hypot(x - px, y - py) for px, py in self.points]) + 20.0
        w = 1.0 / d**2
        s_px = float(np.sum(w * np.array(self.sigma_px)) / np.sum(w))
        return s_px / _local_ppm(self.fit, x, y)


def _local_ppm(fit: SheetFit, x: float, y: float) -> float:
    p = fit.to_image(np.array([[x, y], [x + 1, y], [x, y + 1]], np.float64))
    return float(np.sqrt(np.linalg.norm(p[1] - p[0]) * np.linalg.norm(p[2] - p[0])))


@lru_cache(maxsize=64)
def _sharp_marker(marker_id: int, ppm: float, margin: float) -> np.ndarray:
    """A marker drawn exactly at ``ppm`` with ``margin`` mm of paper around it: 1 on black cells, 0 on paper
    (float32, read-only; the same for every photo)."""
    n = int(round((MARKER_SIZE + 2 * margin) * ppm))
    ideal = np.zeros((n, n), np.float32)
    cells = marker_cells(marker_id)
    cell = MARKER_SIZE / 6 * ppm
    off = margin * ppm
    edges = [int(round(off + k * cell)) for k in range(7)]
    for r in range(6):
        for c in range(6):
            if cells[r][c]:
                ideal[edges[r] : edges[r + 1], edges[c] : edges[c + 1]] = 1.0
    ideal.setflags(write=False)
    return ideal


@lru_cache(maxsize=512)
def _ideal_marker(marker_id: int, sigma_mm: float, ppm: float, margin: float) -> tuple[np.ndarray, float, float]:
    """:func:`_sharp_marker` blurred by ``sigma_mm``: (image minus its mean, flattened; its mean; its variance).
    Cached: the same for every photo."""
    import cv2

    ideal = _sharp_marker(marker_id, ppm, margin)
    model = cv2.GaussianBlur(ideal, (0, 0), sigma_mm * ppm) if sigma_mm > 0 else ideal
    v = model.ravel().astype(np.float64)
    mean = float(v.mean())
    centred = v - mean
    return centred, mean, float(centred @ centred / v.size)


BLUR_SIGMAS = tuple(float(v) for v in np.round(np.arange(0.0, 1.2501, 0.05), 3))
"""The blurs (Gaussian sigma, mm on the page) :func:`measure_blur` tries: 0 to 1.25 mm in steps of 0.05."""


@lru_cache(maxsize=32)
def marker_models(marker_id: int, ppm: float, margin: float) -> np.ndarray:
    """Every blur model of a marker (:func:`_ideal_marker`, one row per blur of :data:`BLUR_SIGMAS`): float64
    ``(len(BLUR_SIGMAS), 1 + n * n)``, each row the model's variance, then its centred pixels (``n`` the side of
    the marker and its ``margin`` at ``ppm``).  The same for every photo: kept in the reader's cache
    (:func:`.cache.cached_marker_models`), read-only."""
    from generator.reader.cache import cached_marker_models

    n = int(round((MARKER_SIZE + 2 * margin) * ppm))

    def make() -> np.ndarray:
        rows = [_ideal_marker(marker_id, s, ppm, margin) for s in BLUR_SIGMAS]
        return np.stack([np.concatenate(([var], centred)) for centred, _, var in rows])

    return cached_marker_models(
        (marker_id, ppm, margin, BLUR_SIGMAS),
        make,
        lambda a: a.dtype == np.float64 and a.shape == (len(BLUR_SIGMAS), 1 + n * n),
    )


@lru_cache(maxsize=64)
def _ideal_markers(
    marker_id: int, sigmas: tuple[float, ...], ppm: float, margin: float
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_ideal_marker` for every blur of ``sigmas`` (blurs of :data:`BLUR_SIGMAS`): the centred models as rows of
    one matrix (contiguous), and their variances; taken from :func:`marker_models`."""
    picked = np.asarray(marker_models(marker_id, ppm, margin)[[BLUR_SIGMAS.index(s) for s in sigmas]])
    return np.ascontiguousarray(picked[:, 1:]), np.ascontiguousarray(picked[:, 0])


def measure_blur(
    img: np.ndarray, fit: SheetFit, ppm: float = PPM, corners: dict[int, np.ndarray] | None = None
) -> BlurField:
    """The photo's softness: at each marker found, the Gaussian sigma that best turns the
    marker's exact drawing into what the photo shows (see :class:`BlurField`).

    Args:
        corners: marker id → its four corners in ``img`` pixels; each marker is then straightened
            through its own corners (right even where the sheet is folded or curled), else through ``fit``.
    """
    import cv2

    from generator.printing.readable import marker_boxes

    boxes = marker_boxes(fit.paper)
    margin = 2.0
    points, sig_px, sig_mm = [], [], []

    sigmas = list(BLUR_SIGMAS)

    for mid in list(fit.found):
        _, x, y = boxes[mid]
        local = fit
        if corners is not None and mid in corners:
            s = MARKER_SIZE
            page = np.array([(x, y), (x + s, y), (x + s, y + s), (x, y + s)], np.float64)
            Hm, _ = cv2.findHomography(page, np.asarray(corners[mid], np.float64), 0)
            if Hm is not None:
                local = replace(fit, homography=Hm, warp=None)
        patch = rectify(img, local, (x - margin, y - margin, x + MARKER_SIZE + margin, y + MARKER_SIZE + margin), ppm)
        g = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float64).ravel()
        g = g - g.mean()
        g_var = float(g @ g) / g.size
        # least squares of photo = a * model + b, in closed form, for every blur at once: what is left of
        # the photo's variance; the best tenth of a millimetre, then the best twentieth beside it
        # (the models are made only for the blurs looked at: a fresh process makes each one once)
        misfit: dict[int, float] = {}

        def fit_at(idx: list[int]) -> None:
            models, var = _ideal_markers(mid, tuple(sigmas[i] for i in idx), ppm, margin)
            cov = models @ g / g.size
            misfit.update(zip(idx, g_var - cov * cov / np.maximum(var, 1e-12)))

        fit_at(list(range(0, len(sigmas) - 1, 2)))
        coarse = min(range(0, len(sigmas) - 1, 2), key=lambda i: misfit[i])
        fit_at([i for i in (coarse - 1, coarse + 1) if 0 <= i < len(sigmas)])
        best = float(
            sigmas[min((i for i in (coarse - 1, coarse, coarse + 1) if 0 <= i < len(sigmas)), key=lambda i: misfit[i])]
        )
        cx, cy = x + MARKER_SIZE / 2, y + MARKER_SIZE / 2
        points.append((cx, cy))
        sig_mm.append(best)
        sig_px.append(best * _local_ppm(fit, cx, cy))
    typical = float(median(sig_mm)) if sig_mm else 0.3
    return BlurField(fit, tuple(points), tuple(sig_px), typical)


# --- registration and scoring --------------------------------------------------------------------


def subpixel_peak(res: np.ndarray) -> tuple[float, float, float]:
    import cv2

    _, mx, _, (px, py) = cv2.minMaxLoc(res)
    dx = dy = 0.0
    if 0 < px < res.shape[1] - 1:
        a, b, c = res[py, px - 1], res[py, px], res[py, px + 1]
        den = a - 2 * b + c
        dx = 0.5 * (a - c) / den if den < 0 else 0.0
    if 0 < py < res.shape[0] - 1:
        a, b, c = res[py - 1, px], res[py, px], res[py + 1, px]
        den = a - 2 * b + c
        dy = 0.5 * (a - c) / den if den < 0 else 0.0
    return px + min(0.5, max(-0.5, float(dx))), py + min(0.5, max(-0.5, float(dy))), float(mx)


def _groups(scene: Scene) -> dict[str, tuple[list[MarkTarget], list[MarkTarget]]]:
    """Targets registered together, and the boxes whose print they are registered on: each card
    space on its rank rows (with the frame's bottom and sides) and, apart, on its column of suits;
    the chip track's two halves on their print and the line of text above them."""
    cells: dict[str, list[MarkTarget]] = {}
    chips: list[MarkTarget] = []
    ticks: dict[str, list[MarkTarget]] = {}
    for t in scene.marks:
        if t.kind in ("rank", "suit", "value"):
            cells.setdefault(t.owner, []).append(t)
        elif t.kind in ("chip_earned", "chip_spent"):
            chips.append(t)
        elif (
            t.kind == "tick"
        ):  # a row of tick boxes (a tick pad's round), registered two boxes at a time on their print
            row = ticks.setdefault(t.owner, [])  # (a long row bends with the sheet: one shift would not fit all of it)
            row.append(t)
            cells.setdefault(f"{t.owner}/{(len(row) - 1) // 2}", []).append(t)
    groups: dict[str, tuple[list[MarkTarget], list[MarkTarget]]] = {}
    for name, ts in cells.items():
        groups[name] = ([t for t in ts if t.kind != "suit"], [t for t in ts if t.kind in ("rank", "tick")])
        suits = [t for t in ts if t.kind == "suit"]
        if suits:  # the suit column on its own printed symbols (a space is never quite flat)
            groups[f"{name}/suits"] = (suits, suits)
    circles = sorted((t for t in chips if t.kind == "chip_earned"), key=lambda t: t.x)
    if circles:
        # the track's two halves, each on its chips' print and the line of text above them
        top = min(t.y for t in circles)
        half = (len(circles) + 1) // 2
        for name, part in (("chips<", circles[:half]), ("chips>", circles[half:])):
            if not part:
                continue
            owners = {t.owner for t in part}
            ts = [t for t in chips if t.owner in owners]
            x0, x1 = min(t.x for t in part) - 2.0, max(t.x + t.w for t in part) + 2.0
            strip = MarkTarget("anchor", name, "", max(0.0, x0), top - 5.0, min(scene.width, x1) - max(0.0, x0), 4.2)
            groups[name] = (ts, [strip, *ts])
    return groups


def _bbox(targets: list[MarkTarget], pad: float) -> tuple[float, float, float, float]:
    return (
        min(t.x for t in targets) - pad,
        min(t.y for t in targets) - pad,
        max(t.x + t.w for t in targets) + pad,
        max(t.y + t.h for t in targets) + pad,
    )


def _page_region(scene: Scene, ppm: float) -> tuple[float, float, float, float]:
    """The page region (x0, y0, x1, y1) mm that :func:`measure` rectifies: every target and anchor with room
    to search around them, its top-left corner on the template's pixel grid at ``ppm``."""
    groups = _groups(scene)
    all_targets = [t for g, a in groups.values() for t in g + a]
    x0, y0, x1, y1 = _bbox(all_targets, SEARCH_MM + 4.0)
    x0, y0, x1, y1 = max(0.0, x0), max(0.0, y0), min(scene.width, x1), min(scene.height, y1)
    # (NumPy float64 corners on purpose: rectify() then builds its sample positions in float64)
    return np.floor(x0 * ppm) / ppm, np.floor(y0 * ppm) / ppm, x1, y1


def blank_page(
    scene: Scene, template_key: tuple, photo_ppm: float, ppm: float = PPM
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The blank sheet over :func:`measure`'s page region at ``ppm`` pixels per mm, as a photo of
    ``photo_ppm`` pixels per page mm would show it: the template (RGB ``uint8``, ``(h, w, 3)``) and its
    darkness and luminance darkness (:func:`template_darkness`, float32 ``(h, w)``).

    Kept for the process (a few pages) and in the cache folder (:func:`.cache.cached_darkness`); a photo's
    reading may make or load them in a thread while the grid is being fitted
    (:func:`generator.reader.read.read_photo`), and :func:`measure` then finds them.
    """
    x0, y0, x1, y1 = _page_region(scene, ppm)
    w, h = int(round((x1 - x0) * ppm)), int(round((y1 - y0) * ppm))  # as rectify() sizes it
    # colour in a photo is softer than brightness (Bayer sensor, JPEG 4:2:0): about two photo pixels
    chroma = round(max(2.0 / max(photo_ppm, 1e-6), 0.2) * ppm * 4) / 4
    key = (template_key, ppm, x0, y0, w, h, chroma)
    hit = _DARKNESS.get(key)
    if hit is None:
        full = template(scene, template_key, ppm)
        oy, ox = int(round(y0 * ppm)), int(round(x0 * ppm))
        crop = np.full((h, w, 3), 255, np.uint8)
        sub = full[oy : oy + h, ox : ox + w]
        crop[: sub.shape[0], : sub.shape[1]] = sub
        from generator.reader.cache import cached_darkness

        # on disk across runs (reader/cache.py): for one sheet, photos of one phone ask for the same softness
        hit = (
            crop,
            *cached_darkness(
                template_key, (ppm, float(x0), float(y0), w, h, chroma), (h, w), lambda: template_darkness(crop, chroma)
            ),
        )
        _DARKNESS[key] = hit
        while len(_DARKNESS) > 4:
            _DARKNESS.pop(next(iter(_DARKNESS)), None)
    return hit


def measure(
    img: np.ndarray,
    fit: SheetFit,
    scene: Scene,
    template_key: tuple,
    ppm: float = PPM,
    *,
    blur: BlurField | None = None,
    grid=None,
) -> Measurement:
    """Measure the ink in every mark target of ``scene`` on the photo ``img`` (BGR uint8).

    Args:
        fit: the sheet's homography (page mm → photo px).
        scene: the blank sheet's scene, drawn for the layout and paper the sheet code names.
        template_key: a key identifying the scene, for the template cache.
        blur: the photo's blur if already measured (:func:`measure_blur`).
        grid: the fit on the grid's own print (:func:`.gridfit.fit_grid`), when ``fit`` comes from it:
            the spaces are then looked for only :data:`GRID_SEARCH_MM` around where it puts them.

    Returns:
        the :class:`Measurement`; inks are relative to blank paper (about 0 when nothing is marked).
    """
    import cv2

    groups = _groups(scene)
    region = _page_region(scene, ppm)
    x0, y0, x1, y1 = region
    rect = rectify(img, fit, region, ppm)
    h, w = rect.shape[:2]
    crop, tD, tL = blank_page(scene, template_key, fit.px_per_mm, ppm)
    light = estimate_light(rect, crop, ppm, (x0, y0))
    flat = np.divide(rect, np.float32(255.0), dtype=np.float32)
    np.divide(flat, np.maximum(light.paper, np.float32(0.05)), out=flat)
    D = brightest_channel(flat)
    np.subtract(np.float32(1.0), D, out=D)
    L = 1.0 - cv2.min(cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY), 1.0)
    field_ = blur if blur is not None else measure_blur(img, fit, ppm)
    blur_mm = field_.median
    s_px = max(blur_mm, 0.05) * ppm
    tDb = cv2.GaussianBlur(tD, (0, 0), s_px)
    tLb = cv2.GaussianBlur(tL, (0, 0), s_px)
    # where dark print makes any subtraction unreliable
    dark = (tDb > 0.18).astype(np.uint8)
    grow = int(round((0.2 + 0.6 * blur_mm) * ppm)) | 1
    dark = cv2.dilate(dark, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow))).astype(bool)
    # round the suits, a narrower mask (a tight circle runs close to its symbol): what the print
    # leaves beyond it is small next to a circle
    grow_s = int(round((0.05 + 0.3 * blur_mm) * ppm)) | 1
    dark_suits = cv2.dilate(
        (tDb > 0.3).astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow_s, grow_s))
    ).astype(bool)

    def px(xm: float, ym: float) -> tuple[float, float]:
        return ((xm - x0) * ppm, (ym - y0) * ppm)

    # --- register each group
    shifts: dict[str, tuple[float, float, float]] = {}
    centres: dict[str, tuple[float, float]] = {}
    used = grid is not None and any(a.used for a in grid.anchors.values())
    search = GRID_SEARCH_MM if used else SEARCH_MM + 2 * min(fit.residual_mm, 1.0)
    near_kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(0.8 * ppm) | 1, int(0.8 * ppm) | 1))
    for name, (_targets, anchors) in groups.items():
        bx0, by0, bx1, by1 = _bbox(anchors, 1.5)
        centres[name] = ((bx0 + bx1) / 2, (by0 + by1) / 2)
        ax0, ay0 = px(bx0, by0)
        ax1, ay1 = px(bx1, by1)
        r = int(round(search * ppm))
        ix0, iy0, ix1, iy1 = int(ax0), int(ay0), int(ax1), int(ay1)
        if ix0 - r < 0 or iy0 - r < 0 or ix1 + r > w or iy1 + r > h:
            shifts[name] = (0.0, 0.0, 0.0)
            continue
        tpl = tLb[iy0:iy1, ix0:ix1]
        win = L[iy0 - r : iy1 + r, ix0 - r : ix1 + r]
        if float(tpl.std()) < 1e-4:
            shifts[name] = (0.0, 0.0, 0.0)
            continue
        # match on the print and just around it: the player's marks elsewhere do not pull the match
        mask = cv2.dilate((tpl > 0.06).astype(np.uint8), near_kernel).astype(np.float32)
        res = cv2.matchTemplate(win, tpl, cv2.TM_CCOEFF_NORMED, mask=mask)
        res = np.nan_to_num(res, nan=-1.0, posinf=-1.0, neginf=-1.0)
        pxs, pys, score = subpixel_peak(res)
        shifts[name] = ((pxs - r) / ppm, (pys - r) / ppm, score)
    registration = _smooth_shifts(shifts, centres, list((fit.offsets or {}).values()))
    # the bend of the sheet, sampled where it is measured well: card spaces and markers
    bend = [
        (centres[n][0], centres[n][1], v[0], v[1], 1.0)
        for n, v in registration.items()
        if not n.startswith("chips") and not v[3] and v[2] >= 0.75
    ]
    bend += [(mx, my, ddx, ddy, 2.0) for mx, my, ddx, ddy in (fit.offsets or {}).values()]

    # --- score every target
    # the blank paper's level and noise (on every third row and column: plenty of pixels, a ninth of the work)
    sub = (slice(None, None, 3), slice(None, None, 3))
    paper_px = (~dark[sub]) & (tDb[sub] < 0.02)
    e_paper = (D[sub] - tDb[sub])[paper_px]
    base = float(median(e_paper)) if e_paper.size else 0.0
    noise = (
        float(1.4826 * np.float32(median(np.abs(e_paper - base)))) if e_paper.size else 0.02
    )  # (in float32, as ever)
    base_l = float(median(L[sub][paper_px])) if e_paper.size else 0.0
    L_ink = L - np.float32(base_l)  # the photo's luminance darkness less its paper's (made once: it is a whole page)
    inks: dict[tuple[str, str, str], TargetInk] = {}
    for name, (targets, _) in groups.items():
        dx, dy, _, _ = registration[name]
        bx0, by0, bx1, by1 = _bbox(targets, 3.5)
        ax0, ay0 = px(bx0, by0)
        ax1, ay1 = px(bx1, by1)
        ix0, iy0 = max(0, int(ax0)), max(0, int(ay0))
        ix1, iy1 = min(w, int(ax1)), min(h, int(ay1))
        pw, ph = ix1 - ix0, iy1 - iy0
        centre = (ix0 + pw / 2 - 0.5 + dx * ppm, iy0 + ph / 2 - 0.5 + dy * ppm)
        if name.startswith("chips"):
            boxes = {t.owner: t for t in targets if t.kind == "chip_spent"}
            found, priors = {}, {}
            for o, b in boxes.items():
                priors[o] = _local_shift(b.x + b.w / 2, b.y + b.h / 2, bend)
                at = _outline_shift(b, D, tD, priors[o], x0, y0, ppm, field_.at(b.x + b.w / 2, b.y + b.h / 2))
                if at is not None:
                    found[o] = at
            # the sheet bends smoothly along the track: a box found far from its found neighbours' median was misled
            order = sorted(found, key=lambda o: boxes[o].x)
            own = {}
            for k, o in enumerate(order):
                near = [found[p] for p in order[max(0, k - 2) : k + 3] if p != o]
                mx, my = (
                    (float(median([v[0] for v in near])), float(median([v[1] for v in near])))
                    if len(near) >= 2
                    else found[o]
                )
                own[o] = found[o] if np.hypot(found[o][0] - mx, found[o][1] - my) <= 0.35 else (mx, my)
            # a box whose outline was not found (a heavy cross over it, or the card spaces' bend, the prior, more
            # than a millimetre off out here) is looked for again where the line through the boxes found nearest to
            # it along the track puts it, and is taken there if it is still not found or found far from it
            for o, b in boxes.items():
                if o not in own:
                    p2 = _along_track(b.x, [(boxes[f].x, *own[f]) for f in order], priors[o])
                    at = _outline_shift(b, D, tD, p2, x0, y0, ppm, field_.at(b.x + b.w / 2, b.y + b.h / 2))
                    own[o] = at if at is not None and np.hypot(at[0] - p2[0], at[1] - p2[1]) <= 0.35 else p2
            for t in targets:
                sx, sy = own.get(t.owner) or _local_shift(t.x + t.w / 2, t.y + t.h / 2, bend)
                sg = field_.at(t.x + t.w / 2, t.y + t.h / 2)
                ink, peak, con, peak_l, stroke, ridge, span = _measure_one(
                    t, D, tD, dark, base, (sx, sy), x0, y0, ppm, sg, L=L_ink, tL=tL
                )
                inks[(t.kind, t.owner, t.key)] = TargetInk(
                    t,
                    ink,
                    (sx, sy),
                    peak=peak,
                    contrast=con,
                    peak_luma=peak_l,
                    stroke=stroke,
                    ridge=ridge,
                    stroke_span=span,
                )
            continue
        patch_d = cv2.getRectSubPix(D, (pw, ph), centre)
        patch_l = cv2.getRectSubPix(L, (pw, ph), centre) - base_l
        sg = field_.at(*centres[name])
        bad = (dark_suits if name.endswith("/suits") else dark)[iy0:iy1, ix0:ix1]
        tg = _blurred(tD, (iy0, iy1, ix0, ix1), sg * ppm)
        tl = _blurred(tL, (iy0, iy1, ix0, ix1), sg * ppm)
        E = patch_d - base - _gain(patch_d - base, tg, bad) * tg
        origin = (x0 + ix0 / ppm, y0 + iy0 / ppm)
        # the same extra darkness in luminance, for the boxes (see TargetInk.peak_luma)
        El = patch_l - _gain(patch_l, tl, bad) * tl if any(t.kind in ("rank", "tick") for t in targets) else None
        for t in targets:
            got, peak = _target_ink(t, E, bad, origin, ppm, sg)
            con = _contrast(t, patch_l, tl, origin, ppm)
            if isinstance(got, tuple):  # a suit's ring sectors
                inks[(t.kind, t.owner, t.key)] = TargetInk(t, ring_score(got), (dx, dy), got, peak, con)
            else:
                inks[(t.kind, t.owner, t.key)] = TargetInk(t, got, (dx, dy), None, peak, con)
            if t.kind in ("rank", "tick"):
                assert El is not None  # made for every group holding a rank or tick target, as this one
                ti = inks[(t.kind, t.owner, t.key)]
                luma, ti.peak_luma = _target_ink(t, El, bad, origin, ppm, sg)
                assert not isinstance(luma, tuple)  # a box's ink is one number (only a suit's is a tuple)
                ti.ink_luma = luma
                if t.kind == "rank":
                    ti.cover = _cover(t, patch_l, tl, origin, ppm)
        _stroke_measures([inks[(t.kind, t.owner, t.key)] for t in targets if t.kind == "rank"], E, bad, origin, ppm, sg)
    _judge_visibility(inks, fit, img.shape, light)
    # every target is judged on its own: a rank box against its space's other boxes, a suit's ring against
    # its own space (the decisions take those blank levels off), a chip circle or spent box against the
    # paper around it; never against how the same box looks in other spaces
    return Measurement(inks, blur_mm, registration, noise, None, (x0, y0))


def _blurred(img: np.ndarray, box: tuple[int, int, int, int], sigma_px: float) -> np.ndarray:
    """``img[y0:y1, x0:x1]`` blurred by ``sigma_px`` (computed with a margin, so its edges are right)."""
    import cv2

    y0, y1, x0, x1 = box
    m = int(3 * sigma_px) + 2
    h, w = img.shape
    a0, b0, a1, b1 = max(0, y0 - m), max(0, x0 - m), min(h, y1 + m), min(w, x1 + m)
    big = cv2.GaussianBlur(img[a0:a1, b0:b1], (0, 0), max(sigma_px, 0.4))
    return big[y0 - a0 : y1 - a0, x0 - b0 : x1 - b0]


def _gain(photo: np.ndarray, tpl: np.ndarray, bad: np.ndarray) -> float:
    """How much darker the photo shows the light (dropout) print than the template does, as a factor.

    A camera and JPEG grey the pale blue lines a little (their colour is softened more than
    their brightness), by an amount that changes with the light; the median ratio over the
    lines' pixels — a player's marks cross few of them — measures it.
    """
    on = (tpl > 0.05) & (tpl < 0.3) & ~bad
    if int(on.sum()) < 20:
        return 1.0
    ratio = float(median(photo[on] / tpl[on]))
    return min(2.5, max(0.6, ratio))


VISIBLE = 0.5
"""A target whose print shows less than this share of the contrast typical of its kind on this sheet
cannot be judged: its print is washed out (glare), covered, or not there."""


TYPICAL_QUANTILE = 0.75
"""A kind's typical contrast on a sheet (:func:`_judge_visibility`) is this quantile of its targets' contrasts: the
print where it is seen well.  On a strongly curled sheet (edges lifted 15–35 mm) the grid may line up with the
photo over only a few of its spaces: the rank boxes' median contrast can then fall to about 0.3 of their template's
(the upper quartile stays over 0.8; 1.0 on a sheet seen whole), and against the median the spent boxes, measured a
box off at about 0.2, would pass as visible, read blank, and a count of 9 would read 0 without a ``?``."""


def _contrast(t: MarkTarget, Lp: np.ndarray, tl: np.ndarray, origin: tuple[float, float], ppm: float) -> float:
    """How dark the target's own print (its outline, its symbol) shows in the photo's luminance darkness ``Lp``,
    as a share of the template's ``tl`` (both patches with top-left ``origin`` mm); NaN where nothing is printed."""
    ox, oy = origin
    pad = 0.4
    xa, ya = max(0, int(round((t.x - pad - ox) * ppm))), max(0, int(round((t.y - pad - oy) * ppm)))
    xb, yb = int(round((t.x + t.w + pad - ox) * ppm)), int(round((t.y + t.h + pad - oy) * ppm))
    tt = tl[ya:yb, xa:xb]
    if tt.size < 4:
        return float("nan")
    on = tt > max(0.05, 0.5 * float(tt.max()))
    if int(on.sum()) < 6:
        return float("nan")
    return float(median(Lp[ya:yb, xa:xb][on]) / max(float(median(tt[on])), 1e-3))


def _cover(t: MarkTarget, Lp: np.ndarray, tl: np.ndarray, origin: tuple[float, float], ppm: float) -> float:
    """How dark the target's print shows against the band just outside it (1.2 mm), as a share of the same in
    the template (same arguments as :func:`_contrast`); NaN where nothing is printed.  A thumb or an object
    over the target is darker than paper, so :func:`_contrast` finds the print "dark enough", but the print
    does not stand out from the band around it.  A tick crossing the band lowers it for that box only, so
    :func:`_judge_visibility` takes it for a space's rank boxes together."""
    ox, oy = origin
    pad, band = 0.4, 1.2
    h, w = tl.shape
    xa, ya = max(0, int(round((t.x - band - ox) * ppm))), max(0, int(round((t.y - band - oy) * ppm)))
    xb, yb = min(w, int(round((t.x + t.w + band - ox) * ppm))), min(h, int(round((t.y + t.h + band - oy) * ppm)))
    tt, lp = tl[ya:yb, xa:xb], Lp[ya:yb, xa:xb]
    if tt.size < 4:
        return float("nan")
    xx, yy = np.arange(xa, xb)[None, :], np.arange(ya, yb)[:, None]
    inner = ((xx >= (t.x - pad - ox) * ppm) & (xx < (t.x + t.w + pad - ox) * ppm)) & (
        (yy >= (t.y - pad - oy) * ppm) & (yy < (t.y + t.h + pad - oy) * ppm)
    )
    peak = float(tt[inner].max()) if inner.any() else 0.0
    on = inner & (tt > max(0.05, 0.5 * peak))
    ring = ~inner & (tt < 0.25 * peak)
    if int(on.sum()) < 6 or int(ring.sum()) < 6:
        return float("nan")
    return float((median(lp[on]) - median(lp[ring])) / max(float(median(tt[on]) - median(tt[ring])), 1e-3))


COVERED = 0.5
"""A space whose rank boxes, at least half of them, show their print against the band around them with less
than this share of the sheet's typical figure is covered (a thumb, an object): its boxes are not visible."""


def _judge_visibility(inks: dict, fit: SheetFit, shape: tuple, light) -> None:
    """Mark every target that cannot be judged (:attr:`TargetInk.hidden`): outside the photo, near a hard
    shadow's edge, or with its print showing less than :data:`VISIBLE` of its kind's typical contrast
    (under glare when the paper there is far brighter than the sheet's, or the sensor is clipped).
    The contrast becomes a share of the kind's typical contrast on this sheet."""
    h, w = shape[:2]
    by_kind: dict[str, list[float]] = {}
    for ti in inks.values():
        if ti.contrast == ti.contrast:
            by_kind.setdefault(ti.target.kind, []).append(ti.contrast)
    # (the upper quartile, not the median: where the grid is not lined up with the photo over most of the sheet, a
    # strongly curled one, most targets show little of their print, and their median would make that little typical)
    typical = {k: float(np.percentile(v, 100 * TYPICAL_QUANTILE)) for k, v in by_kind.items() if len(v) >= 4}
    # the rank boxes, chip circles and spent boxes are printed in the same pale blue; the rank boxes, nearly all
    # blank on any sheet, give its contrast (a filled chip circle's ink darkens its outline)
    for kind in ("chip_earned", "chip_spent"):
        if "rank" in typical:
            typical[kind] = typical["rank"]
    items = list(inks.values())
    boxes = np.array(
        [(t.x - 0.5, t.y - 0.5, t.x + t.w + 0.5, t.y + t.h + 0.5) for t in (ti.target for ti in items)], np.float64
    )
    corners = fit.to_image(
        np.stack([boxes[:, [0, 1]], boxes[:, [2, 1]], boxes[:, [2, 3]], boxes[:, [0, 3]]], 1).reshape(-1, 2)
    )
    corners = corners.reshape(-1, 4, 2)
    out = (
        (corners[:, :, 0] < 1) | (corners[:, :, 1] < 1) | (corners[:, :, 0] > w - 2) | (corners[:, :, 1] > h - 2)
    ).any(axis=1)
    for ti, box, outside in zip(items, boxes, out):
        t = ti.target
        box = tuple(box)
        if outside:
            ti.hidden = "outside"
            continue
        if t.kind != "value" and light.on_edge(box):
            ti.hidden = "edge"
            continue
        norm = typical.get(t.kind)
        if norm is None or norm <= 1e-3 or ti.contrast != ti.contrast:
            continue
        ti.contrast = ti.contrast / norm
        if ti.contrast < VISIBLE and t.kind != "value":
            ti.hidden = "glare" if light.glare(box) else "hidden"
    # covered spaces: most of their rank boxes do not stand out from the band around them
    covers = [ti.cover for ti in items if ti.target.kind == "rank" and ti.cover == ti.cover]
    norm = float(median(covers)) if len(covers) >= 13 else 0.0
    if norm > 1e-3:
        spaces: dict[str, list] = {}
        for ti in items:
            if ti.target.kind == "rank":
                spaces.setdefault(ti.target.owner, []).append(ti)
        for boxes_ in spaces.values():
            low = [ti for ti in boxes_ if ti.cover == ti.cover and ti.cover < COVERED * norm]
            if 2 * len(low) >= len(boxes_):
                for ti in boxes_:
                    if not ti.hidden:
                        ti.hidden = "hidden"


def _measure_one(
    t: MarkTarget,
    D: np.ndarray,
    tD: np.ndarray,
    dark: np.ndarray,
    base: float,
    shift: tuple[float, float],
    x0: float,
    y0: float,
    ppm: float,
    blur: float,
    *,
    L: np.ndarray,
    tL: np.ndarray,
) -> tuple[float, float, float, float, float, float, float]:
    """The ink of one (box or circle) target, the photo taken ``shift`` mm away from the template
    (``tD`` unblurred: it is blurred here by ``blur`` mm); with its strokes' darkness, its print's
    contrast (``L``, ``tL``: luminance darkness of the photo, less its paper, and of the template) and its
    strokes' darkness in luminance (:attr:`TargetInk.peak_luma`) and, for a spent box, its strokes' top and
    ridge and span in luminance (:attr:`TargetInk.stroke`, :attr:`TargetInk.ridge`, :attr:`TargetInk.stroke_span`;
    NaN for other targets)."""
    import cv2

    pad = {"chip_earned": 0.5 * t.w, "chip_spent": 3.0}.get(t.kind, 1.0)
    ax0, ay0 = int((t.x - pad - x0) * ppm), int((t.y - pad - y0) * ppm)
    ax1, ay1 = int(np.ceil((t.x + t.w + pad - x0) * ppm)), int(np.ceil((t.y + t.h + pad - y0) * ppm))
    h, w = D.shape
    ax0, ay0, ax1, ay1 = max(0, ax0), max(0, ay0), min(w, ax1), min(h, ay1)
    pw, ph = ax1 - ax0, ay1 - ay0
    if pw < 4 or ph < 4:
        return 0.0, 0.0, float("nan"), float("nan"), float("nan"), float("nan"), float("nan")
    centre = (ax0 + pw / 2 - 0.5 + shift[0] * ppm, ay0 + ph / 2 - 0.5 + shift[1] * ppm)
    photo = cv2.getRectSubPix(D, (pw, ph), centre) - base
    tg = _blurred(tD, (ay0, ay1, ax0, ax1), blur * ppm)
    bad = dark[ay0:ay1, ax0:ax1]
    E = photo - _gain(photo, tg, bad) * tg
    origin = (x0 + ax0 / ppm, y0 + ay0 / ppm)
    # print (in brightness, which the camera keeps sharper than colour; not a pale fill like the chip track's
    # band): darker than the template's own ground around it
    tl = _blurred(tL, (ay0, ay1, ax0, ax1), blur * ppm)
    ground = cv2.erode(tl, np.ones((9, 9), np.uint8))
    near = bad | cv2.dilate(((tl - ground) > 0.02).astype(np.uint8), np.ones((7, 7), np.uint8)).astype(bool)
    ink, peak = _target_ink(t, E, bad, origin, ppm, blur, near=near)
    photo_l = cv2.getRectSubPix(L, (pw, ph), centre)
    con = _contrast(t, photo_l, tl, origin, ppm)
    # the strokes' darkness again in luminance (the print's own luminance taken off alike)
    E_l = photo_l - _gain(photo_l, tl, bad) * tl
    if t.kind == "chip_spent":  # (and, for a spent box, its strokes' top and ridge: see TargetInk.stroke, .ridge)
        _, peak_l, stroke, ridge, span = _spent_ink(t, E_l, bad, origin, ppm, blur, near)
    else:
        (_, peak_l), stroke, ridge, span = _target_ink(t, E_l, bad, origin, ppm, blur, near=near), *(float("nan"),) * 3
    return (float(ink) if not isinstance(ink, tuple) else ring_score(ink)), peak, con, peak_l, stroke, ridge, span


def _outline_shift(
    b: MarkTarget,
    D: np.ndarray,
    tD: np.ndarray,
    prior: tuple[float, float],
    x0: float,
    y0: float,
    ppm: float,
    blur: float,
    reach: float = 1.0,
) -> tuple[float, float] | None:
    """Where a box's printed outline lies in the photo, within ``reach`` mm of ``prior``: the best
    normalised correlation with the (blurred) outline over the outline's own pixels — a tick across
    the box spoils few of them — slightly favouring shifts near the prior.  None where no shift correlates
    at least 0.3 (a heavy cross hides the outline), the search runs off the page, or the best shift is
    ``reach`` up, towards the chip circle above the box: in a soft photo a filled circle's blurred lower edge
    passes for the box's top edge (in a soft 1920 × 1080 photo of blue-pen ticks the ticked boxes match best about
    1.1 mm up, would be measured there, and an unticked box under a filled circle would take the circle's darkness:
    a spent chip too many, no ``?``).  A best shift on the search's other edges is kept: there a curled sheet's bend
    can take a box further than the search."""
    import cv2

    pad = 0.5
    r = int(round(reach * ppm))
    tx0, ty0 = int(round((b.x - pad - x0) * ppm)), int(round((b.y - pad - y0) * ppm))
    sw, sh = int(round((b.w + 2 * pad) * ppm)), int(round((b.h + 2 * pad) * ppm))
    px, py = int(round(prior[0] * ppm)), int(round(prior[1] * ppm))
    h, w = D.shape
    if (
        min(tx0 + px - r, ty0 + py - r, tx0, ty0) < 0
        or tx0 + px + sw + r > w
        or ty0 + py + sh + r > h
        or tx0 + sw > w
        or ty0 + sh > h
    ):
        return None
    tpl = _blurred(tD, (ty0, ty0 + sh, tx0, tx0 + sw), blur * ppm)
    on = (tpl > 0.35 * float(tpl.max())).astype(np.uint8)
    if on.sum() < 10:
        return None
    mask = cv2.dilate(on, np.ones((3, 3), np.uint8)).astype(np.float32)
    # a pen's tick is several times darker than the pale outline: capped at the outline's own darkness, so that
    # the outline's shape, not the tick's strokes, decides where the box is
    cap = 1.5 * float(tpl.max())
    win = np.ascontiguousarray(np.minimum(D[ty0 + py - r : ty0 + py + sh + r, tx0 + px - r : tx0 + px + sw + r], cap))
    res = cv2.matchTemplate(win, tpl, cv2.TM_CCOEFF_NORMED, mask=mask)
    res = np.nan_to_num(res, nan=-1.0, posinf=-1.0, neginf=-1.0)
    yy, xx = np.mgrid[0 : res.shape[0], 0 : res.shape[1]]
    res = res - 0.08 * np.hypot(xx - r, yy - r) / max(r, 1)
    _, score, _, (mx, my) = cv2.minMaxLoc(res)
    if score < 0.3 or my == 0:
        # (best on the search's top edge: the filled chip circle's blurred lower edge, just above the box, passing
        # for the box's top edge; on its other edges the sheet's bend takes the box further than the search)
        return None
    return (prior[0] + (mx - r) / ppm, prior[1] + (my - r) / ppm)


def _along_track(x: float, found: list[tuple[float, float, float]], prior: tuple[float, float]) -> tuple[float, float]:
    """The shift (mm) of a chip track box at ``x`` mm from the boxes found on the track, ``(x, dx, dy)``: the
    least-squares line through the four nearest (it carries the shift on past the end of the track), their median
    when they span under 10 mm, ``prior`` when fewer than two were found."""
    near = sorted(found, key=lambda f: abs(f[0] - x))[:4]
    if len(near) < 2:
        return prior
    a = np.array(near, np.float64)
    if len(near) < 3 or float(np.ptp(a[:, 0])) < 10.0:
        return float(np.median(a[:, 1])), float(np.median(a[:, 2]))
    kx, ky = np.polyfit(a[:, 0], a[:, 1], 1), np.polyfit(a[:, 0], a[:, 2], 1)
    return float(np.polyval(kx, x)), float(np.polyval(ky, x))


def _local_shift(
    x: float, y: float, anchors: list[tuple[float, float, float, float, float]], reach: float = 22.0
) -> tuple[float, float]:
    """The sheet's bend at ``(x, y)`` mm: a Gaussian-weighted mean (``reach`` mm) of the shifts
    measured around it — the card spaces that matched well and the markers — ``(x, y, dx, dy, weight)``."""
    if not anchors:
        return (0.0, 0.0)
    a = np.array(anchors, np.float64)
    d2 = (a[:, 0] - x) ** 2 + (a[:, 1] - y) ** 2
    w = a[:, 4] * np.exp(-d2 / (2 * reach**2)) + 1e-12
    return (float(np.sum(w * a[:, 2]) / np.sum(w)), float(np.sum(w * a[:, 3]) / np.sum(w)))


def _smooth_shifts(
    shifts: dict[str, tuple[float, float, float]],
    centres: dict[str, tuple[float, float]],
    markers: Sequence[tuple[float, float, float, float]] = (),
) -> dict[str, tuple[float, float, float, bool]]:
    """Keep each group's own shift where its match is good and agrees with its surroundings; else use
    the surroundings: the shifts of the well-matched groups near it and of the markers near it,
    weighted by distance (the sheet bends smoothly; a global fit would mislead at the corners).

    Returns:
        name → ``(dx, dy, match score, replaced)`` in mm.
    """
    names = list(shifts)
    anchors = {n: (centres[n][0], centres[n][1], shifts[n][0], shifts[n][1], 1.0) for n in names if shifts[n][2] >= 0.6}
    marks = [(x, y, dx, dy, 2.0) for x, y, dx, dy in markers]

    def around(n: str, drop: set[str]) -> tuple[float, float]:
        pts = [a for k, a in anchors.items() if k != n and k not in drop] + marks
        return _local_shift(*centres[n], pts, reach=30.0)

    # anchors that disagree with their own surroundings are not trusted as anchors
    odd = {n for n, a in anchors.items() if np.hypot(a[2] - around(n, set())[0], a[3] - around(n, set())[1]) > 0.6}
    out: dict[str, tuple[float, float, float, bool]] = {}
    for n in names:
        sx, sy, score = shifts[n]
        mx, my = around(n, odd)
        dev = float(np.hypot(sx - mx, sy - my))
        if (score >= 0.8 and dev <= 1.5) or (score >= 0.6 and dev <= 0.8) or (score >= 0.45 and dev <= 0.4):
            out[n] = (sx, sy, score, False)
        else:
            out[n] = (mx, my, score, True)
    return out


@lru_cache(maxsize=1024)
def _ring_geometry(w: int, h: int, cx: float, cy: float, r0: float, r1: float) -> tuple[np.ndarray, ...]:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = xx - cx, yy - cy
    rr = np.hypot(dx, dy)
    ang = (np.arctan2(dy, dx) + np.pi) / (2 * np.pi) * RING_SECTORS
    sector = np.clip(ang.astype(np.int32), 0, RING_SECTORS - 1)
    ring = (rr >= r0) & (rr <= r1)
    return tuple((ring & (sector == k)) for k in range(RING_SECTORS))


def _top_mean(E: np.ndarray, bad: np.ndarray, xa: int, ya: int, xb: int, yb: int, share: float) -> float:
    """The mean of the darkest ``share`` of ``E[ya:yb, xa:xb]`` where not ``bad`` (0 when too few pixels)."""
    xa, ya = max(0, xa), max(0, ya)
    vals = E[ya:yb, xa:xb][~bad[ya:yb, xa:xb]]
    if vals.size < 4:
        return 0.0
    k = max(1, int(share * vals.size))
    return float(np.partition(vals, vals.size - k)[vals.size - k :].mean())


def _peak(vals: np.ndarray, q: float = 0.9) -> float:
    """The ``q`` quantile of ``vals`` (0 when fewer than four): the darkness of the darkest strokes there."""
    if vals.size < 4:
        return 0.0
    k = int(q * (vals.size - 1))
    return float(np.partition(vals.ravel(), k)[k])


def _target_ink(
    t: MarkTarget,
    E: np.ndarray,
    bad: np.ndarray,
    origin: tuple[float, float],
    ppm: float,
    blur: float,
    near: np.ndarray | None = None,
) -> tuple[float | tuple[float, ...], float]:
    """The ink of one target in a patch ``E`` (extra darkness) whose top-left is at ``origin`` mm
    (for a suit: its ring's sector means), and the darkness of its darkest strokes (:attr:`TargetInk.peak`).
    ``bad`` marks the pixels not to measure; ``near`` (a spent box's) also the pixels on and near any print."""
    ox, oy = origin
    x, y = (t.x - ox) * ppm, (t.y - oy) * ppm
    w, h = t.w * ppm, t.h * ppm
    if t.kind == "chip_spent":
        return _spent_ink(t, E, bad, origin, ppm, blur, near, strokes=False)[:2]
    if t.kind in ("rank", "value", "tick"):  # a tick box is measured as a rank box
        xa, ya, xb, yb = _inner_box(t, origin, ppm, blur)
        region = E[ya:yb, xa:xb]
        ok = ~bad[ya:yb, xa:xb]
        vals = region[ok]
        if vals.size < 4:
            return 0.0, 0.0
        if t.kind == "value":
            return float(vals.mean()), _peak(vals)
        # the darkest 40 %: a tick covers a part of the box, wherever it crosses it
        k = max(1, int(0.4 * vals.size))
        # (a tick box is wide: a small tick covers a tenth of it, so its strokes are the top 3 %)
        return float(np.partition(vals, vals.size - k)[vals.size - k :].mean()), _peak(
            vals, 0.97 if t.kind == "tick" else 0.9
        )
    if t.kind == "chip_earned":
        # inside the circle, against the paper just around it (between the circles, away from their print)
        r = w / 2
        cx, cy = x + r, y + r
        R = 1.45 * r
        xa, ya = max(0, int(cx - R)), max(0, int(cy - R))
        xb, yb = min(E.shape[1], int(cx + R) + 1), min(E.shape[0], int(cy + R) + 1)
        region = E[ya:yb, xa:xb]
        xx, yy = np.arange(xa, xb)[None, :], np.arange(ya, yb)[:, None]
        d = np.hypot(xx + 0.5 - cx, yy + 0.5 - cy)
        vals = region[(d <= 0.72 * r) & ~bad[ya:yb, xa:xb]]
        off = near if near is not None else bad
        ring = region[(d >= 1.1 * r) & (d <= R) & ~off[ya:yb, xa:xb]]
        local = float(median(ring)) if ring.size >= 8 else 0.0
        return (float(vals.mean()) - local if vals.size >= 4 else 0.0), _peak(vals) - local
    # suit: a ring around the printed symbol
    unit = t.w / 3.9
    cx, cy = x + w / 2, y + h / 2
    r0, r1 = 1.35 * unit * ppm, 3.4 * unit * ppm
    half = int(np.ceil(r1)) + 1
    xa, ya = int(np.floor(cx)) - half, int(np.floor(cy)) - half
    xb, yb = xa + 2 * half + 1, ya + 2 * half + 1
    if xa < 0 or ya < 0 or xb > E.shape[1] or yb > E.shape[0]:
        return (float("nan"),) * RING_SECTORS, 0.0
    region = E[ya:yb, xa:xb]
    ok = ~bad[ya:yb, xa:xb]
    # positions to a quarter pixel and radii to half a pixel: the masks are then shared by many targets
    sectors = _ring_geometry(
        xb - xa, yb - ya, round((cx - xa) * 4) / 4, round((cy - ya) * 4) / 4, round(r0 * 2) / 2, round(r1 * 2) / 2
    )
    means = []
    side_vals = []
    for k_sec, sec in enumerate(sectors):
        m = sec & ok
        n = int(m.sum())
        if n >= max(3, 0.25 * int(sec.sum())):
            vals = region[m]
            top = max(1, int(0.35 * n))  # a circle crosses the ring: its darkest third
            means.append(float(np.partition(vals, n - top)[n - top :].mean()))
            if k_sec in SIDE_SECTORS:
                side_vals.append(vals)
        else:
            means.append(float("nan"))
    # the strokes' darkness beside the symbol, where a neighbour's circle never passes
    peak = _peak(np.concatenate(side_vals)) if side_vals else 0.0
    return tuple(means), peak


def _inner_box(t: MarkTarget, origin: tuple[float, float], ppm: float, blur: float) -> tuple[int, int, int, int]:
    """The pixels ``(x0, y0, x1, y1)`` a rank, tick or value target's ink is measured over, in a patch whose
    top-left is at ``origin`` mm: the box less an inset that keeps its outline out (a box's: 12 % of its width, or
    more in a photo ``blur`` mm soft; a value's area: 0.5 mm)."""
    ox, oy = origin
    x, y, w, h = (t.x - ox) * ppm, (t.y - oy) * ppm, t.w * ppm, t.h * ppm
    inset = max(0.12 * w, (0.12 + 0.35 * blur) * ppm) if t.kind != "value" else 0.5 * ppm
    return int(round(x + inset)), int(round(y + inset)), int(round(x + w - inset)), int(round(y + h - inset))


def _halves(
    t: MarkTarget, E: np.ndarray, bad: np.ndarray, origin: tuple[float, float], ppm: float, blur: float
) -> tuple[float, float]:
    """A rank box's ink in its left half and in its right half (:attr:`TargetInk.halves`), each measured as
    :func:`_target_ink` measures the whole box (the darkest 40 % of :func:`_inner_box`) in a patch ``E`` whose
    top-left is at ``origin`` mm; 0 for a half with too few pixels to measure."""
    xa, ya, xb, yb = _inner_box(t, origin, ppm, blur)
    xm = int(round((t.x - origin[0]) * ppm + t.w * ppm / 2))
    return _top_mean(E, bad, xa, ya, xm, yb, 0.4), _top_mean(E, bad, xm, ya, xb, yb, 0.4)


HALVES_OVER = 0.03
"""A rank box's halves (:attr:`TargetInk.halves`) are measured only when its ink is at least this much over the median
of its space's boxes (the least a box may hold and not be blank: the reader's floor for a box's ink)."""


def _stroke_measures(
    boxes: list[TargetInk], E: np.ndarray, bad: np.ndarray, origin: tuple[float, float], ppm: float, blur: float
) -> None:
    """Fill in, for one space's rank boxes ``boxes`` measured in the patch ``E`` (its top-left at ``origin`` mm), the
    measures of their strokes that the decisions may ask for: for every box with some ink (:data:`HALVES_OVER`), its
    halves (a tick running on into the next box, :func:`.read._past_edge`) and its strokes' top and span (a thin
    tick, :data:`.read.STROKE_SURE`); for the box holding the most ink, the crossings beside it (the only tick whose
    run-on is asked about).  The other boxes keep ``None`` or NaN: never needed (they are read by their whole ink)."""
    import cv2

    if not boxes:
        return
    level = float(median([b.ink for b in boxes]))
    smooth = cv2.GaussianBlur(np.ascontiguousarray(E, np.float32), (0, 0), STROKE_SMOOTH_MM * ppm)
    for b in boxes:
        if b.ink >= level + HALVES_OVER:
            b.halves = _halves(b.target, E, bad, origin, ppm, blur)
            xa, ya, xb, yb = _inner_box(b.target, origin, ppm, blur)
            seen = ~bad[max(0, ya) : yb, max(0, xa) : xb]
            if seen.any():
                inside = smooth[max(0, ya) : yb, max(0, xa) : xb]
                b.top = float(inside[seen].max()) - level
                b.top_span = _extent_mm(seen & (inside >= level + 0.5 * b.top), ppm)
    top = max(boxes, key=lambda b: b.ink)
    top.crossing = _crossing(top.target, smooth, bad, origin, ppm)


CROSS_GAP = 0.25
"""The gap between two rank boxes of a row, as a share of a box's width (0.6 mm beside boxes of 2.4 mm)."""

CROSS_REACH_MM = 0.3
"""A stroke crossing the gap between two boxes may climb this much (mm) from one side of the gap to the other."""


def _crossing(
    t: MarkTarget, smooth: np.ndarray, bad: np.ndarray, origin: tuple[float, float], ppm: float
) -> tuple[float, float]:
    """How dark a stroke crossing the gap on the left and on the right of the rank box ``t`` is, in the patch
    ``smooth`` (extra darkness smoothed over :data:`STROKE_SMOOTH_MM`) whose top-left is at ``origin`` mm
    (:attr:`TargetInk.crossing`).

    In the gap (:data:`CROSS_GAP` of the box's width, over the box's height), at each height, its lightest column
    (each column taken at its darkest within :data:`CROSS_REACH_MM` up or down: a slanting stroke) says how dark a
    stroke from one side to the other can be there; the darkest height counts.  A stroke beside the gap, not
    across it, leaves the gap's far side blank.  0 where the gap is off the patch or hidden."""
    import cv2

    ox, oy = origin
    x, y, w, h = (t.x - ox) * ppm, (t.y - oy) * ppm, t.w * ppm, t.h * ppm
    gap = CROSS_GAP * w
    y0, y1 = max(0, int(round(y))), min(smooth.shape[0], int(round(y + h)))
    out = []
    for xa, xb in ((x - gap, x), (x + w, x + w + gap)):
        xa, xb = max(0, int(round(xa))), min(smooth.shape[1], int(round(xb)))
        if xb - xa < 1 or y1 - y0 < 3 or bad[y0:y1, xa:xb].any():
            out.append(0.0)
            continue
        strip = smooth[y0:y1, xa:xb]
        reach = max(1, int(round(CROSS_REACH_MM * ppm)))
        climbed = cv2.dilate(strip, np.ones((2 * reach + 1, 1), np.uint8))  # (each column's darkest within the reach)
        out.append(float(climbed.min(axis=1).max()))
    return out[0], out[1]


def _spent_ink(
    t: MarkTarget,
    E: np.ndarray,
    bad: np.ndarray,
    origin: tuple[float, float],
    ppm: float,
    blur: float,
    near: np.ndarray | None,
    *,
    strokes: bool = True,
) -> tuple[float, float, float, float, float]:
    """A spent box's ink, its darkest strokes' darkness (:attr:`TargetInk.peak`), its strokes' top
    (:attr:`TargetInk.stroke`), ridge (:attr:`TargetInk.ridge`) and span (mm, :attr:`TargetInk.stroke_span`), in a
    patch ``E`` as :func:`_target_ink` takes it; without ``strokes`` the last three are NaN, not measured (they are
    taken in luminance only)."""
    ox, oy = origin
    x, y = (t.x - ox) * ppm, (t.y - oy) * ppm
    w, h = t.w * ppm, t.h * ppm
    inset = max(0.2 * w, (0.15 + 0.8 * blur) * ppm)  # larger, and alone: keep well clear of its outline
    xa, ya = int(round(x + inset)), int(round(y + inset))
    xb, yb = int(round(x + w - inset)), int(round(y + h - inset))
    # a tick may run along an edge or overshoot the box: also look over the box and around it
    # (nothing else is printed near a spent box; the chip circle above stays outside), diluted, so doubled
    # (away from the box's own outline, which leaves a trace after subtraction)
    # and against its own surroundings' paper (the median there: a tick covers little of it)
    off = near if near is not None else bad
    # (from just below its top: the chip circle above, filled, must not count)
    wx0, wy0, wx1, wy1 = (
        int(round(x - 0.3 * w)),
        int(round(y + 0.08 * h)),
        int(round(x + 1.3 * w)),
        int(round(y + 1.3 * h)),
    )
    # and the darkest 40 % of plain noise lies about one noise sigma above the median: taken off too
    # the paper level and its noise from the band beside the box (between it and its neighbours)
    gap = int(round(1.2 * ppm))
    rows = slice(max(0, int(round(y))), int(round(y + h)))
    side = np.concatenate(
        [
            E[rows, : max(0, int(round(x)) - gap)][~off[rows, : max(0, int(round(x)) - gap)]],
            E[rows, int(round(x + w)) + gap :][~off[rows, int(round(x + w)) + gap :]],
        ]
    )
    local = float(median(side)) if side.size >= 8 else 0.0
    sigma = float(1.4826 * median(np.abs(side - local))) if side.size >= 8 else 0.0
    wide = _top_mean(E, off, wx0, wy0, wx1, wy1, 0.4) - local - 0.97 * sigma
    inner = _top_mean(E, bad, xa, ya, xb, yb, 0.4) - local - 0.97 * sigma
    # the factor undoes a dilution over the box and around it; in a soft photo the print's margin leaves
    # the window nothing to measure but the box's centre (inside the inner square): a second, smaller
    # sample of the inner ink, not diluted, whose noise doubled would pass for a light tick
    cy0, cx0 = max(0, wy0), max(0, wx0)
    seen = ~off[cy0:wy1, cx0:wx1]
    seen[max(0, ya - cy0) : max(0, yb - cy0), max(0, xa - cx0) : max(0, xb - cx0)] = False
    spread = WIDE_SPREAD if int(seen.sum()) >= WIDE_OUTSIDE_MM2 * ppm * ppm else 1.0
    inside = E[max(0, ya) : yb, max(0, xa) : xb][~bad[max(0, ya) : yb, max(0, xa) : xb]]
    # its strokes' darkness over the whole window, on the pale print too (subtracted): a tick drawn along the
    # box's outline has its darkest strokes there, and only they tell it from a rubbed-out one
    window = E[max(0, wy0) : wy1, max(0, wx0) : wx1][~bad[max(0, wy0) : wy1, max(0, wx0) : wx1]]
    top, ridge, span = _stroke_top(E, bad, (wx0, wy0, wx1, wy1), ppm, local) if strokes else (float("nan"),) * 3
    return max(inner, spread * wide), max(_peak(inside), _peak(window, 0.97)) - local, top - local, ridge - local, span


STROKE_SMOOTH_MM = 0.15
"""The strokes' top (:func:`_stroke_top`) is taken after smoothing over this much (Gaussian sigma, mm): half a pen's
stroke width, enough to quiet a pixel's noise and a pencil's grain without thinning the stroke."""


def _stroke_top(
    E: np.ndarray, bad: np.ndarray, window: tuple[int, int, int, int], ppm: float, base: float = 0.0
) -> tuple[float, float, float]:
    """The darkest point of the strokes in ``window`` ``(x0, y0, x1, y1)`` pixels of the patch ``E`` (extra
    darkness), smoothed over :data:`STROKE_SMOOTH_MM`, off the print (``bad``), and their ridge: the median
    darkness along the strokes' crests (the pixels darkest across the stroke, horizontally or vertically) at least
    :data:`RIDGE_FLOOR` of the top; and the span (mm) of the stroke through the top: the diagonal of the extent of
    the connected pixels (off the print) at least half as far over ``base`` (the paper beside the box) as the top
    (:attr:`TargetInk.stroke_span`); ``(0, 0, 0)`` when nothing is seen.

    Unlike a quantile of the window, the top does not depend on how much of the window a mark covers: a small
    tick and a large cross of the same pen reach the same top in a sharp photo, and a mark rubbed out keeps no
    more than the share of its graphite the eraser left (:attr:`TargetInk.stroke`).  In a soft photo a cross's
    two strokes add up where they meet and lift its top over a tick's; the ridge, taken along the whole of the
    strokes, is the darkness of one stroke for both (:attr:`TargetInk.ridge`)."""
    import cv2

    x0, y0, x1, y1 = max(0, window[0]), max(0, window[1]), window[2], window[3]
    smooth = cv2.GaussianBlur(np.ascontiguousarray(E, np.float32), (0, 0), STROKE_SMOOTH_MM * ppm)[y0:y1, x0:x1]
    seen = ~bad[y0:y1, x0:x1]
    if not seen.any():
        return 0.0, 0.0, 0.0
    peak = np.unravel_index(int(np.argmax(np.where(seen, smooth, -np.inf))), smooth.shape)
    top = float(smooth[peak])
    c = smooth[1:-1, 1:-1]
    crest = ((c >= smooth[1:-1, :-2]) & (c >= smooth[1:-1, 2:])) | ((c >= smooth[:-2, 1:-1]) & (c >= smooth[2:, 1:-1]))
    along = c[crest & seen[1:-1, 1:-1] & (c >= RIDGE_FLOOR * top)]
    above = (seen & (smooth >= base + 0.5 * (top - base))).astype(np.uint8)
    _, labels = cv2.connectedComponents(above, connectivity=8)
    return top, (float(median(along)) if along.size else top), _extent_mm(labels == labels[peak], ppm)


def _extent_mm(mask: np.ndarray, ppm: float) -> float:
    """How far the pixels of ``mask`` (bool) reach: the diagonal of their bounding box, in mm at ``ppm`` pixels per
    mm (a single pixel: 1.41 pixels; no pixel: 0)."""
    yy, xx = np.nonzero(mask)
    if not xx.size:
        return 0.0
    return float(np.hypot(np.ptp(xx) + 1, np.ptp(yy) + 1)) / ppm


RIDGE_FLOOR = 0.5
"""The strokes' ridge (:func:`_stroke_top`) is taken over the crests at least this share of the top: the strokes,
not the paper's grain between them (a cross's crossing, the top, is at most about twice one stroke)."""
