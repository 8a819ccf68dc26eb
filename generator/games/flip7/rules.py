"""Flip 7: the deck, round scores, checks of finished lines and the end of the game.

The round engine and a whole game are in :mod:`generator.games.flip7.round`, the
simulations in :mod:`generator.games.flip7.sim`.

Pure rules core over plain data: cards in, scores and records out.  No I/O,
no drawing.  The Flip 7 rulebook; the action rulings are the accepted public
rulings for the 2024 edition where the rulebook is silent, the
rulebook's own text where it speaks (an action card dealt during a Flip Three
waits for the three cards, or for the target's bust; the public ruling that
sheetsmith followed before is the house rule :data:`HOUSE_RULE_2024`);
``docs/rules.md`` explains each reading and the passage it rests on.

Player count (rulebook *Setup*): the game is made for 3 to 18 players with one
deck; beyond 18 a second deck is shuffled in (:func:`decks_for`, up to
:data:`MAX_PLAYERS`); fewer than 3 is played and scored, with a warning
(:func:`player_count_warnings`).

Cards are plain values, the same tokens a typed-in score pad uses:

* a number card is an ``int`` from 0 to 12;
* a modifier is the text ``"x2"``, ``"+2"``, ``"+4"``, ``"+6"``, ``"+8"`` or ``"+10"``;
* an action is ``"freeze"``, ``"flip_three"`` or ``"second_chance"``.

A deck (or any pile) is a sequence of cards, **top first**.

Main entry points:

* :func:`full_deck` – the 94 cards (188 with two decks); :func:`decks_for` – how many
  decks a table needs; :func:`round_score` – what a line of cards scores;
* :func:`line_problems`, :func:`round_problems`, :func:`score_line` – checks that a
  finished line (and a whole round of lines) is possible;
* :func:`~generator.games.flip7.round.play_round` – plays one round from a card order and the players' choices
  (a :class:`Decider`: :class:`Scripted`, :class:`Choices` or :class:`StopAt`) and
  returns an inspectable :class:`RoundResult`;
* :func:`game_status`, :func:`~generator.games.flip7.round.play_game` – the end of the game and its winner;
* :func:`~generator.games.flip7.sim.simulate_games` – whole games with simple strategies;
* :func:`~generator.games.flip7.sim.simulate_lone_player`, :func:`~generator.games.flip7.sim.lone_player_exact` – the
one-player
  "stay at 23" model, simulated and computed exactly.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Iterable, Literal, Mapping, Sequence, Union

Card = Union[int, str]
"""A card: an ``int`` 0..12 (number), or one of :data:`MODIFIERS` or :data:`ACTIONS` (text)."""

NUMBERS: tuple[int, ...] = tuple(range(13))
"""The number values; the deck holds ``max(n, 1)`` copies of number ``n`` (one 0, one 1, two 2s … twelve 12s)."""
X2 = "x2"
PLUS: dict[str, int] = {"+2": 2, "+4": 4, "+6": 6, "+8": 8, "+10": 10}
"""The ``+N`` modifiers and the points each adds."""
MODIFIERS: tuple[str, ...] = (X2, *PLUS)
"""The six modifier cards, one of each in the deck."""
FREEZE = "freeze"
FLIP_THREE = "flip_three"
SECOND_CHANCE = "second_chance"
ACTIONS: tuple[str, ...] = (FREEZE, FLIP_THREE, SECOND_CHANCE)
"""The three action cards, three of each in the deck."""
FLIP7_BONUS = 15
"""Points added for seven different numbers (never doubled by x2); a variant may print another bonus
(``flip7_bonus`` on a pad, 0 to :data:`MAX_FLIP7_BONUS`), which every scoring function takes as ``flip7_bonus``."""
MAX_FLIP7_BONUS = 100
"""The largest Flip 7 bonus a variant may use."""
FLIP7_SIZE = 7
"""How many different numbers make a Flip 7 (and end the round)."""
DEFAULT_TARGET = 200
"""The game ends at the end of a round in which someone has this many points (variant: any other target)."""

PLAYERS_PER_DECK = 18
"""One deck serves up to 18 players (rulebook *Setup*; bigger tables shuffle in a second deck)."""
MIN_DESIGNED_PLAYERS = 3
"""The rulebook's smallest table; fewer players are played and scored, with a warning."""
MAX_DECKS = 2
"""Two decks at most: a second deck beyond 18 players, up to :data:`MAX_PLAYERS`."""
MAX_PLAYERS = PLAYERS_PER_DECK * MAX_DECKS
"""36 players: two decks, 18 players each."""

