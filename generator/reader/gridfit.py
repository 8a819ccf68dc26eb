"""Fitting the page to the sheet's own print: the card spaces as dense reference points.

The markers place the sheet, but they sit at the paper's edges: the top ones
on the screen that players fold up, all of them far from the grid.  A sheet
whose screen stands up, or that curls, bends a homography fitted on them.  So
the reader fits the grid with what the grid itself shows:

1. **Anchors.** Every card space (its frame, rank rows and suit column), every
   hand's reward badge and each half of the chip track is a printed pattern
   known to the hundredth of a millimetre and unique within a window of many
   millimetres.  Each is found in the photo — straightened through the marker
   fit at :data:`GRID_PPM` pixels per mm — by normalised correlation with the
   blank template, blurred as the photo is, within :func:`search_mm` of where
   the markers put it.  An anchor whose best match is weak, or barely better
   than another place, is not used.
2. **Homography.** A homography is fitted to the anchors (and to the markers
   that agree with them), robustly: anchors and markers it misses by more than
   :data:`INLIER_MM` are left out — a marker on the folded-up screen, a space
   under a thumb.
3. **Warp.** Where the anchors still miss that homography by more than
   :data:`FLAT_MM` (a curled sheet is no plane), a smooth displacement field —
   a thin-plate spline through the anchors' misses — is added: the warp of
   :class:`~.markers.SheetFit`.

Each anchor's miss under the final fit, and how far its neighbours alone
would have put it (leave-one-out), tell how well the fit holds there: the
reader flags the fields where it does not (:class:`GridFit`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from generator.printing.scene import Scene
from generator.reader.markers import SheetFit, Warp, apply_homography, px_per_mm

GRID_PPM = 2.0
"""Resolution (pixels per page mm) at which the anchors are found."""
MIN_SCORE = 0.5
"""An anchor is used when its best correlation is at least this …"""
MIN_MARGIN = 0.08
"""… and at least this much better than its best match elsewhere (more than 2 mm away)."""
GROSS_MM = 3.0
"""Anchors a robust homography misses by more than this (mm) are false matches, left out."""
LOO_MM = 1.0
"""An anchor that the smooth fit through the others misses by more than this (mm) is left out (the worst first)."""
INLIER_MM = 1.2
"""A marker joins the fit when it lies within this (mm) of where the anchors' fit puts it."""
FLAT_MM = 0.25
"""When the anchors miss the homography by more than this (RMS, mm), a warp is fitted too."""
WARP_STEP = 4.0
"""Spacing (mm) of the warp's samples."""


