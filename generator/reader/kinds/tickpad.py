"""Reading a photographed Flip 7 tick pad: one player's ticks, round by round, as a typed-in tick pad.

Everything up to the ink is the reader's common chain (:mod:`generator.reader.kinds`):
the landscape pad prints the upright paper's markers and code turned with it
(:mod:`generator.printing.readable`), so the markers' fit is composed with that quarter
turn and the pad's scene (rebuilt from the layout and variant its code names) is
measured in its own frame.  Each round's row of 20 tick boxes (0–12, ×2, +2 … +10,
BUST) is lined up on its own printed boxes and every box gets an ink figure
(:func:`generator.reader.marks.measure`, measured as a rank box is).

Decisions, as for All In rank boxes: a row's blank level is the ink of its least
inked boxes (most boxes of a row are blank); the sheet's typical tick is the median
of the clear ticks among the boxes that can be judged; a box is ticked above the
*sure* level, blank below the *blank* level, and *unsure* between them (ticked there
when its strokes are as dark as the hand's); a tick far lighter than the sheet's own
ticks (an erasure) is unsure.  An unsure box is written ``"7?"`` in the typed-in file,
never guessed; a row that cannot be judged (outside the photo, under glare, on a hard
shadow's edge, not lined up) is written ``"?"``.  Rows after the last row with any
tick are rounds not played and are left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from generator.printing.paper import Paper
from generator.printing.readable import SHEET_FORMAT, SheetCode, code_text, geometry_hash, is_turned, split_code_id
from generator.printing.scene import MarkTarget, Scene
from generator.reader.code import CodeReading
from generator.reader.context import PhotoContext
from generator.reader.errors import PhotoError
from generator.reader.markers import SheetFit
from generator.reader.marks import BlurField, Measurement, TargetInk, measure, rectify
from generator.reader.numeric import median

if TYPE_CHECKING:
    from generator.games.pads import Pad

TICK_KEYS = [str(n) for n in range(13)] + ["×2", "+2", "+4", "+6", "+8", "+10", "BUST"]
"""The tick boxes of a round, as the pad's mark targets key them (:data:`generator.games.pads.TICKS`)."""
TOKEN = {k: ("x2" if k == "×2" else "bust" if k == "BUST" else k) for k in TICK_KEYS}
"""A tick box's key → its token in the typed-in tick pad (``x2``, ``+4``, ``bust``, numbers)."""
FLOOR = 0.025
"""Absolute ink floor of a tick box: below it nothing is ticked (a 5 mm box: a tick covers less of it than of a rank
box)."""
SURE, BLANK, DEFAULT_MARK, LIGHT = 0.40, 0.25, 0.12, 0.62
"""Sure and blank levels as shares of the sheet's typical tick; the typical tick assumed with fewer than three
clear ones; and the share below which a tick (ink and darkest strokes) is too light: rubbed out."""
STROKE_SURE = 0.75
"""A box whose ink is between the blank and sure levels is ticked when its darkest strokes
(:attr:`~generator.reader.marks.TargetInk.peak`) reach this share of the pad's typical tick's: a dash, a slash or a
thin tick of the same hand covers too little of a 5 mm box for its ink to be sure, but its strokes are as dark as
the others' (measured: 37 of 50 such real marks reach 0.75, what an eraser leaves in a box at most 0.50).  The same
share as a rank box's (:data:`generator.reader.read.STROKE_SURE`).  Only on a pad whose typical tick is measured
(three clear ticks or more), and not beside a box ticked by its ink (:func:`_beside`)."""


def _as_hard(t: TargetInk, peak: float | None, peak_luma: float | None) -> bool:
    """Whether a box's strokes reach :data:`STROKE_SURE` of the pad's typical tick's (``peak``), in luminance too
    when the pad's typical tick there is known (``peak_luma``): a grey smear of rubbed-out pencil among blue-pen ticks
    can match their darkest strokes in the brightest channel, not in luminance."""
    from generator.reader.levels import dark_strokes

    return dark_strokes(t.peak, peak, STROKE_SURE) and (
        peak_luma is None or dark_strokes(t.peak_luma, peak_luma, STROKE_SURE)
    )