Status = Literal["in_progress", "finished", "tied_play_another_round"]
PlayerState = Literal["in", "stayed", "frozen", "busted", "flip7"]


# --------------------------------------------------------------------------
# Cards and the deck


def is_number(card: object) -> bool:
    """True for a number card: an ``int`` (not a ``bool``) from 0 to 12."""
    return type(card) is int and 0 <= card <= 12


def is_modifier(card: object) -> bool:
    """True for ``"x2"`` and the ``"+N"`` modifiers."""
    return isinstance(card, str) and card in MODIFIERS


def is_action(card: object) -> bool:
    """True for ``"freeze"``, ``"flip_three"`` and ``"second_chance"``."""
    return isinstance(card, str) and card in ACTIONS


def check_card(card: object) -> Card:
    """Return ``card`` unchanged when it is a Flip 7 card.

    Raises:
        ValueError: anything else (``13``, ``True``, ``"+3"``, ``"7"``, …).
    """
    if is_number(card) or is_modifier(card) or is_action(card):
        return card  # type: ignore[return-value]
    raise ValueError(f"{card!r} is not a Flip 7 card (numbers 0..12, {', '.join(MODIFIERS)}, {', '.join(ACTIONS)})")


def copies_in_deck(card: Card) -> int:
    """How many copies of ``card`` one deck holds: ``max(n, 1)`` for number ``n``, 1 per modifier, 3 per action.

    Raises:
        ValueError: ``card`` is not a Flip 7 card.
    """
    check_card(card)
    if is_number(card):
        return max(int(card), 1)
    return 1 if is_modifier(card) else 3


def deck_composition(decks: int = 1) -> dict[Card, int]:
    """Card → copies in ``decks`` decks shuffled together (rulebook *Setup*).

    One deck: 79 numbers, 6 modifiers, 9 actions, 94 cards; two decks (19 to
    36 players) hold twice each count, 188 cards.

    Raises:
        ValueError: ``decks`` is not 1 or 2.
    """
    _check_decks(decks)
    comp: dict[Card, int] = {n: max(n, 1) * decks for n in NUMBERS}
    comp.update({m: decks for m in MODIFIERS})
    comp.update({a: 3 * decks for a in ACTIONS})
    return comp


def full_deck(decks: int = 1) -> list[Card]:
    """The cards of ``decks`` decks (94 each) in a fixed order (numbers ascending, modifiers, actions): shuffle before
    use.

    Raises:
        ValueError: ``decks`` is not 1 or 2.
    """
    return [card for card, n in deck_composition(decks).items() for _ in range(n)]


def _check_decks(decks: int) -> None:
    if type(decks) is not int or not 1 <= decks <= MAX_DECKS:
        raise ValueError(f"decks must be 1 or {MAX_DECKS}, not {decks!r}")


def decks_for(players: int) -> int:
    """How many decks a table of ``players`` plays with: 1 up to 18 players, 2 from 19 to 36 (rulebook *Setup*).

    Raises:
        ValueError: fewer than 1 or more than :data:`MAX_PLAYERS` players.
    """
    if type(players) is not int or not 1 <= players <= MAX_PLAYERS:
        raise ValueError(
            f"Flip 7 is played by up to {MAX_PLAYERS} players ({PLAYERS_PER_DECK} a deck, two decks at most), not "
            f"{players!r}"
        )
    return 1 if players <= PLAYERS_PER_DECK else 2


def player_count_warnings(players: int) -> list[str]:
    """Warnings about a table of ``players`` (``[]`` when the rulebook plays it as is).

    The rulebook plays 3 to 18 players with one deck and adds a second deck
    beyond; 1 or 2 players are not what the game is made for: the scores are
    still computed, with this warning.  19 to 36 players need a second deck:
    said as a note, not a warning (it is the rulebook's own setup).
    """
    if players < MIN_DESIGNED_PLAYERS:
        return [
            f"{players} player{'s' if players != 1 else ''}: Flip 7 is made for {MIN_DESIGNED_PLAYERS} to "
            f"{PLAYERS_PER_DECK} players (a second deck beyond); the scores are still computed"
        ]
    return []


