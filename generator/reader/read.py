"""Reading a photo of a filled All In sheet into the typed-in sheet form.

:func:`read_photo` runs the whole chain — open the image, find the markers,
fit the homography, read the sheet code, rebuild the sheet's scene for the
layout and paper it names (so every target's position comes from the code
that drew it), measure every mark (:mod:`.marks`) and decide (:func:`decide`).

Decisions.  Each target's *ink* is compared with two thresholds: an absolute
floor (below it nothing is marked, so a blank sheet reads blank) and a level
relative to this sheet's own marks (the median ink of the clearest mark in
each space: a light pencil hand gets lower thresholds than a felt pen, never
below the floor).  Ink above the *sure* level is a mark; below the *blank*
level it is not; in between it is *unsure*.  A card space is read when
exactly one rank and exactly one suit are marked and nothing is unsure;
empty when nothing is marked (and no value is written); anything else — two
ranks, a rank without a suit, an unsure mark — makes the space *uncertain*,
reported with its cell and never guessed.  Chips earned are the filled chip
circles, chips spent the ticked boxes under them.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from generator.core.cards import parse_card
from generator.core.errors import InputError
from generator.core.paths import display_path
from generator.core.shipped import resolve_layout, shipped_layouts
from generator.games.allin.grid import Coord, cell_name
from generator.games.allin.layout import AllInLayout, load_layout
from generator.games.allin.sheet import build_allin_sheet
from generator.printing.forms import stored_digests
from generator.printing.paper import Paper
from generator.printing.readable import SHEET_FORMAT, SheetCode, code_box, geometry_hash
from generator.printing.scene import Scene
from generator.reader.code import CodeReading, read_code
from generator.reader.early import Ahead, take_early
from generator.reader.errors import PhotoError
from generator.reader.gridfit import fit_grid
from generator.reader.image import load_photo
from generator.reader.levels import (
    Decision,
    dark_strokes,
    decide_ink,
    greyer,
    hand_ratio,
    hidden_reason,
    span_text,
    too_light,
    typical_peak,
)
from generator.reader.markers import SheetFit, detect_all_markers, fit_sheet, largest, outside_sides, two_sheets
from generator.reader.marks import PPM, Measurement, blank_page, measure, measure_blur, shrink, template
from generator.reader.numeric import median
from generator.reader.reading import CellReading, CountReading, PhotoReading

if TYPE_CHECKING:
    from generator.reader.kinds.tickpad import TickPadReading

MIN_PX_PER_MM = 2.3
"""Below this many photo pixels per page millimetre the marks are too small to read, and the photo is refused.  (Just
under it, in a soft 1280 × 720 frame, a field can be read wrong without a ``?``: a rubbed-out tick counted, a suit
taken for its neighbour, a card read empty.)"""
MAX_BLUR_MM = 0.75
"""Above this blur (Gaussian sigma, mm on the page, measured on the markers) the photo is refused."""
REJECT_SCORE = 0.45
"""With ``--layout`` and an unread code: a visible code correlating less than this with the layout's own is refused
(a code that is not there at all — covered, torn off — is not held against ``--layout``)."""
MAX_RESIDUAL_MM = 1.2
"""Above this marker fit error (mm) the sheet is not flat enough (or a marker is misread)."""

FLOOR = {"box": 0.030, "ring": 0.025, "bubble": 0.045, "spent": 0.030}
"""Absolute ink floors: below these nothing is marked, whatever the rest of the sheet looks like."""
SURE = {"box": 0.40, "ring": 0.25, "bubble": 0.40, "spent": 0.40}
BLANK = {"box": 0.25, "ring": 0.15, "bubble": 0.20, "spent": 0.25}
"""Sure and blank levels, as shares of this sheet's typical mark ink (never below the floor)."""
DEFAULT_MARK = {"box": 0.16, "ring": 0.16, "bubble": 0.30, "spent": 0.30}
"""Typical mark ink assumed when the sheet has too few marks of a kind to measure it.  For a spent box, whose ink is
taken over the box and around it against its own band, a blank box in a small or soft photo reaches 0.09 at the very
most (very rarely over 0.075), while the lightest spent tick, light pencil in a soft 2 MP photo, holds 0.10: with
:data:`BLANK` and :data:`SURE` that is blank below 0.075, a tick from 0.12, unsure between.  (Blank boxes in soft
photos read lower still since the wider window is weighted up only when it sees beyond the box's centre,
:data:`~.marks.WIDE_OUTSIDE_MM2`, so the blank level has room to spare.)"""


# --- the chain ----------------------------------------------------------------------------------


def read_photo(
    path: str | Path, *, layout: str | None = None, display: str | None = None, player: str | None = None
) -> PhotoReading | TickPadReading:
    """Read a photo of a filled All In sheet.

    Args:
        path: the photo (JPEG, PNG, …).
        layout: a shipped layout id or a layout file, for a sheet whose code
            cannot be read (also checked against the code when both are there).
        display: the photo's name in messages (default: the path as given).
        player: the player's name (default: the file name without its ending).

    Returns:
        the :class:`PhotoReading`; fields that are not clear are reported in
        its :attr:`PhotoReading.uncertain`, never guessed.  A sheet of another kind
        (:mod:`generator.reader.kinds`: a tick pad) gives that kind's reading instead.

    Raises:
        PhotoError: not an image; too large (checked before decoding) or too
            small; no sheet found; too few markers; the sheet too small in the
            picture or too blurred; markers that do not fit one flat sheet; a
            sheet code that is not sheetsmith's, of another format version, of
            another paper, of a layout other than ``layout``, or of another
            version of its layout; an unreadable code without ``layout``.
        InputError: ``layout`` is not a shipped id or a valid layout file.
        PhotoError: also for any failure inside the reader itself (a fault of sheetsmith's, never a traceback):
            :func:`reader_fault`.
    """
    path = Path(path)
    display = display or display_path(path)
    try:
        return _read_photo(path, layout, display, player)
    except InputError:
        raise
    except Exception as exc:
        raise reader_fault(display, exc) from exc


def reader_fault(display: str, exc: BaseException) -> PhotoError:
    """The one-line refusal for a failure inside the reader (``exc``, not a fault of the photo's): it names the
    error and asks for the photo to be sent in, and says how to go on meanwhile (type the sheet in)."""
    detail = " ".join(str(exc).split())[:200]
    return PhotoError(
        display,
        f"sheetsmith failed while reading this photo ({type(exc).__name__}{': ' + detail if detail else ''}); "
        "this is a fault of sheetsmith's, not of the photo: please send the photo in with this message, and "
        "meanwhile type the sheet in",
    )


def _read_photo(path: Path, layout: str | None, display: str, player: str | None) -> PhotoReading | TickPadReading:
    """:func:`read_photo` without its guard against faults of its own."""
    import cv2

    early = take_early(path, display)  # decoded while sheetsmith was being imported (sheetsmith verify)
    if early is not None:
        img, gray, detections = early
    else:
        img = load_photo(path, display)
        gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        detections = detect_all_markers(gray)
    if two_sheets(detections):
        raise PhotoError(display, TWO_SHEETS)
    found = largest(detections)
    size = (img.shape[1], img.shape[0])
    fit = fit_sheet(found)
    if fit is None:
        if not found and _too_soft(gray):
            raise PhotoError(
                display,
                "no All In sheet found, and the photo is too blurred to see one: hold the phone still, "
                "let it focus on the sheet, and take it again",
            )
        if not found:
            raise PhotoError(
                display,
                "no All In sheet found: none of the sheet's corner markers (black squares) is in the photo; "
                "if the whole sheet is, move closer and hold the phone still: they were too small or too soft "
                "to make out",
            )
        rough = fit_sheet(found, min_markers=2)
        where = (
            outside_sides(rough.paper, set(rough.found.values()), rough.to_image, size) if rough is not None else None
        )
        if where is not None:
            raise PhotoError(display, outside_message(*where, layout_hint=False))
        raise PhotoError(
            display,
            f"found only {len(found)} of the sheet's markers; photograph the whole sheet, all four corner squares in "
            "the picture and not covered "
            "(if they are, move closer and hold the phone still: the others were too small or too soft to make out)",
        )
    where = outside_sides(fit.paper, set(fit.found.values()), fit.to_image, size)
    if fit.px_per_mm < MIN_PX_PER_MM:
        raise PhotoError(
            display,
            f"the sheet is too small in the photo ({fit.px_per_mm:.1f} pixels per mm; at least {MIN_PX_PER_MM} "
            "needed): "
            "move closer so the sheet fills most of the picture, or use a larger photo size",
        )
    src, sfit = shrink(img, fit)
    scale = sfit.px_per_mm / fit.px_per_mm
    corners = {i: c * scale for i, c in found.items()}
    blur_field = measure_blur(src, sfit, corners=corners)
    blur = blur_field.median
    if blur > MAX_BLUR_MM:
        raise PhotoError(
            display,
            f"the photo is too blurred to read the marks (edges spread over {blur:.2f} mm): hold the phone still, "
            "let it focus on the sheet, and take it again in good light",
        )
    from generator.reader.context import PhotoContext
    from generator.reader.kinds import candidate_codes, item_of_layout, read_other

    other_item = item_of_layout(layout)  # --layout naming a sheet of another kind (a tick pad): read by its kind
    user_layout = load_layout(resolve_layout(layout)) if layout and other_item is None else None
    candidates = _Candidates(fit.paper, user_layout)
    cx, cy, cs = code_box(fit.paper)
    sheet_paper = fit.paper  # (the lambda is called by read_code below, before ``fit`` is refined)
    texts = (
        (lambda: candidates.texts() + candidate_codes(sheet_paper))
        if other_item is None
        else candidate_codes(fit.paper, other_item)
    )
    code = read_code(gray, _near_code(fit, found), texts, blur_field.at(cx + cs / 2, cy + cs / 2))
    other = read_other(
        PhotoContext(
            path, display, player or path.stem, img, found, fit, src, sfit, blur_field, code, layout, other_item, where
        )
    )
    if other is not None:  # a sheet of another kind (generator.reader.kinds): the rest is its own
        return other
    own = code.score_of(code_for(user_layout, fit.paper)) if user_layout is not None else 1.0
    if code.text is None and user_layout is not None and code.visible and own < REJECT_SCORE:
        raise PhotoError(
            display,
            f"the sheet's code does not match layout '{user_layout.id}' as sheetsmith draws it "
            f"(correlation {own:.2f}): this is a sheet of another layout, or of another version of it",
        )
    lay = _layout_for(code, fit, user_layout, candidates, display, layout, where)
    scene = scene_for(lay, fit.paper)
    digest = geometry_hash(scene)
    sheet_code = SheetCode.parse(code.text) if code.text else None
    if sheet_code is not None and sheet_code.digest != digest:
        scene = _earlier_form(lay, fit.paper, sheet_code.digest, display, digest)
        digest = sheet_code.digest
    printed = {int(t.key) for t in scene.marks if t.kind == "marker"}
    if set(fit.found) - printed:  # a "marker" this sheet does not print: a false detection, fit again without it
        refit = fit_sheet({i: c for i, c in found.items() if i in printed})
        if refit is not None:
            fit = refit
            src, sfit = shrink(img, fit)
            blur_field = measure_blur(
                src, sfit, corners={i: c * sfit.px_per_mm / fit.px_per_mm for i, c in found.items()}
            )
    key = (lay.id, lay.source, digest, fit.paper.id)
    # the grid fitted on its own print: right where the screen is folded up or the sheet curls
    scale = sfit.px_per_mm / fit.px_per_mm
    page = template(scene, key)
    # the blank page's darkness (0.1 s, nearly all in OpenCV) is made beside the grid's fitting (measure() makes it
    # itself if this failed, or if the grid's fit changes the photo's scale enough to ask for another)
    darkness = Ahead(blank_page, scene, key, sfit.px_per_mm)
    marker_fit = sfit  # the flat page the markers give, at the scale of src (the print check compares under both)
    grid = fit_grid(
        src,
        sfit,
        scene,
        page,
        PPM,
        blur,
        markers={i: c * scale for i, c in found.items() if i in printed},
        gray=gray if src is img else None,
    )
    darkness.result()
    if not any(a.used for a in grid.anchors.values()) and fit.residual_mm > MAX_RESIDUAL_MM:
        raise PhotoError(
            display,
            f"the markers do not fit one flat sheet (off by {fit.residual_mm:.1f} mm): lay the sheet flat and take the "
            "photo again",
        )
    sfit = grid.fit
    if code.text is None and user_layout is not None:  # --layout alone says what the sheet is: its print must agree
        small_gray = gray if src is img else cv2.cvtColor(src, cv2.COLOR_BGR2GRAY)
        _check_print(small_gray, (marker_fit, sfit), blur, scene, candidates, display, layout)
    picture = Ahead(_picture_ground, src, sfit)  # the annotated picture's ground, made beside the measuring
    m = measure(src, sfit, scene, key, blur=blur_field, grid=grid)
    cells, earned, spent = decide(lay, m)
    fit = replace(
        sfit, homography=np.diag([1 / scale, 1 / scale, 1.0]) @ sfit.homography, px_per_mm=sfit.px_per_mm / scale
    )
    preview, canvas = picture.result() or _picture_ground(src, sfit)
    return PhotoReading(
        path=path,
        display=display,
        layout=lay,
        paper=fit.paper,
        scene=scene,
        code=code,
        fit=fit,
        measurement=m,
        cells=cells,
        chips_earned=earned,
        chips_spent=spent,
        player=player or path.stem,
        image_size=(img.shape[1], img.shape[0]),
        layout_ref=layout or lay.id,
        preview=preview,
        canvas=canvas,
    )