def _beside(t: MarkTarget, ticked: list[MarkTarget]) -> bool:
    """Whether box ``t`` is next to one of the row's boxes ticked by their ink (``ticked``), within one and a half
    box widths along the row: a tick that runs on past its box inks the next one with strokes of the same pen, so
    there :data:`STROKE_SURE` does not tick a box unsure by its ink."""
    return any(u is not t and abs(u.x - t.x) <= 1.5 * t.w and abs(u.y - t.y) < 0.5 * t.h for u in ticked)


STROKES_SEEN = 0.3
"""A box read blank by its ink is unsure when its darkest strokes (:attr:`~generator.reader.marks.TargetInk.peak`)
reach this share of the pad's typical tick's: a dash, a slash or a tick drawn low in the box covers too little of it
for its ink to count, but its strokes are as dark as the hand's (measured: such real marks reach 0.3 to 0.9 of the
typical strokes; blank boxes stay under 0.25 in 999 of 1,000, and only rubbed-out marks reach 0.36)."""


def owns_item(item) -> bool:
    """True for a tick pad layout item."""
    from generator.games.pads import Pad

    return isinstance(item, Pad) and item.kind == "tick-pad"


def _shipped_pads() -> dict[str, Path]:
    from generator.core.shipped import shipped_layouts

    return {s.id: s.path for s in shipped_layouts() if s.game == "pads"}


def owns_code(text: str) -> bool:
    """True when a sheet code's text names a shipped tick pad."""
    sc = SheetCode.parse(text)
    if sc is None:
        return False
    item_id, _ = split_code_id(sc.layout_id)
    path = _shipped_pads().get(item_id)
    if path is None:
        return False
    from generator.games.registry import load_any

    return owns_item(load_any(path))


_CODES: dict[tuple, str] = {}


def code_texts(paper: Paper, item=None) -> list[str]:
    """The code each shipped tick pad (or ``item`` alone) prints on ``paper``, with its own variant."""
    from generator.games.pads import build_pad
    from generator.games.registry import load_any

    items = [item] if item is not None else [load_any(p) for p in _shipped_pads().values()]
    out = []
    for it in items:
        if not owns_item(it):
            continue
        key = (it.id, str(it.source), it.variant.target, it.variant.flip7_bonus, paper.id)
        if key not in _CODES:
            scene = build_pad(it, paper)
            item_text = code_text(it.id, (it.variant.target, it.variant.flip7_bonus))
            _CODES[key] = SheetCode(SHEET_FORMAT, item_text, paper.id, geometry_hash(scene)).text()
        out.append(_CODES[key])
    return out


@dataclass
class TickRow:
    """One round's row as read.

    Attributes:
        round: the round number (from 1).
        ticked: the tick keys read ticked (``"3"``, ``"×2"``, ``"BUST"`` …), in the pad's order.
        unsure: tick key → why it is unsure (never counted, never guessed).
        reason: why the whole row cannot be read (``""`` when it can).
        confidence: 0–1, the weakest decision of the row.
        inks: tick key → ink above the row's blank level.
    """

    round: int
    ticked: list[str]
    unsure: dict[str, str] = field(default_factory=dict)
    reason: str = ""
    confidence: float = 1.0
    inks: dict[str, float] = field(default_factory=dict)

    @property
    def blank(self) -> bool:
        """Nothing ticked, nothing unsure, and the row could be read."""
        return not self.ticked and not self.unsure and not self.reason

    def tokens(self) -> list[str]:
        """The row in the typed-in file: ``["3", "x2", "7?"]`` (in the pad's order), or ``["?"]`` when unreadable."""
        if self.reason:
            return ["?"]
        out = []
        for k in TICK_KEYS:
            if k in self.ticked:
                out.append(TOKEN[k])
            elif k in self.unsure:
                out.append(TOKEN[k] + "?")
        return out