# --------------------------------------------------------------------------
# Scoring a line of cards


def numbers_of(cards: Iterable[Card]) -> list[int]:
    """The number cards among ``cards``, in order."""
    return [c for c in cards if is_number(c)]  # type: ignore[misc]


def is_flip7(cards: Iterable[Card]) -> bool:
    """True when ``cards`` hold seven (or more) different numbers: a Flip 7, worth :data:`FLIP7_BONUS` more points."""
    return len(set(numbers_of(cards))) >= FLIP7_SIZE


def round_score(cards: Iterable[Card] | str, *, flip7_bonus: int = FLIP7_BONUS) -> int:
    """Points of the cards in front of a player at the end of a round (rulebook *Scoring*).

    ``cards`` is any iterable of cards, in any order, or the text ``"bust"``.
    The score is: the sum of the numbers; doubled when ``x2`` is there (x2
    doubles only that sum, so x2 with no numbers gives 0; with two decks a
    second x2 doubles it again); plus every ``+N``; plus 15 for seven
    different numbers (``flip7_bonus``: a variant's bonus).  A bust scores 0,
    and so does a line showing a number twice (the second copy busted the
    player).  Action cards score nothing and are ignored.

    Raises:
        ValueError: a value that is not a Flip 7 card; a bonus outside 0..:data:`MAX_FLIP7_BONUS`.

    >>> round_score([3, 5, 7, 10, 11, "x2"])
    72
    >>> round_score([12, 11, 10, 9, 8, 7, 6, "x2", "+10"])
    151
    """
    _check_bonus(flip7_bonus)
    if isinstance(cards, str):
        if cards == "bust":
            return 0
        raise ValueError(f"{cards!r}: give a list of cards or 'bust'")
    cards = [check_card(c) for c in cards]
    nums = numbers_of(cards)
    if len(set(nums)) < len(nums):
        return 0
    total = sum(nums) * 2 ** cards.count(X2)
    total += sum(PLUS[c] for c in cards if c in PLUS)
    if len(nums) >= FLIP7_SIZE:
        total += flip7_bonus
    return total


def _check_bonus(flip7_bonus: int) -> None:
    if type(flip7_bonus) is not int or not 0 <= flip7_bonus <= MAX_FLIP7_BONUS:
        raise ValueError(f"a Flip 7 bonus is a whole number 0 to {MAX_FLIP7_BONUS}, not {flip7_bonus!r}")


def explain_score(cards: Sequence[Card], *, flip7_bonus: int = FLIP7_BONUS) -> str:
    """The arithmetic of :func:`round_score` as text, for messages: ``"(3+5+7+10+11)×2 +10 +15 = 151"``."""
    cards = [check_card(c) for c in cards]
    nums = numbers_of(cards)
    if len(set(nums)) < len(nums):
        return "a repeated number is a bust = 0"
    parts = "+".join(str(n) for n in nums) or "0"
    text = f"({parts})" + "×2" * cards.count(X2) if X2 in cards else parts
    for c in cards:
        if c in PLUS:
            text += f" {c}"
    if len(nums) >= FLIP7_SIZE:
        text += f" +{flip7_bonus} (Flip 7)"
    return f"{text} = {round_score(cards, flip7_bonus=flip7_bonus)}"


RESOURCES: tuple[str, ...] = ("flip7", X2, *PLUS)
"""What a written score can prove a line held, each scarce within a round: a Flip 7 (one per round: the
round ends at the first), the x2 and each ``+N`` (one per deck).  The order of a :data:`Needs` tuple."""

Needs = tuple[int, ...]
"""How many of each of :data:`RESOURCES` a line holds: ``(flip7, x2, +2, +4, +6, +8, +10)``."""


def round_limits(decks: int = 1) -> Needs:
    """How many of each of :data:`RESOURCES` one round can deal: one Flip 7 (the round ends at the first,
    whatever the decks), and ``decks`` of the x2 and of each ``+N`` (rulebook *Setup*, *How to play*)."""
    _check_decks(decks)
    return (1,) + (decks,) * (len(RESOURCES) - 1)


