"""Flip 7: the round engine (who draws what, actions, busts, Flip 7) and a whole game, over the rules of
:mod:`generator.games.flip7.rules`.

Pure rules core: a card order and the players' choices in, an inspectable record out. No I/O.
The Flip 7 rulebook; docs/rules.md explains each reading.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Literal, Mapping, Protocol, Sequence

from generator.games.flip7.rules import (
    DEFAULT_TARGET,
    FLIP7_SIZE,
    FREEZE,
    MODIFIERS,
    SECOND_CHANCE,
    Card,
    PlayerState,
    Status,
    check_card,
    decks_for,
    full_deck,
    game_status,
    numbers_of,
    round_score,
)

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
            raise ValueError(
                f"second_chance_in_flip_three: 'set_aside' or 'keep', not {self.second_chance_in_flip_three!r}"
            )


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
            raise ScriptError(
                f"{player} must choose who gets {card} among {candidates}, but the script has no target left"
            )
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
        return tuple(c for c in self._cards[player] if type(c) is int)

    def modifiers(self, player: str) -> tuple[str, ...]:
        return tuple(c for c in self._cards[player] if type(c) is str)

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
