"""Decks of cards described in YAML (``layouts/decks/<id>.yaml``), validated with located errors.

```yaml
kind: deck
game: flip7                 # which game it belongs to (for listings)
id: flip7-deck              # defaults to the file name
name: "Flip 7 deck"
card_size: poker            # poker (63 × 88 mm) | poker-in (2.5 × 3.5 in) | bridge (2.25 × 3.5 in)
back: {title: "FLIP 7", subtitle: "94 cards", color: "#0f6e8c"}
cards:                      # the composition: entries with counts
  - {type: number, values: [1, 2, 3], counts: [1, 2, 3]}
  - {type: modifier, label: "x2"}
  - {type: action, label: "Freeze", count: 3, text: "…"}
```

Card types:

| type | fields | one card per |
|---|---|---|
| ``playing`` | ``ranks`` (A 2 … 10 J Q K), ``suits`` (S H D C) | rank × suit |
| ``joker`` | ``count`` | copy |
| ``number`` | ``value`` or ``values`` (and ``counts``), ``set``, ``color`` | value × count |
| ``modifier`` / ``action`` | ``label``, ``text`` | copy |
| ``text`` | ``title``, ``body`` (paragraphs), ``color`` | copy |

``count`` (default 1) multiplies every card an entry makes; it may be 0 but
never negative.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal

from typing import Annotated

from pydantic import BeforeValidator, Field, model_validator

from ..cards import Card, CardCodeError, parse_card
from ..errors import InputError, Problem
from ..layout.schema import ComponentHeader, PrintedLine, PrintedText, StrictModel, validate
from ..paths import TEMPLATES_DIR
from ..yamlpos import Document, load_yaml

HEX = r"^#[0-9a-fA-F]{6}$"


class BackSpec(StrictModel):
    """The design shared by every card back of a deck."""

    title: PrintedLine = Field(min_length=1, max_length=24)
    subtitle: PrintedLine = Field(default="", max_length=40)
    color: str = Field(default="#1d2b45", pattern=HEX)


class CardEntry(StrictModel):
    """One line of a deck's composition (see the module docstring for the fields of each type)."""

    type: Literal["playing", "joker", "number", "modifier", "action", "text"]
    count: int = Field(default=1, ge=0, le=500, strict=True)
    ranks: list[Annotated[str, BeforeValidator(lambda v: str(v) if isinstance(v, int) and not isinstance(v, bool) else v)]] | None = None
    suits: list[str] | None = None
    value: int | None = Field(default=None, ge=0, le=99, strict=True)
    values: list[int] | None = None
    counts: list[int] | None = None
    set: PrintedLine | None = Field(default=None, max_length=20)
    color: str | None = Field(default=None, pattern=HEX)
    label: PrintedLine | None = Field(default=None, min_length=1, max_length=16)
    text: PrintedText | None = Field(default=None, max_length=200)
    title: PrintedLine | None = Field(default=None, min_length=1, max_length=40)
    body: list[PrintedText] | None = None

    @model_validator(mode="after")
    def _fields_for_type(self) -> "CardEntry":
        need = {
            "playing": ("ranks", "suits"),
            "number": (),
            "modifier": ("label",),
            "action": ("label",),
            "text": ("title", "body"),
            "joker": (),
        }[self.type]
        missing = [f for f in need if getattr(self, f) is None]
        if missing:
            raise ValueError(f"a '{self.type}' card needs {', '.join(missing)}")
        if self.type == "number" and (self.value is None) == (self.values is None):
            raise ValueError("a 'number' entry needs either value or values")
        if self.counts is not None and (self.values is None or len(self.counts) != len(self.values)):
            raise ValueError("counts must give one count per entry of values")
        if self.counts is not None and any(c < 0 for c in self.counts):
            raise ValueError("counts cannot be negative")
        return self


class DeckSpec(ComponentHeader):
    """A deck file as written."""

    kind: Literal["deck"]
    card_size: str = "poker"
    back: BackSpec
    cards: list[CardEntry] = Field(min_length=1)