@lru_cache(maxsize=None)
def _number_sums(flip7: bool) -> frozenset[int]:
    """Sums of the numbers of a line: six different numbers at most without a Flip 7, exactly seven with one."""
    sizes = [FLIP7_SIZE] if flip7 else range(FLIP7_SIZE)
    return frozenset(sum(c) for k in sizes for c in combinations(NUMBERS, k))


@lru_cache(maxsize=None)
def score_ways(decks: int = 1, flip7_bonus: int = FLIP7_BONUS) -> dict[int, tuple[Needs, ...]]:
    """Score → the least each line making it holds: its minimal :data:`Needs` (no other way to the score
    holds a part of one of them), for every score some possible final line makes with ``decks`` decks.

    A line is: numbers (at most six different, or seven for a Flip 7, the round ending there),
    ``k`` x2 cards (``k`` up to ``decks``: the numbers times ``2**k``), ``+N`` cards (each up to
    ``decks`` times), and ``flip7_bonus`` for a Flip 7 (rulebook *Scoring*).  Numbers are left out
    of the needs: every score has many sets of numbers, and only the 0 and the 1 are single cards.

    Raises:
        ValueError: ``decks`` is not 1 or 2; a bonus outside 0..:data:`MAX_FLIP7_BONUS`.
    """
    from itertools import product

    _check_decks(decks)
    _check_bonus(flip7_bonus)
    ways: dict[int, set[Needs]] = {}
    for flip7 in (0, 1):
        sums = _number_sums(bool(flip7))
        for k in range(decks + 1):
            for plus in product(range(decks + 1), repeat=len(PLUS)):
                p = sum(n * v for n, v in zip(plus, PLUS.values()))
                needs = (flip7, k, *plus)
                for s in sums:
                    ways.setdefault(s * 2**k + p + flip7 * flip7_bonus, set()).add(needs)
    return {score: _minimal(found) for score, found in sorted(ways.items())}


def _minimal(found: set[Needs]) -> tuple[Needs, ...]:
    kept: list[Needs] = []
    for needs in sorted(found, key=sum):
        if not any(all(a <= b for a, b in zip(small, needs)) for small in kept):
            kept.append(needs)
    return tuple(kept)


def score_needs(score: int, *, decks: int = 1, flip7_bonus: int = FLIP7_BONUS) -> dict[str, int]:
    """What every line scoring ``score`` holds: resource (:data:`RESOURCES`) → how many; ``{}`` when no
    one resource is in every way to the score (the line may still need one of several: :func:`score_ways`).

    With one deck and the rulebook's bonus of 15 (numbers 12 down to 7 add up to 57 at most without a
    Flip 7, 12 down to 6 to 63 with one; the ``+N`` cards to 30): a line without the x2 scores at most
    63 + 30 + 15 = 108, so above 108 the x2 is held; a line without a Flip 7 at most 57 × 2 + 30 = 144,
    so above 144 a Flip 7 is held too (and every +N is, as 171 = 63 × 2 + 30 + 15 is the top).

    Raises:
        ValueError: no line scores ``score``; ``decks`` or the bonus out of range.
    """
    ways = score_ways(decks, flip7_bonus).get(score)
    if ways is None:
        raise ValueError(f"no line of cards scores {score}")
    return {r: n for r, n in zip(RESOURCES, (min(w[i] for w in ways) for i in range(len(RESOURCES)))) if n}


@lru_cache(maxsize=None)
def possible_scores(decks: int = 1, flip7_bonus: int = FLIP7_BONUS) -> frozenset[int]:
    """Every score some possible final line makes with ``decks`` decks (and a Flip 7 bonus of ``flip7_bonus``).

    One deck: 0..171, the even values 146..170 cannot be made.  Two decks:
    each modifier may be there twice (two x2 double the numbers twice).

    Raises:
        ValueError: ``decks`` is not 1 or 2; a bonus outside 0..:data:`MAX_FLIP7_BONUS`.
    """
    return frozenset(score_ways(decks, flip7_bonus))


# --------------------------------------------------------------------------
# Checking finished lines (a score pad)


