"""Flip Flop: the rules core, the round-log reader and the report.

Expected values come from the rulebook (``004_908c2153c9730d25.txt``), its
example and the cases in ``../shared/cases/flipflop.yaml``, worked out by hand
next to each assertion.  Amounts are stakes: with 4 stakes or more a player
pays 1 into each of the game, flip and flop pots and keeps 1 aside (reserve).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from generator.cli.tables import print_flipflop_report
from generator.core.cards import parse_card, standard_deck
from generator.core.errors import InputError
from generator.games.flipflop.log import flipflop_report, load_flipflop_log
from generator.games.flipflop.rules import (
    RANK_ORDER,
    End,
    FlipFlopRound,
    FlipFlopRules,
    Play,
    card_value,
    flop_suit,
    hand_value,
    lay_off_problem,
    lowest_of_suit,
    new_game,
    next_dealer,
    pay_in,
    play_game,
    play_round,
    rank,
    spread_kind,
    spread_problem,
)

from .cases import case_file

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
CASES = yaml.safe_load(case_file("flipflop.yaml").read_text(encoding="utf-8"))
P4 = ["Ann", "Bob", "Cy", "Dee"]


def cards(text: str) -> tuple:
    return tuple(parse_card(c) for c in text.split())


def rd(
    up: str,
    hands: dict[str, str],
    end: str,
    final: dict | None = None,
    plays: list[str] | None = None,
    dealer: str | None = None,
) -> FlipFlopRound:
    """A round from short strings (the test's own parser, independent of the log reader)."""
    kind, *who = end.split()
    parsed_plays = None
    if plays is not None:
        parsed_plays = []
        for line in plays:
            words = line.split()
            if words[1] == "spread":
                parsed_plays.append(Play(words[0], "spread", cards(" ".join(words[2:]))))
            else:
                parsed_plays.append(Play(words[0], "layoff", cards(" ".join(words[2:-2])), int(words[-1])))
        parsed_plays = tuple(parsed_plays)
    fin = None if final is None else {p: (v if isinstance(v, int) else cards(v)) for p, v in final.items()}
    return FlipFlopRound(
        {p: cards(h) for p, h in hands.items()},
        parse_card(up),
        End(kind, tuple(who)),  # type: ignore[arg-type]
        dealer,
        parsed_plays,
        fin,
    )


# A deal used by several tests (Ann deals; her last card, 10♠, is up: flip ♠, flop ♣).
# Ann KS QH JD 10C 10S = 50; Bob KH QS JC 10D 9H = 49; lowest spade and club: Dee's A♠ and A♣.
DEAL = {"Ann": "KS QH JD 10C 10S", "Bob": "KH QS JC 10D 9H", "Cy": "2S 3C 4H 5D 6H", "Dee": "AS AC 7H 8D 9D"}


# ---------------------------------------------------------------------------
# Cards, the example, opening hands (cases file)


def test_card_values_and_rank_order_from_the_cases():
    for r, v in CASES["card_values"].items():
        assert card_value(parse_card(f"{r}S")) == v, r
    assert list(RANK_ORDER) == [str(r) for r in CASES["rank_order_low_to_high"]]
    ordered = sorted(cards("KH 10H AH 2H JH QH 9H"), key=rank)
    assert [c.rank_label for c in ordered] == ["A", "2", "9", "10", "J", "Q", "K"]


def test_flip_flop_example_from_the_rulebook():
    """Q♥ up: the best flip card is A♥ (lowest of the up card's suit), the best flop card A♦
    (lowest of the other suit of the same colour)."""
    ex = CASES["flip_flop_example"]
    up = parse_card(ex["up_card"])
    whole_deck = {"deck": standard_deck()}  # the best card is the lowest one that exists
    flip, flop = lowest_of_suit(whole_deck, up.suit), lowest_of_suit(whole_deck, flop_suit(up.suit))
    assert (flip[1].code, flop[1].code) == (ex["best_flip"], ex["best_flop"])
    assert flop_suit("H") == "D" and flop_suit("D") == "H" and flop_suit("S") == "C" and flop_suit("C") == "S"
    hands = {"Ann": cards("QH 5H 2D"), "Bob": cards("AH KD"), "Cy": cards("AD 3H")}
    assert lowest_of_suit(hands, "H") == ("Bob", parse_card("AH"))
    assert lowest_of_suit(hands, "D") == ("Cy", parse_card("AD"))


def test_opening_hands_from_the_cases():
    values = [hand_value(cards(" ".join(h["cards"]))) for h in CASES["opening_hands"]]
    assert values == [h["value"] for h in CASES["opening_hands"]] == [49, 50]


# ---------------------------------------------------------------------------
# Stakes and pots


def test_pay_in_by_stakes():
    """4+: every pot and a reserve; 3: game and flip; 2: game only (+ reserve); 1: all in."""
    assert [(p.game, p.flip, p.flop, p.reserve) for p in map(pay_in, (9, 4, 3, 2, 1))] == [
        (1, 1, 1, 1),
        (1, 1, 1, 1),
        (1, 1, 0, 1),
        (1, 0, 0, 1),
        (1, 0, 0, 0),
    ]
    assert pay_in(1).all_in and not pay_in(2).all_in


def test_short_players_cannot_win_the_pots_they_did_not_pay():
    """Ann 10 stakes (full), Bob 1 (all in: game pot only), Cy 3 (game + flip), Dee 2 (game only).
    Q♥ up (Ann deals): Bob's A♥ and A♦ are lowest, but Bob paid neither pot; Dee's 2♥ and 3♦ likewise.
    Flip (♥) among Ann and Cy: Cy's 9♥ beats Ann's Q♥.  Flop (♦) among Ann only: she has none: kept.
    Pots: game 4, flip 2, flop 1.  Ann goes out: +4.
    Ann 10 - 3 + 4 = 11; Bob 1 - 1 = 0 → out; Cy 3 - 2 + 2 = 3; Dee 2 - 1 = 1; flop pot 1 stays."""
    game = new_game(P4, 10)
    game.stakes.update({"Bob": 1, "Cy": 3, "Dee": 2})
    r = play_round(
        game,
        rd(
            "QH",
            {"Ann": "QH 5S 6S 7S 8C", "Bob": "AH AD 2C 3C 4C", "Cy": "2D 9H 9S 9C KS", "Dee": "2H 3D JS JC KC"},
            "out Ann",
        ),
    )
    assert r.pots == {"game": 4, "flip": 2, "flop": 1}
    assert r.flip == ("Cy", parse_card("9H")) and r.flop is None
    assert game.stakes == {"Ann": 11, "Bob": 0, "Cy": 3, "Dee": 1}
    assert game.pots == {"game": 0, "flip": 0, "flop": 1}
    assert r.eliminated == ["Bob"] and game.out == {"Bob": 1}
    assert not game.breaks
    assert next_dealer(game) == "Cy"  # Bob, next to the left, is out


def test_flop_pot_kept_then_doubled_by_the_next_stakes():
    """Round 1: 6♠ up, flop suit ♣, nobody holds a club: the flop pot of 4 stays.  Dee goes out (+4).
    Round 2: everyone pays again: flop pot 4 + 4 = 8, won by Cy's A♥ (9♦ up, flop ♥).
    Round 1: flip ♠ to Cy's A♠ (+4), Dee out (+4): Ann 7, Bob 7, Cy 11, Dee 11.
    Round 2: flip ♦ to Dee's A♦ (+4), flop 8 to Cy, Ann out (+4): Ann 8, Bob 4, Cy 16, Dee 12."""
    game = play_game(
        P4,
        [
            rd(
                "6S",
                {"Ann": "2H 7D KS 4H 8H", "Bob": "QS 3D JH 5D 6S", "Cy": "AS 9H 10D KH 2D", "Dee": "3H 4D 8S QD 6H"},
                "out Dee",
                dealer="Bob",
            ),
            rd(
                "9D",
                {"Ann": "2H 5C 7S KC QC", "Bob": "4H 6D 8C JS 4S", "Cy": "AH 10H 9C JD 9D", "Dee": "AD 5S 6C KH 2C"},
                "out Ann",
            ),
        ],
        start=10,
    )
    r1, r2 = game.rounds
    # round 1: pots 4/4/4; flip ♠: Cy's A♠ (+4); flop ♣: nobody; game: Dee (+4)
    assert r1.flop is None and r1.carried == {"game": 0, "flip": 0, "flop": 4}
    assert r1.stakes == {"Ann": 7, "Bob": 7, "Cy": 11, "Dee": 11}
    # round 2: Cy deals (after Bob); flop pot 4 carried + 4 = 8 to Cy's A♥; flip ♦: Dee's A♦ (+4); Ann out (+4)
    assert r2.dealer == "Cy" and r2.pots["flop"] == 8 and r2.flop == ("Cy", parse_card("AH"))
    assert r2.won == {"Cy": {"flop": 8}, "Dee": {"flip": 4}, "Ann": {"game": 4}}
    assert game.stakes == {"Ann": 8, "Bob": 4, "Cy": 16, "Dee": 12} and game.pots == {"game": 0, "flip": 0, "flop": 0}


TWO_ROUNDS_KEPT_FLOP = [
    rd(
        "6S",
        {"Ann": "2H 7D KS 4H 8H", "Bob": "QS 3D JH 5D 6S", "Cy": "AS 9H 10D KH 2D", "Dee": "3H 4D 8S QD 6H"},
        "out Dee",
        dealer="Bob",
    ),
    rd(
        "9D",
        {"Ann": "2H 5C 7S KC QC", "Bob": "4H 6D 8C JS 4S", "Cy": "AH 10H 9C JD 9D", "Dee": "AD 5S 6C KH 2C"},
        "out Ann",
    ),
]


def test_kept_flop_doubled_by_stakes_paid_twice_is_an_option():
    """ "il piatto dello slop viene raddoppiato al turno successivo": the flop pot is doubled next round.
    Default (kept_flop 'add'): the kept pot plus the usual stakes (test above).  Option 'double': every
    player paying into the flop pot pays two stakes there that round (when he keeps his reserve, 5+ stakes).

    Round 1 as above: Ann 7, Bob 7, Cy 11, Dee 11, flop pot 4 kept.
    Round 2, all have 5+: each pays game 1, flip 1, flop 2 (4 in all, reserve kept): pots 4 / 4 / 4 + 8 = 12.
    Flip ♦ Dee's A♦ +4, flop ♥ Cy's A♥ +12, Ann goes out +4.
    Ann 7 - 4 + 4 = 7, Bob 7 - 4 = 3, Cy 11 - 4 + 12 = 19, Dee 11 - 4 + 4 = 11 (sum 40)."""
    game = play_game(P4, TWO_ROUNDS_KEPT_FLOP, start=10, rules=FlipFlopRules(kept_flop="double"))
    r1, r2 = game.rounds
    assert r1.carried["flop"] == 4 and r1.stakes == {"Ann": 7, "Bob": 7, "Cy": 11, "Dee": 11}
    assert all((pi.flop, pi.reserve) == (2, 1) for pi in r2.paid.values())
    assert r2.pots == {"game": 4, "flip": 4, "flop": 12} and r2.won["Cy"] == {"flop": 12}
    assert game.stakes == {"Ann": 7, "Bob": 3, "Cy": 19, "Dee": 11} and not game.breaks
    # The default carries the pot and adds single stakes: 4 + 4 = 8 (the test above counts the rest).
    assert play_game(P4, TWO_ROUNDS_KEPT_FLOP, start=10).rounds[1].pots["flop"] == 8


def test_pay_in_when_the_flop_is_paid_twice():
    """Option kept_flop 'double': the second flop stake only from a player who still keeps his reserve."""
    assert [(p.game, p.flip, p.flop, p.reserve) for p in (pay_in(n, double_flop=True) for n in (9, 5, 4, 3, 1))] == [
        (1, 1, 2, 1),
        (1, 1, 2, 1),
        (1, 1, 1, 1),
        (1, 1, 0, 1),
        (1, 0, 0, 0),
    ]


def test_odd_stake_of_a_shared_pot_stays_by_default_or_goes_left_of_the_dealer():
    """The rulebook splits a shared pot "in parti uguali" (in equal parts) and says nothing of a remainder.
    Default (odd_stakes 'stay'): equal shares, the odd stake stays in the pot (test_drop_tied… below).
    Option 'dealer_left': the odd stakes go one each to the tied winners from the dealer's left.
    DEAL, Ann deals: Bob drops with 12, Ann and Cy have 12: the game pot 4 + Bob's extra stake = 5 splits
    2 + 2; from Ann's left the order is Bob, Cy, Dee, Ann, so Cy takes the odd stake.
    Ann 7 + 2 = 9, Bob 7 - 1 = 6, Cy 7 + 3 = 10, Dee 7 + 8 = 15 (sum 40), game pot 0."""
    game = new_game(P4, 10, FlipFlopRules(odd_stakes="dealer_left"))
    r = play_round(game, rd("10S", DEAL, "drop Bob", {"Ann": 12, "Bob": 12, "Cy": 12, "Dee": 15}))
    assert r.game_winners == ["Ann", "Cy"] and r.won["Cy"]["game"] == 3 and r.won["Ann"]["game"] == 2
    assert game.stakes == {"Ann": 9, "Bob": 6, "Cy": 10, "Dee": 15} and game.pots["game"] == 0


# ---------------------------------------------------------------------------
# How a round ends (all on DEAL: pots 4/4/4, flip and flop to Dee: +8)


def settle(end: str, final: dict | None = None, plays: list[str] | None = None):
    game = new_game(P4, 10)
    r = play_round(game, rd("10S", DEAL, end, final, plays))
    assert r.flip == ("Dee", parse_card("AS")) and r.flop == ("Dee", parse_card("AC"))
    return game, r


def test_going_out_takes_the_game_pot():
    """Cy goes out: game pot 4.  Ann 7, Bob 7, Cy 7 + 4 = 11, Dee 7 + 8 = 15."""
    game, r = settle("out Cy")
    assert game.stakes == {"Ann": 7, "Bob": 7, "Cy": 11, "Dee": 15} and r.game_winners == ["Cy"]


def test_drop_right_wins_the_game_pot():
    """Bob drops with 5; everyone else is higher: Bob takes 4 → 11."""
    game, r = settle("drop Bob", {"Ann": 10, "Bob": 5, "Cy": 20, "Dee": 15})
    assert game.stakes == {"Ann": 7, "Bob": 11, "Cy": 7, "Dee": 15} and not r.penalty


def test_drop_wrong_costs_an_extra_stake():
    """Bob drops with 12, Ann has 10: Ann takes the pot 4 plus Bob's extra stake: Ann 7 + 5 = 12, Bob 7 - 1 = 6."""
    game, r = settle("drop Bob", {"Ann": 10, "Bob": 12, "Cy": 20, "Dee": 15})
    assert game.stakes == {"Ann": 12, "Bob": 6, "Cy": 7, "Dee": 15}
    assert r.penalty == {"Bob": 1} and r.pots["game"] == 5


def test_drop_tied_goes_against_the_dropper_and_two_others_split():
    """Bob drops with 12; Ann and Cy also have 12: they share 4 + 1 = 5: 2 each, 1 stays in the game pot."""
    game, r = settle("drop Bob", {"Ann": 12, "Bob": 12, "Cy": 12, "Dee": 15})
    assert game.stakes == {"Ann": 9, "Bob": 6, "Cy": 9, "Dee": 15} and game.pots["game"] == 1
    assert r.game_winners == ["Ann", "Cy"]


def test_stock_running_out_lowest_hand_wins_ties_split():
    """Hands 3, 3, 9, 9 (given as cards for Ann): Ann and Bob split 4: 2 each."""
    game, r = settle("stock Cy", {"Ann": "AH 2C", "Bob": 3, "Cy": 9, "Dee": 9})
    assert r.values == {"Ann": 3, "Bob": 3, "Cy": 9, "Dee": 9}
    assert game.stakes == {"Ann": 9, "Bob": 9, "Cy": 7, "Dee": 15}


def test_tunk_out_takes_the_game_pot_and_every_reserve():
    """Bob lays two three-card spreads: game pot 4 + a reserve stake from Ann, Cy, Dee = 7.
    Ann 6, Bob 7 + 7 = 14, Cy 6, Dee 15 - 1 = 14."""
    game, r = settle("tunk Bob", plays=["Bob spread 8H 9H 10H", "Bob spread 4C 5C 6C"])
    assert r.reserves == {"Ann": 1, "Cy": 1, "Dee": 1}
    assert game.stakes == {"Ann": 6, "Bob": 14, "Cy": 6, "Dee": 14} and not game.breaks


def test_a_tunk_out_with_a_four_card_spread_is_only_going_out():
    game, r = settle("tunk Bob", plays=["Bob spread 8H 9H 10H JH", "Bob spread 4C 5C 6C"])
    (brk,) = game.breaks
    assert brk.player == "Bob" and "does not tunk out" in brk.message
    assert game.stakes == {"Ann": 7, "Bob": 11, "Cy": 7, "Dee": 15}


def test_claim_50_takes_the_game_pot_and_reserves_and_beats_49():
    """Ann shows 50, Bob 49: 50 wins: pot 4 + reserves of Bob, Cy, Dee = 7.  Ann 7 + 7 = 14, Bob 6, Cy 6, Dee 14."""
    game, r = settle("claim Ann Bob")
    assert game.stakes == {"Ann": 14, "Bob": 6, "Cy": 6, "Dee": 14} and r.game_winners == ["Ann"]


def test_claim_49_takes_the_game_pot_only():
    """Only Bob shows his 49 (Ann keeps her 50 hidden): Bob 7 + 4 = 11; no reserves change hands."""
    game, r = settle("claim Bob")
    assert game.stakes == {"Ann": 7, "Bob": 11, "Cy": 7, "Dee": 15} and not r.reserves


def test_two_49_claims_share_and_a_false_claim_is_void():
    game = new_game(P4, 10)
    deal = dict(DEAL, Ann="KS QH JD 10C 9S")  # Ann 49 too (9♠ instead of 10♠; 9♠ up)
    play_round(game, rd("9S", deal, "claim Ann Bob"))
    assert game.stakes == {"Ann": 9, "Bob": 9, "Cy": 7, "Dee": 15}  # 4 split 2 + 2
    game, r = settle("claim Cy")  # Cy's hand is worth 2 + 3 + 4 + 5 + 6 = 20
    (brk,) = game.breaks
    assert brk.player == "Cy" and "worth 20" in brk.message
    assert game.pots["game"] == 4 and game.stakes == {"Ann": 7, "Bob": 7, "Cy": 7, "Dee": 15}


def test_going_out_must_empty_the_hand_and_lay_five_or_six_cards():
    game, _ = settle("out Cy", final={"Cy": "2S"}, plays=["Cy spread 2H 3H 4H"])
    msgs = [(b.player, b.message) for b in game.breaks]
    assert msgs == [
        ("Cy", "Cy goes out but the final hand is worth 2; going out means an empty hand"),
        (
            "Cy",
            "Cy goes out having laid 3 cards; a player draws one card a turn and discards one, so going out "
            "lays 5 cards (then discards the last) or all 6",
        ),
    ]


def test_deal_checks_dealer_turn_up_card_and_one_deck():
    """Round 2 must be dealt by Bob (left of Ann); Cy deals instead, his up card is not in his hand, and
    Ann and Dee were both dealt the A♠."""
    game = play_game(
        P4,
        [
            rd("10S", DEAL, "out Cy"),
            rd(
                "QH",
                dict(DEAL, Cy="2S 3C 4H 5D 6H", Dee="AS AC 7H 8D 9D", Ann="KS QH JD 10C AS"),
                "out Cy",
                dealer="Cy",
            ),
        ],
        start=10,
    )
    msgs = [(b.round, b.player, b.message) for b in game.breaks]
    assert msgs == [
        (2, "Cy", "Cy deals, but the deal passes to the left: it is Bob's turn to deal"),
        (2, "Dee", "A♠ is dealt to Dee and to Ann; a deck holds each card once"),
        (2, "Cy", "the up card Q♥ is the dealer's last card, but it is not in Cy's hand"),
    ]


# ---------------------------------------------------------------------------
# Spreads


@pytest.mark.parametrize(
    "text, why",
    [
        ("QS KS AS", "the ace is low only"),  # A-K-Q wrap
        ("KS AS 2S", "the ace is low only"),
        ("5H 6D 7H", "mixes suits and ranks"),
        ("5H 6H", "a spread needs at least three"),
        ("5H 5D", "a spread needs at least three"),
        ("5H 6H 8H", "not in sequence"),
        ("5H 5D 6H", "mixes suits and ranks"),
    ],
)
def test_invalid_spreads_are_rejected(text, why):
    assert why in spread_problem(cards(text))
    assert spread_kind(cards(text)) is None


@pytest.mark.parametrize(
    "text, kind",
    [
        ("AS 2S 3S", "run"),
        ("10H JH QH KH", "run"),
        ("7S 7H 7D", "set"),
        ("7S 7H 7D 7C", "set"),
        ("4C 2C 3C", "run"),
    ],
)
def test_valid_spreads(text, kind):
    assert spread_problem(cards(text)) is None and spread_kind(cards(text)) == kind


def test_laying_off():
    run, full_set = cards("5H 6H 7H"), cards("7S 7H 7D")
    assert lay_off_problem(run, cards("8H")) is None and lay_off_problem(run, cards("4H 3H")) is None
    assert "does not extend the run" in lay_off_problem(run, cards("9H"))
    assert "does not extend the run" in lay_off_problem(run, cards("8D"))
    assert lay_off_problem(full_set, cards("7C")) is None
    assert "at most four" in lay_off_problem(cards("7S 7H 7D 7C"), cards("7C"))
    assert lay_off_problem(cards("JS QS KS"), cards("AS")) is not None  # no wrap to the ace


def test_lay_off_on_another_players_spread_and_bad_plays_in_a_round():
    game, _ = settle(
        "drop Cy",
        {"Ann": 30, "Bob": 20, "Cy": 1, "Dee": 15},
        ["Bob spread 2H 3H 4H", "Cy layoff 5H on 1", "Ann spread QC KC AC", "Ann layoff 6H on 2", "Dee layoff 5H on 1"],
    )
    msgs = [(b.player, b.message) for b in game.breaks]
    assert msgs[0][0] == "Ann" and "not a spread" in msgs[0][1] and "ace is low only" in msgs[0][1]
    assert msgs[1][0] == "Ann" and "spread 2, which is not a valid spread" in msgs[1][1]
    assert msgs[2][0] == "Dee" and "already on the table" in msgs[2][1]
    assert len(msgs) == 4 and msgs[3][0] == "Dee" and "cannot lay off" in msgs[3][1]


# ---------------------------------------------------------------------------
# Conservation (hypothesis)

DECK = standard_deck()
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def random_round(data, game, legal: bool) -> FlipFlopRound:
    active = game.active
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    deck = list(DECK)
    rng.shuffle(deck)
    hands = {p: tuple(deck[5 * i : 5 * i + 5]) for i, p in enumerate(active)}
    dealer = next_dealer(game)
    up = hands[dealer][-1]
    claimers = [p for p in active if hand_value(hands[p]) in (49, 50)]
    kinds = ["out", "drop", "stock", "tunk"] + (["claim"] if claimers or not legal else [])
    kind = data.draw(st.sampled_from(kinds))
    final = {p: data.draw(st.integers(0, 60)) for p in active}
    if kind == "claim":
        who = (
            tuple(claimers)
            if legal
            else tuple(data.draw(st.lists(st.sampled_from(active), min_size=1, max_size=3, unique=True)))
        )
    elif kind == "stock":
        who = ()
    else:
        who = (data.draw(st.sampled_from(active)),)
    if kind in ("out", "tunk"):
        final = {who[0]: 0}
    if not legal and data.draw(st.booleans()):
        final = {p: v for p, v in final.items() if data.draw(st.booleans())}
    return FlipFlopRound(hands, up, End(kind, who), None, None, final)  # type: ignore[arg-type]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_legal_evenings_conserve_stakes_and_break_no_rule(data):
    """Generated legal evenings (one shuffled deck a round, true claims only): stakes + the three pots
    never change, nobody goes below 0, no rule break is reported."""
    players = NAMES[: data.draw(st.integers(3, 5))]
    rules = FlipFlopRules(
        data.draw(st.sampled_from(["add", "double"])), data.draw(st.sampled_from(["stay", "dealer_left"]))
    )
    game = new_game(players, data.draw(st.integers(1, 12)), rules)
    total = game.total
    for _ in range(data.draw(st.integers(1, 10))):
        if game.finished:
            break
        play_round(game, random_round(data, game, legal=True))
        assert game.total == total
        assert all(s >= 0 for s in game.stakes.values())
    assert game.breaks == []


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_evening_conserves_stakes(data):
    """Logs with false claims and missing final hands are settled without creating or losing stakes."""
    players = NAMES[:4]
    game = new_game(players, data.draw(st.integers(1, 8)))
    for _ in range(data.draw(st.integers(1, 8))):
        if game.finished:
            break
        play_round(game, random_round(data, game, legal=False))
        assert game.total == 4 * game.start
        assert all(s >= 0 for s in game.stakes.values())


# ---------------------------------------------------------------------------
# The logged evening and the log reader


def test_example_evening_verifies_with_hand_counted_stakes():
    """docs/examples/flipflop-evening.yaml, 10 stakes each, counted by hand (each round everyone has
    4 or more, pays 3, pots 4/4/4, unless said otherwise):

    1 Ann deals, Q♥ up: flip ♥ Bob's A♥ +4, flop ♦ Dee's A♦ +4; Cy goes out +4.  Ann 7, Bob 11, Cy 11, Dee 11.
    2 Bob, 6♠: flip ♠ Cy's A♠ +4; flop ♣ nobody: 4 kept; Dee drops with 9 (Ann 31, Bob 28, Cy 19): +4.
      Ann 4, Bob 8, Cy 12, Dee 12; flop pot 4.
    3 Cy, 9♦: flip ♦ Dee's A♦ +4; flop ♥ (4 + 4 = 8) Ann's A♥ +8; Bob drops with 8, Cy and Dee have 8:
      Bob adds a stake, 4 + 1 = 5 split 2 + 2, 1 kept.  Ann 9, Bob 4, Cy 11, Dee 15; game pot 1.
    4 Dee, 7♣: flip ♣ Bob's A♣ +4; flop ♠ Dee's A♠ +4; stock out: Ann and Cy 14: 1 + 4 = 5 split 2 + 2, 1 kept.
      Ann 8, Bob 5, Cy 10, Dee 16; game pot 1.
    5 Ann, J♥: flip Bob's 3♥ +4; flop Dee's A♦ +4; Bob tunks out: 1 + 4 + 3 reserves = 8.
      Ann 4, Bob 14, Cy 6, Dee 16.
    6 Bob, 5♠: flip Bob's A♠ +4; flop Dee's A♣ +4; Ann shows 50, Cy 49: Ann 4 + 3 reserves = 7.
      Ann 8, Bob 14, Cy 2, Dee 16.
    7 Cy, 8♥: Cy has 2: pays the game pot only (game 4, flip 3, flop 3); his A♥ A♦ do not count:
      flip Ann's 5♥ +3, flop Ann's 2♦ +3; Cy goes out +4.  Ann 11, Bob 11, Cy 5, Dee 13.
    Winner: Dee with 13 (the players stop; nobody is out).
    """
    report = flipflop_report(load_flipflop_log(EXAMPLES / "flipflop-evening.yaml"))
    assert report["problems"] == []
    assert [tuple(r["stakes"].values()) for r in report["rounds"]] == [
        (7, 11, 11, 11),
        (4, 8, 12, 12),
        (9, 4, 11, 15),
        (8, 5, 10, 16),
        (4, 14, 6, 16),
        (8, 14, 2, 16),
        (11, 11, 5, 13),
    ]
    assert [tuple(r["carried"].values()) for r in report["rounds"]] == [
        (0, 0, 0),
        (0, 0, 4),
        (1, 0, 0),
        (1, 0, 0),
        (0, 0, 0),
        (0, 0, 0),
        (0, 0, 0),
    ]
    assert [r["dealer"] for r in report["rounds"]] == ["Ann", "Bob", "Cy", "Dee", "Ann", "Bob", "Cy"]
    assert report["rounds"][2]["flop"] == {"player": "Ann", "card": "AH", "won": 8}
    assert report["rounds"][2]["penalty"] == {"Bob": 1}
    assert report["rounds"][4]["reserves"] == {"Ann": 1, "Cy": 1, "Dee": 1}
    assert report["rounds"][6]["paid"]["Cy"] == {"game": 1, "flip": 0, "flop": 0, "reserve": 1}
    assert report["status"] == "stopped" and report["winners"] == ["Dee"] and report["total"] == 40
    assert [(r["place"], r["player"]) for r in report["ranking"]] == [(1, "Dee"), (2, "Ann"), (2, "Bob"), (4, "Cy")]
    json.dumps(report)


def test_report_prints_stakes_table_and_ranking():
    report = flipflop_report(load_flipflop_log(EXAMPLES / "flipflop-evening.yaml"))
    console = Console(record=True, width=220)
    print_flipflop_report(report, console)
    text = console.export_text()
    assert "Ranking" in text and "tunk Bob → Bob +8" in text and "Q♥" in text
    ranking = text[text.index("Ranking") :]
    assert ranking.index("Dee") < ranking.index("Cy")


HEAD = """\
game: flipflop
players: [Ann, Bob, Cy]
start: 10
rounds:
"""


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "evening.yaml"
    path.write_text(HEAD + body, encoding="utf-8")
    return path


ROUND = """\
  - up: QH
    hands:
      Ann: [QH, 3S, 7D, 9C, KC]
      Bob: [AH, 2D, 5S, 6S, 7S]
      Cy: [AD, 4C, 4H, 8C, JS]
"""


def test_rule_breaks_in_a_readable_log_are_listed(tmp_path):
    path = write(
        tmp_path,
        ROUND
        + """\
    plays: [Bob spread QS KS AS]
    end: out Bob
    flip: Cy
    stakes: {Ann: 7, Bob: 14, Cy: 9}
""",
    )
    # Pots 3/3/3.  Flip ♥: Bob's A♥ (+3); flop ♦: Cy's A♦ (+3); Bob out (+3): Ann 7, Bob 13, Cy 10.
    report = flipflop_report(load_flipflop_log(path))
    f = str(path)
    got = [(p["round"], p["player"], p["at"], p["message"]) for p in report["problems"]]
    assert got == [
        (
            1,
            "Bob",
            f"{f}:10:13",
            "not a spread: Q♠ K♠ A♠ is not a run: the ace is low only, so a run cannot go round from K to A",
        ),
        (
            1,
            "Bob",
            f"{f}:11:10",
            "Bob goes out having laid 3 cards; a player draws one card a turn and discards one, "
            "so going out lays 5 cards (then discards the last) or all 6",
        ),
        (1, "Cy", f"{f}:12:11", "the ledger gives the flip pot to Cy, but Bob holds A♥"),
        (1, "Bob", f"{f}:13:27", "the ledger gives Bob 14 stakes after round 1, but the round leaves 13"),
        (1, "Cy", f"{f}:13:35", "the ledger gives Cy 9 stakes after round 1, but the round leaves 10"),
    ]


@pytest.mark.parametrize(
    "body, expected",
    [
        (
            ROUND.replace("8C", "ZZ") + "    end: out Bob\n",
            "9:24: error: unknown card: 'ZZ' is not a card code: write a rank (A 2-10 T J Q K) and a suit "
            "(S H D C or ♠ ♥ ♦ ♣), e.g. QD, 10H, AS",
        ),
        (
            ROUND.replace("8C", "JK") + "    end: out Bob\n",
            "9:24: error: unknown card 'JK': Flip Flop uses a 52-card deck without Jokers",
        ),
        (
            ROUND.replace("Cy: [AD", "Cyy: [AD") + "    end: out Bob\n",
            "9:7: error: unknown player 'Cyy'; did you mean 'Cy'?",
        ),
        (ROUND + "    end: out Bobby\n", "10:14: error: unknown player 'Bobby'; did you mean 'Bob'?"),
        (
            ROUND + "    end: fold Bob\n",
            "10:10: error: unknown end 'fold'; write 'out Bob', 'drop Cy', 'stock' (or 'stock Ann'), 'tunk Bob' "
            "or 'claim Bob' (several: 'claim Bob Cy')",
        ),
        (
            ROUND + "    end: drop Bob\n",
            "10:10: error: a round ended by a drop is won by the lowest hand: add 'final:' with every player's hand "
            "at the end (cards, or its value), e.g. final: {Ann: [3S, 9C], Bob: 4}",
        ),
        (
            ROUND + "    end: out Bob\n    plays: [Bob layoff 5S]\n",
            "11:17: error: a lay-off names the spread it goes on: 'Bob layoff 8H on 1'; write 'PLAYER spread 5H 6H 7H' "
            "or "
            "'PLAYER layoff 8H on 1' (1: the first spread laid this round)",
        ),
        (
            ROUND + "    end: out Bob\n    flipp: Bob\n",
            "11:5: error: unknown key 'flipp' in rounds.0; did you mean 'flip'?",
        ),
    ],
)
def test_broken_logs_are_refused_with_located_messages(tmp_path, body, expected):
    path = write(tmp_path, body)
    with pytest.raises(InputError) as exc:
        load_flipflop_log(path)
    assert str(exc.value) == f"{path}:{expected}"


def test_log_header_selects_the_readings(tmp_path):
    path = tmp_path / "evening.yaml"
    text = (EXAMPLES / "flipflop-evening.yaml").read_text(encoding="utf-8")
    path.write_text(
        text.replace("start: 10\n", "start: 10\nrules: {kept_flop: double, odd_stakes: dealer_left}\n"),
        encoding="utf-8",
    )
    report = flipflop_report(load_flipflop_log(path))
    assert report["rules"] == {"kept_flop": "double", "odd_stakes": "dealer_left"}
    # Round 3 follows a kept flop pot of 4.  After round 2 Ann has 4 stakes (one flop stake: she keeps her
    # reserve), Bob 8, Cy 12, Dee 12 (two flop stakes each): flop pot 4 + 1 + 2 + 2 + 2 = 11.
    assert report["rounds"][2]["pots"]["flop"] == 11
    assert report["rounds"][2]["paid"]["Ann"]["flop"] == 1 and report["rounds"][2]["paid"]["Bob"]["flop"] == 2
    assert flipflop_report(load_flipflop_log(EXAMPLES / "flipflop-evening.yaml"))["rules"] == {
        "kept_flop": "add",
        "odd_stakes": "stay",
    }
    path.write_text(text.replace("start: 10\n", "start: 10\nrules: {kept_flop: twice}\n"), encoding="utf-8")
    with pytest.raises(InputError, match=r"evening.yaml:7:20: error: rules.kept_flop"):
        load_flipflop_log(path)


def test_player_count_is_checked(tmp_path):
    path = tmp_path / "two.yaml"
    path.write_text("game: flipflop\nplayers: [Ann, Bob]\nrounds: [{up: QH, hands: {}, end: stock}]\n")
    with pytest.raises(InputError, match=r"two.yaml:2:10: error: Flip Flop is for 3 to 5 players; 2 are listed"):
        load_flipflop_log(path)


def test_docstring_examples():
    import doctest

    import generator.games.flipflop.rules as core

    assert doctest.testmod(core).failed == 0
