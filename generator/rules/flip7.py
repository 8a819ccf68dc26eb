"""Flip 7: the deck, round scores, checks of finished lines, a round engine, the game, a simulator.

Pure rules core over plain data: cards in, scores and records out.  No I/O,
no drawing.  Rulebook ``001_1c1c1890e75051d3.txt``; the action rulings are
those of ``../shared/cases/flip7.yaml`` where the rulebook is silent, the
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
* :func:`play_round` – plays one round from a card order and the players' choices
  (a :class:`Decider`: :class:`Scripted`, :class:`Choices` or :class:`StopAt`) and
  returns an inspectable :class:`RoundResult`;
* :func:`game_status`, :func:`play_game` – the end of the game and its winner;
* :func:`simulate_games` – whole games with simple strategies;
* :func:`simulate_lone_player`, :func:`lone_player_exact` – the one-player
  "stay at 23" model, simulated and computed exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import Callable, Iterable, Literal, Mapping, Protocol, Sequence, Union

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
"""Points added for seven different numbers (never doubled by x2)."""
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
    """The cards of ``decks`` decks (94 each) in a fixed order (numbers ascending, modifiers, actions): shuffle before use.

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
            f"Flip 7 is played by up to {MAX_PLAYERS} players ({PLAYERS_PER_DECK} a deck, two decks at most), not {players!r}"
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


def has_repeated_number(cards: Iterable[Card]) -> bool:
    """True when some number appears twice: the second copy is a bust (unless a Second Chance took it away)."""
    nums = numbers_of(cards)
    return len(set(nums)) < len(nums)


def is_flip7(cards: Iterable[Card]) -> bool:
    """True when ``cards`` hold seven (or more) different numbers: a Flip 7, worth :data:`FLIP7_BONUS` more points."""
    return len(set(numbers_of(cards))) >= FLIP7_SIZE


def round_score(cards: Iterable[Card] | str) -> int:
    """Points of the cards in front of a player at the end of a round (rulebook *Scoring*).

    ``cards`` is any iterable of cards, in any order, or the text ``"bust"``.
    The score is: the sum of the numbers; doubled when ``x2`` is there (x2
    doubles only that sum, so x2 with no numbers gives 0; with two decks a
    second x2 doubles it again); plus every ``+N``; plus 15 for seven
    different numbers.  A bust scores 0, and so does a line
    showing a number twice (the second copy busted the player).  Action cards
    score nothing and are ignored.

    Raises:
        ValueError: a value that is not a Flip 7 card.

    >>> round_score([3, 5, 7, 10, 11, "x2"])
    72
    >>> round_score([12, 11, 10, 9, 8, 7, 6, "x2", "+10"])
    151
    """
    if isinstance(cards, str):
        if cards == "bust":
            return 0
        raise ValueError(f"{cards!r}: give a list of cards or 'bust'")
    cards = [check_card(c) for c in cards]
    nums = numbers_of(cards)
    if len(set(nums)) < len(nums):
        return 0
    total = sum(nums) * 2 ** cards.count(X2)
    total += sum(PLUS[c] for c in cards if c in PLUS)  # type: ignore[index]
    if len(nums) >= FLIP7_SIZE:
        total += FLIP7_BONUS
    return total


def explain_score(cards: Sequence[Card]) -> str:
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
        text += f" +{FLIP7_BONUS} (Flip 7)"
    return f"{text} = {round_score(cards)}"


@lru_cache(maxsize=None)
def possible_scores(decks: int = 1) -> frozenset[int]:
    """Every score some possible final line makes with ``decks`` decks.

    One deck: 0..171, the even values 146..170 cannot be made.  Two decks:
    each modifier may be there twice (two x2 double the numbers twice).

    Raises:
        ValueError: ``decks`` is not 1 or 2.
    """
    _check_decks(decks)
    plus_sums = {0}
    for value in PLUS.values():
        plus_sums = {p + value * k for p in plus_sums for k in range(decks + 1)}
    factors = [2**k for k in range(decks + 1)]
    out: set[int] = set()
    for k in range(FLIP7_SIZE + 1):
        bonus = FLIP7_BONUS if k == FLIP7_SIZE else 0
        for s in {sum(nums) for nums in combinations(NUMBERS, k)}:
            for f in factors:
                out.update(s * f + bonus + p for p in plus_sums)
    return frozenset(out)


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


