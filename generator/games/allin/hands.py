"""All In (flip&write): what a hand of written cards scores, and how hands compare.

Pure rules core: no I/O, no drawing.  It implements the All In rulebook's
poker scoring aid (*Poker Scoring Hands reference*) and the Best Scoring Hand
comparison that follows it, as read in docs/rules.md (All In, *What a hand
scores* and *Best Scoring Hand*):

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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from operator import attrgetter, itemgetter
from types import MappingProxyType
from typing import Any

from generator.core.cards import RANKS, SUITS, Card

__all__ = ["Category", "POINTS", "NOTHING_KEY", "HandResult", "evaluate"]


class Category(enum.IntEnum):
    """A scoring category of the All In scoring aid, weakest (``pair``) to strongest.

    Integer values 1..7 follow the aid's order, so categories compare as
    hand strength does (``Category.straight < Category.full_house``).  A
    flush or a high card is no category at all (``None`` in
    :class:`HandResult`).  Points are in :data:`POINTS`.

    Rulebook: the numbered scoring aid printed on the player sheet, which
    lists the hands from weakest to strongest.
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
# Reference path (_evaluate_general): any number of cards, repeated cards
# allowed.  It groups the cards by rank and by suit and applies _choose.
#
# Fast path (evaluate): when no card repeats, a hand's result depends only on
# the multiset of its ranks, straight flushes aside.  Each rank has a prime;
# the product of a hand's primes names its rank multiset, and _TABLE maps each
# multiset of 0..5 ranks (at most 4 of a rank) to a precomputed entry.  The
# fast path then only finds the combination's cards and checks that the cards
# it relies on do not repeat; anything else (a repeated card, 6+ cards, a
# Joker, malformed input) falls back to the reference path.
# tests/test_allin_hands.py checks that both paths agree.

_PRIME: dict[int, int] = dict(zip(RANKS, (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)))
_PRIME_OF: list[int] = [_PRIME.get(i, 0) for i in range(30)]
"""Rank -> prime as a list (indexing beats a dict lookup); 0 at the indexes 0, 1
and 15..29, so a product with such a rank is 0, never a table key.  A Joker's
rank (None) raises TypeError, which sends it to the reference path."""
_SUIT_OFFSET: dict[str, int] = {"S": 0, "H": 16, "D": 32, "C": 48}
"""rank + offset is a different small int for each of the 52 cards."""
_SUIT_SET = frozenset(SUITS)
_TABLE_MAX_CARDS = 5
"""_TABLE covers hands of up to this many cards; bigger hands take the reference path."""

_new = object.__new__
_set_attr = object.__setattr__
_suit_of = attrgetter("suit")
_ALL_BUT: tuple[itemgetter, ...] = tuple(itemgetter(*(j for j in range(5) if j != i)) for i in range(5))
"""_ALL_BUT[i](five) is the 4-tuple of five without its item i, order kept."""


def _result(category: Category, points: int, combination: tuple[Card, ...], key: tuple[int, ...]) -> HandResult:
    # Equal to HandResult(category, points, combination, key), built without
    # the frozen dataclass __init__ (one object.__setattr__ per field), which
    # costs as much as a whole fast-path evaluation.  evaluate() inlines this.
    result = _new(HandResult)
    _set_attr(result, "__dict__", {"category": category, "points": points, "combination": combination, "key": key})
    return result


_NOTHING = HandResult(None, 0, (), NOTHING_KEY)

# (top, rank bitmask) from the highest straight down; bit 1 is the low ace.
_STRAIGHTS: tuple[tuple[int, int], ...] = tuple(
    (top, sum(1 << v for v in range(top - 4, top + 1))) for top in range(14, 4, -1)
)


