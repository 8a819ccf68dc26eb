"""The All In referee core: composing cards, placement, chips, rewards, the Golden Deck, the end; the game-log file.

Every expected value below was worked out by hand on the Q♦ sheet
(layouts/allin/q-diamonds.yaml):

    row 1  a1*--b1--c1--d1    e1        hands: A a1-d1 single, B row 2 double,
           |    |         |    |               C row 3 double (with G), D row 4 double,
    row 2  a2---b2--c2--d2---e2                E b5-e5 single, F column a double,
           |    |    |    |    |               G b1-b4 single, H c2-c5 single,
    row 3  a3---b3---G---d3---e3               I column d double, J column e single.
           |    |    |    |    |        starting spaces a1 and e5; Golden Card c3,
    row 4  a4---b4--c4--d4---e4         ring b2 c2 d2 b3 d3 b4 c4 d4.
           |         |    |    |
    row 5  a5   b5--c5--d5---e5*

Logs are built with ``game()``: round i reveals ``PAIRS[i]`` and a move
given as a space name writes the first revealed card there for no chips.
``PAIRS`` deals the 52 cards in deck order (spades 2..A, hearts, diamonds,
clubs) without those of ``GOLDEN``: (2S 3S) (4S 5S) (6S 8S) (9S 10S)
(JS QS) (KS 2H) (3H 4H) (6H 7H) (8H 9H) (10H JH) (QH KH) (AH 3D) …
"""

from __future__ import annotations

import dataclasses

import pytest

from generator.core.cards import parse_card, standard_deck
from generator.core.errors import InputError
from generator.core.shipped import shipped_layouts
from generator.games.allin.bot import simulate_game
from generator.games.allin.game import (
    PASS,
    GameLog,
    GameState,
    GoldenPick,
    IllegalMove,
    Move,
    Round,
    Ruleset,
    compose_cost,
    legal_cells,
    legal_moves,
    rank_steps,
    replay,
    writable_cards,
)
from generator.games.allin.game_log import dump_game_log, load_game_log, parse_cell
from generator.games.allin.layout import load_allin_layout, load_layout
from generator.games.allin.rules import MAX_COST

LAYOUTS = {s.id: s.path for s in shipped_layouts()}
Q = load_layout(LAYOUTS["q-diamonds"])


def c(code: str):
    return parse_card(code)


def cards(codes: str):
    return [c(x) for x in codes.split()]