def score_line(line: ScoreLine, *, decks: int = 1) -> LineScore:
    """Score and check one pad line (``decks``: 2 for a table of 19 to 36 players).

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
        computed = round_score(line.cards)
    elif line.written is not None:
        computed = None
        if line.written not in possible_scores(decks):
            top = max(possible_scores(decks))
            why = f"the most a round can score is {top}" if line.written > top else "no numbers, x2 and +N make it"
            problems.append(f"no line of cards scores {line.written} ({why})")
    else:
        raise ValueError("a line needs cards, 'bust' or a written score")
    impossible = bool(problems)
    if computed is not None and line.written is not None and computed != line.written:
        if line.bust:
            problems.append(f"written score {line.written}, but a bust scores 0; 0 counts")
        else:
            how = explain_score(line.cards or ())
            problems.append(f"written score {line.written} but the cards score {computed} ({how}); {computed} counts")
    score = computed if computed is not None else int(line.written)  # type: ignore[arg-type]
    return LineScore(score, computed, line.written, tuple(problems), impossible)


def round_problems(lines: Mapping[str, ScoreLine], *, decks: int = 1) -> list[str]:
    """Checks across all players' lines of one round (messages; ``[]`` when the round is possible).

    Only lines that list cards take part.  Checks: at most one Flip 7 (the
    round ends at the first); no card more often than ``decks`` decks hold
    (cards in front of players stay out of any reshuffle, so each physical card
    is in at most one line of a round).  Per-line checks are :func:`line_problems`.
    Every finding makes the round impossible: no game deals it.

    Raises:
        ValueError: ``decks`` is not 1 or 2; a card that is not a Flip 7 card.
    """
    _check_decks(decks)
    out: list[str] = []
    with_cards = {p: line.cards for p, line in lines.items() if line.cards is not None and not line.bust}
    flip7 = [p for p, cards in with_cards.items() if len(set(numbers_of(cards))) >= FLIP7_SIZE]
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
    return out


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
# The round engine


@dataclass(frozen=True)
class Ruleset:
    """Rule options of the round engine; the defaults follow the rulebook text.

    Attributes:
        set_aside_after_bust: what happens to the action cards set aside during
            a Flip Three when its target busts.  ``"resolve"`` (default, rulebook
            *House rules and pitfalls*, Flip Three: the action applies once the
            three cards are dealt *or the player has busted*, and the busted
            player then chooses another player still in): the busted target
            plays each of them, in the order drawn, on a player still in (a
            Second Chance goes to a player still in without one, or is
            discarded).  ``"discard"``: they are thrown away unplayed (the public
            2024 ruling sheetsmith followed before; a house rule).
        second_chance_in_flip_three: a Second Chance dealt during a Flip Three
            to a target without one.  ``"set_aside"`` (default, rulebook: it is
            an action card, one of the three, and applies only after them): the
            target keeps it once the three cards are dealt, so it cannot save
            them from a duplicate within the same Flip Three.  ``"keep"``: the
            target keeps it at once and it can save them later in the same Flip
            Three (the former public ruling; a house rule).

    :data:`HOUSE_RULE_2024` sets both to the former ruling.
    """

    set_aside_after_bust: Literal["resolve", "discard"] = "resolve"
    second_chance_in_flip_three: Literal["set_aside", "keep"] = "set_aside"

    def __post_init__(self) -> None:
        if self.set_aside_after_bust not in ("resolve", "discard"):
            raise ValueError(f"set_aside_after_bust: 'resolve' or 'discard', not {self.set_aside_after_bust!r}")
        if self.second_chance_in_flip_three not in ("set_aside", "keep"):
            raise ValueError(f"second_chance_in_flip_three: 'set_aside' or 'keep', not {self.second_chance_in_flip_three!r}")


RULEBOOK = Ruleset()
"""The rulebook's reading (the default): set-aside actions wait for the three cards or the target's bust."""
HOUSE_RULE_2024 = Ruleset(set_aside_after_bust="discard", second_chance_in_flip_three="keep")
"""House rule: the public 2024 ruling sheetsmith followed before.  Actions set aside
during a Flip Three are discarded when the target busts, and a Second Chance dealt
during a Flip Three is kept at once (it can save the target within the three cards)."""


@dataclass(frozen=True)
class Event:
    """One thing that happened in a round, in order.

    ``kind`` is one of: ``hit``, ``stay`` (a player's choice); ``deal`` (``card``
    given to ``player``); ``bust``; ``flip7``; ``modifier``; ``second_chance_kept``;
    ``second_chance_used`` (``card`` is the discarded duplicate);
    ``second_chance_passed`` (from ``player`` to ``target``);
    ``second_chance_discarded`` (nobody could take it, or at round end);
    ``freeze`` and ``flip_three`` (``player`` plays it on ``target``; after a
    bust during a Flip Three, ``player`` is the busted target giving away a
    set-aside card); ``set_aside`` (an action drawn during a Flip Three);
    ``action_discarded`` (a set-aside action dropped after a Flip 7, or after a
    bust under :data:`HOUSE_RULE_2024`); ``no_effect`` (an
    action with nobody still in to target); ``reshuffle`` (the discards became the
    deck); ``deck_empty`` (no card left anywhere: the round ends).
    """

    kind: str
    player: str | None = None
    card: Card | None = None
    target: str | None = None


class RoundView(Protocol):
    """What a :class:`Decider` may look at during a round (read only; never change it).

    Attributes and methods:
        order: the players in turn order.
        totals: game totals before this round (empty when not given).
        state(p): ``"in"``, ``"stayed"``, ``"frozen"``, ``"busted"`` or ``"flip7"``.
        numbers(p), modifiers(p): the cards in front of ``p``, in the order received.
        has_second_chance(p): ``p`` holds a Second Chance.
        points(p): what ``p`` would score if the round ended now (0 when busted).
        active(): the players still in, in turn order.
    """

    order: tuple[str, ...]
    totals: Mapping[str, int]

    def state(self, player: str) -> PlayerState: ...
    def numbers(self, player: str) -> tuple[int, ...]: ...
    def modifiers(self, player: str) -> tuple[str, ...]: ...
    def has_second_chance(self, player: str) -> bool: ...
    def points(self, player: str) -> int: ...
    def active(self) -> tuple[str, ...]: ...


class Decider(Protocol):
    """The players' choices during a round.

    ``hit(view, player)`` → ``True`` to take a card, ``False`` to stay.
    ``target(view, player, card, candidates)`` → one name of ``candidates``:
    who gets the ``card`` (``"freeze"``, ``"flip_three"``, or ``"second_chance"``
    when passing a spare one) that ``player`` plays.  The engine asks only when
    there are two or more candidates; a single candidate is forced.

    The same hook chooses for a Flip Three target who busted with action cards
    set aside (rulebook: the busted player chooses another player still in):
    ``player`` is then the busted target (``view.state(player) == "busted"``)
    and ``candidates`` are the players still in (for a Second Chance, those
    still in without one).
    """

    def hit(self, view: RoundView, player: str) -> bool: ...
    def target(self, view: RoundView, player: str, card: str, candidates: tuple[str, ...]) -> str: ...


@dataclass
class Choices:
    """A :class:`Decider` made of two callables (same signatures as the protocol)."""

    hit: Callable[[RoundView, str], bool]
    target: Callable[[RoundView, str, str, tuple[str, ...]], str]


class ScriptError(ValueError):
    """A :class:`Scripted` decider was asked for a decision its script does not have."""


class Scripted:
    """A :class:`Decider` that plays written-out decisions, for tests and worked examples.

    Args:
        hits: player → a string of ``h`` (hit) and ``s`` (stay), used one letter
            each time the player is asked.
        targets: the names chosen, in the order the engine asks (it asks only
            when there is a real choice).

    Raises (while playing):
        ScriptError: a player is asked once more than their script has letters,
            or a target is asked for with none left.
    """

    def __init__(self, hits: Mapping[str, str], targets: Sequence[str] = ()):
        self._hits = {p: list(s.replace(" ", "")) for p, s in hits.items()}
        self._targets = list(targets)

    def hit(self, view: RoundView, player: str) -> bool:
        """The next letter of ``player``'s script."""
        todo = self._hits.get(player)
        if not todo:
            raise ScriptError(f"{player} is asked to hit or stay, but the script has no decision left")
        letter = todo.pop(0)
        if letter not in "hs":
            raise ScriptError(f"script letter {letter!r}: use h (hit) or s (stay)")
        return letter == "h"

    def target(self, view: RoundView, player: str, card: str, candidates: tuple[str, ...]) -> str:
        """The next scripted target."""
        if not self._targets:
            raise ScriptError(f"{player} must choose who gets {card} among {candidates}, but the script has no target left")
        return self._targets.pop(0)

    def done(self) -> bool:
        """True when every scripted decision was used."""
        return not self._targets and not any(self._hits.values())


