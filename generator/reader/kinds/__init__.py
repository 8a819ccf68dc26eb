"""Sheet kinds the photo reader reads besides All In sheets.

The reader's steps do not depend on the game: markers and homography
(:mod:`..markers`), blur, the sheet code (:mod:`..code`), flattening the light,
lining each group of targets up on its own print, ink and visibility
(:mod:`..marks`), and the two-threshold decisions (:mod:`..read`).  All In sheets go
through :func:`generator.reader.read.read_photo`; once the markers are fitted and the
code is read, a code (or a ``--layout``) that names a sheet of another kind hands
the photo to that kind's module here.  A kind module only says:

* ``owns_item(item)`` — whether a loaded layout item is of this kind;
* ``read(context)`` — which scene to rebuild and how its measured marks become a
  reading (with ``uncertain``, ``to_yaml()``, ``annotated_png()``, ``annotated_image()`` and ``locate()``),
  i.e. a typed-in file of its game.

Adding the next readable sheet kind is one more module in :data:`KINDS`: its
drawing calls :func:`generator.printing.readable.add_machine_marks`, and its reading
maps marks to its typed-in file.
"""

from __future__ import annotations

from types import ModuleType

from generator.reader.context import PhotoContext


def _kinds() -> list[ModuleType]:
    from generator.reader.kinds import tickpad

    return [tickpad]


KINDS = ("tick-pad",)
"""The sheet kinds read here (the ``kind:`` of their layout files)."""


def item_of_layout(layout: str | None):
    """The item ``--layout`` names when it is of a kind read here (``None`` for All In layouts, or no ``--layout``).

    Raises:
        InputError: ``layout`` is neither a shipped id nor a valid file.
    """
    if not layout:
        return None
    from generator.core.shipped import resolve_layout
    from generator.games.registry import load_any

    item = load_any(resolve_layout(layout))
    return item if kind_of_item(item) is not None else None


def kind_of_item(item) -> ModuleType | None:
    """The kind module reading ``item`` (``None``: not a kind read here)."""
    return next((k for k in _kinds() if k.owns_item(item)), None)


def kind_of_code(text: str | None) -> ModuleType | None:
    """The kind module whose items a sheet code's text names (``None``: All In, or not a sheetsmith code)."""
    if not text:
        return None
    return next((k for k in _kinds() if k.owns_code(text)), None)


def candidate_codes(paper, item=None) -> list[str]:
    """The code texts the sheets of the kinds read here print on ``paper`` (``item``'s alone when given), for
    matching a code too small or soft to decode (:func:`generator.reader.code.match_code`)."""
    if item is not None:
        kind = kind_of_item(item)
        return kind.code_texts(paper, item) if kind is not None else []
    return [t for k in _kinds() for t in k.code_texts(paper)]


def read_other(ctx: PhotoContext):
    """Hand the photo to the kind its ``--layout`` item or its code names; ``None`` when neither names one."""
    kind = kind_of_item(ctx.item) if ctx.item is not None else kind_of_code(ctx.code.text)
    return kind.read(ctx) if kind is not None else None
