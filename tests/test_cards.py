"""Card codes (DESIGN.md, "Card codes")."""

import pytest

from generator.core.cards import JOKER, Card, CardCodeError, parse_card, standard_deck


@pytest.mark.parametrize(
    "text, code",
    [
        ("AS", "AS"),
        ("as", "AS"),
        ("10h", "10H"),
        ("Th", "10H"),
        ("t♥", "10H"),
        ("Q♦", "QD"),
        ("qd", "QD"),
        ("2c", "2C"),
        ("K♣", "KC"),
        ("j♠", "JS"),
        ("JK", "JK"),
        ("jk", "JK"),
    ],
)
def test_parse_to_canonical(text, code):
    assert parse_card(text).code == code


def test_ranks_and_suits():
    assert parse_card("AS") == Card(14, "S")
    assert parse_card("10H") == Card(10, "H")
    assert parse_card("JK") is JOKER or parse_card("JK") == JOKER
    assert parse_card("QD").is_red and not parse_card("QC").is_red


@pytest.mark.parametrize("bad", ["", "Q", "1H", "11H", "QX", "ZZ", "10", "H10", "QDD", "♦Q"])
def test_bad_codes_are_refused_with_a_hint(bad):
    with pytest.raises(CardCodeError) as exc:
        parse_card(bad)
    assert "card code" in str(exc.value) and "QD" in str(exc.value)


def test_standard_deck_has_52_distinct_cards_plus_jokers():
    deck = standard_deck(jokers=2)
    assert len(deck) == 54
    assert len(set(deck[:52])) == 52
    assert deck[52:] == [JOKER, JOKER]