class StopAt:
    """The "stop-at-T" strategy: hit while the numbers in front of you sum to less than ``T``.

    Targets: Freeze and Flip Three go to the opponent still in with the most
    points (game total + this round's points so far), or to yourself when no
    opponent is still in; a spare Second Chance goes to the candidate with the
    fewest points.
    """

    def __init__(self, threshold: int = 23):
        self.threshold = threshold

    def hit(self, view: RoundView, player: str) -> bool:
        """Hit while the number sum in front of ``player`` is below the threshold."""
        return sum(view.numbers(player)) < self.threshold

    def target(self, view: RoundView, player: str, card: str, candidates: tuple[str, ...]) -> str:
        """The leader among opponents for Freeze and Flip Three; the weakest player for a spare Second Chance.

        A busted Flip Three target giving away its set-aside cards chooses the same way.
        """
        def standing(p: str) -> int:
            return view.totals.get(p, 0) + view.points(p)

        others = [p for p in candidates if p != player]
        if card == SECOND_CHANCE:
            return min(candidates, key=standing)
        if not others:
            return player
        return max(others, key=standing)


@dataclass(frozen=True)
class PlayerRound:
    """One player's round, as it ended.

    Attributes:
        player: the name.
        cards: the cards in front of the player when the round ended, in the
            order received: numbers and modifiers (a busted player's line
            includes the duplicate that busted them; Second Chances are listed
            separately).
        state: ``"stayed"``, ``"frozen"``, ``"busted"``, ``"flip7"``, or ``"in"``
            (still in when the round ended on someone's Flip 7 or an empty deck).
        second_chance: held a Second Chance when the round ended (it was then discarded).
        score: the round's points (:func:`round_score` of ``cards``; 0 when busted).
    """

    player: str
    cards: tuple[Card, ...]
    state: PlayerState
    second_chance: bool
    score: int

    @property
    def numbers(self) -> tuple[int, ...]:
        """The number cards of :attr:`cards`, in order."""
        return tuple(numbers_of(self.cards))

    @property
    def busted(self) -> bool:
        """True when the player busted."""
        return self.state == "busted"


