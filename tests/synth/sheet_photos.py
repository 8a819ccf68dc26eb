"""Synthetic phone photos of filled sheets, for the reader's tests and benchmark.

A blank sheet is rendered from its PDF (pdfium), the player's marks are drawn
on it the way people draw them — ticks and crosses of varying size and slant,
circles that miss the symbol's centre or leave a gap, filled and half-filled
chip bubbles, values and names written by hand — in pencil (as light as 30 %
grey) or blue or black pen; then the page is photographed: placed in 3-D
(tilt, any in-plane rotation), projected through a phone-like camera onto a
textured table, lit unevenly, shaded, blurred (defocus and motion), given
sensor noise and saved as JPEG.  Everything comes from one seed.

The truth of a synthetic photo is the :class:`~generator.games.allin.filled.FilledSheet`
it was drawn from; nothing here is used by the reader itself.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace

import numpy as np

from generator.games.allin.grid import cell_name
from generator.printing.paper import Paper
from generator.printing.scene import MarkTarget, Scene

FRAMES = ((1920, 1080), (2048, 1536), (2592, 1944), (3264, 2448), (4000, 3000))
"""Photo sizes of the realistic mix (landscape; half the photos are taken portrait)."""


@dataclass(frozen=True)
class Pen:
    """What the player writes with: ``kind`` (``pencil``, ``blue``, ``black``), colour at full
    coverage (RGB, 0–1), stroke width in mm, and whether the stroke is grainy (pencil)."""

    kind: str
    color: tuple[float, float, float]
    width: float
    grainy: bool = False


@dataclass(frozen=True)
class HandStyle:
    """How a player marks: the pen, ticks or crosses in boxes, how chip bubbles are filled, how sloppy."""

    pen: Pen
    box_mark: str = "tick"  # "tick", "cross", "slash", "dash", "blob", "mixed" (tick or cross) or "any" (any of them)
    bubble: str = "full"  # "full", "partial" or "mixed"
    sloppiness: float = 1.0  # scales every random offset
    gap_circles: float = 0.3  # share of suit circles drawn with a gap
    large_values: float = 0.0  # share of values written so large that they run on over the suit column
    loose_circles: float = 0.0  # share of suit circles drawn loose: wide, off-centre, open or overshooting


@dataclass(frozen=True)
class PhotoParams:
    """How the page is photographed.

    Attributes:
        frame: photo size ``(width, height)`` in pixels.
        coverage: share of the photo's area the sheet covers (clipped to what fits).
        tilt: angle between the sheet and the camera's image plane, degrees.
        tilt_axis: direction (degrees, in the sheet's plane) of the axis the sheet is tilted about.
        rotation: in-plane rotation, degrees.
        defocus: Gaussian blur sigma, pixels.
        motion: motion blur length, pixels; ``motion_angle`` its direction.
        noise: sensor noise sigma (0–1 scale).
        light_min: the darkest end of the lighting gradient, as a share of full light.
        light_angle: direction of the gradient, degrees.
        shadow: darkening in the soft shadow (0 for none).
        jpeg: JPEG quality.
        print_scale: the page printed at this scale (1.0, or e.g. 0.94 for "fit to page").
        bend: the paper's bulge, mm (a sheet that does not lie flat).
        fold: degrees the screen (the part above the printed fold line) stands up; ``fold_light``
            the screen's light as a share of the rest's (it faces the lamp differently).
        curl: mm the sheet's edges lift off the table, curled along ``curl_along`` (``"v"`` or ``"u"``).
        hard_shadow: ``(u0, v0, angle°, darkness, penumbra mm)``: a sharp-edged shadow whose edge passes
            through page point ``(u0, v0)`` mm (see :func:`.synth_camera.hard_shadow`).
        glare: ``(u0, v0, radius mm, strength)``: the lamp mirrored in the paper there.
        cut: ``(side, mm)``: that strip of the sheet lies outside the photo.
        cast: the light's colour (RGB multipliers; ``None``: a slight random cast): a warm lamp is about
            ``(1.0, 0.8, 0.55)`` after the phone's white balance.
        paper_tone: the paper's colour (RGB, 0–1; ``None``: white): cream or grey recycled paper. Print and ink
            are seen through it (the page is multiplied by it).
        toner: the printer's density, 1 full; below 1 the print is faded (a printer low on toner) …
        streaks: … and fades further in vertical bands up to this share (a worn drum or an empty cartridge's
            streaks). Toner and streaks touch the print only, not the player's ink.
        crumple: creases of a sheet crumpled and flattened by hand, 0 none; about 1 a typical crumple: each
            crease a ridge of the paper, lit on one side and shaded on the other, that moves the print a little.
        haze: a clear sleeve's veil: this share of the lamp's light reflected evenly off the plastic.
        band: ``(u0, v0, angle°, width mm, strength)``: the lamp's reflection in the sleeve, a bright band through
            page point ``(u0, v0)`` mm along ``angle``, added whatever the paper shows.
    """

    frame: tuple[int, int]
    coverage: float
    tilt: float
    tilt_axis: float
    rotation: float
    defocus: float
    motion: float
    motion_angle: float
    noise: float
    light_min: float
    light_angle: float
    shadow: float
    jpeg: int
    print_scale: float = 1.0
    bend: float = 0.0
    fold: float = 0.0
    fold_light: float = 1.0
    curl: float = 0.0
    curl_along: str = "v"
    hard_shadow: tuple[float, float, float, float, float] | None = None
    glare: tuple[float, float, float, float] | None = None
    cut: tuple[str, float] | None = None
    cast: tuple[float, float, float] | None = None
    paper_tone: tuple[float, float, float] | None = None
    toner: float = 1.0
    streaks: float = 0.0
    crumple: float = 0.0
    haze: float = 0.0
    band: tuple[float, float, float, float, float] | None = None


@dataclass
class SynthPhoto:
    """A synthetic photo: the JPEG bytes, the parameters, the hand style and the truth."""

    jpeg: bytes
    params: PhotoParams
    style: HandStyle
    sheet: object
    homography: np.ndarray = field(repr=False, default=None)  # page mm → photo px (before print scaling)


# --- choosing parameters ----------------------------------------------------------------


def clean_params(**kw) -> PhotoParams:
    """A clean photo of the sheet: 1600 × 1200, held a little tilted, in even light (``kw`` overrides any field)."""
    base: dict = dict(
        frame=(1600, 1200),
        coverage=0.85,
        tilt=8.0,
        tilt_axis=30.0,
        rotation=90.0,
        defocus=0.5,
        motion=0.0,
        motion_angle=0.0,
        noise=0.008,
        light_min=0.9,
        light_angle=40.0,
        shadow=0.0,
        jpeg=90,
        bend=0.3,
    )
    base.update(kw)
    return PhotoParams(**base)


def random_style(rng: random.Random) -> HandStyle:
    """A player's hand: pencil (30–75 % grey), blue or black pen; ticks, crosses or both; full or partial bubbles."""
    kind = rng.choices(["pencil", "blue", "black"], [0.45, 0.3, 0.25])[0]
    if kind == "pencil":
        g = 1.0 - rng.uniform(0.3, 0.75)
        pen = Pen("pencil", (g, g, g * 1.02), rng.uniform(0.35, 0.55), grainy=True)
    elif kind == "blue":
        pen = Pen(
            "blue", (rng.uniform(0.08, 0.25), rng.uniform(0.2, 0.35), rng.uniform(0.55, 0.75)), rng.uniform(0.3, 0.5)
        )
    else:
        d = rng.uniform(0.05, 0.2)
        pen = Pen("black", (d, d, d + 0.02), rng.uniform(0.3, 0.5))
    return HandStyle(
        pen,
        box_mark=rng.choice(["tick", "cross", "mixed"]),
        bubble=rng.choice(["full", "partial", "mixed"]),
        sloppiness=rng.uniform(0.5, 1.2),
        gap_circles=rng.uniform(0.0, 0.6),
    )


def realistic_params(rng: random.Random, frame: tuple[int, int] | None = None) -> PhotoParams:
    """Parameters of the realistic mix (see ``benchmarks/bench_photos.py``)."""
    w, h = frame or rng.choice(FRAMES)
    if frame is None and rng.random() < 0.5:
        w, h = h, w
    rotation = rng.uniform(0, 360) if rng.random() < 0.5 else rng.choice([0, 90, 180, 270]) + rng.uniform(-12, 12)
    return PhotoParams(
        frame=(w, h),
        coverage=rng.uniform(0.40, 0.95),
        tilt=rng.uniform(0, 35),
        tilt_axis=rng.uniform(0, 180),
        rotation=rotation,
        defocus=rng.uniform(0.3, 1.6),
        motion=rng.uniform(0, 4.0) if rng.random() < 0.4 else 0.0,
        motion_angle=rng.uniform(0, 180),
        noise=rng.uniform(0.004, 0.03),
        light_min=rng.uniform(0.4, 1.0),
        light_angle=rng.uniform(0, 360),
        shadow=rng.uniform(0.15, 0.45) if rng.random() < 0.5 else 0.0,
        jpeg=rng.randint(55, 95),
        print_scale=1.0,
        bend=rng.uniform(0.0, 1.0),
    )


def hard_params(rng: random.Random, case: str) -> PhotoParams:
    """One case of the hard sweep: ``small`` (1280 × 720), ``tilt`` (40°), ``jpeg`` (quality 40), ``scaled`` (printed at
    94 %)."""
    p = realistic_params(rng)
    if case == "small":
        return replace(p, frame=(1280, 720) if rng.random() < 0.5 else (720, 1280), coverage=rng.uniform(0.6, 0.95))
    if case == "tilt":
        return replace(p, tilt=40.0)
    if case == "jpeg":
        return replace(p, jpeg=40)
    if case == "scaled":
        return replace(p, print_scale=0.94)
    raise ValueError(f"unknown hard case {case!r}")


# --- the page ---------------------------------------------------------------------------


STRIP_ROWS = 256
"""Rows of the photo warped and noised at a time (the result does not depend on it; the memory does)."""

_PAGES: dict[tuple, tuple[Scene, np.ndarray]] = {}
PAGES_KEPT = 160 << 20
"""At most this many bytes of blank pages are kept, as 8-bit RGB (an A4 page at 300 dpi is 26 MB); the oldest
go first."""


def cached_page(key: tuple, build, dpi: int) -> tuple[Scene, np.ndarray]:
    """A blank page's scene (``build()``) and its page rendered at ``dpi``: ``(H, W, 3)`` float32 RGB in 0–1,
    a new array on every call. The scene and the 8-bit page are kept under ``key`` (the item, its source,
    variant and paper) for the next photo of the same page."""
    from generator.printing.backends.pdf import render_pdf
    from generator.printing.backends.png import pdf_to_images

    key = (*key, dpi)
    if key not in _PAGES:
        scene = build()
        img = np.asarray(pdf_to_images(render_pdf([scene]), dpi=dpi)[0], np.uint8)
        while _PAGES and sum(page.nbytes for _, page in _PAGES.values()) + img.nbytes > PAGES_KEPT:
            _PAGES.pop(next(iter(_PAGES)))
        _PAGES[key] = (scene, img)
    scene, img = _PAGES[key]
    return scene, np.asarray(img, np.float32) / 255.0


def blank_page(layout, paper: Paper, dpi: int) -> tuple[Scene, np.ndarray]:
    """The blank sheet's scene and its page rendered at ``dpi``: ``(H, W, 3)`` float32 RGB in 0–1 (cached)."""
    from generator.games.allin.sheet import build_allin_sheet

    return cached_page((layout.id, layout.source, paper.id), lambda: build_allin_sheet(layout, paper), dpi)


class _Ink:
    """Draws strokes on a page image (float RGB) in millimetres, with one pen."""

    def __init__(self, page: np.ndarray, dpi: int, pen: Pen, rng: random.Random):
        self.page = page
        self.ppm = dpi / 25.4
        self.pen = pen
        self.rng = rng
        self.color = np.array(pen.color, np.float32)

    def _blend(self, x0: int, y0: int, mask: np.ndarray, strength: float) -> None:
        h, w = mask.shape
        H, W = self.page.shape[:2]
        xa, ya, xb, yb = max(0, x0), max(0, y0), min(W, x0 + w), min(H, y0 + h)
        if xa >= xb or ya >= yb:
            return
        m = mask[ya - y0 : yb - y0, xa - x0 : xb - x0].astype(np.float32) / 255.0 * strength
        if self.pen.grainy:
            grain = np.random.default_rng(self.rng.getrandbits(32)).uniform(0.65, 1.0, m.shape).astype(np.float32)
            m *= grain
        region = self.page[ya:yb, xa:xb]
        region *= 1.0 - m[..., None] * (1.0 - self.color)

    def strokes(
        self,
        polylines: list[list[tuple[float, float]]],
        *,
        width: float | None = None,
        fill: bool = False,
        strength: float | None = None,
    ) -> None:
        """Draw polylines (points in mm); ``fill`` fills each as a polygon instead."""
        import cv2

        pts_all = [np.asarray(p, np.float64) * self.ppm for p in polylines if len(p) >= 2]
        if not pts_all:
            return
        allp = np.vstack(pts_all)
        width_px = max(1.0, (width or self.pen.width) * self.ppm)
        pad = int(width_px) + 3
        x0, y0 = int(np.floor(allp[:, 0].min())) - pad, int(np.floor(allp[:, 1].min())) - pad
        x1, y1 = int(np.ceil(allp[:, 0].max())) + pad, int(np.ceil(allp[:, 1].max())) + pad
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        shift = 4
        for p in pts_all:
            q = np.round((p - [x0, y0]) * (1 << shift)).astype(np.int32).reshape(-1, 1, 2)
            if fill:
                cv2.fillPoly(mask, [q], 255, cv2.LINE_AA, shift)
            else:
                cv2.polylines(mask, [q], False, 255, max(1, int(round(width_px))), cv2.LINE_AA, shift)
        self._blend(x0, y0, mask, strength if strength is not None else self.rng.uniform(0.8, 1.0))

    def text(self, x: float, y: float, text: str, height: float, max_width: float | None = None) -> None:
        """Handwritten-looking text with its baseline-left at ``(x, y)`` mm, about ``height`` mm tall
        (smaller when it would be wider than ``max_width`` mm)."""
        import cv2

        font = self.rng.choice(
            [cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_SCRIPT_COMPLEX]
        )
        px_h = height * self.ppm
        scale = px_h / 22.0
        thick = max(1, int(round(self.pen.width * self.ppm)))
        (tw, th), base = cv2.getTextSize(text, font, scale, thick)
        if max_width is not None and tw > max_width * self.ppm:
            scale *= max_width * self.ppm / tw
            (tw, th), base = cv2.getTextSize(text, font, scale, thick)
        pad = thick + 4
        mask = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
        cv2.putText(mask, text, (pad, pad + th), font, scale, 255, thick, cv2.LINE_AA)
        slant = self.rng.uniform(-0.25, 0.1)
        M = np.float32([[1, slant, -slant * (pad + th)], [0, 1, 0]])
        mask = cv2.warpAffine(mask, M, (mask.shape[1], mask.shape[0]))
        self._blend(int(x * self.ppm) - pad, int(y * self.ppm) - pad - th, mask, self.rng.uniform(0.8, 1.0))


def _jit(rng: random.Random, s: float) -> float:
    return rng.gauss(0.0, s)


def _tick_lines(t: MarkTarget, rng: random.Random, sl: float) -> list[list[tuple[float, float]]]:
    w, h = t.w, t.h
    size = rng.uniform(0.85, 1.25)
    cx = t.x + w / 2 + _jit(rng, 0.08 * w * sl)
    cy = t.y + h / 2 + _jit(rng, 0.08 * h * sl)
    ang = math.radians(_jit(rng, 10 * sl))
    base = [(-0.35, 0.05), (-0.08, 0.35), (0.45, -0.6)]
    pts = []
    for u, v in base:
        u, v = u * size * w + _jit(rng, 0.03 * w), v * size * h + _jit(rng, 0.03 * h)
        pts.append((cx + u * math.cos(ang) - v * math.sin(ang), cy + u * math.sin(ang) + v * math.cos(ang)))
    return [pts]


def _cross_lines(t: MarkTarget, rng: random.Random, sl: float) -> list[list[tuple[float, float]]]:
    w, h = t.w, t.h
    cx = t.x + w / 2 + _jit(rng, 0.07 * w * sl)
    cy = t.y + h / 2 + _jit(rng, 0.07 * h * sl)
    e = rng.uniform(0.35, 0.6)
    lines = []
    for sgn in (1, -1):
        a = (cx - e * w + _jit(rng, 0.05 * w), cy - sgn * e * h + _jit(rng, 0.05 * h))
        b = (cx + e * w + _jit(rng, 0.05 * w), cy + sgn * e * h + _jit(rng, 0.05 * h))
        lines.append([a, b])
    return lines


def _slash_lines(t: MarkTarget, rng: random.Random, sl: float) -> list[list[tuple[float, float]]]:
    """One stroke from the lower left to the upper right, a little past the corners or short of them."""
    w, h = t.w, t.h
    cx, cy = t.x + w / 2 + _jit(rng, 0.07 * w * sl), t.y + h / 2 + _jit(rng, 0.07 * h * sl)
    e = rng.uniform(0.35, 0.6)
    return [[(cx - e * w, cy + e * h + _jit(rng, 0.05 * h)), (cx + e * w, cy - e * h + _jit(rng, 0.05 * h))]]


def _dash_lines(t: MarkTarget, rng: random.Random, sl: float) -> list[list[tuple[float, float]]]:
    """A short level stroke through the middle."""
    w, h = t.w, t.h
    cx, cy = t.x + w / 2 + _jit(rng, 0.06 * w * sl), t.y + h / 2 + _jit(rng, 0.1 * h * sl)
    e, tilt = rng.uniform(0.3, 0.5), _jit(rng, 0.08 * h)
    return [[(cx - e * w, cy + tilt), (cx + e * w, cy - tilt)]]


def _blob(t: MarkTarget, rng: random.Random, sl: float) -> list[tuple[float, float]]:
    """The outline of a filled-in box: an uneven ellipse of 60 to 100 % of the box."""
    cx, cy = t.x + t.w / 2 + _jit(rng, 0.05 * t.w * sl), t.y + t.h / 2 + _jit(rng, 0.05 * t.h * sl)
    rx, ry = t.w / 2 * rng.uniform(0.6, 1.0), t.h / 2 * rng.uniform(0.6, 1.0)
    angles = np.linspace(0, 2 * math.pi, 24)
    return [(cx + rx * math.cos(a) * (1 + _jit(rng, 0.05)), cy + ry * math.sin(a)) for a in angles]


def _box_mark(ink: _Ink, t: MarkTarget, style: HandStyle, rng: random.Random) -> None:
    kind = style.box_mark
    if kind == "mixed":
        kind = rng.choice(["tick", "cross"])
    elif kind == "any":
        kind = rng.choice(["tick", "tick", "cross", "slash", "dash", "blob"])
    if kind == "blob":
        ink.strokes([_blob(t, rng, style.sloppiness)], fill=True)
        return
    draw = {"tick": _tick_lines, "cross": _cross_lines, "slash": _slash_lines, "dash": _dash_lines}[kind]
    ink.strokes(draw(t, rng, style.sloppiness))


def _circle(ink: _Ink, t: MarkTarget, style: HandStyle, rng: random.Random) -> None:
    k = t.w / 3.9  # suit boxes are 3.9 units of the card space's design grid
    sl = style.sloppiness
    cx = t.x + t.w / 2 + _jit(rng, 0.25 * k * sl)
    cy = t.y + t.h / 2 + _jit(rng, 0.25 * k * sl)
    r = rng.uniform(1.85, 2.5) * k
    aspect = rng.uniform(0.85, 1.15)
    start = rng.uniform(0, 2 * math.pi)
    sweep = rng.uniform(1.65, 1.9) * math.pi if rng.random() < style.gap_circles else rng.uniform(2.0, 2.3) * math.pi
    if style.loose_circles > 0 and rng.random() < style.loose_circles:  # wide, off-centre, open or overshooting
        cx, cy = cx + _jit(rng, 0.5 * k * sl), cy + _jit(rng, 0.4 * k * sl)
        r *= rng.uniform(1.0, 1.3)
        sweep = rng.choice([rng.uniform(1.4, 1.7), rng.uniform(2.2, 2.6)]) * math.pi
    wob = [rng.uniform(-0.04, 0.04) for _ in range(3)]
    pts = []
    n = 48
    for i in range(n + 1):
        a = start + sweep * i / n
        rr = r * (1 + wob[0] * math.sin(2 * a) + wob[1] * math.cos(3 * a) + wob[2] * i / n)
        pts.append((cx + rr * math.cos(a) * aspect, cy + rr * math.sin(a) / aspect))
    ink.strokes([pts])


def _bubble(ink: _Ink, t: MarkTarget, style: HandStyle, rng: random.Random) -> None:
    r = t.w / 2
    cx, cy = t.x + r + _jit(rng, 0.06 * r), t.y + r + _jit(rng, 0.06 * r)
    kind = style.bubble if style.bubble != "mixed" else rng.choice(["full", "partial"])
    if kind == "full":
        rr = r * rng.uniform(0.8, 1.02)
        poly = [
            (cx + rr * math.cos(a) * (1 + _jit(rng, 0.03)), cy + rr * math.sin(a))
            for a in np.linspace(0, 2 * math.pi, 36)
        ]
        ink.strokes([poly], fill=True)
        return
    # a scribble covering part of the bubble: zig-zag lines
    cover = rng.uniform(0.55, 0.95)
    lines = []
    ang = rng.uniform(0, math.pi)
    step = ink.pen.width * rng.uniform(0.8, 1.4)
    n = int(2 * r * cover / step) + 1
    zig = []
    for i in range(n):
        off = -r * cover + (i + 0.5) * (2 * r * cover) / n
        half = math.sqrt(max(r * r * 0.85 - off * off, 0))
        ends = [(-half, off), (half, off)] if i % 2 == 0 else [(half, off), (-half, off)]
        for u, v in ends:
            zig.append((cx + u * math.cos(ang) - v * math.sin(ang), cy + u * math.sin(ang) + v * math.cos(ang)))
    lines.append(zig)
    ink.strokes(lines)


def _erased(page: np.ndarray, dpi: int, style: HandStyle, rng: random.Random, t: MarkTarget, residue: float) -> None:
    """A mark made on target ``t`` and rubbed out: ``residue`` (0–1) of its graphite is left, smeared a
    little by the eraser, with a faint smudge around it.  Only graphite rubs out: a hand in pen made the mark
    in pencil (30–75 % grey), as a player who pencils a chip in before deciding does."""
    import cv2

    ppm = dpi / 25.4
    pad = 2.5 + 0.5 * t.w
    x0, y0 = t.x - pad, t.y - pad
    pw, ph = int(round((t.w + 2 * pad) * ppm)), int(round((t.h + 2 * pad) * ppm))
    patch = np.ones((ph, pw, 3), np.float32)
    pen = style.pen
    if pen.kind != "pencil":
        g = 1.0 - rng.uniform(0.3, 0.75)
        pen = Pen("pencil", (g, g, g * 1.02), rng.uniform(0.35, 0.55), grainy=True)
    ink = _Ink(patch, dpi, pen, rng)
    local = MarkTarget(t.kind, t.owner, t.key, t.x - x0, t.y - y0, t.w, t.h)
    {"rank": _box_mark, "chip_spent": _box_mark, "suit": _circle, "chip_earned": _bubble}[t.kind](
        ink, local, style, rng
    )
    dark = 1.0 - patch
    dark = cv2.GaussianBlur(dark, (0, 0), rng.uniform(0.08, 0.3) * ppm)
    smudge = cv2.GaussianBlur(dark, (0, 0), rng.uniform(0.6, 1.5) * ppm)
    share = rng.uniform(0.1, 0.3)  # of the graphite left, this much is smudged around
    left = residue * ((1 - share) * dark + share * smudge)
    X0, Y0 = int(round(x0 * ppm)), int(round(y0 * ppm))
    H, W = page.shape[:2]
    xa, ya, xb, yb = max(0, X0), max(0, Y0), min(W, X0 + pw), min(H, Y0 + ph)
    if xa < xb and ya < yb:
        page[ya:yb, xa:xb] *= 1.0 - left[ya - Y0 : yb - Y0, xa - X0 : xb - X0]


def draw_marks(
    page: np.ndarray,
    scene: Scene,
    sheet,
    style: HandStyle,
    rng: random.Random,
    dpi: int,
    *,
    game=None,
    extra: dict | None = None,
) -> np.ndarray:
    """Draw a player's marks for ``sheet`` on a copy of ``page`` (float RGB at ``dpi``) and return it.

    Every written space gets its value written, its rank ticked (or crossed) and its
    suit circled; chips earned are filled bubbles, chips spent ticked boxes; the
    hand points, chips left, total, won bonuses and the player's name are written too.

    Args:
        extra: additional marks for tests: ``{"ranks": [(cell, rank label), …], "suits": [(cell, suit), …],
            "erased": [(kind, owner, key, residue), …]}`` — an erased mark (``rank``, ``suit``,
            ``chip_earned`` or ``chip_spent``) was made, then rubbed out leaving ``residue`` (0–1) of it;
            ``"moved": {(kind, owner, key): (dx, dy), …}`` — that target's mark drawn ``dx, dy`` (shares of its
            width and height) away from its centre (a tick that mostly misses its box).
    """
    from generator.games.allin.scoring import score_game

    page = page.copy()
    ink = _Ink(page, dpi, style.pen, rng)
    marks = {(m.kind, m.owner, m.key): m for m in scene.marks}
    for k, (dx, dy) in (extra or {}).get("moved", {}).items():
        t = marks[k]
        marks[k] = replace(t, x=t.x + dx * t.w, y=t.y + dy * t.h)
    for kind, owner, key, residue in (extra or {}).get("erased", []):
        _erased(page, dpi, style, rng, marks[(kind, owner, key)], residue)
    for coord, card in sorted(sheet.cards.items()):
        name = cell_name(coord)
        value = marks[("value", name, "")]
        if style.large_values and rng.random() < style.large_values:
            # written large, running on over the suit symbols beside the value (a "10" whose 0 crosses the heart)
            right = max(m.x + m.w for (k, o, _), m in marks.items() if k == "suit" and o == name)
            h = value.h * rng.uniform(0.8, 1.0)
            left = value.w * rng.uniform(0.02, 0.15)
            ink.text(
                value.x + left,
                value.y + value.h * rng.uniform(0.8, 0.95),
                card.rank_label,
                h,
                max_width=right - value.x - left,
            )
        else:
            h = min(value.h * rng.uniform(0.45, 0.7), 9.0)
            left = value.w * rng.uniform(0.05, 0.25)
            ink.text(
                value.x + left,
                value.y + value.h * rng.uniform(0.6, 0.85),
                card.rank_label,
                h,
                max_width=value.w * 0.92 - left,
            )
        _box_mark(ink, marks[("rank", name, card.rank_label)], style, rng)
        _circle(ink, marks[("suit", name, card.suit)], style, rng)
    for name, label in (extra or {}).get("ranks", []):
        _box_mark(ink, marks[("rank", name, label)], style, rng)
    for name, suit in (extra or {}).get("suits", []):
        _circle(ink, marks[("suit", name, suit)], style, rng)
    for i in range(1, sheet.chips_earned + 1):
        _bubble(ink, marks[("chip_earned", str(i), "")], style, rng)
    for i in range(1, sheet.chips_spent + 1):
        _box_mark(ink, marks[("chip_spent", str(i), "")], style, rng)
    if sheet.cards:
        game = game or score_game([sheet])
        score = next(p for p in game.players if p.player == sheet.player)
        for letter, hand in score.hands.items():
            box = marks[("points", letter, "")]
            ink.text(box.x + box.w * 0.25, box.y + box.h * 0.8, str(hand.points), box.h * 0.6)
            if hand.bonus:
                circle = next(m for m in scene.marks if m.kind in ("bonus", "bonus_star") and m.owner == letter)
                ink.strokes(_cross_lines(circle, rng, 1.0))
        for kind, value in (("chips_left", score.chips_left), ("total", score.total)):
            box = marks[(kind, "sheet", "")]
            ink.text(box.x + box.w * 0.2, box.y + box.h * 0.75, str(value), box.h * 0.5)
        player = marks[("player", "sheet", "")]
        ink.text(player.x + 3.0, player.y + player.h * 0.85, sheet.player, 5.0)
    return page


# --- the photo ---------------------------------------------------------------------------


def _bend(page: np.ndarray, bend: float, ppm_page: float, nrng: np.random.Generator) -> np.ndarray:
    """The sheet bulges: a smooth random displacement of up to ``bend`` mm."""
    import cv2

    ph, pw = page.shape[:2]
    dx = nrng.normal(0, 1, (4, 3)).astype(np.float32)
    dy = nrng.normal(0, 1, (4, 3)).astype(np.float32)
    dx = cv2.resize(dx, (pw // 8, ph // 8), interpolation=cv2.INTER_CUBIC)
    dy = cv2.resize(dy, (pw // 8, ph // 8), interpolation=cv2.INTER_CUBIC)
    norm = max(np.abs(dx).max(), np.abs(dy).max(), 1e-6)
    dx = cv2.resize(dx / norm * bend * ppm_page, (pw, ph))
    dy = cv2.resize(dy / norm * bend * ppm_page, (pw, ph))
    out = np.empty_like(page)
    xx = np.arange(pw, dtype=np.float32)
    for y0 in range(0, ph, STRIP_ROWS):  # in strips of rows, as the photo is warped
        rows = slice(y0, min(ph, y0 + STRIP_ROWS))
        yy = np.arange(rows.start, rows.stop, dtype=np.float32)[:, None]
        out[rows] = cv2.remap(page, xx + dx[rows], yy + dy[rows], cv2.INTER_LINEAR, borderValue=(1, 1, 1))
    return out


def _crumpled(page: np.ndarray, crumple: float, ppm_page: float, light_angle: float, nrng: np.random.Generator):
    """A sheet crumpled, then flattened by hand: straight creases at random, each a ridge or a valley of the paper
    (a height profile across it, about a millimetre wide), summed over a soft waviness. The page is lit along
    ``light_angle`` from low: each facet is brightened or shaded by its slope towards the light (Lambert), and the
    print is moved by up to ``0.4 · crumple`` mm where the paper stands up."""
    import cv2

    ph, pw = page.shape[:2]
    scale = 4  # the height field at a quarter of the page's pixels: creases are millimetres wide
    h, w = ph // scale + 1, pw // scale + 1
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) / (ppm_page / scale)  # mm
    z = cv2.resize(nrng.normal(0, 1, (6, 5)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC) * 0.6
    for _ in range(int(round(12 * crumple))):
        a = nrng.uniform(0, math.pi)
        c = nrng.uniform(0, max(ph, pw) / ppm_page)
        d = xx * math.cos(a) + yy * math.sin(a) - c * (abs(math.cos(a)) + abs(math.sin(a))) / 1.4
        sharp = nrng.uniform(0.6, 2.0)  # mm: how wide the crease's ridge is
        z += nrng.choice([-1.0, 1.0]) * nrng.uniform(0.2, 0.6) * crumple * np.exp(-np.abs(d) / sharp)
    gy, gx = np.gradient(z, 1 / (ppm_page / scale))  # slope, mm of height per mm
    la = math.radians(light_angle)
    shade = 1.0 + 0.9 * (gx * math.cos(la) + gy * math.sin(la))
    shade = cv2.resize(np.clip(shade, 0.55, 1.25).astype(np.float32), (pw, ph), interpolation=cv2.INTER_LINEAR)
    dx = cv2.resize((gx * 0.4 * ppm_page).astype(np.float32), (pw, ph), interpolation=cv2.INTER_LINEAR)
    dy = cv2.resize((gy * 0.4 * ppm_page).astype(np.float32), (pw, ph), interpolation=cv2.INTER_LINEAR)
    out = np.empty_like(page)
    xs = np.arange(pw, dtype=np.float32)
    for y0 in range(0, ph, STRIP_ROWS):
        rows = slice(y0, min(ph, y0 + STRIP_ROWS))
        ys = np.arange(rows.start, rows.stop, dtype=np.float32)[:, None]
        out[rows] = cv2.remap(page, xs + dx[rows], ys + dy[rows], cv2.INTER_LINEAR, borderValue=(1, 1, 1))
        out[rows] *= shade[rows, :, None]
    return out


def reprinted(page: np.ndarray, toner: float, streaks: float, nrng: np.random.Generator) -> np.ndarray:
    """A blank page (float RGB, 0–1, white paper) as a printer low on toner prints it: the print's darkness
    (``1 − page``, per channel) times ``toner``, less still in vertical bands (``streaks``: their deepest share),
    with the toner's grain; in place."""
    import cv2

    ph, pw = page.shape[:2]
    band = np.ones(pw, np.float32)
    for _ in range(nrng.integers(2, 7)):
        centre, width = nrng.uniform(0, pw), nrng.uniform(0.01, 0.08) * pw
        band *= 1.0 - streaks * nrng.uniform(0.4, 1.0) * np.exp(-(((np.arange(pw) - centre) / width) ** 2))
    grain = cv2.GaussianBlur(nrng.uniform(0.75, 1.0, (ph, pw)).astype(np.float32), (0, 0), 0.7)
    density = toner * grain * band[None, :]
    page -= 1.0
    page *= density[..., None]
    page += 1.0
    return page


def _print_scaled(page: np.ndarray, scale: float) -> np.ndarray:
    """The printer shrank the page about its centre ("fit to page")."""
    import cv2

    ph, pw = page.shape[:2]
    small = cv2.resize(page, (round(pw * scale), round(ph * scale)), interpolation=cv2.INTER_AREA)
    canvas = np.ones_like(page)
    oy, ox = (ph - small.shape[0]) // 2, (pw - small.shape[1]) // 2
    canvas[oy : oy + small.shape[0], ox : ox + small.shape[1]] = small
    return canvas


def photograph(
    page: np.ndarray,
    paper: Paper,
    p: PhotoParams,
    rng: random.Random,
    dpi: int,
    *,
    fold_y: float = 0.0,
    others: tuple[np.ndarray, ...] = (),
) -> tuple[bytes, np.ndarray]:
    """Photograph a page image (float RGB at ``dpi``) with parameters ``p`` (see :mod:`.synth_camera`).

    Args:
        fold_y: the page's fold line (mm), for ``p.fold``.
        others: more pages (same paper and dpi) lying beside it in the same photo (``p.frame`` is split).

    Returns:
        ``(jpeg_bytes, homography)``, the homography mapping page mm to photo pixels for the sheet
        lying flat (its fold or curl aside).
    """
    import cv2

    from tests.synth.camera import Shape, background, glare, hard_shadow, make_pose, page_coords

    nrng = np.random.default_rng(rng.getrandbits(32))
    fw, fh = p.frame
    ppm_page = dpi / 25.4
    pages = [page, *others]
    regions = (
        [None]
        if not others
        else [
            (i * fw / len(pages), 0, (i + 1) * fw / len(pages), fh)
            if fw >= fh
            else (0, i * fh / len(pages), fw, (i + 1) * fh / len(pages))
            for i in range(len(pages))
        ]
    )
    img = background(fw, fh, rng)
    flat_H = None
    coords = None
    for k, (pg, region) in enumerate(zip(pages, regions)):
        if p.print_scale != 1.0:
            pg = _print_scaled(pg, p.print_scale)
        if p.bend > 0:
            pg = _bend(pg, p.bend, ppm_page, nrng)
        if k == 0 and p.crumple > 0:
            pg = _crumpled(pg, p.crumple, ppm_page, p.light_angle, nrng)
        pose = make_pose(
            paper,
            p.frame,
            p.coverage,
            p.tilt,
            p.tilt_axis,
            p.rotation + 7.0 * k,
            rng,
            region=region,
            cut=p.cut if k == 0 else None,
        )
        shape = Shape(p.fold, fold_y, p.curl, p.curl_along) if k == 0 else Shape()
        U, V = page_coords(pose, shape, paper, p.frame)
        # scale the page image down to about the photo's resolution first (no aliasing, less work)
        ppm_photo = _ppm(pose.homography(), paper)
        factor = min(1.0, 1.6 * ppm_photo / ppm_page)
        if factor < 1.0:
            pg = cv2.resize(pg, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        s = ppm_page * factor
        ones = np.ones(pg.shape[:2], np.float32)
        for y0 in range(0, fh, STRIP_ROWS):  # in strips of rows: a 12 MP photo is 144 MB a whole-frame copy
            rows = slice(y0, min(fh, y0 + STRIP_ROWS))
            Us, Vs = U[rows] * s, V[rows] * s
            warped = cv2.remap(pg, Us, Vs, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
            alpha = cv2.remap(ones, Us, Vs, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
            if k == 0 and p.fold > 0:  # the screen faces the lamp differently: lit or shaded as a whole
                screen = (V[rows] < fold_y).astype(np.float32)
                warped *= (1.0 + (p.fold_light - 1.0) * screen)[..., None]
            img[rows] *= 1 - alpha[..., None]
            img[rows] += warped
        del pg, ones, Us, Vs, warped, alpha
        if k == 0:
            flat_H, coords = pose.homography(), (U, V)
    # light: a gradient down to light_min, a warm or cool cast, a soft shadow
    yy, xx = np.mgrid[0:fh:8, 0:fw:8].astype(np.float32)
    a = math.radians(p.light_angle)
    t = xx * math.cos(a) + yy * math.sin(a)
    t = (t - t.min()) / max(np.ptp(t), 1e-6)
    light = 1.0 - (1.0 - p.light_min) * t
    if p.shadow > 0:
        sh = np.zeros_like(light)
        cx, cy = rng.uniform(0, sh.shape[1]), rng.uniform(0, sh.shape[0])
        axes = (int(rng.uniform(0.2, 0.5) * sh.shape[1]), int(rng.uniform(0.1, 0.4) * sh.shape[0]))
        cv2.ellipse(sh, (int(cx), int(cy)), axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        sh = cv2.GaussianBlur(sh, (0, 0), max(sh.shape) * 0.04)
        light *= 1.0 - p.shadow * sh
    light = cv2.resize(light, (fw, fh), interpolation=cv2.INTER_LINEAR)
    if p.hard_shadow is not None:
        light *= hard_shadow(*coords, p.hard_shadow)
    cast = np.array([rng.uniform(0.93, 1.0), rng.uniform(0.95, 1.0), rng.uniform(0.85, 1.0)], np.float32)
    if p.cast is not None:
        cast = np.array(p.cast, np.float32)
    for y0 in range(0, fh, STRIP_ROWS):
        img[y0 : y0 + STRIP_ROWS] *= light[y0 : y0 + STRIP_ROWS, :, None] * cast
    if p.glare is not None:  # the lamp mirrored: its own colour, added whatever the paper shows
        img += glare(*coords, p.glare)[..., None] * np.array([1.0, 0.98, 0.93], np.float32)
    if p.haze > 0 or p.band is not None:  # a clear sleeve: the plastic reflects the lamp over the whole sheet
        U, V = coords
        on_sheet = ((U >= 0) & (V >= 0) & (U <= paper.width) & (V <= paper.height)).astype(np.float32)
        veil = p.haze * on_sheet
        if p.band is not None:
            u0, v0, ang, width, strength = p.band
            a = math.radians(ang)
            across = (U - u0) * -math.sin(a) + (V - v0) * math.cos(a)
            veil = veil + strength * np.exp(-((across / (width / 2)) ** 2)) * on_sheet
        img *= 1.0 - 0.5 * p.haze  # what the sleeve reflects does not reach the paper
        img += veil[..., None] * cast
    if p.defocus > 0:
        cv2.GaussianBlur(img, (0, 0), p.defocus, dst=img)
    if p.motion >= 1.0:
        n = int(math.ceil(p.motion)) | 1
        k = np.zeros((n, n), np.float32)
        c = n // 2
        ang = math.radians(p.motion_angle)
        cv2.line(
            k,
            (int(round(c - math.cos(ang) * p.motion / 2)), int(round(c - math.sin(ang) * p.motion / 2))),
            (int(round(c + math.cos(ang) * p.motion / 2)), int(round(c + math.sin(ang) * p.motion / 2))),
            1.0,
            1,
            cv2.LINE_AA,
        )
        cv2.filter2D(img, -1, k / k.sum(), dst=img)
    for y0 in range(0, fh, STRIP_ROWS):  # noise that grows with the square root of the light, strip by strip
        strip = img[y0 : y0 + STRIP_ROWS]
        noise = nrng.standard_normal(strip.shape, dtype=np.float32)
        spread = np.clip(strip, 0.02, 1.0)
        np.sqrt(spread, out=spread)
        spread *= p.noise
        noise *= spread
        strip += noise
    img *= 255.0
    img += 0.5
    out = np.clip(img, 0, 255, out=img).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", np.ascontiguousarray(out[:, :, ::-1]), [cv2.IMWRITE_JPEG_QUALITY, int(p.jpeg)])
    assert ok
    Hmm = flat_H
    if p.print_scale != 1.0:  # the true page → photo map, for the printed scale
        W, H = paper.width, paper.height
        P = np.array(
            [
                [p.print_scale, 0, W / 2 * (1 - p.print_scale)],
                [0, p.print_scale, H / 2 * (1 - p.print_scale)],
                [0, 0, 1],
            ]
        )
        Hmm = Hmm @ P
    return buf.tobytes(), Hmm


def _ppm(H: np.ndarray, paper: Paper) -> float:
    cx, cy = paper.width / 2, paper.height / 2
    pts = np.array([[cx, cy, 1], [cx + 1, cy, 1], [cx, cy + 1, 1]], float) @ H.T
    pts = pts[:, :2] / pts[:, 2:3]
    return float(math.sqrt(np.linalg.norm(pts[1] - pts[0]) * np.linalg.norm(pts[2] - pts[0])))


def synth_photo(
    sheet,
    paper: Paper,
    seed: int | str,
    *,
    params: PhotoParams | None = None,
    style: HandStyle | None = None,
    dpi: int = 300,
    game=None,
    extra: dict | None = None,
    others: tuple = (),
    printed: Scene | None = None,
) -> SynthPhoto:
    """A synthetic phone photo of ``sheet`` (a FilledSheet) printed on ``paper``.

    Args:
        seed: everything random (hand, pose, light, noise) comes from it.
        params: how it is photographed (default: drawn from the realistic mix).
        style: how it is marked (default: a random hand).
        dpi: resolution of the page before it is photographed (300 for the benchmark; lower is faster).
        extra: additional marks (see :func:`draw_marks`).
        others: more sheets (FilledSheets on the same paper) lying beside it in the same photo.
        printed: the blank sheet as it was printed (a stored form's scene); default: the layout as drawn today.
    """
    from tests.synth.camera import fold_line_y

    rng = random.Random(f"synth:{seed}")
    style = style or random_style(rng)
    params = params or realistic_params(rng)
    if printed is None:
        scene, blank = blank_page(sheet.layout, paper, dpi)
    else:
        from generator.printing.readable import geometry_hash

        scene, blank = cached_page((sheet.layout.id, "form", geometry_hash(printed), paper.id), lambda: printed, dpi)
    if params.toner < 1.0 or params.streaks > 0:
        reprinted(blank, params.toner, params.streaks, np.random.default_rng(rng.getrandbits(32)))
    page = draw_marks(blank, scene, sheet, style, rng, dpi, game=game, extra=extra)
    del blank  # (a page at 300 dpi is some 100 MB)
    if params.paper_tone is not None:  # print and ink seen on the paper's own colour, and its fibres
        fibres = np.random.default_rng(rng.getrandbits(32)).normal(1.0, 0.015, page.shape[:2]).astype(np.float32)
        page *= np.array(params.paper_tone, np.float32) * fibres[..., None]
    more = []
    for other in others:
        oscene, oblank = blank_page(other.layout, paper, dpi)
        more.append(draw_marks(oblank, oscene, other, random_style(rng), rng, dpi))
        del oblank
    jpeg, H = photograph(page, paper, params, rng, dpi, fold_y=fold_line_y(scene) or 0.0, others=tuple(more))
    return SynthPhoto(jpeg, params, style, sheet, H)