def _rank_mask(ranks: Iterable[int]) -> int:
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
    """Best category of a hand, and the strongest way to form it.

    groups: rank -> number of pairwise-different suits among the hand's cards
    of that rank; ranks: every card's rank; sf_top: top card of the highest
    straight flush, or 0.  Returns (category, values, need): values as in
    HandResult.key, need maps each rank to how many of its cards the
    combination takes.  (None, (), {}) when no category.
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
        pair = next((p for p in pairs if p != t), None)
        if pair is not None:
            return Category.full_house, (t, pair), {t: 3, pair: 2}
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


def _key(category: Category, values: tuple[int, ...], need: Mapping[int, int], ranks: Iterable[int]) -> tuple[int, ...]:
    """HandResult.key: category, values, then the ranks not taken by ``need``, highest first."""
    left = dict(need)
    others = []
    for r in sorted(ranks, reverse=True):
        if left.get(r):
            left[r] -= 1
        else:
            others.append(r)
    return (int(category), *values, *others)


def _check_card(card: object) -> tuple[int, str]:
    """The card's (rank, suit), once it is a well-formed playing card (no Joker)."""
    try:
        rank, suit = card.rank, card.suit  # type: ignore[attr-defined]
    except AttributeError:
        raise TypeError(f"expected a Card (see generator.core.cards), got {card!r}") from None
    if rank is None and suit is None:
        raise ValueError(
            "a Joker cannot be scored: it reaches a sheet only as the card the player "
            "resolved it to, so pass that card instead"
        )
    if type(rank) is not int or rank not in _PRIME or suit not in _SUIT_SET:
        raise ValueError(f"not a playing card: {card!r} (rank must be 2..14, suit one of S H D C)")
    return rank, suit


def _evaluate_general(cards: Iterable[Card]) -> HandResult:
    """Reference evaluation: any number of cards, repeated cards allowed, every card checked."""
    cards = tuple(cards)
    checked = [_check_card(card) for card in cards]  # (rank, suit) of each card, in order
    ranks = [rank for rank, _ in checked]
    suits_of_rank: dict[int, set[str]] = {}
    ranks_of_suit: dict[str, set[int]] = {}
    for rank, suit in checked:
        suits_of_rank.setdefault(rank, set()).add(suit)
        ranks_of_suit.setdefault(suit, set()).add(rank)
    sf_top, sf_suit = 0, None
    for suit, suit_ranks in ranks_of_suit.items():
        top = _straight_top(_rank_mask(suit_ranks))
        if top > sf_top:
            sf_top, sf_suit = top, suit
    groups = {r: len(s) for r, s in suits_of_rank.items()}
    category, values, need = _choose(groups, ranks, sf_top)
    if category is None:
        return _NOTHING

    picked: list[Card] = []
    if category is Category.straight or category is Category.straight_flush:
        wanted = set(need)  # one card per rank, the first one given (of the flush suit)
        for c, (rank, suit) in zip(cards, checked):
            if rank in wanted and (sf_suit is None or suit == sf_suit):
                wanted.discard(rank)
                picked.append(c)
    else:
        suits_taken: dict[int, set[str]] = {r: set() for r in need}  # first card of each new suit
        for c, (rank, suit) in zip(cards, checked):
            taken = suits_taken.get(rank)
            if taken is not None and len(taken) < need[rank] and suit not in taken:
                taken.add(suit)
                picked.append(c)
    return _result(category, POINTS[category], tuple(picked), _key(category, values, need, ranks))


# _TABLE entries: _NOTHING itself for a rank multiset that scores nothing;
# otherwise (kind, template, used, capped, rank, kicker):
#   template: the result's __dict__ but for "combination" (for a straight, a
#       pair of templates indexed by "all one suit": (straight, straight flush));
#   used: frozenset of the ranks the combination takes cards from;
#   capped: True when the combination does not simply take every card of
#       those ranks (a straight; also a full house made of two trips, should
#       _TABLE_MAX_CARDS ever be raised to 6);
#   rank: the rank of a pair, trips or quads; kicker: the 5-card two pair's
#       fifth card.
_K_PAIR, _K_TWO_PAIR, _K_SET, _K_FULL_HOUSE, _K_STRAIGHT = range(1, 6)
_TableEntry = tuple[int, Any, frozenset[int], bool, int, int | None]
"""(kind, template, used, capped, rank, kicker); the template is a field dict, or a pair of them for a straight."""
_FastCards = Sequence[Any]
"""The fast path's view of a hand: cards trusted to be well formed.  A Joker (rank and suit None) or a
malformed card makes a table lookup raise (TypeError, KeyError), on purpose, and the hand then takes the
reference path; mypy would rightly refuse those None indexes, hence Any."""
_KIND = {
    Category.pair: _K_PAIR,
    Category.two_pair: _K_TWO_PAIR,
    Category.three_of_a_kind: _K_SET,
    Category.four_of_a_kind: _K_SET,
    Category.full_house: _K_FULL_HOUSE,
    Category.straight: _K_STRAIGHT,
}


