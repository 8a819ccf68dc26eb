"""The ``render`` and ``build`` jobs: items drawn on paper and encoded as PDF, SVG or PNG bytes.

:func:`render_item` draws one item (a shipped id or a file) on one paper, filled
in from a typed-in file with ``fill`` (:func:`fill_pages`); where it is written:
:mod:`generator.jobs.targets`.  :func:`build_items` draws every shipped item on
every paper, in every language asked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

from generator.core.errors import InputError, Problem, SheetsmithError
from generator.jobs.check import load_text

FORMATS = ("pdf", "svg", "png")
"""Output formats of :func:`render_item`."""


# --------------------------------------------------------------------------- check


# --------------------------------------------------------------------------- render and build


def output_stem(item_id: str, paper_id: str, lang: str = "en") -> str:
    """The name of an item's output files without the extension: ``q-diamonds-a4``; in another
    language than English with the language after it (``q-diamonds-a4-it``), so it never replaces the English file."""
    return f"{item_id}-{paper_id}" + (f"-{lang}" if lang != "en" else "")


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
        variation: what the options changed from the item as its file has it, for the output's name
            (``target300-bonus20``, ``bridge-nobacks``; :func:`variation_tag`), else empty.
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
    variation: str = ""

    @property
    def paper_label(self) -> str:
        """The paper's name as people say it (``A4``, ``US Letter``)."""
        from generator.printing.paper import paper

        return paper(self.paper).label


def check_language(code: str) -> str:
    """``--lang CODE``: the language code of a message catalogue (case-insensitive), as the catalogues name it.

    Raises:
        SheetsmithError: no catalogue for ``code``; the message lists the languages there are (exit 2).
    """
    from generator.printing.i18n import check_lang

    return check_lang(code)


def languages_asked(asked: Sequence[str]) -> list[str]:
    """``--lang`` given once or more (``it``, ``it,fr``, ``all``): the language codes, each once, in order;
    ``all`` is every catalogue, English first.

    Raises:
        SheetsmithError: a language without a catalogue, or none at all (``--lang ,``).
    """
    from generator.printing.i18n import check_lang, languages

    codes = [code for text in asked for code in text.split(",") if code.strip()]
    if not codes:
        raise SheetsmithError(f"--lang {','.join(asked)!r}: name a language: {', '.join(languages())} or all")
    named = list(dict.fromkeys(check_lang(code) for code in codes if code.strip().lower() != "all"))
    return languages() if len(named) < len(codes) else named


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
        raise SheetsmithError(
            f"--back-offset {quote(text)}: give two millimetre values as DX,DY in ASCII digits, "
            "e.g. 0.5,-0.3 (no NaN or infinity)"
        )
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
        SheetsmithError: not a Flip 7 pad, a key given twice, or a value that is not ASCII digits in range
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
            raise SheetsmithError(
                f"--variant '{text}': write target=N and/or flip7_bonus=N with N in ASCII digits, e.g. "
                "target=150,flip7_bonus=15"
            )
        if key in values:
            raise SheetsmithError(f"--variant '{text}': {key} is given twice; give it once")
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
    from generator.games.registry import pages_for
    from generator.printing.i18n import messages
    from generator.printing.impose import PrintOptions
    from generator.printing.paper import paper as get_paper

    pages, manifest = pages_for(item, get_paper(paper), options or PrintOptions(), lang)
    warnings = [
        Problem(str(item.source), 0, 0, f"{note}; shorten it in strings:", "warning")
        for scene in pages
        for note in scene.notes
    ]
    return pages, manifest, warnings + messages(lang).warnings()


def _bleed_note(manifest: Optional[dict]) -> list[str]:
    if manifest is None or not isinstance(manifest.get("bleed"), dict):
        return []
    b = manifest["bleed"]
    if (b["x"], b["y"]) == (b["requested"], b["requested"]):
        return []
    return [
        f"bleed {b['x']:g} mm left/right and {b['y']:g} mm top/bottom ({b['requested']:g} asked): "
        "the paper has no room for more beside the crop marks"
    ]


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
    from generator.core.shipped import is_shipped, resolve_layout
    from generator.games.registry import load_any
    from generator.printing.i18n import check_lang

    if fmt not in FORMATS:
        raise SheetsmithError(f"format '{fmt}': use one of {', '.join(FORMATS)}")
    lang = check_lang(lang)
    if page == "all" and fmt == "pdf":
        raise SheetsmithError("--pages all writes one SVG or PNG file per page; a PDF holds every page already")
    source = resolve_layout(str(ref))
    item = load_any(source, command="render")
    return render_loaded(
        item,
        fmt=fmt,
        page=page,
        paper=paper,
        dpi=dpi,
        options=options,
        variant=variant,
        fill=fill,
        others=others,
        source=source,
        shipped=is_shipped(source),
        lang=lang,
    )


