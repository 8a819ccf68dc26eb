"""All In (Fundex) round logs: reading them (located errors), playing them through the rules core, reports.

```yaml
game: fundex
players: [Ann, Bob, Cy]          # seating order; the first leads round 1, play passes down the list
rules: {bet_limit: times}        # optional: times (default) | points | none; also lead_must_bet, dice_limit_cards
rounds:
  - dice: 1
    roll: 5
    cards: {Ann: 5, Bob: 2, Cy: 6}
    betting: [Ann bet 2, Bob meet, Cy pass]   # optional; a skipped player passed
    chips: {Ann: 27, Bob: 22, Cy: 24}         # optional: the ledger's counts after the round, checked
    pot: 0                                    # optional: the pot left after the round, checked
```

The full format and the JSON report are in ``docs/formats.md``.
Structural errors (bad YAML, an unknown key, player, card or betting word, a
wrong type) raise :class:`~generator.core.errors.InputError` with ``FILE:LINE:COL``;
rule breaks of a readable log are reported as problems (round, player,
message, position) and the game goes on as logged (see
:mod:`generator.games.fundex.rules`).

The helpers it shares with the Flip Flop log are in :mod:`generator.core.roundlog`;
the tables ``verify`` prints are the command line's (:mod:`generator.cli.tables`).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Sequence

from pydantic import Field

from generator.core.errors import InputError, Problem
from generator.core.models import StrictModel
from generator.core.roundlog import LedgerDrift, located, name_problem, problem_dict, ranking, read_log_header, what
from generator.core.validation import NumberError, ascii_number, looks_numeric
from generator.core.yamlpos import Document, PathKey, load_yaml, shown
from generator.games.fundex.rules import (
    ACTION_KINDS,
    CARDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Action,
    FundexGame,
    FundexRules,
    RoundLog,
    play_game,
)

# ---------------------------------------------------------------------------
# Shared helpers (also used by flipflop_log)


# ---------------------------------------------------------------------------
# Schema


class FundexRulesSpec(StrictModel):
    bet_limit: Literal["times", "points", "none"] = "times"
    lead_must_bet: bool = Field(default=False, strict=True)
    dice_limit_cards: bool = Field(default=False, strict=True)


class FundexRoundSpec(StrictModel):
    dice: int = Field(strict=True, ge=1, le=3)
    roll: int = Field(strict=True, ge=1, le=18)
    cards: dict[str, Any]
    betting: list[Any] = []
    chips: dict[str, Any] | None = None
    pot: int | None = Field(default=None, strict=True, ge=0)


class FundexLogSpec(StrictModel):
    """The YAML of an All In (Fundex) round log, as written (shape only; names and cards are checked after)."""

    game: str
    players: list[str]
    rules: FundexRulesSpec = FundexRulesSpec()
    rounds: list[dict[str, Any]]


@dataclass(frozen=True)
class LedgerRow:
    """What the paper ledger says after one round (optional; compared with the game)."""

    chips: dict[str, int] = field(default_factory=dict)
    pot: int | None = None


@dataclass(frozen=True)
class FundexLog:
    """A readable All In (Fundex) round log.

    Attributes:
        file: the file name as messages show it.
        doc: the parsed YAML (positions of every value).
        players: seating order.
        rules: the ruleset (``rules:`` of the file).
        rounds: the rounds for :func:`generator.games.fundex.rules.play_game`; every
            ``where`` is a document path, or ``(path, character offset)``.
        ledger: per round, the chips and pot written on the ledger (may be empty).
    """

    file: str
    doc: Document
    players: list[str]
    rules: FundexRules
    rounds: list[RoundLog]
    ledger: list[LedgerRow]


def load_fundex_log(path: str | Path, *, display: str | None = None) -> FundexLog:
    """Read an All In (Fundex) round log (``game: fundex``).

    Args:
        path: the YAML file.
        display: how to name the file in messages (default: the path as given).

    Raises:
        InputError: every structural problem, each ``FILE:LINE:COL``: bad YAML,
            unknown key, wrong type, ``game`` not ``fundex``, fewer than 2 or
            more than 4 players or a bad name, an unknown player, a card that
            is not 1..13, a betting line that is not ``PLAYER bet|raise N`` or
            ``PLAYER meet|pass|allin``.
    """
    doc = load_yaml(path, display=display or str(path))
    return fundex_log_from_document(doc, path)


def fundex_log_from_document(doc: Document, path: str | Path | None = None) -> FundexLog:
    """Check a parsed log (see :func:`load_fundex_log`; the CLI dispatches here on ``game: fundex``).

    ``path`` is the file the document came from (accepted for the dispatcher; messages use ``doc.file``).

    Raises:
        InputError: as :func:`load_fundex_log`.
    """
    spec, specs, players = read_log_header(
        doc, FundexLogSpec, FundexRoundSpec, "fundex", MIN_PLAYERS, MAX_PLAYERS, "All In (Fundex)"
    )
    problems: list[Problem] = []
    rounds: list[RoundLog] = []
    ledger: list[LedgerRow] = []
    for i, rnd in enumerate(specs):
        base = ("rounds", i)
        cards: dict[str, int] = {}
        card_where: dict[str, Any] = {}
        for name, card in rnd.cards.items():
            if name not in players:
                problems.append(doc.problem(base + ("cards", name), name_problem(name, players), key=True))
                continue
            if isinstance(card, str) and looks_numeric(card):
                try:
                    number: int | None = ascii_number(card.strip(), limit=2)
                except NumberError:
                    number = None
                if number in CARDS:
                    problems.append(
                        doc.problem(
                            base + ("cards", name),
                            f"the card of {name} is a number: write {number} without quotes, not {what(card)}",
                        )
                    )
                else:
                    problems.append(
                        doc.problem(
                            base + ("cards", name),
                            f"unknown card {what(card)} for {name}; All In "
                            "cards are the numbers 1 to 13, written with the digits 0-9",
                        )
                    )
                continue
            if isinstance(card, bool) or not isinstance(card, int) or card not in CARDS:
                problems.append(
                    doc.problem(
                        base + ("cards", name),
                        f"unknown card {what(card)} for {name}; All In cards are the numbers 1 to 13",
                    )
                )
                continue
            cards[name] = card
            card_where[name] = base + ("cards", name)
        actions = []
        for j, line in enumerate(rnd.betting):
            act = _parse_action(doc, base + ("betting", j), line, players, problems)
            if act is not None:
                actions.append(act)
        written: dict[str, int] = {}
        for name, chips in (rnd.chips or {}).items():
            if name not in players:
                problems.append(doc.problem(base + ("chips", name), name_problem(name, players), key=True))
            elif isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
                problems.append(
                    doc.problem(
                        base + ("chips", name),
                        f"chips of {name} must be a whole number of points (0 or more), not {what(chips)}",
                    )
                )
            else:
                written[name] = chips
        rounds.append(RoundLog(rnd.dice, rnd.roll, cards, tuple(actions), base, card_where, base + ("roll",)))
        ledger.append(LedgerRow(written, rnd.pot))
    if problems:
        raise InputError(problems)
    rules = FundexRules(
        bet_limit=spec.rules.bet_limit,
        lead_must_bet=spec.rules.lead_must_bet,
        dice_limit_cards=spec.rules.dice_limit_cards,
    )
    return FundexLog(doc.file, doc, players, rules, rounds, ledger)


_SYNONYMS = {"all-in": "allin", "all_in": "allin"}


def _parse_action(
    doc: Document, path: PathKey, line: Any, players: Sequence[str], problems: list[Problem]
) -> Action | None:
    usage = "write 'PLAYER bet N', 'PLAYER raise N', 'PLAYER meet', 'PLAYER pass' or 'PLAYER allin'"
    if not isinstance(line, str):
        problems.append(doc.problem(path, f"a betting line is text such as 'Ann bet 2', not {what(line)}"))
        return None
    tokens = [(m.group(), m.start()) for m in re.finditer(r"\S+", line)]
    if len(tokens) >= 3 and tokens[-2][0].lower() == "all" and tokens[-1][0].lower() == "in":
        tokens = tokens[:-2] + [("allin", tokens[-2][1])]
    if len(tokens) < 2:
        problems.append(located(doc, path, f"betting line {shown(line)} needs a player and an action; {usage}"))
        return None
    (name, _), (verb_text, verb_at), *rest = tokens
    if len(rest) > 1:
        problems.append(located(doc, path, f"betting line {shown(line)} is not understood; {usage}"))
        return None
    verb = _SYNONYMS.get(verb_text.lower(), verb_text.lower())
    if name not in players:
        problems.append(located(doc, path, name_problem(name, players), 0))
        return None
    if verb not in ACTION_KINDS:
        poker = {"call": "meet", "check": "pass", "fold": "pass", "see": "meet"}
        close = [poker[verb]] if verb in poker else difflib.get_close_matches(verb, list(ACTION_KINDS), n=1, cutoff=0.6)
        hint = f"did you mean '{close[0]}'?" if close else usage
        problems.append(located(doc, path, f"unknown betting word {shown(verb_text)}; {hint}", verb_at))
        return None
    if verb not in ("bet", "raise"):
        if rest:
            said = (
                f"'{verb}' takes no number"
                if looks_numeric(rest[0][0])
                else f"betting line {shown(line)} is not understood"
            )
            problems.append(located(doc, path, f"{said}; write '{name} {verb}'", verb_at))
            return None
        return Action(name, verb, 0, (path, 0))  # type: ignore[arg-type]
    if not rest:
        problems.append(located(doc, path, f"'{verb}' needs the number of points: '{name} {verb} 2'", verb_at))
        return None
    text, at = rest[0]
    try:
        amount = ascii_number(text)
    except NumberError as exc:
        problems.append(located(doc, path, f"the points of '{name} {verb}': {exc}", at))
        return None
    if amount < 1:
        problems.append(located(doc, path, f"{name} {verb}s {amount}; a {verb} is 1 point or more", verb_at))
        return None
    return Action(name, verb, amount, (path, 0))  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# Report


def play_fundex_log(log: FundexLog) -> FundexGame:
    """Play the log through the rules core (:func:`generator.games.fundex.rules.play_game`)."""
    return play_game(log.players, log.rounds, log.rules)


def fundex_report(log: FundexLog) -> dict:
    """The ``sheetsmith verify --json`` report of an All In (Fundex) log (docs/formats.md).

    Shape::

        {"game": "fundex", "file": str, "players": [str], "rules": {"rounds", "bet_limit", "start", "lead_must_bet",
        "dice_limit_cards"},
         "rounds": [{"round", "lead", "dice", "roll", "cards", "bets", "handed_back",
                     "passed", "all_in", "pot_in", "pot", "winners", "lone_bettor",
                     "won", "carried", "chips", "eliminated"}],
         "chips": {player: int}, "pot": int, "total": int,
         "eliminated": {player: round}, "status": "finished" | "in_progress",
         "ranking": [{"place", "player", "chips", "out_in_round", "winner"}],
         "winners": [str], "problems": [{"round", "player", "message", "at", "line", "col"}]}

    Problems are the core's rule breaks plus every ledger count (``chips:``,
    ``pot:``) that differs from the game, ordered by round.
    """
    game = play_fundex_log(log)
    doc = log.doc
    problems = [problem_dict(doc, b.round, b.player, b.message, b.where) for b in game.breaks]
    off = LedgerDrift()
    for res in game.rounds:
        i = res.round - 1
        row = log.ledger[i]
        for p, written in row.chips.items():
            real = res.chips[p]
            if off.new(p, written - real, res.round):
                problems.append(
                    problem_dict(
                        doc,
                        res.round,
                        p,
                        f"the ledger gives {p} {written} "
                        f"{'point' if written == 1 else 'points'} of chips after round {res.round}, "
                        f"but the round leaves {real}{off.note}",
                        ("rounds", i, "chips", p),
                    )
                )
        if row.pot is not None and off.new("pot", row.pot - res.carried, res.round):
            problems.append(
                problem_dict(
                    doc,
                    res.round,
                    None,
                    f"the ledger leaves {row.pot} in the pot after round "
                    f"{res.round}, but the round leaves {res.carried}{off.note}",
                    ("rounds", i, "pot"),
                )
            )
    problems.sort(key=lambda pr: (pr["round"], pr["line"], pr["col"]))
    return {
        "game": "fundex",
        "file": log.file,
        "players": list(log.players),
        "rules": {
            "rounds": log.rules.rounds,
            "bet_limit": log.rules.bet_limit,
            "start": log.rules.start,
            "lead_must_bet": log.rules.lead_must_bet,
            "dice_limit_cards": log.rules.dice_limit_cards,
        },
        "rounds": [
            {
                "round": r.round,
                "lead": r.lead,
                "dice": r.dice,
                "roll": r.roll,
                "cards": r.cards,
                "bets": r.bets,
                "handed_back": r.handed_back,
                "passed": r.passed,
                "all_in": r.all_in,
                "pot_in": r.pot_in,
                "pot": r.pot,
                "winners": r.winners,
                "lone_bettor": r.lone_bettor,
                "won": r.won,
                "carried": r.carried,
                "chips": r.chips,
                "eliminated": r.eliminated,
            }
            for r in game.rounds
        ],
        "chips": dict(game.chips),
        "pot": game.pot,
        "total": game.total,
        "eliminated": dict(game.out),
        "status": "finished" if game.finished else "in_progress",
        "ranking": ranking(game.chips, game.out, game.winners, "chips"),
        "winners": game.winners,
        "problems": problems,
    }