def _template(category: Category, key: tuple[int, ...]) -> dict[str, object]:
    return {"category": category, "points": POINTS[category], "combination": (), "key": key}


def _build_table() -> dict[int, HandResult | _TableEntry]:
    table: dict[int, HandResult | _TableEntry] = {}
    shared: dict[frozenset[int], frozenset[int]] = {}  # one frozenset object per set of ranks
    for n in range(_TABLE_MAX_CARDS + 1):
        for ranks in combinations_with_replacement(RANKS, n):
            counts: dict[int, int] = {}
            product = 1
            for r in ranks:
                counts[r] = counts.get(r, 0) + 1
                product *= _PRIME[r]
            if n and max(counts.values()) > 4:
                continue  # needs repeated cards: reference path
            category, values, need = _choose(counts, ranks, 0)
            if category is None:
                table[product] = _NOTHING
                continue
            kind = _KIND[category]
            key = _key(category, values, need, ranks)
            template: object = _template(category, key)
            if kind == _K_STRAIGHT:
                sf_key = (int(Category.straight_flush), *key[1:])
                template = (template, _template(Category.straight_flush, sf_key))
            capped = kind == _K_STRAIGHT or any(counts[r] > k for r, k in need.items())
            kicker = key[-1] if kind == _K_TWO_PAIR and n == 5 else None
            used = frozenset(need)
            table[product] = (kind, template, shared.setdefault(used, used), capped, values[0], kicker)
    return table


_TABLE: dict[int, HandResult | _TableEntry] = {}
"""Filled by the first call of evaluate() (a missing entry just means the reference path).  A value is
_NOTHING or a _TableEntry; the fast path tells them apart with ``entry is _NOTHING``, which mypy cannot
narrow on, so it reads entries into variables typed Any."""


def _distinct_cards(cards: _FastCards) -> bool:
    """True when no card repeats (same rank and suit); KeyError for a suit not in S H D C."""
    return len({x.rank + _SUIT_OFFSET[x.suit] for x in cards}) == len(cards)


def _five(cards: _FastCards, entry: _TableEntry) -> HandResult:
    """Fast path for five cards whose ranks form a category other than a pair (entry from _TABLE).

    evaluate() itself handles the pair, the most common case.
    """
    a, b, c, d, e = cards
    kind = entry[0]
    if kind == _K_TWO_PAIR:
        k = entry[5]
        combination = _ALL_BUT[
            0 if a.rank == k else 1 if b.rank == k else 2 if c.rank == k else 3 if d.rank == k else 4
        ](cards)
        w, x, y, z = combination  # two cards of one rank, two of another: match them up
        if w.rank == x.rank:
            differ = w.suit != x.suit and y.suit != z.suit
        elif w.rank == y.rank:
            differ = w.suit != y.suit and x.suit != z.suit
        else:
            differ = w.suit != z.suit and x.suit != y.suit
        if differ:
            result = _new(HandResult)
            fields = entry[1].copy()
            fields["combination"] = combination
            _set_attr(result, "__dict__", fields)
            return result
    elif kind == _K_SET:  # trips or quads
        r = entry[4]
        combination = tuple([x for x in cards if x.rank == r])
        if len(set(map(_suit_of, combination))) == len(combination):
            result = _new(HandResult)
            fields = entry[1].copy()
            fields["combination"] = combination
            _set_attr(result, "__dict__", fields)
            return result
    elif kind == _K_STRAIGHT:  # five different ranks in a row: no card can repeat
        result = _new(HandResult)
        fields = entry[1][a.suit == b.suit == c.suit == d.suit == e.suit].copy()
        fields["combination"] = tuple(cards)
        _set_attr(result, "__dict__", fields)
        return result
    elif kind == _K_FULL_HOUSE and _distinct_cards(cards):  # all five cards
        result = _new(HandResult)
        fields = entry[1].copy()
        fields["combination"] = tuple(cards)
        _set_attr(result, "__dict__", fields)
        return result
    return _fallback(cards)  # a card repeats (a pair's two cards, when evaluate() sends one)


