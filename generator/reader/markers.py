"""Finding the sheet in a photo: ArUco markers, the paper they name, and the homography.

Every sheet prints four corner markers (and up to four mid-edge ones) of the
4 × 4 ArUco dictionary; each paper size has its own block of eight ids
(:func:`generator.sheets.allin.marker_block`), so the ids found tell the
paper, and the paper gives each marker's corners in millimetres.  The
homography maps page millimetres to photo pixels, fitted robustly: a marker
that the others disagree with (a false detection) is left out, then the rest
are fitted by least squares.  Its residual —
the RMS distance, in millimetres on the page, between where the corners were
found and where the fit puts them — is the quality figure of the fit.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..paper import Paper, papers
from ..sheets.allin import MARKER_DICTIONARY, MARKER_SIZE, marker_block, marker_boxes

DETECT_SIDE = 1800
DROP_MM = 3.0
"""When the fit misses some marker corner by more than this (mm), the marker without which the others
fit best is left out (while at least three stay)."""
"""Markers are searched in a copy of the photo scaled down to this longest side (pixels)."""


@dataclass(frozen=True)
class SheetFit:
    """Where the sheet lies in the photo.

    Attributes:
        paper: the paper size named by the marker ids.
        found: marker id → its slot (``"tl"``, ``"tm"`` …) for every marker used in the fit.
        outliers: marker ids found but left out of the fit (they disagree with the others).
        homography: 3 × 3 matrix mapping page millimetres ``(x, y, 1)`` to photo pixels.
        residual_mm: RMS fit error of the marker corners, in millimetres on the page.
        px_per_mm: photo pixels per page millimetre at the middle of the page (geometric mean of the two axes).
    """

    paper: Paper
    found: dict[int, str]
    outliers: tuple[int, ...]
    homography: np.ndarray
    residual_mm: float
    px_per_mm: float
    offsets: dict[int, tuple[float, float]] = None
    """Marker id → (x, y) of its centre (mm) and how far (mm) the photo shows it from where the fit puts it:
    ``{id: (x, y, dx, dy)}``; the sheet's bend near each marker."""

    def to_image(self, pts_mm: np.ndarray) -> np.ndarray:
        """Map page points ``(N, 2)`` in mm to photo pixels ``(N, 2)``."""
        return _apply(self.homography, pts_mm)

    def to_page(self, pts_px: np.ndarray) -> np.ndarray:
        """Map photo pixels ``(N, 2)`` to page millimetres ``(N, 2)``."""
        return _apply(np.linalg.inv(self.homography), pts_px)


@lru_cache(maxsize=1)
def _detector():
    import cv2

    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_DICTIONARY))
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.cornerRefinementWinSize = 3
    params.adaptiveThreshWinSizeMin = 7
    params.adaptiveThreshWinSizeMax = 37
    params.adaptiveThreshWinSizeStep = 15
    params.minMarkerPerimeterRate = 0.02
    params.polygonalApproxAccuracyRate = 0.05
    params.errorCorrectionRate = 0.5
    return cv2.aruco.ArucoDetector(dictionary, params)


def detect_markers(gray: np.ndarray) -> dict[int, np.ndarray]:
    """Find ArUco markers in a grey photo ``(H, W) uint8``.

    Returns:
        marker id → its four corners ``(4, 2)`` in photo pixels (float32), in the
        marker's own order: top-left, top-right, bottom-right, bottom-left as printed.
        When an id is seen twice, the larger one is kept.
    """
    import cv2

    h, w = gray.shape[:2]
    scale = min(1.0, DETECT_SIDE / max(h, w))
    small = cv2.resize(gray, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA) if scale < 1 else gray
    corners, ids, _ = _detector().detectMarkers(small)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for c, i in zip(corners, ids.ravel()):
        pts = c.reshape(4, 2).astype(np.float32) / scale
        if scale < 1:  # refine the corners on the full-size photo
            win = int(max(2, min(6, 0.8 / scale)))
            pts = cv2.cornerSubPix(gray, pts.reshape(-1, 1, 2).copy(), (win, win), (-1, -1),
                                   (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.03)).reshape(4, 2)
        key = int(i)
        if key not in found or cv2.contourArea(pts) > cv2.contourArea(found[key]):
            found[key] = pts
    return found