@dataclass(frozen=True)
class RoundResult:
    """The record of one round.

    Attributes:
        players: one :class:`PlayerRound` per player, in turn order.
        events: what happened, in order (empty when played with ``record=False``).
        deck: the cards left in the deck, top first (the next round draws from it).
        discard: the set-aside pile after the round (earlier discards, then
            everything used or in front of players this round), reshuffled when the
            deck runs out.
        flip7: the player who made a Flip 7, or ``None``.
        reshuffles: how many times the discards were shuffled into a new deck.
    """

    players: tuple[PlayerRound, ...]
    events: tuple[Event, ...]
    deck: tuple[Card, ...]
    discard: tuple[Card, ...]
    flip7: str | None = None
    reshuffles: int = 0

    @property
    def scores(self) -> dict[str, int]:
        """Player → round score, in turn order."""
        return {p.player: p.score for p in self.players}

    def player(self, name: str) -> PlayerRound:
        """The :class:`PlayerRound` of ``name``.

        Raises:
            KeyError: no such player.
        """
        for p in self.players:
            if p.player == name:
                return p
        raise KeyError(name)


class _Round:
    """A round being played; also the :class:`RoundView` deciders see."""

    def __init__(
        self,
        order: Sequence[str],
        deck: Sequence[Card],
        discard: Sequence[Card],
        decider: Decider,
        rng: random.Random | None,
        totals: Mapping[str, int],
        rules: Ruleset,
        record: bool,
    ):
        self.order = tuple(order)
        self.totals = totals
        self._stack = list(reversed(deck))  # the top card is the last item
        self._discard = list(discard)
        self._decider = decider
        self._rng = rng
        self._rules = rules
        self._record = record
        self._cards: dict[str, list[Card]] = {p: [] for p in self.order}
        self._nums: dict[str, set[int]] = {p: set() for p in self.order}
        self._sc: dict[str, bool] = {p: False for p in self.order}
        self._state: dict[str, PlayerState] = {p: "in" for p in self.order}
        self.events: list[Event] = []
        self.flip7: str | None = None
        self.exhausted = False
        self.reshuffles = 0

    # -- the view ----------------------------------------------------------
    def state(self, player: str) -> PlayerState:
        return self._state[player]

    def numbers(self, player: str) -> tuple[int, ...]:
        return tuple(c for c in self._cards[player] if type(c) is int)  # type: ignore[misc]

    def modifiers(self, player: str) -> tuple[str, ...]:
        return tuple(c for c in self._cards[player] if type(c) is str)  # type: ignore[misc]

    def has_second_chance(self, player: str) -> bool:
        return self._sc[player]

    def points(self, player: str) -> int:
        return 0 if self._state[player] == "busted" else round_score(self._cards[player])

    def active(self) -> tuple[str, ...]:
        return tuple(p for p in self.order if self._state[p] == "in")

    # -- play --------------------------------------------------------------
    def _log(self, kind: str, player: str | None = None, card: Card | None = None, target: str | None = None) -> None:
        if self._record:
            self.events.append(Event(kind, player, card, target))

    @property
    def over(self) -> bool:
        return self.flip7 is not None or self.exhausted

    def play(self) -> None:
        while not self.over and any(s == "in" for s in self._state.values()):
            for p in self.order:
                if self.over:
                    break
                if self._state[p] != "in":
                    continue
                if self._decider.hit(self, p):
                    self._log("hit", p)
                    card = self._draw()
                    if card is None:
                        break
                    self._receive(p, card, None)
                else:
                    self._state[p] = "stayed"
                    self._log("stay", p)

    def _draw(self) -> Card | None:
        if not self._stack:
            if not self._discard:
                self.exhausted = True
                self._log("deck_empty")
                return None
            if self._rng is None:
                raise ValueError("the deck ran out mid-round: pass rng=random.Random(seed) to reshuffle the discards")
            pile = self._discard
            self._discard = []
            self._rng.shuffle(pile)  # pile[0] is the new top card
            pile.reverse()
            self._stack = pile
            self.reshuffles += 1
            self._log("reshuffle")
        return self._stack.pop()

    def _receive(self, p: str, card: Card, pending: list[Card] | None) -> None:
        """``p`` gets ``card``; ``pending`` is the set-aside list during a Flip Three (else ``None``)."""
        self._log("deal", p, card)
        if type(card) is int:
            if card in self._nums[p]:
                if self._sc[p]:
                    self._sc[p] = False
                    self._discard += [card, SECOND_CHANCE]
                    self._log("second_chance_used", p, card)
                else:
                    self._cards[p].append(card)
                    self._state[p] = "busted"
                    self._log("bust", p, card)
                return
            self._nums[p].add(card)
            self._cards[p].append(card)
            if len(self._nums[p]) >= FLIP7_SIZE:
                self._state[p] = "flip7"
                self.flip7 = p
                self._log("flip7", p)
            return
        if card in MODIFIERS:
            self._cards[p].append(card)
            return
        keep_now = pending is None or self._rules.second_chance_in_flip_three == "keep"
        if card == SECOND_CHANCE and not self._sc[p] and keep_now:
            self._sc[p] = True
            self._log("second_chance_kept", p)
            return
        if pending is not None:
            pending.append(card)
            self._log("set_aside", p, card)
            return
        self._action(p, card)

    def _choose(self, player: str, card: str, candidates: tuple[str, ...]) -> str:
        if len(candidates) == 1:
            return candidates[0]
        who = self._decider.target(self, player, card, candidates)
        if who not in candidates:
            raise ValueError(f"{player} gave {card} to {who!r}, who is not among {candidates}")
        return who

    def _action(self, p: str, card: Card) -> None:
        """Play action ``card`` drawn by ``p``.

        For a card set aside during a Flip Three, ``p`` is its target, who may
        have busted: the candidates are then the players still in, which ``p``
        is not (rulebook: the busted player chooses another player still in).
        """
        if card == SECOND_CHANCE:
            if self._state[p] == "in" and not self._sc[p]:
                self._sc[p] = True
                self._log("second_chance_kept", p)
                return
            takers = tuple(q for q in self.active() if q != p and not self._sc[q])
            if not takers:
                self._discard.append(card)
                self._log("second_chance_discarded", p, card)
                return
            q = self._choose(p, SECOND_CHANCE, takers)
            self._sc[q] = True
            self._log("second_chance_passed", p, card, q)
            return
        candidates = self.active()
        self._discard.append(card)
        if not candidates:
            self._log("no_effect", p, card)
            return
        q = self._choose(p, str(card), candidates)
        if card == FREEZE:
            self._state[q] = "frozen"
            self._log("freeze", p, card, q)
        else:
            self._log("flip_three", p, card, q)
            self._flip_three(q)

    def _flip_three(self, q: str) -> None:
        pending: list[Card] = []
        for _ in range(3):
            card = self._draw()
            if card is None:
                break
            self._receive(q, card, pending)
            if self._state[q] != "in":  # busted or Flip 7
                break
        drop = self.over or (self._state[q] == "busted" and self._rules.set_aside_after_bust == "discard")
        for card in pending:
            if drop or self.over:
                self._discard.append(card)
                self._log("action_discarded", q, card)
                continue
            self._action(q, card)

    def finish(self) -> RoundResult:
        players = []
        for p in self.order:
            cards = tuple(self._cards[p])
            busted = self._state[p] == "busted"
            score = 0 if busted else round_score(cards)
            players.append(PlayerRound(p, cards, self._state[p], self._sc[p], score))
        for p in self.order:  # the round's cards are set aside
            self._discard += self._cards[p]
            if self._sc[p]:
                self._discard.append(SECOND_CHANCE)
                self._log("second_chance_discarded", p, SECOND_CHANCE)
        return RoundResult(
            players=tuple(players),
            events=tuple(self.events),
            deck=tuple(reversed(self._stack)),
            discard=tuple(self._discard),
            flip7=self.flip7,
            reshuffles=self.reshuffles,
        )


