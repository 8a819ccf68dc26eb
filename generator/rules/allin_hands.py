"""All In (flip&write): what a hand of written cards scores, and how hands compare.

Pure rules core: no I/O, no drawing.  It implements the rulebook's poker
scoring aid (000_e6ed0c80d6705b52.txt, "Poker Scoring Hands reference") and
the Best Scoring Hand comparison that follows it, as read in DESIGN.md
("Rule readings", All In):

* A hand is whatever cards sit in its spaces (0 to 6 on a sheet; empty
  spaces are simply left out).  It scores one category only, the best one
  that some subset of its cards forms.
* Cards of one rank only group (pair, trips, quads, each part of two pair
  and of a full house) when their suits are pairwise different.  The same
  card may be written twice on a sheet; two A♥ are therefore not a pair.
* A straight is five distinct consecutive values, any suits; the ace plays
  high (10-J-Q-K-A) or low (A-2-3-4-5) but never in the middle (Q-K-A-2-3
  is nothing).  A straight flush is a straight whose five cards share a
  suit.  A flush and a high card score nothing.
* Best Scoring Hand: higher category; then the values of the combination;
  then the hand's other cards, highest first; suits never matter.  See
  :attr:`HandResult.key`.

Use :func:`evaluate`.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from types import MappingProxyType

from generator.cards import RANKS, SUITS, Card

__all__ = ["Category", "POINTS", "NOTHING_KEY", "HandResult", "evaluate"]


class Category(enum.IntEnum):
    """A scoring category of the All In scoring aid, weakest (``pair``) to strongest.

    Integer values 1..7 follow the aid's order, so categories compare as
    hand strength does (``Category.straight < Category.full_house``).  A
    flush or a high card is no category at all (``None`` in
    :class:`HandResult`).  Points are in :data:`POINTS`.

    Rulebook: the numbered scoring aid on the player sheet; a hand further
    down the aid is stronger.
    """

    pair = 1
    two_pair = 2
    three_of_a_kind = 3
    straight = 4
    full_house = 5
    four_of_a_kind = 6
    straight_flush = 7

    @property
    def points(self) -> int:
        """Points this category scores for its hand (same as ``POINTS[self]``)."""
        return POINTS[self]


POINTS: Mapping[Category, int] = MappingProxyType(
    {
        Category.pair: 2,
        Category.two_pair: 4,
        Category.three_of_a_kind: 6,
        Category.straight: 8,
        Category.full_house: 10,
        Category.four_of_a_kind: 12,
        Category.straight_flush: 14,
    }
)
"""Points per category, from the scoring aid (pair 2 … straight flush 14).  Read-only."""

NOTHING_KEY: tuple[int, ...] = (0,)
"""The :attr:`HandResult.key` of every hand that scores nothing; below every scoring key."""


@dataclass(frozen=True)
class HandResult:
    """What one hand scores, and its strength for the Best Scoring Hand.

    Attributes:
        category: the best :class:`Category` the hand's cards form, or
            ``None`` when they form none (flush and high card included).
        points: ``POINTS[category]``, or 0 for ``None``.
        combination: the cards forming the category, in the order they were
            given to :func:`evaluate`; ``()`` when ``category`` is ``None``.
            Of several equal cards (the same card written twice) the first
            one given is used.  The other cards of the hand are those not in
            the combination.
        key: a tuple of ints such that, for two hands ``a`` and ``b``,
            ``a.key > b.key`` exactly when ``a`` wins the Best Scoring Hand
            comparison over ``b``, and equal keys are a tie (each tied player
            gets the bonus).  Layout: ``(int(category), *values, *others)``:

            * ``values``: straight and straight flush, the top card (A-2-3-4-5
              tops at 5, 10-J-Q-K-A at 14); full house, trips rank then pair
              rank; two pair, high pair rank then low pair rank; pair, trips
              and quads, the rank.  Ranks are 2..14 (ace 14).
            * ``others``: ranks of every card not in the combination
              (duplicates included), highest first.  A hand with more
              leftover cards beats an equal hand that runs out first.

            Hands scoring nothing all have :data:`NOTHING_KEY` ``(0,)``,
            which is below every scoring key and ties with every other
            non-scoring hand (they never take part in the comparison).

    Rulebook: the Best Scoring Hand passage (stronger category; then higher
    values among the cards of the combination, an ace beating a king; then a
    higher card of the hand that is not part of the combination, suits not
    mattering; a full tie rewards every tied player).
    """

    category: Category | None
    points: int
    combination: tuple[Card, ...]
    key: tuple[int, ...]

    @property
    def scores(self) -> bool:
        """True when the hand forms a category (takes part in the Best Scoring Hand)."""
        return self.category is not None


# --------------------------------------------------------------------------
# Internals.
#
# Fast path: a hand without repeated cards is, apart from straight flushes,
# fully described by the multiset of its ranks.  Each rank gets a prime; the
# product of a hand's primes names its rank multiset, and _TABLE maps every
# multiset of 0..6 ranks (at most 4 of a rank) to a precomputed answer.
# Everything else (repeated cards, straights that may be straight flushes in
# 6-card hands, malformed input) goes through _evaluate_general, which works
# on any number of cards.

_PRIME: dict[int, int] = dict(zip(RANKS, (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)))
_SUIT_OFFSET: dict[str, int] = {"S": 0, "H": 16, "D": 32, "C": 48}
"""rank + offset is a distinct small int per card: used to spot repeated cards."""
_SUIT_SET = frozenset(SUITS)
_TABLE_MAX_CARDS = 6

_new = object.__new__
_set_attr = object.__setattr__


def _result(category: Category, points: int, combination: tuple[Card, ...], key: tuple[int, ...]) -> HandResult:
    # Same object as HandResult(category, points, combination, key), built
    # without the frozen dataclass __init__ (one object.__setattr__ per field),
    # which would cost about as much as the whole evaluation.
    r = _new(HandResult)
    _set_attr(r, "__dict__", {"category": category, "points": points, "combination": combination, "key": key})
    return r


_NOTHING = HandResult(None, 0, (), NOTHING_KEY)

# (top, rank bitmask) from the highest straight down; bit 1 is the low ace.
_STRAIGHTS: tuple[tuple[int, int], ...] = tuple(
    (top, sum(1 << v for v in range(top - 4, top + 1))) for top in range(14, 4, -1)
)


def _rank_mask(ranks) -> int:
    mask = 0
    for r in ranks:
        mask |= 1 << r
    if mask & (1 << 14):
        mask |= 1 << 1
    return mask


def _straight_top(mask: int) -> int:
    """Top card of the highest straight in a rank bitmask (from _rank_mask), or 0."""
    for top, need in _STRAIGHTS:
        if mask & need == need:
            return top
    return 0


def _straight_ranks(top: int) -> tuple[int, ...]:
    return tuple(14 if v == 1 else v for v in range(top, top - 5, -1))


def _choose(
    groups: Mapping[int, int], ranks: Sequence[int], sf_top: int
) -> tuple[Category | None, tuple[int, ...], dict[int, int]]:
    """Best category of a hand, strongest choice among equal categories.

    groups: rank -> number of pairwise-different suits among the hand's cards
    of that rank; ranks: all the hand's ranks; sf_top: top of the best
    straight flush, or 0.  Returns (category, values, need) where need maps
    each rank to how many of its cards the combination uses.
    """
    if sf_top:
        return Category.straight_flush, (sf_top,), dict.fromkeys(_straight_ranks(sf_top), 1)
    quads = [r for r, n in groups.items() if n >= 4]
    if quads:
        q = max(quads)
        return Category.four_of_a_kind, (q,), {q: 4}
    trips = sorted((r for r, n in groups.items() if n >= 3), reverse=True)
    pairs = sorted((r for r, n in groups.items() if n >= 2), reverse=True)
    if trips:
        t = trips[0]
        others = [p for p in pairs if p != t]
        if others:
            return Category.full_house, (t, others[0]), {t: 3, others[0]: 2}
    top = _straight_top(_rank_mask(ranks))
    if top:
        return Category.straight, (top,), dict.fromkeys(_straight_ranks(top), 1)
    if trips:
        return Category.three_of_a_kind, (trips[0],), {trips[0]: 3}
    if len(pairs) >= 2:
        return Category.two_pair, (pairs[0], pairs[1]), {pairs[0]: 2, pairs[1]: 2}
    if pairs:
        return Category.pair, (pairs[0],), {pairs[0]: 2}
    return None, (), {}


def _key(category: Category, values: tuple[int, ...], need: Mapping[int, int], ranks: Sequence[int]) -> tuple[int, ...]:
    left = Counter(ranks)
    left.subtract(need)
    others = sorted(left.elements(), reverse=True)
    return (int(category), *values, *others)


def _check_card(card: object) -> None:
    try:
        rank, suit = card.rank, card.suit  # type: ignore[attr-defined]
    except AttributeError:
        raise TypeError(f"expected a Card (see generator.cards), got {card!r}") from None
    if rank is None and suit is None:
        raise ValueError(
            "a Joker cannot be scored: it reaches a sheet only as the card the player "
            "resolved it to, so pass that card instead"
        )
    if rank not in _PRIME or suit not in _SUIT_SET:
        raise ValueError(f"not a playing card: {card!r} (rank must be 2..14, suit one of S H D C)")


def _evaluate_general(cards: Sequence[Card]) -> HandResult:
    """Reference evaluation of any number of cards, repeated cards allowed."""
    cards = tuple(cards)
    for card in cards:
        _check_card(card)
    ranks = [c.rank for c in cards]
    suits_of_rank: dict[int, set[str]] = {}
    ranks_of_suit: dict[str, set[int]] = {}
    for c in cards:
        suits_of_rank.setdefault(c.rank, set()).add(c.suit)
        ranks_of_suit.setdefault(c.suit, set()).add(c.rank)
    sf_top, sf_suit = 0, None
    for suit in SUITS:
        top = _straight_top(_rank_mask(ranks_of_suit.get(suit, ())))
        if top > sf_top:
            sf_top, sf_suit = top, suit
    groups = {r: len(s) for r, s in suits_of_rank.items()}
    category, values, need = _choose(groups, ranks, sf_top)
    if category is None:
        return _NOTHING

    picked: list[int] = []
    if category in (Category.straight, Category.straight_flush):
        wanted = set(need)
        for i, c in enumerate(cards):
            if c.rank in wanted and (sf_suit is None or c.suit == sf_suit):
                wanted.discard(c.rank)
                picked.append(i)
    else:
        suits_taken: dict[int, set[str]] = {r: set() for r in need}
        for i, c in enumerate(cards):
            taken = suits_taken.get(c.rank)
            if taken is not None and len(taken) < need[c.rank] and c.suit not in taken:
                taken.add(c.suit)
                picked.append(i)
    combination = tuple(cards[i] for i in picked)
    return _result(category, POINTS[category], combination, _key(category, values, need, ranks))


# Table entry kinds.
_K_NOTHING = 0  # (0,)
_K_STRAIGHT = 1  # (1, straight_key, straight_flush_key); straight of exactly the 5 distinct ranks
_K_GROUP = 2  # (2, category, points, key, ranks_used, capped); capped: fewer than all cards of a used rank


def _build_table() -> dict[int, tuple]:
    table: dict[int, tuple] = {}
    for n in range(_TABLE_MAX_CARDS + 1):
        for ranks in combinations_with_replacement(RANKS, n):
            counts = Counter(ranks)
            if counts and max(counts.values()) > 4:
                continue  # only reachable with repeated cards: general path
            product = 1
            for r in ranks:
                product *= _PRIME[r]
            category, values, need = _choose(counts, ranks, 0)
            if category is None:
                entry: tuple = (_K_NOTHING,)
            elif category is Category.straight:
                # A straight flush is only possible here; decided per hand.
                entry = (
                    _K_STRAIGHT,
                    _key(category, values, need, ranks),
                    _key(Category.straight_flush, values, need, ranks),
                )
            else:
                capped = any(counts[r] > k for r, k in need.items())
                entry = (_K_GROUP, category, POINTS[category], _key(category, values, need, ranks), frozenset(need), capped)
            table[product] = entry
    return table


_TABLE = _build_table()
_P = _PRIME
_SO = _SUIT_OFFSET
_SF = Category.straight_flush
_ST = Category.straight
_SF_POINTS = POINTS[_SF]
_ST_POINTS = POINTS[_ST]


def evaluate(cards: Sequence[Card]) -> HandResult:
    """Score one All In hand: its best category, points, combination and comparison key.

    Args:
        cards: the cards written in the hand's spaces, any order, empty
            spaces left out: a sequence (list or tuple) of
            :class:`generator.cards.Card`.  A sheet hand has 0 to 6 cards
            (any other count is evaluated the same way, just not on the fast
            path).  The same card may appear more than once.

    Returns:
        A :class:`HandResult`.  The hand scores the single best category
        formed by any subset of its cards; when several subsets form it, the
        strongest one for the Best Scoring Hand counts (higher combination
        values first, then higher other cards).

    Raises:
        ValueError: a card is a Joker (a Joker only reaches a sheet as the
            card the player resolved it to; pass that card), or a card's rank
            is not 2..14 or its suit not one of ``S H D C``.
        TypeError: an item is not a card.

    Rules (rulebook "Poker Scoring Hands reference", DESIGN.md All In
    readings): pair 2, two pair 4, three of a kind 6, straight 8, full house
    10, four of a kind 12, straight flush 14 points.  Same-rank groups need
    pairwise different suits, including both parts of two pair and of a full
    house, whose two ranks differ.  A straight is five different consecutive
    values in any suits, ace high or low but no wrapping past the ace; a
    straight flush is one in a single suit.  Flush and high card: no
    category, 0 points.
    """
    try:
        if len(cards) == 5:
            a, b, c, d, e = cards
            ra, rb, rc, rd, re = a.rank, b.rank, c.rank, d.rank, e.rank
            entry = _TABLE[_P[ra] * _P[rb] * _P[rc] * _P[rd] * _P[re]]
            kind = entry[0]
            if kind == _K_NOTHING:
                # Five different ranks; suits only matter to validity here.
                if _SUIT_SET.issuperset((a.suit, b.suit, c.suit, d.suit, e.suit)):
                    return _NOTHING
            elif kind == _K_GROUP:
                if len({ra + _SO[a.suit], rb + _SO[b.suit], rc + _SO[c.suit], rd + _SO[d.suit], re + _SO[e.suit]}) == 5:
                    used = entry[4]
                    return _result(
                        entry[1], entry[2], tuple([x for x in cards if x.rank in used]), entry[3]
                    )
            else:  # five different ranks in a row
                sa = a.suit
                if sa == b.suit == c.suit == d.suit == e.suit:
                    if sa in _SUIT_SET:
                        return _result(_SF, _SF_POINTS, tuple(cards), entry[2])
                elif _SUIT_SET.issuperset((sa, b.suit, c.suit, d.suit, e.suit)):
                    return _result(_ST, _ST_POINTS, tuple(cards), entry[1])
        else:
            product = 1
            seen = set()
            for x in cards:
                r = x.rank
                product *= _P[r]
                seen.add(r + _SO[x.suit])
            if len(seen) == len(cards):
                entry = _TABLE[product]
                kind = entry[0]
                if kind == _K_NOTHING:
                    return _NOTHING
                if kind == _K_GROUP and not entry[5]:
                    used = entry[4]
                    return _result(entry[1], entry[2], tuple([x for x in cards if x.rank in used]), entry[3])
    except (KeyError, AttributeError, TypeError, ValueError):
        pass  # repeated ranks beyond the table, or malformed input: checked below
    return _evaluate_general(cards)
