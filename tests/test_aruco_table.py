"""The ArUco table sheets are drawn from (generator/printing/aruco.py) is OpenCV's DICT_4X4_50, marker by marker."""

from __future__ import annotations

import cv2

from generator.printing.aruco import DICT_4X4_50, marker_cells_4x4


def test_every_marker_matches_opencv():
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    assert len(DICT_4X4_50) == 50
    for marker_id in range(50):
        img = cv2.aruco.generateImageMarker(dictionary, marker_id, 6, borderBits=1)
        assert marker_cells_4x4(marker_id) == tuple(tuple(bool(v < 128) for v in row) for row in img), marker_id


def test_opencv_reads_a_marker_drawn_from_the_table():
    import numpy as np

    cells = marker_cells_4x4(17)
    img = np.full((120, 120), 255, np.uint8)
    for r, row in enumerate(cells):
        for c, black in enumerate(row):
            if black:
                img[30 + 10 * r : 40 + 10 * r, 30 + 10 * c : 40 + 10 * c] = 0
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    _, ids, _ = detector.detectMarkers(img)
    assert ids is not None and ids.ravel().tolist() == [17]