def play_round(
    players: Sequence[str],
    deck: Sequence[Card],
    decider: Decider,
    *,
    discard: Sequence[Card] = (),
    rng: random.Random | None = None,
    totals: Mapping[str, int] | None = None,
    rules: Ruleset = Ruleset(),
    record: bool = True,
) -> RoundResult:
    """Play one round of Flip 7 and return its record.

    Args:
        players: names in turn order: the first is asked first (the player on
            the dealer's left), the last is the dealer.
        deck: the cards to draw, top first.
        decider: the players' choices (:class:`Decider`).
        discard: the set-aside cards of earlier rounds; when the deck runs out
            they are shuffled with ``rng`` into a new deck (cards in front of
            players stay out).
        rng: the random source for reshuffles (``random.Random(seed)``): the same
            seed gives the same reshuffled order.
        totals: game totals before the round, shown to the decider.
        rules: rule options (:class:`Ruleset`).
        record: keep the event list (switch off for speed).

    Rules applied: in passes, each player still in hits (one card) or stays;
    a repeated number busts (0 points) unless the player holds a Second
    Chance, which is then discarded with the duplicate, no card replacing it;
    seven different numbers end the round at once (Flip 7, +15).  Freeze: the
    drawer chooses a player still in (themselves included; forced when alone),
    who leaves the round keeping their cards.  Flip Three: the chosen player
    still in gets three cards one by one, stopping at a bust or a Flip 7;
    action cards among them (Second Chance included) count among the three,
    are set aside and are played afterwards in the order drawn by that player;
    after a bust the busted player plays them on players still in (the
    decider chooses), after a Flip 7 they are discarded with the round
    (:class:`Ruleset` holds the house rules).  A player holds one Second Chance
    at most: a spare goes to a player still in without one, or is discarded.  Play then continues with the
    player after the one whose turn it was.  Second Chances are discarded at
    round end.  When no card is left in the deck or the discards, the round ends.

    Raises:
        ValueError: no players or a repeated name; a card that is not a Flip 7
            card; the deck runs out with no ``rng``; the decider names a target
            who is not a candidate.
        ScriptError: a :class:`Scripted` decider runs out of decisions.
    """
    if not players or len(set(players)) != len(players):
        raise ValueError("a round needs one or more players with different names")
    for c in deck:
        check_card(c)
    game = _Round(players, deck, discard, decider, rng, totals or {}, rules, record)
    game.play()
    return game.finish()


