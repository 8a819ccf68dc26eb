"""Flip 7 simulations: whole games with simple strategies, and the one-player "stay at T" model (simulated and exact).

Pure and seeded; no I/O.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Sequence

from generator.games.flip7.round import Decider, Ruleset, StopAt, play_game
from generator.games.flip7.rules import (
    DEFAULT_TARGET,
    FLIP7_BONUS,
    FLIP7_SIZE,
    NUMBERS,
    PLUS,
    deck_composition,
    decks_for,
    is_number,
    player_count_warnings,
)

# --------------------------------------------------------------------------
# Simulation


@dataclass(frozen=True)
class SimulationResult:
    """Summary of :func:`simulate_games`.

    Attributes:
        games: games played.
        rounds: rounds played in all.
        player_rounds: rounds × players.
        bust_rate: busts / player rounds (0..1).
        mean_round_score: mean points of a player round (busts count 0).
        mean_rounds: mean rounds per game (rounds until the game ended, tie-breaks included).
        mean_rounds_to_target: mean round in which someone first reached the target.
        flip7_rate: Flip 7s / player rounds.
        wins: player → games won.
        decks: decks shuffled together (1 up to 18 players, 2 from 19 to 36).
        warnings: what the rulebook would say about the table (1 or 2 players:
            not what the game is made for; see :func:`player_count_warnings`).
    """

    games: int
    rounds: int
    player_rounds: int
    bust_rate: float
    mean_round_score: float
    mean_rounds: float
    mean_rounds_to_target: float
    flip7_rate: float
    wins: dict[str, int] = field(default_factory=dict)
    decks: int = 1
    warnings: tuple[str, ...] = ()


def _strategy(strategy: str | Decider) -> Decider:
    if not isinstance(strategy, str):
        return strategy
    name = strategy.strip().lower()
    if name.startswith("stop-at-") and name[8:].isdigit():
        return StopAt(int(name[8:]))
    raise ValueError(
        f"unknown strategy {strategy!r}; use 'stop-at-T' (T a whole number, e.g. 'stop-at-23') or a Decider"
    )


def simulate_games(
    players: int | Sequence[str],
    seed: int,
    strategy: str | Decider = "stop-at-23",
    *,
    games: int = 2000,
    target: int = DEFAULT_TARGET,
    rules: Ruleset = Ruleset(),
) -> SimulationResult:
    """Play ``games`` whole games with one strategy for every player; pure and seeded.

    Args:
        players: a number of players (named ``P1``, ``P2``, …) or their names.
        seed: the seed of the single ``random.Random`` used for every shuffle
            (same seed, same result).
        strategy: ``"stop-at-T"`` (:class:`StopAt`) or any :class:`Decider`.
        games: how many games.
        target: the game's target score.

    Each game starts from a freshly shuffled full deck (two decks for 19 to
    36 players); the first dealer rotates from game to game.  1 or 2 players
    are simulated, with a warning in the result.

    Raises:
        ValueError: fewer than one player or game, more than :data:`MAX_PLAYERS`
            players, an unknown strategy.
    """
    names = [f"P{i}" for i in range(1, players + 1)] if isinstance(players, int) else list(players)
    if not names or games < 1:
        raise ValueError("simulate at least one game with at least one player")
    decks = decks_for(len(names))
    decider = _strategy(strategy)
    rng = random.Random(seed)
    rounds = busts = flips = score_sum = rounds_to_target = 0
    wins = {p: 0 for p in names}
    for g in range(games):
        k = g % len(names)
        order = names[k:] + names[:k]
        result = play_game(order, decider, rng, target=target, rules=rules, record=False)
        rounds += len(result.rounds)
        rounds_to_target += result.first_to_target or len(result.rounds)
        if result.winner is not None:
            wins[result.winner] += 1
        for r in result.rounds:
            for pr in r.players:
                score_sum += pr.score
                busts += pr.state == "busted"
                flips += pr.state == "flip7"
    pr_count = rounds * len(names)
    return SimulationResult(
        games=games,
        rounds=rounds,
        player_rounds=pr_count,
        bust_rate=busts / pr_count,
        mean_round_score=score_sum / pr_count,
        mean_rounds=rounds / games,
        mean_rounds_to_target=rounds_to_target / games,
        flip7_rate=flips / pr_count,
        wins=wins,
        decks=decks,
        warnings=tuple(player_count_warnings(len(names))),
    )


# --------------------------------------------------------------------------
# The lone player model: one player, a fresh full deck each round, stay at T.


@dataclass(frozen=True)
class LoneStats:
    """Mean score and bust rate of the lone-player model (``rounds`` is ``None`` for exact values)."""

    mean_score: float
    bust_rate: float
    rounds: int | None = None


_BLANK = -1


def _lone_deck() -> list[int]:
    """The full deck coded for the lone model: numbers as themselves, +N as 100+N, x2 and actions as blanks."""
    out: list[int] = []
    for card, n in deck_composition().items():
        code = card if is_number(card) else 100 + PLUS[card] if card in PLUS else _BLANK
        out += [code] * n  # type: ignore[list-item]
    return out


def lone_player_round(rng: random.Random, stop_at: int = 23, _deck: list[int] | None = None) -> tuple[int, bool]:
    """One round of the lone-player model; returns ``(score, busted)``.

    A lone player draws from a freshly shuffled full deck of 94 cards.  Action
    cards and x2 are blanks: drawn and skipped.  ``+N`` cards add N.  A repeated
    number is a bust (0 points).  The player stops as soon as the numbers in
    front of them sum to ``stop_at`` or more, or at seven different numbers
    (Flip 7: +15).  The shuffle is drawn card by card (a partial Fisher–Yates),
    which is the same as shuffling the whole deck.
    """
    deck = list(_deck if _deck is not None else _lone_deck())
    rnd = rng.random
    n = len(deck)
    seen = 0  # bit mask of numbers held
    total = plus = count = 0
    while True:
        j = int(rnd() * n)
        n -= 1
        card = deck[j]
        deck[j] = deck[n]
        if card == _BLANK:
            continue
        if card >= 100:
            plus += card - 100
            continue
        bit = 1 << card
        if seen & bit:
            return 0, True
        seen |= bit
        total += card
        count += 1
        if count == FLIP7_SIZE:
            return total + plus + FLIP7_BONUS, False
        if total >= stop_at:
            return total + plus, False


def simulate_lone_player(rounds: int, seed: int, stop_at: int = 23) -> LoneStats:
    """Mean score and bust rate of ``rounds`` seeded rounds of :func:`lone_player_round`."""
    if rounds < 1:
        raise ValueError("simulate at least one round")
    rng = random.Random(seed)
    deck = _lone_deck()
    total = busts = 0
    for _ in range(rounds):
        score, busted = lone_player_round(rng, stop_at, deck)
        total += score
        busts += busted
    return LoneStats(total / rounds, busts / rounds, rounds)


@lru_cache(maxsize=None)
def lone_player_exact(stop_at: int = 23) -> tuple[Fraction, Fraction]:
    """Exact ``(mean score, bust probability)`` of the lone-player model, as fractions.

    Recursion over what the player holds: the set of numbers and how many +N
    cards.  Blanks are dropped: drawing one changes nothing but the deck size,
    so the next non-blank card follows the same odds as in a deck without
    blanks.  Which +N cards a player holds is, given how many, a uniform choice
    among the five, so each counts its mean value, 6, in expectation.
    """
    plus_mean = Fraction(sum(PLUS.values()), len(PLUS))
    n_plus = len(PLUS)

    @lru_cache(maxsize=None)
    def walk(mask: int, k: int) -> tuple[Fraction, Fraction]:
        held = [n for n in NUMBERS if mask >> n & 1]
        s = sum(held)
        if len(held) == FLIP7_SIZE:
            return s + k * plus_mean + FLIP7_BONUS, Fraction(0)
        if s >= stop_at:
            return s + k * plus_mean, Fraction(0)
        left = {n: max(n, 1) - (mask >> n & 1) for n in NUMBERS}
        size = sum(left.values()) + n_plus - k
        mean = Fraction(0)
        bust = Fraction(0)
        for n, c in left.items():
            if not c:
                continue
            p = Fraction(c, size)
            if mask >> n & 1:
                bust += p
            else:
                m, b = walk(mask | 1 << n, k)
                mean += p * m
                bust += p * b
        if k < n_plus:
            p = Fraction(n_plus - k, size)
            m, b = walk(mask, k + 1)
            mean += p * m
            bust += p * b
        return mean, bust

    return walk(0, 0)
