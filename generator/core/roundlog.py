"""What the readers of round logs share (the All In (Fundex) and Flip Flop logs, written as a paper ledger is).

Positions inside a one-line scalar (:func:`token_pos`, :func:`located`), the
``players:`` list and unknown names (:func:`check_players`, :func:`name_problem`),
rounds validated one by one (:func:`validate_rounds`, :func:`read_log_header`), a
report's problem entries and its ranking (:func:`problem_dict`, :func:`ranking`),
and a ledger slip reported once (:class:`LedgerDrift`).
"""

from __future__ import annotations

import difflib
import re
from typing import Any, Mapping, Sequence

import yaml
from pydantic import ValidationError

from generator.core.errors import InputError, Problem
from generator.core.models import StrictModel, pydantic_problems, validate
from generator.core.yamlpos import Document, PathKey, Pos, shown

NAME = re.compile(r"[^\s,]{1,24}")
"""A player name: one word of 1 to 24 characters (no spaces or commas), since names start betting lines."""


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
            problems.append(
                doc.problem(
                    ("players", i),
                    f"player name {shown(name)} must be one word of 1 to 24 "
                    "characters, without spaces or commas (it starts lines like 'Ann bet 2')",
                )
            )
        if name in seen:
            problems.append(
                doc.problem(("players", i), f"player '{name}' is listed twice; give each player their own name")
            )
        seen.add(name)
    return problems


def what(value: Any) -> str:
    """A YAML value as a message shows it: text quoted, ``true``/``false``, numbers as written, 'a list', 'a
    mapping'."""
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
    """The checks every round log starts with: the schema, at least one round, each round's keys, ``game:``, the
    players.

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