def line_problems(cards: Sequence[Card], *, decks: int = 1) -> list[str]:
    """Why ``cards`` cannot be what a player has in front of them at the end of a round (``[]`` when possible).

    Checks: no action card (Freeze and Flip Three are used at once, Second
    Chances are discarded at round end); no number twice (the second copy is a
    bust); at most seven numbers (the round ends at seven); each modifier at most
    once per deck (a deck holds one of each; two decks from 19 players).

    Raises:
        ValueError: a value that is not a Flip 7 card.
    """
    cards = [check_card(c) for c in cards]
    out: list[str] = []
    actions = [c for c in cards if is_action(c)]
    for a in dict.fromkeys(actions):
        out.append(
            f"{a} is an action card; action cards are never in front of a player when the round is scored "
            "(Freeze and Flip Three act at once, Second Chances are discarded at round end)"
        )
    counts = Counter(numbers_of(cards))
    repeated = sorted(n for n, k in counts.items() if k > 1)
    if repeated:
        shown = " and ".join(f"{n} appears {_times(counts[n])}" for n in repeated)
        out.append(
            f"the number {shown}; a line cannot repeat a number: the second copy busts the player "
            "(the round scores 0: write 'bust') or is discarded with a Second Chance"
        )
    nums = sum(counts.values())
    if nums > FLIP7_SIZE:
        out.append(
            f"{nums} number cards; a line holds at most {FLIP7_SIZE}, since the round ends as soon as "
            f"a player has {FLIP7_SIZE} different numbers"
        )
    mods = Counter(c for c in cards if is_modifier(c))
    for m, k in mods.items():
        if k > decks:
            holds = f"the deck has a single {m}" if decks == 1 else f"{decks} decks hold {decks}"
            out.append(f"{m} appears {_times(k)}; {holds}")
    return out


def _times(k: int) -> str:
    return {1: "once", 2: "twice"}.get(k, f"{k} times")


@dataclass(frozen=True)
class ScoreLine:
    """What a score pad says about one player in one round.

    Attributes:
        cards: the cards in front of the player at round end, or ``None`` when
            the pad gives only a score.
        bust: the pad says the player busted (their round scores 0).
        written: the score written on the pad, or ``None`` when none is written.
    """

    cards: tuple[Card, ...] | None = None
    bust: bool = False
    written: int | None = None


@dataclass(frozen=True)
class LineScore:
    """The checked score of one :class:`ScoreLine`.

    Attributes:
        score: the score that counts: the computed one when cards are given
            (a bust counts 0), otherwise the written one.
        computed: the score of the cards (``None`` when only a score is written).
        written: the score written on the pad, if any.
        problems: what is wrong with the line (messages; empty when nothing is).
        impossible: no game can leave this line on a pad: cards no round ends
            with, a score no cards make, or both bust and cards.  The score
            that counts is then a guess, and the pad needs correcting before a
            winner can be named on it.  (A written score that differs from
            its cards is a problem but not this: the cards' score counts.)
    """

    score: int
    computed: int | None
    written: int | None
    problems: tuple[str, ...] = ()
    impossible: bool = False


def score_line(line: ScoreLine, *, decks: int = 1, flip7_bonus: int = FLIP7_BONUS) -> LineScore:
    """Score and check one pad line (``decks``: 2 for a table of 19 to 36 players; ``flip7_bonus``: a variant's).

    The computed score counts whenever it can be computed (cards given, or a
    bust); a different written score is reported, not used.  A score written
    alone counts as written, but is reported when no line of cards can make it.
    Every problem but a mismatched written score makes the line ``impossible``.

    Raises:
        ValueError: a card that is not a Flip 7 card; a negative written score;
            a line with neither cards, bust nor score.
    """
    if line.written is not None and (type(line.written) is not int or line.written < 0):
        raise ValueError(f"a written score must be a whole number 0 or more, not {line.written!r}")
    problems: list[str] = []
    if line.bust:
        computed: int | None = 0
        if line.cards:
            problems.append("the line says bust but also lists cards; write one or the other")
    elif line.cards is not None:
        problems.extend(line_problems(line.cards, decks=decks))
        computed = round_score(line.cards, flip7_bonus=flip7_bonus)
    elif line.written is not None:
        computed = None
        if line.written not in possible_scores(decks, flip7_bonus):
            top = max(possible_scores(decks, flip7_bonus))
            why = f"the most a round can score is {top}" if line.written > top else "no numbers, x2 and +N make it"
            problems.append(f"no line of cards scores {line.written} ({why})")
    else:
        raise ValueError("a line needs cards, 'bust' or a written score")
    impossible = bool(problems)
    if computed is not None and line.written is not None and computed != line.written:
        if line.bust:
            problems.append(f"written score {line.written}, but a bust scores 0; 0 counts")
        else:
            how = explain_score(line.cards or (), flip7_bonus=flip7_bonus)
            problems.append(f"written score {line.written} but the cards score {computed} ({how}); {computed} counts")
    score = computed if computed is not None else int(line.written)  # type: ignore[arg-type]
    return LineScore(score, computed, line.written, tuple(problems), impossible)