@dataclass(frozen=True)
class Face:
    """One physical card of a deck.

    Attributes:
        name: its name in the manifest and listings (``"AS"``, ``"7"``, ``"Freeze"``, ``"Red 12"``).
        type: the entry type it came from.
        card: the playing card, for ``playing`` cards.
        value: the number, for ``number`` cards.
        label: ``modifier`` / ``action`` label, or the ``text`` title.
        text: rules text (actions) or paragraphs joined by newlines (text cards).
        set: the set name (``number`` cards of a set).
        color: accent colour, when the entry gives one.
    """

    name: str
    type: str
    card: Card | None = None
    value: int | None = None
    label: str = ""
    text: str = ""
    set: str = ""
    color: str | None = None


@dataclass
class Deck:
    """A validated deck: its faces in order, the card size (mm) and the back design."""

    id: str
    game: str
    name: str
    description: str
    size_id: str
    width: float
    height: float
    back: BackSpec
    faces: list[Face]
    source: str = ""
    warnings: list[Problem] = field(default_factory=list)


@lru_cache(maxsize=None)
def card_sizes() -> dict[str, tuple[float, float, str]]:
    """Card sizes of ``templates/cards.yaml``: id → (width, height, label) in mm."""
    doc = load_yaml(TEMPLATES_DIR / "cards.yaml")
    return {k: (float(v["width"]), float(v["height"]), str(v["label"])) for k, v in doc.data["sizes"].items()}


def deck_from_document(doc: Document, path: Path) -> Deck:
    """Validate a parsed deck file and expand its composition into faces.

    Raises:
        InputError: located problems (unknown card type, negative count, bad rank or suit, …).
    """
    spec = validate(DeckSpec, doc)
    problems: list[Problem] = []
    sizes = card_sizes()
    if spec.card_size not in sizes:
        problems.append(doc.problem(("card_size",), f"card_size '{spec.card_size}' is not one of {', '.join(sizes)}"))
    faces: list[Face] = []
    for n, entry in enumerate(spec.cards):
        faces.extend(_expand(entry, doc, ("cards", n), problems))
    if problems:
        raise InputError(problems)
    w, h, _ = sizes[spec.card_size]
    return Deck(
        id=spec.id or path.stem,
        game=spec.game,
        name=spec.name,
        description=spec.description,
        size_id=spec.card_size,
        width=w,
        height=h,
        back=spec.back,
        faces=faces,
        source=doc.file,
    )


def _expand(entry: CardEntry, doc: Document, at: tuple, problems: list[Problem]) -> list[Face]:
    out: list[Face] = []
    if entry.type == "playing":
        for r_i, rank in enumerate(entry.ranks or []):
            for s_i, suit in enumerate(entry.suits or []):
                try:
                    card = parse_card(f"{rank}{suit}")
                except CardCodeError:
                    problems.append(doc.problem(at + ("ranks", r_i), f"'{rank}{suit}' is not a card: ranks are A 2-10 J Q K, suits S H D C"))
                    return []
                out += [Face(card.code, "playing", card=card)] * entry.count
    elif entry.type == "joker":
        out += [Face("JK", "joker")] * entry.count
    elif entry.type == "number":
        values = entry.values if entry.values is not None else [entry.value]
        counts = entry.counts or [1] * len(values)
        for value, n in zip(values, counts):
            name = f"{entry.set} {value}" if entry.set else str(value)
            out += [Face(name, "number", value=value, set=entry.set or "", color=entry.color)] * (n * entry.count)
    elif entry.type in ("modifier", "action"):
        out += [Face(entry.label or "", entry.type, label=entry.label or "", text=entry.text or "", color=entry.color)] * entry.count
    elif entry.type == "text":
        out += [Face(entry.title or "", "text", label=entry.title or "", text="\n".join(entry.body or []), color=entry.color)] * entry.count
    return out
