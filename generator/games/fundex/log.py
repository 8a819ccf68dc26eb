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

The helpers :func:`token_pos`, :func:`located`, :func:`name_problem`,
:func:`ranking` and :func:`problem_dict` are shared with :mod:`generator.games.flipflop.log`.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Mapping, Sequence

import yaml
from pydantic import Field, ValidationError
from rich.console import Console
from rich.table import Table
from rich.text import Text

from generator.core.errors import InputError, Problem
from generator.core.models import StrictModel, pydantic_problems, validate
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
from generator.core.validation import MAX_DIGITS, NumberError, ascii_number, cap_repeats, for_terminal, looks_numeric, message_shape  # noqa: F401  (one rule for every reader; re-exported)
from generator.core.yamlpos import Document, PathKey, Pos, load_yaml, shown

NAME = re.compile(r"[^\s,]{1,24}")
"""A player name: one word of 1 to 24 characters (no spaces or commas), since names start betting lines."""

# ---------------------------------------------------------------------------
# Shared helpers (also used by flipflop_log)


def token_pos(doc: Document, path: PathKey, offset: int) -> Pos:
    """File position of character ``offset`` inside the one-line scalar at ``path``.

    Exact for plain and quoted scalars written on one line (quotes skipped);
    otherwise the scalar's own position.
    """
    node = doc.nodes.get(tuple(path))
    base = doc.pos(path)
    if isinstance(node, yaml.ScalarNode) and node.start_mark.line == node.end_mark.line:
        if node.style is None:
            return Pos(base.line, base.col + offset)
        if node.style in ("'", '"'):
            return Pos(base.line, base.col + 1 + offset)
    return base


def located(doc: Document, path: PathKey, message: str, offset: int | None = None, *, key: bool = False) -> Problem:
    """A :class:`Problem` at ``path`` (at character ``offset`` of its scalar when given)."""
    if offset is None:
        return doc.problem(path, message, key=key)
    at = token_pos(doc, path, offset)
    return Problem(doc.file, at.line, at.col, message)


def name_problem(word: str, players: Sequence[str]) -> str:
    """'unknown player' message for ``word``, with a did-you-mean or the list of players."""
    close = difflib.get_close_matches(word, list(players), n=1, cutoff=0.6)
    hint = f"did you mean '{close[0]}'?" if close else f"the players are {', '.join(players)}"
    return f"unknown player {shown(word)}; {hint}"


def check_players(doc: Document, names: Sequence[str], low: int, high: int, game: str) -> list[Problem]:
    """Problems of the ``players:`` list: count within ``low..high``, one-word names, no repeats."""
    problems: list[Problem] = []
    if not low <= len(names) <= high:
        problems.append(doc.problem(("players",), f"{game} is for {low} to {high} players; {len(names)} are listed"))
    seen: set[str] = set()
    for i, name in enumerate(names):
        if not NAME.fullmatch(name):
            problems.append(doc.problem(("players", i), f"player name {shown(name)} must be one word of 1 to 24 "
                                        "characters, without spaces or commas (it starts lines like 'Ann bet 2')"))
        if name in seen:
            problems.append(doc.problem(("players", i), f"player '{name}' is listed twice; give each player their own name"))
        seen.add(name)
    return problems


