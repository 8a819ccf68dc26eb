"""All In (flip&write): could a game have produced this sheet?  Plausibility checks on a finished sheet.

Pure rules core: a :class:`~generator.games.allin.filled.FilledSheet` in, a
list of :class:`SheetProblem` out; no I/O, no drawing.  A typed-in sheet, a
photo read into one and a replayed game's final sheet are all checked the
same way (:func:`~generator.games.allin.scoring.score_game` calls
:func:`check_sheet` for every sheet it scores).  A sheet with problems is
still scored; the score is marked as coming from an impossible sheet.

Each check is a consequence of a rule, worked out for the sheet as it
stands at the end (the All In rulebook; docs/rules.md,
"Sheets no game can produce"):

* **Starting spaces** (``start``).  Rounds 1 and 2 write in an *empty*
  starting space (*Write Down a Card*, the note on the first two rounds),
  and a written card is never erased, so a sheet holding two or more cards
  has at least two starting spaces written: on the shipped sheets, which
  have exactly two, every starting space.
* **Placement** (``linked``).  From round 3 a card goes in a space linked by
  a line to a card already written; only the Golden Deck card, taken when
  the 8th space round the Golden Card is written, may stand anywhere
  (*Write Down a Card*; *Surrounding the Golden Card*).  So every group of
  written cards joined by links grew from one of three seeds: the round-1
  card, the round-2 card (both in starting spaces), or the Golden Deck card.
  A group holding no starting space must be the Golden Deck card's: there
  is at most one, only when all eight spaces round the Golden Card are
  written, and none of those eight spaces is in it (they were all written
  before the Golden Deck card, each next to a card written earlier).  At
  most two groups hold a starting space, plus the Golden Deck card's group
  when it happens to stand on a starting space of its own.  Whether the
  printed Golden Card counts as a written card for linking follows the
  referee's option (:attr:`~generator.games.allin.game.Ruleset.golden_card_links`,
  default no); when it counts, the group holding it needs no other seed
  once the first two cards are written.
* **Card count** (``cards``).  One card a round over 23 rounds (*Game
  Overview*), plus one from the Golden Deck once the Golden Card is
  surrounded.
* **Every round writes a card** (``rounds``).  A player must write a card
  every round in an empty space linked to a written card (rounds 1 and 2: an
  empty starting space), and a written card is never erased (*Write Down a
  Card*).  A round without a card leaves the player with no such space, and
  nothing after it can give one (the Golden Deck card comes only with a
  written card), so the sheet ends with none.  A finished sheet with fewer
  than 23 cards therefore has no empty space a card could have gone in: one
  that has such a space skipped a round (or the game is not over).
* **The deck's cards** (``deck``).  A written card takes its value from one
  revealed card and its suit from one of the two (*Write Down a Card*); the
  main deck reveals each of its cards once (54 cards less the 8 of the
  Golden Deck, two a round over 23 rounds), so a value shows in at most 4
  rounds and a suit in at most 13.  More cards of one value (or suit) than
  that come only from a round with a Joker (2 at most), the Golden Deck card
  (once the Golden Card is surrounded), or chips: 1 for each step of value,
  2 for a suit (*Spending Poker Chips*).  So the cards beyond the deck's
  supply, less those 2 + 1 free ones, need at least 1 chip each for a value
  and 2 for a suit: never more than the chips spent.
* **Chips earned** (``chips-earned``).  A completed hand gives at most 2
  chips (two-figure icon) or 1 (one-figure icon) to a player, once
  (*Completing a Hand*); and a chip earned fills one circle of the chip
  track, so never more than the track has.  A completed hand must be
  declared, and a two-figure hand gives at least 1 chip to whoever completes
  it (2 to the first, 1 to each later one): so at least one chip for each
  completed two-figure hand, as far as the track has circles.
* **Chips spent** (``chips-spent``).  Only chips a player has can be spent
  (*Spending Poker Chips*): never more than were earned.

These are necessary conditions only: a sheet that passes them is not
proven to come from a game (the revealed cards are not known).

Use :func:`check_sheet`.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from typing import cast

from generator.core.cards import RANK_LABELS
from generator.games.allin.filled import FilledSheet
from generator.games.allin.grid import Coord, cell_name, golden_ring
from generator.games.allin.rules import ROUNDS, START_ROUNDS, complete_hands

__all__ = ["SheetProblem", "check_sheet", "groups"]

RULES = ("start", "linked", "cards", "rounds", "deck", "chips-earned", "chips-spent")
"""The rule identifiers a :class:`SheetProblem` may carry, in the order the checks run."""


@dataclass(frozen=True)
class SheetProblem:
    """Something on a finished sheet that no game can produce.

    Attributes:
        player: whose sheet.
        cell: where on the sheet: a space name (``"c2"``), ``"chips.earned"``
            or ``"chips.spent"``, or ``None`` for the sheet's cards as a whole.
        rule: which check failed, one of :data:`RULES` (stable, for programs).
        message: what is wrong and why no game gives it, in words.
        at: ``(file, line, column)`` of the token on a typed-in sheet (1-based),
            or ``None`` when the sheet was not read from a file.
    """

    player: str
    cell: str | None
    rule: str
    message: str
    at: tuple[str, int, int] | None = None

    def __str__(self) -> str:
        where = f"{self.at[0]}:{self.at[1]}:{self.at[2]}: " if self.at else ""
        cell = f", {self.cell}" if self.cell else ""
        return f"{where}{self.player}{cell}: {self.message}"


def groups(sheet: FilledSheet, *, golden_card_links: bool = False) -> list[list[Coord]]:
    """The written spaces of ``sheet`` joined by the layout's links, one list per group.

    Args:
        golden_card_links: the printed Golden Card counts as a written card,
            so spaces linked to it join its group (the Golden Card's
            position is then in that group's list).

    Returns:
        Groups in the order of their first space (row by row), each list row by row.
    """
    grid = sheet.layout.grid
    nodes = set(sheet.cards)
    if golden_card_links:
        nodes.add(sheet.layout.golden_coord)
    seen: set[Coord] = set()
    found: list[list[Coord]] = []
    for start in sorted(nodes, key=_row_major):
        if start in seen:
            continue
        seen.add(start)
        group, todo = [start], deque([start])
        while todo:
            for n in grid.neighbours(todo.popleft()):
                if n in nodes and n not in seen:
                    seen.add(n)
                    group.append(n)
                    todo.append(n)
        found.append(sorted(group, key=_row_major))
    return found


def check_sheet(sheet: FilledSheet, *, golden_card_links: bool = False, finished: bool = True) -> list[SheetProblem]:
    """Every plausibility problem of ``sheet``, in the order of :data:`RULES`.

    Args:
        sheet: the finished (or partly filled) sheet; ``sheet.where`` (when
            read from a file) locates each problem at its token.
        golden_card_links: the referee's option: the printed Golden Card
            counts as a written card for placement (default no).
        finished: the sheet is at the end of its game (what ``verify`` scores): the ``rounds`` check
            applies; False for a sheet in the middle of a game (every other check holds at any round).

    Returns:
        An empty list when a game could have produced the sheet as far as
        these checks see (module docstring); otherwise one
        :class:`SheetProblem` per finding.
    """
    layout = sheet.layout
    grid = layout.grid
    cards = sheet.cards
    out: list[SheetProblem] = []

    def problem(cell: str | None, rule: str, message: str) -> None:
        out.append(SheetProblem(sheet.player, cell, rule, message, sheet.where.get(cell or "grid")))

    n = len(cards)
    starts = set(grid.starts)
    golden = layout.golden_coord
    ring = golden_ring(golden)
    ring_empty = [c for c in ring if c not in cards]
    surrounded = not ring_empty

    # Starting spaces: rounds 1 and 2 each write an empty starting space.
    written_starts = [c for c in grid.starts if c in cards]
    if n >= START_ROUNDS and len(written_starts) < START_ROUNDS:
        empty = [c for c in grid.starts if c not in cards]
        names = _names(grid.starts)
        if len(starts) <= START_ROUNDS:
            for c in empty:
                problem(
                    cell_name(c),
                    "start",
                    f"starting space {cell_name(c)} is empty, but the sheet holds {n} cards: "
                    f"rounds 1 and 2 write their cards in the starting spaces ({names}), one each",
                )
        else:
            problem(
                cell_name(empty[0]),
                "start",
                f"only {len(written_starts)} of the starting spaces ({names}) written, but the sheet holds "
                f"{n} cards: rounds 1 and 2 each write a card in an empty starting space",
            )

    # Placement: every group grows from the round-1 or round-2 card (in starting spaces), or from
    # the Golden Deck card (written after the 8 spaces round the Golden Card, so none of them in it).
    seeded: list[list[Coord]] = []  # groups holding a starting space
    apart: list[list[Coord]] = []  # groups holding none
    for group in groups(sheet, golden_card_links=golden_card_links):
        if golden in group:
            if n > START_ROUNDS:
                continue  # from round 3 on, cards grow from the printed Golden Card (the option)
            group = [c for c in group if c != golden]
            if not group:
                continue
        (seeded if starts.intersection(group) else apart).append(group)
    golden_group = None  # the group taken to hold the Golden Deck card
    if surrounded:
        golden_group = next((g for g in apart if not set(ring).intersection(g)), None)
        if golden_group is None and len(seeded) > START_ROUNDS:
            golden_group = next((g for g in seeded if not set(ring).intersection(g)), None)
    for group in apart:
        if group is golden_group:
            continue
        head = _these(group) + " not joined by links to a starting space"
        in_ring = [c for c in group if c in ring]
        if not surrounded:
            why = (
                f"after round 2 each card goes next to a written card, and only a Golden Deck card may stand "
                f"apart, once the 8 spaces round the Golden Card ({cell_name(golden)}) are written "
                f"({_names(ring_empty)} empty here)"
            )
        elif in_ring:
            why = (
                f"and {cell_name(in_ring[0])} is one of the 8 spaces round the Golden Card ({cell_name(golden)}), "
                f"all written before the Golden Deck card is taken, each next to a written card"
            )
        else:
            # surrounded, and this group of ``apart`` misses the ring: golden_group is the first such group
            assert golden_group is not None
            golden_at = cell_name(golden_group[0])
            why = f"the one Golden Deck card of a game already accounts for the cards apart at {golden_at}"
        problem(cell_name(group[0]), "linked", f"{head}; {why}")
    for group in [g for g in seeded if g is not golden_group][START_ROUNDS:]:
        problem(
            cell_name(group[0]),
            "linked",
            f"{_these(group)} not joined by links to the other written cards; only the cards of rounds "
            f"1 and 2 and the Golden Deck card start a group of their own",
        )

    # Card count: one a round, plus the Golden Deck card.
    most = ROUNDS + (1 if surrounded else 0)
    if n > most:
        why = (
            "and one more from the Golden Deck, once the Golden Card is surrounded"
            if surrounded
            else f"plus one from the Golden Deck only once the Golden Card is surrounded ({_names(ring_empty)} empty "
            "here)"
        )
        problem(None, "cards", f"{n} cards written; a game writes one a round, {ROUNDS} in all, {why}")

    # Every round writes a card: fewer than 23 only when no empty space was left to write in.
    if finished and n < ROUNDS:
        open_spaces = _open_spaces(sheet, golden_card_links=golden_card_links)
        if open_spaces:
            where = "an empty starting space" if n < START_ROUNDS else "empty spaces linked to written cards"
            problem(
                None,
                "rounds",
                f"{n} card{'s' if n != 1 else ''} written, but a game has {ROUNDS} rounds and every round each player "
                f"writes a card while there is a space for it; this sheet still has {where} "
                f"({_names(open_spaces)}): a round was skipped, or the game is not over (verify the finished sheets)",
            )

    # The deck's cards: values beyond 4 each and suits beyond 13 each need Jokers, the Golden Deck card or chips.
    free = JOKERS + (1 if surrounded else 0)
    # A sheet holds no Joker (the card a Joker stood for is written instead), so no rank or suit is None.
    by_rank = cast("Counter[int]", Counter(c.rank for c in cards.values()))
    by_suit = cast("Counter[str]", Counter(c.suit for c in cards.values()))
    extra_ranks = {r: k - RANK_SUPPLY for r, k in by_rank.items() if k > RANK_SUPPLY}
    extra_suits = {u: k - SUIT_SUPPLY for u, k in by_suit.items() if k > SUIT_SUPPLY}
    e_rank, e_suit = sum(extra_ranks.values()), sum(extra_suits.values())
    need = max(0, e_rank - free) + 2 * max(0, e_suit - free)
    if need > sheet.chips_spent:
        beyond = [f"{by_rank[r]} × {RANK_LABELS[r]}" for r in sorted(extra_ranks)]
        beyond += [f"{by_suit[u]} × {SUIT_NAMES[u]}" for u in sorted(extra_suits)]
        golden_note = (
            "the Golden Deck card (once the Golden Card is surrounded)" if not surrounded else "the Golden Deck card"
        )
        problem(
            "chips.spent",
            "deck",
            f"{', '.join(beyond)} written, beyond the deck's {RANK_SUPPLY} of a value and {SUIT_SUPPLY} of a suit; "
            f"only the {JOKERS} Jokers' rounds, {golden_note} and chips (1 a step of value, 2 a suit) give more, "
            f"so at least {need} chip{'s' if need != 1 else ''} were spent, not {sheet.chips_spent}",
        )

    # Chips earned: what the completed hands can give, and the track's circles.
    complete = sorted(complete_hands(layout, cards))
    can_earn = sum(layout.hands[h].max_chips for h in complete)
    doubles = [h for h in complete if layout.hands[h].max_chips >= 2]
    at_least = min(len(doubles), layout.chips)
    if sheet.chips_earned < at_least:
        problem(
            "chips.earned",
            "chips-earned",
            f"{sheet.chips_earned} chip{'s' if sheet.chips_earned != 1 else ''} earned, but the completed two-figure "
            f"hand{'s' if len(doubles) != 1 else ''} {', '.join(doubles)} give at least 1 chip each ({at_least} in "
            "all): "
            "a completed hand is declared, and each chip earned is marked on the track",
        )
    if sheet.chips_earned > min(can_earn, layout.chips):
        if can_earn <= layout.chips:
            given = (
                "no hand is complete"
                if not complete
                else f"the completed hands give at most {can_earn} "
                f"({', '.join(f'{h} {layout.hands[h].max_chips}' for h in complete)})"
            )
            problem(
                "chips.earned",
                "chips-earned",
                f"{sheet.chips_earned} chips earned, but {given}: a completed hand gives 2 chips at most "
                f"(two-figure icon) or 1 (one-figure icon), once",
            )
        else:
            problem(
                "chips.earned",
                "chips-earned",
                f"{sheet.chips_earned} chips earned, but the chip track has {layout.chips} circles, one a chip",
            )

    # Chips spent: never more than earned.
    if sheet.chips_spent > sheet.chips_earned:
        problem(
            "chips.spent",
            "chips-spent",
            f"{sheet.chips_spent} chips spent but only {sheet.chips_earned} earned; "
            "a player spends only chips already earned",
        )
    return out


JOKERS = 2
"""Jokers in the deck (*Components*): each makes one round's card free of the revealed values or suits."""
RANK_SUPPLY = 4
"""Cards of one value in a standard deck, one a suit: the rounds in which that value can show."""
SUIT_SUPPLY = 13
"""Cards of one suit in a standard deck: the rounds in which that suit can show."""
SUIT_NAMES = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _open_spaces(sheet: FilledSheet, *, golden_card_links: bool = False) -> list[Coord]:
    """The empty spaces a card could still be written in: an empty starting space while fewer than two cards
    are written, else every empty space linked to a written card (or to the printed Golden Card, when it
    counts as written); row by row."""
    grid = sheet.layout.grid
    cards = sheet.cards
    golden = sheet.layout.golden_coord
    if len(cards) < START_ROUNDS:
        return sorted((c for c in grid.starts if c not in cards), key=_row_major)
    written = set(cards) | ({golden} if golden_card_links else set())
    return sorted(
        {
            n
            for c in written
            for n in grid.neighbours(c)
            if n not in cards and n in grid.cells and grid.cells[n].writable
        },
        key=_row_major,
    )


def _row_major(c: Coord) -> tuple[int, int]:
    return (c[1], c[0])


def _names(cells: list[Coord], limit: int = 4) -> str:
    """``a1, e5`` — or ``b2, b3, c3, d3 and 2 more`` past ``limit``."""
    shown = ", ".join(cell_name(c) for c in cells[:limit])
    return shown + (f" and {len(cells) - limit} more" if len(cells) > limit else "")


def _these(group: list[Coord]) -> str:
    """``this card is`` — or ``this card and b3, c3 are`` — for a group named by its first space."""
    return "this card is" if len(group) == 1 else f"this card and {_names(group[1:])} are"
