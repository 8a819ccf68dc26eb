"""All In (Fundex): the chip game of cards 1–13 against a dice roll.  Pure rules core.

No I/O, no drawing: players, rounds and actions in, chip counts, pots and
rule breaks out.  The All In (Fundex) rulebook; the readings are
explained in ``docs/rules.md``:

* Setup: every player has the cards 1..13 and 25 points of chips
  (1-1-2-2-2-2-5-5-5).  Chips are counted by value: making change from the
  pot is assumed, so a player's chips are one integer.
* A round: every player still in the game antes 1 point; the lead player
  chooses 1, 2 or 3 dice; everyone plays one card face down; the dice are
  rolled; betting starts with the lead and goes to the left.
* Betting: ``pass`` by a player who has matched the bet (everyone, before
  any bet; after an ALL IN hand-back, everyone brought down to it) means "no
  more from me": the player stays in the round.  ``pass`` by a player behind
  the bet drops him out of the round (his chips stay in the pot).  ``meet``
  puts in what the player lacks to match the bet, ``raise N`` meets and adds
  N, ``allin`` puts in every chip left.  A player the log skips in turn order
  has passed.
* ALL IN: a player whose chips reach 0 during a round is all in.  Nobody's
  stake in the round may then exceed his: whatever anyone put in above it is
  handed back at once, and later bets above it are handed back as well.
* Bet limit (``FundexRules.bet_limit``): ``"times"`` (default) — in round r
  each player may bet or raise at most r times ("once per player" in round
  1, "twice per player" in round 2, …); ``"points"`` — in round r the bet
  never exceeds r points; ``"none"`` — no limit.
* Opening (``FundexRules.lead_must_bet``): by default the lead may pass
  like anyone else; with the option, a lead who could bet and does not is a
  rule break.
* Cards and dice (``FundexRules.dice_limit_cards``): by default any unused
  card may be played whatever the dice; with the option, a card above the
  highest total of the dice chosen (7+ with one die, 13 with two) is a rule
  break while the player still has an unused card within that range.
* Showdown: if every other player dropped out after a bet, the last one in
  wins the pot whatever his card.  Otherwise, among the players still in, the
  highest card not above the roll wins; tied winners share the pot evenly and
  the odd chips stay in the pot; if every card is above the roll the whole pot
  stays for the next round.
* A card is used once per game; a player with no chips at the end of a round
  is out of the game; the lead passes to the left; the game lasts 10 rounds
  (or ends when fewer than two players are left); most chips wins, a tie is
  shared.  Chips left in the pot at the end belong to nobody.

Rule breaks never stop the game: each is recorded as a :class:`RuleBreak`
(round, player, message, and the caller's ``where`` tag) and the log's
action is applied as far as it can be (see :meth:`Betting.apply`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Literal, Mapping, Sequence

STARTING_CHIPS: tuple[int, ...] = (1, 1, 2, 2, 2, 2, 5, 5, 5)
"""The chips each player starts with (values): 25 points in nine chips."""
START_POINTS: int = sum(STARTING_CHIPS)
"""Points each player starts with: 25."""
CARDS: tuple[int, ...] = tuple(range(1, 14))
"""Each player's cards: 1..13."""
ANTE: int = 1
"""Points every player still in the game puts in the pot at the start of a round."""
ROUNDS: int = 10
"""Rounds in a game."""
MIN_PLAYERS, MAX_PLAYERS = 2, 4
"""Players in a game: the box holds four sets of cards."""
DICE: tuple[int, ...] = (1, 2, 3)
"""How many dice the lead player may choose to roll."""

BetLimit = Literal["times", "points", "none"]
ActionKind = Literal["bet", "raise", "meet", "pass", "allin"]
ACTION_KINDS: tuple[str, ...] = ("bet", "raise", "meet", "pass", "allin")