def variation_tag(as_filed, item, options) -> str:
    """What ``--variant`` and the deck options changed from the item as its file has it, as a part of a file
    name: ``target300-bonus20`` (a Flip 7 pad), ``bridge-bleed2-nobacks-offset0.5_-0.3`` (a deck); empty when
    nothing changed. A render with other options thus never replaces the plain item's file."""
    from generator.printing.impose import PrintOptions

    parts = []
    before, after = getattr(as_filed, "variant", None), getattr(item, "variant", None)
    if before is not None and after is not None:
        if after.target != before.target:
            parts.append(f"target{after.target}")
        if after.flip7_bonus != before.flip7_bonus:
            parts.append(f"bonus{after.flip7_bonus}")
    plain = PrintOptions()
    if options.card_size is not None and options.card_size != getattr(item, "size_id", None):
        parts.append(options.card_size)
    if options.bleed != plain.bleed:
        parts.append(f"bleed{options.bleed + 0.0:g}")  # (+ 0.0: -0 is 0)
    if options.backs != plain.backs:
        parts.append("nobacks")
    if options.back_offset != plain.back_offset:
        parts.append(f"offset{options.back_offset[0]:g}_{options.back_offset[1]:g}")
    return "-".join(parts)


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


def render_loaded(
    item,
    *,
    fmt: str = "pdf",
    page=None,
    paper: str = "a4",
    dpi: int = 150,
    options=None,
    variant: Optional[str] = None,
    fill: Optional[Path] = None,
    others: Sequence[Path] = (),
    source: Optional[Path] = None,
    shipped: bool = False,
    lang: str = "en",
) -> Rendered:
    """Draw a validated item and encode it (the options of :func:`render_item`; ``source``, ``shipped``: where it came
    from; ``lang`` already checked)."""
    from generator.games.registry import kind_of_item
    from generator.printing.backends import render_bytes
    from generator.printing.impose import PrintOptions

    as_filed = item
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
    variation = "" if fill is not None else variation_tag(as_filed, item, options)
    if fill is not None:
        pages = fill_pages(item, pages, fill, others)
    if page is None:
        chosen, number = (pages if fmt == "pdf" else pages[:1]), None
    elif page == "all":
        each = [render_bytes([p], fmt, dpi=dpi) for p in pages]
        return Rendered(
            item,
            fmt,
            paper,
            each[0],
            len(pages),
            manifest,
            warnings + list(item.warnings),
            _bleed_note(manifest),
            each_page=each,
            source=source,
            shipped=shipped,
            lang=lang,
            fill=fill,
            variation=variation,
        )
    else:
        if not isinstance(page, int) or not 1 <= page <= len(pages):
            raise SheetsmithError(
                f"--page {page}: this item has {len(pages)} page{'s' if len(pages) > 1 else ''} on {paper}"
            )
        chosen, number = pages[page - 1 : page], page
    data = render_bytes(chosen, fmt, dpi=dpi)
    return Rendered(
        item,
        fmt,
        paper,
        data,
        len(pages),
        manifest,
        warnings + list(item.warnings),
        _bleed_note(manifest),
        page=number,
        source=source,
        shipped=shipped,
        lang=lang,
        fill=fill,
        variation=variation,
    )


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
    from generator.core.paths import display_path
    from generator.games.flip7.pad import load_flip7_pad

    pad = load_flip7_pad(fill, display=display_path(Path(fill)))
    said = {"target": pad.target, "flip7_bonus": pad.flip7_bonus}
    printed = {"target": item.variant.target, "flip7_bonus": item.variant.flip7_bonus}
    if said == printed:
        return item
    if asked:
        key = next(k for k in said if said[k] != printed[k])
        raise SheetsmithError(
            f"{display_path(Path(fill))}: {key} {said[key]}, but --variant prints {printed[key]}: write "
            f"'{key}: {printed[key]}' in the file, or leave --variant out (the pad then prints the file's)"
        )
    if not 50 <= pad.target <= 1000:
        raise SheetsmithError(
            f"{display_path(Path(fill))}: target {pad.target}: a printed pad shows a target of 50 to 1000"
        )
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
        from generator.core.paths import display_path
        from generator.games.flip7.pad import load_flip7_pad
        from generator.games.flip7.pad_fill import fill_score_pad, fill_tick_pads

        pad = load_flip7_pad(fill, display=display_path(Path(fill)))
        return fill_score_pad(pages, pad) if item.kind == "pad" else fill_tick_pads(pages[0], pad)
    raise SheetsmithError(
        "--fill draws a typed-in sheet on an All In sheet layout, or a typed-in Flip 7 pad "
        "on the Flip 7 score pad or tick pad"
    )