def round_problems(lines: Mapping[str, ScoreLine], *, decks: int = 1, flip7_bonus: int = FLIP7_BONUS) -> list[str]:
    """Checks across all players' lines of one round (messages; ``[]`` when the round is possible).

    Checks: at most one Flip 7 (the round ends at the first); no card more
    often than ``decks`` decks hold (cards in front of players stay out of any
    reshuffle, so each physical card is in at most one line of a round); and
    the lines that give only a score take their share too: a score proves what
    the line held (:func:`score_ways`: above 108 the x2, above 144 a Flip 7 and
    the x2, with one deck and the bonus of 15), so the written scores and the
    cards listed must fit in one round's single Flip 7 and ``decks`` x2 and
    ``+N`` cards together (:func:`_score_lines_fit`).  A busted line's cards
    count like any other's: a player who busts turns their cards over and
    they stay in front of them until the round ends (rulebook, *bust*), so
    they are not in the deck for anyone else.  Per-line checks are :func:`line_problems` and :func:`score_line`.
    Every finding makes the round impossible: no game deals it.

    Raises:
        ValueError: ``decks`` is not 1 or 2; a card that is not a Flip 7 card; a bonus out of range.
    """
    _check_decks(decks)
    out: list[str] = []
    # a busted player's cards stay in front of them, turned over, until the round ends: they hold their copies too
    with_cards = {p: line.cards for p, line in lines.items() if line.cards is not None}
    flip7 = [p for p, cards in with_cards.items() if not lines[p].bust and len(set(numbers_of(cards))) >= FLIP7_SIZE]
    if len(flip7) > 1:
        out.append(
            f"{' and '.join(flip7)} each show seven different numbers; the round ends at the first Flip 7, "
            "so only one player per round can make it"
        )
    total: Counter[Card] = Counter()
    holders: dict[Card, list[str]] = {}
    for p, cards in with_cards.items():
        for c in cards:
            check_card(c)
            if is_action(c):
                continue
            total[c] += 1
            holders.setdefault(c, [])
            if p not in holders[c]:
                holders[c].append(p)
    order = [c for c in deck_composition() if c in total]
    for c in order:
        limit = copies_in_deck(c) * decks
        if total[c] > limit:
            what = f"the number {c}" if is_number(c) else c
            holds = f"the deck holds {limit}" if decks == 1 else f"{decks} decks hold {limit}"
            out.append(f"{what} appears {_times(total[c])} in this round ({', '.join(holders[c])}); {holds}")
    written = {
        p: line.written
        for p, line in lines.items()
        if line.cards is None and not line.bust and line.written is not None
    }
    used = (min(len(flip7), 1),) + tuple(min(total[r], decks) for r in RESOURCES[1:])
    found = _score_lines_fit(written, used, holders, decks=decks, flip7_bonus=flip7_bonus, flip7_holder=flip7[:1])
    if found:
        out.append(found)
    return out