@dataclass
class TickPadReading:
    """Everything read from one photo of a tick pad.

    Attributes:
        pad: the tick pad's layout item, with the variant its code names.
        paper: the paper turned as the pad is printed (landscape: 297 × 210 mm for A4).
        rows: every round's row as read (all the pad's rows; :attr:`played` leaves out the trailing blank ones).
        fit: the homography in the pad's own frame (page mm → photo px).
        other attributes as :class:`generator.reader.reading.PhotoReading`.
    """

    path: Path
    display: str
    pad: Pad
    paper: Paper
    scene: Scene
    code: CodeReading
    fit: SheetFit
    measurement: Measurement
    rows: list[TickRow]
    player: str
    image_size: tuple[int, int]
    layout_ref: str = ""
    preview: np.ndarray | None = field(default=None, repr=False)
    preview_ppm: float = 4.0
    annotated: bytes | None = field(default=None, repr=False)

    @property
    def layout(self):
        """The pad's layout item (what ``--layout`` would name)."""
        return self.pad

    @property
    def played(self) -> list[TickRow]:
        """The rows up to the last one with any tick (or anything unsure or unreadable)."""
        last = max((r.round for r in self.rows if not r.blank), default=0)
        return [r for r in self.rows if r.round <= last]

    @property
    def variant_unchecked(self) -> bool:
        """True when the sheet code was not read (``--layout`` named the pad): the target and Flip 7 bonus
        printed on the pad were then not checked against the layout's."""
        return self.code.how == "none"

    @property
    def uncertain(self) -> list[tuple[str, str]]:
        """Every unclear field as ``(field, reason)``: ``target`` (the code was not read), ``round3`` (the
        whole row) or ``round3.7`` (one box)."""
        out = []
        if self.variant_unchecked:
            out.append(
                (
                    "target",
                    "the sheet code was not read, so the target printed on the pad was not checked: "
                    "write the TARGET the pad shows (and a 'flip7_bonus:' line if its bonus is not 15)",
                )
            )
        for r in self.played:
            if r.reason:
                out.append((f"round{r.round}", r.reason))
                continue
            for k in TICK_KEYS:
                if k in r.unsure:
                    out.append((f"round{r.round}.{TOKEN[k]}", r.unsure[k]))
        return out

    @property
    def confidence(self) -> float:
        """The weakest row confidence (0–1)."""
        return float(min((r.confidence for r in self.rows), default=1.0))

    def to_yaml(self, *, layout_ref: str | None = None, file_name: str = "FILE") -> str:
        """The typed-in tick pad (docs/formats.md, "Flip 7 tick pad") with header comments and the checksum line."""
        from generator.core.names import clean_name, shown
        from generator.core.yamlpos import yaml_scalar
        from generator.reader.output import checksum, how_read

        w, h = self.image_size
        v = self.pad.variant
        head = [
            f"# Read by sheetsmith from the photo {shown(self.display)} ({w} × {h}).",
            f"# Sheet: {self.pad.id}, {self.paper.label}; code {how_read(self.code.how)}; {len(self.fit.found)} "
            "markers, "
            f"fit within {self.fit.residual_mm:.2f} mm; blur {self.measurement.blur_mm:.2f} mm.",
            "# Only the ticks are read: the scores and totals written on the pad are not (sheetsmith computes them).",
            f"# Check it against the pad, correct what is wrong, then score it with the other players' pads: "
            f"sheetsmith verify {shown(file_name)} …",
        ]
        unc = self.uncertain
        if unc:
            head.append(
                "# UNCERTAIN — where '?' stands, write what the pad shows: drop the '?' if the box is ticked, "
                "drop the item if not ('?' alone: the round's whole list):"
            )
            for name, reason in unc:
                head.append(f"#   {name}: {shown(reason)}")
        target = f'"{v.target}?"' if self.variant_unchecked else str(v.target)
        lines = [
            "game: flip7",
            "sheet: tick-pad",
            f"player: {yaml_scalar(clean_name(self.player))}",
            f"target: {target}",
        ]
        if v.flip7_bonus != 15:
            lines.append(f"flip7_bonus: {v.flip7_bonus}")
        if self.played:
            lines.append("rounds:")
            for r in self.played:
                lines.append(f"  - [{', '.join(_yaml_token(t) for t in r.tokens())}]")
        else:
            lines.append("rounds: []")
        text = "\n".join(head) + "\n" + "\n".join(lines) + "\n"
        return text + f"# sheetsmith read checksum: {checksum(text)}\n"

    def locate(self, text: str, name: str) -> tuple[int, int]:
        """1-based line and column of a field's ``?`` in this reading's typed-in text (``(0, 0)`` when not found)."""
        lines = text.split("\n")
        if name == "target":
            found = [i for i, ln in enumerate(lines) if ln.startswith("target:")]
            return (found[0] + 1, len("target: ") + 1) if found else (0, 0)
        try:
            start = lines.index("rounds:") + 1
        except ValueError:
            return 0, 0
        rnd, _, box = name.partition(".")
        k = int(rnd.removeprefix("round")) - 1
        if start + k >= len(lines):
            return 0, 0
        ln = lines[start + k]
        col = ln.find(f'"{box}?"') if box else ln.find('"?"')
        return start + k + 1, (col + 1 if col >= 0 else 3)

    def annotated_png(self, ppm: float = 4.0) -> bytes:
        """The pad as the reader saw it (see :func:`annotated_png`)."""
        return annotated_png(self, ppm=ppm)

    def annotated_image(self, ppm: float = 4.0):
        """The same picture as a Pillow image (see :func:`annotated_image`)."""
        return annotated_image(self, ppm=ppm)


