"""All In (flip&write): the referee core — composing cards, placement, chips, rewards, the Golden Deck.

Pure rules core: plain data in, plain data out; no I/O, no drawing.  The
game-log reader (:mod:`generator.games.allin.game_log`), the bot and simulator
(:mod:`generator.games.allin.bot`) and any interactive referee all call it.

Rule readings (docs/rules.md, All In; the section names in italics are the
All In rulebook's), each enforced here:

* **Rounds.** 23 rounds, two cards of the main deck revealed each round (the
  54-card deck minus the 8 cards of the Golden Deck).  A log with a 24th
  round is refused.  Rulebook: *Game Overview*, *End Game*.
* **Placement.** Rounds 1 and 2: an empty starting space.  Later: an empty
  space linked by a line to a space the player has written (their own
  cards, the Golden Deck card included).  The printed Golden Card does not
  count as written unless :attr:`Ruleset.golden_card_links` is set.  The
  Golden Card's space and written spaces can never be written.  Rulebook:
  *Write Down a Card* (adjacency follows the lines; the Golden Card is not
  an empty space; the starting-space exception for the first two rounds).
* **Composing.** The written card is one revealed card, or the rank of one
  with the suit of the other.  Before composing, each chip moves one
  revealed card's rank one step up or down on the closed ring
  A-2-…-10-J-Q-K-A (a king goes up to an ace, an ace down to a king), and
  two chips give one revealed card another suit.  Joker with X: X's rank in
  any suit, or any rank in X's suit (the Joker's freedom is free).  Two
  Jokers: any card.  Rulebook: *Write Down a Card*, *Spending Poker Chips*.
* **Chips spent.** A move states the chips it spends: at least the minimal
  cost of its card (:func:`compose_cost`), at most the chips the player has
  left at the start of the round.  Spending more than the minimum is legal
  (the rulebook lets a player spend any amount of available chips; the
  surplus is simply lost) unless :attr:`Ruleset.exact_chips` is set.
  Chips earned in a round can be spent from the next round on.
* **Completing hands.** After every player has written (Golden Deck cards
  included), each hand whose spaces are now all filled for the first time
  on a player's sheet is declared.  ``single``: 1 chip to the first
  completer(s) only; ``double``: 2 chips to the first completer(s), 1 to
  each later completer.  Players completing a hand nobody completed before,
  in the same round, are all first.  Rulebook: *Completing a Hand*.
* **Surrounding the Golden Card.** A move that writes the last of the 8
  spaces around the Golden Card lets the player choose one card of the
  Golden Deck (as it was at the start of the round) and write it in any
  empty space, placement ignored, no chips.  A Joker chosen there is
  written as any card.  The choice is optional (the rulebook says the
  player *can* choose).  Players surrounding in the same round may choose
  the same card; every chosen card leaves the Golden Deck after the round.
  Rulebook: *Surrounding the Golden Card*.
* **One deck.** The Golden Deck (8 cards) and every revealed card come from
  one 54-card deck: no card twice, at most 2 Jokers.  Rulebook:
  *Components*, *Setup*.
* **No legal space.** A player with no legal space for any card (possible
  only on layouts whose spaces run out) passes; a pass while some space is
  legal is refused.  Our reading: the rulebook never has a player skip.

Use :func:`replay` for a whole logged game, :class:`GameState` for a game
played round by round, :func:`legal_moves` for move generation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from generator.core.cards import RANKS, Card, standard_deck
from generator.games.allin.filled import FilledSheet
from generator.games.allin.grid import Coord, cell_name, golden_ring
from generator.games.allin.layout import AllInLayout
from generator.games.allin.rules import DECK_JOKERS, GOLDEN_DECK_SIZE, ROUNDS, START_ROUNDS, complete_hands
from generator.games.allin.scoring import GameScore, report, score_game

__all__ = [
    "Ruleset",
    "GoldenPick",
    "Move",
    "PASS",
    "Round",
    "GameLog",
    "IllegalMove",
    "LegalMoves",
    "PlayerState",
    "RoundOutcome",
    "ReplayResult",
    "GameState",
    "rank_steps",
    "compose_cost",
    "writable_cards",
    "legal_cells",
    "legal_moves",
    "surrounds_golden",
    "golden_cells",
    "full_deck",
    "replay",
]


_RING = len(RANKS)  # 13 ranks on a closed ring


@dataclass(frozen=True)
class Ruleset:
    """The options where a rule reading is contested: each an option, its default the reading of docs/rules.md.

    Attributes:
        golden_card_links: the printed Golden Card counts as a written card
            for placement, so the spaces linked to it can be written from
            round 3 on.  Default ``False``: the rulebook places a card next to
            a card the player wrote, and says the Golden Card is not an empty
            space — nothing more.
        exact_chips: a move must spend exactly the minimal cost of its card.
            Default ``False``: any amount from the minimal cost up to the
            chips available (the surplus is lost).
    """

    golden_card_links: bool = False
    exact_chips: bool = False


@dataclass(frozen=True)
class GoldenPick:
    """A card chosen from the Golden Deck after surrounding the Golden Card.

    Attributes:
        card: the Golden Deck card chosen (may be :data:`~generator.core.cards.JOKER`).
        cell: the empty space it is written in (any, placement ignored).
        written: for a Joker, the card written in its place (any card);
            ``None`` or ``card`` itself for any other card, which is written
            as it is (chips never change it).
    """

    card: Card
    cell: Coord
    written: Card | None = None

    @property
    def card_written(self) -> Card | None:
        """The card that lands on the sheet: ``written`` for a Joker (``None`` if missing), else ``card``."""
        if self.card.is_joker:
            return self.written
        return self.card if self.written is None else self.written


@dataclass(frozen=True)
class Move:
    """One player's move in one round.

    Attributes:
        cell: the space written, ``(col, row)``; ``None`` for a pass (only
            legal when no space is).
        card: the card written (never a Joker); ``None`` for a pass.
        chips: chips spent on this move (at least its card's minimal cost).
        golden: the Golden Deck card chosen when this move surrounds the
            Golden Card, or ``None``.
    """

    cell: Coord | None
    card: Card | None
    chips: int = 0
    golden: GoldenPick | None = None

    @property
    def is_pass(self) -> bool:
        """True for a pass (no card written)."""
        return self.cell is None


PASS = Move(None, None)
"""The pass: no card written this round (legal only when no space is)."""


@dataclass(frozen=True)
class Round:
    """One round of a log: the two revealed cards and every player's move.

    Attributes:
        revealed: the two cards turned from the main deck.
        moves: player name → :class:`Move`, one per player.
    """

    revealed: tuple[Card, ...]
    moves: Mapping[str, Move]


@dataclass(frozen=True)
class GameLog:
    """A whole game as logged: layout, players, Golden Deck and the rounds played so far.

    Attributes:
        layout: the sheet layout every player uses.
        players: player names, in seating order (unique).
        golden_deck: the 8 cards set aside at setup.
        rounds: the rounds played, round 1 first (at most 23).
    """

    layout: AllInLayout
    players: tuple[str, ...]
    golden_deck: tuple[Card, ...]
    rounds: tuple[Round, ...] = ()


class IllegalMove(ValueError):
    """A move, a round or a setup that breaks a rule.  The first one found stops a replay.

    ``str(err)`` reads like ``"round 7, Bob, d4: not linked to a written card"``:
    round, player and the move's space (or ``pass``), then the rule broken.
    Setup problems read ``"Golden Deck: …"`` and deck problems ``"round 5: …"``.

    Attributes:
        round: 1-based round number, or ``None`` for the setup.
        player: the player, or ``None`` when the round or setup is at fault.
        move: the move's space name (``"d4"``), ``"pass"``, or ``None``.
        rule: a short identifier of the rule broken, stable for programs:
            ``start``, ``linked``, ``occupied``, ``golden-space``,
            ``no-space``, ``no-card``, ``joker-written``, ``chips-negative``,
            ``chips-available``, ``compose``, ``chips-exact``, ``pass``,
            ``pass-extra``, ``golden-not-surrounded``, ``golden-not-in-deck``,
            ``golden-cell``, ``golden-as``, ``no-move``, ``unknown-player``,
            ``players``, ``revealed``, ``deck``, ``golden-deck``, ``end``.
        reason: the message after the ``round, player, move:`` prefix.
        field: which part of the move or round is at fault, for locating it
            in a file: ``cell``, ``card``, ``chips``, ``golden``,
            ``golden.card``, ``golden.cell``, ``golden.as``, ``revealed``,
            ``revealed.<i>``, ``golden_deck``, ``golden_deck.<i>``,
            ``players``, ``moves``, or ``None`` (the whole round or move).
    """

    def __init__(
        self,
        rule: str,
        reason: str,
        *,
        round: int | None = None,
        player: str | None = None,
        move: str | None = None,
        field: str | None = None,
    ):
        self.rule = rule
        self.reason = reason
        self.round = round
        self.player = player
        self.move = move
        self.field = field
        if round is None and player is None and move is None:
            prefix = "Golden Deck" if rule == "golden-deck" else "setup"
        else:
            parts = [f"round {round}"] if round is not None else []
            parts += [p for p in (player, move) if p is not None]
            prefix = ", ".join(parts)
        super().__init__(f"{prefix}: {reason}")


# --------------------------------------------------------------------------
# Composing a card from the two revealed cards.


def rank_steps(a: int, b: int) -> int:
    """Chips needed to move rank ``a`` to rank ``b``: steps on the ring A-2-…-K-A, either way.

    Ranks are 2..14 (ace 14, :mod:`generator.core.cards`).  The ring closes both
    ways round the ace: K+1 = A and A-1 = K as usual, and A+1 = 2, 2-1 = A
    (the rulebook's "from the King to the Ace and vice versa" wrap, the ace
    being the card after the king and before the 2).

    >>> rank_steps(13, 14), rank_steps(14, 2), rank_steps(2, 13), rank_steps(7, 13)
    (1, 1, 2, 6)
    """
    d = abs(a - b) % _RING
    return min(d, _RING - d)


def _suit_cost(a: str, b: str) -> int:
    return 0 if a == b else 2


def compose_cost(revealed: Sequence[Card], card: Card) -> int:
    """Minimal chips to write ``card`` from the two revealed cards.

    Args:
        revealed: the round's two revealed cards (Jokers allowed).
        card: the card to write (not a Joker).

    Returns:
        0 to :data:`~generator.games.allin.rules.MAX_COST`.  Every card can be written with enough chips.

        * two ordinary cards: the fewest rank steps from either card's rank
          to ``card``'s rank, plus 2 unless either card has ``card``'s suit —
          rank and suit may come from the same card or from different ones;
        * a Joker and X: the fewer of (rank steps from X's rank — the Joker
          gives the suit) and (2 unless X has the suit — the Joker gives the
          rank);
        * two Jokers: 0.

    Raises:
        ValueError: ``card`` is a Joker, or ``revealed`` is not two cards.

    Rulebook (*Write Down a Card*, *Spending Poker Chips*): write one of the
    revealed cards or combine one's value with the other's suit; a Joker is
    wild but the other card still gives the value or the suit; chips change a
    revealed card's value by one step each (wrapping between king and ace) or
    its suit for two.

    >>> from generator.core.cards import parse_card as c
    >>> compose_cost((c("7S"), c("9D")), c("7D")), compose_cost((c("KS"), c("2D")), c("AS"))
    (0, 1)
    >>> compose_cost((c("JK"), c("7S")), c("8H")), compose_cost((c("JK"), c("JK")), c("2C"))
    (1, 0)
    """
    if len(revealed) != 2:
        raise ValueError(f"a round reveals 2 cards, got {len(revealed)}")
    if card.is_joker:
        raise ValueError("a Joker is never written on a sheet; ask for the card it stands for")
    return _cost_table(revealed[0], revealed[1])[card]


@lru_cache(maxsize=4096)
def _cost_table(a: Card, b: Card) -> dict[Card, int]:
    """Minimal cost of every one of the 52 cards from revealed ``a`` and ``b`` (deck order)."""
    table: dict[Card, int] = {}
    # A card that is no Joker has a rank and a suit (Card); standard_deck() has no Joker.
    for card in standard_deck():
        assert card.rank is not None and card.suit is not None
        if a.is_joker and b.is_joker:
            cost = 0
        elif a.is_joker or b.is_joker:
            x = b if a.is_joker else a
            assert x.rank is not None and x.suit is not None
            cost = min(rank_steps(x.rank, card.rank), _suit_cost(x.suit, card.suit))
        else:
            assert a.rank is not None and a.suit is not None and b.rank is not None and b.suit is not None
            cost = min(rank_steps(a.rank, card.rank), rank_steps(b.rank, card.rank)) + min(
                _suit_cost(a.suit, card.suit),
                _suit_cost(b.suit, card.suit),
            )
        table[card] = cost
    return table


def writable_cards(revealed: Sequence[Card], chips: int) -> dict[Card, int]:
    """Every card that can be written from ``revealed`` with at most ``chips`` chips, with its minimal cost.

    Returns:
        card → minimal chips (:func:`compose_cost`), in deck order (suits
        S H D C, ranks 2..A), only cards costing at most ``chips``.

    Raises:
        ValueError: ``revealed`` is not two cards.
    """
    if len(revealed) != 2:
        raise ValueError(f"a round reveals 2 cards, got {len(revealed)}")
    return {card: cost for card, cost in _cost_table(revealed[0], revealed[1]).items() if cost <= chips}


# --------------------------------------------------------------------------
# Placement, completion, the Golden Card.


def _placement_problem(
    layout: AllInLayout, cards: Mapping[Coord, Card], cell: Coord, round_number: int, ruleset: Ruleset
) -> tuple[str, str, str] | None:
    """Why ``cell`` cannot take this round's card: ``(rule, reason, field)``, or ``None`` when it can."""
    grid = layout.grid
    here = grid.cells.get(cell)
    if here is None:
        return "no-space", f"layout '{layout.id}' has no card space at {cell_name(cell)}", "cell"
    if here.kind == "golden":
        return "golden-space", "the Golden Card's space is never written", "cell"
    if cell in cards:
        return "occupied", f"the space already holds {cards[cell].code}", "cell"
    if round_number <= START_ROUNDS:
        if here.kind != "start":
            starts = ", ".join(cell_name(c) for c in grid.starts)
            return "start", f"rounds 1 and 2 are written in a starting space ({starts})", "cell"
        return None
    for n in grid.neighbours(cell):
        if n in cards or (ruleset.golden_card_links and n == layout.golden_coord):
            return None
    return "linked", "not linked to a written card", "cell"


def legal_cells(
    layout: AllInLayout, cards: Mapping[Coord, Card], round_number: int, ruleset: Ruleset = Ruleset()
) -> list[Coord]:
    """Every space where this round's card may go on a sheet holding ``cards``.

    Args:
        layout: the sheet layout.
        cards: the cards the player has written, by position.
        round_number: 1-based round.
        ruleset: :attr:`Ruleset.golden_card_links` decides whether the
            printed Golden Card counts as written.

    Returns:
        Positions row by row: empty starting spaces in rounds 1 and 2; later,
        empty spaces linked to a written card.  Never the Golden Card.
    """
    return [c for c in layout.grid.writable if _placement_problem(layout, cards, c, round_number, ruleset) is None]


def surrounds_golden(layout: AllInLayout, cards: Mapping[Coord, Card], cell: Coord) -> bool:
    """True when writing ``cell`` on a sheet holding ``cards`` fills the last of the 8 spaces round the Golden Card.

    Rulebook (*Surrounding the Golden Card*): the player who writes the 8th
    card round the Golden Card may take a card from the Golden Deck.
    """
    ring = golden_ring(layout.golden_coord)
    if cell not in ring or cell in cards:
        return False
    return all(c in cards or c == cell for c in ring)


def golden_cells(layout: AllInLayout, cards: Mapping[Coord, Card]) -> list[Coord]:
    """Where a Golden Deck card may go: every empty writable space, row by row (placement ignored)."""
    return [c for c in layout.grid.writable if c not in cards]


def full_deck() -> list[Card]:
    """The 54-card deck the game uses: 52 cards and 2 Jokers (deck order)."""
    return standard_deck(jokers=DECK_JOKERS)


# --------------------------------------------------------------------------
# Move generation.


@dataclass(frozen=True)
class LegalMoves:
    """Every legal main move of one player in one round.

    Any card of ``cards`` may go in any cell of ``cells``, spending from its
    cost up to ``chips`` (exactly its cost under :attr:`Ruleset.exact_chips`).
    When ``cells`` is empty the only legal move is :data:`PASS`.

    Attributes:
        cells: legal spaces (:func:`legal_cells`).
        cards: card → minimal chips, every card costing at most ``chips``
            (:func:`writable_cards`).
        chips: the chips the player has left.
    """

    cells: tuple[Coord, ...]
    cards: Mapping[Card, int]
    chips: int

    def moves(self) -> Iterator[Move]:
        """Every (cell, card) move at its minimal cost, without a Golden Deck pick; :data:`PASS` when no cell is
        legal."""
        if not self.cells:
            yield PASS
            return
        for cell in self.cells:
            for card, cost in self.cards.items():
                yield Move(cell, card, cost)


def legal_moves(
    layout: AllInLayout,
    cards: Mapping[Coord, Card],
    revealed: Sequence[Card],
    chips: int,
    round_number: int,
    ruleset: Ruleset = Ruleset(),
) -> LegalMoves:
    """The legal main moves for a sheet holding ``cards``, the round's ``revealed`` pair and ``chips`` left.

    Agrees with :meth:`GameState.check_move`: every move it lists (at any
    chips from the card's cost to ``chips``) is accepted, and every other
    cell or card is refused.  A move whose cell surrounds the Golden Card
    (:func:`surrounds_golden`) may add a :class:`GoldenPick`: any card of
    the Golden Deck into any cell of :func:`golden_cells` after the move.

    Raises:
        ValueError: ``revealed`` is not two cards.
    """
    return LegalMoves(
        tuple(legal_cells(layout, cards, round_number, ruleset)),
        writable_cards(revealed, chips),
        chips,
    )


# --------------------------------------------------------------------------
# Game state.


@dataclass
class PlayerState:
    """One player's sheet during a game.

    Attributes:
        name: the player.
        cards: position → card written (Golden Deck card included).
        chips_earned: chips earned so far.
        chips_spent: chips spent so far.
        completed: letters of the hands complete on this sheet.
        golden_pick: the Golden Deck card taken, if any.
    """

    name: str
    cards: dict[Coord, Card] = field(default_factory=dict)
    chips_earned: int = 0
    chips_spent: int = 0
    completed: set[str] = field(default_factory=set)
    golden_pick: GoldenPick | None = None

    @property
    def chips_left(self) -> int:
        """Chips earned minus chips spent: what a move may spend."""
        return self.chips_earned - self.chips_spent

    def sheet(self, layout: AllInLayout) -> FilledSheet:
        """This sheet as the verifier reads it (:class:`~generator.games.allin.filled.FilledSheet`)."""
        return FilledSheet(layout, self.name, dict(self.cards), self.chips_earned, self.chips_spent)


@dataclass(frozen=True)
class RoundOutcome:
    """What a round settled, once every player had written.

    Attributes:
        number: the round, 1-based.
        completed: player → letters of the hands they completed this round.
        earned: player → chips earned this round (0 included).
        first: letters completed for the first time in the game this round.
        golden_removed: Golden Deck cards chosen this round (each once).
    """

    number: int
    completed: Mapping[str, tuple[str, ...]]
    earned: Mapping[str, int]
    first: tuple[str, ...]
    golden_removed: tuple[Card, ...]


@dataclass
class ReplayResult:
    """A replayed (or simulated) game: the sheets, what each round settled, the final scoring.

    Attributes:
        sheets: each player's sheet, in player order, ready for the verifier.
        rounds: one :class:`RoundOutcome` per round played.
        finished: all 23 rounds were played.
        score: the final scoring of ``sheets``
            (:func:`~generator.games.allin.scoring.score_game`).
        golden_deck: the Golden Deck cards left at the end.
    """

    sheets: list[FilledSheet]
    rounds: list[RoundOutcome]
    finished: bool
    score: GameScore
    golden_deck: tuple[Card, ...] = ()

    @property
    def totals(self) -> dict[str, int]:
        """Player → final total (hands + bonuses + chips left)."""
        return {p.player: p.total for p in self.score.players}

    @property
    def winners(self) -> list[str]:
        """The winner(s): highest total, then most chips left."""
        return list(self.score.winners)

    def report(self) -> dict:
        """The verifier report of the final sheets (same dict as :func:`~generator.games.allin.scoring.report`)."""
        return report(self.score)


class GameState:
    """A game in progress, refereed round by round.

    Setup checks (:class:`IllegalMove` with ``round`` ``None``): at least one
    player, names unique and non-empty; a Golden Deck of exactly 8 cards from
    the 54-card deck.

    Attributes:
        layout: the sheet layout.
        ruleset: the rule options.
        players: name → :class:`PlayerState`, in seating order.
        golden_deck: the Golden Deck cards left, in setup order.
        round: rounds played so far (0 before the first).
        outcomes: what each round played settled.
        first_completed: letters of hands someone has completed.
    """

    def __init__(
        self,
        layout: AllInLayout,
        players: Sequence[str],
        golden_deck: Sequence[Card],
        ruleset: Ruleset = Ruleset(),
    ):
        self.layout = layout
        self.ruleset = ruleset
        names = list(players)
        if not names:
            raise IllegalMove("players", "a game needs at least one player", field="players")
        for name in names:
            if not isinstance(name, str) or not name.strip():
                raise IllegalMove("players", f"player names are non-empty text, not {name!r}", field="players")
        dup = [n for n, k in Counter(names).items() if k > 1]
        if dup:
            raise IllegalMove("players", f"player '{dup[0]}' is listed twice; names must differ", field="players")
        self.players: dict[str, PlayerState] = {n: PlayerState(n) for n in names}
        if len(golden_deck) != GOLDEN_DECK_SIZE:
            raise IllegalMove(
                "golden-deck",
                f"the Golden Deck has {len(golden_deck)} cards; setup sets aside {GOLDEN_DECK_SIZE}",
                field="golden_deck",
            )
        self._dealt: dict[Card, list[str]] = {}
        for i, card in enumerate(golden_deck):
            problem = self._deal(card, "in the Golden Deck")
            if problem:
                raise IllegalMove("golden-deck", f"{card.code} {problem}", field=f"golden_deck.{i}")
        self.golden_deck: list[Card] = list(golden_deck)
        self.round = 0
        self.outcomes: list[RoundOutcome] = []
        self.first_completed: set[str] = set()

    def _deal(self, card: Card, where: str) -> str | None:
        """Record ``card`` as dealt; the reason it cannot be (already dealt, third Joker) or ``None``."""
        seen = self._dealt.setdefault(card, [])
        limit = DECK_JOKERS if card.is_joker else 1
        if len(seen) >= limit:
            if card.is_joker:
                return f"would be a third Joker; the deck has {DECK_JOKERS} ({', '.join(seen)})"
            return f"was already dealt ({seen[0]}); the deck has one of each card"
        seen.append(where)
        return None

    @property
    def finished(self) -> bool:
        """True once the 23rd round has been played."""
        return self.round >= ROUNDS

    def chips_left(self, player: str) -> int:
        """The chips ``player`` may spend this round."""
        return self.players[player].chips_left

    def legal_moves(self, player: str, revealed: Sequence[Card]) -> LegalMoves:
        """The legal main moves of ``player`` for the next round (see :func:`legal_moves`)."""
        p = self.players[player]
        return legal_moves(self.layout, p.cards, revealed, p.chips_left, self.round + 1, self.ruleset)

    def check_move(self, player: str, revealed: Sequence[Card], move: Move) -> None:
        """Check ``player``'s ``move`` for the next round, without playing it.

        Checked in this order, the first broken rule raised: a pass only
        when no space is legal (and then no chips, no pick); the space (a
        card space of the layout, not the Golden Card, empty, a starting
        space in rounds 1–2, else linked to a written card); the card (not a
        Joker); chips (not negative, at most the chips left, at least the
        card's minimal cost, exactly it under ``exact_chips``); the Golden
        Deck pick (only when the move surrounds the Golden Card; a card
        still in the Golden Deck; an empty space other than the move's; a
        Joker written as a card, any other card as it is).

        Raises:
            IllegalMove: naming the round, the player, the move and the rule.
            KeyError: ``player`` is not in the game.
        """
        p = self.players[player]
        number = self.round + 1
        where = "pass" if move.cell is None else cell_name(move.cell)

        def illegal(rule: str, reason: str, fld: str | None = None) -> IllegalMove:
            return IllegalMove(rule, reason, round=number, player=player, move=where, field=fld)

        if move.cell is None:
            cells = legal_cells(self.layout, p.cards, number, self.ruleset)
            if cells:
                shown = ", ".join(cell_name(c) for c in cells[:8]) + (", …" if len(cells) > 8 else "")
                raise illegal("pass", f"a player passes only when no space is legal; legal here: {shown}")
            if move.card is not None or move.chips or move.golden is not None:
                raise illegal("pass-extra", "a pass writes no card, spends no chips and picks nothing")
            return
        problem = _placement_problem(self.layout, p.cards, move.cell, number, self.ruleset)
        if problem:
            raise illegal(*problem)
        card = move.card
        if card is None:
            raise illegal("no-card", "the move names no card", "card")
        if card.is_joker:
            raise illegal("joker-written", "a Joker is never written; write the card it stands for", "card")
        if move.chips < 0:
            raise illegal("chips-negative", f"{move.chips} chips spent; chips spent are 0 or more", "chips")
        have = p.chips_left
        if move.chips > have:
            raise illegal("chips-available", f"spends {move.chips} chip{_s(move.chips)} but has {have} left", "chips")
        pair = " and ".join(c.code for c in revealed)
        cost = compose_cost(revealed, card)
        if cost > move.chips:
            raise illegal(
                "compose",
                f"{card.code} cannot be made from {pair} with {move.chips} chip{_s(move.chips)} (it needs {cost})",
                "card",
            )
        if self.ruleset.exact_chips and move.chips != cost:
            raise illegal("chips-exact", f"spends {move.chips} chips; {card.code} from {pair} costs {cost}", "chips")
        pick = move.golden
        if pick is None:
            return
        if not surrounds_golden(self.layout, p.cards, move.cell):
            golden = cell_name(self.layout.golden_coord)
            raise illegal(
                "golden-not-surrounded",
                "picks from the Golden Deck, but this move does not write the 8th space round the Golden Card "
                f"({golden})",
                "golden",
            )
        if pick.card not in self.golden_deck:
            left = " ".join(c.code for c in self.golden_deck) or "none"
            raise illegal(
                "golden-not-in-deck",
                f"Golden Deck pick {pick.card.code} is not in the Golden Deck (left: {left})",
                "golden.card",
            )
        after = dict(p.cards)
        after[move.cell] = card
        here = self.layout.grid.cells.get(pick.cell)
        if here is None or not here.writable:
            what = "the Golden Card's space" if here is not None else "no card space"
            raise illegal("golden-cell", f"Golden Deck card to {cell_name(pick.cell)}: that is {what}", "golden.cell")
        if pick.cell in after:
            raise illegal(
                "golden-cell",
                f"Golden Deck card to {cell_name(pick.cell)}: the space already holds {after[pick.cell].code}",
                "golden.cell",
            )
        written = pick.card_written
        if pick.card.is_joker:
            if written is None or written.is_joker:
                raise illegal(
                    "golden-as", "a Joker from the Golden Deck is written as a card; say which (as: AH)", "golden.as"
                )
        elif written != pick.card:
            raise illegal(
                "golden-as",
                f"Golden Deck card {pick.card.code} is written as it is, not as {written.code} "  # type: ignore[union-attr]
                "(chips never change it)",
                "golden.as",
            )

    def play_round(self, revealed: Sequence[Card], moves: Mapping[str, Move]) -> RoundOutcome:
        """Play the next round: check the revealed cards and every move, then write, pick and reward.

        Every check is made before anything changes, so on :class:`IllegalMove`
        the state is as it was.  Rewards (docs/rules.md, *The sheet*): a hand newly complete
        on a sheet gives ``single`` 1 / ``double`` 2 to the first
        completer(s) (nobody had completed it before this round), and
        ``double`` 1 to a later completer.

        Args:
            revealed: the two cards turned this round.
            moves: player → move, exactly one per player.

        Returns:
            The :class:`RoundOutcome` (also appended to :attr:`outcomes`).

        Raises:
            IllegalMove: the game is over (``end``), the round does not reveal
                two cards (``revealed``), a revealed card was already dealt or
                is a third Joker (``deck``), a player has no move
                (``no-move``), a move names an unknown player
                (``unknown-player``), or a move is illegal
                (:meth:`check_move`).
        """
        number = self.round + 1
        if number > ROUNDS:
            raise IllegalMove(
                "end",
                f"the game ends after round {ROUNDS} (the main deck's {2 * ROUNDS} cards are used up)",
                round=number,
            )
        if len(revealed) != 2:
            raise IllegalMove(
                "revealed", f"a round reveals 2 cards, this one {len(revealed)}", round=number, field="revealed"
            )
        dealt = {card: list(places) for card, places in self._dealt.items()}
        for i, card in enumerate(revealed):
            problem = self._deal(card, f"revealed in round {number}")
            if problem:
                self._dealt = dealt
                raise IllegalMove("deck", f"revealed {card.code} {problem}", round=number, field=f"revealed.{i}")
        try:
            for name in moves:
                if name not in self.players:
                    raise IllegalMove(
                        "unknown-player",
                        f"a move for '{name}', who is not a player (players: {', '.join(self.players)})",
                        round=number,
                        player=name,
                        field="moves",
                    )
            for name in self.players:
                if name not in moves:
                    raise IllegalMove(
                        "no-move",
                        "no move this round; every player writes a card",
                        round=number,
                        player=name,
                        field="moves",
                    )
                self.check_move(name, revealed, moves[name])
        except IllegalMove:
            self._dealt = dealt
            raise
        return self._apply(number, moves)

    def _apply(self, number: int, moves: Mapping[str, Move]) -> RoundOutcome:
        chosen: list[Card] = []
        for name, p in self.players.items():
            move = moves[name]
            if move.cell is None:
                continue
            p.cards[move.cell] = move.card  # type: ignore[assignment]
            p.chips_spent += move.chips
            if move.golden is not None:
                p.cards[move.golden.cell] = move.golden.card_written  # type: ignore[assignment]
                p.golden_pick = move.golden
                if move.golden.card not in chosen:
                    chosen.append(move.golden.card)
        completed: dict[str, tuple[str, ...]] = {}
        earned: dict[str, int] = {}
        first: set[str] = set()
        for name, p in self.players.items():
            now = complete_hands(self.layout, p.cards)
            new = sorted(now - p.completed)
            p.completed = now
            gain = 0
            for letter in new:
                hand = self.layout.hands[letter]
                if letter not in self.first_completed:
                    gain += 2 if hand.reward == "double" else 1
                    first.add(letter)
                elif hand.reward == "double":
                    gain += 1
            p.chips_earned += gain
            completed[name] = tuple(new)
            earned[name] = gain
        self.first_completed |= first
        for card in chosen:
            self.golden_deck.remove(card)
        self.round = number
        outcome = RoundOutcome(number, completed, earned, tuple(sorted(first)), tuple(chosen))
        self.outcomes.append(outcome)
        return outcome

    def sheets(self) -> list[FilledSheet]:
        """Every player's sheet as it stands, in player order."""
        return [p.sheet(self.layout) for p in self.players.values()]

    def result(self) -> ReplayResult:
        """The sheets, round outcomes and final scoring as they stand (see :class:`ReplayResult`)."""
        sheets = self.sheets()
        score = score_game(sheets, golden_card_links=self.ruleset.golden_card_links)
        return ReplayResult(sheets, list(self.outcomes), self.finished, score, tuple(self.golden_deck))


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def replay(log: GameLog, ruleset: Ruleset = Ruleset()) -> ReplayResult:
    """Referee a logged game from setup to its last round.

    Args:
        log: the game (a finished game has 23 rounds; fewer is a game in
            progress, ``finished`` False).
        ruleset: the rule options.

    Returns:
        The :class:`ReplayResult`: every final sheet (chips earned computed
        here, never taken from the log), each round's completions and
        rewards, and the final scoring, whose :meth:`ReplayResult.report` is
        the verifier's report for those sheets.

    Raises:
        IllegalMove: the first broken rule, in round order and, within a
            round, the deck first, then the players in seating order.
    """
    state = GameState(log.layout, log.players, log.golden_deck, ruleset)
    for rnd in log.rounds:
        state.play_round(rnd.revealed, rnd.moves)
    return state.result()
