"""All In (flip&write): the rulebook's counts and the definitions the referee, the checks and the bots share.

A game is 23 rounds (the main deck's 46 cards, two a round); the first two
rounds write in a starting space; 8 cards are set aside as the Golden Deck;
the deck holds 2 Jokers (*Game Overview*, *Setup*).  A hand is complete when
every space of it holds a card (*Completing a Hand*).  Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping

from generator.core.cards import Card
from generator.games.allin.grid import Coord
from generator.games.allin.layout import AllInLayout

ROUNDS = 23
"""Rounds in a game: the 46 cards of the main deck, two a round."""


START_ROUNDS = 2
"""Rounds whose card goes in a starting space."""


GOLDEN_DECK_SIZE = 8
"""Cards set aside face down as the Golden Deck."""


DECK_JOKERS = 2
"""Jokers in the 54-card deck."""


MAX_COST = 8
"""The dearest card to compose: 6 rank steps (half the ring of 13 ranks) and a suit change."""


def complete_hands(layout: AllInLayout, cards: Mapping[Coord, Card]) -> set[str]:
    """Letters of the hands whose every space holds a card (the Golden Card counts as filled).

    Rulebook (*Completing a Hand*): a hand is complete when all its slots
    hold a card, whatever they score.
    """
    golden = layout.golden_coord
    return {letter for letter, hand in layout.hands.items() if all(c in cards or c == golden for c in hand.cells)}
