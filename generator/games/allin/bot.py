"""All In (flip&write): a simple seeded bot and a whole-game simulator.

Pure: no I/O.  Randomness comes only from the :class:`random.Random` given
(or made from a seed), and every choice iterates in a fixed order, so the
same seed plays the same game in any process.

The bot (:class:`SimpleBot`) is greedy, one move at a time.  It rates a
sheet as the sum over its hands of :func:`hand_value` — the points the
hand's cards already make (:func:`generator.games.allin.hands.evaluate` on
the partial hand) plus a discounted share of the best category still within
reach of its empty spaces — and picks the legal move that raises that rating
most, counting the chips a completion earns and the chips spent (each chip
kept is a point at the end).  After surrounding the Golden Card it takes the
Golden Deck card and space that raise the rating most (a Joker tried as
every card).  It plays on the referee core (:mod:`generator.games.allin.game`),
so its moves are legal by construction.

The simulator (:func:`simulate_game`) shuffles the 54-card deck, sets 8
cards aside as the Golden Deck, reveals the other 46 two by two over 23
rounds, lets a bot play each player, and returns the game log (the same
:class:`~generator.games.allin.game.GameLog` the log reader produces) with
the referee's result.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from generator.core.cards import Card, standard_deck
from generator.games.allin.game import (
    GameLog,
    GameState,
    GoldenPick,
    Move,
    ReplayResult,
    Round,
    Ruleset,
    full_deck,
    golden_cells,
    surrounds_golden,
)
from generator.games.allin.grid import Coord
from generator.games.allin.hands import POINTS, Category, evaluate
from generator.games.allin.layout import AllInLayout
from generator.games.allin.rules import GOLDEN_DECK_SIZE, ROUNDS

_T = TypeVar("_T")

__all__ = ["hand_value", "SimpleBot", "Simulation", "deal", "simulate_game", "DEFAULT_NAMES"]

DEFAULT_NAMES: tuple[str, ...] = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
"""Player names the simulator uses when given a number of players (then ``Player 9``, …)."""

_RANK_REACH = 0.5
"""Discount per missing card for same-rank targets (pair … four of a kind)."""
_STRAIGHT_REACH = 0.6
"""Discount per missing card for a straight."""
_FLUSH_REACH = 0.5
"""Discount per missing card for a straight flush (one exact card per space)."""

_WINDOWS: tuple[frozenset[int], ...] = tuple(
    frozenset(14 if v == 1 else v for v in range(top - 4, top + 1)) for top in range(5, 15)
)
"""The ten straights' rank sets, A-2-3-4-5 to 10-J-Q-K-A (ace 14)."""
_PTS = {c: POINTS[c] for c in Category}


@lru_cache(maxsize=1 << 17)
def _value(cards: tuple[Card, ...], empty: int) -> float:
    made = evaluate(cards).points
    if empty == 0:
        return float(made)
    size = len(cards) + empty
    suits_of: dict[int, set[str]] = {}
    for c in cards:
        suits_of.setdefault(c.rank, set()).add(c.suit)  # type: ignore[arg-type]
    counts = sorted((len(s) for s in suits_of.values()), reverse=True) + [0, 0]
    n1, n2 = counts[0], counts[1]
    targets = [(_PTS[Category.pair], max(0, 2 - n1), _RANK_REACH)]
    if size >= 3:
        targets.append((_PTS[Category.three_of_a_kind], max(0, 3 - n1), _RANK_REACH))
    if size >= 4:
        targets.append((_PTS[Category.two_pair], max(0, 2 - n1) + max(0, 2 - n2), _RANK_REACH))
        targets.append((_PTS[Category.four_of_a_kind], max(0, 4 - n1), _RANK_REACH))
    if size >= 5:
        targets.append((_PTS[Category.full_house], max(0, 3 - n1) + max(0, 2 - n2), _RANK_REACH))
        ranks = set(suits_of)
        missing = min(5 - len(w & ranks) for w in _WINDOWS)
        targets.append((_PTS[Category.straight], missing, _STRAIGHT_REACH))
        by_suit: dict[str, set[int]] = {}
        for c in cards:
            by_suit.setdefault(c.suit, set()).add(c.rank)  # type: ignore[arg-type]
        sf_missing = min((5 - len(w & r) for r in by_suit.values() for w in _WINDOWS), default=5)
        targets.append((_PTS[Category.straight_flush], sf_missing, _FLUSH_REACH))
    best = 0.0
    for points, missing, reach in targets:
        if points > made and 0 < missing <= empty:
            gain = (points - made) * reach**missing
            if gain > best:
                best = gain
    return made + best