GOLDEN = tuple(cards("9C JK 2D KC 7S 5H AS 3C"))
_MAIN = [x for x in standard_deck() if x not in GOLDEN]
PAIRS = [(_MAIN[2 * i], _MAIN[2 * i + 1]) for i in range(len(_MAIN) // 2)]


def game(paths: dict[str, list], *, golden=GOLDEN, pairs: dict[int, tuple] | None = None, layout=Q) -> GameLog:
    """A log: ``paths`` maps each player to one entry per round (a space name or a Move); ``pairs`` overrides round n's
    reveal."""
    n = max(len(v) for v in paths.values())
    rounds = []
    for i in range(n):
        revealed = tuple((pairs or {}).get(i + 1, PAIRS[i]))
        moves = {}
        for name, seq in paths.items():
            m = seq[i]
            moves[name] = Move(parse_cell(m), revealed[0]) if isinstance(m, str) else m
        rounds.append(Round(revealed, moves))
    return GameLog(layout, tuple(paths), tuple(golden), tuple(rounds))


def illegal(log: GameLog, ruleset: Ruleset = Ruleset()) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        replay(log, ruleset)
    return info.value


def at(name: str, card: str, chips: int = 0, golden: GoldenPick | None = None) -> Move:
    return Move(parse_cell(name), c(card), chips, golden)


def pick(card: str, name: str, written: str | None = None) -> GoldenPick:
    return GoldenPick(c(card), parse_cell(name), c(written) if written else None)


def test_pairs_are_as_the_docstring_says():
    assert [" ".join(x.code for x in p) for p in PAIRS[:12]] == [
        "2S 3S",
        "4S 5S",
        "6S 8S",
        "9S 10S",
        "JS QS",
        "KS 2H",
        "3H 4H",
        "6H 7H",
        "8H 9H",
        "10H JH",
        "QH KH",
        "AH 3D",
    ]


# --------------------------------------------------------------------------
# Composing a card: every way, chip costs, wrap-around.


@pytest.mark.parametrize(
    "a, b, steps",
    [(13, 14, 1), (14, 13, 1), (14, 2, 1), (2, 14, 1), (2, 13, 2), (12, 2, 3), (7, 13, 6), (14, 7, 6), (8, 8, 0)],
)
def test_rank_steps_on_the_closed_ring(a, b, steps):
    # K+1 = A, A+1 = 2 (and back): 2 to K is 2 steps down through the ace, 7 to K six steps up.
    assert rank_steps(a, b) == steps


@pytest.mark.parametrize(
    "revealed, card, cost",
    [
        # one revealed card as it is; rank of one with suit of the other; free either way
        ("7S 9D", "7S", 0),
        ("7S 9D", "9D", 0),
        ("7S 9D", "7D", 0),
        ("7S 9D", "9S", 0),
        # a chip a rank step: 8S is 7S+1 (or 9S-1), 10D is 9D+1, 6D is 7-1 in D's suit
        ("7S 9D", "8S", 1),
        ("7S 9D", "10D", 1),
        ("7S 9D", "6D", 1),
        # a suit neither card has: 2 chips; 8H: one step and a suit
        ("7S 9D", "7H", 2),
        ("7S 9D", "8H", 3),
        # KH: 9 up to K is 4 steps (7 up would be 6), plus a suit: 6
        ("7S 9D", "KH", 6),
        # wrap-around: K+1 = A and 2-1 = A; Q is one below K but 3 below 2 (2 A K Q)
        ("KS 2D", "AS", 1),
        ("KS 2D", "AD", 1),
        ("KS 2D", "QC", 3),
        ("KS 2D", "3S", 1),
        ("2H 3H", "KH", 2),
        ("2H 3H", "AH", 1),
        ("AC AD", "2C", 1),
        ("AC AD", "KD", 1),
        ("AC AD", "7H", MAX_COST),  # 6 steps from A either way + a suit
        # Joker + X: X's rank in any suit, or any rank in X's suit; chips on X for the rest
        ("JK 7S", "7H", 0),
        ("JK 7S", "2S", 0),
        ("JK 7S", "AS", 0),
        ("JK 7S", "8H", 1),
        ("JK 7S", "2H", 2),
        ("KH JK", "AH", 0),
        ("KH JK", "AS", 1),
        ("KH JK", "2C", 2),
        # two Jokers: anything
        ("JK JK", "2C", 0),
        ("JK JK", "AS", 0),
    ],
)
def test_compose_cost(revealed, card, cost):
    assert compose_cost(cards(revealed), c(card)) == cost


def test_writable_cards_without_chips():
    assert [x.code for x in writable_cards(cards("7S 9D"), 0)] == ["7S", "9S", "7D", "9D"]
    # Joker + 7S: four sevens and thirteen spades, 7S counted once
    assert len(writable_cards(cards("JK 7S"), 0)) == 16
    assert len(writable_cards(cards("JK JK"), 0)) == 52
    # one chip from 7S 9D: ranks 6 7 8 9 10 in spades and diamonds
    assert sorted(x.code for x in writable_cards(cards("7S 9D"), 1)) == sorted(
        f"{r}{s}" for r in ("6", "7", "8", "9", "10") for s in "SD"
    )
    assert len(writable_cards(cards("AC AD"), MAX_COST)) == 52


def test_compose_refuses_a_joker_to_write():
    with pytest.raises(ValueError, match="never written"):
        compose_cost(cards("7S 9D"), c("JK"))


# --------------------------------------------------------------------------
# Placement.


def test_legal_cells_by_hand():
    assert [parse_cell(n) for n in ("a1", "e5")] == legal_cells(Q, {}, 1)
    written = {parse_cell("a1"): c("2S"), parse_cell("e5"): c("4S")}
    assert legal_cells(Q, written, 2) == []  # both starting spaces taken
    # round 3: next to a1 (b1, a2) and to e5 (e4, d5), row by row
    assert legal_cells(Q, written, 3) == [parse_cell(n) for n in ("b1", "a2", "e4", "d5")]
    # the printed Golden Card's neighbours c2 b3 d3 c4 join in with the option
    assert legal_cells(Q, written, 3, Ruleset(golden_card_links=True)) == [
        parse_cell(n) for n in ("b1", "a2", "c2", "b3", "d3", "c4", "e4", "d5")
    ]
    # a lone card (e.g. a Golden Deck card in e1) opens what is linked to it: e1-e2 only (d1 and e1 are not linked)
    assert legal_cells(Q, {parse_cell("e1"): c("AH")}, 5) == [parse_cell("e2")]


def test_legal_moves_lists_cells_and_cards_with_costs():
    written = {parse_cell("a1"): c("2S"), parse_cell("e5"): c("4S")}
    lm = legal_moves(Q, written, cards("JK 7S"), 1, 3)
    assert lm.cells == tuple(parse_cell(n) for n in ("b1", "a2", "e4", "d5"))
    assert lm.cards[c("7H")] == 0 and lm.cards[c("8H")] == 1 and c("2H") not in lm.cards
    assert len(list(lm.moves())) == 4 * len(lm.cards)


def test_rounds_one_and_two_only_in_starting_spaces():
    assert (
        str(illegal(game({"Ann": ["b2"]})))
        == "round 1, Ann, b2: rounds 1 and 2 are written in a starting space (a1, e5)"
    )
    err = illegal(game({"Ann": ["a1", "a2"]}))  # a2 is linked to a1, but round 2 still needs a starting space
    assert (err.round, err.player, err.move, err.rule) == (2, "Ann", "a2", "start")
    assert str(err) == "round 2, Ann, a2: rounds 1 and 2 are written in a starting space (a1, e5)"
    replay(game({"Ann": ["e5", "a1"]}))  # either starting space, either order


def test_later_rounds_linked_to_a_written_card():
    # the example, word for word: Bob's d4 in round 7 touches none of his cards
    log = game({"Ann": ["a1", "e5", "b1", "c1", "d1", "d2", "d3"], "Bob": ["a1", "e5", "a2", "a3", "a4", "b4", "d4"]})
    err = illegal(log)
    assert str(err) == "round 7, Bob, d4: not linked to a written card"
    assert (err.round, err.player, err.move, err.rule, err.field) == (7, "Bob", "d4", "linked", "cell")


def test_golden_card_does_not_link_unless_the_option_says_so():
    log = game({"Ann": ["a1", "e5", "c2"]})  # c2 touches only b2, d2 and the Golden Card
    assert str(illegal(log)) == "round 3, Ann, c2: not linked to a written card"
    res = replay(log, Ruleset(golden_card_links=True))
    assert res.sheets[0].cards[parse_cell("c2")] == c("6S")


def test_written_spaces_and_the_golden_card_are_never_writable():
    assert str(illegal(game({"Ann": ["a1", "a1"]}))) == "round 2, Ann, a1: the space already holds 2S"
    err = illegal(game({"Ann": ["a1", "e5", "b1", "b2", "c3"]}))
    assert str(err) == "round 5, Ann, c3: the Golden Card's space is never written"
    assert err.rule == "golden-space"
    err = illegal(game({"Ann": ["f1"]}))
    assert str(err) == "round 1, Ann, f1: layout 'q-diamonds' has no card space at f1"
    assert err.rule == "no-space"


def test_a_joker_is_never_written():
    err = illegal(game({"Ann": [at("a1", "JK")]}))
    assert str(err) == "round 1, Ann, a1: a Joker is never written; write the card it stands for"
    assert err.rule == "joker-written"


def test_a_move_writes_a_card_and_spends_no_negative_chips():
    err = illegal(game({"Ann": [Move(parse_cell("a1"), None)]}))
    assert (str(err), err.rule) == ("round 1, Ann, a1: the move names no card", "no-card")
    err = illegal(game({"Ann": [at("a1", "2S", -1)]}))
    assert (str(err), err.rule) == ("round 1, Ann, a1: -1 chips spent; chips spent are 0 or more", "chips-negative")


# --------------------------------------------------------------------------
# Chips: composing with chips via replay, availability, surplus.

# a1 e5 a2 b2 c2 d2 e2 completes row 2 (B, double) in round 7: 2 chips from round 8 on.
B_BY_7 = ["a1", "e5", "a2", "b2", "c2", "d2", "e2"]


def test_chips_compose_with_wrap_around_in_a_game():
    log = game({"Ann": B_BY_7 + [at("e3", "AC", 1)]}, pairs={8: cards("KD 2C")})  # 2C-1 = AC (or KD+1 in C)
    res = replay(log)
    (ann,) = res.sheets
    assert ann.cards[parse_cell("e3")] == c("AC")
    assert (ann.chips_earned, ann.chips_spent, ann.chips_left) == (2, 1, 1)
    log = game({"Ann": B_BY_7 + [at("e3", "7H")]}, pairs={8: cards("JK 7D")})  # the Joker gives the suit
    assert replay(log).sheets[0].cards[parse_cell("e3")] == c("7H")


def test_a_card_needing_more_chips_than_spent_is_refused():
    err = illegal(game({"Ann": B_BY_7 + [at("e3", "QS", 2)]}, pairs={8: cards("KD 2C")}))
    assert str(err) == "round 8, Ann, e3: QS cannot be made from KD and 2C with 2 chips (it needs 3)"
    assert err.rule == "compose"
    err = illegal(game({"Ann": ["a1", at("e5", "3H")]}))
    assert str(err) == "round 2, Ann, e5: 3H cannot be made from 4S and 5S with 0 chips (it needs 3)"


def test_no_spending_chips_one_does_not_have():
    err = illegal(game({"Ann": B_BY_7 + [at("e3", "3C", 3)]}, pairs={8: cards("KD 2C")}))
    assert str(err) == "round 8, Ann, e3: spends 3 chips but has 2 left"
    assert err.rule == "chips-available"
    # chips earned in round 7 are not there yet while writing round 7's card
    err = illegal(game({"Ann": B_BY_7[:6] + [at("e2", "2H", 1)]}))
    assert str(err) == "round 7, Ann, e2: spends 1 chip but has 0 left"


def test_surplus_chips_are_legal_and_lost_unless_exact_chips():
    log = game({"Ann": B_BY_7 + [at("e3", "2C", 2)]}, pairs={8: cards("KD 2C")})  # 2C costs nothing
    assert replay(log).sheets[0].chips_left == 0
    err = illegal(log, Ruleset(exact_chips=True))
    assert str(err) == "round 8, Ann, e3: spends 2 chips; 2C from KD and 2C costs 0"
    assert err.rule == "chips-exact"


# --------------------------------------------------------------------------
# Completing hands: rewards.


def test_rewards_first_completers_together_and_later_ones():
    # Ann and Bob both complete A (single) in round 5: both first, 1 chip each; Cy completes A
    # in round 6: a later completer of a single hand gets nothing.  Ann completes B (double)
    # first in round 10: 2 chips; Bob completes B in round 11: 1 chip.
    log = game(
        {
            "Ann": ["a1", "e5", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "e2", "e4"],
            "Bob": ["a1", "e5", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "e4", "e2"],
            "Cy": ["a1", "e5", "b1", "c1", "e4", "d1", "a2", "b2", "c2", "d2", "d5"],
        }
    )
    res = replay(log)
    r = res.rounds
    assert r[4].completed == {"Ann": ("A",), "Bob": ("A",), "Cy": ()} and r[4].earned == {"Ann": 1, "Bob": 1, "Cy": 0}
    assert r[4].first == ("A",)
    assert r[5].completed["Cy"] == ("A",) and r[5].earned["Cy"] == 0 and r[5].first == ()
    assert r[9].completed == {"Ann": ("B",), "Bob": (), "Cy": ()} and r[9].earned["Ann"] == 2
    assert r[10].completed["Bob"] == ("B",) and r[10].earned["Bob"] == 1
    assert [s.chips_earned for s in res.sheets] == [3, 2, 0]
    assert sum(sum(o.earned.values()) for o in r) == 5


def test_double_reward_to_a_later_completer():
    # Ann completes B (double) in round 7: first, 2 chips.  Bob, a round behind (b1 in round 7
    # completes nothing), completes B in round 8: a later completer of a double hand, 1 chip.
    log = game({"Ann": B_BY_7 + ["e3"], "Bob": B_BY_7[:6] + ["b1", "e2"]})
    res = replay(log)
    assert res.rounds[6].earned == {"Ann": 2, "Bob": 0}
    assert res.rounds[7].earned == {"Ann": 0, "Bob": 1}


# --------------------------------------------------------------------------
# Surrounding the Golden Card.

RING = ["a1", "e5", "a2", "b2", "c2", "d2", "d3", "d4", "c4", "b4"]  # b3 is the 8th space round c3


def surround_game(ann11=None, cy12=None, ann10=None):
    ann = RING[:9] + [ann10 or "b4", ann11 or at("b3", "QH", golden=pick("9C", "e2")), "e3"]
    bob = RING + [at("b3", "QH", golden=pick("9C", "a3")), "a4"]
    cy = RING + ["e4", cy12 or at("b3", "AH", golden=pick("JK", "e1", "AH"))]
    return game({"Ann": ann, "Bob": bob, "Cy": cy})


def test_two_players_surrounding_in_one_round_choose_the_same_card():
    res = replay(surround_game())
    ann, bob, cy = res.sheets
    assert ann.cards[parse_cell("e2")] == c("9C") and bob.cards[parse_cell("a3")] == c("9C")
    r11 = res.rounds[10]
    assert r11.golden_removed == (c("9C"),)
    # Ann's Golden Deck card in e2 completes row 2 (B, double) first: 2 chips; Bob completes nothing
    assert r11.completed == {"Ann": ("B",), "Bob": (), "Cy": ()} and r11.earned == {"Ann": 2, "Bob": 0, "Cy": 0}
    # a Golden Deck Joker is written as any card: Cy's AH
    assert cy.cards[parse_cell("e1")] == c("AH")
    assert res.rounds[11].golden_removed == (c("JK"),)
    assert res.golden_deck == tuple(cards("2D KC 7S 5H AS 3C"))
    assert len(ann.cards) == len(bob.cards) == len(cy.cards) == 13  # 12 rounds + the Golden Deck card


def test_a_card_chosen_in_an_earlier_round_is_gone():
    err = illegal(surround_game(cy12=at("b3", "AH", golden=pick("9C", "e1"))))
    assert str(err) == "round 12, Cy, b3: Golden Deck pick 9C is not in the Golden Deck (left: JK 2D KC 7S 5H AS 3C)"
    assert (err.rule, err.field) == ("golden-not-in-deck", "golden.card")


def test_golden_deck_pick_rules():
    err = illegal(surround_game(ann10=at("b4", "10H", golden=pick("9C", "e2"))))
    assert str(err) == (
        "round 10, Ann, b4: picks from the Golden Deck, but this move does not write the 8th space "
        "round the Golden Card (c3)"
    )
    err = illegal(surround_game(ann11=at("b3", "QH", golden=pick("9C", "a1"))))
    assert str(err) == "round 11, Ann, b3: Golden Deck card to a1: the space already holds 2S"
    err = illegal(surround_game(ann11=at("b3", "QH", golden=pick("9C", "b3"))))  # the move's own space
    assert str(err) == "round 11, Ann, b3: Golden Deck card to b3: the space already holds QH"
    err = illegal(surround_game(ann11=at("b3", "QH", golden=pick("9C", "c3"))))
    assert str(err) == "round 11, Ann, b3: Golden Deck card to c3: that is the Golden Card's space"
    err = illegal(surround_game(ann11=at("b3", "QH", golden=pick("9C", "e2", "9D"))))
    assert str(err) == "round 11, Ann, b3: Golden Deck card 9C is written as it is, not as 9D (chips never change it)"
    err = illegal(surround_game(cy12=at("b3", "AH", golden=pick("JK", "e1"))))
    assert str(err) == "round 12, Cy, b3: a Joker from the Golden Deck is written as a card; say which (as: AH)"
    assert err.rule == "golden-as"


def test_surrounding_without_choosing_is_allowed():
    res = replay(surround_game(ann11=at("b3", "QH")))
    assert res.rounds[10].golden_removed == (c("9C"),)  # Bob's choice only
    assert len(res.sheets[0].cards) == 12


# --------------------------------------------------------------------------
# Passing, on a sheet that fills up: a 3×3 layout whose 8 spaces all ring the Golden Card.

TINY = """\
game: allin
golden: 5H
grid: |
  *---o---o
  |   |   |
  o---G---o
  |   |   |
  o---o---*
hands:
  A: {reward: single, bonus: 2}
  B: {reward: double, bonus: 2}
  C: {reward: single, bonus: 2}
  D: {reward: single, bonus: 2}
  E: {reward: double, bonus: 2}
  F: {reward: single, bonus: 2}
"""
TINY_PATH = ["a1", "c3", "b1", "c1", "c2", "b3", "a3", "a2"]


def test_pass_only_when_no_space_is_legal(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY, encoding="utf-8")
    tiny = load_allin_layout(path)
    res = replay(game({"Ann": TINY_PATH + [PASS]}, layout=tiny))
    # A (row 1) r4 +1; F (column c) r5 +1; E (column b) r6 +2; C (row 3) r7 +1; B (row 2, double) and D (column a) r8 +3
    assert [o.earned["Ann"] for o in res.rounds] == [0, 0, 0, 1, 1, 2, 1, 3, 0]
    assert res.sheets[0].chips_earned == 8
    # a1 is full, so the 8th ring space leaves nowhere for a Golden Deck card
    err = illegal(game({"Ann": TINY_PATH[:7] + [at("a2", "6H", golden=pick("9C", "a1"))]}, layout=tiny))
    assert str(err).startswith("round 8, Ann, a2: Golden Deck card to a1: the space already holds")
    err = illegal(game({"Ann": TINY_PATH + [Move(None, None, 1)]}, layout=tiny))
    assert str(err) == "round 9, Ann, pass: a pass writes no card, spends no chips and picks nothing"
    err = illegal(game({"Ann": [PASS]}))
    assert str(err) == "round 1, Ann, pass: a player passes only when no space is legal; legal here: a1, e5"
    assert err.rule == "pass"


# --------------------------------------------------------------------------
# Players, the deck, the end.


def test_every_player_moves_and_only_players_move():
    log = game({"Ann": ["a1"], "Bob": ["e5"]})
    missing = dataclasses.replace(log, rounds=(Round(log.rounds[0].revealed, {"Ann": log.rounds[0].moves["Ann"]}),))
    err = illegal(missing)
    assert str(err) == "round 1, Bob: no move this round; every player writes a card"
    assert err.rule == "no-move"
    extra = dataclasses.replace(log, rounds=(Round(log.rounds[0].revealed, {**log.rounds[0].moves, "Dan": PASS}),))
    assert str(illegal(extra)) == "round 1, Dan: a move for 'Dan', who is not a player (players: Ann, Bob)"
    with pytest.raises(IllegalMove, match="^setup: player 'Ann' is listed twice; names must differ$"):
        GameState(Q, ["Ann", "Ann"], GOLDEN)


def test_one_deck_of_54_cards():
    with pytest.raises(IllegalMove, match=r"^Golden Deck: the Golden Deck has 7 cards; setup sets aside 8$"):
        GameState(Q, ["Ann"], GOLDEN[:7])
    with pytest.raises(IllegalMove) as info:
        GameState(Q, ["Ann"], GOLDEN[:7] + (c("9C"),))
    assert str(info.value) == "Golden Deck: 9C was already dealt (in the Golden Deck); the deck has one of each card"
    err = illegal(game({"Ann": ["a1"]}, pairs={1: cards("QD 9C")}))
    assert str(err) == "round 1: revealed 9C was already dealt (in the Golden Deck); the deck has one of each card"
    assert (err.rule, err.player, err.field) == ("deck", None, "revealed.1")
    err = illegal(game({"Ann": ["a1", "e5", "b1"]}, pairs={3: cards("3S QD")}))
    assert str(err) == "round 3: revealed 3S was already dealt (revealed in round 1); the deck has one of each card"
    err = illegal(game({"Ann": ["a1", "e5"]}, pairs={1: cards("QD JK"), 2: cards("JK QC")}))
    assert (
        str(err)
        == "round 2: revealed JK would be a third Joker; the deck has 2 (in the Golden Deck, revealed in round 1)"
    )
    err = illegal(game({"Ann": ["a1"]}, pairs={1: cards("QD QC QH")}))
    assert str(err) == "round 1: a round reveals 2 cards, this one 3"


def test_the_game_ends_after_round_23():
    sim = simulate_game(Q, ["Ann", "Bob"], seed=3)
    assert len(sim.log.rounds) == 23 and sim.result.finished
    res = replay(sim.log)
    assert res.finished and res.report() == sim.result.report()
    # 8 + 46 cards: the whole deck is dealt
    dealt = list(sim.log.golden_deck) + [x for r in sim.log.rounds for x in r.revealed]
    assert sorted(x.code for x in dealt) == sorted(x.code for x in standard_deck(jokers=2))
    extra = Round(cards("2S 3S"), {"Ann": PASS, "Bob": PASS})
    err = illegal(dataclasses.replace(sim.log, rounds=sim.log.rounds + (extra,)))
    assert str(err) == "round 24: the game ends after round 23 (the main deck's 46 cards are used up)"
    assert err.rule == "end"
    partial = replay(dataclasses.replace(sim.log, rounds=sim.log.rounds[:10]))
    assert not partial.finished and all(len(s.cards) in (10, 11) for s in partial.sheets)


def test_a_refused_round_leaves_the_state_as_it_was():
    state = GameState(Q, ["Ann"], GOLDEN)
    with pytest.raises(IllegalMove):
        state.play_round(cards("QD QC"), {"Ann": at("b2", "QD")})
    assert state.round == 0 and not state.players["Ann"].cards
    state.play_round(cards("QD QC"), {"Ann": at("a1", "QD")})  # QD and QC were not kept as dealt
    assert state.round == 1


# --------------------------------------------------------------------------
# The game-log file: located errors.

LOG = """\
game: allin
kind: game-log
layout: q-diamonds
players: [Ann, Bob]
golden_deck: [9C, JK, 2D, KC, 7S, 5H, AS, 3C]
rounds:
  - revealed: [2S, 3S]
    moves:
      Ann: {cell: a1, card: 2S}
      Bob: {cell: e5, card: 3S}
  - revealed: [4S, 5S]
    moves:
      Ann: {cell: e5, card: 4S}
      Bob: {cell: a1, card: 5S}
  - revealed: [6S, 8S]
    moves:
      Ann: {cell: b1, card: 6S}
      Bob: {cell: c2, card: 8S}
"""


def test_log_file_replay_error_is_located(write_yaml):
    path = write_yaml(LOG, "game.yaml")
    err = pytest.raises(InputError, load_game_log(path).replay).value
    (problem,) = err.problems
    assert (problem.line, problem.col) == (18, 19)  # Bob's cell c2 on line 18
    assert str(problem).endswith("game.yaml:18:19: error: round 3, Bob, c2: not linked to a written card")


def test_log_file_reads_back_what_was_written(write_yaml):
    lf = load_game_log(write_yaml(LOG.replace("cell: c2", "cell: e4"), "game.yaml"))
    res = lf.replay()
    assert [len(s.cards) for s in res.sheets] == [3, 3]
    again = load_game_log(write_yaml(dump_game_log(lf.log), "again.yaml"))
    assert again.log == lf.log


def test_log_file_shape_problems_all_at_once(write_yaml):
    text = (
        LOG.replace("card: 6S", "card: 1S")
        .replace("cell: c2", "cell: c0")
        .replace("Ann: {cell: e5, card: 4S}", "Ann: {cell: e5, card: 4S, chip: 1}")
    )
    err = pytest.raises(InputError, load_game_log, write_yaml(text, "game.yaml")).value
    found = [(p.line, p.col, p.message) for p in err.problems]
    assert [(line, col) for line, col, _ in found] == [(13, 33), (17, 29), (18, 19)]
    assert "unknown key 'chip' in round 2, Ann's move; did you mean 'chips'?" in found[0][2]
    assert "round 3, Ann: card: '1S' is not a card code" in found[1][2]
    assert "round 3, Bob: cell 'c0' is not a space name" in found[2][2]


def test_log_file_golden_deck_and_round_numbers_are_located(write_yaml):
    err = pytest.raises(
        InputError, load_game_log(write_yaml(LOG.replace("2D, KC", "2D, 9C"), "game.yaml")).replay
    ).value
    assert str(err.problems[0]).endswith(
        "game.yaml:5:27: error: Golden Deck: 9C was already dealt (in the Golden Deck); the deck has one of each card"
    )
    text = LOG.replace("  - revealed: [4S, 5S]", "  - round: 3\n    revealed: [4S, 5S]")
    err = pytest.raises(InputError, load_game_log, write_yaml(text, "game.yaml")).value
    assert "game.yaml:11:12: error: this is round 2 (the 2nd item of rounds:), not 3" in str(err)


def test_a_typed_in_sheet_is_not_a_log(write_yaml):
    sheet = "game: allin\nlayout: q-diamonds\nplayer: Ann\ngrid: |\n  .\nchips: {earned: 0}\n"
    err = pytest.raises(InputError, load_game_log, write_yaml(sheet, "ann.yaml")).value
    assert "this is a typed-in sheet, not an All In game log: score it with 'sheetsmith verify" in str(err)


@pytest.mark.parametrize(
    "shipped",
    ["allin/q-diamonds.yaml", "decks/poker-deck.yaml", "chips/fundex-chips.yaml", "pads/fundex-ledger.yaml"],
)
def test_a_layout_or_component_is_not_a_log(shipped):
    from generator.core.errors import UnreadableError

    from .conftest import REPO

    path = REPO / "layouts" / shipped
    err = pytest.raises(UnreadableError, load_game_log, path).value
    [problem] = err.problems
    assert problem.message.startswith("this is a layout or component, not an All In game log: check it with")