@dataclass(frozen=True)
class FundexRules:
    """Options of the ruleset (defaults follow docs/rules.md).

    Attributes:
        rounds: rounds in a game (the rulebook: 10).
        bet_limit: reading of "once per player; twice per player; etc." —
            ``"times"``: in round r each player may bet or raise at most r
            times; ``"points"``: in round r the bet (what each player must put
            in beyond the ante) may not exceed r points; ``"none"``: no limit.
        start: points each player starts with (the rulebook: 25).
        lead_must_bet: ``False`` (default): the lead may pass before any
            bet; ``True``: the lead's first action must be a bet whenever he
            can bet (chips left, no ALL IN at nothing, bet limit not reached).
            Reading of "the betting then begins with the lead player betting
            a chip or chips".
        dice_limit_cards: ``False`` (default): any unused card may be played;
            ``True``: a card above the dice's highest total (see
            :func:`possible_cards`) breaks the rules while the player holds an
            unused card within it.  Reading of "their choices will be limited
            to cards 1 through 6 in this example".
    """

    rounds: int = ROUNDS
    bet_limit: BetLimit = "times"
    start: int = START_POINTS
    lead_must_bet: bool = False
    dice_limit_cards: bool = False


def roll_range(dice: int) -> tuple[int, int]:
    """Lowest and highest total ``dice`` six-sided dice can show: ``(dice, 6 * dice)``.

    >>> roll_range(1), roll_range(2), roll_range(3)
    ((1, 6), (2, 12), (3, 18))

    Raises:
        ValueError: ``dice`` is not 1, 2 or 3.
    """
    if dice not in DICE:
        raise ValueError(f"the lead player rolls 1, 2 or 3 dice, not {dice!r}")
    return dice, 6 * dice


def possible_cards(dice: int) -> tuple[int, ...]:
    """The cards that can be right (closest without going over) once ``dice`` dice are chosen.

    A card can win when some roll is at least its value: cards 1 to the
    highest total, capped at 13 (rulebook play example: one die, cards 1–6;
    two dice, 1–12; three dice, 1–13).

    >>> possible_cards(1)
    (1, 2, 3, 4, 5, 6)
    >>> len(possible_cards(2)), len(possible_cards(3))
    (12, 13)

    Raises:
        ValueError: ``dice`` is not 1, 2 or 3.
    """
    _, high = roll_range(dice)
    return tuple(c for c in CARDS if c <= high)


def closest_without_going_over(cards: Mapping[str, int], roll: int) -> list[str]:
    """Players whose card is the highest one not above ``roll`` (ties: all of them, in mapping order).

    An empty list means every card is over the roll (the pot stays).

    >>> closest_without_going_over({"Ann": 5, "Bob": 2, "Cy": 6}, 5)
    ['Ann']
    >>> closest_without_going_over({"Ann": 7, "Bob": 9}, 5)
    []
    """
    under = [c for c in cards.values() if c <= roll]
    if not under:
        return []
    best = max(under)
    return [p for p, c in cards.items() if c == best]


def split_pot(pot: int, winners: int) -> tuple[int, int]:
    """Split ``pot`` evenly among ``winners``: ``(share each, odd chips left in the pot)``.

    >>> split_pot(9, 2)
    (4, 1)

    Raises:
        ValueError: ``winners`` < 1 or ``pot`` < 0.
    """
    if winners < 1 or pot < 0:
        raise ValueError("a pot of zero or more points is split among one or more winners")
    return pot // winners, pot % winners