@dataclass
class Anchor:
    """One printed pattern found in the photo: its page box (mm), its centre, the shift (mm) from where the
    marker fit put it, the correlation, and, after the fit, its ``miss`` and leave-one-out ``loo`` (mm)."""

    name: str
    box: tuple[float, float, float, float]
    shift: tuple[float, float] = (0.0, 0.0)
    score: float = 0.0
    used: bool = False
    miss: float = float("nan")
    loo: float = float("nan")

    @property
    def centre(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return ((x0 + x1) / 2, (y0 + y1) / 2)


@dataclass
class GridFit:
    """The fit on the grid: the new :class:`~.markers.SheetFit` and every anchor as found and fitted."""

    fit: SheetFit
    anchors: dict[str, Anchor]
    warped: bool

    def fit_error(self, x: float, y: float, reach: float = 20.0) -> float:
        """How badly the fit may hold at page point ``(x, y)`` mm: the largest leave-one-out miss (mm) of the
        used anchors within ``reach`` mm (0 when none is near)."""
        worst = 0.0
        for a in self.anchors.values():
            if a.used and a.loo == a.loo:
                cx, cy = a.centre
                if abs(cx - x) <= reach and abs(cy - y) <= reach:
                    worst = max(worst, a.loo)
        return worst


def anchor_boxes(scene: Scene) -> dict[str, tuple[float, float, float, float]]:
    """The printed patterns the grid is fitted on, by name: each card space (its targets' box with the
    frame around), each reward badge, each half of the chip track (boxes in mm)."""
    boxes: dict[str, list[float]] = {}
    chips = []
    for t in scene.marks:
        if t.kind in ("rank", "suit", "value"):
            key, pad = t.owner, 2.0
        elif t.kind == "reward":
            key, pad = f"reward:{t.owner}", 1.5
        elif t.kind in ("chip_earned", "chip_spent"):
            chips.append(t)
            continue
        else:
            continue
        b = boxes.setdefault(key, [np.inf, np.inf, -np.inf, -np.inf])
        b[0], b[1] = min(b[0], t.x - pad), min(b[1], t.y - pad)
        b[2], b[3] = max(b[2], t.x + t.w + pad), max(b[3], t.y + t.h + pad)
    if chips:
        xs = sorted({t.x for t in chips if t.kind == "chip_earned"})
        half = xs[(len(xs) + 1) // 2] if len(xs) > 1 else np.inf
        for name, part in (("chips<", [t for t in chips if t.x < half]), ("chips>", [t for t in chips if t.x >= half])):
            if part:
                boxes[name] = [
                    min(t.x for t in part) - 1.5,
                    min(t.y for t in part) - 1.5,
                    max(t.x + t.w for t in part) + 1.5,
                    max(t.y + t.h for t in part) + 1.5,
                ]
    return {k: (float(b[0]), float(b[1]), float(b[2]), float(b[3])) for k, b in boxes.items()}


def search_mm(residual_mm: float) -> float:
    """How far (mm) from where the markers put it an anchor is looked for: farther when the markers fit badly
    (but always less than half the spacing of card spaces, so a space is never taken for its neighbour)."""
    return float(min(14.0, 8.0 + 6.0 * residual_mm))


def _tps(points: np.ndarray, values: np.ndarray, smooth: float) -> tuple[np.ndarray, np.ndarray]:
    """A thin-plate spline through ``values (n, k)`` at ``points (n, 2)``; returns its weights and affine part."""
    n = len(points)
    d = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(-1))
    K = np.where(d > 0, d * d * np.log(np.maximum(d, 1e-12)), 0.0) + smooth * np.eye(n)
    P = np.hstack([np.ones((n, 1)), points])
    A = np.zeros((n + 3, n + 3))
    A[:n, :n], A[:n, n:], A[n:, :n] = K, P, P.T
    b = np.zeros((n + 3, values.shape[1]))
    b[:n] = values
    sol = np.linalg.lstsq(A, b, rcond=None)[0]
    return sol[:n], sol[n:]


def _tps_eval(points: np.ndarray, weights: np.ndarray, affine: np.ndarray, at: np.ndarray) -> np.ndarray:
    d = np.sqrt(((at[:, None, :] - points[None, :, :]) ** 2).sum(-1))
    U = np.where(d > 0, d * d * np.log(np.maximum(d, 1e-12)), 0.0)
    return U @ weights + np.hstack([np.ones((len(at), 1)), at]) @ affine


def _peak(res: np.ndarray, exclude_px: int) -> tuple[float, float, float, float]:
    """Best match (sub-pixel x, y), its score, and the best score farther than ``exclude_px`` from it."""
    from generator.reader.marks import subpixel_peak

    x, y, best = subpixel_peak(res)
    px, py = int(round(x)), int(round(y))
    other = res.copy()
    other[max(0, py - exclude_px) : py + exclude_px + 1, max(0, px - exclude_px) : px + exclude_px + 1] = -1.0
    second = float(other.max()) if other.size else -1.0
    return x, y, best, second


def _match(
    img: np.ndarray,
    tpl_img: np.ndarray,
    box: tuple[int, int, int, int],
    around: tuple[float, float],
    reach_px: float,
    ppm: float,
) -> tuple[float, float, float, float] | None:
    """Find the template's ``box`` (pixels) of ``tpl_img`` in ``img`` within ``reach_px`` of ``around`` (pixels),
    matching on the print and just around it (the player's ink elsewhere does not pull the match); both
    images at ``ppm`` pixels per mm.

    Returns:
        ``(dx, dy, score, second)`` — the shift in pixels, its correlation and the best correlation more
        than 2 mm away — or ``None`` when the window leaves the image or the template is blank.
    """
    import cv2

    bx0, by0, bx1, by1 = box
    tpl = tpl_img[by0:by1, bx0:bx1]
    if tpl.size == 0 or float(tpl.std()) < 1e-3:
        return None
    r = int(np.ceil(reach_px))
    ox, oy = int(round(around[0])), int(round(around[1]))
    wx0, wy0, wx1, wy1 = bx0 + ox - r, by0 + oy - r, bx1 + ox + r, by1 + oy + r
    if wx0 < 0 or wy0 < 0 or wx1 > img.shape[1] or wy1 > img.shape[0]:
        return None
    mask = cv2.dilate((np.abs(tpl) > 0.04).astype(np.uint8), np.ones((3, 3), np.uint8)).astype(np.float32)
    res = cv2.matchTemplate(
        np.ascontiguousarray(img[wy0:wy1, wx0:wx1]), np.ascontiguousarray(tpl), cv2.TM_CCOEFF_NORMED, mask=mask
    )
    res = np.nan_to_num(res, nan=-1.0, posinf=-1.0, neginf=-1.0)
    px, py, best, second = _peak(res, max(1, int(round(2 * ppm))))
    return ox + px - r, oy + py - r, best, second


def _views(
    img: np.ndarray,
    fit: SheetFit,
    template_rgb: np.ndarray,
    template_ppm: float,
    region: tuple[float, float, float, float],
    blur_mm: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The photo (grey or BGR, already scaled to a few pixels per mm) straightened through ``fit`` over
    ``region`` (mm) at :data:`GRID_PPM`, the template over the same region, both as luminance darkness with
    the light's slow changes taken out, and where the photo is."""
    import cv2

    from generator.reader.marks import rectify

    x0, y0, x1, y1 = region
    size = (int(round((x1 - x0) * GRID_PPM)), int(round((y1 - y0) * GRID_PPM)))
    gray = img if img.ndim == 2 else cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    rect = rectify(gray, fit, region, GRID_PPM)
    edge = np.zeros(gray.shape[:2], np.uint8)
    edge[1:-1, 1:-1] = 255
    inside = rectify(edge, fit, region, GRID_PPM, border=0) > 128
    L = 1.0 - rect.astype(np.float32) / 255.0
    ty0, tx0 = int(round(y0 * template_ppm)), int(round(x0 * template_ppm))
    k = template_ppm / GRID_PPM
    th, tw = int(round(size[1] * k)), int(round(size[0] * k))
    tcrop = np.full((th, tw, 3), 255, np.uint8)
    sub = template_rgb[ty0 : ty0 + th, tx0 : tx0 + tw]
    tcrop[: sub.shape[0], : sub.shape[1]] = sub
    tL: np.ndarray = (
        1.0
        - cv2.cvtColor(cv2.resize(tcrop, size, interpolation=cv2.INTER_AREA), cv2.COLOR_RGB2GRAY).astype(np.float32)
        / 255.0
    )
    # the template blurred as the photo (its blur, and about half a pixel from scaling and straightening)
    tL = cv2.GaussianBlur(tL, (0, 0), float(np.hypot(blur_mm * GRID_PPM, 0.5)))
    tL = tL - cv2.GaussianBlur(tL, (0, 0), 3.0 * GRID_PPM)
    L = L - cv2.GaussianBlur(L, (0, 0), 3.0 * GRID_PPM)
    return L, tL, inside


def _find(
    anchors: dict[str, Anchor],
    L: np.ndarray,
    tL: np.ndarray,
    inside: np.ndarray,
    origin: tuple[float, float],
    reach: float,
) -> None:
    """Find every anchor in ``L`` within ``reach`` mm: over the whole reach at half resolution first when it is wide."""
    import cv2

    x0, y0 = origin
    h, w = L.shape
    two = reach > 2.0
    if two:
        L2 = cv2.resize(L, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
        tL2 = cv2.resize(tL, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    for a in anchors.values():
        a.used, a.score, a.shift = False, 0.0, (0.0, 0.0)
        box = a.box
        bx0, by0 = int(round((box[0] - x0) * GRID_PPM)), int(round((box[1] - y0) * GRID_PPM))
        bx1, by1 = int(round((box[2] - x0) * GRID_PPM)), int(round((box[3] - y0) * GRID_PPM))
        if bx0 < 0 or by0 < 0 or bx1 > w or by1 > h or not inside[by0:by1, bx0:bx1].all():
            continue  # not (wholly) in the photo
        around, margin = (0.0, 0.0), 1.0
        if two:
            coarse = _match(
                L2, tL2, (bx0 // 2, by0 // 2, bx1 // 2, by1 // 2), (0.0, 0.0), reach * GRID_PPM / 2, GRID_PPM / 2
            )
            if coarse is None:
                continue
            around, margin = (coarse[0] * 2, coarse[1] * 2), coarse[2] - coarse[3]
        fine = _match(L, tL, (bx0, by0, bx1, by1), around, (1.5 if two else reach) * GRID_PPM, GRID_PPM)
        if fine is None:
            continue
        a.shift = (fine[0] / GRID_PPM, fine[1] / GRID_PPM)
        a.score = fine[2]
        a.used = fine[2] >= MIN_SCORE and min(margin, fine[2] - fine[3]) >= MIN_MARGIN


def _solve(
    fit: SheetFit, anchors: dict[str, Anchor], markers: dict[int, np.ndarray] | None, page: tuple[float, float]
) -> tuple[SheetFit, bool] | None:
    """Fit a homography (and, where the sheet is no plane, a warp) on the anchors found through ``fit`` and
    on the markers (see the module docstring); ``None`` when fewer than six anchors hold.

    False matches are left out twice: those a robust homography misses by more than :data:`GROSS_MM`, then,
    one at a time, an anchor the others' smooth field misses by more than :data:`LOO_MM`.  A marker joins the
    fit when it lies where the anchors' fit puts it (within :data:`INLIER_MM`): not one on a folded-up screen."""
    import cv2

    good = [a for a in anchors.values() if a.used]
    if len(good) < 6:
        return None
    src = np.array([a.centre for a in good], np.float64)
    dst = fit.to_image(np.array([(a.centre[0] + a.shift[0], a.centre[1] + a.shift[1]) for a in good]))
    Hn, mask = cv2.findHomography(src, dst, cv2.RANSAC, GROSS_MM * fit.px_per_mm, maxIters=500, confidence=0.999)
    if Hn is None or int(mask.sum()) < 6:
        return None
    keep = mask.ravel().astype(bool)
    for a, k in zip(good, keep):
        a.used = bool(k)
    good = [a for a, k in zip(good, keep) if k]
    src, dst = src[keep], dst[keep]
    Hn, _ = cv2.findHomography(src, dst, 0)
    # the markers' corners, in page mm and photo px
    mb, msrc, mdst = {}, {}, {}
    if markers:
        from generator.printing.readable import MARKER_SIZE, marker_boxes

        mb = marker_boxes(fit.paper)
        s = MARKER_SIZE
        for mid, corners in markers.items():
            if mid in mb:
                _, mx, my = mb[mid]
                msrc[mid] = np.array([(mx, my), (mx + s, my), (mx + s, my + s), (mx, my + s)], np.float64)
                mdst[mid] = np.asarray(corners, np.float64)
    W, H = page
    for _ in range(4):
        miss = (
            apply_homography(np.linalg.inv(Hn), dst) - src
        )  # where the photo shows each anchor, less where it is (page mm)
        rms = float(np.sqrt(np.mean(np.sum(miss**2, axis=1))))
        warped = rms > FLAT_MM and len(src) >= 8
        loo = np.hypot(*miss.T) if not warped else _loo(src, miss)
        worst = int(np.argmax(loo))
        if loo[worst] <= LOO_MM or len(src) <= 8:
            break
        good[worst].used = False  # a false match (or a space folded on itself): left out
        del good[worst]
        src, dst = np.delete(src, worst, 0), np.delete(dst, worst, 0)
        Hn, _ = cv2.findHomography(src, dst, 0)
    # (when the loop ran out after leaving an anchor out, the misses are those of the last fit)
    miss = apply_homography(np.linalg.inv(Hn), dst) - src
    warped = float(np.sqrt(np.mean(np.sum(miss**2, axis=1)))) > FLAT_MM and len(src) >= 8
    # markers where the anchors' fit puts them join it (their corners are the most exact points there are)
    pts, vals = src, miss
    if warped:
        wts, aff = _tps(pts, vals, smooth=float(len(pts)))
    agree = {}
    for mid in msrc:
        m = apply_homography(np.linalg.inv(Hn), mdst[mid]) - msrc[mid]
        c = msrc[mid].mean(axis=0)
        pred = _tps_eval(pts, wts, aff, c[None, :])[0] if warped else np.zeros(2)
        if np.hypot(*(m.mean(axis=0) - pred)) <= INLIER_MM:
            agree[mid] = (c, m.mean(axis=0))
    if agree and not warped:
        allsrc = np.vstack([src, *[msrc[i] for i in agree]])
        alldst = np.vstack([dst, *[mdst[i] for i in agree]])
        Hn, _ = cv2.findHomography(allsrc, alldst, 0)
        miss = apply_homography(np.linalg.inv(Hn), dst) - src
        rms = float(np.sqrt(np.mean(np.sum(miss**2, axis=1))))
        vals = miss
    for a, m in zip(good, miss):
        a.miss = float(np.hypot(*m))
    warp = None
    if warped:
        pts = np.vstack([src, *[agree[i][0][None, :] for i in agree]]) if agree else src
        vals = np.vstack([miss, *[agree[i][1][None, :] for i in agree]]) if agree else miss
        wts, aff = _tps(pts, vals, smooth=float(len(pts)))
        gx = np.arange(0.0, W + WARP_STEP, WARP_STEP)
        gy = np.arange(0.0, H + WARP_STEP, WARP_STEP)
        d = _tps_eval(pts, wts, aff, np.stack(np.meshgrid(gx, gy), -1).reshape(-1, 2))
        warp = Warp(
            0.0,
            0.0,
            WARP_STEP,
            d[:, 0].reshape(len(gy), len(gx)).astype(np.float32),
            d[:, 1].reshape(len(gy), len(gx)).astype(np.float32),
        )
        loo = _loo(pts, vals)[: len(src)]
        for a, v in zip(good, loo):
            a.loo = float(v)
        rms = float(np.sqrt(np.mean(loo**2)))  # the fit's quality: how well the others place each anchor
    else:
        for a, m in zip(good, miss):
            a.loo = float(np.hypot(*m))
    offsets, keep_m = {}, {}
    for mid, (c, m) in agree.items():
        d = m - (warp.at(c[None, :])[0] if warp is not None else 0.0)
        offsets[mid] = (float(c[0]), float(c[1]), float(d[0]), float(d[1]))
        keep_m[mid] = mb[mid][0]
    new = replace(
        fit,
        homography=Hn,
        residual_mm=rms,
        px_per_mm=px_per_mm(Hn, fit.paper),
        offsets=offsets,
        warp=warp,
        found=keep_m or fit.found,
    )
    return new, warp is not None


def _loo(pts: np.ndarray, vals: np.ndarray) -> np.ndarray:
    """Leave one out: how far (mm) the smooth field through the other points misses each point."""
    out = np.zeros(len(pts))
    for i in range(len(pts)):
        rest = np.arange(len(pts)) != i
        wts, aff = _tps(pts[rest], vals[rest], smooth=float(len(pts) - 1))
        out[i] = float(np.hypot(*(vals[i] - _tps_eval(pts[rest], wts, aff, pts[i : i + 1])[0])))
    return out


def fit_grid(
    img: np.ndarray,
    fit: SheetFit,
    scene: Scene,
    template_rgb: np.ndarray,
    template_ppm: float,
    blur_mm: float,
    markers: dict[int, np.ndarray] | None = None,
    gray: np.ndarray | None = None,
) -> GridFit:
    """Refit the page map on the sheet's own print (see the module docstring).

    The anchors are found twice: through the marker fit, over :func:`search_mm`; then through the fit
    on those, within 1.5 mm (now that the spaces are straightened right, more of them match well).

    Args:
        img: the photo (BGR ``uint8``), as ``fit`` maps into it.
        fit: the marker fit.
        scene: the blank sheet's scene (the anchors come from its mark targets).
        template_rgb: the blank page rendered at ``template_ppm`` pixels per mm (RGB ``uint8``).
        blur_mm: the photo's blur (Gaussian sigma, page mm).
        markers: marker id → its four corners in ``img`` pixels, for the markers that may join the fit.
        gray: ``img`` in grey (``cv2.COLOR_BGR2GRAY``), when already made (the photo's markers were found on it).

    Returns:
        the :class:`GridFit`; its ``fit`` is ``fit`` itself when too few anchors are found (fewer than six).
    """
    boxes = anchor_boxes(scene)
    anchors = {name: Anchor(name, box) for name, box in boxes.items()}
    reach = search_mm(fit.residual_mm)
    W, H = scene.width, scene.height
    x0 = np.floor(max(0.0, min(b[0] for b in boxes.values()) - reach - 2) * GRID_PPM) / GRID_PPM
    y0 = np.floor(max(0.0, min(b[1] for b in boxes.values()) - reach - 2) * GRID_PPM) / GRID_PPM
    x1 = min(W, max(b[2] for b in boxes.values()) + reach + 2)
    y1 = min(H, max(b[3] for b in boxes.values()) + reach + 2)
    region = (float(x0), float(y0), float(x1), float(y1))
    import cv2

    # the photo in grey, scaled down once so nothing aliases at GRID_PPM
    f = min(1.0, 2.5 * GRID_PPM / max(fit.px_per_mm, 1e-6))
    if gray is None or gray.shape != img.shape[:2]:
        gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
    small = cv2.resize(gray, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 0.8 else gray
    scale = np.diag([f, f, 1.0]) if f < 0.8 else np.eye(3)
    current, warped = fit, False
    for step, r in enumerate((reach, 1.5)):
        L, tL, inside = _views(
            small, replace(current, homography=scale @ current.homography), template_rgb, template_ppm, region, blur_mm
        )
        _find(anchors, L, tL, inside, (x0, y0), r)
        solved = _solve(current, anchors, markers, (W, H))
        if solved is None:
            if step == 0:
                for a in anchors.values():
                    a.used = False
                return GridFit(fit, anchors, False)
            break
        current, warped = solved
    return GridFit(current, anchors, warped)


__all__ = ["GridFit", "Anchor", "fit_grid", "anchor_boxes", "GRID_PPM"]
