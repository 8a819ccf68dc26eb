"""The camera of the synthetic photos: a sheet on a table, its shape, the lamp, a phone.

A page image (float RGB, from :mod:`.synth`) is photographed the way a phone
does it, from one seed:

* **Shape.** The sheet lies flat, or its screen (the part above the printed
  fold line) stands up by ``fold`` degrees along that line, or the whole sheet
  curls into a cylinder whose edges lift ``curl`` mm off the table.  Every page
  point is placed in 3-D (millimetres, arc length kept) and projected through a
  pinhole camera (focal length 0.8 × the longer frame side, about a phone's
  main camera) held at a tilt and an in-plane rotation.
* **Light.** A gradient down to ``light_min``, a warm or cool cast, a soft
  shadow; faults on top: a *hard shadow* (a phone or a hand between the lamp
  and the sheet: a sharp edge, the shaded part ``darkness`` darker — a shadow
  multiplies the light), *glare* (the lamp mirrored in the paper: a bright,
  soft-edged spot that adds light, lowering the contrast under it and
  saturating the sensor at its core), a lit or shaded screen.
* **Framing.** The sheet covers a share of the frame; it may be placed so that
  a strip of it lies outside the photo, or share the frame with a second sheet.
* **Camera.** Defocus and motion blur, sensor noise, JPEG.

Nothing here is used by the reader; :func:`fold_line_y` is shared with it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from generator.printing.paper import Paper
from generator.printing.scene import Line, Scene


def fold_line_y(scene: Scene) -> float | None:
    """The y (mm) of the sheet's printed fold line: its dashed line across the page (``None`` if there is none)."""
    ys = [
        it.y1
        for it in scene.items
        if isinstance(it, Line)
        and it.paint.dash
        and abs(it.y1 - it.y2) < 1e-6
        and abs(it.x2 - it.x1) > 0.2 * scene.width
    ]
    return float(min(ys)) if ys else None


