"""JSON Schemas of sheetsmith's file kinds, generated from the pydantic models the validators use.

Editors with the YAML language server read them (a ``# yaml-language-server:
$schema=…`` line in the file) to complete keys and flag mistakes as you type.
``sheetsmith schema KIND`` prints one; ``docs/schema/KIND.json`` holds them all
(``python -m generator.jobs.schema`` rewrites the folder; a test checks it is up to date).

Each schema starts from the model its file's validator uses, so the keys and
types cannot drift apart.  Where a validator reads a part by hand for better
messages (the grid, card codes, a Flip 7 pad's lines, the ``style:`` and
``strings:`` overrides), the schema's model here is a subclass that spells
that part out for editors; the tests check that schema and validator reject
the same broken files.  The schemas are JSON Schema draft-07 (what the YAML
language server reads).

Kinds: ``allin-layout``, ``deck``, ``chips``, ``pad`` (score pads, tick pads and
ledgers), ``allin-sheet`` (a typed-in sheet), ``flip7-pad`` (a typed-in score
pad), ``allin-game-log``, ``fundex-log``, ``flipflop-log``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Callable, Literal, Optional, Union

from pydantic import BaseModel, Field, StringConstraints, create_model

DRAFT = "http://json-schema.org/draft-07/schema#"


def card_pattern(jokers: bool = True) -> str:
    """A regular expression (JSON Schema syntax) for the card codes :func:`generator.core.cards.parse_card` reads.

    Built from the same rank and suit tables: ranks ``A 2-10 T J Q K``, suits ``S H D C ♠ ♥ ♦ ♣``,
    any case, spaces around it allowed, an emoji variation selector after the suit allowed;
    ``JK`` (or ``joker``) for a Joker when ``jokers``.
    """
    from generator.core.cards import RANK_INPUT, SUIT_INPUT

    def anycase(text: str) -> str:
        return "".join(f"[{ch.upper()}{ch.lower()}]" if ch.isalpha() else ch for ch in text)

    ranks = "|".join(anycase(r) for r in sorted(RANK_INPUT, key=lambda r: (-len(r), r)))
    suits = "".join(sorted(s.upper() + s.lower() if s.isalpha() else s for s in SUIT_INPUT))
    card = f"(?:{ranks})[{suits}][\ufe0e\ufe0f]?"
    if jokers:
        card = f"(?:{card}|{anycase('jk')}|{anycase('joker')})"
    return rf"^\s*{card}\s*$"


def _card(jokers: bool = True, description: str = "a card code such as QD, 10H, T♠") -> Any:
    return Annotated[str, StringConstraints(pattern=card_pattern(jokers)), Field(description=description)]


GRID_PATTERN = r"^[o*G| \n-]*$"
"""Characters an All In layout's grid may hold: cells ``o * G``, links ``-`` and ``|``, blanks, line breaks."""
CELL_PATTERN = r"^[a-z]{1,2}[1-9][0-9]{0,2}$"
"""A space name: column letter(s) and row number, ``c3``."""


def _partial(model: type[BaseModel], name: str) -> type[BaseModel]:
    """``model`` with every field optional (the ``style:`` and ``strings:`` overrides of a template)."""
    from generator.core.models import StrictModel

    # (annotation, FieldInfo) per field.  Any: mypy checks a ``**dict`` against every keyword of create_model
    # (__config__, __base__, ...), so only Any values pass; the annotations are built at run time anyway.
    fields: dict[str, Any] = {
        k: (
            Optional[f.annotation],
            Field(default=None, description=f.description, json_schema_extra=None, **_constraints(f)),
        )
        for k, f in model.model_fields.items()
    }
    return create_model(name, __base__=StrictModel, __doc__=model.__doc__, **fields)


def _constraints(field) -> dict:
    """The length, range and pattern limits of a pydantic field, as ``Field`` keywords."""
    out = {}
    for m in field.metadata:
        for key in ("min_length", "max_length", "ge", "le", "gt", "lt", "pattern"):
            value = getattr(m, key, None)
            if value is not None:
                out[key] = value
    return out


def _allin_layout() -> type[BaseModel]:
    from generator.games.allin.layout import MAX_HANDS, HandSpec, LayoutSpec, Strings, Style

    letters = "".join(chr(ord("A") + i) for i in range(MAX_HANDS))

    class AllInLayoutFile(LayoutSpec):
        """An All In player sheet layout (docs/layouts.md)."""

        golden: _card(False, "the card printed in the Golden Card space, e.g. QD")  # type: ignore[valid-type]
        grid: Annotated[
            str,
            StringConstraints(pattern=GRID_PATTERN),
            Field(
                description="the grid: o card space, * starting space, G Golden Card, --- and | links (write it as "
                "'grid: |')"
            ),
        ]
        hands: dict[Annotated[str, StringConstraints(pattern=f"^[{letters}]$")], HandSpec] = Field(
            description="one entry per hand letter: {reward: single|double, bonus: N}",
            json_schema_extra={"additionalProperties": False},
        )
        style: Optional[_partial(Style, "StyleOverrides")] = None  # type: ignore[valid-type]
        strings: Optional[_partial(Strings, "StringOverrides")] = None  # type: ignore[valid-type]

    return AllInLayoutFile


