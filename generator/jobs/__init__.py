"""The user jobs of sheetsmith, each a plain function: paths or data in, data out.

The command line (:mod:`generator.cli.app`) and the web page are thin faces over
these functions: they parse arguments, call a job, then print or serve what
it returns.  No job prints, and no face does a job's work (DESIGN.md, "Jobs,
then faces").

Jobs:

* :func:`check_files` – validate layout, deck, chip sheet, pad and ledger files;
* :func:`render_item` – one item on one paper, as PDF, SVG or PNG bytes (one page, every
  page, or a file per page), filled in from a typed-in file with ``fill`` (:func:`fill_pages`);
  where it is written: :mod:`generator.jobs.targets`;
* :func:`build_items` – every shipped item on every paper (the bytes to write);
* :func:`verify` – finished paper by its ``game:``: All In sheets (typed in or
  photographed), a Flip 7 score pad, a Fundex or Flip Flop round log;
* :func:`replay_log` – referee an All In game log;
* :func:`simulate_allin`, :func:`simulate_flip7` – bot games;
* :func:`balance_layouts` – is my sheet fair? bot games on layouts beside Q♦
  (:mod:`generator.games.allin.balance`).

Results carry their findings as :class:`~generator.core.errors.Problem` lists and
an ``exit_code`` (DESIGN.md, "Exit codes"): 0 nothing wrong, 1 problems
found.  Input that cannot be read raises :class:`~generator.core.errors.InputError`
(exit code 2); a rule broken where no report can follow raises
:class:`~generator.core.errors.FindingsError` (exit code 1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Sequence

from generator.core.errors import EXIT_OK, EXIT_PROBLEMS, FindingsError, InputError, OutputError, Problem, SheetsmithError, UnreadableError

VERIFY_READS = ("verify reads typed-in sheets, score pads and round logs (YAML) or photos of sheets (JPEG, PNG); "
                "to check a printed sheet, photograph it or type it in")
"""What ``verify`` says it reads when given a PDF, an office document or another kind of file."""

GAMES_VERIFIED = ("allin", "flip7", "fundex", "flipflop")
"""Values of ``game:`` that :func:`verify` checks."""

FORMATS = ("pdf", "svg", "png")
"""Output formats of :func:`render_item`."""


def _exit_code(problems: Sequence[Problem]) -> int:
    return EXIT_PROBLEMS if any(p.is_error for p in problems) else EXIT_OK


# --------------------------------------------------------------------------- check


@dataclass
class Checked:
    """One file validated by :func:`check_files`.

    Attributes:
        file: the path as messages show it.
        item: the validated layout, deck, chip sheet or pad (None when it has errors).
        problems: errors and warnings, located ``FILE:LINE:COL``.
        unreadable: True when the file could not be read at all (missing, not YAML).
        title, summary: a short name and one-line summary of a valid item.
    """

    file: str
    item: Any = None
    problems: list[Problem] = field(default_factory=list)
    unreadable: bool = False
    title: str = ""
    summary: str = ""

    @property
    def ok(self) -> bool:
        """True when the file has no error (warnings allowed)."""
        return not any(p.is_error for p in self.problems)


def check_files(paths: Sequence[Path]) -> list[Checked]:
    """Validate every file; one :class:`Checked` per path, in order.

    Exit status of the whole check (:func:`check_exit_code`): 2 when a file
    cannot be read at all, else 1 when any file has an error, else 0.
    """
    from generator.games.registry import load_any
    from generator.core.paths import display_path
    from generator.games.registry import describe

    results = []
    for path in paths:
        name = display_path(Path(path))
        try:
            item = load_any(path)
        except InputError as exc:
            results.append(Checked(name, problems=list(exc.problems), unreadable=isinstance(exc, UnreadableError)))
            continue
        title, summary = describe(item)
        results.append(Checked(name, item=item, problems=list(item.warnings), title=title, summary=summary))
    return results


def check_exit_code(results: Sequence[Checked]) -> int:
    """The status of a ``check`` run: 2 any file unreadable, 1 any error, else 0 (warnings alone are fine)."""
    if any(r.unreadable for r in results):
        return 2
    return EXIT_PROBLEMS if any(not r.ok for r in results) else EXIT_OK


# --------------------------------------------------------------------------- render and build


@dataclass
class Rendered:
    """One item drawn on one paper (:func:`render_item`).

    Attributes:
        item: the validated item (layout, deck, chip sheet or pad).
        fmt: ``pdf``, ``svg`` or ``png``.
        paper: the paper id (``a4``, ``letter``).
        data: the file's bytes (PDF: every page, or page ``page`` when one was asked;
            SVG, PNG: page ``page``, default the first).
        pages: how many pages the item has on this paper.
        manifest: the JSON manifest of a deck or chip sheet, else None.
        warnings: the item's warnings and text that had to be shrunk to fit.
        notes: facts worth telling (bleed cut down for lack of room).
        page: the 1-based page in ``data`` when one was asked (None: a PDF's every page, or the first page).
        each_page: with ``page="all"``: every page's file, in order (``data`` is the first).
        source: the file the item was read from.
        shipped: True when that file is a shipped one (under ``layouts/``).
        lang: the language of the printed words (``en``, ``it``, …).
        fill: the typed-in sheet or pad drawn on the item (``render --fill``), else None.
    """

    item: Any
    fmt: str
    paper: str
    data: bytes
    pages: int
    manifest: Optional[dict] = None
    warnings: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    page: Optional[int] = None
    each_page: list[bytes] = field(default_factory=list)
    source: Optional[Path] = None
    shipped: bool = True
    lang: str = "en"
    fill: Optional[Path] = None


def parse_back_offset(text: str) -> tuple[float, float]:
    """``--back-offset DX,DY`` in millimetres, each finite and within ±10 mm.

    Raises:
        SheetsmithError: not two finite numbers, or a shift beyond ±10 mm.
    """
    import re

    from generator.core.validation import quote

    parts = [v.strip() for v in text.split(",")]
    number = re.compile(r"[-+]?([0-9]{1,3}(\.[0-9]{0,6})?|\.[0-9]{1,6})")
    if len(parts) != 2 or not all(number.fullmatch(v) for v in parts):
        raise SheetsmithError(f"--back-offset {quote(text)}: give two millimetre values as DX,DY in ASCII digits, "
                              "e.g. 0.5,-0.3 (no NaN or infinity)")
    dx, dy = (float(v) for v in parts)
    if abs(dx) > 10 or abs(dy) > 10:
        raise SheetsmithError("--back-offset: keep each shift within ±10 mm")
    return dx, dy


def print_options(bleed: float = 3.0, backs: bool = True, back_offset: str = "0,0", card_size: Optional[str] = None):
    """The :class:`~generator.printing.impose.PrintOptions` of the deck options, validated.

    Raises:
        SheetsmithError: a bad ``--back-offset``, ``--bleed`` or ``--card-size``.
    """
    import math

    from generator.printing.impose import PrintOptions

    if not math.isfinite(bleed) or not 0 <= bleed <= 6:
        raise SheetsmithError(f"--bleed {bleed}: give millimetres from 0 to 6")
    if card_size is not None:
        from generator.printing.deck import card_sizes
    if card_size is not None and card_size not in card_sizes():
        raise SheetsmithError(f"--card-size '{card_size}': use one of {', '.join(card_sizes())}")
    return PrintOptions(bleed=bleed, backs=backs, back_offset=parse_back_offset(back_offset), card_size=card_size)


def apply_variant(item, text: str):
    """A Flip 7 pad with ``--variant target=N,flip7_bonus=N`` printed in its header.

    Raises:
        SheetsmithError: not a Flip 7 pad, or a value that is not ASCII digits in range
            (target 50 to 1000, flip7_bonus 0 to 100).
    """
    from generator.games.pads import Pad, with_variant

    if not isinstance(item, Pad) or item.game != "flip7":
        raise SheetsmithError("--variant applies to Flip 7 score pads and tick pads")
    values: dict[str, int] = {}
    for part in text.split(","):
        key, _, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if key not in ("target", "flip7_bonus") or not (value.isascii() and value.isdigit() and len(value) <= 6):
            raise SheetsmithError(f"--variant '{text}': write target=N and/or flip7_bonus=N with N in ASCII digits, e.g. target=150,flip7_bonus=15")
        values[key] = int(value)
    if not 50 <= values.get("target", 200) <= 1000 or not 0 <= values.get("flip7_bonus", 15) <= 100:
        raise SheetsmithError("--variant: target must be 50 to 1000 and flip7_bonus 0 to 100")
    return with_variant(item, **values)


def draw_pages(item, paper: str, options=None, lang: str = "en"):
    """Every page of ``item`` on ``paper`` as scenes, its manifest, and the warnings of text shrunk to fit
    (and of messages a language's catalogue lacks, printed in English).

    Returns:
        ``(pages, manifest, warnings)``.

    Raises:
        InputError: the cards do not fit the paper.
        SheetsmithError: no message catalogue for ``lang``.
    """
    from generator.printing.i18n import messages
    from generator.printing.paper import paper as get_paper
    from generator.games.registry import pages_for
    from generator.printing.impose import PrintOptions

    pages, manifest = pages_for(item, get_paper(paper), options or PrintOptions(), lang)
    warnings = [Problem(str(item.source), 0, 0, f"{note}; shorten it in strings:", "warning")
                for scene in pages for note in scene.notes]
    return pages, manifest, warnings + messages(lang).warnings()


def _bleed_note(manifest: Optional[dict]) -> list[str]:
    if manifest is None or not isinstance(manifest.get("bleed"), dict):
        return []
    b = manifest["bleed"]
    if (b["x"], b["y"]) == (b["requested"], b["requested"]):
        return []
    return [f"bleed {b['x']:g} mm left/right and {b['y']:g} mm top/bottom ({b['requested']:g} asked): "
            "the paper has no room for more beside the crop marks"]


def render_item(
    ref: str | Path,
    *,
    fmt: str = "pdf",
    paper: str = "a4",
    dpi: int = 150,
    options=None,
    variant: Optional[str] = None,
    fill: Optional[Path] = None,
    others: Sequence[Path] = (),
    lang: str = "en",
    page: int | str | None = None,
) -> Rendered:
    """Draw one item (a shipped id or a YAML file) and encode it.

    Args:
        ref: a shipped id (``q-diamonds``) or a path to a layout, deck, chip sheet or pad file.
        fmt: ``pdf`` (every page), ``svg`` or ``png`` (the first page).
        page: a 1-based page number (that page alone, in any format), ``"all"`` (SVG and PNG:
            one file per page in :attr:`Rendered.each_page`), or None (PDF: every page; else page 1).
        paper: ``a4`` or ``letter``.
        dpi: PNG resolution (50 to 600).
        options: deck :class:`~generator.printing.impose.PrintOptions` (see :func:`print_options`);
            options other than the defaults are refused for items that are not decks.
        variant: Flip 7 pads: ``target=N,flip7_bonus=N`` (:func:`apply_variant`).
        fill: All In sheets: a typed-in sheet drawn on the layout as a player fills it;
            Flip 7 score pads and tick pads: a typed-in Flip 7 pad (a tick pad gets a page per player).
        others: with ``fill``: the game's other sheets (for the bonuses).
        lang: the language of every printed word (a catalogue of ``templates/lang/``: ``en``, ``it``, ``fr``, ``de``).

    Raises:
        InputError: the item or a sheet cannot be read or is invalid.
        SheetsmithError: options that do not apply to this item; a page the item does not have; no catalogue for
            ``lang`` (the message lists the languages).
    """
    from generator.games.registry import load_any
    from generator.core.shipped import is_shipped, resolve_layout
    from generator.printing.i18n import check_lang

    if fmt not in FORMATS:
        raise SheetsmithError(f"format '{fmt}': use one of {', '.join(FORMATS)}")
    lang = check_lang(lang)
    if page == "all" and fmt == "pdf":
        raise SheetsmithError("--pages all writes one SVG or PNG file per page; a PDF holds every page already")
    source = resolve_layout(str(ref))
    item = load_any(source, command="render")
    return render_loaded(item, fmt=fmt, page=page, paper=paper, dpi=dpi, options=options, variant=variant, fill=fill,
                         others=others, source=source, shipped=is_shipped(source), lang=lang)


def render_text(text: str, file: str, *, fmt: str = "pdf", paper: str = "a4", dpi: int = 150) -> Rendered:
    """Draw an item given as YAML text (an upload, the layout editor) and encode it, as :func:`render_item`.

    ``file`` names the text in messages (``my-sheet.yaml``) and gives the
    default id; ``extends:`` may name shipped templates only.

    Raises:
        InputError: the text is not valid YAML or not a valid item (every problem ``FILE:LINE:COL``).
    """
    if fmt not in FORMATS:
        raise SheetsmithError(f"format '{fmt}': use one of {', '.join(FORMATS)}")
    return render_loaded(load_text(text, file), fmt=fmt, paper=paper, dpi=dpi)


def load_text(text: str | bytes, file: str):
    """Validate a layout, deck, chip sheet, pad or ledger given as YAML text or bytes (the limits of a file apply).

    Raises:
        InputError: every problem, located ``FILE:LINE:COL``.
    """
    from generator.games.registry import item_from_document
    from generator.core.yamlpos import parse_yaml_bytes

    raw = text.encode("utf-8") if isinstance(text, str) else text
    doc = parse_yaml_bytes(raw, file)
    given = doc.data.get("id")
    stem = given if isinstance(given, str) and given.replace("-", "").replace("_", "").isalnum() else Path(file).stem
    return item_from_document(doc, _NOWHERE / f"{stem}.yaml", command="render")  # no file name for id: to differ from


_NOWHERE = Path("/nonexistent-sheetsmith-folder")
"""The folder text without a file is taken to be in: it holds nothing, so ``extends:`` finds shipped templates only."""


def check_text(text: str | bytes, file: str) -> Checked:
    """:func:`check_files` for YAML text (the layout editor, an upload): one :class:`Checked`."""
    from generator.games.registry import describe

    try:
        item = load_text(text, file)
    except InputError as exc:
        return Checked(file, problems=list(exc.problems), unreadable=isinstance(exc, UnreadableError))
    title, summary = describe(item)
    return Checked(file, item=item, problems=list(item.warnings), title=title, summary=summary)


def render_loaded(item, *, fmt: str = "pdf", page=None, paper: str = "a4", dpi: int = 150, options=None,
                  variant: Optional[str] = None, fill: Optional[Path] = None, others: Sequence[Path] = (),
                  source: Optional[Path] = None, shipped: bool = False, lang: str = "en") -> Rendered:
    """Draw a validated item and encode it (the options of :func:`render_item`; ``source``, ``shipped``: where it came
    from; ``lang`` already checked)."""
    from generator.games.registry import kind_of_item
    from generator.printing.backends import render_bytes
    from generator.printing.impose import PrintOptions

    if variant is not None:
        item = apply_variant(item, variant)
    if fill is not None:  # a Flip 7 pad filled from a file prints the rules the file is scored by
        item = _with_variant_of_fill(item, fill, asked=variant is not None)
    options = options or PrintOptions()
    if kind_of_item(item).name != "deck" and options != PrintOptions():
        raise SheetsmithError("--card-size, --bleed, --no-backs and --back-offset apply to decks only")
    if others and fill is None:
        raise SheetsmithError("--with goes with --fill")
    pages, manifest, warnings = draw_pages(item, paper, options, lang)
    if fill is not None:
        pages = fill_pages(item, pages, fill, others)
    if page is None:
        chosen, number = (pages if fmt == "pdf" else pages[:1]), None
    elif page == "all":
        each = [render_bytes([p], fmt, dpi=dpi) for p in pages]
        return Rendered(item, fmt, paper, each[0], len(pages), manifest, warnings + list(item.warnings),
                        _bleed_note(manifest), each_page=each, source=source, shipped=shipped, lang=lang, fill=fill)
    else:
        if not isinstance(page, int) or not 1 <= page <= len(pages):
            raise SheetsmithError(f"--page {page}: this item has {len(pages)} page{'s' if len(pages) > 1 else ''} on {paper}")
        chosen, number = pages[page - 1: page], page
    data = render_bytes(chosen, fmt, dpi=dpi)
    return Rendered(item, fmt, paper, data, len(pages), manifest, warnings + list(item.warnings), _bleed_note(manifest),
                    page=number, source=source, shipped=shipped, lang=lang, fill=fill)


def _with_variant_of_fill(item, fill: Path, *, asked: bool):
    """The Flip 7 pad ``item`` printing the target and Flip 7 bonus of the typed-in pad ``fill`` (its header then
    says what the totals follow); other items unchanged.

    Raises:
        SheetsmithError: ``asked`` (a ``--variant`` was given) and the file says otherwise.
        InputError: the file cannot be read.
    """
    from generator.games.pads import Pad

    if not (isinstance(item, Pad) and item.game == "flip7" and item.kind in ("pad", "tick-pad")):
        return item
    from generator.games.flip7.pad import load_flip7_pad
    from generator.core.paths import display_path

    pad = load_flip7_pad(fill, display=display_path(Path(fill)))
    said = {"target": pad.target, "flip7_bonus": pad.flip7_bonus}
    printed = {"target": item.variant.target, "flip7_bonus": item.variant.flip7_bonus}
    if said == printed:
        return item
    if asked:
        key = next(k for k in said if said[k] != printed[k])
        raise SheetsmithError(f"{display_path(Path(fill))}: {key} {said[key]}, but --variant prints {printed[key]}: write "
                              f"'{key}: {printed[key]}' in the file, or leave --variant out (the pad then prints the file's)")
    if not 50 <= pad.target <= 1000:
        raise SheetsmithError(f"{display_path(Path(fill))}: target {pad.target}: a printed pad shows a target of 50 to 1000")
    return apply_variant(item, f"target={pad.target},flip7_bonus={pad.flip7_bonus}")


def fill_pages(item, pages: list, fill: Path, others: Sequence[Path] = ()) -> list:
    """The blank ``pages`` of ``item`` filled in from a typed-in file, as a player fills them.

    * an All In sheet layout: the typed-in sheet ``fill`` (``others``: the game's other sheets);
    * a Flip 7 score pad: the typed-in pad ``fill`` (names, round scores, running totals);
    * a Flip 7 tick pad: one page per player of the typed-in pad ``fill`` (ticks, scores, totals).

    Raises:
        SheetsmithError: an item that cannot be filled in, ``--with`` on a pad, a sheet for another layout.
        InputError: a file cannot be read.
    """
    from generator.games.allin.layout import AllInLayout
    from generator.games.pads import Pad

    if isinstance(item, AllInLayout):
        return [fill_sheet(item, pages[0], fill, others)]
    if isinstance(item, Pad) and item.game == "flip7" and item.kind in ("pad", "tick-pad"):
        if others:
            raise SheetsmithError("--with goes with All In sheets; a Flip 7 pad file holds every player already")
        from generator.games.flip7.pad import load_flip7_pad
        from generator.core.paths import display_path
        from generator.games.flip7.pad_fill import fill_score_pad, fill_tick_pads

        pad = load_flip7_pad(fill, display=display_path(Path(fill)))
        return fill_score_pad(pages, pad) if item.kind == "pad" else fill_tick_pads(pages[0], pad)
    raise SheetsmithError("--fill draws a typed-in sheet on an All In sheet layout, or a typed-in Flip 7 pad "
                          "on the Flip 7 score pad or tick pad")


def fill_sheet(item, scene, fill: Path, others: Sequence[Path] = ()):
    """``scene`` (an All In sheet) with the typed-in sheet ``fill`` drawn on it as a player fills it.

    Raises:
        SheetsmithError: ``item`` is not an All In layout, or a sheet is for another layout.
        InputError: a sheet cannot be read.
    """
    from generator.games.allin.layout import AllInLayout
    from generator.core.paths import display_path
    from generator.games.allin.scoring import score_game
    from generator.games.allin.typed_sheet import sheet_from_document
    from generator.games.allin.sheet import fill_allin_sheet
    from generator.printing.text import glyph_problem
    from generator.core.yamlpos import load_yaml

    if not isinstance(item, AllInLayout):
        raise SheetsmithError("--fill draws a typed-in sheet on an All In sheet layout")
    paths = [Path(p) for p in [fill, *others]]
    docs = [load_yaml(p, display=display_path(p)) for p in paths]
    sheets = [sheet_from_document(doc, p) for doc, p in zip(docs, paths)]
    for doc, sheet in zip(docs, sheets):
        if sheet.layout.id != item.id:
            raise SheetsmithError(f"{doc.file}: this sheet is for layout '{sheet.layout.id}', not '{item.id}'")
    message = glyph_problem(sheets[0].player, "player", ("italic",))  # the filled sheet shows its player's name
    if message:
        raise InputError([docs[0].problem(("player",), message)])
    return fill_allin_sheet(scene, sheets[0], score_game(sheets))


@dataclass
class Built:
    """One item of :func:`build_items` on one paper in one language: the files to write (name → bytes) or its problems."""

    id: str
    folder: str
    paper: str
    pages: int = 0
    files: dict[str, bytes] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    pdf_size: int = 0
    lang: str = "en"

    @property
    def stem(self) -> str:
        """The files' name without extension: ``ID-PAPER``, or ``ID-PAPER-LANG`` in another language than English."""
        from generator.jobs.targets import output_stem

        return output_stem(self.id, self.paper, self.lang)


def build_items(papers: Sequence[str], *, dpi: int = 150, options=None, langs: Sequence[str] = ("en",)) -> Iterator[Built]:
    """Draw every shipped item on every paper in every language of ``langs``, one :class:`Built` at a time
    (for a progress bar).

    Each item gives ``ID-PAPER.pdf`` and a PNG preview ``ID-PAPER.png``; a deck with
    backs also ``ID-PAPER-back.png``; decks and chips a manifest ``ID-PAPER.json``.
    In another language than English every name has the language after the paper
    (``ID-PAPER-it.pdf``), so it never replaces the English file.
    Errors of one item are in its ``problems``; the others are still built.

    Raises:
        SheetsmithError: a language without a catalogue (before anything is drawn).
    """
    from generator.printing.i18n import check_lang

    from itertools import product

    langs = list(dict.fromkeys(check_lang(lang) for lang in langs))
    import json

    from generator.printing.backends.pdf import render_pdf
    from generator.printing.backends.png import pdf_to_png
    from generator.printing.paper import paper as get_paper
    from generator.games.registry import load_any
    from generator.core.paths import display_path
    from generator.core.shipped import shipped_layouts

    cache: dict[str, Any] = {}
    for shipped in shipped_layouts():
        for paper_id, lang in product(papers, langs):
            built = Built(shipped.id, shipped.game, get_paper(paper_id).id, lang=lang)
            try:
                item = cache.get(shipped.id) or load_any(shipped.path)
                cache[shipped.id] = item
                pages, manifest, warnings = draw_pages(item, paper_id, options, lang)
                pdf = render_pdf(pages)
            except SheetsmithError as exc:
                built.problems = getattr(exc, "problems", []) or [Problem(display_path(shipped.path), 0, 0, str(exc))]
                yield built
                continue
            stem = built.stem
            built.pages, built.pdf_size = len(pages), len(pdf)
            built.files[f"{stem}.pdf"] = pdf
            built.files[f"{stem}.png"] = pdf_to_png(pdf, dpi=dpi)
            if manifest and len(pages) > 1 and manifest["pages"][1]["side"] == "back":
                built.files[f"{stem}-back.png"] = pdf_to_png(pdf, dpi=dpi, page=1)
            if manifest is not None:
                built.files[f"{stem}.json"] = (json.dumps(manifest, indent=1) + "\n").encode()
            built.problems = warnings + list(item.warnings)
            yield built


def shipped_count() -> int:
    """How many items ship (each is built once per paper)."""
    from generator.core.shipped import shipped_layouts

    return len(shipped_layouts())


# --------------------------------------------------------------------------- verify


@dataclass
class Verdict:
    """What :func:`verify` or :func:`replay_log` found.

    Attributes:
        game: ``allin``, ``flip7``, ``fundex`` or ``flipflop``.
        report: the JSON report of docs/formats.md (``winners`` is a list in every game).
        problems: findings, located ``FILE:LINE:COL`` where the file says where:
            a rule broken, a written score that differs, an impossible sheet.
        score: All In: the :class:`~generator.games.allin.scoring.GameScore` (for tables).
        notes: facts for the person (files written, a sheet scored alone, a game not finished).
    """

    game: str
    report: dict
    problems: list[Problem] = field(default_factory=list)
    score: Any = None
    notes: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """1 when an error was found, else 0."""
        return _exit_code(self.problems)


def verify(paths: Sequence[Path], *, layout: Optional[str] = None, progress=None) -> Verdict:
    """Check finished paper with the rules engine, by the first file's ``game:``.

    Args:
        paths: All In typed-in sheets and photos of sheets (several = one game), or
            one Flip 7 score pad, Fundex or Flip Flop round log.
        layout: photos only: the layout id or file, when a photo's sheet code cannot be read.
        progress: photos only: called as each photo's reading moves on (:data:`generator.jobs.photos.Progress`).

    Raises:
        InputError: a file cannot be read or is not a valid file of its game (exit 2);
            unknown or mixed games; several files of a game verified one file at a time.
        FindingsError: a photo field that needs a person (exit 1).
    """
    from generator.jobs.photos import has_photos
    from generator.core.paths import display_path
    from generator.core.yamlpos import load_yaml

    paths = [Path(p) for p in paths]
    if not paths:
        raise SheetsmithError("give at least one file to verify")
    if has_photos(paths):
        return _verify_photos(paths, layout, progress)
    if layout is not None:
        raise SheetsmithError("--layout names the layout of photos whose QR code cannot be read; no photo was given")
    return verify_documents([load_yaml(path, display=display_path(path), reads=VERIFY_READS) for path in paths], paths)


def verify_texts(files: Sequence[tuple[str, str | bytes]]) -> Verdict:
    """:func:`verify` for files given as ``(name, YAML text or bytes)`` (the web page, uploads): typed-in
    All In sheets of one game, or one Flip 7 pad or round log.

    A typed-in sheet's ``layout:`` must be a shipped id here (there is no folder to find a file in).

    Raises:
        InputError, FindingsError: as :func:`verify`.
    """
    from generator.core.yamlpos import parse_yaml_bytes

    if not files:
        raise SheetsmithError("give at least one file to verify")
    from generator.core.shipped import shipped_layouts

    docs = [parse_yaml_bytes(t.encode("utf-8") if isinstance(t, str) else t, name, reads=VERIFY_READS) for name, t in files]
    shipped = [s.id for s in shipped_layouts() if s.game == "allin"]
    for doc in docs:
        ref = doc.data.get("layout")
        if doc.data.get("game") == "allin" and ref is not None and ref not in shipped:
            raise InputError([doc.problem(("layout",), f"layout {ref!r}: name a shipped layout ({', '.join(shipped)}); "
                                                      "layout files cannot be named here")])
    return verify_documents(docs, [_NOWHERE / Path(name).name for name, _ in files])


def verify_documents(docs, paths: Sequence[Path]) -> Verdict:
    """:func:`verify` on parsed documents (``paths``: where each came from, for relative layout paths and default names)."""
    from generator.core.kinds import wrong_command
    from generator.core.validation import quote

    games = []
    for doc in docs:
        game = doc.data.get("game")
        hint = wrong_command(doc.data, "verify")
        if hint:
            raise UnreadableError([doc.problem((), hint)])  # a file for another command: unreadable here (exit 2)
        if game not in GAMES_VERIFIED:
            where = ("game",) if "game" in doc.data else ()
            said = quote(doc.written(where) or repr(game)) if where else "(none)"
            raise InputError([doc.problem(where, f"game {said} cannot be verified; games: {', '.join(GAMES_VERIFIED)}")])
        games.append((doc, game))
    first = games[0][1]
    for doc, game in games[1:]:
        if game != first:
            raise InputError([doc.problem(("game",), f"this file is game '{game}' but {games[0][0].file} is '{first}'; verify one game at a time")])
    if first == "allin":
        return verify_allin(paths, [doc for doc, _ in games])
    if first == "flip7":
        from generator.games.flip7.ticks import is_tick_pad

        ticks = [is_tick_pad(doc.data) for doc, _ in games]
        if all(ticks):
            return verify_tick_pads([doc for doc, _ in games])
        if any(ticks):
            other = games[ticks.index(False)][0]
            raise InputError([other.problem((), "this is a Flip 7 score pad; verify it alone, or give only tick pads (one per player)")])
    if len(paths) > 1:
        raise InputError([Problem(games[1][0].file, 0, 0, f"a {first} file holds a whole game; verify one file at a time")])
    doc = games[0][0]
    if first == "flip7":
        from generator.games.flip7.pad import pad_from_document, pad_report

        pad = pad_from_document(doc)
        report = pad_report(pad)
        problems = [_round_problem(doc, p) for p in report.get("problems", [])] + list(pad.warnings)
        return Verdict("flip7", report, problems)
    if first == "fundex":
        from generator.games.fundex.log import fundex_log_from_document, fundex_report

        report = fundex_report(fundex_log_from_document(doc, paths[0]))
    else:
        from generator.games.flipflop.log import flipflop_log_from_document, flipflop_report

        report = flipflop_report(flipflop_log_from_document(doc, paths[0]))
    problems = [Problem(doc.file, p.get("line", 0), p.get("col", 0), _who(p) + p["message"]) for p in report.get("problems", [])]
    return Verdict(first, report, problems)


def _read_each(items, read) -> list:
    """``read(item)`` for every item, every file's problems gathered before any is raised.

    Raises:
        InputError: the problems of every file that is not valid (exit 2), first;
        FindingsError: else the ``?`` fields a photo's reading left, of every file (exit 1).
    """
    out, problems, unsure = [], [], []
    for item in items:
        try:
            out.append(read(item))
        except FindingsError as exc:  # a '?' left from a photo's reading: a person looks
            unsure.extend(exc.problems)
        except InputError as exc:
            problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    if unsure:
        raise FindingsError(unsure)
    return out


def verify_tick_pads(docs) -> Verdict:
    """Flip 7 tick pads (one player each, typed in or read from photos) scored as one game.

    Raises:
        InputError: a file that is not a valid tick pad; two pads of one player; different targets.
        FindingsError: a ``?`` left from a photo's reading (exit 1).
    """
    from generator.games.flip7.ticks import tick_pad_from_document, tick_pads_report

    pads = _read_each(docs, tick_pad_from_document)
    report, found = tick_pads_report(pads)
    notes = []
    if len(pads) == 1:
        notes.append("one tick pad scored alone: give every player's pad to score the game")
    return Verdict("flip7", report, found, notes=notes)


def verify_pad_lines(players: Sequence[str], rounds: Sequence[dict], *, target: int = 200, flip7_bonus: int = 15) -> Verdict:
    """:func:`verify` of a Flip 7 pad given as data (the web page's scorer): ``rounds`` maps each player to a
    :class:`~generator.games.flip7.rules.ScoreLine`.  The report is the one ``verify`` gives the same pad as a file
    (:func:`generator.games.flip7.pad.dump_pad` writes that file).  ``flip7_bonus``: a variant's Flip 7 bonus.

    Raises:
        InputError: players named twice or empty, a missing line, a round after the end of the game.
    """
    from generator.games.flip7.pad import pad_from_lines, pad_report

    pad = pad_from_lines(list(players), list(rounds), target=target, flip7_bonus=flip7_bonus)
    report = pad_report(pad)
    problems = [Problem(pad.file, 0, 0, _who(p) + p["message"]) for p in report.get("problems", [])]
    return Verdict("flip7", report, problems + list(pad.warnings))


def _who(p: dict) -> str:
    parts = []
    if p.get("round") is not None:
        parts.append(f"round {p['round']}")
    if p.get("player"):
        parts.append(str(p["player"]))
    return ", ".join(parts) + ": " if parts else ""


def _round_problem(doc, p: dict) -> Problem:
    """A Flip 7 pad problem, located at the player's line of that round (or the round) in the file."""
    path: tuple = ("rounds", p["round"] - 1) + ((p["player"],) if p.get("player") else ())
    return doc.problem(path, _who(p) + p["message"])


def verify_allin(paths: Sequence[Path], docs=None) -> Verdict:
    """Score typed-in All In sheets as one game (one sheet alone is a game of one).

    Raises:
        InputError: every problem of every sheet; sheets of different layouts;
            two sheets with the same player name, or names that differ only in capitals.
        FindingsError: valid sheets with fields a photo's reading left as ``?`` (exit 1).
    """
    from generator.core.paths import display_path
    from generator.games.allin.scoring import report, score_game
    from generator.games.allin.typed_sheet import sheet_from_document
    from generator.core.yamlpos import load_yaml

    def read_one(i: int):
        doc = docs[i] if docs else load_yaml(paths[i], display=display_path(Path(paths[i])))
        return doc, sheet_from_document(doc, Path(paths[i]))

    read = _read_each(range(len(paths)), read_one)
    problems: list[Problem] = []
    first_doc, first = read[0]
    for doc, sheet in read[1:]:
        if sheet.layout.id != first.layout.id:
            problems.append(doc.problem(("layout",), f"this sheet uses layout '{sheet.layout.id}' but {first_doc.file} uses "
                                        f"'{first.layout.id}'; all sheets of one game use the same layout"))
    names = [sheet.player for _, sheet in read]
    folded = [name.casefold() for name in names]
    for doc, sheet in read:
        if names.count(sheet.player) > 1:
            problems.append(doc.problem(("player",), f"two sheets name the player '{sheet.player}'; give each player their own name"))
        elif folded.count(sheet.player.casefold()) > 1:  # 'ann' read from ann.jpg and 'Ann' typed in: one player twice?
            others = sorted({n for n in names if n.casefold() == sheet.player.casefold() and n != sheet.player})
            problems.append(doc.problem(("player",), f"the player '{sheet.player}' and '{others[0]}' differ only in capitals: "
                                        "the same player's sheet twice? give each player their own name"))
    if problems:
        raise InputError(problems)
    game = score_game([sheet for _, sheet in read])
    rep = report(game)
    found = _sheet_problems(rep, read)
    notes = []
    for doc, sheet in read:
        if not sheet.cards and not sheet.chips_earned:
            notes.append(f"{doc.file}: nothing is written on {sheet.player}'s sheet (no card, no chip): "
                         "is it the finished sheet?")
    if len(read) == 1:
        notes.append("one sheet scored alone: each hand that scores takes its Best Scoring Hand bonus; "
                     "give every sheet of the game to compare hands")
    return Verdict("allin", rep, found, score=game, notes=notes)


def _sheet_problems(rep: dict, read) -> list[Problem]:
    """The report's problems (impossible sheets) as located Problems, at the cell's token where known."""
    by_player = {sheet.player: doc for doc, sheet in read}
    out = []
    for p in rep.get("problems", []):
        doc = by_player.get(p.get("player"))
        file = p.get("file") or (doc.file if doc is not None else "")
        line, col = p.get("line") or 0, p.get("col") or 0
        cell = f"{p['cell']}: " if p.get("cell") else ""
        out.append(Problem(file, line, col, cell + p["message"]))
    return out


def _verify_photos(paths: list[Path], layout: Optional[str], progress=None) -> Verdict:
    """Photos (and typed-in files) of one game — All In sheets, or Flip 7 tick pads: read every photo (in
    parallel worker processes), then score as typed-in files."""
    from generator.jobs.photos import photo_inputs

    from generator.core.paths import display_path
    from generator.core.yamlpos import load_yaml

    notes: list[str] = []
    inputs = photo_inputs(paths, layout=layout, notes=notes, progress=progress)
    v = verify_documents([load_yaml(p, display=display_path(Path(p))) for p in inputs], inputs)  # All In sheets or tick pads
    v.notes = notes + v.notes
    return v


# --------------------------------------------------------------------------- replay and simulate


@dataclass
class ReplayVerdict(Verdict):
    """:func:`replay_log`'s result: a :class:`Verdict` of the final sheets, plus the game itself.

    Attributes:
        result: the referee's :class:`~generator.games.allin.game.ReplayResult`.
        finished: True when all 23 rounds were played.
        rounds: how many rounds the log holds.
        written: the final sheets written (with ``sheets_dir``).
    """

    result: Any = None
    finished: bool = True
    rounds: int = 0
    written: list[Path] = field(default_factory=list)


def replay_log(path: Path, *, sheets_dir: Optional[Path] = None, force: bool = False) -> ReplayVerdict:
    """Referee an All In game log and score its final sheets; optionally write them as typed-in sheets.

    Raises:
        InputError: a malformed log (exit 2).
        FindingsError: the first illegal move, located and worded
            ``round N, PLAYER, CELL: rule broken`` (exit 1).
        OutputError: a sheet file exists in ``sheets_dir`` and ``force`` is False
            (nothing is written then).
    """
    from generator.games.allin.game_log import load_game_log, write_final_sheets
    from generator.core.paths import display_path

    log_file = load_game_log(path, display=display_path(Path(path)))
    result = log_file.replay()
    written = write_final_sheets(sheets_dir, result.sheets, overwrite=force) if sheets_dir is not None else []
    report = result.report()
    notes = []
    if not result.finished:
        notes.append(f"the log stops after round {len(result.rounds)} of 23: scores as they stand")
    return ReplayVerdict("allin", report, [], score=result.score, notes=notes, result=result,
                         finished=result.finished, rounds=len(result.rounds), written=list(written))


@dataclass
class SimulatedAllIn:
    """:func:`simulate_allin`'s result: the refereed game, where it was written."""

    score: Any
    folder: Path
    log_path: Path
    sheet_paths: list[Path]


def simulate_allin(players: int, seed: int, layout: str = "q-diamonds", out_dir: Optional[Path] = None,
                   force: bool = False) -> SimulatedAllIn:
    """A bot game of All In, refereed, written as a game log and final typed-in sheets.

    Args:
        players: 1 to 8.
        seed: same seed, same game.
        layout: a shipped id or a layout file.
        out_dir: the folder (default ``output/games/allin-LAYOUT-Np-seedS``: its files are written again
            freely while they are as sheetsmith wrote them; one edited since is replaced only with ``force``).
        force: replace files already in ``out_dir``.

    Raises:
        SheetsmithError: players out of range; OutputError: files exist (``out_dir``) or were edited (the
            default folder) and ``force`` is False. The log and the sheets are written as one unit.
    """
    from generator.games.allin.game_log import dump_game_log, dump_sheet, final_sheet_paths, layout_ref_for
    from generator.core.output import check_targets, write_together
    from generator.games.allin.layout import load_layout
    from generator.core.shipped import resolve_layout
    from generator.games.allin.bot import simulate_game
    from generator.games.allin.game import replay

    if not 1 <= players <= 8:
        raise SheetsmithError("--players: All In is simulated for 1 to 8 players")
    lay = load_layout(resolve_layout(layout))
    sim = simulate_game(lay, players, seed)
    result = replay(sim.log)  # the referee checks the bot's game, as it would a player's log
    folder = out_dir or Path("output") / "games" / f"allin-{lay.id}-{players}p-seed{seed}"
    ref = layout_ref_for(lay, folder)
    sheet_paths = final_sheet_paths(folder, result.sheets)
    files = [(folder / "game.yaml", dump_game_log(sim.log, layout_ref=ref, result=result).encode("utf-8"))]
    files += [(p, dump_sheet(s, layout_ref=ref).encode("utf-8")) for p, s in zip(sheet_paths, result.sheets)]
    if out_dir is None and not force:  # the default folder: the same game written again is no change; an edit is kept
        edited = [p for p, data in files if p.is_file() and p.read_bytes() != data]
        if edited:
            raise OutputError(f"{edited[0]}: changed since sheetsmith wrote it; pass --force to replace it, "
                              "or -o DIR to write this game elsewhere")
    check_targets([p for p, _ in files], overwrite=force or out_dir is None)  # before writing any
    write_together(files)
    return SimulatedAllIn(result.score, folder, files[0][0], list(sheet_paths))


def parse_strategy(text: str) -> str:
    """``stop-at-T`` with T in ASCII digits (at most 3); returned unchanged.

    Raises:
        SheetsmithError: anything else.
    """
    t = text[8:]
    if not (text.startswith("stop-at-") and t.isascii() and t.isdigit() and len(t) <= 3):
        raise SheetsmithError(f"--strategy '{text}': use stop-at-T with T in ASCII digits, e.g. stop-at-25 (stay once your numbers reach T)")
    return text


def simulate_flip7(players: int, seed: int, strategy: str, games: int, target: int,
                   progress: Optional[Callable[[int], None]] = None) -> dict:
    """Whole Flip 7 games with one stop-at-T strategy for everybody.

    Returns:
        ``{"games", "players", "strategy", "target", "seed", "bust_rate", "mean_round_score",
        "flip7_rate", "mean_rounds_to_target", "rounds_per_game", "wins", "decks", "warnings"}``
        (rates 0..1; ``decks`` 2 from 19 players; ``warnings`` for 1 or 2 players).

    Args:
        progress: called with the number of games just finished (for a progress bar).

    Raises:
        SheetsmithError: players out of range or a malformed strategy.
    """
    from generator.games.flip7.rules import MAX_PLAYERS, decks_for, player_count_warnings
    from generator.games.flip7.sim import SimulationResult, simulate_games

    if not 1 <= players <= MAX_PLAYERS:
        raise SheetsmithError(f"--players: Flip 7 is played by up to {MAX_PLAYERS} players (one deck up to 18, two decks beyond)")
    parse_strategy(strategy)
    batches = max(1, min(20, games // 50))
    sizes = [games // batches + (1 if i < games % batches else 0) for i in range(batches)]
    parts: list[SimulationResult] = []
    for i, size in enumerate(sizes):
        parts.append(simulate_games(players, seed * 1000 + i, strategy, games=size, target=target))
        if progress:
            progress(size)
    pr = sum(p.player_rounds for p in parts)
    wins: dict[str, int] = {}
    for p in parts:
        for k, v in p.wins.items():
            wins[k] = wins.get(k, 0) + v
    return {
        "games": games, "players": players, "strategy": strategy, "target": target, "seed": seed,
        "bust_rate": sum(p.bust_rate * p.player_rounds for p in parts) / pr,
        "mean_round_score": sum(p.mean_round_score * p.player_rounds for p in parts) / pr,
        "flip7_rate": sum(p.flip7_rate * p.player_rounds for p in parts) / pr,
        "mean_rounds_to_target": sum(p.mean_rounds_to_target * p.games for p in parts) / games,
        "rounds_per_game": sum(p.rounds for p in parts) / games,
        "wins": wins,
        "decks": decks_for(players),
        "warnings": player_count_warnings(players),
    }


# --------------------------------------------------------------------------- balance


def balance_layouts(refs: Sequence[str | Path], *, games: int = 200, players: int = 4, seed: int = 1,
                    workers: Optional[int] = None, progress: Optional[Callable[[int, int], None]] = None):
    """Is my sheet fair?  ``games`` bot games on each layout and on Q♦, same deals and bots, compared.

    Returns:
        A :class:`generator.games.allin.balance.Balance`: each sheet's mean and 10th/90th
        percentile totals, hand completion rates and points, chips earned and
        Golden Card surround rate, with warnings (mean total more than 10 %
        from Q♦'s, a hand completed on under 5 % of sheets); ``report()`` is
        the ``--json`` report.

    Args:
        refs: shipped ids or layout files.
        games: games per sheet; players: bots per game (1 to 8); seed: same seed, same figures.
        workers: processes (default one per CPU, never more); the figures do not depend on it.
        progress: called as ``progress(played, total)``.

    Raises:
        InputError: a layout cannot be read or is invalid (exit 2).
        SheetsmithError: options out of range (exit 2).
    """
    from generator.games.allin.balance import balance

    return balance(refs, games=games, players=players, seed=seed, workers=workers, progress=progress)
