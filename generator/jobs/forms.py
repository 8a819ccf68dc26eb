"""Keeping the forms of sheets as they are printed (:mod:`generator.printing.forms`): a user's layout's beside its
file at every render, the shipped sheets' in the package (a maintainer's step after a drawing change:
``python -m generator.jobs.forms``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Optional

from generator.jobs.render import Rendered

if TYPE_CHECKING:
    from generator.games.allin.layout import AllInLayout
    from generator.printing.paper import Paper
    from generator.printing.scene import Scene


def keep_user_form(done: Rendered) -> Optional[Path]:
    """Keep the form (:mod:`generator.printing.forms`) of a sheet drawn from a user's All In layout file in the
    folder beside it, so the reader can read this printing after the layout is edited.

    Returns:
        The form file written; ``None`` for shipped layouts and other items, or when that geometry's form is
        kept already.

    Raises:
        OutputError: the folder beside the layout cannot be written.
    """
    from generator.games.allin.layout import AllInLayout

    if done.shipped or done.source is None or not isinstance(done.item, AllInLayout):
        return None
    from generator.games.allin.sheet import build_allin_sheet
    from generator.printing.forms import forms_beside, keep_form
    from generator.printing.paper import paper
    from generator.printing.readable import geometry_hash

    scene = build_allin_sheet(done.item, paper(done.paper))
    return keep_form(scene, done.item.id, done.paper, geometry_hash(scene), forms_beside(done.source))


def shipped_sheets() -> Iterator[tuple[AllInLayout, Paper, Scene]]:
    """Every shipped All In sheet on every paper size, drawn as today's code draws it (in English)."""
    from generator.core.shipped import shipped_layouts
    from generator.games.allin.layout import load_layout
    from generator.games.allin.sheet import build_allin_sheet
    from generator.printing.paper import papers

    for item in shipped_layouts():
        if item.game == "allin":
            lay = load_layout(item.path)
            for sheet_paper in papers().values():
                yield lay, sheet_paper, build_allin_sheet(lay, sheet_paper)


def store_shipped_forms(folder: Optional[Path] = None) -> list[Path]:
    """Store the form of every shipped All In sheet, on every paper size, that ``folder`` (default: the package's
    :data:`~generator.printing.forms.FORMS_DIR`) lacks.

    Returns:
        The files written (none when every geometry drawn today is stored).
    """
    from generator.printing.forms import FORMS_DIR, keep_form
    from generator.printing.readable import geometry_hash

    written = []
    for lay, sheet_paper, scene in shipped_sheets():
        path = keep_form(scene, lay.id, sheet_paper.id, geometry_hash(scene), folder or FORMS_DIR)
        if path is not None:
            written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover - a maintainer's step, run after a drawing change
    for stored in store_shipped_forms():
        print(f"stored {stored.name}")
