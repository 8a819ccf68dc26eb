"""Finding the ArUco markers in a photo: OpenCV and NumPy only.

Kept apart from :mod:`.markers` (the sheet's fit), which needs the layouts and papers, so
that a background thread can find a photo's markers while the main thread is still
importing those (:mod:`.early`): two threads importing modules that import each other
could wait on each other's import locks.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from generator.printing.aruco import MARKER_DICTIONARY

DETECT_SIDE = 1800
"""Markers are searched in a copy of the photo scaled down to this longest side (pixels)."""


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


def detect_all_markers(gray: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Every ArUco marker detection in a grey photo ``(H, W) uint8``, an id as often as it is seen.

    Returns:
        ``(id, corners)`` pairs, the corners ``(4, 2)`` in photo pixels (float32) in the
        marker's own order: top-left, top-right, bottom-right, bottom-left as printed.
    """
    import cv2

    h, w = gray.shape[:2]
    scale = min(1.0, DETECT_SIDE / max(h, w))
    small = cv2.resize(gray, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA) if scale < 1 else gray
    corners, ids, _ = _detector().detectMarkers(small)
    out: list[tuple[int, np.ndarray]] = []
    if ids is None:
        return out
    for c, i in zip(corners, ids.ravel()):
        pts = c.reshape(4, 2).astype(np.float32) / scale
        if scale < 1:  # refine the corners on the full-size photo
            win = int(max(2, min(6, 0.8 / scale)))
            pts = cv2.cornerSubPix(
                gray,
                pts.reshape(-1, 1, 2).copy(),
                (win, win),
                (-1, -1),
                (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.03),
            ).reshape(4, 2)
        out.append((int(i), pts))
    return out


__all__ = ["DETECT_SIDE", "detect_all_markers"]