def _deck() -> type[BaseModel]:
    from generator.printing.deck import CardEntry, DeckSpec

    class CardEntryFile(CardEntry):
        __doc__ = CardEntry.__doc__
        ranks: Optional[list[Union[str, int]]] = Field(  # type: ignore[assignment]
            default=None, description="ranks such as [A, 2, 3, …, 10, J, Q, K]"
        )

    class DeckFile(DeckSpec):
        """A deck of cards to print (docs/formats.md, "Decks")."""

        cards: list[CardEntryFile] = Field(min_length=1)  # type: ignore[assignment]

    return DeckFile


def _chips() -> type[BaseModel]:
    from generator.printing.chips import ChipSheetSpec

    return ChipSheetSpec


def _pad() -> type[BaseModel]:
    from generator.games.pads import PadSpec

    return PadSpec


def _allin_sheet() -> type[BaseModel]:
    from generator.games.allin.typed_sheet import TypedSheetSpec

    class AllInSheetFile(TypedSheetSpec):
        """A finished All In sheet, typed in (docs/formats.md): one token per grid position."""

        game: Literal["allin"]
        layout: str = Field(description="a shipped layout id such as q-diamonds, or a path to a layout file")

    return AllInSheetFile


def _flip7_pad() -> type[BaseModel]:
    from generator.core.models import StrictModel
    from generator.games.flip7.pad import Flip7PadSpec

    number = Annotated[int, Field(ge=0, le=12)]
    modifier = Annotated[str, StringConstraints(pattern=r"^\s*(?:[xX×]2|\+(?:2|4|6|8|10)|(?:[0-9]|1[0-2]))\s*$")]
    card = Union[number, modifier]

    class ScoreEntry(StrictModel):
        """A line with a written score: the score alone, or the cards and the score (checked)."""

        cards: Optional[list[card]] = None
        score: Optional[Annotated[int, Field(ge=0)]] = None

    bust = Annotated[str, StringConstraints(pattern=r"^\s*[Bb][Uu][Ss][Tt]\s*$")]
    line = Union[list[card], bust, ScoreEntry]

    class Flip7PadFile(Flip7PadSpec):
        """A Flip 7 score pad, typed in (docs/formats.md)."""

        game: Literal["flip7"]
        rounds: list[dict[str, line]] = Field(
            default_factory=list,
            description="one mapping per round, player: [cards] | bust | {score: N} | {cards: [...], score: N}",
        )

    return Flip7PadFile


def _game_log() -> type[BaseModel]:
    from generator.games.allin.game_log import GameLogSpec

    return GameLogSpec


def _fundex_log() -> type[BaseModel]:
    from generator.games.fundex.log import FundexLogSpec, FundexRoundSpec

    class FundexLogFile(FundexLogSpec):
        """An All In (Fundex) round log (docs/formats.md)."""

        game: Literal["fundex"]
        rounds: list[FundexRoundSpec] = Field(min_length=1)  # type: ignore[assignment]

    return FundexLogFile


def _flipflop_log() -> type[BaseModel]:
    from generator.games.flipflop.log import FlipFlopLogSpec, FlipFlopRoundSpec

    class FlipFlopLogFile(FlipFlopLogSpec):
        """A Flip Flop round log (docs/formats.md)."""

        game: Literal["flipflop"]
        rounds: list[FlipFlopRoundSpec] = Field(min_length=1)  # type: ignore[assignment]

    return FlipFlopLogFile


KINDS: dict[str, tuple[str, Callable[[], type[BaseModel]]]] = {
    "allin-layout": ("All In sheet layout (layouts/allin/*.yaml)", _allin_layout),
    "deck": ("Deck (layouts/decks/*.yaml, kind: deck)", _deck),
    "chips": ("Chip sheet (layouts/chips/*.yaml, kind: chips)", _chips),
    "pad": ("Score pad, tick pad or ledger (layouts/pads/*.yaml, kind: pad | tick-pad | ledger)", _pad),
    "allin-sheet": ("Typed-in All In sheet (game: allin, layout:, grid:)", _allin_sheet),
    "flip7-pad": ("Typed-in Flip 7 score pad (game: flip7, players:, rounds:)", _flip7_pad),
    "allin-game-log": ("All In game log (game: allin, kind: game-log)", _game_log),
    "fundex-log": ("All In (Fundex) round log (game: fundex)", _fundex_log),
    "flipflop-log": ("Flip Flop round log (game: flipflop)", _flipflop_log),
}
"""Every file kind with a schema: name → (title, the model's factory)."""


def schema(kind: str) -> dict:
    """The JSON Schema (draft-07) of one file kind.

    Raises:
        KeyError: an unknown kind (see :data:`KINDS`).
    """
    title, factory = KINDS[kind]
    model = factory()
    out = model.model_json_schema(by_alias=True, ref_template="#/definitions/{model}")
    defs = out.pop("$defs", None)
    result = {"$schema": DRAFT, "title": title}
    result.update({k: v for k, v in out.items() if k != "title"})
    if defs:
        result["definitions"] = defs
    return result


def schema_text(kind: str) -> str:
    """:func:`schema` as the text of ``docs/schema/KIND.json`` (2-space indent, UTF-8, a final newline)."""
    return json.dumps(schema(kind), indent=2, ensure_ascii=False) + "\n"


def write_schemas(folder: Path) -> list[Path]:
    """Write every kind's schema into ``folder`` (atomically); returns the files."""
    from generator.core.output import write_atomic

    return [write_atomic(folder / f"{kind}.json", schema_text(kind).encode("utf-8")) for kind in KINDS]


if __name__ == "__main__":  # pragma: no cover - regenerate docs/schema/
    from generator.core.paths import ROOT

    for written in write_schemas(ROOT / "docs" / "schema"):
        print(written)