def what(value: Any) -> str:
    """A YAML value as a message shows it: text quoted, ``true``/``false``, numbers as written, 'a list', 'a mapping'."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return shown(str(value))


def validate_rounds(doc: Document, rounds: Sequence[Any], model: type[StrictModel]) -> list[Any]:
    """Validate each item of ``rounds:`` against ``model`` (so an unknown key gets a did-you-mean).

    Raises:
        InputError: every problem of every round, located.
    """
    out: list[Any] = []
    problems: list[Problem] = []
    for i, item in enumerate(rounds):
        try:
            out.append(model.model_validate(item))
        except ValidationError as exc:
            problems.extend(pydantic_problems(exc, doc, prefix=("rounds", i), model=model))
    if problems:
        raise InputError(problems)
    return out


def where_text(doc: Document, where: Any) -> tuple[str, int, int]:
    """``(\"FILE:LINE:COL\", line, col)`` of a rule break's ``where`` (a document path, or ``(path, offset)``)."""
    if isinstance(where, tuple) and len(where) == 2 and isinstance(where[0], tuple) and isinstance(where[1], int):
        at = token_pos(doc, where[0], where[1])
    elif isinstance(where, tuple):
        at = doc.pos(where)
    else:
        at = Pos(0, 0)
    return (f"{doc.file}:{at.line}:{at.col}" if at.line else doc.file), at.line, at.col


def problem_dict(doc: Document, round_no: int, player: str | None, message: str, where: Any) -> dict:
    """A report's problem entry: ``{"round", "player", "message", "at", "line", "col"}``."""
    at, line, col = where_text(doc, where)
    return {"round": round_no, "player": player, "message": message, "at": at, "line": line, "col": col}


def ranking(amounts: Mapping[str, int], out: Mapping[str, int], winners: Sequence[str], unit: str) -> list[dict]:
    """Players ordered by ``amounts`` (highest first; equal amounts share a place).

    Each entry: ``{"place", "player", unit, "out_in_round", "winner"}``; ``out_in_round`` is ``None`` for
    players still in the game.
    """
    ordered = sorted(amounts, key=lambda p: -amounts[p])
    rows: list[dict] = []
    place, last = 0, None
    for i, p in enumerate(ordered, start=1):
        if amounts[p] != last:
            place, last = i, amounts[p]
        rows.append({"place": place, "player": p, unit: amounts[p], "out_in_round": out.get(p), "winner": p in winners})
    return rows


def print_problems(problems: Sequence[dict], console: Console) -> None:
    """Print a report's problems, one per line: ``FILE:LINE:COL: round N, Player: message``."""
    if not problems:
        console.print(Text("No rule broken.", style="green"))
        return
    console.print(Text(f"{len(problems)} rule {'break' if len(problems) == 1 else 'breaks'}:", style="bold red"))
    shown_, more = cap_repeats(list(problems), lambda pr: message_shape(pr["message"]))  # a few of each kind
    extra = {id(pr): n for pr, n in more}
    for pr in shown_:
        who = f", {pr['player']}" if pr.get("player") else ""
        console.print(for_terminal(f"{pr['at']}: round {pr['round']}{who}: {pr['message']}"), markup=False, highlight=False, soft_wrap=True)
        if id(pr) in extra:
            console.print(f"… and {extra[id(pr)]:,} more like this", markup=False, highlight=False)


def print_ranking(report: Mapping[str, Any], unit: str, console: Console) -> None:
    """The closing ranking table of a report (place, player, ``unit``, note)."""
    table = Table(title="Ranking", title_justify="left")
    for col, just in (("#", "right"), ("player", "left"), (unit, "right"), ("", "left")):
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    shared = len(report["winners"]) > 1
    for row in report["ranking"]:
        note = ""
        if row["winner"]:
            note = "shared win" if shared else "winner"
        elif row["out_in_round"] is not None:
            note = f"out in round {row['out_in_round']}"
        table.add_row(str(row["place"]), row["player"], str(row[unit]), Text(note, style="bold" if row["winner"] else "dim"))
    console.print(table)


# ---------------------------------------------------------------------------
# Schema


class _Rules(StrictModel):
    bet_limit: Literal["times", "points", "none"] = "times"
    lead_must_bet: bool = Field(default=False, strict=True)
    dice_limit_cards: bool = Field(default=False, strict=True)


class _Round(StrictModel):
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
    rules: _Rules = _Rules()
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


class LedgerDrift:
    """Report a ledger count only where it starts to differ from the game, or differs anew.

    One slip on a paper ledger carries into every later round; the later rows
    that are off by the same amount are not reported again.
    """

    def __init__(self) -> None:
        self.offset: dict[str, tuple[int, int]] = {}
        self.note = ""

    def new(self, key: str, diff: int, round_no: int) -> bool:
        """True when ``diff`` (written − real) for ``key`` is nonzero and not the one already reported."""
        before = self.offset.get(key, (0, 0))
        if diff == before[0]:
            return False
        self.offset[key] = (diff, round_no)
        if diff == 0:
            return False
        self.note = f" (the ledger was already {before[0]:+d} off since round {before[1]})" if before[0] else ""
        return True


def read_log_header(doc: Document, spec_model, round_model, game: str, low: int, high: int, label: str):
    """The checks every round log starts with: the schema, at least one round, each round's keys, ``game:``, the players.

    Returns:
        ``(spec, round_specs, players)``.

    Raises:
        InputError: located problems.
    """
    spec = validate(spec_model, doc)
    if not spec.rounds:
        raise InputError([doc.problem(("rounds",), "no rounds: list at least one round under 'rounds:'")])
    specs = validate_rounds(doc, spec.rounds, round_model)
    if spec.game != game:
        raise InputError([doc.problem(("game",), f"this is a log of game {shown(spec.game)}; expected '{game}'")])
    players = list(spec.players)
    problems = check_players(doc, players, low, high, label)
    if problems:
        raise InputError(problems)
    return spec, specs, players


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
    spec, specs, players = read_log_header(doc, FundexLogSpec, _Round, "fundex", MIN_PLAYERS, MAX_PLAYERS, "All In (Fundex)")
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
                    problems.append(doc.problem(base + ("cards", name), f"the card of {name} is a number: write {number} "
                                                f"without quotes, not {what(card)}"))
                else:
                    problems.append(doc.problem(base + ("cards", name), f"unknown card {what(card)} for {name}; All In "
                                                "cards are the numbers 1 to 13, written with the digits 0-9"))
                continue
            if isinstance(card, bool) or not isinstance(card, int) or card not in CARDS:
                problems.append(doc.problem(base + ("cards", name), f"unknown card {what(card)} for {name}; "
                                            "All In cards are the numbers 1 to 13"))
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
                problems.append(doc.problem(base + ("chips", name), f"chips of {name} must be a whole number of points "
                                            f"(0 or more), not {what(chips)}"))
            else:
                written[name] = chips
        rounds.append(RoundLog(rnd.dice, rnd.roll, cards, tuple(actions), base, card_where, base + ("roll",)))
        ledger.append(LedgerRow(written, rnd.pot))
    if problems:
        raise InputError(problems)
    rules = FundexRules(bet_limit=spec.rules.bet_limit, lead_must_bet=spec.rules.lead_must_bet,
                        dice_limit_cards=spec.rules.dice_limit_cards)
    return FundexLog(doc.file, doc, players, rules, rounds, ledger)


_SYNONYMS = {"all-in": "allin", "all_in": "allin"}


def _parse_action(doc: Document, path: PathKey, line: Any, players: Sequence[str], problems: list[Problem]) -> Action | None:
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
            said = (f"'{verb}' takes no number" if looks_numeric(rest[0][0])
                    else f"betting line {shown(line)} is not understood")
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

        {"game": "fundex", "file": str, "players": [str], "rules": {"rounds", "bet_limit", "start", "lead_must_bet", "dice_limit_cards"},
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
                problems.append(problem_dict(doc, res.round, p, f"the ledger gives {p} {written} "
                                             f"{'point' if written == 1 else 'points'} of chips after round {res.round}, "
                                             f"but the round leaves {real}{off.note}", ("rounds", i, "chips", p)))
        if row.pot is not None and off.new("pot", row.pot - res.carried, res.round):
            problems.append(problem_dict(doc, res.round, None, f"the ledger leaves {row.pot} in the pot after round "
                                         f"{res.round}, but the round leaves {res.carried}{off.note}", ("rounds", i, "pot")))
    problems.sort(key=lambda pr: (pr["round"], pr["line"], pr["col"]))
    return {
        "game": "fundex",
        "file": log.file,
        "players": list(log.players),
        "rules": {"rounds": log.rules.rounds, "bet_limit": log.rules.bet_limit, "start": log.rules.start,
                  "lead_must_bet": log.rules.lead_must_bet, "dice_limit_cards": log.rules.dice_limit_cards},
        "rounds": [
            {
                "round": r.round, "lead": r.lead, "dice": r.dice, "roll": r.roll,
                "cards": r.cards, "bets": r.bets, "handed_back": r.handed_back,
                "passed": r.passed, "all_in": r.all_in, "pot_in": r.pot_in, "pot": r.pot,
                "winners": r.winners, "lone_bettor": r.lone_bettor, "won": r.won,
                "carried": r.carried, "chips": r.chips, "eliminated": r.eliminated,
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


def print_fundex_report(report: Mapping[str, Any], console: Console) -> None:
    """Print a :func:`fundex_report` with rich: chips after every round as a table, rule breaks, the ranking.

    Each player's cell shows the chips after the round and, dimmed, the card
    played; the winner's cell is bold; a player out of the game shows ``out``.
    """
    players = report["players"]
    table = Table(title=for_terminal(f"All In (Fundex) — {report['file']}"), title_justify="left")
    for col, just in (("round", "right"), ("lead", "left"), ("dice", "right"), ("roll", "right")):
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for p in players:
        table.add_column(p, justify="right")
    table.add_column("won by", justify="left")
    table.add_column("pot left", justify="right")
    start = report["rules"]["start"]
    table.add_row("start", "", "", "", *[str(start) for _ in players], "", "0")
    gone: set[str] = set()
    for r in report["rounds"]:
        cells: list[Text] = []
        for p in players:
            if p in gone:
                cells.append(Text("out", style="dim"))
                continue
            cell = Text(str(r["chips"][p]), style="bold" if p in r["winners"] else "")
            if p in r["cards"]:
                cell.append(f" ({r['cards'][p]})", style="dim")
            cells.append(cell)
        gone.update(r["eliminated"])
        if r["winners"]:
            who = ", ".join(f"{w} +{r['won'][w]}" for w in r["winners"])
            if r["lone_bettor"]:
                who += " (others passed)"
        else:
            who = "nobody (all over)"
        table.add_row(str(r["round"]), r["lead"], str(r["dice"]), str(r["roll"]), *cells, who, str(r["carried"]))
    console.print(table)
    print_problems(report["problems"], console)
    if report["status"] != "finished":
        console.print(Text(f"The game is not over: {len(report['rounds'])} of {report['rules']['rounds']} rounds logged.",
                           style="yellow"))
    print_ranking(report, "chips", console)
