"""The printable kinds of file, and how each is read, drawn and described: one table for every command.

A layout file is a sheet layout (``game: allin``, no ``kind:``) or a
print-and-play component (``kind: deck``, ``chips``, ``pad``, ``tick-pad`` or
``ledger``).  :data:`ITEM_KINDS` says, for each, how a parsed file is validated,
how the item is drawn on a paper and how it is summed up in a listing; the
drawing modules are imported when an item of their kind is drawn, so that a
deck never loads the sheet drawing and the other way round.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from generator.core.kinds import CHECK_READS, COMPONENT_KINDS, check_item_file, unknown_kind
from generator.core.paths import display_path
from generator.core.shipped import shipped_id_clash
from generator.core.yamlpos import Document, load_yaml
from generator.games.allin.layout import sheet_layout_from_document
from generator.printing.impose import PrintOptions
from generator.printing.paper import Paper
from generator.printing.scene import Scene

Pages = tuple[list[Scene], "dict | None"]
"""An item drawn on a paper: its pages in print order, and the manifest of a deck or chip sheet (else None)."""


@dataclass(frozen=True)
class ItemKind:
    """One kind of printable item.

    Attributes:
        name: ``allin`` (a sheet layout), ``deck``, ``chips`` or ``pad`` (pads and ledgers).
        type_name: the class name of its validated items.
        folder: the folder under ``output/`` its files go to.
        load: ``load(doc, path)`` validates a parsed file (raises :class:`~generator.core.errors.InputError`).
        pages: ``pages(item, paper, options, lang)`` draws it (:data:`Pages`).
        describe: ``describe(item)`` gives a short name and a one-line summary for listings.
    """

    name: str
    type_name: str
    folder: str
    load: Callable[[Document, Path], Any]
    pages: Callable[[Any, Paper, PrintOptions, str], Pages]
    describe: Callable[[Any], tuple[str, str]]


def _load_deck(doc: Document, path: Path):
    from generator.printing.deck import deck_from_document

    return deck_from_document(doc, path)


def _deck_pages(item, paper: Paper, options: PrintOptions, lang: str) -> Pages:
    from generator.printing.faces import deck_pages

    return deck_pages(item, paper, options, lang)


def _describe_deck(item) -> tuple[str, str]:
    from generator.printing.faces import describe_deck

    return describe_deck(item)


def _load_chips(doc: Document, path: Path):
    from generator.printing.chips import chips_from_document

    return chips_from_document(doc, path)


def _chip_pages(item, paper: Paper, options: PrintOptions, lang: str) -> Pages:
    from generator.printing.chips import chip_sheet_pages

    return chip_sheet_pages(item, paper, lang)


def _describe_chips(item) -> tuple[str, str]:
    from generator.printing.chips import describe_chips

    return describe_chips(item)


def _load_pad(doc: Document, path: Path):
    from generator.games.pads import pad_from_document

    return pad_from_document(doc, path)


def _pad_pages(item, paper: Paper, options: PrintOptions, lang: str) -> Pages:
    from generator.games.pads import build_pad_pages

    return build_pad_pages(item, paper, lang), None


def _describe_pad(item) -> tuple[str, str]:
    from generator.games.pads import describe_pad

    return describe_pad(item)


def _sheet_pages(item, paper: Paper, options: PrintOptions, lang: str) -> Pages:
    from generator.games.allin.sheet import build_allin_sheet

    return [build_allin_sheet(item, paper, lang)], None


def _describe_sheet(item) -> tuple[str, str]:
    doubles = sum(1 for h in item.hands.values() if h.reward == "double")
    return item.name, (
        f"{len(item.hands)} hands, {item.spaces} spaces, {len(item.hands) - doubles} single / {doubles} double rewards"
    )


SHEET = ItemKind("allin", "AllInLayout", "allin", sheet_layout_from_document, _sheet_pages, _describe_sheet)
DECK = ItemKind("deck", "Deck", "decks", _load_deck, _deck_pages, _describe_deck)
CHIPS = ItemKind("chips", "ChipSheet", "chips", _load_chips, _chip_pages, _describe_chips)
PAD = ItemKind("pad", "Pad", "pads", _load_pad, _pad_pages, _describe_pad)

ITEM_KINDS: dict[str | None, ItemKind] = {
    None: SHEET,
    "deck": DECK,
    "chips": CHIPS,
    "pad": PAD,
    "tick-pad": PAD,
    "ledger": PAD,
}
"""Each value of a layout file's ``kind:`` (None: a sheet layout) → its :class:`ItemKind`."""
assert set(ITEM_KINDS) == {None, *COMPONENT_KINDS}

_BY_TYPE = {kind.type_name: kind for kind in ITEM_KINDS.values()}


def kind_of_item(item: Any) -> ItemKind:
    """The :class:`ItemKind` of a validated item (by its class, without importing the other kinds' modules).

    Raises:
        TypeError: not a printable item.
    """
    kind = _BY_TYPE.get(type(item).__name__)
    if kind is None:
        raise TypeError(f"not a printable item: {type(item).__name__}")
    return kind


def pages_for(item: Any, paper: Paper, options: PrintOptions = PrintOptions(), lang: str = "en") -> Pages:
    """Draw ``item`` on ``paper`` with its words in ``lang``: the pages in print order and, for decks and
    chips, the manifest (language-free: cards are named as in English).

    Raises:
        InputError: the cards do not fit the paper.
        SheetsmithError: no message catalogue for ``lang``.
    """
    return kind_of_item(item).pages(item, paper, options, lang)


def describe(item: Any) -> tuple[str, str]:
    """A short name and a one-line summary of contents, for listings: ``("Q♦", "10 hands, 24 spaces, …")``."""
    return kind_of_item(item).describe(item)


def load_any(path: str | Path, *, command: str = "check"):
    """Read and validate any layout file: a sheet layout (``game: allin``), a deck (``kind: deck``), a chip
    sheet (``kind: chips``), or a pad or ledger (``kind: pad``, ``tick-pad``, ``ledger``).

    ``command`` (``check`` or ``render``) picks the hint given for a file meant
    for another command (a typed-in sheet, a log).

    Raises:
        InputError: every error found, located ``FILE:LINE:COL``.
    """
    path = Path(path)
    return item_from_document(load_yaml(path, display=display_path(path), reads=CHECK_READS), path, command=command)


def item_from_document(doc: Document, path: Path, *, command: str = "check"):
    """Validate a parsed layout, deck, chip sheet, pad or ledger (see :func:`load_any`).

    ``path`` gives the default id (its stem) and the folder that ``extends:``
    names a template file in; for text that has no file (a web upload, the
    editor), pass a path in a folder that holds nothing.

    Raises:
        InputError: every error found, located ``FILE:LINE:COL``.
    """
    kind = doc.data.get("kind")
    check_item_file(doc, path, command)
    if kind is not None and kind not in COMPONENT_KINDS:
        raise unknown_kind(doc)
    item = ITEM_KINDS[kind].load(doc, path)
    if kind is not None:  # (a sheet layout says so itself)
        clash = shipped_id_clash(item.id, path, doc)
        if clash is not None:
            item.warnings.append(clash)
    return item