def fill_sheet(item, scene, fill: Path, others: Sequence[Path] = ()):
    """``scene`` (an All In sheet) with the typed-in sheet ``fill`` drawn on it as a player fills it.

    Raises:
        SheetsmithError: ``item`` is not an All In layout, or a sheet is for another layout.
        InputError: a sheet cannot be read.
    """
    from generator.core.paths import display_path
    from generator.core.yamlpos import load_yaml
    from generator.games.allin.layout import AllInLayout
    from generator.games.allin.scoring import score_game
    from generator.games.allin.sheet import fill_allin_sheet
    from generator.games.allin.typed_sheet import sheet_from_document
    from generator.printing.text import glyph_problem

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
    """One item of :func:`build_items` on one paper in one language: the files to write (name → bytes) or its
    problems."""

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

        return output_stem(self.id, self.paper, self.lang)


BUILD_MODULES = [
    "generator.jobs.render",
    "generator.games.registry",
    "generator.printing.backends.pdf",
    "generator.printing.backends.png",
]
"""What a worker of :func:`build_items` needs: imported once by the fork server, before it forks the workers."""


def build_items(
    papers: Sequence[str],
    *,
    dpi: int = 150,
    options=None,
    langs: Sequence[str] = ("en",),
    workers: Optional[int] = None,
) -> Iterator[Built]:
    """Draw every shipped item on every paper in every language of ``langs``, one :class:`Built` at a time
    (for a progress bar), in the order of the shipped items, then papers, then languages.

    Each item gives ``ID-PAPER.pdf`` and a PNG preview ``ID-PAPER.png``; a deck or chip
    sheet with backs also ``ID-PAPER-back.png``; decks and chips a manifest ``ID-PAPER.json``.
    In another language than English every name has the language after the paper
    (``ID-PAPER-it.pdf``), so it never replaces the English file.
    Errors of one item are in its ``problems``; the others are still built.
    The items are drawn by ``workers`` processes at once (default: one per CPU this
    process may use; 1: in this process); the files are the same byte for byte.

    Raises:
        SheetsmithError: a language without a catalogue (before anything is drawn).
    """
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool
    from itertools import product

    from generator.core.process import main_module_hidden, usable_cpus, worker_context
    from generator.core.shipped import shipped_layouts
    from generator.printing.i18n import check_lang
    from generator.printing.paper import paper as get_paper

    langs = list(dict.fromkeys(check_lang(lang) for lang in langs))
    tasks = [
        (str(shipped.path), shipped.id, shipped.game, get_paper(paper_id).id, lang, dpi, options)
        for shipped in shipped_layouts()
        for paper_id, lang in product(papers, langs)
    ]
    workers = min(len(tasks), usable_cpus() if workers is None else max(1, workers))
    if workers <= 1:
        for task in tasks:
            yield _build_one(*task)
        return
    pool = None
    try:
        pool = ProcessPoolExecutor(workers, mp_context=worker_context(BUILD_MODULES), initializer=_init_build_worker)
        with main_module_hidden():  # the workers start during the submits
            futures = [pool.submit(_build_one, *task) for task in tasks]
    except (OSError, RuntimeError):  # no process or thread can start here (a sandbox, no slots): all drawn here
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        for task in tasks:
            yield _build_one(*task)
        return
    try:
        for task, future in zip(tasks, futures):
            try:
                yield future.result()
            except BrokenProcessPool:  # a worker died (out of memory?): the task is drawn here instead
                yield _build_one(*task)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _init_build_worker() -> None:
    """In each worker of :func:`build_items`: Ctrl-C is the caller's to handle (it cancels what has not started)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _build_one(path: str, item_id: str, game: str, paper_id: str, lang: str, dpi: int, options) -> Built:
    """One task of :func:`build_items`: the shipped item at ``path`` drawn on ``paper_id`` in ``lang``."""
    import json

    from generator.core.paths import display_path
    from generator.games.registry import load_any
    from generator.printing.backends.pdf import render_pdf
    from generator.printing.backends.png import pdf_to_png

    built = Built(item_id, game, paper_id, lang=lang)
    try:
        item = load_any(Path(path))
        pages, manifest, warnings = draw_pages(item, paper_id, options, lang)
        pdf = render_pdf(pages)
    except SheetsmithError as exc:
        built.problems = getattr(exc, "problems", []) or [Problem(display_path(Path(path)), 0, 0, str(exc))]
        return built
    stem = built.stem
    built.pages, built.pdf_size = len(pages), len(pdf)
    built.files[f"{stem}.pdf"] = pdf
    built.files[f"{stem}.png"] = pdf_to_png(pdf, dpi=dpi)
    if manifest and len(pages) > 1 and manifest["pages"][1]["side"] == "back":
        built.files[f"{stem}-back.png"] = pdf_to_png(pdf, dpi=dpi, page=1)
    if manifest is not None:
        built.files[f"{stem}.json"] = (json.dumps(manifest, indent=1) + "\n").encode()
    built.problems = warnings + list(item.warnings)
    return built


def shipped_count() -> int:
    """How many items ship (each is built once per paper)."""
    from generator.core.shipped import shipped_layouts

    return len(shipped_layouts())


# --------------------------------------------------------------------------- verify


# --------------------------------------------------------------------------- replay and simulate


# --------------------------------------------------------------------------- balance