def _other_count(cards: _FastCards) -> HandResult:
    """Fast path for hands of other sizes than 5 (those in _TABLE: 0 to 4 cards)."""
    product = 1
    for x in cards:
        product *= _PRIME_OF[x.rank]
    entry: Any = _TABLE.get(product)  # None, _NOTHING or a _TableEntry (see _TABLE)
    if entry is None:  # 6 or more cards, repeated cards, or the table not filled yet
        return _fallback(cards)
    if entry is _NOTHING:  # all ranks different: cannot repeat a card
        return entry
    if not entry[3] and _distinct_cards(cards):
        used = entry[2]
        result = _new(HandResult)
        fields = entry[1].copy()
        fields["combination"] = tuple([x for x in cards if x.rank in used])
        _set_attr(result, "__dict__", fields)
        return result
    return _fallback(cards)


_TABLE_AFTER = 2000
"""Reference-path evaluations before the table is built: scoring a few sheets (a few dozen hands)
never pays the table's build (about 50-100 ms); scoring many hands builds it once."""
_misses = [0]


def _fallback(cards: Iterable[Card]) -> HandResult:
    if not _TABLE:
        _misses[0] += 1
        if _misses[0] > _TABLE_AFTER:
            # Fill the table in one update.  Threads racing here at worst build
            # it twice; a lookup that misses meanwhile only means the reference
            # path, so results never differ.
            _TABLE.update(_build_table())
    return _evaluate_general(cards)


def evaluate(cards: Sequence[Card]) -> HandResult:
    """Score one All In hand: best category, points, combination and comparison key.

    Args:
        cards: the cards written in the hand's spaces, in any order, empty
            spaces left out: a sequence (list or tuple) of
            :class:`generator.core.cards.Card`; other iterables work too, more
            slowly.  A sheet hand has 0 to 6 cards; hands of 0 to 5 cards
            take the table-driven fast path, larger ones (any size) the
            slower reference path, same rules.  The same card may appear
            more than once.

    Returns:
        A :class:`HandResult`.  The hand scores the single best category
        that some subset of its cards forms; when several subsets form it,
        the strongest for the Best Scoring Hand counts (higher combination
        values first, then higher other cards).

    Raises:
        ValueError: a card is a Joker.  A Joker reaches a sheet only as the
            card the player resolved it to; pass that card instead.
        TypeError: an item has no ``rank``/``suit`` (not a card).

    Cards are trusted to be well formed, as :mod:`generator.core.cards` makes
    them (rank 2..14, suit one of ``S H D C``): the fast path does not look
    at a suit unless it can change the result, so a malformed card (e.g.
    ``Card(5, "X")``) is only sometimes reported (ValueError) and otherwise
    gives an unspecified result.

    Rules (rulebook, *Poker Scoring Hands reference*; docs/rules.md, All In
    readings): pair 2, two pair 4, three of a kind 6, straight 8, full house
    10, four of a kind 12, straight flush 14 points.  Cards grouped by rank
    must have pairwise different suits, in every group: pair, trips, quads,
    both pairs of two pair (two different ranks) and both parts of a full
    house (trips of one rank, pair of another).  A straight is five
    different consecutive values in any suits, the ace high or low but
    never wrapping round; a straight flush is a straight in one suit.
    Flush and high card score nothing (category ``None``, 0 points).
    """
    try:
        if len(cards) == 5:
            a, b, c, d, e = cards
            p: Any = _PRIME_OF  # a Joker's rank (None) raises TypeError here, on purpose (see _PRIME_OF)
            entry: Any = _TABLE[p[a.rank] * p[b.rank] * p[c.rank] * p[d.rank] * p[e.rank]]  # see _TABLE
            if entry is _NOTHING:  # five different ranks, no straight: cannot repeat a card
                return entry
            if entry[0] == _K_PAIR:
                # x, y: the two cards of the pair's rank, in the order given.
                r = entry[4]
                if a.rank == r:
                    x, y = a, (b if b.rank == r else c if c.rank == r else d if d.rank == r else e)
                elif b.rank == r:
                    x, y = b, (c if c.rank == r else d if d.rank == r else e)
                elif c.rank == r:
                    x, y = c, (d if d.rank == r else e)
                else:
                    x, y = d, e
                if x.suit != y.suit:
                    result = _new(HandResult)
                    fields = entry[1].copy()
                    fields["combination"] = (x, y)
                    _set_attr(result, "__dict__", fields)
                    return result
            return _five(cards, entry)
        return _other_count(cards)
    except (KeyError, IndexError, AttributeError, TypeError, ValueError):
        pass  # not in the table (a card repeats, or first call), or malformed input
    return _fallback(cards)