def hand_value(cards: Sequence[Card], empty: int) -> float:
    """The bot's rating of a hand: points made now plus a discounted share of the best category still reachable.

    Args:
        cards: the cards in the hand's spaces (Golden Card included), any order.
        empty: the hand's empty spaces.

    Returns:
        ``evaluate(cards).points`` plus, when ``empty`` > 0, the largest
        ``(points(T) − made) × reach^missing`` over the categories ``T``
        that the hand's size allows and whose ``missing`` cards fit in its
        empty spaces (``reach``: 0.5 per card for same-rank categories,
        0.6 for a straight, 0.5 for a straight flush).  With ``empty`` 0
        it is exactly the hand's points.
    """
    return _value(tuple(sorted(cards)), empty)


class SimpleBot:
    """A greedy bot for one player (see the module docstring for how it rates moves).

    Args:
        rng: breaks ties between equally rated moves (seeded by the
            simulator, so games repeat).
        max_spend: most chips it spends on one move (default 3).
        surround_bonus: rating of surrounding the Golden Card, before the
            Golden Deck card is seen (default 4.0).
    """

    def __init__(self, rng: random.Random, *, max_spend: int = 3, surround_bonus: float = 4.0):
        self.rng = rng
        self.max_spend = max_spend
        self.surround_bonus = surround_bonus
        self._hands_of: dict[str, dict[Coord, tuple[str, ...]]] = {}

    def _cells_to_hands(self, layout: AllInLayout) -> dict[Coord, tuple[str, ...]]:
        table = self._hands_of.get(layout.id)
        if table is None:
            found: dict[Coord, list[str]] = {}
            for letter, hand in layout.hands.items():
                for c in hand.cells:
                    found.setdefault(c, []).append(letter)
            table = {c: tuple(v) for c, v in found.items()}
            self._hands_of[layout.id] = table
        return table

    def _hands(self, layout: AllInLayout, cards: Mapping[Coord, Card]) -> dict[str, tuple[tuple[Card, ...], int]]:
        """Letter → (cards sorted, empty spaces) on a sheet holding ``cards``."""
        golden = layout.golden_coord
        out: dict[str, tuple[tuple[Card, ...], int]] = {}
        for letter, hand in layout.hands.items():
            held: list[Card] = []
            empty = 0
            for c in hand.cells:
                if c == golden:
                    held.append(layout.golden)
                elif c in cards:
                    held.append(cards[c])
                else:
                    empty += 1
            out[letter] = (tuple(sorted(held)), empty)
        return out

    def _best(self, scored: list[tuple[float, _T]]) -> _T:
        top = max(s for s, _ in scored)
        best = [item for s, item in scored if s >= top - 1e-9]
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def choose_move(self, state: GameState, player: str, revealed: Sequence[Card]) -> Move:
        """The bot's move for ``player`` in the next round of ``state`` (legal; a Golden Deck pick when it
        surrounds)."""
        layout = state.layout
        me = state.players[player]
        legal = state.legal_moves(player, revealed)
        if not legal.cells:
            return next(legal.moves())
        last = state.round + 1 >= ROUNDS
        hands_of = self._cells_to_hands(layout)
        hands = self._hands(layout, me.cards)
        base = {k: _value(v[0], 0 if last else v[1]) for k, v in hands.items()}
        cards = [(card, cost) for card, cost in legal.cards.items() if cost <= self.max_spend]
        delta: dict[tuple[str, Card], float] = {}
        scored: list[tuple[float, tuple[Coord, Card, int]]] = []
        for cell in legal.cells:
            letters = hands_of.get(cell, ())
            fixed = 0.0
            for letter in letters:
                held, empty = hands[letter]
                if empty == 1:  # this card completes the hand
                    reward = layout.hands[letter].reward
                    first = letter not in state.first_completed
                    fixed += (2 if first else 1) if reward == "double" else (1 if first else 0)
            if surrounds_golden(layout, me.cards, cell) and state.golden_deck:
                fixed += self.surround_bonus
            for card, cost in cards:
                gain = fixed - cost
                for letter in letters:
                    key = (letter, card)
                    d = delta.get(key)
                    if d is None:
                        held, empty = hands[letter]
                        d = _value(tuple(sorted(held + (card,))), 0 if last else empty - 1) - base[letter]
                        delta[key] = d
                    gain += d
                scored.append((gain, (cell, card, cost)))
        cell, card, cost = self._best(scored)
        pick = None
        if surrounds_golden(layout, me.cards, cell) and state.golden_deck:
            after = dict(me.cards)
            after[cell] = card
            pick = self.choose_golden(state, after)
        return Move(cell, card, cost, pick)

    def choose_golden(self, state: GameState, cards: Mapping[Coord, Card]) -> GoldenPick | None:
        """The Golden Deck card and space that raise the rating of a sheet holding ``cards`` most (``None`` if no
        space)."""
        layout = state.layout
        cells = golden_cells(layout, cards)
        if not cells or not state.golden_deck:
            return None
        last = state.round + 1 >= ROUNDS
        hands_of = self._cells_to_hands(layout)
        hands = self._hands(layout, cards)
        base = {k: _value(v[0], 0 if last else v[1]) for k, v in hands.items()}
        options: list[tuple[Card, Card]] = []
        for card in dict.fromkeys(state.golden_deck):
            if card.is_joker:
                options.extend((card, c) for c in standard_deck())
            else:
                options.append((card, card))
        scored: list[tuple[float, GoldenPick]] = []
        for cell in cells:
            letters = hands_of.get(cell, ())
            fixed = 0.0
            for letter in letters:
                if hands[letter][1] == 1:
                    reward = layout.hands[letter].reward
                    first = letter not in state.first_completed
                    fixed += (2 if first else 1) if reward == "double" else (1 if first else 0)
            for card, written in options:
                gain = fixed
                for letter in letters:
                    held, empty = hands[letter]
                    gain += _value(tuple(sorted(held + (written,))), 0 if last else empty - 1) - base[letter]
                scored.append((gain, GoldenPick(card, cell, written if card.is_joker else None)))
        return self._best(scored)