def _picture_ground(src: np.ndarray, fit: SheetFit, ppm: float = 4.0) -> tuple[np.ndarray, tuple]:
    """The whole page straightened from ``src`` through ``fit`` at ``ppm`` pixels per mm (BGR, grey beyond the
    photo), and the annotated picture's canvas made from it (:func:`.output.annotation_canvas`)."""
    from generator.reader.marks import rectify
    from generator.reader.output import annotation_canvas

    preview = rectify(src, fit, (0.0, 0.0, fit.paper.width, fit.paper.height), ppm, border=(150, 150, 150))
    return preview, annotation_canvas(preview, ppm)


TWO_SHEETS = "two sheets in one photo: take one photo per sheet"


def outside_message(part: str, slots: list[str], *, layout_hint: bool) -> str:
    """The message for a sheet partly outside the photo: ``part`` (``"the bottom of the sheet"``) and the
    corner markers that are not in it; with ``layout_hint``, how to read the part that is in it."""
    text = f"{part} is outside the photo (corner markers {_and(slots)} not found)"
    if layout_hint:
        return (
            text
            + ": take the photo again with the whole sheet in it, or name the sheet's layout with --layout ID to read "
            "the part in the photo"
        )
    return text + ": take the photo again with the whole sheet in it, all four corner squares in the picture"


def _near_code(fit: SheetFit, found: dict[int, np.ndarray]) -> SheetFit:
    """The fit to cut the sheet code with: ``fit`` itself when the markers agree; when they do not (the
    screen folded up, the sheet curled), the fit on the markers of the sheet's lower half, where the code is."""
    if fit.residual_mm <= 0.6:
        return fit
    from generator.printing.readable import marker_boxes

    boxes = marker_boxes(fit.paper)
    low = {i: c for i, c in found.items() if i in boxes and boxes[i][2] > fit.paper.height / 2}
    near = fit_sheet(low, min_markers=2) if len(low) >= 2 else None
    return near if near is not None and near.residual_mm < fit.residual_mm else fit