@dataclass(frozen=True)
class Shape:
    """How the sheet lies: ``fold`` degrees the part above ``fold_y`` mm stands up; ``curl`` mm its
    edges lift, bent along ``curl_along`` (``"v"``: top and bottom edges lift, ``"u"``: left and right)."""

    fold: float = 0.0
    fold_y: float = 0.0
    curl: float = 0.0
    curl_along: str = "v"

    def place(self, u: np.ndarray, v: np.ndarray, paper: Paper) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Page points (mm) to 3-D ``(X, Y, Z)`` mm: ``X, Y`` in the table plane, ``Z`` up off the table."""
        X, Y, Z = u.astype(np.float64), v.astype(np.float64), np.zeros(np.shape(u))
        if self.curl > 0:
            L = paper.height if self.curl_along == "v" else paper.width
            R = _curl_radius(self.curl, L)
            s = (Y if self.curl_along == "v" else X) - L / 2
            along = L / 2 + R * np.sin(s / R)
            Z = R * (1 - np.cos(s / R))
            if self.curl_along == "v":
                Y = along
            else:
                X = along
        if self.fold > 0:
            t = math.radians(self.fold)
            d = np.maximum(self.fold_y - v, 0.0)
            up = d > 0
            Y = np.where(up, self.fold_y - d * math.cos(t), Y)
            Z = np.where(up, Z + d * math.sin(t), Z)
        return X, Y, Z


def _curl_radius(lift: float, length: float) -> float:
    """The cylinder radius (mm) whose arc of ``length`` mm, lying on the table at its middle, lifts its ends by ``lift``
    mm."""
    lo, hi = length / (2 * math.pi) + 1e-6, 1e7
    for _ in range(80):
        mid = math.sqrt(lo * hi)
        if mid * (1 - math.cos(length / (2 * mid))) > lift:
            lo = mid
        else:
            hi = mid
    return math.sqrt(lo * hi)


@dataclass(frozen=True)
class Pose:
    """A camera looking at the table: intrinsics ``K`` (the image shift included), rotation ``R`` of the
    sheet's frame, distance ``dist`` (mm) of the sheet's centre; ``size`` the paper (mm)."""

    K: np.ndarray
    R: np.ndarray
    dist: float
    size: tuple[float, float]

    def project(self, X: np.ndarray, Y: np.ndarray, Z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """3-D points (sheet frame, mm, ``Z`` up toward the camera) to photo pixels."""
        W, H = self.size
        P = np.stack([X - W / 2, Y - H / 2, -Z])
        c = np.tensordot(self.R, P, axes=1)
        c[2] += self.dist
        q = np.tensordot(self.K, c, axes=1)
        return q[0] / q[2], q[1] / q[2]

    def homography(self) -> np.ndarray:
        """Page mm → photo px for the sheet lying flat."""
        W, H = self.size
        C = np.array([[1, 0, -W / 2], [0, 1, -H / 2], [0, 0, 1]])
        M = np.column_stack([self.R[:, 0], self.R[:, 1], np.array([0, 0, self.dist])])
        return self.K @ M @ C


def make_pose(
    paper: Paper,
    frame: tuple[int, int],
    coverage: float,
    tilt: float,
    tilt_axis: float,
    rotation: float,
    rng: random.Random,
    *,
    region: tuple[float, float, float, float] | None = None,
    cut: tuple[str, float] | None = None,
) -> Pose:
    """A pose showing the sheet at ``coverage`` of the frame (or of ``region``, a part of the frame
    ``(x0, y0, x1, y1)`` in pixels), placed at random inside it; with ``cut = (side, mm)`` the strip of that
    width along the sheet's ``side`` (``top``, ``bottom``, ``left``, ``right``) lies outside the photo."""
    W, H = paper.width, paper.height
    fw, fh = frame
    rx0, ry0, rx1, ry1 = region or (0, 0, fw, fh)
    f = 0.8 * max(fw, fh)
    rot = math.radians(rotation)
    Rz = np.array([[math.cos(rot), -math.sin(rot), 0], [math.sin(rot), math.cos(rot), 0], [0, 0, 1]])
    ax = math.radians(tilt_axis)
    axis = np.array([math.cos(ax), math.sin(ax), 0.0])
    t = math.radians(tilt)
    Kx = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    R = (np.eye(3) + math.sin(t) * Kx + (1 - math.cos(t)) * Kx @ Kx) @ Rz

    def pose(dist: float, dx: float = 0.0, dy: float = 0.0) -> Pose:
        K = np.array([[f, 0, fw / 2 + dx], [0, f, fh / 2 + dy], [0, 0, 1]])
        return Pose(K, R, dist, (W, H))

    def quad(ps: Pose, pts=((0, 0), (W, 0), (W, H), (0, H))) -> np.ndarray:
        a = np.array(pts, float)
        x, y = ps.project(a[:, 0], a[:, 1], np.zeros(len(a)))
        return np.stack([x, y], 1)

    def area(q: np.ndarray) -> float:
        x, y = q[:, 0], q[:, 1]
        return 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))

    rw, rh = rx1 - rx0, ry1 - ry0
    target = coverage * rw * rh
    dist = f * math.sqrt(W * H / target)
    for _ in range(30):
        dist *= math.sqrt(area(quad(pose(dist))) / target)
    for _ in range(60):  # shrink until the sheet fits the region with a small margin
        q = quad(pose(dist))
        if np.ptp(q[:, 0]) <= rw * 0.98 and np.ptp(q[:, 1]) <= rh * 0.98:
            break
        dist *= 1.03
    q = quad(pose(dist))
    dx = rng.uniform(rx0 + rw * 0.01 - q[:, 0].min(), rx0 + rw * 0.99 - q[:, 0].max())
    dy = rng.uniform(ry0 + rh * 0.01 - q[:, 1].min(), ry0 + rh * 0.99 - q[:, 1].max())
    if cut is not None:
        side, mm = cut
        edge = {
            "top": [(0, 0), (W, 0)],
            "bottom": [(0, H), (W, H)],
            "left": [(0, 0), (0, H)],
            "right": [(W, 0), (W, H)],
        }[side]
        inner = {"top": (0, mm), "bottom": (0, -mm), "left": (mm, 0), "right": (-mm, 0)}[side]
        e = quad(pose(dist), edge)
        line = quad(pose(dist), [(x + inner[0], y + inner[1]) for x, y in edge])
        c = quad(pose(dist), [(W / 2, H / 2)])[0]
        # push the sheet toward the frame border its edge faces until the line `mm` inside that edge is on the border
        out = e.mean(0) - c
        if abs(out[0]) >= abs(out[1]):
            dx = (fw - line[:, 0].max()) if out[0] > 0 else -line[:, 0].min()
            dy = (
                rng.uniform(fh * 0.02 - q[:, 1].min(), fh * 0.98 - q[:, 1].max())
                if np.ptp(q[:, 1]) < fh
                else (fh - np.ptp(q[:, 1])) / 2 - q[:, 1].min()
            )
        else:
            dy = (fh - line[:, 1].max()) if out[1] > 0 else -line[:, 1].min()
            dx = (
                rng.uniform(fw * 0.02 - q[:, 0].min(), fw * 0.98 - q[:, 0].max())
                if np.ptp(q[:, 0]) < fw
                else (fw - np.ptp(q[:, 0])) / 2 - q[:, 0].min()
            )
    return pose(dist, dx, dy)


