"""Tests for generator.games.allin.hands (All In poker scoring hands).

Expected values come from the rulebook and DESIGN.md readings, from the shared
cases file, from combinatorics, from an independent brute-force evaluator
written here (every subset of the hand, straight from the rule wording), and
from treys as an ordering oracle.  None is copied from the module's output.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import comb

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.cards import JOKER, RANKS, SUITS, Card, parse_card, standard_deck
from generator.games.allin import hands as allin_hands
from generator.games.allin.hands import NOTHING_KEY, POINTS, Category, HandResult, evaluate

from .cases import case_file

CASES_PATH = case_file("allin-hands.yaml")

NAMES = ["pair", "two_pair", "three_of_a_kind", "straight", "full_house", "four_of_a_kind", "straight_flush"]
# Key layout promised by HandResult.key: category as 1..7, weakest first.
CAT = {name: i for i, name in enumerate(NAMES, start=1)}
# Points on the rulebook's scoring aid.
RULEBOOK_POINTS = {
    "pair": 2,
    "two_pair": 4,
    "three_of_a_kind": 6,
    "straight": 8,
    "full_house": 10,
    "four_of_a_kind": 12,
    "straight_flush": 14,
}
# Cards of a category's combination.
COMBINATION_SIZE = {
    "pair": 2,
    "two_pair": 4,
    "three_of_a_kind": 3,
    "straight": 5,
    "full_house": 5,
    "four_of_a_kind": 4,
    "straight_flush": 5,
}


def hand(text: str) -> list[Card]:
    return [parse_card(code) for code in text.split()]


def codes(cards) -> str:
    return " ".join(c.code for c in cards)


def category_name(result: HandResult) -> str | None:
    return None if result.category is None else result.category.name


# --------------------------------------------------------------------------
# Independent brute-force evaluator: try every subset of the hand, accept a
# subset when it *is* exactly one combination as the rulebook describes it,
# and keep the best key (category, values, other cards highest first).


def exact_combination(cards: list[Card]) -> tuple[int, tuple[int, ...]] | None:
    """(category number, values) when ``cards`` as a whole form one combination, else None."""
    by_rank: dict[int, list[str]] = {}
    for c in cards:
        by_rank.setdefault(c.rank, []).append(c.suit)
    sizes = sorted((len(s) for s in by_rank.values()), reverse=True)
    if len(cards) == 5 and sizes == [1, 1, 1, 1, 1]:
        values = sorted(by_rank)
        if values == [2, 3, 4, 5, 14]:
            top = 5  # the ace plays low
        elif values[-1] - values[0] == 4:
            top = values[-1]
        else:
            return None
        one_suit = len({c.suit for c in cards}) == 1
        return (CAT["straight_flush"] if one_suit else CAT["straight"]), (top,)
    if any(len(set(s)) != len(s) for s in by_rank.values()):
        return None  # a same-rank group needs pairwise different suits
    by_size = {}
    for r, s in by_rank.items():
        by_size.setdefault(len(s), []).append(r)
    if sizes == [2]:
        return CAT["pair"], (by_size[2][0],)
    if sizes == [3]:
        return CAT["three_of_a_kind"], (by_size[3][0],)
    if sizes == [4]:
        return CAT["four_of_a_kind"], (by_size[4][0],)
    if sizes == [2, 2]:
        hi, lo = sorted(by_size[2], reverse=True)
        return CAT["two_pair"], (hi, lo)
    if sizes == [3, 2]:
        return CAT["full_house"], (by_size[3][0], by_size[2][0])
    return None


def oracle_key(cards: list[Card]) -> tuple[int, ...]:
    best: tuple[int, ...] = (0,)
    n = len(cards)
    for size in (2, 3, 4, 5):
        for idx in combinations(range(n), size):
            found = exact_combination([cards[i] for i in idx])
            if found is None:
                continue
            category, values = found
            others = sorted((cards[i].rank for i in range(n) if i not in idx), reverse=True)
            best = max(best, (category, *values, *others))
    return best


def check_against_oracle(cards: list[Card]) -> None:
    result = evaluate(cards)
    expected = oracle_key(cards)
    assert result.key == expected, codes(cards)
    if expected == (0,):
        assert result.category is None and result.points == 0 and result.combination == ()
        return
    name = NAMES[expected[0] - 1]
    assert category_name(result) == name
    assert result.points == RULEBOOK_POINTS[name]
    combo = list(result.combination)
    assert len(combo) == COMBINATION_SIZE[name]
    # The combination is made of the hand's cards, in the order given ...
    it = iter(cards)
    assert all(any(c is d for d in it) for c in combo), "combination is not a subsequence of the hand"
    # ... forms exactly the category with the key's values ...
    n_values = len(exact_combination(combo)[1])
    assert exact_combination(combo) == (expected[0], expected[1 : 1 + n_values])
    # ... and the rest of the key is every other card, highest first.
    left = Counter(c.code for c in cards)
    left.subtract(c.code for c in combo)
    others = sorted((parse_card(code).rank for code in left.elements()), reverse=True)
    assert list(expected[1 + n_values :]) == others


def test_oracle_itself_on_hand_worked_hands():
    assert oracle_key(hand("AH AH AS KD QC")) == (1, 14, 14, 13, 12)
    assert oracle_key(hand("AH 2D 3C 4S 5H")) == (4, 5)
    assert oracle_key(hand("9S 9H 9S 4C 4S")) == (2, 9, 4, 9)
    assert oracle_key(hand("QH KD AC 2S 3H")) == (0,)


# --------------------------------------------------------------------------
# Public API shape.


def test_category_names_order_and_points():
    assert [c.name for c in Category] == NAMES
    assert sorted(Category) == list(Category)  # weakest to strongest
    assert Category.pair < Category.two_pair < Category.straight < Category.full_house < Category.straight_flush
    assert {c.name: POINTS[c] for c in Category} == RULEBOOK_POINTS
    assert {c.name: c.points for c in Category} == RULEBOOK_POINTS
    with pytest.raises(TypeError):
        POINTS[Category.pair] = 3  # type: ignore[index]


def test_hand_result_is_a_frozen_dataclass():
    result = evaluate(hand("7C 7D"))
    assert dataclasses.is_dataclass(result)
    assert [f.name for f in dataclasses.fields(HandResult)] == ["category", "points", "combination", "key"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.points = 5  # type: ignore[misc]
    assert result == HandResult(Category.pair, 2, (parse_card("7C"), parse_card("7D")), (1, 7))
    assert hash(result) == hash(HandResult(Category.pair, 2, (parse_card("7C"), parse_card("7D")), (1, 7)))
    assert result.scores and not evaluate(hand("7C 8D")).scores


def test_nothing_key_is_below_every_scoring_key():
    assert NOTHING_KEY == (0,)
    weakest_scoring = evaluate(hand("2C 2D")).key
    assert NOTHING_KEY < weakest_scoring
    assert evaluate(hand("AS KS QS JS 9S")).key == NOTHING_KEY  # a flush scores nothing
    assert evaluate(hand("AS KD QS JS 9S")).key == NOTHING_KEY  # high card
    assert evaluate([]).key == NOTHING_KEY


# --------------------------------------------------------------------------
# The shared cases file.


def _load_cases():
    if not CASES_PATH.is_file():
        reason = f"shared cases not found at {CASES_PATH} (needs the ../shared folder next to the repository)"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason), id="shared-cases-missing")]
    cases = yaml.safe_load(CASES_PATH.read_text(encoding="utf-8"))
    return [pytest.param(case, id=" ".join(str(c) for c in case["cards"])) for case in cases]


@pytest.mark.parametrize("case", _load_cases())
def test_shared_cases(case):
    cards = [parse_card(str(code)) for code in case["cards"]]
    result = evaluate(cards)
    assert category_name(result) == case["category"]
    assert result.points == case["points"]
    check_against_oracle(cards)


# Standard 5-card poker counts from combinatorics, split into All In categories.
EXPECTED_FIVE_CARD_COUNTS = {
    "straight_flush": 10 * 4,
    "four_of_a_kind": 13 * 48,
    "full_house": 13 * comb(4, 3) * 12 * comb(4, 2),
    "straight": 10 * 4**5 - 10 * 4,
    "three_of_a_kind": 13 * comb(4, 3) * comb(12, 2) * 4**2,
    "two_pair": comb(13, 2) * comb(4, 2) ** 2 * 11 * 4,
    "pair": 13 * comb(4, 2) * comb(12, 3) * 4**3,
    # flush (no straight) + high card (no straight, no flush)
    "nothing": 4 * (comb(13, 5) - 10) + (comb(13, 5) - 10) * (4**5 - 4),
}


def test_expected_counts_match_the_cases_file_comment():
    assert sum(EXPECTED_FIVE_CARD_COUNTS.values()) == comb(52, 5)
    if not CASES_PATH.is_file():
        pytest.skip(f"shared cases not found at {CASES_PATH}")
    comment = "\n".join(line for line in CASES_PATH.read_text(encoding="utf-8").splitlines() if line.startswith("#"))
    listed = {
        name: int(n) for name, n in re.findall(r"\b([a-z_]+) (\d+)\b", comment) if name in EXPECTED_FIVE_CARD_COUNTS
    }
    assert listed == EXPECTED_FIVE_CARD_COUNTS


@pytest.mark.slow
def test_all_five_card_hands_category_counts():
    counts: Counter[str] = Counter()
    for five in combinations(standard_deck(), 5):
        result = evaluate(five)
        counts[category_name(result) or "nothing"] += 1
    assert dict(counts) == EXPECTED_FIVE_CARD_COUNTS


# --------------------------------------------------------------------------
# Hand-worked cases.


@pytest.mark.parametrize(
    ("cards", "name", "key", "combination"),
    [
        # duplicates: the second AH is just another card
        ("AH AH AS KD QC", "pair", (1, 14, 14, 13, 12), "AH AS"),
        ("AH AH KD QC JS", None, (0,), ""),
        ("AH AH AH KD QC", None, (0,), ""),
        ("5S 5S", None, (0,), ""),
        ("9S 9H 9S 4C 4S", "two_pair", (2, 9, 4, 9), "9S 9H 4C 4S"),
        ("AS AH AD AC AS", "four_of_a_kind", (6, 14, 14), "AS AH AD AC"),
        ("AH 2H 3H 4H 5H 5H", "straight_flush", (7, 5, 5), "AH 2H 3H 4H 5H"),
        ("AH AH AH AH AH AH", None, (0,), ""),
        # 2-, 3- and 4-card hands
        ("7C 7D", "pair", (1, 7), "7C 7D"),
        ("7C", None, (0,), ""),
        ("", None, (0,), ""),
        ("KS KH KD", "three_of_a_kind", (3, 13), "KS KH KD"),
        ("KS 2H KD", "pair", (1, 13, 2), "KS KD"),
        ("QS QH 3D 3C", "two_pair", (2, 12, 3), "QS QH 3D 3C"),
        ("JS JH JD JC", "four_of_a_kind", (6, 11), "JS JH JD JC"),
        ("2C 3D 4H 5S", None, (0,), ""),
        # 6-card hands
        ("5H 6D 7C 8S 9H 9D", "straight", (4, 9, 9), "5H 6D 7C 8S 9H"),  # straight beats the pair
        ("9D 5H 6D 7C 8S 9H", "straight", (4, 9, 9), "9D 5H 6D 7C 8S"),  # first 9 given is used
        ("9S 9H 9D 4C 4S 2D", "full_house", (5, 9, 4, 2), "9S 9H 9D 4C 4S"),
        ("AS AH AD KS KH KD", "full_house", (5, 14, 13, 13), "AS AH AD KS KH"),  # two trips: aces full
        ("AH 2D 3C 4S 5H 6D", "straight", (4, 6, 14), "2D 3C 4S 5H 6D"),  # 6-high beats the wheel
        ("2H 3H 4H 5H 6H 7S", "straight_flush", (7, 6, 7), "2H 3H 4H 5H 6H"),  # flush beats a higher straight
        ("AS KS QS JS 10S 9S", "straight_flush", (7, 14, 9), "AS KS QS JS 10S"),
        ("QS QH 8D 8C 3S 3H", "two_pair", (2, 12, 8, 3, 3), "QS QH 8D 8C"),  # best two of three pairs
        ("AS AH AD AC KS KH", "four_of_a_kind", (6, 14, 13, 13), "AS AH AD AC"),
        ("KS KH KD KS QH QD", "full_house", (5, 13, 12, 13), "KS KH KD QH QD"),
        ("AS KD QC JH 10S 2D", "straight", (4, 14, 2), "AS KD QC JH 10S"),
        # five cards, rulebook and shapes
        ("AS 10H JD QC KS", "straight", (4, 14), "AS 10H JD QC KS"),
        ("QH KD AC 2S 3H", None, (0,), ""),
        ("KH AD 2C 3S 4H", None, (0,), ""),  # K-A-2 does not wrap
        ("AS KS 9S 5S 3S", None, (0,), ""),  # flush
        ("8S 8H KD 4C 2S", "pair", (1, 8, 13, 4, 2), "8S 8H"),
        ("2C KD 8S 4C 8H", "pair", (1, 8, 13, 4, 2), "8S 8H"),
        ("KS 5H KH 5S AD", "two_pair", (2, 13, 5, 14), "KS 5H KH 5S"),
        ("3S 3H 3D KC 2D", "three_of_a_kind", (3, 3, 13, 2), "3S 3H 3D"),
        ("4S 9H 4C 4D 9D", "full_house", (5, 4, 9), "4S 9H 4C 4D 9D"),
        ("7S 7H 2C 7D 7C", "four_of_a_kind", (6, 7, 2), "7S 7H 7D 7C"),
    ],
)
def test_hand_worked(cards, name, key, combination):
    cards = hand(cards)
    result = evaluate(cards)
    assert category_name(result) == name
    assert result.points == (0 if name is None else RULEBOOK_POINTS[name])
    assert result.key == key
    assert codes(result.combination) == combination


def test_first_of_equal_cards_is_used():
    first, second, other = Card(14, "H"), Card(14, "H"), Card(14, "S")
    result = evaluate([first, second, other, Card(13, "D"), Card(12, "C")])
    assert result.combination[0] is first and result.combination[1] is other


def test_straight_order_wheel_lowest_broadway_highest():
    wheel = evaluate(hand("AH 2D 3C 4S 5H")).key
    six_high = evaluate(hand("2D 3C 4S 5H 6D")).key
    broadway = evaluate(hand("10H JD QC KS AS")).key
    king_high = evaluate(hand("9H 10D JC QS KH")).key
    assert wheel == (4, 5) and six_high == (4, 6)
    assert wheel < six_high < king_high < broadway
    assert broadway < evaluate(hand("2S 2H 2D 3C 3S")).key  # the weakest full house


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        ("3S 3H 3D 5C 6D", "2S 2H 2D KC QD"),  # trips of 3s beat trips of 2s (rulebook)
        ("AS AH 2D 3C 4S", "KS KH QD JC 9S"),  # ace beats king
        ("8S 8H KD 4C 2S", "8D 8C QS JH 10C"),  # kicker decides
        ("8S 8H KD 5C 2S", "8D 8C KS 4H 3C"),  # second kicker
        ("8S 8H KD 5C 3S", "8D 8C KS 5H 2C"),  # last kicker
        ("QS QH 5D 5C 2S", "JS JH 10D 10C AS"),  # high pair first
        ("QS QH 6D 6C 2S", "QD QC 5S 5H AS"),  # then low pair
        ("QS QH 6D 6C 3S", "QD QC 6S 6H 2S"),  # then the fifth card
        ("9S 9H 9D 2C 2S", "8S 8H 8D AC AS"),  # full house: trips first
        ("9S 9H 9D 3C 3S", "9C 9H 9D 2C 2S"),  # then the pair
        ("5S 5H 5D 5C 2S", "4S 4H 4D 4C AS"),  # quads rank
        ("2S 2H 2D 2C 3S", "AS KS QS JS 10H"),  # quads beat the best straight
        ("2S 3S 4S 5S AS", "2S 2H 2D 2C AD"),  # any straight flush beats quads
        ("7S 7H", "6S 6H KD QC JD"),  # a 2-card pair of 7s beats 6s with kickers
        ("AS AH 3D", "AS AH"),  # a leftover card beats none
        ("2C 2D", "KS QS JS 10S 8S"),  # any scoring hand beats a flush
    ],
)
def test_best_scoring_hand_order(stronger, weaker):
    assert evaluate(hand(stronger)).key > evaluate(hand(weaker)).key


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("9S 9H 9D KC 2S", "9C 9H 9S KD 2H"),  # suits never matter
        ("8S 8H KD 4C 2S", "2D 4S KC 8C 8D"),
        ("AH 2D 3C 4S 5H", "5S 4D 3H 2C AC"),
        ("AS KD QS 9S 5S", "7C 6D 4H 3S 2S"),  # two hands scoring nothing tie (neither scores)
    ],
)
def test_best_scoring_hand_ties(a, b):
    assert evaluate(hand(a)).key == evaluate(hand(b)).key


@pytest.mark.parametrize("position", range(5))
def test_joker_raises(position):
    cards = hand("AS KD QC JH 10S")
    cards[position] = JOKER
    with pytest.raises(ValueError, match="Joker"):
        evaluate(cards)
    with pytest.raises(ValueError, match="Joker"):
        evaluate(cards[: position + 1])
    with pytest.raises(ValueError, match="Joker"):
        evaluate([*cards, parse_card("2C")])


def test_not_a_card_raises():
    with pytest.raises(TypeError):
        evaluate(["AS", "KD"])  # type: ignore[list-item]
    with pytest.raises(ValueError):
        evaluate([Card(1, "S"), Card(2, "S")])


def test_list_tuple_and_iterator_agree():
    cards = hand("KS 5H KH 5S AD")
    assert evaluate(cards) == evaluate(tuple(cards)) == evaluate(iter(cards))


# --------------------------------------------------------------------------
# Against the brute-force evaluator.


def test_all_hands_of_up_to_three_cards_with_duplicates():
    deck = standard_deck()
    for n in range(4):
        for cards in combinations_with_replacement(deck, n):
            check_against_oracle(list(cards))


def test_random_hands_with_duplicates():
    rng = random.Random(20240611)
    deck = standard_deck()
    small = [Card(r, s) for r in (9, 10, 11, 12, 13, 14) for s in ("S", "H")]  # many repeats
    for _ in range(6000):
        n = rng.randint(0, 6)
        pool = deck if rng.random() < 0.7 else small
        check_against_oracle([rng.choice(pool) for _ in range(n)])
    for _ in range(3000):  # no repeats: the fast path
        check_against_oracle(rng.sample(deck, rng.randint(4, 6)))


cards_st = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS))
few_cards_st = st.builds(Card, st.sampled_from([2, 3, 4, 5, 14]), st.sampled_from(["S", "H"]))
hands_st = st.one_of(
    st.lists(cards_st, max_size=6),
    st.lists(few_cards_st, max_size=6),
    st.lists(cards_st, min_size=5, max_size=5, unique=True),
)


@settings(max_examples=400)
@given(hands_st)
def test_matches_brute_force(cards):
    check_against_oracle(cards)


@settings(max_examples=400)
@given(hands_st)
def test_fast_path_matches_reference_path(cards):
    assert evaluate(cards) == allin_hands._evaluate_general(cards)


@settings(max_examples=300)
@given(hands_st, st.randoms(use_true_random=False))
def test_result_does_not_depend_on_card_order(cards, rnd):
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    a, b = evaluate(cards), evaluate(shuffled)
    assert (a.category, a.points, a.key) == (b.category, b.points, b.key)
    # the combination may take a different but equal card (3♠ or 3♥ in a straight); its ranks are the same
    assert sorted(c.rank for c in a.combination) == sorted(c.rank for c in b.combination)


@settings(max_examples=300)
@given(st.lists(cards_st, max_size=5), cards_st)
def test_adding_a_card_never_lowers_the_hand(cards, extra):
    before = evaluate(cards)
    after = evaluate([*cards, extra])
    assert after.key[0] >= before.key[0]  # category never drops
    assert after.key >= before.key  # nor the Best Scoring Hand strength


# --------------------------------------------------------------------------
# Against treys (test-only oracle; lower treys rank = better hand).

try:
    import treys
except ImportError:  # test extra not installed
    treys = None

needs_treys = pytest.mark.skipif(treys is None, reason="treys (the test extra) is not installed")

# treys rank ranges (LookupTable) -> All In category; flush and high card score nothing.
TREYS_CLASSES = [
    (10, "straight_flush"),
    (166, "four_of_a_kind"),
    (322, "full_house"),
    (1599, None),  # flush
    (1609, "straight"),
    (2467, "three_of_a_kind"),
    (3325, "two_pair"),
    (6185, "pair"),
    (7462, None),  # high card
]


def treys_class(rank: int) -> str | None:
    for top, name in TREYS_CLASSES:
        if rank <= top:
            return name
    raise AssertionError(rank)


def to_treys(card: Card) -> int:
    label = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}.get(card.rank, str(card.rank))
    return treys.Card.new(label + card.suit.lower())


@pytest.fixture(scope="module")
def treys_eval():
    evaluator = treys.Evaluator()
    return lambda cards: evaluator.evaluate([to_treys(c) for c in cards], [])


@needs_treys
@pytest.mark.slow
def test_all_five_card_hands_order_like_treys():
    """Exhaustive: over every scoring 5-card hand, our key and treys' rank are the same order.

    Each key must map to one treys rank and the other way round, and sorting
    the keys must sort the ranks from worst to best: that settles every pair
    of hands at once.
    """
    evaluator = treys.Evaluator()
    ours_deck = standard_deck()
    treys_deck = [to_treys(c) for c in ours_deck]
    rank_of_key: dict[tuple[int, ...], int] = {}
    key_of_rank: dict[int, tuple[int, ...]] = {}
    for ours, theirs in zip(combinations(ours_deck, 5), combinations(treys_deck, 5)):
        result = evaluate(ours)
        rank = evaluator.evaluate(list(theirs), [])
        name = treys_class(rank)
        assert category_name(result) == name
        if name is None:
            continue
        if rank_of_key.setdefault(result.key, rank) != rank or key_of_rank.setdefault(rank, result.key) != result.key:
            raise AssertionError(f"{codes(ours)}: key {result.key} and treys rank {rank} disagree")
    ordered = sorted(rank_of_key)
    ranks = [rank_of_key[k] for k in ordered]
    assert all(worse > better for worse, better in zip(ranks, ranks[1:]))
    # distinct scoring 5-card values: straight flush 10, quads 156, full house 156,
    # straight 10, trips 858, two pair 858, pair 2860
    assert len(ordered) == 10 + 156 + 156 + 10 + 858 + 858 + 2860


@pytest.mark.slow
@needs_treys
def test_random_pairs_order_like_treys(treys_eval):
    rng = random.Random(7)
    deck = standard_deck()
    checked = 0
    while checked < 20000:
        a, b = rng.sample(deck, 5), rng.sample(deck, 5)
        ra, rb = treys_eval(a), treys_eval(b)
        if treys_class(ra) is None or treys_class(rb) is None:
            continue
        ka, kb = evaluate(a).key, evaluate(b).key
        assert (ka > kb) == (ra < rb) and (ka == kb) == (ra == rb), (codes(a), codes(b))
        checked += 1


five_unique_st = st.lists(cards_st, min_size=5, max_size=5, unique=True)
six_unique_st = st.lists(cards_st, min_size=6, max_size=6, unique=True)


@pytest.mark.slow
@needs_treys
@settings(max_examples=500)
@given(five_unique_st, five_unique_st)
def test_five_card_pairs_order_like_treys(treys_eval, a, b):
    ra, rb = treys_eval(a), treys_eval(b)
    ka, kb = evaluate(a).key, evaluate(b).key
    assert category_name(evaluate(a)) == treys_class(ra)
    if treys_class(ra) is not None and treys_class(rb) is not None:
        assert (ka > kb) == (ra < rb) and (ka == kb) == (ra == rb)


@needs_treys
@settings(max_examples=300)
@given(six_unique_st, six_unique_st)
def test_six_card_hands_agree_with_treys_where_treys_decides(treys_eval, a, b):
    """treys scores the best five of six; we also count the sixth card.

    So where treys strictly prefers one hand, so must we; where treys sees a
    tie, the sixth card may still decide for us.
    """
    ra, rb = treys_eval(a), treys_eval(b)
    if treys_class(ra) is None or treys_class(rb) is None:
        return
    assert category_name(evaluate(a)) == treys_class(ra)
    if ra < rb:
        assert evaluate(a).key > evaluate(b).key
    elif rb < ra:
        assert evaluate(b).key > evaluate(a).key
