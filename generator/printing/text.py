"""Text that is printed: the sheet fonts must hold every character of it.

The one rule for every printed text (layout names and labels, deck and chip
texts, a player's name drawn on a filled-in sheet): no control character, one
line unless paragraphs are allowed (:func:`generator.core.validation.text_problem`),
and no character the sheet fonts lack (it would print as a box).
"""

from __future__ import annotations

from typing import Annotated, Sequence

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

from generator.core.models import OneLine, StrictModel
from generator.core.validation import describe_char, text_problem


def glyph_problem(text: str, what: str, weights: Sequence[str] = ("regular", "bold", "italic")) -> str | None:
    """The message for text that would print as boxes in any of ``weights`` (no sheet font has all its
    characters), else None.  Line breaks and tabs are not looked at.

    The same words for every printed text: layout names and labels, deck and
    chip texts, a player's name drawn by ``render --fill``.
    """
    from generator.printing.fonts import font_note, missing_glyphs

    visible = "".join(ch for ch in text if ch not in "\n\r\t")
    missing: list[str] = []
    for weight in weights:
        missing += [ch for ch in missing_glyphs(visible, weight) if ch not in missing]
    if not missing:
        return None
    return (
        f"{what}: {', '.join(describe_char(ch) for ch in missing[:3])} cannot be printed: "
        f"{font_note()} (Latin, Greek, Cyrillic and the suits ♠ ♥ ♦ ♣ are fine)"
    )


def printed_text_problem(text: str, what: str, *, max_length: int | None = None, multiline: bool = False) -> str | None:
    """:func:`text_problem` (no control character; one line unless ``multiline``) then :func:`glyph_problem`:
    the rule for any text sheetsmith prints."""
    return text_problem(text, what, max_length=max_length, multiline=multiline) or glyph_problem(text, what)


def _printed(multiline: bool):
    def check(value: str) -> str:
        if printed_text_problem(value, "text", multiline=multiline):
            raise PydanticCustomError(
                "printed_text", "text that cannot be printed", {"multiline": multiline, "check": printed_text_problem}
            )
        return value

    return check


PrintedLine = Annotated[str, AfterValidator(_printed(False))]
"""A one-line text printed on paper: no control character or line break, every character in the sheet fonts."""


PrintedText = Annotated[str, AfterValidator(_printed(True))]
"""Printed paragraphs: as :data:`PrintedLine`, but line breaks allowed."""


ID_PATTERN = r"^[a-z0-9][a-z0-9-]{0,39}$"
"""Ids of layouts and components: lower-case letters, digits and '-', at most 40 characters."""


class ComponentHeader(StrictModel):
    """The keys every deck, chip sheet, pad and ledger file starts with."""

    game: str = Field(min_length=1, max_length=20)
    id: str | None = Field(default=None, pattern=ID_PATTERN)
    name: PrintedLine = Field(min_length=1, max_length=60)
    description: OneLine = Field(default="", max_length=200)
