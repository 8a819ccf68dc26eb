"""Poker card codes: parsing and the canonical form (docs/formats.md, "Card codes").

Input accepts a rank ``A 2 3 4 5 6 7 8 9 10 T J Q K`` followed by a suit
``S H D C`` or ``♠ ♥ ♦ ♣``, case-insensitive (``10h``, ``Th``, ``Q♦``), and
``JK`` for a Joker.  Output is always canonical: ``AS``, ``10H``, ``QD``,
``JK``.

Ranks are integers 2..14 with the ace as 14 (it also plays low in the
A-2-3-4-5 straight; that is the hand evaluator's business, not this
module's).
"""

from __future__ import annotations

from dataclasses import dataclass

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
"""Suit letters in the order sheets print them: spades, hearts, diamonds, clubs."""

SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES: dict[str, str] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS: frozenset[str] = frozenset({"H", "D"})

RANKS: tuple[int, ...] = tuple(range(2, 15))
"""All ranks, 2..14 (J=11, Q=12, K=13, A=14)."""

RANK_LABELS: dict[int, str] = {
    **{r: str(r) for r in range(2, 11)},
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}
"""Canonical printed label of each rank (``10`` is written with two digits)."""

SHEET_RANK_ORDER: tuple[int, ...] = (14, *range(2, 14))
"""Rank order on a sheet's tick row: A 2 3 … 10 J Q K (ace first, as players count)."""

RANK_INPUT: dict[str, int] = {
    **{label: r for r, label in RANK_LABELS.items()},
    "T": 10,
}

SUIT_INPUT: dict[str, str] = {**{s: s for s in SUITS}, **{v: k for k, v in SUIT_SYMBOLS.items()}}


class CardCodeError(ValueError):
    """A string is not a card code.  ``str(err)`` says what was wrong and what is accepted."""


@dataclass(frozen=True, order=True)
class Card:
    """One playing card.

    Attributes:
        rank: 2..14 (ace = 14), or ``None`` for a Joker.
        suit: one of ``S H D C``, or ``None`` for a Joker.
    """

    rank: int | None
    suit: str | None

    @property
    def is_joker(self) -> bool:
        """True for the Joker (no rank, no suit)."""
        return self.rank is None

    @property
    def code(self) -> str:
        """Canonical code: ``AS``, ``10H``, ``QD``; ``JK`` for a Joker."""
        if self.rank is None:  # the Joker (is_joker)
            return "JK"
        return f"{RANK_LABELS[self.rank]}{self.suit}"

    @property
    def rank_label(self) -> str:
        """Printed rank: ``A``, ``2`` … ``10``, ``J``, ``Q``, ``K``; ``JK`` for a Joker."""
        return "JK" if self.rank is None else RANK_LABELS[self.rank]  # rank None: the Joker

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds."""
        return self.suit in RED_SUITS

    def __str__(self) -> str:
        return self.code


JOKER = Card(None, None)


def parse_card(text: str) -> Card:
    """Parse one card code (case-insensitive, suit letter or symbol).

    >>> parse_card("10h").code, parse_card("Th").code, parse_card("q♦").code, parse_card("jk").code
    ('10H', '10H', 'QD', 'JK')

    Raises:
        CardCodeError: the text is not a rank followed by a suit, nor ``JK``.
    """
    if not isinstance(text, str):
        raise CardCodeError(f"card code must be text like 'QD' or '10H', got {text!r}")
    # Phones and some editors append an emoji variation selector to suit symbols (♦️).
    raw = text.strip().replace("\ufe0f", "").replace("\ufe0e", "")
    upper = raw.upper()
    if upper in ("JK", "JOKER"):
        return JOKER
    if len(upper) < 2:
        raise CardCodeError(_explain(raw))
    rank_text, suit_text = upper[:-1], upper[-1]
    rank = RANK_INPUT.get(rank_text)
    suit = SUIT_INPUT.get(suit_text)
    if rank is None or suit is None:
        raise CardCodeError(_explain(raw))
    return Card(rank, suit)


def _explain(raw: str) -> str:
    cut = raw if len(raw) <= 12 else raw[:11] + "…"
    quoted = "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in cut)
    return (
        f"'{quoted}' is not a card code: write a rank (A 2-10 T J Q K) and a suit "
        f"(S H D C or ♠ ♥ ♦ ♣), e.g. QD, 10H, AS"
    )


def standard_deck(jokers: int = 0) -> list[Card]:
    """The 52 cards of a standard deck in suit order S H D C, ranks 2..A, plus ``jokers`` Jokers."""
    deck = [Card(r, s) for s in SUITS for r in RANKS]
    deck.extend([JOKER] * jokers)
    return deck