def _yaml_token(t: str) -> str:
    """A token as YAML: numbers bare, ``x2`` and ``bust`` bare, ``"+4"`` and anything with ``?`` quoted."""
    if t.isdigit() or t in ("x2", "bust"):
        return t
    return f'"{t}"'


# --- the chain -------------------------------------------------------------------------------------


def _pad_for(ctx: PhotoContext):
    """The pad item (with its variant) the code or ``--layout`` names, checked against each other."""
    from generator.games.pads import with_variant
    from generator.games.registry import load_any

    sc = SheetCode.parse(ctx.code.text) if ctx.code.text else None
    if sc is None and ctx.code.text:
        raise PhotoError(
            ctx.display, f"the QR code on this sheet is not a sheetsmith sheet code ({ctx.code.text[:40]!r})"
        )
    if sc is not None and sc.format != SHEET_FORMAT:
        raise PhotoError(
            ctx.display,
            f"this sheet was printed in sheet format {sc.format}; this sheetsmith reads format {SHEET_FORMAT}: "
            "use the sheetsmith version that printed it, or print the sheet again",
        )
    if sc is not None and sc.paper_id != ctx.fit.paper.id:
        raise PhotoError(
            ctx.display,
            f"the sheet code says paper '{sc.paper_id}' but the markers say '{ctx.fit.paper.id}': "
            "the sheet is damaged or not sheetsmith's",
        )
    item_id, variant = split_code_id(sc.layout_id) if sc is not None else ("", ())
    pad = ctx.item
    if pad is None and ctx.layout_arg:  # --layout names an All In layout, the code this pad
        raise PhotoError(
            ctx.display,
            f"the photo shows a sheet of layout '{item_id}', not '{ctx.layout_arg}' as --layout {ctx.layout_arg} says",
        )
    if pad is not None and sc is not None and item_id != pad.id:
        raise PhotoError(
            ctx.display,
            f"the photo shows a sheet of layout '{item_id}', not '{pad.id}' as --layout {ctx.layout_arg} says",
        )
    if pad is None:
        if sc is None:
            raise PhotoError(
                ctx.display,
                "the sheet's markers were found but its code (the QR square) cannot be read; "
                "name the pad with --layout flip7-tick-pad, or take a sharper, closer photo",
            )
        pad = load_any(_shipped_pads()[item_id])
    if len(variant) == 2 and all(v.isdigit() for v in variant):
        pad = with_variant(pad, int(variant[0]), int(variant[1]))
    return pad, sc