@dataclass(frozen=True)
class Simulation:
    """A simulated game: its log (as the log reader would read it) and the referee's result."""

    log: GameLog
    result: ReplayResult


def deal(rng: random.Random) -> tuple[tuple[Card, ...], list[tuple[Card, Card]]]:
    """Shuffle the 54-card deck: the Golden Deck (8 cards) and the 23 revealed pairs of the main deck."""
    deck = full_deck()
    rng.shuffle(deck)
    golden = tuple(deck[:GOLDEN_DECK_SIZE])
    rest = deck[GOLDEN_DECK_SIZE:]
    return golden, [(rest[2 * i], rest[2 * i + 1]) for i in range(ROUNDS)]


def _names(players: int | Sequence[str]) -> list[str]:
    if isinstance(players, int):
        if players < 1:
            raise ValueError("a game needs at least one player")
        return [DEFAULT_NAMES[i] if i < len(DEFAULT_NAMES) else f"Player {i + 1}" for i in range(players)]
    return list(players)


def simulate_game(
    layout: AllInLayout,
    players: int | Sequence[str] = 4,
    seed: int | str | random.Random = 0,
    ruleset: Ruleset = Ruleset(),
    bot: Callable[[random.Random], SimpleBot] = SimpleBot,
) -> Simulation:
    """Play a whole game with a bot for every player.

    Args:
        layout: the sheet layout every player uses.
        players: a number of players (named from :data:`DEFAULT_NAMES`) or their names.
        seed: an int or text seed, or a :class:`random.Random` to draw from.
            The same seed gives the same game.
        ruleset: the rule options the referee applies.
        bot: makes one bot per player from its own seeded ``Random``.

    Returns:
        A :class:`Simulation`: the 23-round log and the final result.

    Raises:
        ValueError: no players.
        IllegalMove: names repeated or empty (from the referee).
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    names = _names(players)
    golden, pairs = deal(rng)
    bots = {name: bot(random.Random(rng.getrandbits(64))) for name in names}
    state = GameState(layout, names, golden, ruleset)
    rounds: list[Round] = []
    for revealed in pairs:
        moves = {name: bots[name].choose_move(state, name, revealed) for name in names}
        state.play_round(revealed, moves)
        rounds.append(Round(revealed, moves))
    log = GameLog(layout, tuple(names), golden, tuple(rounds))
    return Simulation(log, state.result())
