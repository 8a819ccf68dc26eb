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
never negative.  A ``number`` entry with a ``set`` is drawn in the set look
(bands of its colour), one without as a colour field; a text card's paragraph
may start with ``**lead words**``, printed in bold.

Words in several languages: an entry (or the ``back:``) with ``key:
flip7.freeze`` takes the words it does not write itself from the message
catalogue of the language drawn (``cards.flip7.freeze.label`` and ``.text``;
a text card's ``.title`` and ``.body``; a back's ``.subtitle``), see
:mod:`generator.printing.i18n`.  Words the file writes itself are printed as written
in every language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, model_validator

from generator.core.cards import Card, CardCodeError, parse_card
from generator.core.errors import InputError, Problem
from generator.core.models import StrictModel, validate
from generator.core.paths import TEMPLATES_DIR
from generator.core.yamlpos import Document, load_yaml
from generator.printing.text import ComponentHeader, PrintedLine, PrintedText

HEX = r"^#[0-9a-fA-F]{6}$"
KEY = r"^[a-z0-9_]+(\.[a-z0-9_]+)*$"
"""A message key under ``cards.`` of the catalogues: ``flip7.freeze``."""


class BackSpec(StrictModel):
    """The design shared by every card back of a deck."""

    title: PrintedLine = Field(min_length=1, max_length=24)
    subtitle: PrintedLine = Field(default="", max_length=40)
    color: str = Field(default="#1d2b45", pattern=HEX)
    key: str | None = Field(
        default=None, pattern=KEY, description="the subtitle from cards.<key>.subtitle of the catalogue"
    )


class CardEntry(StrictModel):
    """One line of a deck's composition (see the module docstring for the fields of each type)."""

    type: Literal["playing", "joker", "number", "modifier", "action", "text"]
    count: int = Field(default=1, ge=0, le=500, strict=True)
    ranks: (
        list[Annotated[str, BeforeValidator(lambda v: str(v) if isinstance(v, int) and not isinstance(v, bool) else v)]]
        | None
    ) = None
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
    key: str | None = Field(
        default=None, pattern=KEY, description="words not written here come from cards.<key> of the catalogue"
    )

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
        missing = [
            f
            for f in need
            if getattr(self, f) is None and not (self.key and self.type in ("modifier", "action", "text"))
        ]
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
        value: the number, for ``number`` cards; for a Joker, its copy (0, 1, …: even copies are drawn in
            colour, odd ones in black).
        label: ``modifier`` / ``action`` label, or the ``text`` title.
        text: rules text (actions) or paragraphs joined by newlines (text cards).
        set: the set name (``number`` cards of a set).
        color: accent colour, when the entry gives one.
        key: the entry's message key (``flip7.freeze``): ``label`` and ``text`` left empty
            by the entry are drawn from ``cards.<key>`` in the language printed.
    """

    name: str
    type: str
    card: Card | None = None
    value: int | None = None
    label: str = ""
    text: str = ""
    set: str = ""
    color: str | None = None
    key: str = ""


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
        problems += _check_key(entry.key, _KEY_FIELDS.get(entry.type, ()), doc, ("cards", n, "key"))
        faces.extend(_expand(entry, doc, ("cards", n), problems))
    problems += _check_key(spec.back.key, ("subtitle",), doc, ("back", "key"))
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


_KEY_FIELDS = {"modifier": ("label",), "action": ("label", "text"), "text": ("title", "body")}
"""The words a ``key:`` gives each card type (under ``cards.<key>.`` of the catalogue)."""


def _check_key(key: str | None, fields: tuple[str, ...], doc: Document, at: tuple) -> list[Problem]:
    """A problem when ``key`` names no entry of the English catalogue with every one of ``fields``."""
    if not key:
        return []
    if not fields:
        return [
            doc.problem(
                at,
                "key: only modifier, action and text cards (and the back) take their words from the message catalogue",
            )
        ]
    from generator.printing.i18n import messages

    english = messages("en")
    lacking = [f for f in fields if english.get(f"cards.{key}.{f}") is None]
    if lacking:
        known = sorted(
            {
                k[len("cards.") :].rsplit(".", 1)[0]
                for k in english.messages
                if k.startswith("cards.") and k.endswith(f".{fields[0]}")
            }
        )
        return [
            doc.problem(
                at,
                f"key '{key}': the message catalogue has no cards.{key}.{'/'.join(lacking)}"
                f"{'; keys: ' + ', '.join(known) if known else ''}",
            )
        ]
    return []


def _english(entry: CardEntry, field: str) -> str:
    """The entry's own ``field``, else the English catalogue's (for names in manifests and listings)."""
    own = getattr(entry, field)
    if own is not None or not entry.key:
        return own or ""
    from generator.printing.i18n import messages

    value = messages("en").get(f"cards.{entry.key}.{field}", "")
    return "\n".join(value) if isinstance(value, list) else value


def _expand(entry: CardEntry, doc: Document, at: tuple, problems: list[Problem]) -> list[Face]:
    out: list[Face] = []
    if entry.type == "playing":
        for r_i, rank in enumerate(entry.ranks or []):
            for suit in entry.suits or []:
                try:
                    card = parse_card(f"{rank}{suit}")
                except CardCodeError:
                    card = None
                if card is None or card.is_joker:  # "J" + "K" spells the Joker's code
                    problems.append(
                        doc.problem(
                            at + ("ranks", r_i),
                            f"'{rank}{suit}' is not a card: ranks are A 2-10 J Q K, suits S H D C"
                            + (" (a Joker is an entry of type: joker)" if card else ""),
                        )
                    )
                    return []
                out += [Face(card.code, "playing", card=card)] * entry.count
    elif entry.type == "joker":
        out += [Face("JK", "joker", value=k) for k in range(entry.count)]  # copies alternate colour and black
    elif entry.type == "number":
        values = entry.values if entry.values is not None else [entry.value]
        counts = entry.counts or [1] * len(values)
        for value, n in zip(values, counts):
            name = f"{entry.set} {value}" if entry.set else str(value)
            out += [Face(name, "number", value=value, set=entry.set or "", color=entry.color)] * (n * entry.count)
    elif entry.type in ("modifier", "action"):
        name = _english(entry, "label")
        out += [
            Face(
                name, entry.type, label=entry.label or "", text=entry.text or "", color=entry.color, key=entry.key or ""
            )
        ] * entry.count
    elif entry.type == "text":
        name = _english(entry, "title")
        out += [
            Face(
                name,
                "text",
                label=entry.title or "",
                text="\n".join(entry.body or []),
                color=entry.color,
                key=entry.key or "",
            )
        ] * entry.count
    return out
