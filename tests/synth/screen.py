"""A photo of a sheet shown on a screen: the picture lit through an LCD's red, green and blue stripes, with the dark
matrix between pixels, turned a little and taken by a camera whose pixels are about as large as the screen's: the
two grids beat into moiré."""

from __future__ import annotations

import numpy as np

SCREEN_PX = 4
"""Each screen pixel is drawn as this many by this many units: three stripes and a unit of dark matrix."""


def screen_photo(rgb: np.ndarray, seed: int, scale: float, angle: float) -> np.ndarray:
    """``rgb`` (``uint8``, rows × columns × 3) shown one photo pixel per screen pixel and photographed at ``scale``
    camera pixels per screen pixel, the camera turned ``angle`` degrees; RGB ``uint8``."""
    import cv2

    rng = np.random.default_rng(seed)
    h, w = rgb.shape[:2]
    up = np.repeat(np.repeat(rgb.astype(np.float32) / 255, SCREEN_PX, 0), SCREEN_PX, 1)
    x = np.arange(w * SCREEN_PX) % SCREEN_PX
    y = np.arange(h * SCREEN_PX) % SCREEN_PX
    stripes = np.zeros(up.shape, np.float32)
    for c in range(3):
        stripes[:, :, c] = x[None, :] == c
    stripes[y == SCREEN_PX - 1] = 0  # the matrix between rows
    lit = up * stripes * (SCREEN_PX * SCREEN_PX / 3 / (SCREEN_PX - 1)) * 0.8  # a pixel's light, as bright as before
    turn = cv2.getRotationMatrix2D((lit.shape[1] / 2, lit.shape[0] / 2), angle, 1.0)
    lit = cv2.warpAffine(lit, turn, (lit.shape[1], lit.shape[0]), flags=cv2.INTER_LINEAR)
    shot = cv2.resize(lit, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA)  # the camera's pixels
    shot = cv2.GaussianBlur(shot, (0, 0), 0.6) * np.array([0.95, 0.97, 1.05], np.float32)  # the lens; a cool screen
    shot += rng.normal(0, 0.02, shot.shape).astype(np.float32)
    return np.clip(shot * 255, 0, 255).astype(np.uint8)
