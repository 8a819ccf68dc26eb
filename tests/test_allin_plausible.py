"""Sheets no game can produce (issue 13): the plausibility checks of generator/games/allin/plausible.py.

Every verdict below was worked out by hand from the rulebook
(seeds/000_e6ed0c80d6705b52.txt) on the Q♦ sheet:

    row 1  a1*--b1--c1--d1    e1        rewards: A single, B double, C double, D double,
           |    |         |    |                 E single, F double, G single, H single,
    row 2  a2---b2--c2--d2---e2                  I double, J single (15 chips at most).
           |    |    |    |    |        starting spaces a1 and e5; Golden Card c3,
    row 3  a3---b3---G---d3---e3        ring b2 c2 d2 b3 d3 b4 c4 d4.
           |    |    |    |    |
    row 4  a4---b4--c4--d4---e4
           |         |    |    |
    row 5  a5   b5--c5--d5---e5*

and, for the placement rules, checked exhaustively against a brute-force
search of every order in which a player may legally write (small layouts,
every subset of spaces).
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from generator.core.cards import parse_card, standard_deck
from generator.core.shipped import shipped_layouts
from generator.games.allin.bot import SimpleBot, simulate_game
from generator.games.allin.filled import FilledSheet
from generator.games.allin.game import GameState, GoldenPick, Move, Ruleset, golden_cells, surrounds_golden
from generator.games.allin.grid import cell_name, golden_ring, parse_grid
from generator.games.allin.layout import load_allin_layout, load_layout
from generator.games.allin.plausible import RULES, check_sheet, groups
from generator.games.allin.rules import ROUNDS
from generator.games.allin.scoring import report, score_game
from generator.games.allin.typed_sheet import load_allin_sheet

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "docs" / "examples"
LAYOUTS = [load_layout(s.path) for s in shipped_layouts() if s.game == "allin"]
Q = next(lay for lay in LAYOUTS if lay.id == "q-diamonds")
RING = "b2 c2 d2 b3 d3 b4 c4 d4".split()
ANY = [c for c in standard_deck()]


def coord(name: str) -> tuple[int, int]:
    return (ord(name[0]) - 97, int(name[1:]) - 1)


def sheet(names: str | list[str], layout=Q, earned: int = 0, spent: int = 0, player: str = "P") -> FilledSheet:
    """A sheet with a card in each named space (the cards themselves do not matter to these checks)."""
    names = names.split() if isinstance(names, str) else names
    return FilledSheet(layout, player, {coord(n): ANY[i % 52] for i, n in enumerate(names)}, earned, spent)


def found(s: FilledSheet, **kw) -> list[tuple[str, str | None]]:
    """The problems of a sheet taken in the middle of its game (``finished=False``: fewer than 23 cards is
    not itself a problem there); tests of finished sheets pass ``finished=True``."""
    kw.setdefault("finished", False)
    return [(p.rule, p.cell) for p in check_sheet(s, **kw)]


# --- the shipped examples ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["ann", "bob", "cy"])
def test_the_shipped_example_sheets_are_plausible(name):
    s = load_allin_sheet(EXAMPLES / f"{name}.yaml")
    assert check_sheet(s) == []
    assert report(score_game([s]))["players"][0]["impossible"] is False


# --- starting spaces ---------------------------------------------------------------------------


def test_round_one_alone_is_a_card_in_a_starting_space():
    # round 1 writes in a dotted space: one card at a1 is fine, one card at c2 is not
    assert found(sheet("a1")) == []
    assert found(sheet("e5")) == []
    assert found(sheet("c2")) == [("linked", "c2")]


def test_two_cards_need_both_starting_spaces():
    # rounds 1 and 2 each take an empty dotted space: a1 then b1 leaves e5 empty, impossible
    assert found(sheet("a1 b1")) == [("start", "e5")]
    assert found(sheet("a1 e5")) == []
    # neither dot written: both reported, and the cards joined to no dot too
    assert found(sheet("b2 c2 d2")) == [("start", "a1"), ("start", "e5"), ("linked", "b2")]


# --- placement ---------------------------------------------------------------------------------


def test_later_cards_grow_from_the_starting_cards_along_the_lines():
    # a1, e5, then a2, a3 (column a) and e4, d4 (up from e5, then along row 4): all linked
    assert found(sheet("a1 e5 a2 a3 e4 d4")) == []
    # c1 is joined only to b1 and d1 (no line down to c2): both empty, so c1 stands apart
    assert found(sheet("a1 e5 c1")) == [("linked", "c1")]
    # b5 has no line up to b4: with c5 empty it stands apart even though b4 is written
    assert found(sheet("a1 e5 a2 b2 b3 b4 b5")) == [("linked", "b5")]


def test_the_printed_golden_card_does_not_link_by_default():
    # d3 touches only c3 (the Golden Card), d2, d4 and e3, all empty: linked only through the
    # printed card, which the referee does not count as written unless its option says so
    s = sheet("a1 e5 a2 a3 b3 d3")
    assert found(s) == [("linked", "d3")]
    assert found(s, golden_card_links=True) == []


def golden_ring_from_a1():
    """a1, e5 and a path a1-a2-b2 to the eight spaces round c3 (all linked to a1)."""
    return ["a1", "e5", "a2"] + RING


def test_one_card_may_stand_apart_once_the_golden_card_is_surrounded():
    # ring full: the Golden Deck card goes anywhere, here e1 (joined only to the empty e2)
    assert found(sheet(golden_ring_from_a1() + ["e1"])) == []
    # ring not full (d4 missing): the same e1 cannot be explained
    names = [n for n in golden_ring_from_a1() if n != "d4"] + ["e1"]
    ((rule, cell),) = found(sheet(names))
    assert (rule, cell) == ("linked", "e1")
    assert "d4 empty here" in check_sheet(sheet(names))[0].message


def test_only_one_golden_deck_card_a_game():
    # ring full, c1 and e1 both apart: one is the Golden Deck card, the other is impossible
    assert found(sheet(golden_ring_from_a1() + ["c1", "e1"])) == [("linked", "e1")]


def test_the_ring_itself_cannot_stand_apart():
    # a1 and e5 written, the eight ring spaces written but joined to neither: they were written
    # before any Golden Deck card, each next to a written card, so they must reach a dot
    ((rule, cell),) = found(sheet(["a1", "e5"] + RING))
    assert (rule, cell) == ("linked", "b2")


# --- card count --------------------------------------------------------------------------------

WIDE = """\
*---o---o---o---o---o
|   |   |   |   |   |
o---o---o---o---o---o
|   |   |   |   |   |
o---o---G---o---o---o
|   |   |   |   |   |
o---o---o---o---o---o
|   |   |   |   |   |
o---o---o---o---o---*
"""
"""A 6 × 5 sheet of 29 spaces, more than a game fills; Golden Card c3, ring b2 c2 d2 b3 d3 b4 c4 d4."""


def make_layout(tmp_path: Path, grid: str, name: str = "small", chips: int | None = None):
    """A layout file for ``grid`` (hands named from the grid itself, rewards single); its model."""
    runs = parse_grid(grid)[0].hands
    body = "\n".join("  " + ln for ln in grid.splitlines())
    hands = "\n".join(f"  {h.letter}: {{reward: single, bonus: 1}}" for h in runs)
    extra = f"chips: {chips}\n" if chips else ""
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"game: allin\nid: {name}\ngolden: QD\n{extra}grid: |\n{body}\nhands:\n{hands}\n", encoding="utf-8")
    return load_allin_layout(path)


def test_at_most_23_cards_and_one_golden_deck_card(tmp_path):
    wide = make_layout(tmp_path, WIDE)
    every = [cell_name(c) for c in wide.grid.writable]
    assert len(every) == 29
    # 23 rounds, one card each: 23 cards without the ring full is fine (e2 and the ring's d4 kept empty)
    keep = [n for n in every if n not in ("d4", "e2", "f2", "e4", "f4", "e5")]
    assert len(keep) == 23 and found(sheet(keep, wide)) == []
    # a 24th card with d4 still empty: no Golden Deck card was earned
    assert found(sheet(keep + ["e2"], wide)) == [("cards", None)]
    # ring full: 24 is the most (23 + the Golden Deck card), 25 is one too many
    full = [n for n in every if n not in ("e2", "f2", "e4", "f4", "e5")]
    assert len(full) == 24 and found(sheet(full, wide)) == []
    assert found(sheet(full + ["e2"], wide)) == [("cards", None)]


# --- chips -------------------------------------------------------------------------------------


def test_an_empty_sheet_earns_no_chips():
    # issue 13: an empty Q♦ sheet claiming 50 chips used to win; no hand is complete, so no chip
    assert found(sheet([], earned=50)) == [("chips-earned", "chips.earned")]
    assert found(sheet([], earned=0)) == []


def test_chips_earned_at_most_what_the_completed_hands_give_and_at_least_one_a_two_figure_hand():
    # Cy's sheet (docs/examples/cy.yaml): a5 empty, so F (column a) is not complete; complete:
    # A 1, B 2, C 2, D 2, E 1, G 1, H 1, I 2, J 1 = 13 chips at most; the two-figure hands among them,
    # B, C, D and I, give whoever completes them at least 1 chip each (2 to the first, 1 later): 4 at least
    cy = load_allin_sheet(EXAMPLES / "cy.yaml")
    for earned, verdict in (
        (3, [("chips-earned", "chips.earned")]),
        (4, []),
        (13, []),
        (14, [("chips-earned", "chips.earned")]),
    ):
        s = FilledSheet(cy.layout, "Cy", cy.cards, earned, 0)
        assert found(s) == verdict, earned
    message = check_sheet(FilledSheet(cy.layout, "Cy", cy.cards, 14, 0))[0].message
    assert "at most 13 (A 1, B 2, C 2, D 2, E 1, G 1, H 1, I 2, J 1)" in message
    message = check_sheet(FilledSheet(cy.layout, "Cy", cy.cards, 3, 0))[0].message
    assert (
        "3 chips earned, but the completed two-figure hands B, C, D, I give at least 1 chip each (4 in all)" in message
    )


def cards_sheet(rows: list[str], earned: int = 0, spent: int = 0) -> FilledSheet:
    """A Q♦ sheet from five rows of five tokens (``G`` the Golden Card, ``.`` empty)."""
    cards = {}
    for r, row in enumerate(rows):
        for c, tok in enumerate(row.split()):
            if tok not in ("G", "."):
                cards[(c, r)] = parse_card(tok)
    return FilledSheet(Q, "P", cards, earned, spent)


def test_every_round_writes_a_card_while_a_space_is_left():
    # Cy's finished sheet (23 cards, a5 left empty) is fine; without its 2C at b5 it holds 22 cards while
    # a5 (linked to a4) and b5 (linked to c5) are empty: a round went by without a card
    cy = load_allin_sheet(EXAMPLES / "cy.yaml")
    assert found(cy, finished=True) == []
    short = {k: v for k, v in cy.cards.items() if k != coord("b5")}
    s = FilledSheet(cy.layout, "Cy", short, cy.chips_earned, cy.chips_spent)
    assert found(s, finished=True) == [("rounds", None)]
    assert "22 cards written" in check_sheet(s)[0].message and "(a5, b5)" in check_sheet(s)[0].message
    assert found(s, finished=False) == []  # in the middle of a game, 22 cards is round 22
    # an empty finished sheet: round 1 had a starting space to write in
    (p,) = check_sheet(sheet([]))
    assert p.rule == "rounds" and "an empty starting space (a1, e5)" in p.message


# the helper's example: nine 5s, no chip spent.  The deck has four 5s; a value shows in at most 4 rounds; beyond
# them, only the 2 Jokers' rounds and the Golden Deck card (the ring b2 c2 d2 b3 d3 b4 c4 d4 is all written: the
# Golden Card is surrounded) come free: 9 - 4 = 5 extra, 5 - 3 = 2 need a chip each
NINE_FIVES = ["5S 5H 5D 5C 2H", "5S 5H 5D 5C 2D", "5S 4H G QC 2C", "3D 4D QS 7H 2S", "AH AD AC 7S 8S"]


@pytest.mark.parametrize("spent, flagged", [(0, True), (1, True), (2, False)])
def test_more_of_a_value_than_the_deck_needs_chips(spent, flagged):
    s = cards_sheet(NINE_FIVES, earned=15, spent=spent)
    assert (("deck", "chips.spent") in found(s)) is flagged
    if flagged:
        msg = next(p.message for p in check_sheet(s) if p.rule == "deck")
        assert msg.startswith("9 × 5 written") and f"at least 2 chips were spent, not {spent}" in msg


@pytest.mark.parametrize("hearts, spent, flagged", [(15, 0, False), (16, 0, True), (16, 1, True), (16, 2, False)])
def test_more_of_a_suit_than_the_deck_needs_two_chips_a_card(hearts, spent, flagged):
    # 13 hearts in the deck; the ring is not all written (b2 and c2 are empty), so only the 2 Jokers' rounds are
    # free: 15 hearts = 2 extra, both free; 16 = 3 extra, one changed by chips, 2 chips a suit
    order = [
        "a1",
        "b1",
        "c1",
        "d1",
        "e1",
        "a2",
        "d2",
        "e2",
        "a3",
        "b3",
        "d3",
        "e3",
        "a4",
        "b4",
        "c4",
        "d4",
        "e4",
        "a5",
        "b5",
        "c5",
        "d5",
        "e5",
    ]
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    cards = {coord(n): parse_card(f"{ranks[i % 13]}{'H' if i < hearts else 'S'}") for i, n in enumerate(order)}
    s = FilledSheet(Q, "P", cards, 15, spent)
    assert (("deck", "chips.spent") in found(s)) is flagged


def test_chips_earned_at_most_the_chip_track(tmp_path):
    # the Q♦ grid with a 5-circle chip track: a full sheet could earn 15, the track holds 5
    src = next(s.path for s in shipped_layouts() if s.id == "q-diamonds").read_text(encoding="utf-8")
    path = tmp_path / "short-track.yaml"
    path.write_text(src.replace("id: q-diamonds", "id: short-track") + "chips: 5\n", encoding="utf-8")
    short = load_allin_layout(path)
    ann = load_allin_sheet(EXAMPLES / "ann.yaml")
    assert found(FilledSheet(short, "Ann", ann.cards, 5, 0)) == []
    ((p),) = check_sheet(FilledSheet(short, "Ann", ann.cards, 6, 0))
    assert (p.rule, p.cell) == ("chips-earned", "chips.earned") and "5 circles" in p.message


def test_chips_spent_at_most_earned():
    # Spending Poker Chips: only chips a player has; Ann's full sheet earned 6
    ann = load_allin_sheet(EXAMPLES / "ann.yaml")
    assert found(FilledSheet(Q, "Ann", ann.cards, 6, 6)) == []
    assert found(FilledSheet(Q, "Ann", ann.cards, 6, 7)) == [("chips-spent", "chips.spent")]


# --- exhaustive: the placement checks against every legal order of writing ----------------------

SMALL = {
    # two starting spaces; columns d and e outside the ring, joined to it only along row 3
    "two-starts": """\
