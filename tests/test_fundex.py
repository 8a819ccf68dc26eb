"""All In (Fundex): the rules core, the round-log reader and the report.

Every expected number below is worked out by hand from the rulebook
(``003_13a11e12059e7bf2.txt``) and the readings of docs/rules.md;
the arithmetic is written next to each assertion.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from generator.cli.tables import print_fundex_report
from generator.core.errors import InputError
from generator.games.fundex.log import fundex_report, load_fundex_log
from generator.games.fundex.rules import (
    CARDS,
    START_POINTS,
    STARTING_CHIPS,
    Action,
    Betting,
    FundexRules,
    RoundLog,
    closest_without_going_over,
    new_game,
    next_lead,
    play_game,
    play_round,
    possible_cards,
    roll_range,
    split_pot,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
P3 = ["Ann", "Bob", "Cy"]


def acts(text: str) -> tuple[Action, ...]:
    """'Ann bet 2, Bob meet' -> actions (the test's own little parser, independent of the log reader)."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        words = part.split()
        amount = int(words[2]) if len(words) == 3 else 0
        out.append(Action(words[0], words[1], amount))  # type: ignore[arg-type]
    return tuple(out)


def rnd(dice: int, roll: int, cards: dict[str, int], betting: str = "") -> RoundLog:
    return RoundLog(dice, roll, cards, acts(betting))


# ---------------------------------------------------------------------------
# Setup and the play example


def test_setup_cards_and_chips():
    """Each player: cards 1..13 and chips 1-1-2-2-2-2-5-5-5 = 25 points in nine chips."""
    assert CARDS == tuple(range(1, 14))
    assert sorted(STARTING_CHIPS) == [1, 1, 2, 2, 2, 2, 5, 5, 5]
    assert START_POINTS == 1 + 1 + 2 + 2 + 2 + 2 + 5 + 5 + 5 == 25
    game = new_game(["Ann", "Bob", "Cy", "Dee"])
    assert game.chips == {"Ann": 25, "Bob": 25, "Cy": 25, "Dee": 25} and game.pot == 0
    with pytest.raises(ValueError, match="2 to 4 players"):
        new_game(["Ann", "Bob", "Cy", "Dee", "Eve"])
    with pytest.raises(ValueError, match="2 to 4 players"):
        new_game(["Ann"])


def test_dice_choice_limits_the_cards_that_can_be_right():
    """Play example: one die → cards 1–6; two dice → 1–12; three dice → 1–13."""
    assert possible_cards(1) == (1, 2, 3, 4, 5, 6)
    assert possible_cards(2) == tuple(range(1, 13))
    assert possible_cards(3) == tuple(range(1, 14))
    assert (roll_range(1), roll_range(2), roll_range(3)) == ((1, 6), (2, 12), (3, 18))
    with pytest.raises(ValueError):
        possible_cards(4)


def test_rulebook_play_example_one_die_five_rolled():
    """Play example: one die, a 5.  Player 1 holds the 5 (exact), player 2 a low card (2), player 3 a card
    over the roll (6), player 4 is unsure (4).  P1 bets 2, P2 passes, P3 meets, P4 meets.
    Pot = 4 antes + 3 × 2 = 10; among P1 5, P3 6 (over), P4 4, the 5 is closest without going over.
    P1: 25 - 1 - 2 + 10 = 32; P2: 24; P3, P4: 25 - 1 - 2 = 22."""
    players = ["P1", "P2", "P3", "P4"]
    cards = {"P1": 5, "P2": 2, "P3": 6, "P4": 4}
    assert closest_without_going_over(cards, 5) == ["P1"]
    game = play_game(players, [rnd(1, 5, cards, "P1 bet 2, P2 pass, P3 meet, P4 meet")])
    r = game.rounds[0]
    assert r.lead == "P1" and r.pot == 10 and r.winners == ["P1"] and r.won == {"P1": 10}
    assert game.chips == {"P1": 32, "P2": 24, "P3": 22, "P4": 22}
    assert r.passed == ["P2"] and not game.breaks
    # Player 3 "could bluff his way to victory": he bets, everyone else passes, and his 6 wins over a 5.
    bluff = play_game(players, [rnd(1, 5, cards, "P1 pass, P2 pass, P3 bet 3, P4 pass, P1 pass, P2 pass")])
    b = bluff.rounds[0]
    assert b.winners == ["P3"] and b.lone_bettor and b.pot == 4 + 3
    assert bluff.chips == {"P1": 24, "P2": 24, "P3": 25 - 1 - 3 + 7, "P4": 24}


# ---------------------------------------------------------------------------
# Pots


def test_tie_with_an_odd_pot_leaves_the_odd_chip_in_the_pot():
    """Round 1: roll 8 on two dice, Ann 8, Bob 8, Cy 5.  Ann bets 1, Bob meets, Cy passes.
    Pot = 3 + 1 + 1 = 5: Ann and Bob take 2 each, 1 stays.  Ann, Bob: 25 - 1 - 1 + 2 = 25; Cy 24.
    Round 2 (Bob leads): no bets, roll 6; Cy's 3 beats 1 and 2: pot = 1 + 3 = 4 → Cy 24 - 1 + 4 = 27."""
    game = play_game(
        P3,
        [
            rnd(2, 8, {"Ann": 8, "Bob": 8, "Cy": 5}, "Ann bet 1, Bob meet, Cy pass"),
            rnd(1, 6, {"Ann": 1, "Bob": 2, "Cy": 3}),
        ],
    )
    r1, r2 = game.rounds
    assert split_pot(5, 2) == (2, 1)
    assert r1.winners == ["Ann", "Bob"] and r1.won == {"Ann": 2, "Bob": 2} and r1.carried == 1
    assert r1.chips == {"Ann": 25, "Bob": 25, "Cy": 24}
    assert r2.lead == "Bob" and r2.pot_in == 1 and r2.pot == 4 and r2.won == {"Cy": 4}
    assert game.chips == {"Ann": 24, "Bob": 24, "Cy": 27} and game.pot == 0


def test_everyone_over_keeps_the_pot_and_the_next_ante_adds_to_it():
    """Round 1: roll 1; cards 2, 3, 4 are all over.  Ann bets 2, Bob and Cy meet: pot 3 + 6 = 9 stays;
    everyone has 25 - 3 = 22.  Round 2: every player antes again: 9 + 3 = 12, Ann's 6 hits a roll of 6:
    Ann 22 - 1 + 12 = 33, Bob and Cy 21."""
    game = play_game(
        P3,
        [
            rnd(1, 1, {"Ann": 2, "Bob": 3, "Cy": 4}, "Ann bet 2, Bob meet, Cy meet"),
            rnd(1, 6, {"Ann": 6, "Bob": 5, "Cy": 4}),
        ],
    )
    r1, r2 = game.rounds
    assert r1.winners == [] and r1.carried == 9 and r1.chips == {"Ann": 22, "Bob": 22, "Cy": 22}
    assert r2.pot_in == 9 and r2.pot == 12
    assert game.chips == {"Ann": 33, "Bob": 21, "Cy": 21} and game.pot == 0


def test_lone_bettor_wins_even_above_the_roll():
    """Roll 2; Ann holds 6 (over), Cy the exact 2.  Ann bets 3, Bob and Cy pass: Ann wins 3 + 3 = 6.
    Ann 25 - 1 - 3 + 6 = 27; Bob, Cy 24."""
    game = play_game(P3, [rnd(1, 2, {"Ann": 6, "Bob": 1, "Cy": 2}, "Ann bet 3, Bob pass, Cy pass")])
    r = game.rounds[0]
    assert r.lone_bettor and r.winners == ["Ann"] and r.won == {"Ann": 6}
    assert game.chips == {"Ann": 27, "Bob": 24, "Cy": 24}


def test_a_skipped_player_has_passed():
    """'Ann bet 3' alone: Bob and Cy, skipped, passed after a bet, so Ann is the lone bettor (as above)."""
    game = play_game(P3, [rnd(1, 2, {"Ann": 6, "Bob": 1, "Cy": 2}, "Ann bet 3")])
    assert game.rounds[0].lone_bettor and game.chips == {"Ann": 27, "Bob": 24, "Cy": 24}
    assert not game.breaks


def test_pass_before_any_bet_keeps_the_player_in():
    """Ann passes (no bet yet), Bob bets 2, Cy meets, Ann meets: Ann is still in and her 5 wins the roll of 5.
    Pot 3 + 6 = 9: Ann 25 - 1 - 2 + 9 = 31; Bob, Cy 22."""
    game = play_game(P3, [rnd(1, 5, {"Ann": 5, "Bob": 4, "Cy": 3}, "Ann pass, Bob bet 2, Cy meet, Ann meet")])
    assert game.rounds[0].winners == ["Ann"] and game.chips == {"Ann": 31, "Bob": 22, "Cy": 22}


# ---------------------------------------------------------------------------
# ALL IN, limits, elimination, cards


def test_all_in_caps_the_bet_and_hands_back_the_excess():
    """After the antes Ann and Bob have 24, Cy 3.  Ann bets 10, Bob meets 10, Cy goes ALL IN with 3:
    Ann and Bob take back 10 - 3 = 7 each; everyone has 3 in; nobody may raise above 3."""
    b = Betting(P3, {"Ann": 24, "Bob": 24, "Cy": 3}, 1, FundexRules())
    for a in acts("Ann bet 10, Bob meet, Cy allin"):
        b.apply(a)
    assert b.put == {"Ann": 3, "Bob": 3, "Cy": 3}
    assert b.chips == {"Ann": 21, "Bob": 21, "Cy": 0}
    assert b.handed_back == {"Ann": 7, "Bob": 7, "Cy": 0}
    assert b.over and b.all_in == ["Cy"] and not b.breaks


def test_all_in_before_others_act_caps_their_bets():
    """Bob (2 chips after the ante) goes ALL IN on Ann's bet of 5: Ann takes back 3.  Cy then meets 2,
    and a raise by Cy would be handed back at once."""
    b = Betting(P3, {"Ann": 20, "Bob": 2, "Cy": 20}, 2, FundexRules())
    for a in acts("Ann bet 5, Bob allin, Cy raise 4"):
        b.apply(a)
    assert b.put == {"Ann": 2, "Bob": 2, "Cy": 2} and b.handed_back["Ann"] == 3 and b.handed_back["Cy"] == 4
    assert b.over


def test_all_in_hand_back_then_pass_keeps_the_player_in():
    """Rulebook, ALL IN rule: whoever has met the bet takes back what is over the ALL IN player's chips;
    Betting rules: a pass drops out only a player who does not meet the bet (the play example's player 4
    may pass "not bet but remain in the game").  So a player brought down to the ALL IN amount has met
    the bet, and his pass only ends his turn.

    Round 1 (Ann leads), roll 6, Ann 6, Bob 5, Cy 1: Ann bets 20, Bob meets, Cy passes.
      Pot 3 + 40 = 43 to Ann: Ann 25 - 21 + 43 = 47, Bob 25 - 21 = 4, Cy 24.
    Round 2 (Bob leads), two dice, roll 7, Ann 4, Bob 2, Cy 6.  Antes: Ann 46, Bob 3, Cy 23, pot 3.
      Bob passes (no bet yet, stays in); Cy bets 6 (Cy 17); Ann raises 4: 10 in (Ann 36);
      Bob goes ALL IN with his 3: Cy takes back 6 - 3 = 3 (Cy 20), Ann 10 - 3 = 7 (Ann 43);
      everyone has 3 in; Cy passes, having met the bet of 3: he stays in.
      Pot 3 + 3 × 3 = 12.  Cards still in: Ann 4, Bob 2, Cy 6; the 6 is closest under 7: Cy 20 + 12 = 32.
      Bob has 0: out.  Ann 43 + Bob 0 + Cy 32 = 75 = 3 × 25."""
    log = [
        rnd(1, 6, {"Ann": 6, "Bob": 5, "Cy": 1}, "Ann bet 20, Bob meet, Cy pass"),
        rnd(2, 7, {"Ann": 4, "Bob": 2, "Cy": 6}, "Bob pass, Cy bet 6, Ann raise 4, Bob allin, Cy pass"),
    ]
    game = play_game(P3, log)
    r1, r2 = game.rounds
    assert r1.chips == {"Ann": 47, "Bob": 4, "Cy": 24}
    assert r2.lead == "Bob"
    assert r2.handed_back == {"Ann": 7, "Cy": 3} and r2.bets == {"Ann": 3, "Bob": 3, "Cy": 3}
    assert r2.passed == [] and r2.all_in == ["Bob"]
    assert r2.pot == 12 and r2.winners == ["Cy"] and r2.won == {"Cy": 12}
    assert game.chips == {"Ann": 43, "Bob": 0, "Cy": 32} and game.out == {"Bob": 2}
    assert game.breaks == []
    # The same when the log leaves Cy's closing word out (a skipped player passed).
    quiet = play_game(
        P3, [log[0], rnd(2, 7, {"Ann": 4, "Bob": 2, "Cy": 6}, "Bob pass, Cy bet 6, Ann raise 4, Bob allin")]
    )
    assert quiet.chips == {"Ann": 43, "Bob": 0, "Cy": 32} and quiet.breaks == []


def test_all_in_hand_back_then_pass_from_a_log_file(tmp_path):
    """The same two rounds typed as a log, with the betting exactly as a ledger writes it ('Bob all in'):
    the report gives the pot of round 2 to Cy (counts in the test above)."""
    path = write(
        tmp_path,
        GOOD_HEAD
        + """\
  - {dice: 1, roll: 6, cards: {Ann: 6, Bob: 5, Cy: 1}, betting: [Ann bet 20, Bob meet, Cy pass]}
  - dice: 2
    roll: 7
    cards: {Ann: 4, Bob: 2, Cy: 6}
    betting: [Bob pass, Cy bet 6, Ann raise 4, Bob all in, Cy pass]
    chips: {Ann: 43, Bob: 0, Cy: 32}
    pot: 0
""",
    )
    report = fundex_report(load_fundex_log(path))
    r2 = report["rounds"][1]
    assert r2["winners"] == ["Cy"] and r2["won"] == {"Cy": 12} and r2["passed"] == []
    assert report["chips"] == {"Ann": 43, "Bob": 0, "Cy": 32} and report["problems"] == []


def test_pass_behind_the_bet_still_drops_out_after_a_hand_back():
    """Betting rules: a player who passes a bet he has not met is out of the round.  Ann 24, Bob 3, Cy 24
    after the antes; Ann bets 2, Bob goes ALL IN for 3 (a raise of 1: nothing to hand back, Bob is the
    smallest stake), Cy passes at 0 in: Cy is out; Ann still owes 1 and meets."""
    b = Betting(P3, {"Ann": 24, "Bob": 3, "Cy": 24}, 1, FundexRules())
    for a in acts("Ann bet 2, Bob allin, Cy pass, Ann meet"):
        b.apply(a)
    assert b.put == {"Ann": 3, "Bob": 3, "Cy": 0} and b.folded == {"Cy"} and b.over and not b.breaks


def test_actions_of_a_player_who_can_no_longer_act_are_reported():
    """ALL IN rule: an ALL IN player has put the rest of his chips in; he has nothing left to meet, raise or
    pass with.  Betting rules: a player who passes (after a bet) is out of the round.  Words logged for such
    players change nothing and are reported, one each; a closing pass by a player at the bet is not."""
    b = Betting(P3, {"Ann": 24, "Bob": 3, "Cy": 24}, 1, FundexRules())
    for a in acts("Ann bet 5, Bob allin, Cy meet, Bob pass, Bob meet, Bob allin, Ann pass"):
        b.apply(a)
    # Bob's ALL IN of 3 brings Ann's 5 back to 3; Cy meets 3.  Nothing changes after that.
    assert b.put == {"Ann": 3, "Bob": 3, "Cy": 3} and b.chips == {"Ann": 21, "Bob": 0, "Cy": 21}
    assert [(p, m.split(", so ")[0]) for p, m, _ in b.breaks] == [
        ("Bob", "Bob is all in (no chips left) and has nothing more to decide this round")
    ] * 3
    assert [m.split(", so ")[1] for _, m, _ in b.breaks] == [
        "cannot pass; the action is ignored",
        "cannot meet the bet; the action is ignored",
        "cannot go all in; the action is ignored",
    ]
    b = Betting(P3, {"Ann": 24, "Bob": 24, "Cy": 24}, 1, FundexRules())
    for a in acts("Ann bet 2, Bob pass, Cy meet, Bob pass"):
        b.apply(a)
    ((who, msg, _),) = b.breaks
    assert (
        who == "Bob" and msg == "Bob already passed (dropped out) in this round, so cannot pass; the action is ignored"
    )
    assert b.folded == {"Bob"} and b.put == {"Ann": 2, "Bob": 0, "Cy": 2}


def test_a_second_pass_is_reported_with_round_player_and_position(tmp_path):
    path = write(
        tmp_path,
        GOOD_HEAD
        + """\
  - dice: 1
    roll: 5
    cards: {Ann: 5, Bob: 2, Cy: 3}
    betting: [Ann bet 1, Bob pass, Cy meet, Bob pass]
""",
    )
    # Pot 3 + 2 = 5 to Ann: 25 - 2 + 5 = 28; Bob 24; Cy 23.  Bob's second 'pass' starts at line 7, col 45.
    report = fundex_report(load_fundex_log(path))
    assert report["chips"] == {"Ann": 28, "Bob": 24, "Cy": 23}
    assert [(p["round"], p["player"], p["at"]) for p in report["problems"]] == [(1, "Bob", f"{path}:7:45")]
    assert "already passed (dropped out)" in report["problems"][0]["message"]
    assert isinstance(report["winners"], list)


def test_player_all_in_from_the_ante_voids_every_bet():
    """Cy antes his last chip: he is all in at 0 beyond the ante, so Ann's bet of 5 comes straight back,
    and Bob's pass is a pass with no bet on the table: Bob stays in."""
    b = Betting(P3, {"Ann": 20, "Bob": 20, "Cy": 0}, 1, FundexRules())
    for a in acts("Ann bet 5, Bob pass"):
        b.apply(a)
    b.finish()
    assert b.put == {"Ann": 0, "Bob": 0, "Cy": 0} and b.chips["Ann"] == 20
    assert b.in_round == ["Ann", "Bob", "Cy"]


def test_elimination_and_the_lead_skips_the_player_out():
    """Round 1 (Ann leads): roll 6; Ann 6, Bob 5, Cy 1.  Ann bets 24 (all she has after the ante), Bob meets
    with his last 24, Cy passes: pot 3 + 48 = 51 → Ann 51; Bob 0, out; Cy 24.
    Round 2: Bob would lead but is out, so Cy leads; two antes; roll 3: Cy's 3 beats Ann's 2:
    Cy 24 - 1 + 2 = 25, Ann 50.  Bob's card in round 2 is a rule break and is ignored."""
    game = play_game(
        P3,
        [
            rnd(1, 6, {"Ann": 6, "Bob": 5, "Cy": 1}, "Ann bet 24, Bob meet, Cy pass"),
            rnd(1, 3, {"Ann": 2, "Bob": 4, "Cy": 3}),
        ],
    )
    r1, r2 = game.rounds
    assert r1.chips == {"Ann": 51, "Bob": 0, "Cy": 24} and r1.eliminated == ["Bob"]
    assert game.out == {"Bob": 1}
    assert r2.lead == "Cy" and r2.pot == 2 and r2.won == {"Cy": 2}
    assert game.chips == {"Ann": 50, "Bob": 0, "Cy": 25}
    (brk,) = game.breaks
    assert (brk.round, brk.player) == (2, "Bob") and "out of the game since round 1" in brk.message


def test_two_players_the_game_ends_when_one_is_out():
    """Ann bets 24, Bob meets all 24: Ann's 6 beats 5, Ann has 50 and wins; a third round is refused."""
    game = play_game(
        ["Ann", "Bob"], [rnd(1, 6, {"Ann": 6, "Bob": 5}, "Ann bet 24, Bob meet"), rnd(1, 3, {"Ann": 2, "Bob": 4})]
    )
    assert game.finished and game.winners == ["Ann"] and game.chips == {"Ann": 50, "Bob": 0}
    assert len(game.rounds) == 1 and "the game is over" in game.breaks[0].message


def test_card_played_twice_is_a_rule_break():
    game = play_game(P3, [rnd(1, 5, {"Ann": 5, "Bob": 2, "Cy": 3}), rnd(1, 5, {"Ann": 5, "Bob": 4, "Cy": 6})])
    (brk,) = game.breaks
    assert (brk.round, brk.player) == (2, "Ann") and "plays the 5 again" in brk.message
    # processing goes on with the card as logged: Ann's 5 wins round 2 again (pot 3)
    assert game.rounds[1].winners == ["Ann"]


def test_bet_limit_once_per_player_in_round_one_twice_in_round_two():
    """Round 1: Ann bets, Bob raises, Ann raises again: her 2nd bet in round 1 breaks the limit.
    Round 2 (Bob leads): Bob bets, Cy raises, Ann raises, Bob raises (his 2nd): within the limit of two."""
    game = play_game(
        P3,
        [
            rnd(1, 5, {"Ann": 5, "Bob": 2, "Cy": 3}, "Ann bet 1, Bob raise 1, Cy pass, Ann raise 1, Bob meet"),
            rnd(
                1,
                5,
                {"Ann": 4, "Bob": 3, "Cy": 2},
                "Bob bet 1, Cy raise 1, Ann raise 1, Bob raise 1, Cy meet, Ann meet",
            ),
        ],
    )
    (brk,) = game.breaks
    assert (brk.round, brk.player) == (1, "Ann") and "2nd time in round 1" in brk.message
    # the raise is still applied as logged: Ann 3, Bob 3 in; pot 3 + 6 = 9 to Ann's 5.
    assert game.rounds[0].bets == {"Ann": 3, "Bob": 3, "Cy": 0} and game.rounds[0].won == {"Ann": 9}


def test_bet_limit_points_reading_is_an_option():
    """Under bet_limit 'points' the bet in round 1 may not exceed 1 point; under 'times' a bet of 2 is fine."""
    log = [rnd(1, 5, {"Ann": 5, "Bob": 2, "Cy": 3}, "Ann bet 2, Bob meet, Cy meet")]
    assert play_game(P3, log).breaks == []
    (brk,) = play_game(P3, log, FundexRules(bet_limit="points")).breaks
    assert "may not exceed 1 point" in brk.message and brk.player == "Ann"
    assert play_game(P3, log, FundexRules(bet_limit="none")).breaks == []


def test_lead_may_pass_by_default_and_must_bet_under_the_option():
    """Play: "the betting then begins with the lead player betting a chip or chips".  Default reading: that
    sets the order (the Betting rules oblige nobody to bet, and betting ends "when all players pass"), so
    the lead may pass.  Option lead_must_bet: the lead has to open with a bet when he can.

    Ann leads, roll 4, Ann 1, Bob 11, Cy 3: Ann passes, Bob bets 4, Cy and Ann pass: Bob alone wins 3 + 4 = 7.
    Ann 24, Bob 25 - 5 + 7 = 27, Cy 24, under either reading (the option reports, it does not replay)."""
    log = [rnd(2, 4, {"Ann": 1, "Bob": 11, "Cy": 3}, "Ann pass, Bob bet 4, Cy pass, Ann pass")]
    free = play_game(P3, log)
    assert free.breaks == [] and free.chips == {"Ann": 24, "Bob": 27, "Cy": 24}
    strict = play_game(P3, log, FundexRules(lead_must_bet=True))
    assert strict.chips == free.chips
    (brk,) = strict.breaks
    assert (brk.round, brk.player) == (1, "Ann") and "lead_must_bet" in brk.message and "but he passes" in brk.message
    # A log that starts with another player skips the lead: that is the lead passing too.
    (brk,) = play_game(
        P3, [rnd(2, 4, {"Ann": 1, "Bob": 11, "Cy": 3}, "Bob bet 4")], FundexRules(lead_must_bet=True)
    ).breaks
    assert brk.player == "Ann" and "skips him" in brk.message
    # A lead who bets, or who cannot bet (all in from the ante), breaks nothing.
    assert (
        play_game(
            P3,
            [rnd(2, 4, {"Ann": 1, "Bob": 11, "Cy": 3}, "Ann bet 1, Bob meet, Cy meet")],
            FundexRules(lead_must_bet=True),
        ).breaks
        == []
    )
    b = Betting(P3, {"Ann": 0, "Bob": 20, "Cy": 20}, 1, FundexRules(lead_must_bet=True))
    b.apply(Action("Bob", "pass"))
    b.finish()
    assert b.breaks == [] and b.in_round == P3


def test_dice_do_not_limit_the_cards_by_default_and_do_under_the_option():
    """Play example: with one die "their choices will be limited to cards 1 through 6".  Default reading: the
    other cards cannot win, but may be played (bluffing is encouraged, and a lead rolling one die in round
    after round would leave players no card to play).  Option dice_limit_cards: a card above 6 with one die
    (13 with two dice) is a rule break while the player still has an unused card within the range."""
    log = [rnd(1, 2, {"Ann": 4, "Bob": 3, "Cy": 8}), rnd(2, 7, {"Ann": 13, "Bob": 12, "Cy": 1})]
    assert play_game(P3, log).breaks == []
    breaks = play_game(P3, log, FundexRules(dice_limit_cards=True)).breaks
    assert [(b.round, b.player) for b in breaks] == [(1, "Cy"), (2, "Ann")]
    assert breaks[0].message.startswith(
        "Cy plays the 8 with 1 die chosen; under the ruleset option dice_limit_cards "
        "only cards 1 to 6 may be played then"
    )
    # Ann has played 1 to 6 in rounds 1-6; with one die again in round 7 she has no card within 1-6 left,
    # so her 7 is no break.
    seven = [rnd(1, 3, {"Ann": c, "Bob": c, "Cy": c}) for c in range(1, 7)] + [rnd(1, 3, {"Ann": 7, "Bob": 7, "Cy": 7})]
    assert play_game(P3, seven, FundexRules(dice_limit_cards=True)).breaks == []


def test_log_header_selects_the_readings(tmp_path):
    path = write(
        tmp_path,
        """
    game: fundex
    players: [Ann, Bob, Cy]
    rules: {bet_limit: points, lead_must_bet: true, dice_limit_cards: true}
    rounds:
      - {dice: 1, roll: 2, cards: {Ann: 4, Bob: 3, Cy: 8}, betting: [Ann pass, Bob bet 2]}
    """,
    )
    report = fundex_report(load_fundex_log(path))
    assert report["rules"] == {
        "rounds": 10,
        "bet_limit": "points",
        "start": 25,
        "lead_must_bet": True,
        "dice_limit_cards": True,
    }
    # Round 1: Ann must open (she passes), Cy's 8 with one die, Bob's bet of 2 over the 1-point limit.
    assert sorted(p["player"] for p in report["problems"]) == ["Ann", "Bob", "Cy"]
    default = fundex_report(
        load_fundex_log(write(tmp_path, GOOD_HEAD + "  - {dice: 1, roll: 5, cards: {Ann: 5, Bob: 2, Cy: 3}}\n"))
    )
    assert default["rules"]["lead_must_bet"] is False and default["rules"]["dice_limit_cards"] is False
    bad = write(
        tmp_path,
        """
    game: fundex
    players: [Ann, Bob, Cy]
    rules: {lead_must_bet: yes}
    rounds: [{dice: 1, roll: 5, cards: {Ann: 5, Bob: 2, Cy: 3}}]
    """,
    )
    with pytest.raises(InputError, match=r"game.yaml:3:24: error: rules.lead_must_bet"):
        load_fundex_log(bad)


def test_betting_slips_are_reported_and_played_sensibly():
    game = play_game(
        P3, [rnd(1, 5, {"Ann": 5, "Bob": 2, "Cy": 3}, "Ann bet 2, Bob pass, Cy meet, Bob meet, Ann raise 30")]
    )
    msgs = [(b.player, b.message) for b in game.breaks]
    assert msgs[0][0] == "Bob" and "already passed" in msgs[0][1]
    assert msgs[1][0] == "Ann" and "betting is over" in msgs[1][1]
    # a closing "meet" or "pass" by a player already at the bet is harmless
    assert (
        play_game(P3, [rnd(1, 5, {"Ann": 5, "Bob": 2, "Cy": 3}, "Ann bet 2, Bob meet, Cy meet, Ann meet")]).breaks == []
    )
    b = play_game(P3, [rnd(1, 5, {"Ann": 5, "Bob": 2, "Cy": 3}, "Ann bet 30")]).breaks[0]
    assert "has only 24 chips" in b.message and "allin" in b.message


def test_next_lead_passes_to_the_left():
    game = play_game(P3, [rnd(1, 5, {"Ann": 5, "Bob": 2, "Cy": 3})])
    assert next_lead(game) == "Bob"


# ---------------------------------------------------------------------------
# Conservation (hypothesis)

NAMES = ["Ann", "Bob", "Cy", "Dee"]


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_legal_games_conserve_chips_and_break_no_rule(data):
    """Generated legal games (legal actions only, each card once, every ruleset): chips + pot never change,
    nobody goes below 0, and the log breaks no rule."""
    n = data.draw(st.integers(2, 4), label="players")
    players = NAMES[:n]
    limit = data.draw(st.sampled_from(["times", "points", "none"]), label="limit")
    rules = FundexRules(
        bet_limit=limit,
        lead_must_bet=data.draw(st.booleans(), label="lead_must_bet"),
        dice_limit_cards=data.draw(st.booleans(), label="dice_limit_cards"),
    )
    game = new_game(players, rules)
    total = game.total
    while not game.finished:
        number = len(game.rounds) + 1
        lead = next_lead(game)
        i = players.index(lead)
        order = [p for p in players[i:] + players[:i] if p not in game.out]
        dice = data.draw(st.integers(1, 3))
        roll = data.draw(st.integers(*roll_range(dice)))
        cards = {}
        for p in order:
            left = sorted(set(CARDS) - game.used[p])
            within = [c for c in left if c in possible_cards(dice)]
            cards[p] = data.draw(st.sampled_from(within if rules.dice_limit_cards and within else left))
        betting = Betting(order, {p: game.chips[p] - 1 for p in order}, number, rules)
        log: list[Action] = []
        for _ in range(12):
            legal = betting.legal_actions()
            if not legal:
                break
            choice = data.draw(st.sampled_from(legal))
            betting.apply(choice)
            log.append(choice)
        res = play_round(game, RoundLog(dice, roll, cards, tuple(log)))
        assert res is not None
        assert game.total == total
        assert sum(res.chips.values()) + res.carried == total
        assert all(c >= 0 for c in game.chips.values())
        assert sum(res.won.values()) + res.carried == res.pot
    assert game.breaks == []
    assert len(game.rounds) == 10 or len(game.active) < 2


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_any_logged_betting_conserves_chips(data):
    """Even logs that break rules (actions out of turn, after passing, over the limit, beyond a
    player's chips) never create or destroy chips."""
    players = NAMES[:3]
    game = new_game(players)
    for _ in range(data.draw(st.integers(1, 6))):
        actions = tuple(
            Action(
                data.draw(st.sampled_from(players)),
                kind,
                data.draw(st.integers(1, 30)) if kind in ("bet", "raise") else 0,
            )
            for kind in data.draw(st.lists(st.sampled_from(["bet", "raise", "meet", "pass", "allin"]), max_size=8))
        )
        cards = {p: data.draw(st.integers(1, 13)) for p in players}
        play_round(game, RoundLog(data.draw(st.integers(1, 3)), data.draw(st.integers(1, 18)), cards, actions))
        assert game.total == 75
        assert all(c >= 0 for c in game.chips.values())


# ---------------------------------------------------------------------------
# The logged example game and the log reader


def test_example_game_verifies_with_hand_counted_chips():
    """docs/examples/fundex-game.yaml, counted by hand (antes 1 each; lead Ann, Bob, Cy, Dee, …):

    1 Ann: roll 5; Ann bets 1, Bob passes, Cy and Dee meet: pot 4 + 3 = 7; Ann 5 beats Dee 4 (Cy 6 over).
      Ann 25-2+7 = 30, Bob 24, Cy 23, Dee 23.
    2 Bob: roll 7; Bob 1, Cy 1, Dee 1, Ann raises to 2, Bob and Cy meet, Dee passes: pot 4 + 2+2+1+2 = 11;
      Bob and Cy hold 7: 5 each, 1 stays.  Ann 27, Bob 26, Cy 25, Dee 21, pot 1.
    3 Cy: roll 2, cards 4 3 8 6 all over; 3 each bet: pot 1 + 4 + 12 = 17 stays.  Ann 23, Bob 22, Cy 21, Dee 17.
    4 Dee: roll 11, no bets: pot 17 + 4 = 21 to Ann's 10.  Ann 43, Bob 21, Cy 20, Dee 16, pot 0.
    5 Ann: roll 4; Ann passes, Bob bets 4, all pass: Bob wins 4 + 4 = 8 with 11.  Ann 42, Bob 24, Cy 19, Dee 15.
    6 Bob: Bob bets 20, Cy passes, Dee ALL IN with 14 (15 - ante): Bob takes back 6; Ann meets 14:
      pot 4 + 42 = 46 to Bob's 8 (roll 8).  Ann 27, Bob 55, Cy 18, Dee 0: Dee is out.
    7 Cy: roll 6; Cy 2, Ann raises to 4, Bob passes, Cy meets: pot 3 + 8 = 11 to Cy (Ann's 7 over).
      Ann 22, Bob 54, Cy 24.
    8 Ann (Dee skipped): roll 10; Ann 1, Bob to 3, Cy 3, Ann passes: pot 3 + 7 = 10; Bob and Cy hold 10:
      5 each.  Ann 20, Bob 55, Cy 25.
    9 Bob: roll 14; 10 each: pot 3 + 30 = 33; Ann and Bob hold 13: 16 each, 1 stays.  Ann 25, Bob 60, Cy 14.
    10 Cy: roll 3; Cy 2, Ann to 5, Bob passes, Cy meets: pot 1 + 3 + 10 = 14 to Ann's 3 (Cy 1).
      Ann 33, Bob 59, Cy 8.  Winner: Bob with 59.
    """
    log = load_fundex_log(EXAMPLES / "fundex-game.yaml")
    report = fundex_report(log)
    assert report["problems"] == []
    per_round = [tuple(r["chips"].values()) for r in report["rounds"]]
    assert per_round == [
        (30, 24, 23, 23),
        (27, 26, 25, 21),
        (23, 22, 21, 17),
        (43, 21, 20, 16),
        (42, 24, 19, 15),
        (27, 55, 18, 0),
        (22, 54, 24, 0),
        (20, 55, 25, 0),
        (25, 60, 14, 0),
        (33, 59, 8, 0),
    ]
    assert [r["carried"] for r in report["rounds"]] == [0, 1, 17, 0, 0, 0, 0, 0, 1, 0]
    assert [r["lead"] for r in report["rounds"]] == ["Ann", "Bob", "Cy", "Dee", "Ann", "Bob", "Cy", "Ann", "Bob", "Cy"]
    assert report["rounds"][5]["handed_back"] == {"Bob": 6} and report["rounds"][5]["all_in"] == ["Dee"]
    assert report["rounds"][4]["lone_bettor"] is True
    assert report["eliminated"] == {"Dee": 6}
    assert report["status"] == "finished" and report["winners"] == ["Bob"]
    assert [(r["place"], r["player"], r["chips"]) for r in report["ranking"]] == [
        (1, "Bob", 59),
        (2, "Ann", 33),
        (3, "Cy", 8),
        (4, "Dee", 0),
    ]
    assert report["total"] == 100
    json.dumps(report)  # plain data


def test_report_prints_chip_table_and_ranking():
    report = fundex_report(load_fundex_log(EXAMPLES / "fundex-game.yaml"))
    console = Console(record=True, width=200)
    print_fundex_report(report, console)
    text = console.export_text()
    assert "Ranking" in text and "out in round 6" in text and "No rule broken." in text
    last_ranking = text[text.index("Ranking") :]
    assert last_ranking.index("Bob") < last_ranking.index("Ann") < last_ranking.index("Cy")


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "game.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


GOOD_HEAD = """
game: fundex
players: [Ann, Bob, Cy]
rounds:
"""


def test_rule_breaks_are_listed_with_round_player_and_position(tmp_path):
    path = write(
        tmp_path,
        GOOD_HEAD
        + """\
  - dice: 1
    roll: 5
    cards: {Ann: 5, Bob: 2, Cy: 3}
    betting: [Ann bet 1, Bob pass, Cy meet]
    chips: {Ann: 28, Bob: 24, Cy: 23}
  - dice: 1
    roll: 9
    cards: {Ann: 5, Bob: 4, Cy: 6}
""",
    )
    report = fundex_report(load_fundex_log(path))
    # Round 1: pot 3 + 2 = 5 to Ann: Ann 25 - 2 + 5 = 28 (right), Bob 24, Cy 23.
    # Round 2 (Bob leads and rolls): a roll of 9 on one die ('9' at line 10, column 11);
    # Ann's 5 again ('5' at line 11, column 18).
    f = str(path)
    assert [(p["round"], p["player"], p["at"]) for p in report["problems"]] == [
        (2, "Bob", f"{f}:10:11"),
        (2, "Ann", f"{f}:11:18"),
    ]
    roll_msg, card_msg = (p["message"] for p in report["problems"])
    assert roll_msg.startswith("a roll of 9 is impossible with 1 die (1 to 6)")
    assert card_msg.startswith("Ann plays the 5 again; each card is played once per game")


def test_ledger_counts_are_checked(tmp_path):
    path = write(
        tmp_path,
        GOOD_HEAD
        + """\
  - dice: 1
    roll: 5
    cards: {Ann: 5, Bob: 2, Cy: 3}
    betting: [Ann bet 1, Bob pass, Cy meet]
    chips: {Ann: 28, Bob: 25, Cy: 23}
    pot: 2
""",
    )
    problems = fundex_report(load_fundex_log(path))["problems"]
    f = str(path)
    assert [(p["player"], p["at"], p["message"]) for p in problems] == [
        ("Bob", f"{f}:8:27", "the ledger gives Bob 25 points of chips after round 1, but the round leaves 24"),
        (None, f"{f}:9:10", "the ledger leaves 2 in the pot after round 1, but the round leaves 0"),
    ]


@pytest.mark.parametrize(
    "rounds, expected",
    [
        (
            "  - {dice: 1, roll: 5, cards: {Ann: 5, Bobb: 2, Cy: 3}}\n",
            "4:40: error: unknown player 'Bobb'; did you mean 'Bob'?",
        ),
        (
            "  - {dice: 1, roll: 5, cards: {Ann: 5, Bob: 14, Cy: 3}}\n",
            "4:45: error: unknown card 14 for Bob; All In cards are the numbers 1 to 13",
        ),
        (
            '  - {dice: 1, roll: 5, cards: {Ann: 5, Bob: "2", Cy: 3}}\n',
            "4:45: error: the card of Bob is a number: write 2 without quotes, not '2'",
        ),
        (
            "  - {dice: 1, roll: 5, cards: {Ann: 5, Bob: 2, Cy: 3}, betting: [Ann bet 2, Dan meet]}\n",
            "4:77: error: unknown player 'Dan'; the players are Ann, Bob, Cy",
        ),
        (
            "  - {dice: 1, roll: 5, cards: {Ann: 5, Bob: 2, Cy: 3}, betting: [Ann bet 2, Bob mete]}\n",
            "4:81: error: unknown betting word 'mete'; did you mean 'meet'?",
        ),
        (
            "  - {dice: 1, roll: 5, cards: {Ann: 5, Bob: 2, Cy: 3}, betting: [Ann bet]}\n",
            "4:70: error: 'bet' needs the number of points: 'Ann bet 2'",
        ),
        (
            "  - {dice: 4, roll: 5, cards: {Ann: 5, Bob: 2, Cy: 3}}\n",
            "4:12: error: rounds.0.dice: input should be less than or equal to 3 (got 4)",
        ),
        (
            "  - {dice: 1, roll: 5, cards: {Ann: 5, Bob: 2, Cy: 3}, bets: []}\n",
            "4:56: error: unknown key 'bets' in rounds.0; allowed: dice, roll, cards, betting, chips, pot",
        ),
    ],
)
def test_broken_logs_are_refused_with_located_messages(tmp_path, rounds, expected):
    path = write(tmp_path, GOOD_HEAD)
    path.write_text(path.read_text() + rounds)
    with pytest.raises(InputError) as exc:
        load_fundex_log(path)
    assert str(exc.value) == f"{path}:{expected}"


def test_wrong_game_and_player_count_are_refused(tmp_path):
    path = write(
        tmp_path,
        """
    game: flipflop
    players: [Ann, Bob]
    rounds: [{dice: 1, roll: 5, cards: {Ann: 5, Bob: 2}}]
    """,
    )
    with pytest.raises(InputError, match=r":1:7: error: this is a log of game 'flipflop'; expected 'fundex'"):
        load_fundex_log(path)
    path = write(
        tmp_path,
        """
    game: fundex
    players: [Ann, Bob, Cy, Dee, Eve]
    rounds: [{dice: 1, roll: 5, cards: {Ann: 5}}]
    """,
    )
    with pytest.raises(InputError, match=r":2:10: error: All In \(Fundex\) is for 2 to 4 players; 5 are listed"):
        load_fundex_log(path)
    path = write(
        tmp_path,
        """
    game: fundex
    players: [Ann, Bob]
    rounds: []
    """,
    )
    with pytest.raises(InputError, match=r":3:9: error: no rounds: list at least one round under 'rounds:'"):
        load_fundex_log(path)


def test_docstring_examples():
    import doctest

    import generator.games.fundex.rules as core

    assert doctest.testmod(core).failed == 0