def paper_of(ids: list[int]) -> Paper | None:
    """The paper size whose marker block holds the most of ``ids`` (``None`` if none)."""
    best, count = None, 0
    for p in papers().values():
        base = marker_block(p.id)
        n = sum(1 for i in ids if base <= i < base + 8)
        if n > count:
            best, count = p, n
    return best


def fit_sheet(found: dict[int, np.ndarray], *, min_markers: int = 3) -> SheetFit | None:
    """Fit the page-to-photo homography from the markers found.

    Uses the markers of the paper block with most markers. While the fit misses
    some corner by more than :data:`DROP_MM`, the marker without which the others
    fit best is dropped (at least three stay); then a least-squares fit on the rest.

    Returns:
        the fit, or ``None`` when fewer than ``min_markers`` markers of one paper were found.
    """
    import cv2

    paper = paper_of(list(found))
    if paper is None:
        return None
    boxes = marker_boxes(paper)
    ids = [i for i in sorted(found) if i in boxes]
    if len(ids) < min_markers:
        return None
    src, dst, owner = [], [], []
    s = MARKER_SIZE
    for i in ids:
        _, x, y = boxes[i]
        src += [(x, y), (x + s, y), (x + s, y + s), (x, y + s)]
        dst += list(found[i])
        owner += [i] * 4
    src_a = np.asarray(src, np.float64)
    dst_a = np.asarray(dst, np.float64)
    H0, _ = cv2.findHomography(src_a, dst_a, 0)
    if H0 is None:
        return None
    keep = list(ids)
    owner_a = np.array(owner)
    # a marker that disagrees with the others is left out (a false detection, a marker on a fold):
    # while the fit misses by more than DROP_MM somewhere, drop the marker without which the others
    # fit best, as long as three stay
    def rms(sel_ids: list[int]) -> tuple[float, np.ndarray | None]:
        sel = np.isin(owner_a, sel_ids)
        Hs, _ = cv2.findHomography(src_a[sel], dst_a[sel], 0)
        if Hs is None:
            return np.inf, None
        d = _apply(np.linalg.inv(Hs), dst_a[sel]) - src_a[sel]
        return float(np.sqrt(np.max(np.sum(d ** 2, axis=1)))), Hs

    while len(keep) >= 4:
        worst_all, _ = rms(keep)
        if worst_all <= DROP_MM:
            break
        trials = [(rms([k for k in keep if k != i])[0], i) for i in keep]
        best_rest, drop = min(trials)
        if not best_rest < 0.5 * worst_all:
            break
        keep.remove(drop)
    if len(keep) != len(ids):
        sel = np.isin(owner_a, keep)
        H0, _ = cv2.findHomography(src_a[sel], dst_a[sel], 0)
    sel = np.array([o in keep for o in owner])
    back = _apply(np.linalg.inv(H0), dst_a[sel])
    residual = float(np.sqrt(np.mean(np.sum((back - src_a[sel]) ** 2, axis=1))))
    offsets = {}
    own = np.array(owner)[sel]
    for i in keep:
        k = own == i
        d = (back[k] - src_a[sel][k]).mean(axis=0)
        c = src_a[sel][k].mean(axis=0)
        offsets[i] = (float(c[0]), float(c[1]), float(d[0]), float(d[1]))
    return SheetFit(
        paper=paper,
        found={i: boxes[i][0] for i in keep},
        outliers=tuple(i for i in ids if i not in keep),
        homography=H0,
        residual_mm=residual,
        px_per_mm=_px_per_mm(H0, paper),
        offsets=offsets,
    )


def _px_per_mm(H: np.ndarray, paper: Paper) -> float:
    cx, cy = paper.width / 2, paper.height / 2
    p = _apply(H, np.array([[cx, cy], [cx + 1, cy], [cx, cy + 1]], np.float64))
    ax = np.linalg.norm(p[1] - p[0])
    ay = np.linalg.norm(p[2] - p[0])
    return float(np.sqrt(ax * ay))


def _apply(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    pts = np.asarray(pts, np.float64).reshape(-1, 2)
    v = np.hstack([pts, np.ones((len(pts), 1))]) @ H.T
    return v[:, :2] / v[:, 2:3]