def _turn(paper: Paper) -> np.ndarray:
    """The map (3 × 3) from the landscape pad's mm to the upright paper's mm
    (:func:`generator.printing.readable.portrait_of`)."""
    return np.array([[0.0, -1.0, paper.width], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])


def _turned_fit(fit: SheetFit, paper: Paper, scene: Scene) -> SheetFit:
    """``fit`` (upright paper) as a fit of the pad's own frame."""
    if not is_turned(paper, scene):
        return fit
    pw = paper.width
    offsets = {i: (y, pw - x, dy, -dx) for i, (x, y, dx, dy) in (fit.offsets or {}).items()}
    return replace(
        fit,
        paper=Paper(paper.id, scene.width, scene.height, paper.label),
        homography=fit.homography @ _turn(paper),
        offsets=offsets,
        warp=None,
    )


def read(ctx: PhotoContext) -> TickPadReading:
    """Read a tick pad from the common chain's findings (:class:`~generator.reader.kinds.PhotoContext`).

    Raises:
        PhotoError: a code of another format, paper or layout version; an unread code without ``--layout``.
    """
    from generator.games.pads import build_pad

    pad, sc = _pad_for(ctx)
    paper = ctx.fit.paper
    scene = build_pad(pad, paper)
    digest = geometry_hash(scene)
    if sc is not None and sc.digest != digest:
        raise PhotoError(
            ctx.display,
            f"this sheet was printed from another version of '{pad.id}' (its code says geometry "
            f"{sc.digest}, the layout now draws {digest}): print the pad again",
        )
    sfit = _turned_fit(ctx.sfit, paper, scene)
    fit = _turned_fit(ctx.fit, paper, scene)
    turned = is_turned(paper, scene)
    pts = tuple((y, paper.width - x) for x, y in ctx.blur.points) if turned else ctx.blur.points
    blur = BlurField(sfit, pts, ctx.blur.sigma_px, ctx.blur.median)
    key = (
        code_text(pad.id, (pad.variant.target, pad.variant.flip7_bonus)),
        str(pad.source),
        digest,
        paper.id,
    )  # the variant: another print
    m = measure(ctx.src, sfit, scene, key, blur=blur)
    preview = rectify(ctx.src, sfit, (0.0, 0.0, scene.width, scene.height), 4.0, border=(150, 150, 150))
    for t in light_steps(preview, 4.0, [t for t in scene.marks if t.kind == "tick"]):
        ti = m.inks[(t.kind, t.owner, t.key)]
        ti.hidden = ti.hidden or "edge"
    rows = decide(scene, m)
    for row, _box in written_without_ticks(preview, 4.0, scene, rows):
        row.reason = (
            "a score is written but no box is ticked: write [] if it is 0 (no card in front of the player), "
            "else type the round's cards in from the pad"
        )
        row.confidence = 0.0
    return TickPadReading(
        path=ctx.path,
        display=ctx.display,
        pad=pad,
        paper=sfit.paper,
        scene=scene,
        code=ctx.code,
        fit=fit,
        measurement=m,
        rows=rows,
        player=ctx.player,
        image_size=(ctx.img.shape[1], ctx.img.shape[0]),
        layout_ref=ctx.layout_arg or pad.id,
        preview=preview,
    )


WRITTEN_SHARE = 0.03
"""A score box counts as written on when this share of its inside (1.5 mm clear of its rules) is ink."""


