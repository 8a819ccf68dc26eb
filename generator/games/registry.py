"""Shipped layouts (``layouts/<game>/<id>.yaml``) and loading any layout file by its ``game:``."""

from __future__ import annotations

from pathlib import Path

from generator.core.kinds import CHECK_READS, COMPONENT_KINDS, check_item_file, unknown_kind
from generator.core.paths import display_path
from generator.core.shipped import shipped_id_clash
from generator.core.yamlpos import load_yaml
from generator.games.allin.layout import sheet_layout_from_document

def load_any(path: str | Path, *, command: str = "check"):
    """Read and validate any shipped kind of file: a sheet layout (``game: allin``),
    a deck (``kind: deck``), a chip sheet (``kind: chips``), or a pad or ledger
    (``kind: pad``, ``tick-pad``, ``ledger``).

    ``command`` (``check`` or ``render``) picks the hint given for a file meant
    for another command (a typed-in sheet, a log).

    Raises:
        InputError: every error found, located ``FILE:LINE:COL``.
    """
    path = Path(path)
    return item_from_document(load_yaml(path, display=display_path(path), reads=CHECK_READS), path, command=command)


def item_from_document(doc, path: Path, *, command: str = "check"):
    """Validate a parsed layout, deck, chip sheet, pad or ledger (see :func:`load_any`).

    ``path`` gives the default id (its stem) and the folder that ``extends:``
    names a template file in; for text that has no file (a web upload, the
    editor), pass a path in a folder that holds nothing.

    Raises:
        InputError: every error found, located ``FILE:LINE:COL``.
    """
    kind = doc.data.get("kind")
    check_item_file(doc, path, command)
    if kind in COMPONENT_KINDS:
        if kind == "deck":
            from generator.printing.deck import deck_from_document

            item = deck_from_document(doc, path)
        elif kind == "chips":
            from generator.printing.chips import chips_from_document

            item = chips_from_document(doc, path)
        else:
            from generator.printing.pads import pad_from_document

            item = pad_from_document(doc, path)
        clash = shipped_id_clash(item.id, path, doc)
        if clash is not None:
            item.warnings.append(clash)
        return item
    if kind is not None:
        raise unknown_kind(doc)
    return sheet_layout_from_document(doc, path)
