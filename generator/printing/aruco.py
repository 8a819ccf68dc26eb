"""ArUco markers of OpenCV's ``DICT_4X4_50`` as data, so drawing a sheet does not load OpenCV.

Each marker is 4 × 4 inner bits inside a one-cell black border.  The bits are
OpenCV's own (``cv2.aruco.generateImageMarker``); ``tests/test_aruco_table.py``
compares every marker with OpenCV, which the photo reader uses to find them.
"""

from __future__ import annotations

MARKER_DICTIONARY = "DICT_4X4_50"
"""The ArUco dictionary of the markers (OpenCV name): 4 × 4 bits inside a one-cell black border."""

DICT_4X4_50: tuple[int, ...] = (
    0x4ACD,
    0xF065,
    0xCCD2,
    0x66B9,
    0xAB61,
    0x8632,
    0x61D1,
    0x3B0D,
    0x0125,
    0x30A9,
    0x066E,
    0xEE58,
    0xF148,
    0xD5F0,
    0xDB4E,
    0xD9C1,
    0xB99A,
    0x99FF,
    0x93A1,
    0x8950,
    0x7974,
    0x4FD4,
    0x332A,
    0x227D,
    0x01B8,
    0x6B8E,
    0x531B,
    0x5AAB,
    0xDEDC,
    0xCB90,
    0xBBEA,
    0xA84D,
    0x6130,
    0x0F34,
    0xF751,
    0xF6D6,
    0xE78A,
    0xFB00,
    0xF209,
    0xE3A5,
    0xE8E7,
    0xD5D7,
    0xCD73,
    0xC74D,
    0xDB17,
    0xD114,
    0xD2C0,
    0xB49B,
    0xAFD1,
    0xAFEC,
)
"""Marker id → its 16 inner bits, row by row from the top left, most significant bit first; 1 is black."""


def marker_cells_4x4(marker_id: int) -> tuple[tuple[bool, ...], ...]:
    """The 6 × 6 cells of marker ``marker_id`` (0 to 49), border included; True is black.

    Raises:
        IndexError: no such marker in the dictionary.
    """
    bits = DICT_4X4_50[marker_id]
    inner = [[bool(bits >> (15 - (4 * r + c)) & 1) for c in range(4)] for r in range(4)]
    border = (True,) * 6
    return (border, *((True, *row, True) for row in inner), border)