# --------------------------------------------------------------------------
# The game


@dataclass(frozen=True)
class GameResult:
    """A whole game.

    Attributes:
        rounds: every round's record, in order.
        totals: player → final total (in the order players were given).
        status: ``"finished"``, or where the game stood when ``max_rounds`` stopped it (:func:`game_status`).
        winner: the single leader, or ``None``.
        first_to_target: the 1-based round in which someone first reached the target (``None`` if never).
    """

    rounds: tuple[RoundResult, ...]
    totals: dict[str, int]
    status: Status
    winner: str | None
    first_to_target: int | None


def play_game(
    players: Sequence[str],
    decider: Decider,
    rng: random.Random,
    *,
    target: int = DEFAULT_TARGET,
    deck: Sequence[Card] | None = None,
    rules: Ruleset = Ruleset(),
    max_rounds: int = 1000,
    record: bool = True,
) -> GameResult:
    """Play a whole game: rounds until one ends with someone at ``target`` or more and a single leader.

    The first round is played in the order ``players`` are given (the last one
    deals); the deal then passes to the left, so each round's order is the
    previous one turned by one.  The deck carries over from round to round; the
    cards of each round are set aside and reshuffled (with ``rng``) only when
    the deck runs out.  ``deck`` is the starting order (top first); by default a
    full deck shuffled with ``rng``: one deck up to 18 players, two decks
    shuffled together from 19 to 36 (:func:`decks_for`).

    Raises:
        ValueError: as :func:`play_round`; ``target`` below 1; more than
            :data:`MAX_PLAYERS` players.
    """
    if target < 1:
        raise ValueError("the target must be 1 point or more")
    decks = decks_for(len(players))
    if deck is None:
        deck = full_deck(decks)
        rng.shuffle(deck)
    order = list(players)
    totals = {p: 0 for p in players}
    discard: Sequence[Card] = ()
    rounds: list[RoundResult] = []
    first: int | None = None
    status: Status = "in_progress"
    winner: str | None = None
    while len(rounds) < max_rounds:
        result = play_round(order, deck, decider, discard=discard, rng=rng, totals=totals, rules=rules, record=record)
        rounds.append(result)
        for pr in result.players:
            totals[pr.player] += pr.score
        deck, discard = result.deck, result.discard
        if first is None and max(totals.values()) >= target:
            first = len(rounds)
        status, winner = game_status(totals, target)
        if status == "finished":
            break
        order = order[1:] + order[:1]
    return GameResult(tuple(rounds), totals, status, winner, first)


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
    raise ValueError(f"unknown strategy {strategy!r}; use 'stop-at-T' (T a whole number, e.g. 'stop-at-23') or a Decider")


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
        code = card if is_number(card) else 100 + PLUS[card] if card in PLUS else _BLANK  # type: ignore[index]
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
