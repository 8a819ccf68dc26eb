"""From any validated layout or component to printable pages (scenes) and, for print-and-play items, a manifest."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from generator.core.errors import InputError, Problem
from generator.printing.paper import Paper
from generator.printing.scene import Scene

if TYPE_CHECKING:  # pragma: no cover
    from generator.printing.chips import ChipSheet
    from generator.printing.deck import Deck
    from generator.games.allin.layout import AllInLayout
    from generator.printing.pads import Pad

# Each kind's drawing code is imported when an item of that kind is drawn: rendering
# an All In sheet never loads the deck imposition, and the other way round.


@dataclass(frozen=True)
class PrintOptions:
    """Print-and-play options for decks (ignored by sheets).

    Attributes:
        bleed: art beyond the trim on every side (mm); less is used when the paper is too small.
        backs: add a mirrored backs page after each fronts page (long-edge duplex).
        back_offset: ``(dx, dy)`` mm added to every back's position, for printers that shift the second side.
        card_size: overrides the deck's ``card_size`` (``poker``, ``poker-in``, ``bridge``).
    """

    bleed: float = 3.0
    backs: bool = True
    back_offset: tuple[float, float] = (0.0, 0.0)
    card_size: str | None = None


Printable = Any
"""An :class:`~generator.games.allin.layout.AllInLayout`, :class:`~generator.printing.deck.Deck`,
:class:`~generator.printing.chips.ChipSheet` or :class:`~generator.printing.pads.Pad`."""

_KINDS = {"AllInLayout": "allin", "Deck": "deck", "ChipSheet": "chips", "Pad": "pad"}


def _kind(item: Printable) -> str:
    """``allin``, ``deck``, ``chips`` or ``pad``, by the item's class (no import of the other kinds' modules)."""
    kind = _KINDS.get(type(item).__name__)
    if kind is None:
        raise TypeError(f"not a printable item: {type(item).__name__}")
    return kind


def output_folder(item: Printable) -> str:
    """The folder under ``output/`` for an item: ``allin``, ``decks``, ``chips`` or ``pads``."""
    return {"allin": "allin", "deck": "decks", "chips": "chips", "pad": "pads"}[_kind(item)]


def pages_for(item: Printable, paper: Paper, options: PrintOptions = PrintOptions(),
              lang: str = "en") -> tuple[list[Scene], dict | None]:
    """Draw ``item`` on ``paper`` with its words in ``lang``: the pages in print order and, for decks and
    chips, the manifest (language-free: cards are named as in English).

    Raises:
        InputError: the cards do not fit the paper.
        SheetsmithError: no message catalogue for ``lang``.
    """
    kind = _kind(item)
    if kind == "allin":
        from generator.games.allin.sheet import build_allin_sheet

        return [build_allin_sheet(item, paper, lang)], None
    if kind == "pad":
        from generator.printing.pads import build_pad_pages

        return build_pad_pages(item, paper, lang), None
    from generator.printing.i18n import messages

    words = messages(lang).section("print")
    footer = f"sheetsmith · {item.id} · {paper.label}"
    if kind == "chips":
        from generator.printing.chips import chip_pages

        pages, manifest = chip_pages(item, paper, footer=footer, inches=words["two_inches"])
        manifest = {"component": item.id, "kind": "chips", **manifest}
        return pages, manifest
    from generator.printing.deck import card_sizes
    from generator.printing.faces import deck_items
    from generator.printing.impose import ImpositionError, impose

    size_id = options.card_size or item.size_id
    w, h, label = card_sizes()[size_id]
    try:
        pages, manifest = impose(
            deck_items(item, lang), paper, w, h, bleed=options.bleed, backs=options.backs,
            back_offset=options.back_offset, title=item.name, footer=f"{footer} · {label}", words=words,
        )
    except ImpositionError as exc:
        raise InputError([Problem(item.source, 0, 0, str(exc))]) from None
    return pages, {"component": item.id, "kind": "deck", "card_size": size_id, **manifest}


def output_stem(item_id: str, paper_id: str, lang: str = "en") -> str:
    """The name of an item's output files without the extension: ``q-diamonds-a4``; in another
    language than English with the language after it (``q-diamonds-a4-it``), so it never replaces the English file."""
    return f"{item_id}-{paper_id}" + (f"-{lang}" if lang != "en" else "")


def describe(item: Printable) -> tuple[str, str]:
    """A short name and a one-line summary of contents, for listings: ``("Q♦", "10 hands, 24 spaces, …")``."""
    kind = _kind(item)
    if kind == "allin":
        doubles = sum(1 for h in item.hands.values() if h.reward == "double")
        return item.name, f"{len(item.hands)} hands, {item.spaces} spaces, {len(item.hands) - doubles} single / {doubles} double rewards"
    if kind == "pad":
        what = {"pad": "score pad", "tick-pad": "tick pad", "ledger": "ledger"}[item.kind]
        from generator.printing.pads import page_players

        who = "one player" if item.players == 1 else f"{item.players} players"
        pages = len(page_players(item))
        who += f" on {pages} pages" if pages > 1 else ""
        return item.name, f"{item.game} {what}, {item.orientation}, {who}, {item.rounds} rounds"
    if kind == "chips":
        values = sorted({c.value for c in item.chips})
        counts = ", ".join(f"{sum(1 for c in item.chips if c.value == v)}×{v}" for v in values)
        return item.name, f"{len(item.chips)} chips of {item.diameter:g} mm: {counts}"
    from generator.printing.deck import card_sizes

    return item.name, f"{len(item.faces)} cards, {card_sizes()[item.size_id][2]}"