def written_without_ticks(page: np.ndarray, ppm: float, scene: Scene, rows: list) -> list:
    """The rows with nothing ticked whose score box holds writing: ``[(row, box)]``.

    Only the ticks are read into the file, so a round whose player wrote its score but ticked no card would
    be read as an empty round and count 0; such a row is given to a person instead.  Writing is judged on the
    straightened page ``page`` (BGR, ``ppm``), flattened: the share of the box's inside darker than half the
    paper's level in any colour channel (a blue pen is dark in red and green).
    """
    from generator.reader.marks import flatten

    boxes = {t.owner: t for t in scene.marks if t.kind == "write" and t.key == "score"}
    todo = [(r, boxes[f"round{r.round}"]) for r in rows if r.blank and f"round{r.round}" in boxes]
    if not todo:
        return []
    level = flatten(page, ppm).min(axis=2)
    h, w = level.shape
    out = []
    for row, t in todo:
        a, b = max(0, int((t.x + 1.5) * ppm)), min(w, int((t.x + t.w - 1.5) * ppm))
        c, d = max(0, int((t.y + 1.5) * ppm)), min(h, int((t.y + t.h - 1.5) * ppm))
        if b - a < 4 or d - c < 4:
            continue
        if float((level[c:d, a:b] < 0.5).mean()) > WRITTEN_SHARE:
            out.append((row, t))
    return out


STEP_RATIO = 1.3
"""A box is on a hard shadow's edge when the paper just around it is this many times brighter on one side than on
another."""


def light_steps(page: np.ndarray, ppm: float, targets: list) -> list:
    """The targets a hard shadow's edge runs across, judged on the straightened page ``page`` (BGR, ``ppm``):
    the paper's brightness (the 80th percentile of the brightest channel, so print and ink do not count) in
    the band 0.8–2.5 mm outside each side of the box, compared side with side.  A soft shadow or a light
    gradient changes far less over a few millimetres; the edge of the phone's shadow does not."""
    level = page.max(axis=2).astype(np.float32)
    h, w = level.shape
    out = []
    for t in targets:
        sides = []
        for x0, y0, x1, y1 in (
            (t.x - 2.5, t.y, t.x - 0.8, t.y + t.h),
            (t.x + t.w + 0.8, t.y, t.x + t.w + 2.5, t.y + t.h),
            (t.x, t.y - 2.5, t.x + t.w, t.y - 0.8),
            (t.x, t.y + t.h + 0.8, t.x + t.w, t.y + t.h + 2.5),
        ):
            a, b = max(0, int(x0 * ppm)), min(w, int(np.ceil(x1 * ppm)))
            c, d = max(0, int(y0 * ppm)), min(h, int(np.ceil(y1 * ppm)))
            if b - a >= 2 and d - c >= 2:
                sides.append(float(np.percentile(level[c:d, a:b], 80)))
        if len(sides) >= 2 and min(sides) > 0 and max(sides) / min(sides) > STEP_RATIO:
            out.append(t)
    return out


# --- deciding ---------------------------------------------------------------------------------------