def _score_lines_fit(
    written: Mapping[str, int],
    used: Needs,
    holders: Mapping[Card, list[str]],
    *,
    decks: int,
    flip7_bonus: int,
    flip7_holder: list[str],
) -> str | None:
    """``None`` when the scores ``written`` alone (player → score) can all be made with what the round has
    left after the cards listed (``used``, capped at the limits: an excess is reported on its own);
    otherwise the message.  Scores no line makes are left to :func:`score_line`.

    Exact for what it looks at: each line picks one of its :func:`score_ways` (a memoised search over
    the lines and what is left), so a round is refused only when no choice fits.
    """
    ways = score_ways(decks, flip7_bonus)
    zero = (0,) * len(RESOURCES)
    needing = [(p, s, ways[s]) for p, s in written.items() if s in ways and zero not in ways[s]]
    if not needing:
        return None
    left0 = tuple(lim - u for lim, u in zip(round_limits(decks), used))

    @lru_cache(maxsize=None)
    def fits(i: int, left: Needs) -> bool:
        if i == len(needing):
            return True
        return any(
            all(n <= have for n, have in zip(w, left)) and fits(i + 1, tuple(have - n for have, n in zip(left, w)))
            for w in needing[i][2]
        )

    if fits(0, left0):
        return None
    sure = {p: score_needs(s, decks=decks, flip7_bonus=flip7_bonus) for p, s, _ in needing}
    short = [
        r for j, r in enumerate(RESOURCES) if used[j] + sum(n.get(r, 0) for n in sure.values()) > round_limits(decks)[j]
    ]
    if not short:
        listed = ", ".join(f"{p} {s}" for p, s, _ in needing)
        return (
            f"the scores written alone ({listed}) cannot all be made in one round beside the cards listed: "
            f"each needs a Flip 7, the x2 or +N cards, and the round has {_round_has(decks)}"
        )
    parts = []
    for p, s, _ in needing:
        mine = [r for r in short if r in sure[p]]
        if mine:
            parts.append(f"{p}'s score {s} cannot be made without {_resources(mine, sure[p])}")
    for j, r in enumerate(RESOURCES):
        held = flip7_holder if r == "flip7" else holders.get(r, [])
        if r in short and held:
            parts.append(f"the cards listed ({', '.join(held)}) hold {_resource_name(r, used[j])}")
    return "; ".join(parts) + f"; the round has {_round_has(decks, short)}"


def _resource_name(r: str, n: int = 1) -> str:
    return "a Flip 7" if r == "flip7" else (f"the {r}" if n == 1 else f"{_count_word(n)} {r}")


def _count_word(n: int) -> str:
    return {1: "one", 2: "two"}.get(n, str(n))


def _resources(names: Sequence[str], counts: Mapping[str, int]) -> str:
    items = [_resource_name(r, counts.get(r, 1)) for r in names]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _round_has(decks: int, which: Sequence[str] = RESOURCES) -> str:
    """What one round can deal of ``which``, in words: ``one x2, one +4 and one Flip 7 at most``."""
    parts = [f"{_count_word(decks)} {r}" for r in which if r != "flip7"]
    if "flip7" in which:
        parts.append("one Flip 7 at most (it ends the round)")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


# --------------------------------------------------------------------------
# The end of the game


def game_status(totals: Mapping[str, int], target: int = DEFAULT_TARGET) -> tuple[Status, str | None]:
    """Where a game stands at the end of a round, from the players' totals (rulebook *End of the game*).

    Returns ``("finished", winner)`` when someone has ``target`` points or more
    and one player alone has the highest total; ``("tied_play_another_round",
    None)`` when someone reached the target but the lead is shared (another
    round is played); ``("in_progress", None)`` otherwise.
    """
    if not totals:
        return "in_progress", None
    best = max(totals.values())
    if best < target:
        return "in_progress", None
    leaders = [p for p, t in totals.items() if t == best]
    if len(leaders) > 1:
        return "tied_play_another_round", None
    return "finished", leaders[0]


# --------------------------------------------------------------------------
# A tick pad row: the boxes one player ticked for one round


def tick_row_problems(cards: Sequence[Card], bust: bool, *, decks: int = 1) -> list[str]:
    """Why a tick pad row cannot be a round's end for its player (``[]`` when it can).

    On a tick pad a player ticks the cards in front of them and, if they busted,
    BUST as well; a busted row scores 0 whatever else is ticked (the cards are
    kept on the row only as the player ticked them).  Checks: the checks of
    :func:`line_problems` on the cards ticked (more than seven numbers, a
    modifier more often than the decks hold — two ×2 on one deck); and BUST
    ticked beside seven different numbers: the round ends at a Flip 7, so the
    player cannot have busted in it (rulebook *How to play*).

    Raises:
        ValueError: a value that is not a Flip 7 card.
    """
    out = line_problems(cards, decks=decks)
    if bust and len(set(numbers_of(cards))) >= FLIP7_SIZE:
        out.append(
            f"BUST ticked beside {FLIP7_SIZE} different numbers; a Flip 7 ends the round at once, "
            "so the player cannot also have busted: untick one or the other"
        )
    return out
