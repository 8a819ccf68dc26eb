"""Finding the sheet in a photo: ArUco markers, the paper they name, and the homography.

Every sheet prints four corner markers (and up to four mid-edge ones) of the
4 × 4 ArUco dictionary; each paper size has its own block of eight ids
(:func:`generator.printing.readable.marker_block`), so the ids found tell the
paper, and the paper gives each marker's corners in millimetres.  The
homography maps page millimetres to photo pixels, fitted robustly: a marker
that the others disagree with (a false detection) is left out, then the rest
are fitted by least squares.  Its residual —
the RMS distance, in millimetres on the page, between where the corners were
found and where the fit puts them — is the quality figure of the fit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.printing.paper import Paper, papers
from generator.printing.readable import MARKER_SIZE, marker_block, marker_boxes
from generator.reader.detect import DETECT_SIDE, detect_all_markers  # noqa: F401  (re-exported)

DROP_MM = 3.0
"""When the fit misses some marker corner by more than this (mm), the marker without which the others
fit best is left out (while at least three stay)."""


@dataclass(frozen=True)
class Warp:
    """How far the sheet lies from a flat page, as a smooth field of displacements: page point ``p``
    (mm) shows in the photo where the homography puts ``p + d(p)``.

    ``d`` is sampled every ``step`` mm from ``(x0, y0)``: ``dx``, ``dy`` are ``(ny, nx)`` float32 arrays (mm),
    interpolated bilinearly (held constant beyond the samples).
    """

    x0: float
    y0: float
    step: float
    dx: np.ndarray
    dy: np.ndarray

    def at(self, pts_mm: np.ndarray) -> np.ndarray:
        """The displacement ``(N, 2)`` mm at page points ``(N, 2)`` mm."""
        pts = np.asarray(pts_mm, np.float64).reshape(-1, 2)
        ny, nx = self.dx.shape
        gx = np.clip((pts[:, 0] - self.x0) / self.step, 0, nx - 1)
        gy = np.clip((pts[:, 1] - self.y0) / self.step, 0, ny - 1)
        i0, j0 = np.minimum(gy.astype(int), ny - 2).clip(0), np.minimum(gx.astype(int), nx - 2).clip(0)
        fy, fx = gy - i0, gx - j0
        out = np.empty_like(pts)
        for k, f in enumerate((self.dx, self.dy)):
            i1, j1 = np.minimum(i0 + 1, ny - 1), np.minimum(j0 + 1, nx - 1)
            out[:, k] = (
                f[i0, j0] * (1 - fx) * (1 - fy)
                + f[i0, j1] * fx * (1 - fy)
                + f[i1, j0] * (1 - fx) * fy
                + f[i1, j1] * fx * fy
            )
        return out

    def grid(self, box_mm: tuple[float, float, float, float], ppm: float) -> tuple[np.ndarray, np.ndarray]:
        """The displacement over a page region at ``ppm`` pixels per mm: two float32 arrays (mm)."""
        import cv2

        x0, y0, x1, y1 = box_mm
        w, h = int(round((x1 - x0) * ppm)), int(round((y1 - y0) * ppm))
        # map output pixel centres to sample coordinates, and let remap interpolate the samples
        xs = ((x0 + np.arange(w) / ppm) - self.x0) / self.step
        ys = ((y0 + np.arange(h) / ppm) - self.y0) / self.step
        mx, my = np.meshgrid(xs.astype(np.float32), ys.astype(np.float32))
        dx = cv2.remap(self.dx, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        dy = cv2.remap(self.dy, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return dx, dy


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
    offsets: dict[int, tuple[float, float, float, float]] | None = None
    """Marker id → (x, y) of its centre (mm) and how far (mm) the photo shows it from where the fit puts it:
    ``{id: (x, y, dx, dy)}``; the sheet's bend near each marker."""
    warp: Warp | None = None
    """The sheet's departure from a flat page (a fold, a curl) as fitted on its printed grid, or ``None``."""

    def to_image(self, pts_mm: np.ndarray) -> np.ndarray:
        """Map page points ``(N, 2)`` in mm to photo pixels ``(N, 2)`` (through the warp, if any)."""
        pts = np.asarray(pts_mm, np.float64).reshape(-1, 2)
        if self.warp is not None:
            pts = pts + self.warp.at(pts)
        return apply_homography(self.homography, pts)

    def to_page(self, pts_px: np.ndarray) -> np.ndarray:
        """Map photo pixels ``(N, 2)`` to page millimetres ``(N, 2)`` (the homography alone)."""
        return apply_homography(np.linalg.inv(self.homography), pts_px)