def decide(scene: Scene, m: Measurement) -> list[TickRow]:
    """Turn the tick boxes' inks into rows (see the module docstring)."""
    from generator.reader.levels import (
        Decision,
        dark_strokes,
        decide_ink,
        greyer,
        hand_ratio,
        hidden_reason,
        too_light,
        typical_peak,
    )

    inks = m.inks
    owners = sorted({t.owner for t in scene.marks if t.kind == "tick"}, key=lambda o: int(o.removeprefix("round")))
    raw = {o: {k: inks[("tick", o, k)].ink for k in TICK_KEYS if ("tick", o, k) in inks} for o in owners}
    base = {o: float(np.percentile(list(v.values()), 30)) for o, v in raw.items()}
    usual = float(median(list(base.values()))) if base else 0.0
    # the hand's typical tick from the boxes that can be judged (a box on a hard shadow's edge can hold more "ink"
    # than any tick: taken for the hand, it would leave every real tick under the blank level)
    seen = {o: [x for k, x in v.items() if not inks[("tick", o, k)].hidden] for o, v in raw.items()}
    clear = [max(v) - base[o] for o, v in seen.items() if v and max(v) - base[o] >= 2.5 * FLOOR]
    mark = max(float(median(clear)) if len(clear) >= 3 else DEFAULT_MARK, 3 * FLOOR)
    blank_lv, sure_lv = max(FLOOR, BLANK * mark), max(1.5 * FLOOR, SURE * mark)
    m.levels = {"tick": (blank_lv, sure_lv, mark)}
    decided: dict[str, dict[str, Decision]] = {}
    rows: list[TickRow] = []
    for o in owners:
        n = int(o.removeprefix("round"))
        hidden = [k for k in raw[o] if inks[("tick", o, k)].hidden]
        if len(hidden) * 2 >= len(raw[o]):  # most of the row cannot be judged: the whole row
            why = hidden_reason([inks[("tick", o, k)] for k in raw[o]], "space")
            rows.append(
                TickRow(
                    n, [], reason=why.replace("the space", "the row").replace("boxes", "tick boxes"), confidence=0.0
                )
            )
            continue
        if base[o] - usual > max(blank_lv, 0.3 * mark):
            rows.append(TickRow(n, [], reason="the row could not be lined up with the photo", confidence=0.0))
            continue
        visible = [v for k, v in raw[o].items() if k not in hidden]
        base[o] = float(np.percentile(visible, 30))
        rel = {k: v - base[o] for k, v in raw[o].items()}
        decided[o] = {k: decide_ink(v, blank_lv, sure_lv, mark) for k, v in rel.items() if k not in hidden}
        row = TickRow(n, [], inks=rel)
        for k in hidden:  # a box that cannot be judged (a shadow's edge, glare, covered, outside): never read
            row.unsure[k] = f"{TOKEN[k]}: " + hidden_reason([inks[("tick", o, k)]], "space").replace(
                "the space", "the box"
            ).replace("boxes are", "box is")
        rows.append(row)
    sure = [(o, k) for o, ds in decided.items() for k, d in ds.items() if d.marked and d.ink >= 0.8 * mark]
    peak = typical_peak([inks[("tick", o, k)].peak for o, k in sure])
    measured = mark if len(clear) >= 3 else None
    # the same in luminance (TargetInk.peak_luma): a grey smear of rubbed-out pencil among blue-pen ticks
    luma = {
        (o, k): inks[("tick", o, k)].ink_luma
        - float(np.percentile([inks[("tick", o, j)].ink_luma for j in raw[o]], 30))
        for o in decided
        for k in decided[o]
    }
    mark_l = float(median([luma[ok] for ok in sure])) if measured is not None and len(sure) >= 3 else None
    peak_l = typical_peak([inks[("tick", o, k)].peak_luma for o, k in sure])
    ratio = hand_ratio([(inks[("tick", o, k)].peak, inks[("tick", o, k)].peak_luma) for o, k in sure])
    for row in rows:
        o = f"round{row.round}"
        if o not in decided:
            continue
        conf = 1.0
        inked = [inks[("tick", o, j)].target for j, e in decided[o].items() if e.marked]
        for k, d in decided[o].items():
            t = inks[("tick", o, k)]
            if d.marked and (
                too_light(d.ink, measured, t.peak, peak, LIGHT)
                or (greyer(t.peak, t.peak_luma, ratio) and too_light(luma[(o, k)], mark_l, t.peak_luma, peak_l, LIGHT))
            ):
                row.unsure[k] = f"{TOKEN[k]}: much lighter than the other ticks: a light tick, or one rubbed out?"
            elif d.marked or (
                d.marked is None and measured is not None and not _beside(t.target, inked) and _as_hard(t, peak, peak_l)
            ):
                row.ticked.append(k)
            elif d.marked is None or dark_strokes(t.peak, peak, STROKES_SEEN):
                # (a blank box crossed by strokes as dark as a third of the ticks': a thin dash or slash, not paper)
                row.unsure[k] = f"{TOKEN[k]}: faint, ticked or not?"
            conf = min(conf, d.confidence)
        row.ticked.sort(key=TICK_KEYS.index)
        row.confidence = 0.0 if row.unsure else conf
    return rows


# --- the annotated picture ------------------------------------------------------------------------


def annotated_png(reading: TickPadReading, *, ppm: float = 4.0) -> bytes:
    """The pad's annotated picture (:func:`annotated_image`) as PNG bytes."""
    from generator.reader.output import png_bytes

    return png_bytes(annotated_image(reading, ppm=ppm))


