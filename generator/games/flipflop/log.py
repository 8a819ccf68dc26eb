"""Flip Flop round logs: reading them (located errors), playing them through the rules core, reports.

```yaml
game: flipflop
players: [Ann, Bob, Cy, Dee]     # seating order; the deal passes down the list
start: 40                        # stakes each player starts with (optional, default 40)
rules: {kept_flop: add, odd_stakes: stay}   # optional readings (docs/rules.md); these are the defaults
rounds:
  - dealer: Ann                  # optional: round 1's dealer (default the first player); later rounds: checked
    up: QH                       # the dealer's face-up card
    hands:                       # the five cards dealt to each player
      Ann: [QH, 3S, 7D, 9C, KC]
      ...
    plays:                       # optional: every spread and lay-off of the round, in order
      - Bob spread 5H 6H 7H
      - Cy layoff 8H on 1        # on spread number 1 of this round
    end: drop Cy                 # out P | drop P | stock [P] | tunk P | claim P [P …]
    final: {Ann: [3S, 9C], Bob: 4, Cy: [AD], Dee: [2C, 2S]}   # cards or a value; needed for drop and stock
    flip: Bob                    # optional ledger entries, checked: flip and flop winners ('none' if kept),
    flop: none
    stakes: {Ann: 36, Bob: 41, Cy: 38, Dee: 36}   # stakes after the round,
    pots: {game: 0, flip: 0, flop: 4}             # and the pots left
```

The full format and the JSON report are in ``docs/formats.md``.
Structural errors raise :class:`~generator.core.errors.InputError` with
``FILE:LINE:COL``; rule breaks of a readable log are problems with round,
player and position, and the evening goes on as logged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from generator.core.cards import Card, CardCodeError, parse_card
from generator.core.errors import InputError, Problem
from generator.core.models import StrictModel
from generator.core.roundlog import LedgerDrift, located, name_problem, problem_dict, ranking, read_log_header, what
from generator.core.validation import NumberError, ascii_number, looks_numeric
from generator.core.yamlpos import Document, PathKey, load_yaml, shown
from generator.games.flipflop.rules import (
    END_KINDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    POTS,
    START_STAKES,
    End,
    FlipFlopGame,
    FlipFlopRound,
    FlipFlopRules,
    Play,
    label,
    play_game,
)

MAX_HAND_VALUE = 60
"""Highest value a hand can have (six ten-point cards in the middle of a turn)."""


class FlipFlopRoundSpec(StrictModel):
    dealer: str | None = None
    up: Any
    hands: dict[str, Any]
    plays: list[Any] | None = None
    end: str
    final: dict[str, Any] | None = None
    flip: str | None = None
    flop: str | None = None
    stakes: dict[str, Any] | None = None
    pots: dict[str, Any] | None = None


class FlipFlopRulesSpec(StrictModel):
    kept_flop: Literal["add", "double"] = "add"
    odd_stakes: Literal["stay", "dealer_left"] = "stay"


class FlipFlopLogSpec(StrictModel):
    """The YAML of a Flip Flop round log, as written (shape only; names and cards are checked after)."""

    game: str
    players: list[str]
    start: int = Field(default=START_STAKES, strict=True, ge=1, le=100_000)
    rules: FlipFlopRulesSpec = FlipFlopRulesSpec()
    rounds: list[dict[str, Any]]


@dataclass(frozen=True)
class LedgerRow:
    """What the paper ledger says about one round (every entry optional; compared with the game).

    ``flip``/``flop``: the winner written, ``""`` for "none" (pot kept), ``None`` when not written.
    """

    flip: str | None = None
    flop: str | None = None
    stakes: dict[str, int] = field(default_factory=dict)
    pots: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class FlipFlopLog:
    """A readable Flip Flop round log.

    Attributes:
        file: the file name as messages show it.
        doc: the parsed YAML (positions).
        players: seating order.
        start: stakes each player starts with.
        rules: the ruleset (``rules:`` of the file).
        rounds: the rounds for :func:`generator.games.flipflop.rules.play_game`
            (``where`` tags are document paths, or ``(path, offset)``).
        ledger: per round, the optional ledger entries.
    """

    file: str
    doc: Document
    players: list[str]
    start: int
    rules: FlipFlopRules
    rounds: list[FlipFlopRound]
    ledger: list[LedgerRow]


def load_flipflop_log(path: str | Path, *, display: str | None = None) -> FlipFlopLog:
    """Read a Flip Flop round log (``game: flipflop``).

    Raises:
        InputError: every structural problem, each ``FILE:LINE:COL``: bad YAML,
            unknown key, wrong type, ``game`` not ``flipflop``, fewer than 3 or
            more than 5 players or a bad name, an unknown player, an unknown
            card (Jokers included), a play that is not ``P spread C C C…`` or
            ``P layoff C… on N``, an ``end`` that is not ``out P``, ``drop P``,
            ``stock [P]``, ``tunk P`` or ``claim P…``, a drop or stock end
            without ``final:``.
    """
    doc = load_yaml(path, display=display or str(path))
    return flipflop_log_from_document(doc, path)


def flipflop_log_from_document(doc: Document, path: str | Path | None = None) -> FlipFlopLog:
    """Check a parsed log (see :func:`load_flipflop_log`; the CLI dispatches here on ``game: flipflop``).

    ``path`` is the file the document came from (accepted for the dispatcher; messages use ``doc.file``).

    Raises:
        InputError: as :func:`load_flipflop_log`.
    """
    spec, specs, players = read_log_header(
        doc, FlipFlopLogSpec, FlipFlopRoundSpec, "flipflop", MIN_PLAYERS, MAX_PLAYERS, "Flip Flop"
    )
    problems: list[Problem] = []
    reader = _Reader(doc, players, problems)
    rounds: list[FlipFlopRound] = []
    ledger: list[LedgerRow] = []
    for i, rnd in enumerate(specs):
        got = reader.round(i, rnd)
        if got is not None:
            rounds.append(got[0])
            ledger.append(got[1])
    if problems:
        raise InputError(problems)
    rules = FlipFlopRules(kept_flop=spec.rules.kept_flop, odd_stakes=spec.rules.odd_stakes)
    return FlipFlopLog(doc.file, doc, players, spec.start, rules, rounds, ledger)


class _Reader:
    def __init__(self, doc: Document, players: list[str], problems: list[Problem]):
        self.doc, self.players, self.problems = doc, players, problems

    def err(self, path: PathKey, message: str, offset: int | None = None, *, key: bool = False) -> None:
        self.problems.append(located(self.doc, path, message, offset, key=key))

    def player(self, path: PathKey, name: Any, offset: int | None = None, *, key: bool = False) -> str | None:
        if isinstance(name, str) and name in self.players:
            return name
        self.err(path, name_problem(str(name), self.players), offset, key=key)
        return None

    def card(self, path: PathKey, text: Any, offset: int | None = None) -> Card | None:
        try:
            card = parse_card(str(text) if isinstance(text, (int, str)) and not isinstance(text, bool) else text)
        except CardCodeError as exc:
            self.err(path, f"unknown card: {exc}", offset)
            return None
        if card.is_joker:
            self.err(path, "unknown card 'JK': Flip Flop uses a 52-card deck without Jokers", offset)
            return None
        return card

    def cards(self, path: PathKey, items: Any) -> tuple[Card, ...] | None:
        if not isinstance(items, list):
            self.err(path, f"a hand is a list of card codes such as [QH, 3S, 7D], not {what(items)}")
            return None
        out = [self.card(path + (j,), c) for j, c in enumerate(items)]
        cards = [c for c in out if c is not None]
        return tuple(cards) if len(cards) == len(out) else None

    def round(self, i: int, rnd: FlipFlopRoundSpec) -> tuple[FlipFlopRound, LedgerRow] | None:
        base: PathKey = ("rounds", i)
        bad = len(self.problems)
        dealer = self.player(base + ("dealer",), rnd.dealer) if rnd.dealer is not None else None
        up = self.card(base + ("up",), rnd.up)
        hands: dict[str, tuple[Card, ...]] = {}
        hand_where: dict[str, Any] = {}
        for name, items in rnd.hands.items():
            if self.player(base + ("hands", name), name, key=True) is None:
                continue
            got = self.cards(base + ("hands", name), items)
            if got is not None:
                hands[name] = got
                hand_where[name] = base + ("hands", name)
        plays = None
        if rnd.plays is not None:
            plays = tuple(
                p for j, line in enumerate(rnd.plays) if (p := self.play(base + ("plays", j), line)) is not None
            )
        end = self.end(base + ("end",), rnd.end)
        final: dict[str, tuple[Card, ...] | int] | None = None
        final_where: dict[str, Any] = {}
        if rnd.final is not None:
            final = {}
            for name, hand in rnd.final.items():
                path = base + ("final", name)
                if self.player(path, name, key=True) is None:
                    continue
                if isinstance(hand, int) and not isinstance(hand, bool):
                    if not 0 <= hand <= MAX_HAND_VALUE:
                        self.err(path, f"a hand is worth 0 to {MAX_HAND_VALUE} points, not {hand}")
                        continue
                    final[name] = hand
                else:
                    got = self.cards(path, hand)
                    if got is None:
                        continue
                    final[name] = got
                final_where[name] = path
        if end is not None and end.kind in ("drop", "stock") and rnd.final is None:
            self.err(
                base + ("end",),
                f"a round ended by {'a drop' if end.kind == 'drop' else 'the stock running out'} "
                "is won by the lowest hand: add 'final:' with every player's hand at the end "
                "(cards, or its value), e.g. final: {Ann: [3S, 9C], Bob: 4}",
            )
        ledger = self.ledger(base, rnd)
        if len(self.problems) > bad or up is None or end is None:
            return None
        return (
            FlipFlopRound(
                hands, up, end, dealer, plays, final, base, hand_where, final_where, base + ("up",), base + ("dealer",)
            ),
            ledger,
        )

    def play(self, path: PathKey, line: Any) -> Play | None:
        usage = "write 'PLAYER spread 5H 6H 7H' or 'PLAYER layoff 8H on 1' (1: the first spread laid this round)"
        if not isinstance(line, str):
            self.err(path, f"a play is text such as 'Bob spread 5H 6H 7H', not {what(line)}")
            return None
        tokens = [(m.group(), m.start()) for m in re.finditer(r"[^\s,]+", line)]
        if len(tokens) < 3:
            self.err(path, f"play {shown(line)} is not understood; {usage}")
            return None
        name = self.player(path, tokens[0][0], tokens[0][1])
        verb, verb_at = tokens[1][0].lower().replace("-", "").replace("_", ""), tokens[1][1]
        if verb not in ("spread", "layoff"):
            self.err(path, f"unknown play {shown(tokens[1][0])}; {usage}", verb_at)
            return None
        on = None
        card_tokens = tokens[2:]
        if verb == "layoff":
            if len(tokens) < 5 or tokens[-2][0].lower() != "on" or not looks_numeric(tokens[-1][0]):
                self.err(
                    path, f"a lay-off names the spread it goes on: '{tokens[0][0]} layoff 8H on 1'; {usage}", verb_at
                )
                return None
            try:
                on = ascii_number(tokens[-1][0])
            except NumberError as exc:
                self.err(path, f"the spread number after 'on': {exc}", tokens[-1][1])
                return None
            if on < 1:
                self.err(
                    path,
                    f"spreads are numbered 1, 2, … in the order they were laid this round, not {on}",
                    tokens[-1][1],
                )
                return None
            card_tokens = tokens[2:-2]
        cards = [self.card(path, t, at) for t, at in card_tokens]
        if name is None or any(c is None for c in cards):
            return None
        return Play(name, verb, tuple(cards), on, (path, 0))  # type: ignore[arg-type]

    def end(self, path: PathKey, text: str) -> End | None:
        usage = (
            "write 'out Bob', 'drop Cy', 'stock' (or 'stock Ann'), 'tunk Bob' or 'claim Bob' (several: 'claim Bob Cy')"
        )
        tokens = [(m.group(), m.start()) for m in re.finditer(r"[^\s,]+", text)]
        if not tokens:
            self.err(path, f"'end' says how the round ended; {usage}")
            return None
        kind = tokens[0][0].lower()
        if kind not in END_KINDS:
            self.err(path, f"unknown end {shown(tokens[0][0])}; {usage}", 0)
            return None
        names = [self.player(path, t, at) for t, at in tokens[1:]]
        if any(n is None for n in names):
            return None
        count = len(names)
        if kind in ("out", "drop", "tunk") and count != 1:
            self.err(path, f"'{kind}' names the one player who ended the round, e.g. '{kind} {self.players[0]}'", 0)
            return None
        if kind == "stock" and count > 1:
            self.err(path, "'stock' names at most the player who drew the last card, e.g. 'stock Ann'", 0)
            return None
        if kind == "claim" and count < 1:
            self.err(path, f"'claim' names the player(s) showing 49 or 50, e.g. 'claim {self.players[0]}'", 0)
            return None
        return End(kind, tuple(names), (path, 0))  # type: ignore[arg-type]

    def ledger(self, base: PathKey, rnd: FlipFlopRoundSpec) -> LedgerRow:
        flip = flop = None
        for key in ("flip", "flop"):
            value = getattr(rnd, key)
            if value is None:
                continue
            if value.lower() == "none":
                value = ""
            elif self.player(base + (key,), value) is None:
                continue
            if key == "flip":
                flip = value
            else:
                flop = value
        stakes: dict[str, int] = {}
        for name, v in (rnd.stakes or {}).items():
            if self.player(base + ("stakes", name), name, key=True) is None:
                continue
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                self.err(base + ("stakes", name), f"stakes of {name} must be a whole number (0 or more), not {what(v)}")
                continue
            stakes[name] = v
        pots: dict[str, int] = {}
        for name, v in (rnd.pots or {}).items():
            if name not in POTS:
                self.err(
                    base + ("pots", name), f"unknown pot {shown(name)}; the pots are game, flip and flop", key=True
                )
                continue
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                self.err(base + ("pots", name), f"the {name} pot must be a whole number of stakes, not {what(v)}")
                continue
            pots[name] = v
        return LedgerRow(flip, flop, stakes, pots)


# ---------------------------------------------------------------------------
# Report


def play_flipflop_log(log: FlipFlopLog) -> FlipFlopGame:
    """Play the log through the rules core (:func:`generator.games.flipflop.rules.play_game`)."""
    return play_game(log.players, log.rounds, log.start, log.rules)


def flipflop_report(log: FlipFlopLog) -> dict:
    """The ``sheetsmith verify --json`` report of a Flip Flop log (docs/formats.md).

    Shape::

        {"game": "flipflop", "file": str, "players": [str], "start": int, "rules": {"kept_flop", "odd_stakes"},
         "rounds": [{"round", "dealer", "up", "flip_suit", "flop_suit", "paid", "pots_in", "pots",
                     "flip", "flop", "end", "values", "game_winners", "won", "reserves",
                     "penalty", "carried", "stakes", "eliminated"}],
         "stakes": {player: int}, "pots": {"game", "flip", "flop"}, "total": int,
         "eliminated": {player: round}, "status": "finished" | "stopped",
         "ranking": [{"place", "player", "stakes", "out_in_round", "winner"}],
         "winners": [str], "problems": [{"round", "player", "message", "at", "line", "col"}]}

    Problems are the core's rule breaks plus every ledger entry (``flip``,
    ``flop``, ``stakes``, ``pots``) that differs from the game, ordered by round.
    """
    game = play_flipflop_log(log)
    doc = log.doc
    problems = [problem_dict(doc, b.round, b.player, b.message, b.where) for b in game.breaks]
    off = LedgerDrift()
    for res in game.rounds:
        i = res.round - 1
        row = log.ledger[i]
        for pot, got in (("flip", res.flip), ("flop", res.flop)):
            written = row.flip if pot == "flip" else row.flop
            real = got[0] if got else ""
            if written is not None and written != real:
                said = written or "nobody"
                why = f"{got[0]} holds {label(got[1])}" if got else "no player in that pot holds the suit"
                problems.append(
                    problem_dict(
                        doc,
                        res.round,
                        written or None,
                        f"the ledger gives the {pot} pot to {said}, but {why}",
                        ("rounds", i, pot),
                    )
                )
        for p, stakes in row.stakes.items():
            real_stakes = res.stakes[p]
            if off.new(p, stakes - real_stakes, res.round):
                problems.append(
                    problem_dict(
                        doc,
                        res.round,
                        p,
                        f"the ledger gives {p} {stakes} "
                        f"{'stake' if stakes == 1 else 'stakes'} after round {res.round}, "
                        f"but the round leaves {real_stakes}{off.note}",
                        ("rounds", i, "stakes", p),
                    )
                )
        for pot, in_pot in row.pots.items():
            if off.new(f"pot:{pot}", in_pot - res.carried[pot], res.round):
                problems.append(
                    problem_dict(
                        doc,
                        res.round,
                        None,
                        f"the ledger leaves {in_pot} in the {pot} pot "
                        f"after round {res.round}, but the round leaves {res.carried[pot]}{off.note}",
                        ("rounds", i, "pots", pot),
                    )
                )
    problems.sort(key=lambda pr: (pr["round"], pr["line"], pr["col"]))
    winners = game.winners
    return {
        "game": "flipflop",
        "file": log.file,
        "players": list(log.players),
        "start": log.start,
        "rules": {"kept_flop": log.rules.kept_flop, "odd_stakes": log.rules.odd_stakes},
        "rounds": [
            {
                "round": r.round,
                "dealer": r.dealer,
                "up": r.up.code,
                "flip_suit": r.up.suit,
                "flop_suit": r.flop_suit,
                "paid": {
                    p: {"game": pi.game, "flip": pi.flip, "flop": pi.flop, "reserve": pi.reserve}
                    for p, pi in r.paid.items()
                },
                "pots_in": r.pots_in,
                "pots": r.pots,
                "flip": _pot_winner(r, "flip"),
                "flop": _pot_winner(r, "flop"),
                "end": {"kind": r.end.kind, "players": list(r.end.players)},
                "values": r.values,
                "game_winners": r.game_winners,
                "won": r.won,
                "reserves": r.reserves,
                "penalty": r.penalty,
                "carried": r.carried,
                "stakes": r.stakes,
                "eliminated": r.eliminated,
            }
            for r in game.rounds
        ],
        "stakes": dict(game.stakes),
        "pots": dict(game.pots),
        "total": game.total,
        "eliminated": dict(game.out),
        "status": "finished" if game.finished else "stopped",
        "ranking": ranking(game.stakes, game.out, winners, "stakes"),
        "winners": winners,
        "problems": problems,
    }


def _pot_winner(r, pot: str) -> dict | None:
    got = r.flip if pot == "flip" else r.flop
    if got is None:
        return None
    return {"player": got[0], "card": got[1].code, "won": r.won.get(got[0], {}).get(pot, 0)}
