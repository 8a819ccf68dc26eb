"""Flip Flop: a rummy game with three pots (game, flip, flop).  Pure rules core.

No I/O, no drawing: players, dealt hands, plays and how each round ended in;
stakes, pots and rule breaks out.  The Flip Flop rulebook (an
Italian text with a garbled translation; where it is garbled its example
decides).  Readings, explained in ``docs/rules.md``:

* Cards: A 1 point, 2..10 their number, J Q K 10 each.  Rank order, low to
  high: A 2 3 … 10 J Q K (the ace is always low).
* Money is counted in *stakes* (one pay-in).  Before a round every player
  pays one stake into each of the three pots and keeps one more stake aside,
  the reserve (4 stakes in all).  Short of 4: with 3 stakes a player pays the
  game and flip pots and cannot win the flop; with 2 he pays the game pot only
  and can win neither flip nor flop; with 1 he pays it into the game pot (all
  in, no reserve); with 0 he is out of the game.
* Opening claims, before the first turn: a dealt hand worth 49 may be shown
  to take the game pot; 50 takes the game pot and every other player's
  reserve stake.  50 beats 49 (holders of 49 pay their reserve too); several
  equal claims share.  A claim ends the round.
* The up card (the dealer's last card, dealt face up) names the flip suit;
  the flop suit is the other suit of the same colour (♥↔♦, ♠↔♣).  The flip
  pot goes to the player holding the lowest card of the flip suit, the flop
  pot to the one holding the lowest card of the flop suit, among the players
  who paid into that pot, from the dealt hands.  When no such player holds
  the flop suit the flop pot stays; the next round's stakes then double it
  (``FlipFlopRules.kept_flop``: ``"add"``, the default, adds the usual
  stakes to the kept pot; ``"double"`` has every player pay his flop stake
  twice that round).  (The flip is always won while the dealer pays into it:
  he holds the up card.)
* Spreads: a run of three or more cards of one suit in rank order (no wrap:
  Q-K-A and K-A-2 are not runs) or a set of three or four cards of one rank.
  Cards may be laid off on any spread on the table, extending a run or
  making a set of three a set of four.
* The round ends by going out (empty hand: the game pot), a drop (the
  dropper shows his hand as the lowest: right, he takes the game pot; another
  hand equal or lower, that hand takes it and the dropper adds one stake to
  it), the stock running out (lowest hand takes the game pot), or a tunk out
  (the whole hand laid as two fresh three-card spreads: the game pot and
  every other player's reserve stake).
* Shared pots are split evenly; odd stakes stay in that pot for the next
  round (``FlipFlopRules.odd_stakes``: ``"stay"``, the default; or
  ``"dealer_left"``: one each to the tied winners nearest the dealer's
  left).  A player with no stakes after a round is out.  The game ends when
  the players stop or one player alone has stakes; most stakes wins.

Rule breaks never stop the game: each is recorded as a :class:`RuleBreak`
and the round is settled as logged as far as it can be.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Literal, Mapping, Sequence

from generator.core.cards import SUIT_SYMBOLS, Card

HAND_SIZE = 5
"""Cards dealt to each player."""
MIN_PLAYERS, MAX_PLAYERS = 3, 5
"""Players in a game."""
START_STAKES = 40
"""Default stakes per player: the rulebook's example pool of 20 dollars at 50 cents a stake."""
FULL_STAKES = 4
"""Stakes a player needs for a full round: game, flip and flop pots plus the reserve."""
POTS: tuple[str, ...] = ("game", "flip", "flop")
"""The three pots, in the order they are paid."""
FLOP_SUIT: dict[str, str] = {"H": "D", "D": "H", "S": "C", "C": "S"}
"""The flop suit for each flip suit: the other suit of the same colour."""
RANK_ORDER: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank labels from low to high (King high, ace low)."""
CLAIMS: tuple[int, ...] = (49, 50)
"""Opening hand values that may be claimed."""

EndKind = Literal["out", "drop", "stock", "tunk", "claim"]
END_KINDS: tuple[str, ...] = ("out", "drop", "stock", "tunk", "claim")
KeptFlop = Literal["add", "double"]
OddStakes = Literal["stay", "dealer_left"]


@dataclass(frozen=True)
class FlipFlopRules:
    """Options of the ruleset where the garbled rulebook allows two readings (defaults follow docs/rules.md).

    Attributes:
        kept_flop: how a flop pot kept from the round before is "doubled"
            the next round (*il piatto … viene raddoppiato al turno
            successivo*).  ``"add"`` (default): it stays and the usual flop
            stakes are added, which doubles it when the same players pay;
            ``"double"``: that round every player who pays into the flop pot
            pays two stakes into it — the second only when he still keeps his
            reserve (5 stakes or more).
        odd_stakes: what happens to the stakes left over when winners share a
            pot (*in parti uguali*, in equal parts).  ``"stay"`` (default): they
            stay in that pot for the next round; ``"dealer_left"``: one each
            to the tied winners, starting from the dealer's left.
    """

    kept_flop: KeptFlop = "add"
    odd_stakes: OddStakes = "stay"


def rank(card: Card) -> int:
    """Flip Flop rank of a card: A 1, 2..10, J 11, Q 12, K 13 (ace always low).

    >>> from generator.core.cards import parse_card
    >>> rank(parse_card("AS")), rank(parse_card("KS"))
    (1, 13)

    Raises:
        ValueError: a Joker (Flip Flop uses a 52-card deck).
    """
    if card.rank is None:
        raise ValueError("Flip Flop is played without Jokers")
    return 1 if card.rank == 14 else card.rank


def card_value(card: Card) -> int:
    """Points of a card in a hand: A 1, 2..10 their number, J Q K 10.

    Raises:
        ValueError: a Joker.
    """
    return min(rank(card), 10)


def hand_value(cards: Sequence[Card]) -> int:
    """Sum of the cards' points (an empty hand is worth 0).

    >>> from generator.core.cards import parse_card
    >>> hand_value([parse_card(c) for c in ("KS", "QH", "JD", "10C", "9S")])
    49
    """
    return sum(card_value(c) for c in cards)


def flop_suit(suit: str) -> str:
    """The flop suit for flip suit ``suit`` (``S H D C``): the other suit of the same colour.

    >>> flop_suit("H"), flop_suit("S")
    ('D', 'C')
    """
    return FLOP_SUIT[suit]


def label(card: Card) -> str:
    """A card as messages show it: ``Q♥``, ``10♠``."""
    return f"{card.rank_label}{SUIT_SYMBOLS.get(card.suit or '', '')}"


def lowest_of_suit(
    hands: Mapping[str, Sequence[Card]], suit: str, eligible: Sequence[str] | None = None
) -> tuple[str, Card] | None:
    """The player holding the lowest card of ``suit`` (and that card), among ``eligible`` (default: all).

    ``None`` when none of them holds the suit.
    """
    best: tuple[str, Card] | None = None
    for p, cards in hands.items():
        if eligible is not None and p not in eligible:
            continue
        for c in cards:
            if c.suit == suit and (best is None or rank(c) < rank(best[1])):
                best = (p, c)
    return best


# ---------------------------------------------------------------------------
# Stakes


@dataclass(frozen=True)
class PayIn:
    """What a player pays before a round and keeps aside, by his stakes.

    Attributes:
        game, flip: stakes paid into each pot (0 or 1).
        flop: stakes paid into the flop pot (0 or 1; 2 in a doubled round under
            ``FlipFlopRules(kept_flop="double")``).
        reserve: stakes kept aside for a 50 claim or a tunk out (0 or 1).
    """

    game: int
    flip: int
    flop: int
    reserve: int

    @property
    def total(self) -> int:
        """Stakes paid into the pots."""
        return self.game + self.flip + self.flop

    @property
    def all_in(self) -> bool:
        """True when the player has put his last stake in the game pot."""
        return self.reserve == 0 and self.game == 1


def pay_in(stakes: int, *, double_flop: bool = False) -> PayIn:
    """What a player with ``stakes`` pays (the rulebook's *Setup*).

    ``double_flop``: the round doubles a kept flop pot by stakes paid twice
    (``FlipFlopRules(kept_flop="double")``): a player with 5 stakes or more
    pays 2 into the flop pot; with fewer, as the table below.

    ======  ====  ====  ====  =======
    stakes  game  flip  flop  reserve
    ======  ====  ====  ====  =======
    4+      1     1     1     1
    3       1     1     0     1
    2       1     0     0     1
    1       1     0     0     0 (all in)
    0       out of the game
    ======  ====  ====  ====  =======

    Raises:
        ValueError: ``stakes`` < 1 (the player is out).
    """
    if stakes < 1:
        raise ValueError("a player without stakes is out of the game")
    if double_flop and stakes >= FULL_STAKES + 1:
        return PayIn(1, 1, 2, 1)
    if stakes >= FULL_STAKES:
        return PayIn(1, 1, 1, 1)
    if stakes == 3:
        return PayIn(1, 1, 0, 1)
    if stakes == 2:
        return PayIn(1, 0, 0, 1)
    return PayIn(1, 0, 0, 0)


def split(pot: int, winners: int) -> tuple[int, int]:
    """``(share each, stakes left in the pot)`` when ``winners`` share ``pot`` evenly.

    Raises:
        ValueError: ``winners`` < 1 or ``pot`` < 0.
    """
    if winners < 1 or pot < 0:
        raise ValueError("a pot of zero or more stakes is shared by one or more winners")
    return pot // winners, pot % winners


# ---------------------------------------------------------------------------
# Spreads


def spread_problem(cards: Sequence[Card]) -> str | None:
    """Why ``cards`` are not a spread, or ``None`` when they are one.

    A spread is a run (three or more cards of one suit in rank order, ace low,
    no wrap) or a set (three or four cards of one rank).

    >>> from generator.core.cards import parse_card
    >>> spread_problem([parse_card(c) for c in ("QS", "KS", "AS")])
    'Q♠ K♠ A♠ is not a run: the ace is low only, so a run cannot go round from K to A'
    """
    shown = " ".join(label(c) for c in cards)
    if any(c.rank is None for c in cards):
        return f"{shown}: Flip Flop is played without Jokers"
    if len(cards) < 3:
        return f"{shown} is {len(cards)} {'card' if len(cards) == 1 else 'cards'}; a spread needs at least three"
    if len(set(cards)) != len(cards):
        return f"{shown} holds the same card twice"
    ranks = [rank(c) for c in cards]
    suits = {c.suit for c in cards}
    if len(set(ranks)) == 1:
        if len(cards) > 4:  # pragma: no cover - needs a repeated card, caught above
            return f"{shown}: a set has at most four cards"
        return None
    if len(suits) != 1:
        return f"{shown} mixes suits and ranks; a run is one suit in sequence, a set is one rank"
    ordered = sorted(ranks)
    if ordered == list(range(ordered[0], ordered[0] + len(ordered))):
        return None
    if 1 in ordered and 13 in ordered:
        return f"{shown} is not a run: the ace is low only, so a run cannot go round from K to A"
    return f"{shown} is not a run: the ranks are not in sequence"


def spread_kind(cards: Sequence[Card]) -> Literal["run", "set"] | None:
    """``"run"``, ``"set"``, or ``None`` when ``cards`` are not a spread (see :func:`spread_problem`)."""
    if spread_problem(cards) is not None:
        return None
    return "set" if len({rank(c) for c in cards}) == 1 else "run"


def lay_off_problem(spread: Sequence[Card], cards: Sequence[Card]) -> str | None:
    """Why ``cards`` cannot be laid off on ``spread``, or ``None`` when they can.

    Laying off extends a run at either end in its suit, or completes a set of
    three to four; the spread stays the same kind.
    """
    kind = spread_kind(spread)
    if kind is None:
        return "the spread itself is not a valid spread"
    after = list(spread) + list(cards)
    if spread_kind(after) != kind:
        add = " ".join(label(c) for c in cards)
        what = "extend the run" if kind == "run" else "complete the set (a set has at most four cards)"
        return f"{add} does not {what} {' '.join(label(c) for c in spread)}"
    return None


# ---------------------------------------------------------------------------
# Input


@dataclass(frozen=True)
class Play:
    """A spread laid or cards laid off during the round.

    Attributes:
        player: who lays the cards.
        kind: ``"spread"`` (a new spread) or ``"layoff"`` (cards added to a spread on the table).
        cards: the cards laid.
        on: for a lay-off, the 1-based number of the spread (in the order spreads were laid this round).
        where: the caller's tag (copied into rule breaks).
    """

    player: str
    kind: Literal["spread", "layoff"]
    cards: tuple[Card, ...]
    on: int | None = None
    where: Hashable = None


@dataclass(frozen=True)
class End:
    """How the round ended.

    Attributes:
        kind: ``out``, ``drop``, ``stock``, ``tunk`` or ``claim``.
        players: ``out``/``drop``/``tunk``: the one player; ``claim``: the
            claimers; ``stock``: who drew the last card (may be empty).
        where: the caller's tag.
    """

    kind: EndKind
    players: tuple[str, ...] = ()
    where: Hashable = None


@dataclass(frozen=True)
class FlipFlopRound:
    """What the log says about one round.

    Attributes:
        hands: player → the five cards dealt (the up card in the dealer's).
        up: the dealer's face-up card.
        end: how the round ended.
        dealer: the dealer, or ``None`` for the usual one (the first player in
            round 1, then the next player to the left still in the game).
        plays: every spread and lay-off of the round in order, or ``None`` when not logged.
        final: player → hand at the end (cards, or just its value); needed for
            ``drop`` and ``stock``; may be ``None`` otherwise.
        where: tag of the round; ``hand_where``/``final_where``: per player;
        up_where, dealer_where: tags of those values.
    """

    hands: Mapping[str, tuple[Card, ...]]
    up: Card
    end: End
    dealer: str | None = None
    plays: tuple[Play, ...] | None = None
    final: Mapping[str, tuple[Card, ...] | int] | None = None
    where: Hashable = None
    hand_where: Mapping[str, Hashable] = field(default_factory=dict)
    final_where: Mapping[str, Hashable] = field(default_factory=dict)
    up_where: Hashable = None
    dealer_where: Hashable = None


@dataclass(frozen=True)
class RuleBreak:
    """A rule the log breaks: round (1-based), player (or ``None``), message, and the caller's tag."""

    round: int
    player: str | None
    message: str
    where: Hashable = None


# ---------------------------------------------------------------------------
# Rounds and games


@dataclass
class FlipFlopRoundResult:
    """What one round did.

    Attributes:
        round: 1-based number.
        dealer, up: as played.
        paid: player → :class:`PayIn` (players in the game this round).
        pots_in: pot → stakes carried in from the round before.
        pots: pot → stakes at settlement (carried + this round's pay-in + drop stake + reserves).
        flip, flop: ``(player, card)`` of the winner, or ``None`` (pot carried).
        flop_suit: the flop suit letter.
        won: player → stakes won this round, by pot (``{"Ann": {"flip": 4}}``).
        end: how the round ended (kind and players).
        game_winners: who took the game pot (empty: nobody; the pot stays).
        values: final hand values known from the log.
        reserves: player → reserve stakes paid to a 50 claim or a tunk out.
        penalty: player → extra stake paid for a wrong drop.
        carried: pot → stakes left for the next round.
        stakes: every player's stakes after the round (0 for players out).
        eliminated: players out of the game after this round.
        breaks: rule breaks of this round.
    """

    round: int
    dealer: str
    up: Card
    paid: dict[str, PayIn]
    pots_in: dict[str, int]
    pots: dict[str, int]
    flip: tuple[str, Card] | None
    flop: tuple[str, Card] | None
    flop_suit: str
    won: dict[str, dict[str, int]]
    end: End
    game_winners: list[str]
    values: dict[str, int]
    reserves: dict[str, int]
    penalty: dict[str, int]
    carried: dict[str, int]
    stakes: dict[str, int]
    eliminated: list[str]
    breaks: list[RuleBreak]


@dataclass
class FlipFlopGame:
    """A game (an evening) as far as the log goes.

    Attributes:
        players: seating order (the deal passes down this list).
        start: stakes each player started with.
        rules: the ruleset.
        rounds: every round played.
        stakes: every player's stakes now.
        pots: pot → stakes in it now.
        out: player → round after which he was out.
        breaks: every rule break, in log order.
    """

    players: list[str]
    start: int
    rules: FlipFlopRules = FlipFlopRules()
    rounds: list[FlipFlopRoundResult] = field(default_factory=list)
    stakes: dict[str, int] = field(default_factory=dict)
    pots: dict[str, int] = field(default_factory=lambda: {p: 0 for p in POTS})
    out: dict[str, int] = field(default_factory=dict)
    breaks: list[RuleBreak] = field(default_factory=list)
    last_dealer: str | None = None

    @property
    def active(self) -> list[str]:
        """Players still in the game (seating order)."""
        return [p for p in self.players if p not in self.out]

    @property
    def finished(self) -> bool:
        """True when at most one player has stakes left."""
        return len(self.active) <= 1

    @property
    def winners(self) -> list[str]:
        """Players with the most stakes (ties share)."""
        top = max(self.stakes.values(), default=0)
        return [p for p, s in self.stakes.items() if s == top]

    @property
    def total(self) -> int:
        """Stakes held by players plus the three pots (never changes during a game)."""
        return sum(self.stakes.values()) + sum(self.pots.values())


def new_game(players: Sequence[str], start: int = START_STAKES, rules: FlipFlopRules = FlipFlopRules()) -> FlipFlopGame:
    """An evening before round 1: every player holds ``start`` stakes, the pots are empty.

    Raises:
        ValueError: fewer than 3 or more than 5 players, a name twice, or ``start`` < 1.
    """
    players = list(players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"Flip Flop is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}")
    if len(set(players)) != len(players):
        raise ValueError("every player needs a different name")
    if start < 1:
        raise ValueError("players start with at least one stake")
    return FlipFlopGame(players, start, rules, stakes={p: start for p in players})


def next_dealer(game: FlipFlopGame) -> str:
    """The usual dealer of the next round: the first player, then the next one to the left still in the game."""
    if game.last_dealer is None:
        return game.active[0]
    i = game.players.index(game.last_dealer)
    n = len(game.players)
    for step in range(1, n + 1):
        p = game.players[(i + step) % n]
        if p not in game.out:
            return p
    return game.active[0]  # pragma: no cover


def play_round(game: FlipFlopGame, log: FlipFlopRound) -> FlipFlopRoundResult | None:
    """Play one logged round on ``game`` (mutated) and return what it did; ``None`` once the game is over.

    Order: pay-in by stakes; dealt hands checked; flip and flop settled from
    the dealt hands; plays checked (spreads and lay-offs); the game pot
    settled by the end; players without stakes out.
    """
    number = len(game.rounds) + 1
    breaks: list[RuleBreak] = []

    def brk(player: str | None, message: str, where: Hashable = None) -> None:
        breaks.append(RuleBreak(number, player, message, where if where is not None else log.where))

    if game.finished:
        game.breaks.append(
            RuleBreak(number, None, "the game is over (only one player has stakes); this round is ignored", log.where)
        )
        return None
    active = game.active
    # dealer
    usual = next_dealer(game)
    dealer = usual
    if log.dealer is not None:
        if log.dealer in game.out:
            brk(log.dealer, f"{log.dealer} is out of the game and cannot deal; {usual} deals", log.dealer_where)
        else:
            if log.dealer != usual and game.last_dealer is not None:
                brk(
                    log.dealer,
                    f"{log.dealer} deals, but the deal passes to the left: it is {usual}'s turn to deal",
                    log.dealer_where,
                )
            dealer = log.dealer
    # pay-in
    pots_in = dict(game.pots)
    paid: dict[str, PayIn] = {}
    double_flop = game.rules.kept_flop == "double" and game.pots["flop"] > 0
    for p in active:
        pi = pay_in(game.stakes[p], double_flop=double_flop)
        paid[p] = pi
        game.stakes[p] -= pi.total
        game.pots["game"] += pi.game
        game.pots["flip"] += pi.flip
        game.pots["flop"] += pi.flop
    # hands
    hands: dict[str, tuple[Card, ...]] = {}
    seen: dict[Card, str] = {}
    for p, cards in log.hands.items():
        where = log.hand_where.get(p)
        if p not in paid:
            brk(p, f"{p} is out of the game (no stakes since round {game.out.get(p, '?')}); the hand is ignored", where)
            continue
        if len(cards) != HAND_SIZE:
            brk(
                p,
                f"{p} was dealt {len(cards)} {'card' if len(cards) == 1 else 'cards'}; each player gets {HAND_SIZE}",
                where,
            )
        for c in cards:
            if c in seen:
                brk(p, f"{label(c)} is dealt to {p} and to {seen[c]}; a deck holds each card once", where)
            seen.setdefault(c, p)
        hands[p] = tuple(cards)
    for p in active:
        if p not in hands:
            brk(p, f"no hand for {p}, who is in the game; taken as holding nothing", log.where)
            hands[p] = ()
    if log.up not in hands.get(dealer, ()):
        brk(
            dealer,
            f"the up card {label(log.up)} is the dealer's last card, but it is not in {dealer}'s hand",
            log.up_where,
        )
    # flip and flop
    won: dict[str, dict[str, int]] = {}
    fsuit = log.up.suit or "S"
    psuit = flop_suit(fsuit)
    pots_at = dict(game.pots)
    flip = lowest_of_suit(hands, fsuit, [p for p in active if paid[p].flip])
    flop = lowest_of_suit(hands, psuit, [p for p in active if paid[p].flop])
    for pot, winner in (("flip", flip), ("flop", flop)):
        if winner is not None:
            amount = game.pots[pot]
            game.stakes[winner[0]] += amount
            won.setdefault(winner[0], {})[pot] = amount
            game.pots[pot] = 0
    # plays
    laid: dict[Card, str] = {}
    if log.plays is not None:
        _check_plays(log, active, laid, brk)
    # final hands
    values: dict[str, int] = {}
    in_hand: dict[Card, str] = {}
    for p, hand in (log.final or {}).items():
        where = log.final_where.get(p)
        if p not in paid:
            brk(p, f"{p} is out of the game; the final hand is ignored", where)
            continue
        if isinstance(hand, int):
            values[p] = hand
            continue
        values[p] = hand_value(hand)
        for c in hand:
            if c in in_hand:
                brk(p, f"{label(c)} is in {p}'s final hand and in {in_hand[c]}'s; a deck holds each card once", where)
            elif c in laid:
                brk(p, f"{label(c)} is in {p}'s final hand but was laid on the table by {laid[c]}", where)
            in_hand.setdefault(c, p)
    # the game pot
    reserves: dict[str, int] = {}
    penalty: dict[str, int] = {}
    game_winners = _settle_end(game, log, active, paid, hands, values, reserves, penalty, brk)
    game_winners = [p for p in game.players if p in game_winners]  # seating order
    values = {p: values[p] for p in game.players if p in values}
    pots_at["game"] += sum(reserves.values()) + sum(penalty.values())
    if game_winners:
        share, rest = split(game.pots["game"], len(game_winners))
        odd = _from_left_of(game.players, dealer, game_winners)[:rest] if game.rules.odd_stakes == "dealer_left" else []
        for w in game_winners:
            game.stakes[w] += share + (w in odd)
            won.setdefault(w, {})["game"] = share + (w in odd)
        game.pots["game"] = rest - len(odd)
    won = {p: won[p] for p in game.players if p in won}  # seating order
    eliminated = [p for p in active if game.stakes[p] == 0]
    for p in eliminated:
        game.out[p] = number
    game.last_dealer = dealer
    result = FlipFlopRoundResult(
        round=number,
        dealer=dealer,
        up=log.up,
        paid=paid,
        pots_in=pots_in,
        pots=pots_at,
        flip=flip,
        flop=flop,
        flop_suit=psuit,
        won=won,
        end=log.end,
        game_winners=game_winners,
        values=values,
        reserves=reserves,
        penalty=penalty,
        carried=dict(game.pots),
        stakes=dict(game.stakes),
        eliminated=eliminated,
        breaks=breaks,
    )
    game.rounds.append(result)
    game.breaks.extend(breaks)
    return result


def _check_plays(log: FlipFlopRound, active: Sequence[str], laid: dict[Card, str], brk) -> None:
    spreads: list[list[Card] | None] = []
    if log.end.kind == "claim" and log.plays:
        brk(
            log.plays[0].player,
            "a claim of 49 or 50 ends the round before the first turn, so no cards are laid; the plays are ignored",
            log.plays[0].where,
        )
        return
    for play in log.plays or ():
        p = play.player
        if p not in active:
            brk(p, f"{p} is out of the game and cannot lay cards; ignored", play.where)
            continue
        twice = [c for c in play.cards if c in laid]
        for c in twice:
            brk(p, f"{label(c)} is already on the table (laid by {laid[c]}); each card is laid once", play.where)
        for c in play.cards:
            laid.setdefault(c, p)
        if play.kind == "spread":
            why = spread_problem(play.cards)
            if why is not None:
                brk(p, f"not a spread: {why}", play.where)
                spreads.append(None)
            else:
                spreads.append(list(play.cards))
            continue
        n = play.on
        if n is None or not 1 <= n <= len(spreads):
            brk(
                p,
                f"{p} lays off on spread {n}, but {len(spreads)} "
                f"{'spread has' if len(spreads) == 1 else 'spreads have'} "
                "been laid so far this round (number spreads 1, 2, … in the order they were laid)",
                play.where,
            )
            continue
        target = spreads[n - 1]
        if target is None:
            brk(p, f"{p} lays off on spread {n}, which is not a valid spread", play.where)
            continue
        why = lay_off_problem(target, play.cards)
        if why is not None:
            brk(p, f"cannot lay off: {why}", play.where)
            continue
        target.extend(play.cards)


def _settle_end(
    game: FlipFlopGame,
    log: FlipFlopRound,
    active: Sequence[str],
    paid: Mapping[str, PayIn],
    hands: Mapping[str, tuple[Card, ...]],
    values: Mapping[str, int],
    reserves: dict[str, int],
    penalty: dict[str, int],
    brk,
) -> list[str]:
    """Settle the game pot by the round's end; reserve and drop stakes go into the game pot first."""
    end = log.end
    where = end.where
    for p in end.players:
        if p not in active:
            brk(p, f"{p} is out of the game and cannot end the round", where)
    players = [p for p in end.players if p in active]

    def collect_reserves(winners: Sequence[str]) -> None:
        for q in active:
            if q in winners or not paid[q].reserve or game.stakes[q] < 1:
                continue
            game.stakes[q] -= 1
            game.pots["game"] += 1
            reserves[q] = 1

    if end.kind == "claim":
        fifty, forty_nine = [], []
        for p in players:
            v = hand_value(hands.get(p, ()))
            if v == 50:
                fifty.append(p)
            elif v == 49:
                forty_nine.append(p)
            else:
                brk(
                    p,
                    f"{p} claims the opening hand, but it is worth {v}; only 49 or 50 may be claimed; the claim is "
                    "void (with no valid claim the game pot stays for the next round)",
                    where,
                )
        if fifty:
            collect_reserves(fifty)
            return fifty
        return forty_nine
    if end.kind in ("out", "tunk"):
        if not players:
            return []
        p = players[0]
        if p in values and values[p] != 0:
            brk(
                p,
                f"{p} goes out but the final hand is worth {values[p]}; going out means an empty hand",
                log.final_where.get(p, where),
            )
        tunk_ok = True
        if log.plays is not None:
            mine = [pl for pl in log.plays if pl.player == p]
            laid = sum(len(pl.cards) for pl in mine)
            if end.kind == "out" and laid not in (5, 6):
                brk(
                    p,
                    f"{p} goes out having laid {laid} {'card' if laid == 1 else 'cards'}; a player draws one card a "
                    "turn "
                    "and discards one, so going out lays 5 cards (then discards the last) or all 6",
                    where,
                )
            if end.kind == "tunk":
                last_two = list(log.plays[-2:])
                fresh = [
                    pl for pl in mine if pl.kind == "spread" and len(pl.cards) == 3 and spread_problem(pl.cards) is None
                ]
                if not (len(mine) == 2 and len(fresh) == 2 and last_two == mine):
                    brk(
                        p,
                        f"{p} does not tunk out: a tunk out lays the whole hand as two new three-card spreads in one "
                        "turn, with no other cards laid that round; paid as going out (game pot only)",
                        where,
                    )
                    tunk_ok = False
        if end.kind == "tunk" and tunk_ok:
            collect_reserves([p])
        return [p]
    # drop and stock need every hand's value
    missing = [p for p in active if p not in values]
    for p in missing:
        brk(
            p,
            f"the round ended by {'a drop' if end.kind == 'drop' else 'the stock running out'}, "
            f"but {p}'s final hand is not given; {p} cannot win it",
            where,
        )
    known = {p: v for p, v in values.items() if p in active}
    if end.kind == "stock":
        if not known:
            return []
        low = min(known.values())
        return [p for p, v in known.items() if v == low]
    # drop
    if not players:
        return []
    dropper = players[0]
    if dropper not in known:
        return []
    others = {p: v for p, v in known.items() if p != dropper}
    if not others or known[dropper] < min(others.values()):
        return [dropper]
    low = min(others.values())
    if game.stakes[dropper] >= 1:
        game.stakes[dropper] -= 1
        game.pots["game"] += 1
        penalty[dropper] = 1
    return [p for p, v in others.items() if v == low]


def _from_left_of(players: Sequence[str], dealer: str, chosen: Sequence[str]) -> list[str]:
    """``chosen`` in turn order starting from the player left of ``dealer`` (the dealer himself last)."""
    i = list(players).index(dealer)
    turn = list(players[i + 1 :]) + list(players[: i + 1])
    return [p for p in turn if p in chosen]


def play_game(
    players: Sequence[str],
    rounds: Sequence[FlipFlopRound],
    start: int = START_STAKES,
    rules: FlipFlopRules = FlipFlopRules(),
) -> FlipFlopGame:
    """Play every logged round from the start (see :func:`new_game`, :func:`play_round`).

    Raises:
        ValueError: as :func:`new_game`.
    """
    game = new_game(players, start, rules)
    for log in rounds:
        play_round(game, log)
    return game