def annotated_image(reading: TickPadReading, *, ppm: float = 4.0):
    """The pad's annotated picture, an RGB Pillow image: the pad straightened, each tick read ringed in green, each
    unsure box framed in red with its name;
    a column beside it lists what was read, round by round, and every uncertain field with its reason."""
    from PIL import ImageDraw

    from generator.reader.output import annotation_canvas, annotation_font, tag, wrap_text

    img_bgr = (
        reading.preview
        if reading.preview is not None and abs(reading.preview_ppm - ppm) < 1e-9
        else rectify(
            np.asarray(_load(reading)),
            reading.fit,
            (0.0, 0.0, reading.scene.width, reading.scene.height),
            ppm,
            border=(150, 150, 150),
        )
    )
    base, page_size, col_w = annotation_canvas(img_bgr, ppm)
    draw = ImageDraw.Draw(base, "RGBA")
    green, red, ink = (0, 140, 60), (210, 30, 30), (20, 20, 20)
    marks = {(t.kind, t.owner, t.key): t for t in reading.scene.marks}
    inks = reading.measurement.inks
    line = max(1, int(0.5 * ppm))
    key_font = annotation_font(max(9, int(2.6 * ppm)))
    for r in reading.rows:
        o = f"round{r.round}"
        if r.reason:
            ts = [marks[("tick", o, k)] for k in TICK_KEYS]
            x0, y0 = min(t.x for t in ts) - 1, min(t.y for t in ts) - 1
            x1, y1 = max(t.x + t.w for t in ts) + 1, max(t.y + t.h for t in ts) + 1
            draw.rectangle(
                [x0 * ppm, y0 * ppm, x1 * ppm, y1 * ppm], outline=red, width=max(2, line), fill=(255, 0, 0, 30)
            )
            tag(draw, o, x1 * ppm + ppm, y0 * ppm, key_font, red)
            continue
        for k in r.ticked + list(r.unsure):
            t = marks[("tick", o, k)]
            dx, dy = inks[("tick", o, k)].shift
            b = [
                (t.x + dx - 0.6) * ppm,
                (t.y + dy - 0.6) * ppm,
                (t.x + t.w + dx + 0.6) * ppm,
                (t.y + t.h + dy + 0.6) * ppm,
            ]
            if k in r.unsure:
                draw.rectangle(b, outline=red, width=max(2, line), fill=(255, 0, 0, 40))
                tag(draw, f"{o}.{TOKEN[k]}", b[0], b[3], key_font, red)
            else:
                draw.ellipse(b, outline=green, width=line)
    x, width = page_size[0] + 3 * ppm, col_w - 6 * ppm
    head, body, bold = (
        annotation_font(max(10, int(3.4 * ppm))),
        annotation_font(max(9, int(2.8 * ppm)), "regular"),
        annotation_font(max(9, int(2.8 * ppm))),
    )
    y = 6 * ppm
    y = wrap_text(draw, reading.display, x, y, width, head, ink)
    y = wrap_text(
        draw,
        f"{reading.pad.id} ({reading.paper.label}), target {reading.pad.variant.target}",
        x,
        y + 0.5 * ppm,
        width,
        body,
        ink,
    )
    y += 2 * ppm
    for r in reading.played:
        y = wrap_text(
            draw,
            f"{r.round}: " + (", ".join(r.tokens()) or "nothing ticked"),
            x,
            y,
            width,
            body,
            red if (r.reason or r.unsure) else ink,
        )
    unc = reading.uncertain
    y += 2 * ppm
    if not unc:
        wrap_text(draw, "Nothing uncertain.", x, y, width, head, green)
    else:
        y = wrap_text(
            draw,
            f"{len(unc)} uncertain: look at the pad and write what is there in the .read.yaml",
            x,
            y,
            width,
            bold,
            red,
        )
        for name, reason in unc[:12]:
            y = wrap_text(draw, f"{name}: {reason}", x, y + 0.5 * ppm, width, body, ink)
    return base


def _load(reading: TickPadReading):
    from generator.reader.image import load_photo

    return load_photo(reading.path, reading.display)
