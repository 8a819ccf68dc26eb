"""Reading the sheet code (the QR code printed bottom right) once the markers are found.

The code's square is known from the paper (:func:`generator.printing.readable.code_box`),
so it is cut out of the photo *through the homography*: perspective removed,
upsampled to a few pixels per module.  OpenCV's QR decoder reads that crop.
When it cannot (a small or soft photo), the crop is compared with the code
sheetsmith would print for each candidate layout, drawn and blurred as much as
the photo is: a candidate is taken only when it correlates well with the photo
and clearly better than every other candidate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from generator.printing.readable import CODE_SIZE, SheetCode, code_box, code_matrix
from generator.reader.markers import SheetFit

MATCH_SCORE = 0.6
"""A candidate code is taken when the photo's code correlates at least this well with it …"""
MATCH_GAP = 0.2
"""… and at least this much better than with any other candidate."""


@dataclass(frozen=True)
class CodeReading:
    """The sheet code as read: its text (``None`` when unread), and how (``decoded``, ``matched`` or ``none``)."""

    text: str | None
    how: str
    mismatch: float = 0.0
    """1 − the best correlation with a candidate code (``matched`` or ``none``)."""
    visible: bool = True
    """Whether something code-like is printed there at all (False: covered, torn off, washed out)."""
    scores: tuple[tuple[str, float], ...] = ()
    """Each candidate text with its correlation (``matched`` or ``none``)."""

    def score_of(self, text: str) -> float:
        """The correlation of the photo's code with candidate ``text`` (−1 when it was not compared)."""
        return next((score for t, score in self.scores if t == text), -1.0)


def crop_code(gray: np.ndarray, fit: SheetFit, px_per_mm: float, margin_mm: float = 3.0) -> np.ndarray:
    """The code's square (and ``margin_mm`` around it) cut from the photo, rectified, at ``px_per_mm``."""
    import cv2

    x, y, s = code_box(fit.paper)
    x0, y0, side = x - margin_mm, y - margin_mm, s + 2 * margin_mm
    n = int(round(side * px_per_mm))
    S = np.array([[1 / px_per_mm, 0, x0], [0, 1 / px_per_mm, y0], [0, 0, 1]], np.float64)
    M = fit.homography @ S
    return cv2.warpPerspective(gray, M, (n, n), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderValue=255)


def decode_code(gray: np.ndarray, fit: SheetFit) -> str | None:
    """Decode the sheet code with OpenCV's QR reader; ``None`` when it cannot."""
    import cv2

    det = cv2.QRCodeDetector()
    # where the sheet curls or its screen stands up, the fit may miss the code by millimetres: a wider crop then
    for margin, scales in ((3.0, (8.0, 12.0, 5.0)), (10.0, (8.0,))):
        for ppm in scales:
            crop = crop_code(gray, fit, ppm, margin)
            for img in (
                crop,
                cv2.threshold(cv2.GaussianBlur(crop, (3, 3), 0), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[1],
            ):
                try:
                    text, _, _ = det.detectAndDecode(img)
                except cv2.error:
                    text = ""
                if text:
                    return text
    return None


def expected_image(text: str, px_per_mm: float, blur_mm: float, margin_mm: float = 3.0) -> np.ndarray:
    """The code of ``text`` as the photo should show it: drawn at ``px_per_mm`` with ``margin_mm`` of paper
    around, blurred by ``blur_mm`` (Gaussian sigma); 1.0 is white."""
    import cv2

    matrix = np.array(code_matrix(text), np.float32)
    n = matrix.shape[0]
    size = CODE_SIZE * px_per_mm
    side = int(round((CODE_SIZE + 2 * margin_mm) * px_per_mm))
    img: np.ndarray = np.ones((side, side), np.float32)
    off = margin_mm * px_per_mm
    edges = off + np.arange(n + 1) * size / n
    for r in range(n):
        for c in range(n):
            if matrix[r, c]:
                img[
                    int(round(edges[r])) : int(round(edges[r + 1])), int(round(edges[c])) : int(round(edges[c + 1]))
                ] = 0.0
    if blur_mm > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur_mm * px_per_mm)
    return img


def _data_area(texts: list[str], ppm: float, margin_mm: float = 3.0) -> np.ndarray:
    """Pixels of the code square outside the three finder patterns (which every code shares)."""
    n = min(len(code_matrix(t)) for t in texts) if texts else 25
    side = int(round((CODE_SIZE + 2 * margin_mm) * ppm))
    sel = np.zeros((side, side), bool)
    a, b = int(round(margin_mm * ppm)), int(round((margin_mm + CODE_SIZE) * ppm))
    sel[a:b, a:b] = True
    f = int(round(8 * CODE_SIZE / n * ppm))
    sel[a : a + f, a : a + f] = False
    sel[a : a + f, b - f : b] = False
    sel[b - f : b, a : a + f] = False
    return sel


def match_code(gray: np.ndarray, fit: SheetFit, candidates: list[str], blur_mm: float) -> CodeReading:
    """Compare the photo's code with the code each candidate text would print (see the module docstring).

    Returns:
        ``matched`` with the text when one candidate correlates clearly best, else ``none``;
        ``mismatch`` is 1 − the best correlation.
    """
    import cv2

    ppm = 6.0
    reach = 1.5  # the sheet may bend this far (mm) away from where the markers put the code
    crop = crop_code(gray, fit, ppm, margin_mm=3.0 + reach).astype(np.float32)
    scores: list[tuple[float, str]] = []
    texts = list(dict.fromkeys(candidates))
    r = int(round(reach * ppm))
    sel = _data_area(texts, ppm)
    mask = sel[r:-r, r:-r] if r else sel
    for text in texts:
        best = -1.0
        for f in (0.7, 1.0, 1.5, 2.2):  # the blur there may differ from the photo's median
            tpl = expected_image(text, ppm, blur_mm * f)
            tpl = np.ascontiguousarray(tpl[r:-r, r:-r]) if r else tpl
            res = cv2.matchTemplate(crop, tpl, cv2.TM_CCOEFF_NORMED, mask=mask.astype(np.float32))
            res = np.nan_to_num(res, nan=-1.0, posinf=-1.0, neginf=-1.0)
            best = max(best, float(res.max()))
        scores.append((best, text))
    inner = crop_code(gray, fit, ppm).astype(np.float32)
    c = inner[sel]
    scores.sort(reverse=True)
    visible = float(np.percentile(c, 90) - np.percentile(c, 10)) > 0.25 * max(float(np.percentile(inner, 99)), 1.0)
    if not scores:
        return CodeReading(None, "none", 1.0, visible)
    best, text = scores[0]
    runner = scores[1][0] if len(scores) > 1 else 0.0
    each = tuple((t, score) for score, t in scores)
    if best >= MATCH_SCORE and best - runner >= MATCH_GAP:
        return CodeReading(text, "matched", 1.0 - best, True, each)
    return CodeReading(None, "none", 1.0 - best, visible, each)


def read_code(
    gray: np.ndarray, fit: SheetFit, candidates: list[str] | Callable[[], list[str]], blur_mm: float
) -> CodeReading:
    """Read the sheet code: decode it, else match it against ``candidates`` (code texts, or a function
    giving them: called only when the code cannot be decoded, as drawing every candidate takes time)."""
    text = decode_code(gray, fit)
    if text is not None:
        return CodeReading(text, "decoded")
    return match_code(gray, fit, candidates() if callable(candidates) else candidates, blur_mm)


def parse(text: str | None) -> SheetCode | None:
    """The :class:`SheetCode` of a code text, or ``None``."""
    return SheetCode.parse(text) if text else None