*---o---o   o---o
|   |   |   |   |
o---G---o   o   o
|   |   |   |   |
o---o---o---*---o
""",
    # three starting spaces, sparse links, spaces outside the ring in both corners
    "three-starts": """\
*---o---o   o---*
|       |   |   |
o   G---o---o   o
|   |   |       |
o---o---o---*---o
""",
}


def reachable(layout, golden_card_links: bool) -> set[frozenset]:
    """Every set of written spaces some legal sequence of moves leads to (brute force over orders).

    Round 1 and 2: an empty starting space.  Later: an empty space linked to a written one (or to
    the printed Golden Card under the option).  The move that writes the 8th space round the
    Golden Card may add one Golden Deck card in any empty space, once a game.
    """
    grid, golden = layout.grid, layout.golden_coord
    ring = set(golden_ring(golden))
    seen: set[tuple[frozenset, bool]] = set()
    todo = [(frozenset(), False)]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        written, picked = state
        round_no = len(written) - picked + 1
        if round_no > 23:
            continue
        for cell in grid.writable:
            if cell in written:
                continue
            if round_no <= 2:
                ok = grid.cells[cell].kind == "start"
            else:
                ok = any(n in written or (golden_card_links and n == golden) for n in grid.neighbours(cell))
            if not ok:
                continue
            after = written | {cell}
            todo.append((after, picked))
            if not picked and cell in ring and ring <= after:
                todo.extend((after | {g}, True) for g in grid.writable if g not in after)
    return {w for w, _ in seen}


@pytest.mark.slow
@pytest.mark.parametrize("golden_card_links", [False, True], ids=["golden-card-not-written", "golden-card-links"])
@pytest.mark.parametrize("name", list(SMALL))
def test_placement_checks_agree_with_every_legal_order(tmp_path, name, golden_card_links):
    layout = make_layout(tmp_path, SMALL[name], name)
    legal = reachable(layout, golden_card_links)
    spaces = layout.grid.writable
    placement = {"start", "linked", "cards"}
    disagree = []
    grown_apart = 0
    for k in range(len(spaces) + 1):
        for subset in itertools.combinations(spaces, k):
            s = FilledSheet(layout, "P", {c: ANY[0] for c in subset})
            plausible = not any(p.rule in placement for p in check_sheet(s, golden_card_links=golden_card_links))
            if plausible != (frozenset(subset) in legal):
                disagree.append(([cell_name(c) for c in subset], plausible))
            starts = set(layout.grid.starts) | ({layout.golden_coord} if golden_card_links else set())
            apart = [g for g in groups(s, golden_card_links=golden_card_links) if not starts & set(g)]
            grown_apart += plausible and any(len(g) > 1 for g in apart)
    assert disagree == []
    assert len(legal) > 100
    if name == "two-starts":
        # later cards may join the Golden Deck card: a group apart of several cards is legal
        assert grown_apart > 0


# --- replayed and simulated games hold by construction --------------------------------------------


class RandomBot(SimpleBot):
    """A random generated move, random surplus chips, a random Golden Deck card in a random space."""

    def choose_move(self, state, player, revealed):
        legal = state.legal_moves(player, revealed)
        move = self.rng.choice(list(legal.moves()))
        if move.is_pass:
            return move
        me = state.players[player]
        pick = None
        if surrounds_golden(state.layout, me.cards, move.cell) and state.golden_deck:
            after = {**me.cards, move.cell: move.card}
            card = self.rng.choice(state.golden_deck)
            pick = GoldenPick(
                card,
                self.rng.choice(golden_cells(state.layout, after)),
                self.rng.choice(ANY) if card.is_joker else None,
            )
        return Move(move.cell, move.card, self.rng.randint(move.chips, legal.chips), pick)


def _checked_every_round(sim, ruleset: Ruleset) -> tuple[int, int]:
    """Referee the simulated log again round by round; every sheet plausible after every round.

    Returns how many sheets were checked, and how many of them held a group of cards apart
    from the starting spaces (the Golden Deck card's).
    """
    state = GameState(sim.log.layout, sim.log.players, sim.log.golden_deck, ruleset)
    starts = set(sim.log.layout.grid.starts) | ({sim.log.layout.golden_coord} if ruleset.golden_card_links else set())
    checked = apart = 0
    for rnd in sim.log.rounds:
        state.play_round(rnd.revealed, rnd.moves)
        for s in state.sheets():
            finished = state.round == ROUNDS  # fewer than 23 cards is a problem of a finished sheet only
            assert check_sheet(s, golden_card_links=ruleset.golden_card_links, finished=finished) == [], (
                s.player,
                state.round,
            )
            checked += 1
            apart += any(not starts & set(g) for g in groups(s, golden_card_links=ruleset.golden_card_links))
    return checked, apart


@pytest.mark.slow
def test_simulated_games_are_plausible_after_every_round():
    # the referee only lets legal moves through, so whatever it produces must pass every check;
    # random play (Golden Deck cards anywhere) on every layout, a quarter with the Golden Card linking
    # (the greedy bot's 200 final sheets are checked in test_allin_sim.py)
    checked = apart = 0
    games = 96
    for seed in range(games):
        ruleset = Ruleset(golden_card_links=seed % 4 == 3)
        sim = simulate_game(LAYOUTS[seed % len(LAYOUTS)], 3, seed, ruleset, bot=RandomBot)
        c, a = _checked_every_round(sim, ruleset)
        checked, apart = checked + c, apart + a
        rep = sim.result.report()
        assert rep["problems"] == [] and all(p["impossible"] is False for p in rep["players"])
    assert checked == games * 23 * 3
    assert apart > 0  # random Golden Deck placements do leave cards apart: that rule is exercised


# --- where the findings go: the scored result, the report, the table ---------------------------

EMPTY = """\
game: allin
layout: q-diamonds
player: Eve
grid: |
  .   .   .   .   .
  .   2C  .   .   .
  .   .   G   .   .
  .   .   .   .   .
  .   .   .   .   .
chips: {earned: 60}
"""


def run(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "generator.cli.app", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def test_verify_json_reports_impossible_sheets_located_at_their_tokens(tmp_path):
    (tmp_path / "eve.yaml").write_text(EMPTY, encoding="utf-8")
    for name in ("ann", "bob"):
        (tmp_path / f"{name}.yaml").write_text(
            (EXAMPLES / f"{name}.yaml").read_text(encoding="utf-8"), encoding="utf-8"
        )
    res = run("verify", "ann.yaml", "bob.yaml", "eve.yaml", "--json", cwd=tmp_path)
    assert res.returncode == 1  # read, but an impossible sheet found (exit codes, DESIGN.md)
    data = json.loads(res.stdout)
    assert [p["impossible"] for p in data["players"]] == [False, False, True]
    # the one card (b2, line 6 column 7) is not in a starting space; one card on a finished sheet while the starting
    # spaces are empty (at the grid, line 4 column 7); 60 chips (line 10, col 17) with no hand complete
    assert data["problems"] == [
        {
            "player": "Eve",
            "cell": "b2",
            "rule": "linked",
            "at": "eve.yaml:6:7",
            "line": 6,
            "col": 7,
            "message": data["problems"][0]["message"],
        },
        {
            "player": "Eve",
            "cell": None,
            "rule": "rounds",
            "at": "eve.yaml:4:7",
            "line": 4,
            "col": 7,
            "message": data["problems"][1]["message"],
        },
        {
            "player": "Eve",
            "cell": "chips.earned",
            "rule": "chips-earned",
            "at": "eve.yaml:10:17",
            "line": 10,
            "col": 17,
            "message": data["problems"][2]["message"],
        },
    ]
    assert (
        "starting space" in data["problems"][0]["message"] and "no hand is complete" in data["problems"][2]["message"]
    )
    assert "1 card written, but a game has 23 rounds" in data["problems"][1]["message"]
    # Eve's 60 chips still beat Ann's 48 and Bob's 41 on points: the winner stands, marked impossible
    assert data["winners"] == ["Eve"]


def test_verify_table_marks_impossible_sheets_and_winner(tmp_path):
    (tmp_path / "eve.yaml").write_text(EMPTY, encoding="utf-8")
    (tmp_path / "ann.yaml").write_text((EXAMPLES / "ann.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    res = run("verify", "ann.yaml", "eve.yaml", cwd=tmp_path)
    out = res.stdout
    # Ann alone against Eve takes every bonus her hands score: 30 + 23 + 4 = 57 < Eve's 60 chips
    assert res.returncode == 1
    assert "Eve — Q♦ sheet (q-diamonds) — IMPOSSIBLE SHEET" in out
    assert "No game can produce the sheet of Eve (3 problems" in out
    # the findings, each once, at its token, after the tables
    for finding in (
        "eve.yaml:6:7: error: b2: this card is not joined by links to a starting space",
        "eve.yaml:10:17: error: chips.earned: 60 chips earned, but no hand is complete",
    ):
        assert (out + res.stderr).count(finding) == 1 and out.index(finding) > out.index("Ranking")
    ranking = out[out.index("Ranking") :]
    eve = next(ln for ln in ranking.splitlines() if "Eve" in ln)
    ann = next(ln for ln in ranking.splitlines() if "Ann" in ln)
    assert "winner (impossible sheet)" in eve and "impossible" not in ann


def test_rules_in_the_documented_order():
    assert RULES == ("start", "linked", "cards", "rounds", "deck", "chips-earned", "chips-spent")
    s = sheet("b2", earned=3, spent=4)
    assert [p.rule for p in check_sheet(s)] == ["linked", "rounds", "chips-earned", "chips-spent"]


@pytest.mark.slow
def test_a_photo_of_an_impossible_sheet_is_scored_and_its_problems_located_in_the_read_file(tmp_path):
    # photos go through the typed-in path: the .read.yaml is checked like any typed-in sheet
    from generator.jobs.verify import verify
    from generator.printing.paper import paper
    from tests.synth.sheet_photos import synth_photo
    from tests.test_reader import BLUE, DPI, params

    # a1 and e5 (rounds 1, 2), then c1: joined to nothing written (b1, d1 empty); 3 chips, no hand complete
    drawn = FilledSheet(
        Q, "Ann", {coord("a1"): parse_card("AS"), coord("e5"): parse_card("KH"), coord("c1"): parse_card("7D")}, 3, 0
    )
    photo = synth_photo(drawn, paper("a4"), 3, params=params(), style=BLUE, dpi=DPI)
    (tmp_path / "ann.jpg").write_bytes(photo.jpeg)
    verdict = verify([tmp_path / "ann.jpg"])
    (p,) = verdict.score.players
    assert p.impossible and [(pr.rule, pr.cell) for pr in p.problems] == [
        ("linked", "c1"),
        ("rounds", None),
        ("chips-earned", "chips.earned"),
    ]
    assert verdict.exit_code == 1 and verdict.report["players"][0]["impossible"] is True
    text = (tmp_path / "ann.read.yaml").read_text(encoding="utf-8").splitlines()
    (file, line, col) = p.problems[0].at
    assert file.endswith("ann.read.yaml") and text[line - 1][col - 1 : col + 1] == "7D"
    (file, line, col) = p.problems[2].at
    assert text[line - 1][col - 1] == "3"
    assert [(f.line, f.col) for f in verdict.problems] == [pr.at[1:] for pr in p.problems]