def _too_soft(gray: np.ndarray) -> bool:
    """True when the photo has almost no sharp edges anywhere, yet shows something (a blur, not a missing sheet):
    a photo of one even tone (a blank wall, a covered lens) has no edges either, but no blurred sheet in it."""
    import cv2

    h, w = gray.shape
    f = min(1.0, 1000 / max(h, w))
    small = cv2.resize(gray, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1 else gray
    low, high = np.percentile(small, (1, 99))
    return float(cv2.Laplacian(small, cv2.CV_32F).var()) < 12.0 and high - low >= MIN_TONES


MIN_TONES = 24
"""Grey levels between a photo's darkest and brightest percent below which it shows nothing at all (one even
tone), so that its lack of edges says nothing of blur; a blurred sheet on a table spans far more."""


_SCENES: dict[tuple, tuple[AllInLayout, Scene]] = {}


def scene_for(layout: AllInLayout, paper: Paper) -> Scene:
    """The blank sheet's scene for ``layout`` on ``paper`` (built once per process, and kept on disk
    across runs: :mod:`.cache`). Read-only: the reader never changes it."""
    from generator.reader.cache import cached_scene

    key = (layout.id, str(layout.source), paper.id)
    hit = _SCENES.get(key)
    if hit is None or (hit[0] is not layout and hit[0] != layout):
        hit = (layout, cached_scene(layout, paper, lambda: build_allin_sheet(layout, paper)))
        _SCENES[key] = hit
        while len(_SCENES) > 24:
            _SCENES.pop(next(iter(_SCENES)))
    return hit[1]


def _earlier_form(lay: AllInLayout, paper: Paper, digest: str, display: str, today: str) -> Scene:
    """The stored form (:mod:`generator.printing.forms`) of a sheet printed from an earlier version of ``lay``, whose
    code names geometry ``digest`` while ``lay`` now draws ``today``.

    Raises:
        PhotoError: no form of that geometry is stored (the message says where one is looked for), a stored form
            cannot be read, or its spaces are not ``lay``'s.
    """
    from generator.printing.forms import FORMS_DIR, FormError, forms_beside, stored_form

    beside = forms_beside(Path(lay.source)) if lay.source else None
    folders = (beside, FORMS_DIR) if beside is not None else (FORMS_DIR,)
    try:
        scene = stored_form(lay.id, paper.id, digest, folders)
    except FormError as exc:
        raise PhotoError(display, f"this sheet's stored form cannot be used: {exc}") from None
    if scene is None:
        where = f" (looked in {display_path(beside)})" if beside is not None else ""
        raise PhotoError(
            display,
            f"this sheet was printed from another version of layout '{lay.id}' (its code says geometry {digest}, "
            f"the layout now draws {today}) and no form of that version is stored{where}: print the sheet again, "
            "or draw it once with the layout file that printed it (sheetsmith render FILE) so that its form is kept",
        )
    spaces = {t.owner for t in scene.marks if t.kind == "value"}
    if spaces != {cell_name(c) for c, cell in lay.grid.cells.items() if cell.kind != "golden"}:
        raise PhotoError(
            display,
            f"this sheet was printed from an earlier version of layout '{lay.id}' whose card spaces were not "
            "today's: read it with the layout file that printed it",
        )
    return scene


def code_for(layout: AllInLayout, paper: Paper) -> str:
    """The sheet code text sheetsmith prints for ``layout`` on ``paper``."""
    return SheetCode(SHEET_FORMAT, layout.id, paper.id, geometry_hash(scene_for(layout, paper))).text()


_SHIPPED: dict[tuple[str, float], AllInLayout] = {}


def _shipped(path: Path) -> AllInLayout:
    """A shipped layout, loaded once per process (again if its file changes)."""
    key = (str(path), path.stat().st_mtime)
    if key not in _SHIPPED:
        _SHIPPED[key] = load_layout(path)
    return _SHIPPED[key]


class _Candidates:
    """The layouts a photo may show (``--layout``'s first, and every shipped All In layout), loaded only as needed.

    A decoded sheet code names its layout: only that one is loaded and drawn.  Only when
    the code must be *matched* (too small or soft to decode) are all candidates drawn.
    """

    def __init__(self, paper: Paper, user_layout: AllInLayout | None):
        self.paper = paper
        self.user_layout = user_layout
        self._all: dict[str, AllInLayout] | None = None

    def all(self) -> dict[str, AllInLayout]:
        """Code text → layout, for every candidate."""
        if self._all is None:
            self._all = {code_for(self.user_layout, self.paper): self.user_layout} if self.user_layout else {}
            for item in shipped_layouts():
                if item.game == "allin":
                    lay = _shipped(item.path)
                    self._all.setdefault(code_for(lay, self.paper), lay)
                    for digest in stored_digests(lay.id, self.paper.id):  # sheets printed by earlier versions
                        self._all.setdefault(SheetCode(SHEET_FORMAT, lay.id, self.paper.id, digest).text(), lay)
        return self._all

    def others(self) -> dict[str, AllInLayout]:
        """Code text → layout, for every shipped layout that draws another sheet than ``--layout``'s."""
        if self.user_layout is None:
            return self.all()
        own = code_for(self.user_layout, self.paper)
        return {text: lay for text, lay in self.all().items() if text != own}

    def texts(self) -> list[str]:
        """Every candidate's code text."""
        return list(self.all())

    def with_id(self, layout_id: str) -> AllInLayout | None:
        """The shipped layout whose id is ``layout_id`` (its file is found by name first), or ``None``."""
        if self._all is None:
            for item in shipped_layouts():
                if item.game == "allin" and item.id.lower() == layout_id:
                    lay = _shipped(item.path)
                    if lay.id.lower() == layout_id:
                        return lay
        return next((lay for lay in self.all().values() if lay.id.lower() == layout_id), None)


def _layout_for(
    code: CodeReading,
    fit: SheetFit,
    user_layout: AllInLayout | None,
    candidates: "_Candidates",
    display: str,
    layout_arg: str | None,
    where: tuple[str, list[str]] | None = None,
) -> AllInLayout:
    if code.text is None:
        if user_layout is not None:
            return user_layout
        if where is not None:
            raise PhotoError(display, outside_message(*where, layout_hint=True))
        raise PhotoError(
            display,
            "the sheet's markers were found but its code (the QR square bottom right) cannot be read; "
            "name the sheet's layout with --layout ID (see 'sheetsmith layouts'), or take a sharper, closer photo",
        )
    sc = SheetCode.parse(code.text)
    if sc is None:
        raise PhotoError(
            display,
            f"the QR code on this sheet is not a sheetsmith sheet code ({code.text[:40]!r}); this is not a sheet "
            "sheetsmith printed",
        )
    if sc.format != SHEET_FORMAT:
        raise PhotoError(
            display,
            f"this sheet was printed in sheet format {sc.format}; this sheetsmith reads format {SHEET_FORMAT}: "
            "use the sheetsmith version that printed it, or print the sheet again",
        )
    if sc.paper_id != fit.paper.id:
        raise PhotoError(
            display,
            f"the sheet code says paper '{sc.paper_id}' but the markers say '{fit.paper.id}': the sheet is damaged or "
            "not sheetsmith's",
        )
    if user_layout is not None:
        if sc.layout_id != user_layout.id.lower():  # a code holds ids in upper case, parsed back in lower
            raise PhotoError(
                display,
                f"the photo shows a sheet of layout '{sc.layout_id}', not '{user_layout.id}' as --layout {layout_arg} "
                "says",
            )
        return user_layout
    lay = candidates.with_id(sc.layout_id)
    if lay is not None:
        return lay  # when the code's geometry hash differs, another version: the hash check reports it
    raise PhotoError(
        display,
        f"the sheet's layout '{sc.layout_id}' is not a shipped layout; name its file with --layout FILE",
    )


def _check_print(
    gray: np.ndarray,
    fits: tuple[SheetFit, ...],
    blur: float,
    scene: Scene,
    candidates: _Candidates,
    display: str,
    layout_arg: str | None,
) -> None:
    """With ``--layout`` and no code read: refuse the photo when, where another shipped layout's print differs from
    the named layout's, the photo shows the other's (:mod:`.printmatch`); the message names both.

    The photo is compared on the page as each of ``fits`` puts it: the markers' flat page, and the fit on the named
    layout's own grid, which follows a bent sheet but is drawn towards the named layout where the grids differ.

    Raises:
        PhotoError: another layout's print is preferred (:data:`.printmatch.PRINT_PREFERENCE`); the message names
            it as the one printed from :data:`.printmatch.PRINT_CLEAR`.
    """
    from generator.reader.printmatch import PRINT_CLEAR, PRINT_PREFERENCE, preferences

    named = candidates.user_layout
    if named is None:
        return
    paper = fits[0].paper
    digest = geometry_hash(scene)
    others: dict[str, tuple[Scene, tuple]] = {}
    for lay in candidates.others().values():
        other = scene_for(lay, paper)
        other_digest = geometry_hash(other)
        if other_digest != digest:
            others[lay.id] = (other, (lay.id, lay.source, other_digest, paper.id))
    if not others:
        return
    named_page = (scene, (named.id, named.source, digest, paper.id))
    found = []
    for fit in fits:
        prefer = preferences(gray, fit, blur, named_page, others)
        found += [(score, name) for name, score in prefer.items()]
    score, best = max(found)
    if score > PRINT_CLEAR:
        raise PhotoError(
            display,
            f"the sheet's print is that of layout '{best}', not '{named.id}' as --layout {layout_arg} says (its code "
            f"cannot be read, and where the two layouts differ the photo shows '{best}'): give --layout {best}",
        )
    if score > PRINT_PREFERENCE:
        raise PhotoError(
            display,
            f"the sheet's code cannot be read, and its print does not show clearly that it is layout '{named.id}' as "
            f"--layout {layout_arg} says (it may be '{best}'): lay the sheet flat and take the photo again, with its "
            "code (the QR square bottom right) uncovered",
        )


# --- deciding -------------------------------------------------------------------------------------


def _levels(kind: str, per_space_max: list[float], floor: float | None = None) -> tuple[float, float, float]:
    """(blank level, sure level, typical mark) for a kind on this sheet (``floor``: instead of the kind's)."""
    floor = FLOOR[kind] if floor is None else floor
    clear = [v for v in per_space_max if v >= 2.5 * floor]
    if len(clear) >= 3:
        mark = float(median(clear))
    else:  # too few clear marks to measure the hand: the assumed mark, or theirs when darker (a nearly empty sheet
        # in pen: the print's faint residue around a blank suit must not pass for a light pencil circle)
        mark = max([DEFAULT_MARK[kind], float(median(clear))] if clear else [DEFAULT_MARK[kind]])
    mark = max(mark, 3 * floor)
    return max(floor, BLANK[kind] * mark), max(1.5 * floor, SURE[kind] * mark), mark


def _ring_sectors(inks, name: str, suits) -> list[float]:
    """A space's ring sector means (its suits' twelve each, NaN left out), sorted."""
    return sorted(v for k in suits for v in (inks[("suit", name, k)].sectors or ()) if v == v)


def _lower_quartile(values: list[float]) -> float:
    """The lower quartile of sorted ``values`` (0 when there are none)."""
    return float(values[(len(values) - 1) // 4]) if values else 0.0


def _broken_row(items: list[tuple[int, float, float]], blank: float, what: str) -> str:
    """Why a row of chip circles or spent boxes ``(number, ink, peak)`` cannot be counted: some of its targets
    measure lighter than blank paper by a blank level or more (:data:`LIGHTER_THAN_PAPER`), so the paper's
    brightness there is misjudged — a sheet curling off the table, its shade changing within millimetres — and a
    filled circle there can measure as blank; ``""`` when none does."""
    broken = [i for i, v, _ in items if v < -LIGHTER_THAN_PAPER * blank]
    if not broken:
        return ""
    return (
        f"{what} {span_text(broken)} measure lighter than the paper around them (the sheet not flat there?): count them"
    )


def _past_edge(inks, name: str, ranks: dict[str, float], base: float, sure: float, blur: float) -> dict[str, float]:
    """A space's rank inks over its blank level ``base`` (``ranks``), with a box that a clearly ticked neighbour's
    tick runs on into measured in its half away from that neighbour (:attr:`~.marks.TargetInk.halves`) where that is
    less; ``blur``: the photo's softness (mm).

    A tick that runs on past the edge of its box leaves a quarter to a half of a tick's ink in the next box, all in
    the half facing it, which would make that box unsure ("rank K: faint" beside a clear Q).  It is
    taken for the clear tick's run-on only when all of these hold (:data:`RUN_ON`): the box is beside the ticked
    one in its row; it holds less than half of that tick's ink; a stroke as dark as half the tick's strokes crosses
    the gap between the two boxes (:attr:`~.marks.TargetInk.crossing`: a run-on tick crosses at about 0.7–0.8 of
    them, a second tick drawn beside the edge at about 0.2 or less); and the photo is sharp enough
    (blur at most :data:`RUN_ON_BLUR`) that a tick drawn beside the gap does not blur across it.  A second tick
    of the box's own, even one hugging the edge, does not cross the gap, and holds its ink in the far half too."""
    top = max(ranks, key=ranks.__getitem__)
    if ranks[top] < sure or blur > RUN_ON_BLUR:
        return ranks
    t0 = inks[("rank", name, top)]
    out = dict(ranks)
    for k in ranks:
        ti = inks[("rank", name, k)]
        t = ti.target
        dx = t.x - t0.target.x
        if (
            k == top
            or ti.halves is None
            or t0.crossing is None
            or ranks[k] >= 0.5 * ranks[top]
            or abs(t.y - t0.target.y) >= 0.5 * t.h
            or not 0 < abs(dx) < 1.6 * t.w
        ):
            continue
        if (t0.crossing[1] if dx > 0 else t0.crossing[0]) >= RUN_ON * t0.peak:
            out[k] = min(ranks[k], (ti.halves[1] if dx > 0 else ti.halves[0]) - base)
    return out


RUN_ON = 0.5
"""A stroke crossing the gap between a ticked box and the next, at least this share of the tick's strokes' darkness
(:attr:`~.marks.TargetInk.peak`), is the tick running on (:func:`_past_edge`)."""

RUN_ON_BLUR = 0.4
"""(mm, the photo's blur sigma) Softer than this, a tick drawn beside the gap between two boxes may blur across it:
a run-on is not told from a second tick, and the box stays unsure."""


def _suit_decisions(
    inks, name: str, raw: dict[str, float], base: float, order: list[str], sb: float, ss: float, sm: float
) -> tuple[dict[str, float], dict[str, Decision], set[str]]:
    """One space's suit decisions over the blank level ``base``: ``(scores, decisions, one-sided suits)``.

    ``raw`` maps each suit to its ring score (:func:`~.marks.ring_score`); ``sb``, ``ss``, ``sm`` are the sheet's
    blank and sure levels and typical circle (:func:`_levels`).  A circled suit's circle reaches into its neighbours'
    rings, so their sectors facing it are left out; a ring inked on one side only beside another inked ring is
    unsure (:func:`_one_sided`)."""
    from generator.reader.marks import DOWN_SECTORS, UP_SECTORS, ring_score

    suits = {k: v - base for k, v in raw.items()}
    rings = dict(suits)  # (before a circled neighbour's sectors are left out: what each ring carries)
    top = max(suits, key=suits.__getitem__)
    if suits[top] >= ss:
        i = order.index(top)
        for j, facing in ((i - 1, DOWN_SECTORS), (i + 1, UP_SECTORS)):
            if 0 <= j < len(order) and order[j] in suits:
                t = inks[("suit", name, order[j])]
                if t.sectors is not None:
                    suits[order[j]] = min(suits[order[j]], ring_score(t.sectors, facing) - base)
    sd = _within(suits, sb, ss, sm, unsure_share=0.35)  # rings pick up more from their neighbours
    sided = set()
    for k, d in sd.items():
        # (only where another ring of the space carries ink too: a lone circle with its gap on one side is read)
        if (
            d.marked
            and max((v for j, v in rings.items() if j != k), default=0.0) >= 2 * sb
            and _one_sided(inks[("suit", name, k)], suits[k], base)
        ):
            sd[k] = Decision(None, d.ink, 0.0)
            sided.add(k)
    return suits, sd, sided


def decide(layout: AllInLayout, m: Measurement) -> tuple[dict[Coord, CellReading], CountReading, CountReading]:
    """Turn the measured inks into cell readings and chip counts (see the module docstring)."""
    from generator.core.cards import SUITS

    inks = m.inks
    cells = sorted(layout.grid.writable, key=lambda c: (c[1], c[0]))
    names = {c: cell_name(c) for c in cells}
    rank_of = {c: {k: inks[("rank", names[c], k)].ink for k in _keys(inks, "rank", names[c])} for c in cells}
    suit_of = {c: {k: inks[("suit", names[c], k)].ink for k in _keys(inks, "suit", names[c])} for c in cells}
    value_of = {c: inks[("value", names[c], "")].ink for c in cells if ("value", names[c], "") in inks}
    # each space's blank level is its boxes' median (one of thirteen at most is ticked)
    lift = {c: max(v.values()) - float(median(list(v.values()))) for c, v in rank_of.items()}
    rb, rs, rm = _levels("box", list(lift.values()))
    # the hand's circles are measured where a card was written (its value, or a rank clearly ticked): on a nearly
    # empty sheet in a soft photo the print's residue round the blank suits (about 0.06-0.07) can outnumber the one
    # real circle (about 0.27), pass for the typical circle, and set the sure level so low that it counts as a circle
    held = [c for c in cells if value_of.get(c, 0.0) >= VALUE_WRITTEN or lift[c] >= rs]
    sb, ss, sm = _levels("ring", [max(suit_of[c].values()) for c in held])
    usual_base = float(median([median(list(v.values())) for v in rank_of.values()]))  # blank boxes, in any space
    sectors_of = {c: _ring_sectors(inks, names[c], suit_of[c]) for c in cells}
    usual_quartile = float(median([_lower_quartile(v) for v in sectors_of.values()]))  # blank rings, in any space
    order = [s for s in SUITS]
    out: dict[Coord, CellReading] = {}
    judged: dict[Coord, tuple[dict, dict, dict, dict]] = {}
    one_sided: dict[Coord, set[str]] = {}
    crossed: dict[Coord, set[str]] = {}
    between: dict[Coord, dict[str, str]] = {}
    for c in cells:
        # this space's own blank level: most of its rank boxes and ring sectors are blank
        rank_base = float(median(list(rank_of[c].values())))
        sectors = sectors_of[c]
        suit_base = float(median(sectors)) if sectors else 0.0
        # ... unless the median itself is ink: a value written large across the suit column inks half the sectors or
        # more, and a median lifted by it hides a clear circle beside it (10♠ read 10♥).  Far over the lower
        # quartile (:data:`QUARTILE_SWITCH`) the quartile is the blank level; a little over it (:data:`QUARTILE_DOUBT`)
        # either may be, and a suit decided differently by the two, clearly inked over the quartile, is unsure
        quartile = _lower_quartile(sectors)
        why = hidden_reason(
            _seen_enough([inks[k] for k in inks if k[0] in ("rank", "suit") and k[1] == names[c]]), "space"
        )
        if why:
            out[c] = CellReading(names[c], c, "uncertain", None, 0.0, why, {}, {})
            continue
        if rank_base - usual_base > max(
            rb, 0.3 * rm
        ):  # blank boxes carrying ink: the space was not lined up with the photo
            out[c] = CellReading(
                names[c], c, "uncertain", None, 0.0, "the space could not be lined up with the photo", {}, {}
            )
            continue
        if (
            quartile - usual_quartile >= COLUMN_INKED * sb
        ):  # three quarters of the suit column inked: no blank level left
            out[c] = CellReading(
                names[c],
                c,
                "uncertain",
                None,
                0.0,
                "the suits are written over (the value across them?): which suit is circled?",
                {},
                {},
            )
            continue
        ranks = _past_edge(inks, names[c], {k: v - rank_base for k, v in rank_of[c].items()}, rank_base, rs, m.blur_mm)
        rd = _within(ranks, rb, rs, rm)
        ring_lift = suit_base - quartile
        ring_base = quartile if ring_lift >= QUARTILE_SWITCH * sb else suit_base
        suits, sd, sided = _suit_decisions(inks, names[c], suit_of[c], ring_base, order, sb, ss, sm)
        if QUARTILE_DOUBT * sb <= ring_lift < QUARTILE_SWITCH * sb:
            suits_q, sd_q, sided_q = _suit_decisions(inks, names[c], suit_of[c], quartile, order, sb, ss, sm)
            for k, d in sd.items():
                # (a ring clearly inked over the quartile, twice the blank level: a faint one is the paper's noise)
                if d.marked != sd_q[k].marked and suits_q[k] >= 2 * sb and not (k in sided or k in sided_q):
                    sd[k] = Decision(None, d.ink, 0.0)
                    crossed.setdefault(c, set()).add(k)
                elif k in sided_q and d.marked:
                    sd[k] = Decision(None, d.ink, 0.0)
                    sided.add(k)
        if sided:
            one_sided[c] = sided
        for k, j in _between(inks, names[c], sd, suits, ring_base, order).items():
            sd[k] = Decision(None, sd[k].ink, 0.0)
            between.setdefault(c, {})[k] = j
        judged[c] = (ranks, suits, rd, sd)
    # the sheet's own strokes: how dark the clear ticks are, to tell a rubbed-out mark from a mark
    peak_rank = typical_peak(
        [
            inks[("rank", names[c], k)].peak
            for c, (_, _, rd, _) in judged.items()
            for k, d in rd.items()
            if d.marked and d.ink >= rm * 0.8
        ]
    )
    tops = [
        inks[("rank", names[c], k)].top
        for c, (_, _, rd, _) in judged.items()
        for k, d in rd.items()
        if d.marked and d.ink >= rm * 0.8
    ]
    top_rank = typical_peak([v for v in tops if v == v])  # (NaN: a box without the measure)
    peak_suit = typical_peak(
        [
            inks[("suit", names[c], k)].peak
            for c, (_, _, _, sd) in judged.items()
            for k, d in sd.items()
            if d.marked and d.ink >= sm * 0.8
        ]
    )
    # ... and in luminance (TargetInk.peak_luma): a grey smear of rubbed-out pencil among blue-pen ticks
    clear_r = [(c, k) for c, (_, _, rd, _) in judged.items() for k, d in rd.items() if d.marked and d.ink >= rm * 0.8]
    luma = {
        (c, k): inks[("rank", names[c], k)].ink_luma
        - float(median([inks[("rank", names[c], j)].ink_luma for j in rank_of[c]]))
        for c in judged
        for k in rank_of[c]
    }
    mark_l = (
        float(median([luma[ck] for ck in clear_r])) if _measured(rm, "box") is not None and len(clear_r) >= 3 else None
    )
    peak_rank_l = typical_peak([inks[("rank", names[c], k)].peak_luma for c, k in clear_r])
    ratio_r = hand_ratio(
        [(inks[("rank", names[c], k)].peak, inks[("rank", names[c], k)].peak_luma) for c, k in clear_r]
    )
    ring_light = LIGHT["ring"] * min(1.0, SOFT_MM / max(m.blur_mm, 1e-6))
    for c, (ranks, suits, rd, sd) in judged.items():
        light = set()
        for k, d in rd.items():
            box = inks[("rank", names[c], k)]
            peak = box.peak
            if d.marked and (
                too_light(d.ink, _measured(rm, "box"), peak, peak_rank, LIGHT["box"], STROKE_LIGHT["box"])
                or (
                    greyer(peak, box.peak_luma, ratio_r)
                    and too_light(luma[(c, k)], mark_l, box.peak_luma, peak_rank_l, LIGHT["box"], STROKE_LIGHT["box"])
                )
            ):
                rd[k] = Decision(None, d.ink, 0.0)
                light.add(k)
            elif (
                d.marked is None
                and d.ink >= rb
                and (
                    dark_strokes(peak, peak_rank, STROKE_SURE["box"])
                    or (dark_strokes(box.top, top_rank, STROKE_SURE["box"]) and box.top_span >= TICK_SPAN_MM)
                )
            ):
                rd[k] = Decision(True, d.ink, 0.5)  # (a second tick in the space is then reported as two ranks)
        for k, d in sd.items():
            if d.marked and too_light(
                d.ink,
                _measured(sm, "ring"),
                inks[("suit", names[c], k)].peak,
                peak_suit,
                ring_light,
                STROKE_LIGHT["ring"],
            ):
                sd[k] = Decision(None, d.ink, 0.0)
                light.add(k)
        out[c] = _cell(
            names[c],
            c,
            rd,
            sd,
            value_of.get(c, 0.0),
            light,
            one_sided.get(c, frozenset()),
            crossed.get(c, frozenset()),
            between.get(c, {}),
        )
        out[c].inks = {**ranks, **suits}
    chips_e = sorted(((int(t.target.owner), t.ink, t.peak) for (k, _, _), t in inks.items() if k == "chip_earned"))
    chips_s = sorted(((int(t.target.owner), t.ink, t.peak) for (k, _, _), t in inks.items() if k == "chip_spent"))
    chip_luma = {
        (k, int(t.target.owner)): t.peak_luma for (k, _, _), t in inks.items() if k in ("chip_earned", "chip_spent")
    }
    eb, es, em = _levels("bubble", [v for _, v, _ in chips_e])
    # (a lone chip circle, or one beside a single clear one, is judged against the hand's rank ticks, as a lone spent
    # tick is below: with no row to compare with, a circle rubbed out to a third or a half of its graphite would count)
    earned = _count(
        _luma_light(
            _light_decisions(
                chips_e,
                eb,
                es,
                em,
                LIGHT["bubble"],
                STROKE_LIGHT["bubble"],
                fallback=peak_rank,
                fallback_luma=peak_rank_l,
                lumas=[chip_luma[("chip_earned", i)] for i, _, _ in chips_e],
            ),
            [(p, chip_luma[("chip_earned", i)]) for i, _, p in chips_e],
            em,
            STROKE_LIGHT["bubble"],
        ),
        "chip circles",
    )
    hidden_e = hidden_reason([t for (k, _, _), t in inks.items() if k == "chip_earned"], "chip circles") or _broken_row(
        chips_e, eb, "chip circles"
    )
    hidden_s = hidden_reason([t for (k, _, _), t in inks.items() if k == "chip_spent"], "spent boxes")
    if hidden_e:  # the spent boxes are read against the circles above them
        earned = CountReading(None, 0.0, hidden_e, earned.marked, earned.unsure)
        hidden_s = hidden_s or "the chip circles above the spent boxes cannot be read"
    pb, ps, pm = _levels("spent", [v for _, v, _ in chips_s])
    hidden_s = hidden_s or _broken_row(chips_s, pb, "spent boxes")
    spent_light = min(LIGHT_SOFT_CAP, LIGHT["spent"] + LIGHT_SOFT["spent"] * max(0.0, m.blur_mm - SOFT_MM))
    # (a lone spent tick has no row to be compared with: the sheet's rank ticks, drawn by the same hand, tell a
    # rubbed-out one, which on its own (half its graphite left) would count)
    spent_ink = {int(t.target.owner): t for (k, _, _), t in inks.items() if k == "chip_spent"}
    # (a spent mark greyer than the row's clear ones is of another instrument: its ridge is not held against theirs)
    ratio_s = hand_ratio([(p, chip_luma[("chip_spent", i)]) for i, v, p in chips_s if v >= 0.8 * pm and v >= ps])
    ridges = [
        float("nan") if greyer(p, chip_luma[("chip_spent", i)], ratio_s) else spent_ink[i].ridge for i, _, p in chips_s
    ]
    spent = _count(
        _luma_light(
            _light_decisions(
                chips_s,
                pb,
                ps,
                pm,
                spent_light,
                STROKE_LIGHT["spent"],
                STROKE_SURE["spent"],
                fallback=peak_rank,
                tops=[spent_ink[i].stroke for i, _, _ in chips_s],
                ridges=ridges,
                fallback_luma=peak_rank_l,
                lumas=[chip_luma[("chip_spent", i)] for i, _, _ in chips_s],
                spans=[spent_ink[i].stroke_span for i, _, _ in chips_s],
            ),
            [(p, chip_luma[("chip_spent", i)]) for i, _, p in chips_s],
            pm,
            STROKE_LIGHT["spent"],
        ),
        "spent boxes",
    )
    m.levels = {"rank": (rb, rs, rm), "suit": (sb, ss, sm), "chip": (eb, es, em), "spent": (pb, ps, pm)}
    if hidden_s:
        spent = CountReading(None, 0.0, hidden_s, spent.marked, spent.unsure)
    return out, earned, _spent_within(earned, spent)


def _spent_within(earned: CountReading, spent: CountReading) -> CountReading:
    """``spent``, or unsure when more boxes are read spent than chip circles filled."""
    if earned.value is not None and spent.value is not None and spent.value > earned.value:
        return CountReading(
            None,
            0.0,
            f"{spent.value} spent boxes ticked but only {earned.value} chip circles filled",
            spent.marked,
            spent.unsure,
        )
    return spent


def decide_model(
    layout: AllInLayout,
    m: Measurement,
    prob: dict[tuple[str, str, str], float] | None = None,
    bands: dict[str, tuple[float, float]] | None = None,
) -> tuple[dict[Coord, CellReading], CountReading, CountReading]:
    """:func:`decide` by the model reader (:mod:`generator.reader.model`): each target marked, blank or unsure by its
    kind's probability and band; the cards, counts and what cannot be seen decided as :func:`decide` does.

    Args:
        prob, bands: the targets' probabilities and the kinds' ``(blank, marked)`` bands, when not the shipped
            model's (training sets the bands with them).

    Raises:
        ValueError: the shipped weights were trained on other features than the reader measures.
    """
    from generator.reader.model import forests, probabilities

    inks = m.inks
    cells = sorted(layout.grid.writable, key=lambda c: (c[1], c[0]))
    names = {c: cell_name(c) for c in cells}
    prob = probabilities([names[c] for c in cells], m) if prob is None else prob
    bands = {kind: forest.band for kind, forest in forests().items()} if bands is None else bands

    def decision(key: tuple[str, str, str]) -> Decision:
        blank, marked = bands[key[0]]
        p = prob[key]
        if p >= marked:
            return Decision(True, inks[key].ink, p)
        if p <= blank:
            return Decision(False, inks[key].ink, 1.0 - p)
        return Decision(None, inks[key].ink, 0.0)

    out: dict[Coord, CellReading] = {}
    for c in cells:
        n = names[c]
        why = hidden_reason(_seen_enough([inks[k] for k in inks if k[0] in ("rank", "suit") and k[1] == n]), "space")
        if why:
            out[c] = CellReading(n, c, "uncertain", None, 0.0, why, {}, {})
            continue
        rd = {k: decision(("rank", n, k)) for k in _keys(inks, "rank", n)}
        sd = {k: decision(("suit", n, k)) for k in _keys(inks, "suit", n)}
        value = inks[("value", n, "")].ink if ("value", n, "") in inks else 0.0
        out[c] = _cell(n, c, rd, sd, value)
        out[c].inks = {k: prob[("rank", n, k)] for k in rd} | {k: prob[("suit", n, k)] for k in sd}

    def row(kind: str, what: str, above: str = "") -> tuple[CountReading, str]:
        """A row's count, and why it cannot be read (``above``: why the row above it cannot)."""
        nums = sorted(int(o) for (k, o, _) in inks if k == kind)
        counted = _count([(i, decision((kind, str(i), ""))) for i in nums], what)
        why = hidden_reason([inks[(kind, str(i), "")] for i in nums], what)
        why = why or ("the chip circles above the spent boxes cannot be read" if above else "")
        return (CountReading(None, 0.0, why, counted.marked, counted.unsure) if why else counted), why

    earned, hidden_e = row("chip_earned", "chip circles")
    spent, _ = row("chip_spent", "spent boxes", hidden_e)  # (read against the circles above them)
    return out, earned, _spent_within(earned, spent)


LIGHT = {"box": 0.62, "ring": 0.45, "bubble": 0.62, "spent": 0.62}
"""A mark is *too light* — uncertain, never counted — when its ink is below this share of the sheet's typical mark
of its kind and its darkest strokes are below this share of the sheet's own strokes, or when its darkest strokes
alone are (a rubbed-out mark smeared over its box can hold as much ink as a light tick): what
an eraser leaves (15–60 % of the graphite) is lighter than every mark the same hand made.  A tick that
mostly misses its box still has strokes as dark as the others; a rubbed-out one does not."""

STROKE_KEPT = 0.67
"""A spent tick whose strokes' top (:attr:`~.marks.TargetInk.stroke`) is below this share of the row's clear ticks'
is too light: unsure, never counted.  An eraser leaves at most 60 % of the graphite (what is left of a rubbed-out
mark ranges over 15–60 %), and a hand's marks vary ±10 % in pressure around its median, so what is left of a mark
reaches 0.6 / 0.9 = 0.67 of the row's typical top.  The top, unlike the ink or a quantile of the strokes, does not
fall with how little of the box a mark covers, so a light real tick keeps it.  In a 1920 × 1080 photo, where blur
hides the eraser's smear, a tick rubbed out to 60 % tops at about 0.61 of the row's, though its ink and darkest
strokes can pass :data:`LIGHT`'s shares; a real tick tops under 0.67 only rarely (it is then unsure, flagged for a
person, never wrong).  With fewer than two clear ticks in the row :data:`LIGHT` still decides."""

RIDGE_KEPT = 0.70
"""A spent tick whose top is under :data:`STROKE_KEPT` of the row's clear marks' is still kept when its strokes' ridge
(:attr:`~.marks.TargetInk.ridge`: the median darkness along their crests) reaches this share of theirs.  In a soft
photo a cross's strokes add up where they meet, so a tick beside crosses can top at 0.62–0.67 of them though drawn
as hard, and by its top alone would be "spent box unclear".  Along the strokes both are one stroke's darkness:
such ticks nearly all reach 0.71–0.89 in ridge.  What an eraser leaves (at most 60 % of the graphite, a hand's
pressure ±10 %) reaches 0.6 / 0.9 = 0.67 at most, and a rubbed-out spent tick stays under about 0.62 in top and
0.66 in ridge; a mark is counted only when it passes one of the two.  Only a mark of the row's own instrument is
kept so: a mark greyer than the row's clear marks (:func:`greyer`) is judged by its top alone.  A much darker
pencil pressed hard and rubbed out to 60 % beside a light blue pen row pressed lightly keeps 0.77–0.84 of the row's
ridge, and would count."""

STROKE_NONE = 0.33
"""A spent box with some ink but not enough to say (between the blank and the sure level) is blank when its strokes'
top is under this share of the row's clear ticks': no stroke is there, only the paper's noise or a mark rubbed out
to a third (blank, as a player who rubbed it out meant).  A real tick keeps 0.59 of the row's top or more; a blank
box that measures some ink tops at about 0.14 to 0.40 (over a third it stays unsure, unless past a blank box:
:data:`GAP_NONE`).
Not for a rank box beside its space's clear tick: a second tick in another instrument (a pencil tick beside a
black pen's) can top under a third of it, and is unsure, never blank."""

LIGHT_SOFT = {"spent": 0.5}
"""(Only for a spent row with fewer than two clear ticks that measure a top, judged by :data:`LIGHT`.)
How much the too-light share (:data:`LIGHT`, ink and strokes both) of a spent tick widens per mm of blur beyond
:data:`SOFT_MM` (up to :data:`LIGHT_SOFT_CAP`).  In a sharp photo a rubbed-out tick's strokes show the eraser's
smear and fall well under the sheet's own; in a soft one the photo's blur hides that smear, and what is left
(up to 60 % of the graphite, plus the smudge and the photo's noise, which lift a faint mark's measures more than a
dark one's) reaches 0.71 of the sheet's ticks in ink and strokes alike (a 1920 × 1080 photo, blur 0.5 mm),
while the lightest real ticks there keep one of the two above about 0.72.  A light real tick caught
by the wider share is unsure, flagged: never a rubbed-out tick counted."""

LIGHT_SOFT_CAP = 0.75
"""The too-light share never widens past this (a real tick's ink or strokes stay above it)."""

SOFT_MM = 0.3
"""In a photo softer than this (blur sigma, mm on the page; a pen's stroke is 0.3–0.5 mm wide) a circle's ring ink
and strokes depend on how tight and how thick it is drawn, more than on how hard: the suit circles' too-light share
(:data:`LIGHT`) shrinks in proportion (a rubbed-out circle beside the space's own is still left out by
:func:`_within`, and a space rubbed out whole is still caught by its rank's tick, whose share stays)."""

STROKE_LIGHT = {"box": 0.5, "ring": 0.0, "bubble": 0.7, "spent": 0.62}
"""A mark whose darkest strokes alone are below this share of the sheet's own strokes is too light, whatever its
ink.  Higher for chip circles: a bubble, full or half filled, has strokes as dark as the others, while 60 % of a
rubbed-out bubble's graphite, smeared, reaches two thirds of their ink.  Lower for rank ticks: the darkest part of
a thin tick varies by a third with how it crosses its box (a tick with a full box's ink but strokes at 0.6 of the
others is a tick; a rubbed-out one is light in both, and :data:`LIGHT` takes it).  Not for suit circles (0: never
alone):
a circle's strokes are measured only beside the symbol, where a tight, oval or gapped circle shows little of
them in a soft photo, while its ring ink, taken all round, is sure; and a rubbed-out circle has little ring ink
(a rubbed-out circle beside the space's clear one is left out, or makes the space uncertain, by :func:`_within`)."""


def _measured(mark: float, kind: str) -> float | None:
    """The typical mark when it was measured on this sheet (``None`` when assumed: too few clear marks;
    with one or two clear marks it is theirs, but :func:`typical_peak` then has too few to tell a light mark)."""
    return None if mark == max(DEFAULT_MARK[kind], 3 * FLOOR[kind]) else mark


def _light_decisions(
    items: list[tuple[int, float, float]],
    blank: float,
    sure: float,
    mark: float,
    share: float,
    stroke_share: float | None = None,
    stroke_sure: float | None = None,
    fallback: float | None = None,
    tops: list[float] | None = None,
    ridges: list[float] | None = None,
    fallback_luma: float | None = None,
    lumas: list[float] | None = None,
    spans: list[float] | None = None,
) -> list[tuple[int, Decision]]:
    """Decisions for a row of chip circles or spent boxes ``(number, ink, peak)``: too-light marks unsure, and
    (with ``stroke_sure``) unsure ones with strokes as dark as the sheet's marked (:data:`STROKE_SURE`).

    ``fallback``: the hand's stroke darkness from the sheet's other marks (its rank ticks), for telling a light
    mark when the row has fewer than two clear marks of its own; used only to make a mark unsure, never to count one.
    ``fallback_luma``: the same in luminance, and ``lumas`` each target's strokes in luminance
    (:attr:`~.marks.TargetInk.peak_luma`, in the order of ``items``): a mark judged against the rank ticks is too
    light only when it is in luminance too.  A blue pen's filled circle shows its strokes lighter than the same pen's
    ticks in the brightest channel (about 0.26 against 0.39: enough to make a lone chip a "?"), and as dark in
    luminance (about 0.58 against 0.52-0.61); a rubbed-out mark is light in both.
    ``tops``: for spent boxes, each box's strokes' top (:attr:`~.marks.TargetInk.stroke`), in the order of
    ``items``.  With two clear marks in the row besides it that measure one, a marked box is too light exactly when its
    top is below :data:`STROKE_KEPT` of theirs (the median of the others, never counting the box itself) and its
    strokes' ridge (``ridges``, :attr:`~.marks.TargetInk.ridge`, in the same order) below :data:`RIDGE_KEPT` of theirs,
    whatever its ink and ``peak``; without, as :func:`too_light` says.
    An unsure box whose top is below :data:`STROKE_NONE` of theirs is blank, and a box under :data:`STROKE_KEPT` is
    never counted for its dark strokes (``peak``) alone; an unsure box whose top reaches :data:`TOP_SURE` of theirs,
    its ridge kept and its stroke reaching :data:`TOP_SURE_SPAN_MM` (``spans``,
    :attr:`~.marks.TargetInk.stroke_span`, in the order of ``items``), is marked; a marked box whose stroke through
    its top reaches less than :data:`TICK_REACH_MM` is unsure.
    """
    out = [(i, decide_ink(v, blank, sure, mark)) for i, v, _ in items]
    # two clear marks already give the hand's stroke: a row often holds only two or three (chips spent), and
    # a rubbed-out third, its ink smeared wide, shows its light strokes only against them
    clear = [k for k, ((i, v, p), (_, d)) in enumerate(zip(items, out)) if d.marked and v >= 0.8 * mark]
    level = typical_peak([items[k][2] for k in clear], least=2)
    light_level = level if level is not None else fallback
    strengths: list[float | None] = []  # each mark's strokes against the row's clear marks' (for _past_gap)
    for k, ((i, v, p), (_, d)) in enumerate(zip(items, out)):
        # (the row's top without the box judged: a rubbed-out tick smeared wide holds a clear tick's ink, so it is
        # among the row's clear marks, and beside two real ticks it would be the median it is held against, and count)
        top_level = typical_peak([tops[j] for j in clear if j != k and tops[j] == tops[j]], least=2) if tops else None
        # (top_level is None without tops)
        top = (
            tops[k] / top_level
            if tops is not None and top_level is not None and top_level > 0.0 and tops[k] == tops[k]
            else None
        )
        strengths.append(top if tops else (p / level if level else None))
        # (no top to judge by: too few clear marks; then the ink and strokes, when the sheet gives a peak level)
        light = (
            top < STROKE_KEPT and not _ridge_kept(k, clear, ridges)
            if top is not None
            else too_light(v, mark, p, light_level, share, stroke_share)
        )
        if light and top is None and level is None and fallback_luma is not None and lumas and lumas[k] == lumas[k]:
            light = too_light(v, mark, lumas[k], fallback_luma, share, stroke_share)
        if d.marked and light:
            out[k] = (i, Decision(None, v, 0.0))
        elif d.marked is None and dark_strokes(p, level, stroke_sure) and not light:
            out[k] = (i, Decision(True, v, 0.5))
        elif (
            d.marked is None
            and top is not None
            and top >= TOP_SURE
            and _ridge_kept(k, clear, ridges)
            and spans is not None
            and spans[k] >= TOP_SURE_SPAN_MM
        ):
            out[k] = (i, Decision(True, v, 0.5))  # a tick of the row's own hand that mostly misses its box
        elif d.marked is None and top is not None and top < STROKE_NONE:
            out[k] = (i, Decision(False, v, 0.5))  # no stroke there: the paper's noise, or what an eraser left of one
        elif d.marked is False and stroke_sure is not None and dark_strokes(p, level, STROKE_SEEN):
            # strokes in the box's window, yet little ink in it: a tick that mostly misses its box (never one whose
            # top says it was rubbed out)
            sure_ = dark_strokes(p, level, stroke_sure) and not light
            out[k] = (i, Decision(True, v, 0.5) if sure_ else Decision(None, v, 0.0))
        if out[k][1].marked and spans is not None and spans[k] < TICK_REACH_MM:
            out[k] = (i, Decision(None, v, 0.0))  # a dot or a compact smudge, not a tick's stroke
    return _past_gap(out, strengths, GAP_NONE if tops is not None else None)


GAP_NONE = 0.45
"""An unsure spent box past a blank one is blank when its strokes' top is under this share of the row's clear
ticks' (:func:`_past_gap`): a real spent tick tops 0.59 of its row's or more, and a mark there counts only from 0.85
(:data:`GAP_KEPT`) anyway.  In a blank box past the row's last tick the paper's noise can top over a third of the
row's (past :data:`STROKE_NONE`, as with a blue pen in a 1080 × 1920 photo), and without this would leave the count
"?"."""


TOP_SURE = 0.80
"""An unsure spent box (ink between its blank and sure levels) is marked when its strokes' top reaches this share of
the row's other clear ticks' and its ridge is kept (:data:`RIDGE_KEPT`): a tick that mostly misses its box, drawn
as hard as the others.  Such a tick tops at about 0.83–0.94 of the row's, its ridge at 0.73–0.86, while its
darkest 10 % can fall short of :data:`STROKE_SURE`, which alone would leave it unsure.  What an eraser leaves tops
at 0.67 at most (:data:`STROKE_KEPT`), a rubbed-out spent tick left unsure nearly always under 0.6 and very rarely
past 0.7.  But what an eraser pushes into a compact grey smudge can top as high as a tick (a tick rubbed out to
35 %, nine tenths of it pushed into a blob 0.4 by 0.2 mm, tops about 0.94 of the row's in a 12 MP photo): so the
stroke through the top must also reach :data:`TOP_SURE_SPAN_MM`.  A box past a blank one must still reach
:data:`GAP_KEPT`."""

TICK_REACH_MM = 1.5
"""A spent box marked by its ink is still unsure when the stroke through its top (:attr:`~.marks.TargetInk.stroke_span`)
reaches less than this (mm): a dot, or what an eraser pushed into a compact smudge, not a tick.  Dots, blobs and
compact rubbed-out graphite reach about 1.1–1.4 mm, even where their darkness passes for a tick's; a real tick
reaches 2.2 mm or more, save very rarely a short tick across the box's corner in a 1280 × 720 photo (about 1 mm),
which is then unsure, never miscounted.  A longer smudge is not told from a tick by its reach."""

TOP_SURE_SPAN_MM = 2.5
"""How far (mm) the stroke through an unsure spent box's top must reach (:attr:`~.marks.TargetInk.stroke_span`) for
:data:`TOP_SURE` to count it: a tick that mostly misses its box still reaches 3.0 mm or more (about 3.0–4.4 mm,
the ones counted by their top 3.3–4.1 mm), a compact smudge 1.2–1.4 mm."""

GAP_KEPT = 0.85
"""A chip circle or spent box marked further along its row than a blank one counts only when its strokes reach this
share of the row's clear marks' (their top for spent boxes, :data:`STROKE_KEPT`; their darkest strokes for chip
circles); else it is unsure.  A row is filled from its start, chip by chip, so a mark past a gap is most often
what an eraser left of a mark made too far along: a spent tick rubbed out past a blank box can top 0.71 of the
row's, as dark as the row's lightest real tick (0.73), and would count one chip too many.  A hand's marks vary by
about a tenth round their median.

A blank target before a mark that counts is unsure too: a row filled from its start has no blank before its last
mark, so one read blank there is most often a mark the reader missed (where a strongly curled sheet, edges lifted
15–35 mm, lifts off the table, a filled chip circle can measure as blank paper beside the filled ones, and the count
would be one short), or it is a player's slip a person should see."""


def _past_gap(
    out: list[tuple[int, Decision]], strengths: list[float | None], none_below: float | None = None
) -> list[tuple[int, Decision]]:
    """The decisions ``out`` of a row (:func:`_light_decisions`, targets in row order), with every mark past a blank
    target made unsure unless its ``strengths`` entry (its strokes as a share of the row's clear marks': the top
    against the others' for a spent box, the darkest strokes against the row's for a chip circle; ``None`` when the
    row has too few clear marks to compare with, and then left as it is) reaches :data:`GAP_KEPT`, every unsure
    target past a blank one whose strength is under ``none_below`` (a spent row: :data:`GAP_NONE`) made blank, and
    then every blank target before the last mark still kept made unsure.

    (An unsure spent box *before* the row's clear ticks is not counted for the row's order: a tick rubbed out in
    the middle of the row, a stray stroke in a skipped box or in box 1, and a tick running on into a skipped box
    would each make the count one too high.)"""
    gap = False
    for k, ((i, d), strength) in enumerate(zip(out, strengths)):
        if d.marked is False:
            gap = True
        elif d.marked and gap and strength is not None and strength < GAP_KEPT:
            out[k] = (i, Decision(None, d.ink, 0.0))
        elif d.marked is None and gap and none_below is not None and strength is not None and strength < none_below:
            out[k] = (i, Decision(False, d.ink, 0.5))  # no stroke there, and past a gap a mark would not count
    # a blank target before a mark the row keeps is not believed either (:data:`GAP_KEPT`): unsure
    last = max((k for k, (_, d) in enumerate(out) if d.marked), default=-1)
    for k in range(last):
        i, d = out[k]
        if d.marked is False:
            out[k] = (i, Decision(None, d.ink, 0.0))
    return out


def _ridge_kept(k: int, clear: list[int], ridges: list[float] | None) -> bool:
    """Whether box ``k``'s strokes' ridge reaches :data:`RIDGE_KEPT` of the median of the row's other clear marks'
    (``clear``: indices into ``ridges``; at least two that measure one), so that a top under :data:`STROKE_KEPT` is
    a single stroke beside crosses, not a mark rubbed out."""
    if not ridges or ridges[k] != ridges[k]:
        return False
    level = typical_peak([ridges[j] for j in clear if j != k and ridges[j] == ridges[j]], least=2)
    return level is not None and level > 0.0 and ridges[k] >= RIDGE_KEPT * level


def _luma_light(
    decisions: list[tuple[int, Decision]], peaks: list[tuple[float, float]], mark: float, share: float
) -> list[tuple[int, Decision]]:
    """The decisions for a row of chip circles or spent boxes (:func:`_light_decisions`), with every marked one
    that is greyer than the row's other marks (:func:`greyer`) and whose strokes are far lighter than theirs in
    luminance made unsure.

    ``peaks`` are the targets' ``(peak, peak_luma)`` (:class:`~.marks.TargetInk`), in the order of
    ``decisions``.  The brightest-channel darkness the marks are read by keeps the pale blue print out, but it
    sees blue ink only middling dark: a grey smear of graphite left by an eraser (60 % of a pencil's) matched a
    blue pen's filled circles there, and would count as a chip.  In luminance the
    pen's marks are far darker than the smear, so a greyer mark below ``share`` of the row's typical luminance
    strokes (the median over its clearly marked targets, at least two) is too light, as :data:`LIGHT` says.  A
    row in one pencil or one pen has no greyer mark, so nothing changes for it.
    """
    clear = [pair for (_, d), pair in zip(decisions, peaks) if d.marked and d.ink >= 0.8 * mark]
    level = typical_peak([pl for _, pl in clear if pl == pl], least=2)
    ratio = hand_ratio(clear)
    if level is None or level <= 0.0:
        return decisions
    return [
        (i, Decision(None, d.ink, 0.0)) if d.marked and greyer(p, pl, ratio) and pl < share * level else (i, d)
        for (i, d), (p, pl) in zip(decisions, peaks)
    ]


COLUMN_INKED = 2.0
"""A space whose ring sectors' lower quartile stands this many blank levels over the sheet's usual one (three
quarters of its suit column inked) is uncertain: no blank level is left to tell a circle from the strokes around it.
A large 10 in black pen, its 0 drawn right round the heart and its 1 over the diamond, beside a circled spade,
puts the quartile some 4.6 blank levels over, and would be read 10♥: over the quartile the heart's ring is the
clearest.  A space with one circle has 36 blank sectors of 48: its quartile is the blank."""

LIGHTER_THAN_PAPER = 1.0
"""A chip circle or spent box that measures lighter than blank paper by this many of its kind's blank level makes its
row uncertain (:func:`_broken_row`): on a strongly curled sheet's chip track, shaded within millimetres, targets
measure down to about -0.38 and filled circles pass for blank (a count read far short, 2 chips for 8).  On a flat
sheet a blank target's ink is within a few hundredths of 0."""

QUARTILE_DOUBT = 1.0
"""Between this many blank levels and :data:`QUARTILE_SWITCH` above the lower quartile of a space's ring sectors,
their median may be ink or blank: the space's suits are decided over both, and a suit decided differently is unsure
("the suits are written over").  A large value's 0 drawn right round the heart (about 2.5 blank levels) puts the
median over a clear club circle: 10♥ for 10♣ over the median, 10♥ and 10♣ both circled over the quartile.  In a
space with one circle 36 of the 48 sectors are blank, and their median and quartile lie within the blank level of
each other.  Only a suit whose ring scores twice the blank level over the quartile is made
unsure so: in a light pencil photo, the blank level at its floor, a ring's noise alone reaches 1.5 of it."""

QUARTILE_SWITCH = 2.5
"""A space's suit rings are measured against the median of their 48 sectors, or against their lower quartile alone
when the median stands this many blank levels (the sheet's ``sb``) or more above it: the median is then ink itself
(a value written large across the suit column inks half the sectors or more, and puts the median some 3 to 5 blank
levels above the quartile), and the quartile's reading names the fault ("not inked all round",
or two suits circled).  Between :data:`QUARTILE_DOUBT` and this, both are tried."""

ONE_SIDED = 0.25
"""A suit whose ring scores as circled is unsure when either side of its symbol (:data:`~.marks.LEFT_SECTORS`,
:data:`~.marks.RIGHT_SECTORS`) holds less than this share of its ring score and another ring of its space carries
ink too (its ring score, counted before a circled neighbour's facing sectors are left out, at twice the blank
level or above).  Even for the space's top ring: the 0 of a "10" running over the spade and the heart, beside a
light club circle, makes the heart the top ring, inked on one side (left out for the top ring, 10♣ would be read
10♥ without a flag); the cost is that a circle drawn wide of the spade and down over the heart, which leaves its
ink in the heart's sectors facing it (0.08–0.15, over twice the blank level), is flagged too.
The strokes of a value written large across the suit column — a 0 running over the heart — ink a ring on the side
they come from only, beside the circle the player drew: 10♠ or 10♣ would be read 10♥ that way, the spade or club
clearly circled.  A circle alone in its space is read even when its gap (or its offset) leaves one side bare, as
circles drawn in one stroke often do."""

SIDES_BARE = 0.5
"""... and unsure too, under the same condition, when neither side of its symbol holds this share of its ring score:
its ink lies above and below the symbol only, as a value's stroke running down the suit column leaves it; a circle
passes by the symbol's sides: its stronger side holds 0.73 of the ring score or more.  A light pencil spade circle
beside a large 10 whose 0 runs down over the heart and the diamond leaves the heart's sides only about 0.34 and 0.26
of its score, the weaker just over :data:`ONE_SIDED`, and would be read 10♥ for 10♠ without a flag."""


def _one_sided(t, score: float, base: float) -> bool:
    """True when the suit target ``t`` (:class:`~.marks.TargetInk`, its ring's sector means) scoring ``score`` over
    its space's blank level ``base`` is inked on one side of its symbol only (:data:`ONE_SIDED`), or on neither
    (:data:`SIDES_BARE`); ``False`` when a side is not measured (masked)."""
    from generator.reader.marks import LEFT_SECTORS, RIGHT_SECTORS

    sec = t.sectors
    if sec is None or score <= 0.0:
        return False
    left = [sec[k] for k in LEFT_SECTORS if sec[k] == sec[k]]
    right = [sec[k] for k in RIGHT_SECTORS if sec[k] == sec[k]]
    if not left or not right:
        return False
    weaker, stronger = sorted((max(left) - base, max(right) - base))
    return weaker < ONE_SIDED * score or stronger < SIDES_BARE * score


def _between(
    inks, name: str, sd: dict[str, Decision], suits: dict[str, float], base: float, order: list[str]
) -> dict[str, str]:
    """The space's circled suits whose circle sits between them and a neighbour, each mapped to that neighbour.

    A circle drawn round a symbol passes on its far side too; one drawn off towards the next symbol, half way or more,
    leaves the far side of the ring blank (its strongest sector there under :data:`BETWEEN_FAR` of the ring's score
    over ``base``) while the neighbour's ring is crossed hard on the side facing it (its strongest sector there at
    least :data:`BETWEEN_NEIGHBOUR` of that score, counted before :func:`_suit_decisions` left it out).  Then either
    suit may be meant; which ring holds more ink is chance (a circle drawn 0.45–0.5 of the way to the next symbol
    is read as that suit more often than not)."""
    from generator.reader.marks import DOWN_SECTORS, UP_SECTORS

    out = {}
    for k, d in sd.items():
        t = inks[("suit", name, k)]
        score = suits.get(k, 0.0)
        if not d.marked or t.sectors is None or not score > 0.0:
            continue
        i = order.index(k)
        # (the neighbour above: the circle leans up, the far side is the ring's bottom; the neighbour's own bottom faces
        # it)
        for j, side in ((i - 1, DOWN_SECTORS), (i + 1, UP_SECTORS)):
            n = inks.get(("suit", name, order[j])) if 0 <= j < len(order) else None
            if n is None or n.sectors is None:
                continue
            far = [t.sectors[s] - base for s in side if t.sectors[s] == t.sectors[s]]
            near = [n.sectors[s] - base for s in side if n.sectors[s] == n.sectors[s]]
            if far and near and max(far) < BETWEEN_FAR * score and max(near) >= BETWEEN_NEIGHBOUR * score:
                out[k] = order[j]
                break
    return out


BETWEEN_FAR = 0.4
"""A circled suit whose ring's strongest sector on the side away from a neighbour holds less than this share of the
ring's score is drawn off towards that neighbour (:func:`_between`), when :data:`BETWEEN_NEIGHBOUR` holds too."""

BETWEEN_NEIGHBOUR = 1.5
"""... and the neighbour's ring, on its side facing the circled suit, has a sector at least this share of that score:
the circle runs hard through it.  With :data:`BETWEEN_FAR` this catches the circles drawn off by under half the
spacing between two symbols that would be read as the other suit, and flags no circle drawn round its symbol.
Looser levels flag real circles: at 0.5 and 1.0 a circle drawn a little low with its gap on top, crossing the next
ring, is taken for one between two suits (about one circle in a thousand, a few per cent of whole sheets)."""


STROKE_SURE = {"box": 0.75, "spent": 0.75}
"""A box whose ink is between its blank and sure levels (a tick that mostly misses the box, drawn along its
outline or across a corner) is marked when its darkest strokes are at least this share of the sheet's own strokes:
it is a stroke of the same hand, not a smudge, a neighbour's overshoot or a rubbed-out mark (all far lighter, at
most about half).  For a rank box, its strokes' darkness is its darkest 10 % (:attr:`~.marks.TargetInk.peak`) or
its strokes' top (:attr:`~.marks.TargetInk.top`), against the same of the sheet's clear ticks: a thin tick among
bold crosses covers too little of its box for the first (a clear black tick in a 12 MP photo, its ink 0.39 and its
darkest 10 % 0.59 of the sheet's, would be "faint"), not for the second (0.86).  A real tick's top reaches 0.80 of
its sheet's or more in 99 % of cases (about 0.55 at the least), a rubbed-out tick's 0.67 at most, and a rubbed-out
or stray mark in a box left unsure tops about 0.37 at most.  A pen's dot
or a circle's stroke running on into a box tops as high as a tick, so the top counts only for strokes that reach
across the box (:data:`TICK_SPAN_MM`).  Not for suit circles, whose strokes are measured only beside the symbol, nor
chip circles."""

TICK_SPAN_MM = 1.4
"""A rank box's strokes count by their top (:data:`STROKE_SURE`) only when those at least half as dark as the top
reach this far (mm) across the box (:attr:`~.marks.TargetInk.top_span`; the boxes are 2.4 mm, measured about
1.8 mm inside their outline).  Pen dots (0.06–0.4 mm long) and circle ends running into a box span about
0.7–1.0 mm in a 12 MP photo, and by their top alone would be read as ticks (in a space with a value written and a
suit circled but no rank ticked, a card); a thin tick spans about 2 mm, and 99 % of ticks span 1.68 mm or more
(under 1.4 only very rarely, in a 1920 × 1080 photo: such a tick is then judged by its ink and darkest strokes
alone)."""


STROKE_SEEN = 0.5
"""A spent box read blank by its ink, with strokes in and around it at least this share of the sheet's own
(a blank box shows under a fifth), holds a stroke that mostly misses it: marked when as dark as
:data:`STROKE_SURE` says, else unsure — never blank."""


def _seen_enough(targets: list) -> list:
    """A space's targets less a lone rank box whose print alone does not show (:attr:`~.marks.TargetInk.hidden`
    ``"hidden"``, every other box and ring of the space visible): it is judged with the others.

    In a small photo a box's pale outline, a pixel or two off where the grid puts it, can show under half its
    kind's contrast while the space's twelve other boxes show all of theirs (0.95-1.02), and would make the space a
    "?" for nothing.  Judging the box cannot make a card wrong: a card needs one rank ticked, so a
    tick lost there leaves its suit and value without a rank ("?"), and a box taken for ticked beside another
    tick, or alone, is a "?" too.  Glare, a shadow's edge and the photo's edge still hide it (their own reasons)."""
    hidden = [t for t in targets if t.hidden]
    if (
        len(hidden) == 1
        and hidden[0].hidden == "hidden"
        and hidden[0].target.kind == "rank"
        and sum(t.target.kind == "rank" for t in targets) >= 13
    ):
        return [t for t in targets if t is not hidden[0]]
    return targets


def _keys(inks, kind: str, owner: str) -> list[str]:
    return [k for (kk, o, k) in inks if kk == kind and o == owner]


def _within(
    inks: dict[str, float], blank: float, sure: float, mark: float, unsure_share: float = 0.25
) -> dict[str, Decision]:
    """Decisions for the choices of one space (its 13 ranks or 4 suits).

    The sheet's levels decide each choice; beside a clear mark, another choice
    also needs a fair share of that mark's ink to count (half of it) or to be
    unsure (``unsure_share`` of it), so smudges next to a bold mark do not make it uncertain.
    """
    top = max(inks.values())
    out = {}
    for k, v in inks.items():
        d = decide_ink(v, blank, sure, mark)
        if top >= sure and v < top and d.marked is not False:
            if v < unsure_share * top:
                d = Decision(False, v, float(min(1.0, 0.5 + (unsure_share * top - v) / max(unsure_share * top, 1e-6))))
            elif v < 0.5 * top:
                d = Decision(None, v, 0.0)
        out[k] = d
    return out


def _cell(
    name: str,
    coord: Coord,
    rd: dict[str, Decision],
    sd: dict[str, Decision],
    value_ink: float,
    light: AbstractSet[str] = frozenset(),
    one_sided: AbstractSet[str] = frozenset(),
    crossed: AbstractSet[str] = frozenset(),
    between: dict[str, str] | None = None,
) -> CellReading:
    """One space's reading from its rank and suit decisions (and the ink where the value is written);
    ``light`` holds the choices left unsure because their mark is far lighter than the sheet's others,
    ``one_sided`` the suits left unsure because their ring is inked on one side of the symbol only (:func:`_one_sided`),
    ``crossed`` those left unsure because the space's blank level is in doubt (:data:`QUARTILE_DOUBT`), ``between``
    those whose circle sits between them and the suit they map to (:func:`_between`)."""
    between = {k: j for k, j in (between or {}).items() if sd[k].marked is None and k not in light}
    named = set(light) | set(one_sided) | set(between)  # (suits unsure for a reason of their own, named below)
    ranks = [k for k, d in rd.items() if d.marked]
    suits = [k for k, d in sd.items() if d.marked]
    r_light = [k for k, d in rd.items() if d.marked is None and k in light]
    s_light = [k for k, d in sd.items() if d.marked is None and k in light]
    s_one = [k for k, d in sd.items() if d.marked is None and k in one_sided and k not in light and k not in between]
    s_crossed = [k for k, d in sd.items() if d.marked is None and k in crossed and k not in named]
    r_uns = [k for k, d in rd.items() if d.marked is None and k not in light]
    s_uns = [k for k, d in sd.items() if d.marked is None and k not in named and k not in crossed]
    conf = float(min([d.confidence for d in rd.values()] + [d.confidence for d in sd.values()]))
    state_r = {k: True for k in ranks} | {k: None for k in r_uns + r_light}
    state_s = {k: True for k in suits} | {k: None for k in s_uns + s_light + s_one + s_crossed + list(between)}

    def uncertain(reason: str) -> CellReading:
        return CellReading(name, coord, "uncertain", None, 0.0, reason, state_r, state_s)

    if (
        not (ranks or r_light or suits or s_light or s_one or s_crossed or between)
        and bool(s_uns) != bool(r_uns)
        and value_ink < VALUE_WRITTEN
    ):
        # nothing ticked or circled clearly, nothing written, and only rings or only boxes a little darker than blank
        # (below the sure level, a fraction of a mark's ink): the print's or the paper's noise on an empty space, as
        # in a small photo of a nearly empty sheet; a card always has its value written, its rank ticked and its suit
        # circled (a faint box alone: in a dark, soft pencil photo a trace at about a third of the sheet's ticks).
        # A faint box and a faint ring together, nothing written, may be a light card: still for a person
        return CellReading(name, coord, "empty", None, conf, "", {}, {})
    problems = []
    if len(ranks) > 1:
        problems.append(
            f"ranks {_and(ranks)} are all ticked" if len(ranks) > 2 else f"ranks {_and(ranks)} are both ticked"
        )
    if len(suits) > 1:
        problems.append(
            f"suits {_and(suits)} are all circled" if len(suits) > 2 else f"suits {_and(suits)} are both circled"
        )
    if r_light:
        problems.append(f"rank {_or(r_light)}: much lighter than the other ticks: a light tick, or one rubbed out?")
    if s_light:
        problems.append(f"suit {_or(s_light)}: much lighter than the other circles: a light circle, or one rubbed out?")
    if s_one:
        problems.append(f"suit {_or(s_one)}: not inked all round (the value written across it?): circled or not?")
    for k, j in between.items():
        problems.append(f"the circle sits between suits {k} and {j}: which is circled?")
    if s_crossed:
        problems.append(f"suit {_or(s_crossed)}: the suits are written over (the value across them?): circled or not?")
    if r_uns:
        problems.append(f"rank {_or(r_uns)}: faint, ticked or not?")
    if s_uns:
        problems.append(f"suit {_or(s_uns)}: faint, circled or not?")
    if not problems:
        if len(ranks) == 1 and len(suits) == 1:
            card = parse_card(ranks[0] + suits[0])
            return CellReading(name, coord, "card", card, conf, "", state_r, state_s)
        if not ranks and not suits:
            if value_ink >= VALUE_WRITTEN:
                return uncertain("something is written in the space but no rank is ticked and no suit circled")
            return CellReading(name, coord, "empty", None, conf, "", state_r, state_s)
        if ranks:
            problems.append(f"rank {ranks[0]} is ticked but no suit is clearly circled")
        else:
            problems.append(f"suit {suits[0]} is circled but no rank box is clearly ticked")
    return uncertain("; ".join(problems))


VALUE_WRITTEN = 0.006
"""Something is written where a space's value goes when the mean extra darkness there (the value target's ink) is
at least this much.  A handwritten value covers a small part of that area, so its mean is low: typically about
0.045, and 0.012 or more for 99.5 % of written values (the lower ones under glare, where the space is not visible
anyway); a blank value area holds 0.002 at most.  A level near a written value's typical mean (0.05) would take
over half of all written values for blank paper, and a space with a value written but nothing ticked, or beside a
faint circle, would read empty."""


def _and(items: list[str]) -> str:
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else items[0]


def _or(items: list[str]) -> str:
    return ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else items[0]


def _count(decisions: list[tuple[int, Decision]], what: str) -> CountReading:
    marked = [i for i, d in decisions if d.marked]
    unsure = [i for i, d in decisions if d.marked is None]
    conf = float(min([d.confidence for _, d in decisions], default=1.0))
    if unsure:
        return CountReading(None, 0.0, f"{what} {', '.join(map(str, unsure))} unclear (marked or not?)", marked, unsure)
    return CountReading(len(marked), conf, "", marked, unsure)


__all__ = ["read_photo", "PhotoReading", "CellReading", "CountReading", "decide", "code_for", "scene_for", "InputError"]