def background(w: int, h: int, rng: random.Random) -> np.ndarray:
    """A table: wood grain, or a mottled cloth, in a random colour (float RGB)."""
    import cv2

    nrng = np.random.default_rng(rng.getrandbits(32))
    sw, sh = max(8, w // 16), max(8, h // 16)
    base = np.array([rng.uniform(0.25, 0.75), rng.uniform(0.2, 0.6), rng.uniform(0.1, 0.5)], np.float32)
    if rng.random() < 0.5:  # wood
        yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
        warp = cv2.resize(nrng.normal(0, 1, (sh // 8 + 2, sw // 8 + 2)).astype(np.float32), (sw, sh)) * 6
        f = rng.uniform(0.15, 0.4)
        grain = 0.5 + 0.5 * np.sin((yy + warp) * f + np.sin(xx * 0.02) * 3)
        tex = grain[..., None] * 0.25 - 0.12
    else:
        tex = cv2.GaussianBlur(nrng.normal(0, 0.12, (sh, sw)).astype(np.float32), (0, 0), 2)[..., None]
    small = np.clip(base + tex * base, 0, 1).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    big += nrng.normal(0, 0.02, (h // 2, w // 2, 1)).astype(np.float32).repeat(2, 0).repeat(2, 1)[:h, :w]
    return big


STEP = 4
"""The page position of every photo pixel is solved on a grid this many pixels apart, then interpolated."""


def page_coords(pose: Pose, shape: Shape, paper: Paper, frame: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """For every photo pixel, the page point (mm) it shows, as two ``(fh, fw)`` float32 arrays.

    Solved on a coarse grid by fixed-point steps from the flat sheet's inverse homography
    (``p ← p + H⁻¹(q) − H⁻¹(F(p))``, ``F`` placing and projecting a page point), then interpolated.
    """
    import cv2

    fw, fh = frame
    gw, gh = -(-fw // STEP), -(-fh // STEP)
    xs = (np.arange(gw) + 0.5) * STEP - 0.5  # cv2.resize puts a coarse pixel's centre here
    ys = (np.arange(gh) + 0.5) * STEP - 0.5
    qx, qy = np.meshgrid(xs, ys)
    Hinv = np.linalg.inv(pose.homography())

    def back(x, y):
        d = Hinv[2, 0] * x + Hinv[2, 1] * y + Hinv[2, 2]
        return (Hinv[0, 0] * x + Hinv[0, 1] * y + Hinv[0, 2]) / d, (Hinv[1, 0] * x + Hinv[1, 1] * y + Hinv[1, 2]) / d

    u0, v0 = back(qx, qy)
    u, v = u0.copy(), v0.copy()
    if shape.fold > 0 or shape.curl > 0:
        for _ in range(40):
            px, py = pose.project(*shape.place(u, v, paper))
            bu, bv = back(px, py)
            du, dv = u0 - bu, v0 - bv
            u += 0.8 * du
            v += 0.8 * dv
            if float(np.nanmax(np.abs(du)) + np.nanmax(np.abs(dv))) < 1e-3:
                break
    U = cv2.resize(u.astype(np.float32), (fw, fh), interpolation=cv2.INTER_LINEAR)
    V = cv2.resize(v.astype(np.float32), (fw, fh), interpolation=cv2.INTER_LINEAR)
    return U, V


def _smoothstep(x: np.ndarray) -> np.ndarray:
    t = np.clip(x, 0.0, 1.0)
    return t * t * (3 - 2 * t)


def hard_shadow(U: np.ndarray, V: np.ndarray, spec: tuple[float, float, float, float, float]) -> np.ndarray:
    """The light factor of a hard shadow ``(u0, v0, angle°, darkness, penumbra mm)``: 1 on the lit side,
    ``1 − darkness`` beyond the line through page point ``(u0, v0)`` at ``angle`` (to its left), a
    penumbra ``penumbra`` mm wide between."""
    u0, v0, ang, dark, pen = spec
    a = math.radians(ang)
    d = (U - u0) * math.sin(a) - (V - v0) * math.cos(a)  # signed distance (mm) to the line
    return (1.0 - dark * _smoothstep(d / max(pen, 1e-3) + 0.5)).astype(np.float32)


def glare(U: np.ndarray, V: np.ndarray, spec: tuple[float, float, float, float]) -> np.ndarray:
    """The light a glare spot ``(u0, v0, radius mm, strength)`` adds: a soft spot, ``strength`` at its
    middle (above 1 the sensor saturates there), half of it ``radius`` mm out."""
    u0, v0, r, s = spec
    d2 = (U - u0) ** 2 + (V - v0) ** 2
    return (s * np.exp(-math.log(2) * d2 / (r * r))).astype(np.float32)


__all__ = ["Shape", "Pose", "make_pose", "background", "page_coords", "hard_shadow", "glare", "fold_line_y"]