def game_winners(chips: Mapping[str, int]) -> list[str]:
    """The players with the most points of chips (all of them on a tie), in mapping order."""
    if not chips:
        return []
    top = max(chips.values())
    return [p for p, c in chips.items() if c == top]


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` … for messages."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


# ---------------------------------------------------------------------------
# Input


@dataclass(frozen=True)
class Action:
    """One betting action of the log.

    Attributes:
        player: who acts.
        kind: ``bet`` (open with ``amount``), ``raise`` (meet and add
            ``amount``), ``meet``, ``pass``, ``allin`` (every chip left).
        amount: points for ``bet`` and ``raise`` (>= 1); 0 otherwise.
        where: the caller's tag for locating this action (e.g. a YAML path);
            copied into any :class:`RuleBreak` it causes.
    """

    player: str
    kind: ActionKind
    amount: int = 0
    where: Hashable = None


@dataclass(frozen=True)
class RoundLog:
    """What the log says about one round.

    Attributes:
        dice: dice the lead chose (1..3).
        roll: total rolled.
        cards: player → card played (1..13).
        actions: the betting, in order.
        where: tag of the round (for rule breaks about the round as a whole).
        card_where: player → tag of that player's card.
        roll_where: tag of the dice and roll (default: the round's).
    """

    dice: int
    roll: int
    cards: Mapping[str, int]
    actions: Sequence[Action] = ()
    where: Hashable = None
    card_where: Mapping[str, Hashable] = field(default_factory=dict)
    roll_where: Hashable = None


@dataclass(frozen=True)
class RuleBreak:
    """A rule the log breaks.

    Attributes:
        round: 1-based round number.
        player: the player concerned, or ``None`` for the round as a whole.
        message: what is wrong, in a sentence.
        where: the tag of the action, card or round that shows it.
    """

    round: int
    player: str | None
    message: str
    where: Hashable = None


# ---------------------------------------------------------------------------
# Betting


class Betting:
    """The betting of one round, applied action by action (after the antes).

    Args:
        order: players in the round, lead first, then to the left.
        chips: each player's chips after the ante.
        round_no: 1-based round number (sets the bet limit).
        rules: the ruleset.

    Attributes:
        chips: player → chips left in front of him.
        put: player → points put in the pot this round beyond the ante
            (after any hand-back).
        folded: players who dropped out of the round.
        handed_back: player → points handed back because of an ALL IN.
        breaks: messages ``(player, message, where)`` of rule breaks so far.
    """

    def __init__(self, order: Sequence[str], chips: Mapping[str, int], round_no: int, rules: FundexRules):
        self.order = list(order)
        self.chips = {p: chips[p] for p in self.order}
        self.put = {p: 0 for p in self.order}
        self.folded: set[str] = set()
        self.acted: set[str] = set()
        self.bets_made = {p: 0 for p in self.order}
        self.handed_back = {p: 0 for p in self.order}
        self.round_no = round_no
        self.rules = rules
        self.pointer = 0
        self.skipped: dict[str, str] = {}  # player who passed by being skipped -> who acted over him
        self.breaks: list[tuple[str | None, str, Hashable]] = []
        self.first_turn = True  # nobody has acted yet: the lead's opening turn is still to come
        self._hand_back()

    # --- state -------------------------------------------------------------
    @property
    def current(self) -> int:
        """The bet: the most any player has in the pot this round beyond the ante."""
        return max(self.put.values(), default=0)

    @property
    def all_in(self) -> list[str]:
        """Players still in the round with no chips left (lead order)."""
        return [p for p in self.order if self.chips[p] == 0 and p not in self.folded]

    @property
    def cap(self) -> int | None:
        """The most anyone may have in the pot beyond the ante: the smallest all-in stake, or ``None``."""
        stakes = [self.put[p] for p in self.all_in]
        return min(stakes) if stakes else None

    @property
    def in_round(self) -> list[str]:
        """Players who have not dropped out (lead order)."""
        return [p for p in self.order if p not in self.folded]

    def needs_to_act(self, player: str) -> bool:
        """True when ``player`` must still answer: in the round, with chips, and behind the bet or not yet heard since
        it."""
        if player in self.folded or self.chips[player] == 0:
            return False
        return self.put[player] < self.current or player not in self.acted

    def to_act(self) -> str | None:
        """Whose turn it is, or ``None`` when the betting is over."""
        n = len(self.order)
        for step in range(n):
            p = self.order[(self.pointer + step) % n]
            if self.needs_to_act(p):
                return p
        return None

    @property
    def over(self) -> bool:
        """True when nobody has to act any more."""
        return self.to_act() is None

    def legal_actions(self) -> list[Action]:
        """Legal actions of the player to act (amounts: every legal one), or ``[]`` when betting is over.

        Used by simulators and tests; the limits of ``rules.bet_limit`` are respected.
        """
        p = self.to_act()
        if p is None:
            return []
        need = self.current - self.put[p]
        chips = self.chips[p]
        may_raise = self._may_raise(p)
        room = self._room(p)
        if self._must_open(p):
            return [Action(p, "bet", n) for n in range(1, room + 1)]
        acts: list[Action] = [Action(p, "pass")]
        if self.current == 0:
            if may_raise:
                acts += [Action(p, "bet", n) for n in range(1, room + 1)]
        else:
            if chips >= need:
                acts.append(Action(p, "meet"))
            else:
                acts.append(Action(p, "allin"))
            if may_raise:
                acts += [Action(p, "raise", n) for n in range(1, room + 1)]
        return acts

    def _may_raise(self, p: str) -> bool:
        return not (self.rules.bet_limit == "times" and self.bets_made[p] >= self.round_no)

    def _room(self, p: str) -> int:
        """Points a bet or raise by ``p`` could add above the bet (his chips, the ALL IN cap, a points limit)."""
        room = self.chips[p] - (self.current - self.put[p])
        if self.cap is not None:
            room = min(room, self.cap - self.current)
        if self.rules.bet_limit == "points":
            room = min(room, self.round_no - self.current)
        return room

    def _must_open(self, p: str) -> bool:
        """True when ``p`` is the lead on his opening turn, the ruleset makes him bet, and he can."""
        return (
            self.rules.lead_must_bet
            and self.first_turn
            and p == self.order[0]
            and self.current == 0
            and self._may_raise(p)
            and self._room(p) >= 1
        )

    # --- applying ----------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Apply one logged action; rule breaks are appended to :attr:`breaks`.

        Players skipped between the player to act and ``action.player`` pass
        first.  What happens to actions that break a rule:

        * an action after the player dropped out (a second ``pass``
          included), any action while all in (``pass``, ``meet`` and
          ``allin`` included), or a bet or raise after the betting is over:
          reported and ignored.  Only a ``pass`` or ``meet`` by a player who
          is still in, has chips and has matched the bet is a harmless
          closing word, ignored silently;
        * with ``rules.lead_must_bet``, a lead who passes (or is skipped)
          on his opening turn although he could bet: reported, played as
          logged;
        * ``meet`` without enough chips: reported, played as ``allin``;
        * ``bet`` when a bet is already on the table: reported, played as
          ``raise``; ``raise`` with no bet: reported, played as ``bet``;
        * a bet or raise above the player's chips: reported, played as ``allin``;
        * a bet or raise over the limit: reported, applied as logged.
        """
        p = action.player
        if p not in self.put:
            self.breaks.append((p, f"{p} is not in this round and cannot bet", action.where))
            return
        if not self.needs_to_act(p):
            at_bet = p not in self.folded and self.chips[p] > 0 and self.put[p] == self.current
            if at_bet and action.kind in ("pass", "meet"):
                return  # a closing "pass" or "meet" by a player who owes nothing changes nothing
            self._refuse(p, action)
            return
        self._skip_to(p, action.where)
        if not self.needs_to_act(p):  # cannot happen: skipping others never changes p's duty
            self._refuse(p, action)
            return
        self._play(p, action)
        self.pointer = (self.order.index(p) + 1) % len(self.order)

    def finish(self) -> None:
        """End the betting: everyone who still had to answer passes (the log skipped them)."""
        while (p := self.to_act()) is not None:
            self._pass(p, None, "the log has no betting line for him")
            self.pointer = (self.order.index(p) + 1) % len(self.order)

    def _refuse(self, p: str, action: Action) -> None:
        what = _describe(action)
        if p in self.skipped:
            why = (
                f"{p} was skipped when {self.skipped[p]} acted, and a player the log skips has passed "
                f"(dropped out), so {p} cannot {what}; list actions in turn order"
            )
        elif p in self.folded:
            why = f"{p} already passed (dropped out) in this round, so cannot {what}"
        elif self.chips[p] == 0:
            why = f"{p} is all in (no chips left) and has nothing more to decide this round, so cannot {what}"
        elif self.over:
            why = f"the betting is over (everyone still in has met the bet of {self.current}), so {p} cannot {what}"
        else:
            why = (
                f"it is {self.to_act()}'s turn and {p} has nothing to answer (already at the bet of "
                f"{self.current}), so {p} cannot {what} now"
            )
        self.breaks.append((p, why + "; the action is ignored", action.where))

    def _skip_to(self, p: str, where: Hashable = None) -> None:
        n = len(self.order)
        for step in range(n):
            q = self.order[(self.pointer + step) % n]
            if q == p:
                break
            if self.needs_to_act(q):
                self._pass(q, where, f"the log goes on with {p} and skips him")
                if q in self.folded:
                    self.skipped[q] = p
        self.pointer = self.order.index(p)

    def _pass(self, p: str, where: Hashable = None, how: str = "he passes") -> None:
        """``p`` passes: he stays in when he has matched the bet (no bet yet, or brought down to an ALL IN),
        and drops out of the round when he is behind it."""
        if self._must_open(p):
            self.breaks.append(
                (
                    p,
                    f"{p} leads, and under the ruleset option lead_must_bet the lead opens the "
                    f"betting with a bet of 1 point or more, but {how}; played as logged (no bet)",
                    where,
                )
            )
        self.first_turn = False
        if self.put[p] >= self.current:
            self.acted.add(p)  # nothing owed: "no bet" (or no more), the player stays in
        else:
            self.folded.add(p)

    def _play(self, p: str, action: Action) -> None:
        kind, amount, where = action.kind, action.amount, action.where
        need = self.current - self.put[p]
        chips = self.chips[p]
        if kind == "pass":
            self._pass(p, where)
            return
        if kind == "meet" and self.current == 0:
            self._pass(p, where, "he says 'meet' with no bet to meet")  # nothing to meet: same as passing
            return
        self.first_turn = False
        if kind == "bet" and self.current > 0:
            self.breaks.append(
                (
                    p,
                    f"{p} bets {amount} but a bet of {self.current} is already on the table; "
                    f"played as 'raise {amount}' (write 'raise N' or 'meet')",
                    where,
                )
            )
            kind = "raise"
        elif kind == "raise" and self.current == 0:
            self.breaks.append((p, f"{p} raises {amount} but nobody has bet yet; played as 'bet {amount}'", where))
            kind = "bet"
        if kind == "meet":
            if chips < need:
                self.breaks.append(
                    (
                        p,
                        f"{p} cannot meet the bet (needs {need}, has {chips}); "
                        "a player short of chips says ALL IN; played as 'allin'",
                        where,
                    )
                )
                kind = "allin"
            else:
                self._put(p, need)
                return
        if kind == "allin":
            raising = chips > need
            if raising:
                self._count_raise(p, self.put[p] + chips, where)
            self._put(p, chips)
            return
        # bet or raise
        target = need + amount
        if target > chips:
            self.breaks.append(
                (
                    p,
                    f"{p} {'bets' if kind == 'bet' else 'raises'} {amount} but has only {chips} "
                    f"{'chip' if chips == 1 else 'chips'}{f' after meeting {need}' if need else ''}; "
                    "played as 'allin'",
                    where,
                )
            )
            target = chips
        self._count_raise(p, self.put[p] + target, where)
        self._put(p, target)

    def _count_raise(self, p: str, new_stake: int, where: Hashable) -> None:
        self.bets_made[p] += 1
        r = self.round_no
        if self.rules.bet_limit == "times" and self.bets_made[p] > r:
            times = {1: "once", 2: "twice"}.get(r, f"{r} times")
            self.breaks.append(
                (
                    p,
                    f"{p} bets or raises for the {ordinal(self.bets_made[p])} time in round {r}; "
                    f"in round {r} each player may bet or raise {times} at most (bet limit: once per "
                    "player in round 1, twice in round 2, …)",
                    where,
                )
            )
        if self.rules.bet_limit == "points" and new_stake > r:
            self.breaks.append(
                (
                    p,
                    f"{p} takes the bet to {new_stake} points; in round {r} the bet may not exceed {r} "
                    f"{'point' if r == 1 else 'points'}",
                    where,
                )
            )

    def _put(self, p: str, points: int) -> None:
        before = self.current
        self.chips[p] -= points
        self.put[p] += points
        self._hand_back()
        if self.current > before:
            self.acted = {p}
        else:
            self.acted.add(p)

    def _hand_back(self) -> None:
        cap = self.cap
        if cap is None:
            return
        for q in self.order:
            extra = self.put[q] - cap
            if extra > 0:
                self.put[q] -= extra
                self.chips[q] += extra
                self.handed_back[q] += extra


def _describe(action: Action) -> str:
    if action.kind in ("bet", "raise"):
        return f"{action.kind} {action.amount}"
    return {"meet": "meet the bet", "pass": "pass", "allin": "go all in"}[action.kind]


# ---------------------------------------------------------------------------
# Rounds and games


@dataclass
class RoundResult:
    """What one round did.

    Attributes:
        round: 1-based number.
        lead: the lead player.
        dice, roll: as logged.
        cards: player → card, for the players in the round (seating order, as every mapping here).
        bets: player → points put in beyond the ante (after hand-backs).
        handed_back: player → points handed back because of an ALL IN (non-zero only).
        passed: players who dropped out after a bet.
        all_in: players all in at the end of the betting.
        pot_in: the pot carried in from the round before.
        pot: the pot at the showdown (carried + antes + bets).
        winners: who takes the pot, seating order (empty: everyone over, the pot stays).
        lone_bettor: True when the winner won because everyone else dropped out.
        won: winner → points won.
        carried: the pot left for the next round.
        chips: every player's chips after the round (0 for players out).
        eliminated: players who went out of the game this round.
        breaks: rule breaks of this round.
    """

    round: int
    lead: str
    dice: int
    roll: int
    cards: dict[str, int]
    bets: dict[str, int]
    handed_back: dict[str, int]
    passed: list[str]
    all_in: list[str]
    pot_in: int
    pot: int
    winners: list[str]
    lone_bettor: bool
    won: dict[str, int]
    carried: int
    chips: dict[str, int]
    eliminated: list[str]
    breaks: list[RuleBreak]


@dataclass
class FundexGame:
    """A game as far as the log goes.

    Attributes:
        players: seating order (play passes to the left, i.e. down this list).
        rules: the ruleset.
        rounds: every round played.
        chips: chips of every player now.
        pot: points in the pot now.
        out: player → round in which he went out of the game.
        finished: the game is over (all rounds played, or fewer than two players left).
        breaks: every rule break, in log order.
    """

    players: list[str]
    rules: FundexRules
    rounds: list[RoundResult] = field(default_factory=list)
    chips: dict[str, int] = field(default_factory=dict)
    pot: int = 0
    out: dict[str, int] = field(default_factory=dict)
    finished: bool = False
    breaks: list[RuleBreak] = field(default_factory=list)
    used: dict[str, set[int]] = field(default_factory=dict)
    last_lead: str | None = None

    @property
    def active(self) -> list[str]:
        """Players still in the game (seating order)."""
        return [p for p in self.players if p not in self.out]

    @property
    def winners(self) -> list[str]:
        """Most chips when the game is over (ties share); ``[]`` while it goes on."""
        return game_winners(self.chips) if self.finished else []

    @property
    def total(self) -> int:
        """Chips in front of players plus the pot (never changes during a game)."""
        return sum(self.chips.values()) + self.pot


def new_game(players: Sequence[str], rules: FundexRules = FundexRules()) -> FundexGame:
    """A game before round 1: every player has ``rules.start`` points (25), the pot is empty.

    Raises:
        ValueError: fewer than 2 or more than 4 players, or a name twice.
    """
    players = list(players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"All In (Fundex) is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}")
    if len(set(players)) != len(players):
        raise ValueError("every player needs a different name")
    return FundexGame(players, rules, chips={p: rules.start for p in players}, used={p: set() for p in players})


def next_lead(game: FundexGame) -> str:
    """Who leads the next round: the first player, then the next player still in the game to the left."""
    active = game.active
    if game.last_lead is None:
        return active[0]
    i = game.players.index(game.last_lead)
    n = len(game.players)
    for step in range(1, n + 1):
        p = game.players[(i + step) % n]
        if p not in game.out:
            return p
    return active[0]  # pragma: no cover - there is always someone


def play_round(game: FundexGame, log: RoundLog) -> RoundResult | None:
    """Play one logged round on ``game`` (mutated in place) and return what it did.

    Returns ``None`` (and records a rule break) when the game is already over.
    The steps: ante 1 from each player in the game, cards checked (each card
    once per game), betting (:class:`Betting`), showdown, pot paid or kept,
    players without chips out of the game.
    """
    number = len(game.rounds) + 1
    breaks: list[RuleBreak] = []

    def brk(player: str | None, message: str, where: Hashable = None) -> None:
        breaks.append(RuleBreak(number, player, message, where if where is not None else log.where))

    if game.finished:
        why = (
            f"all {game.rules.rounds} rounds have been played"
            if len(game.rounds) >= game.rules.rounds
            else "fewer than two players have chips"
        )
        game.breaks.append(RuleBreak(number, None, f"the game is over ({why}); this round is ignored", log.where))
        return None
    lead = next_lead(game)
    order = _from(game.players, lead, game.out)
    pot_in = game.pot
    # ante
    for p in order:
        game.chips[p] -= ANTE
        game.pot += ANTE
    # dice and roll
    if log.dice not in DICE:
        brk(lead, f"{lead} chose {log.dice} dice; the lead rolls 1, 2 or 3", log.roll_where)
    else:
        low, high = roll_range(log.dice)
        if not low <= log.roll <= high:
            brk(
                lead,
                f"a roll of {log.roll} is impossible with {log.dice} {'die' if log.dice == 1 else 'dice'} "
                f"({low} to {high}); the roll is taken as logged",
                log.roll_where,
            )
    # cards
    cards: dict[str, int] = {}
    for p, card in log.cards.items():
        where = log.card_where.get(p)
        if p in game.out:
            brk(p, f"{p} has been out of the game since round {game.out[p]}; the card is ignored", where)
            continue
        if p not in game.chips:
            brk(p, f"{p} is not a player of this game; the card is ignored", where)
            continue
        if card not in CARDS:
            brk(p, f"{p} plays {card!r}; the cards are 1 to 13; taken as no card", where)
            continue
        if card in game.used[p]:
            brk(
                p,
                f"{p} plays the {card} again; each card is played once per game "
                f"(used so far: {', '.join(str(c) for c in sorted(game.used[p]))})",
                where,
            )
        if game.rules.dice_limit_cards and log.dice in DICE:
            allowed = possible_cards(log.dice)
            left = [c for c in allowed if c not in game.used[p]]
            if card not in allowed and left:
                dice = f"{log.dice} {'die' if log.dice == 1 else 'dice'}"
                brk(
                    p,
                    f"{p} plays the {card} with {dice} chosen; under the ruleset option dice_limit_cards only cards "
                    f"1 to {allowed[-1]} may be played then, and {p} still has "
                    f"{', '.join(str(c) for c in left)}; the card is taken as logged",
                    where,
                )
        cards[p] = card
        game.used[p].add(card)
    missing = [p for p in order if p not in cards]
    for p in missing:
        brk(p, f"no card for {p}, who is still in the game; {p} is taken to have passed this round")
    # betting
    betting = Betting(order, {p: game.chips[p] for p in order}, number, game.rules)
    betting.folded.update(missing)
    for action in log.actions:
        if action.player in game.out:
            brk(
                action.player,
                f"{action.player} has been out of the game since round {game.out[action.player]} "
                "and cannot bet; the action is ignored",
                action.where,
            )
            continue
        betting.apply(action)
    betting.finish()
    for player, message, where in betting.breaks:
        brk(player, message, where)
    for p in order:
        game.chips[p] = betting.chips[p]
        game.pot += betting.put[p]
    pot = game.pot
    # showdown
    still_in = [p for p in game.players if p in betting.in_round]  # seating order
    lone = len(still_in) == 1 and len(order) > 1
    if lone:
        winners = still_in
    else:
        winners = closest_without_going_over({p: cards[p] for p in still_in}, log.roll)
    won: dict[str, int] = {}
    if winners:
        share, rest = split_pot(game.pot, len(winners))
        for w in winners:
            game.chips[w] += share
            won[w] = share
        game.pot = rest
    # eliminations and end of game
    eliminated = [p for p in game.players if p in order and game.chips[p] == 0]
    for p in eliminated:
        game.out[p] = number
    game.last_lead = lead
    seated = [p for p in game.players if p in order]
    result = RoundResult(
        round=number,
        lead=lead,
        dice=log.dice,
        roll=log.roll,
        cards={p: cards[p] for p in seated if p in cards},
        bets={p: betting.put[p] for p in seated},
        handed_back={p: betting.handed_back[p] for p in seated if betting.handed_back[p]},
        passed=[p for p in seated if p in betting.folded],
        all_in=[p for p in seated if p in betting.all_in],
        pot_in=pot_in,
        pot=pot,
        winners=winners,
        lone_bettor=lone,
        won=won,
        carried=game.pot,
        chips=dict(game.chips),
        eliminated=eliminated,
        breaks=breaks,
    )
    game.rounds.append(result)
    game.breaks.extend(breaks)
    if len(game.rounds) >= game.rules.rounds or len(game.active) < 2:
        game.finished = True
    return result


def play_game(players: Sequence[str], rounds: Sequence[RoundLog], rules: FundexRules = FundexRules()) -> FundexGame:
    """Play every logged round from the start (see :func:`new_game`, :func:`play_round`).

    Raises:
        ValueError: as :func:`new_game`.
    """
    game = new_game(players, rules)
    for log in rounds:
        play_round(game, log)
    return game


def _from(players: Sequence[str], first: str, out: Mapping[str, int]) -> list[str]:
    i = list(players).index(first)
    rotated = list(players[i:]) + list(players[:i])
    return [p for p in rotated if p not in out]