def largest(detections: list[tuple[int, np.ndarray]]) -> dict[int, np.ndarray]:
    """One detection per id: the largest (a marker seen twice is most likely a small false detection)."""
    import cv2

    found: dict[int, np.ndarray] = {}
    for key, pts in detections:
        if key not in found or cv2.contourArea(pts) > cv2.contourArea(found[key]):
            found[key] = pts
    return found


def detect_markers(gray: np.ndarray) -> dict[int, np.ndarray]:
    """Find ArUco markers in a grey photo ``(H, W) uint8``.

    Returns:
        marker id → its four corners ``(4, 2)`` in photo pixels (float32), in the
        marker's own order: top-left, top-right, bottom-right, bottom-left as printed.
        When an id is seen twice, the larger one is kept.
    """
    return largest(detect_all_markers(gray))


def two_sheets(detections: list[tuple[int, np.ndarray]]) -> bool:
    """True when the detections show two sheets: two or more marker ids each seen twice, far apart
    (two sheets of one paper size), or three or more markers of each of two paper sizes."""
    by_id: dict[int, list[np.ndarray]] = {}
    for key, pts in detections:
        by_id.setdefault(key, []).append(pts)
    doubled = 0
    for seen in by_id.values():
        if len(seen) < 2:
            continue
        size = max(float(np.linalg.norm(p[0] - p[2])) for p in seen)
        centres = [p.mean(axis=0) for p in seen]
        if max(float(np.linalg.norm(a - b)) for a in centres for b in centres) > 3 * size:
            doubled += 1
    if doubled >= 2:
        return True
    blocks: dict[int, int] = {}
    for key in by_id:
        for p in papers().values():
            base = marker_block(p.id)
            if base <= key < base + 8:
                blocks[base] = blocks.get(base, 0) + 1
    return sum(1 for n in blocks.values() if n >= 3) >= 2


CORNERS = {"tl": "top-left", "tr": "top-right", "br": "bottom-right", "bl": "bottom-left"}


def outside_sides(
    paper: Paper, found_slots: set[str], to_image, image_size: tuple[int, int]
) -> tuple[str, list[str]] | None:
    """Which part of the sheet lies outside the photo, judged from the corner markers not found.

    Args:
        found_slots: the slots of the markers found (``tl``, ``tm`` …).
        to_image: page mm ``(N, 2)`` → photo px ``(N, 2)`` (the fit on the markers found).
        image_size: ``(width, height)`` of the photo.

    Returns:
        ``(part, slots)`` — ``part`` as a phrase (``"the bottom of the sheet"``, ``"the top-left corner
        of the sheet"``), ``slots`` the missing corner markers that the fit puts outside the photo —
        or ``None`` when every missing corner marker would be inside the photo (covered, not cut off).
    """
    w, h = image_size
    boxes = {slot: (x, y) for _, (slot, x, y) in marker_boxes(paper).items()}
    out = []
    for slot in ("tl", "tr", "bl", "br"):  # reading order, as messages name them
        if slot in found_slots:
            continue
        x, y = boxes[slot]
        c = to_image(
            np.array(
                [[x, y], [x + MARKER_SIZE, y], [x + MARKER_SIZE, y + MARKER_SIZE], [x, y + MARKER_SIZE]], np.float64
            )
        )
        if (c[:, 0] < 0).any() or (c[:, 1] < 0).any() or (c[:, 0] > w - 1).any() or (c[:, 1] > h - 1).any():
            out.append(slot)
    if not out:
        return None
    sides = {"top": {"tl", "tr"}, "bottom": {"bl", "br"}, "left": {"tl", "bl"}, "right": {"tr", "br"}}
    whole = [side for side, pair in sides.items() if pair <= set(out)]
    if len(out) == 1:
        part = f"the {CORNERS[out[0]]} corner of the sheet"
    elif len(whole) == 1:
        part = f"the {whole[0]} of the sheet"
    else:
        part = "part of the sheet"
    return part, out


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
        d = apply_homography(np.linalg.inv(Hs), dst_a[sel]) - src_a[sel]
        return float(np.sqrt(np.max(np.sum(d**2, axis=1)))), Hs

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
    back = apply_homography(np.linalg.inv(H0), dst_a[sel])
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
        px_per_mm=px_per_mm(H0, paper),
        offsets=offsets,
    )


def px_per_mm(H: np.ndarray, paper: Paper) -> float:
    cx, cy = paper.width / 2, paper.height / 2
    p = apply_homography(H, np.array([[cx, cy], [cx + 1, cy], [cx, cy + 1]], np.float64))
    ax = np.linalg.norm(p[1] - p[0])
    ay = np.linalg.norm(p[2] - p[0])
    return float(np.sqrt(ax * ay))


def apply_homography(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    pts = np.asarray(pts, np.float64).reshape(-1, 2)
    v = np.hstack([pts, np.ones((len(pts), 1))]) @ H.T
    return v[:, :2] / v[:, 2:3]
