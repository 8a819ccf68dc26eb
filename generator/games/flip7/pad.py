"""Typed-in Flip 7 score pads (docs/formats.md, "Flip 7 score pad (typed-in)"): reading, checking, the report.

```yaml
game: flip7
players: [Ann, Bob, Cy]
target: 200                       # optional variant; default 200
flip7_bonus: 15                   # optional variant; default 15 (the rulebook's)
rounds:
  - Ann: [3, 5, 7, 10, 11, x2]    # the cards in front of the player at round end
    Bob: bust
    Cy: {score: 34}               # only the score written on the pad
  - Ann: {cards: [12, "+4"], score: 16}   # cards and the written score: checked
```

Two kinds of findings:

* **structural errors** stop the reading and raise :class:`~generator.core.errors.InputError`,
  each ``FILE:LINE:COL``: bad keys or types, a card token that is not a card
  (or an action card), a player missing from a round or not in ``players``;
* **scoring problems** go into the report's ``problems`` and do not stop the
  scoring: a written score that differs from its cards (the computed score
  counts), an impossible line, a card appearing in a round more often than
  the deck holds, two Flip 7s in one round, a written score no cards can make,
  written scores that need more x2, +N cards or Flip 7s than the round has
  (beside the cards listed), a round played after the game ended.
  Each is reported once, in the round and line where it is.

A pad holding a line (or a round) that no game can produce has the status
``needs_correction``: its totals are still shown, but no winner is named on
them; ``impossible`` lists where to correct.  A pad of 1 or 2 players is
scored with a warning (the game is made for 3 to 18); 19 to 36 players play
with two decks, and the card counts are checked against two decks.

A ``+4`` written without quotes is read by YAML as the number 4; the reader
looks at the text as written, so ``+4`` is the modifier either way.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Mapping

import yaml
from pydantic import Field

from generator.core.errors import InputError, Problem
from generator.core.models import OneLine, StrictModel, validate
from generator.core.yamlpos import Document, PathKey, load_yaml, shown
from generator.games.flip7.rules import (
    DEFAULT_TARGET,
    FLIP7_BONUS,
    MAX_FLIP7_BONUS,
    MAX_PLAYERS,
    PLAYERS_PER_DECK,
    PLUS,
    X2,
    Card,
    ScoreLine,
    decks_for,
    game_status,
    player_count_warnings,
    round_problems,
    score_line,
)

PadStatus = Literal["in_progress", "finished", "tied_play_another_round", "needs_correction"]
"""A pad's status: :func:`~generator.games.flip7.rules.game_status`, or ``needs_correction`` when a line is
impossible."""

_ACTION_WORDS = frozenset({"freeze", "flip_three", "flipthree", "flip3", "flip_3", "second_chance", "secondchance"})
"""Ways of writing the action cards (after lower-casing, spaces and dashes as ``_``): refused with a clear message."""
_CARD_HELP = "a number 0 to 12, x2, or one of +2, +4, +6, +8, +10"
_LINE_HELP = "a list of cards like [3, 5, x2], 'bust', {score: 34}, or {cards: [...], score: 34}"


class Flip7PadSpec(StrictModel):
    """The top level of a typed-in pad, as written."""

    game: str
    players: list[Annotated[OneLine, Field(max_length=60)]]
    target: int = Field(default=DEFAULT_TARGET, ge=1, le=100_000, strict=True)
    flip7_bonus: int = Field(default=FLIP7_BONUS, ge=0, le=MAX_FLIP7_BONUS, strict=True)
    rounds: list[Any] = Field(default_factory=list)


@dataclass(frozen=True)
class Pad:
    """A typed-in Flip 7 score pad, read and structurally checked.

    Attributes:
        file: the file name as messages show it.
        players: the players' names, in the order given.
        target: the score that ends the game (default 200).
        rounds: one mapping per round, player → :class:`~generator.games.flip7.rules.ScoreLine`
            (every player has a line in every round).
        warnings: findings that do not stop the scoring (1 or 2 players), located.
        flip7_bonus: the points a Flip 7 adds (default the rulebook's 15; a variant's otherwise).
    """

    file: str
    players: tuple[str, ...]
    target: int
    rounds: tuple[dict[str, ScoreLine], ...]
    warnings: tuple[Problem, ...] = ()
    flip7_bonus: int = FLIP7_BONUS

    @property
    def decks(self) -> int:
        """Decks the table plays with: 1 up to 18 players, 2 from 19 to 36 (rulebook *Setup*)."""
        return decks_for(len(self.players))


def load_flip7_pad(path: str | Path, *, display: str | None = None) -> Pad:
    """Read and check a typed-in Flip 7 score pad.

    Args:
        path: the YAML file.
        display: how to name the file in messages (defaults to ``str(path)``).

    Raises:
        InputError: every structural error found, each ``FILE:LINE:COL`` (see the module docstring).
    """
    return pad_from_document(load_yaml(path, display=display))


def pad_from_document(doc: Document) -> Pad:
    """Check a parsed pad (see :func:`load_flip7_pad`); for callers that already read the YAML to look at ``game:``.

    Raises:
        InputError: as :func:`load_flip7_pad`.
    """
    spec = validate(Flip7PadSpec, doc)
    if spec.game != "flip7":
        raise InputError([doc.problem(("game",), f"this is a sheet of game {shown(spec.game)}; expected 'flip7'")])
    problems: list[Problem] = []
    players = _players(spec.players, doc, problems)
    if problems:
        raise InputError(problems)
    rounds: list[dict[str, ScoreLine]] = []
    for i, raw in enumerate(spec.rounds):
        rounds.append(_round(raw, i, players, doc, problems))
    if problems:
        raise InputError(problems)
    warnings = tuple(doc.problem(("players",), m, severity="warning") for m in player_count_warnings(len(players)))
    return Pad(doc.file, players, spec.target, tuple(rounds), warnings, spec.flip7_bonus)


def pad_from_lines(
    players: list[str] | tuple[str, ...],
    rounds: list[dict[str, ScoreLine]],
    *,
    target: int = DEFAULT_TARGET,
    file: str = "pad",
    flip7_bonus: int = FLIP7_BONUS,
    refuse_after_end: bool = True,
) -> Pad:
    """A pad from lines already in hand (the web page's taps, tick pads), with the structural checks of
    :func:`pad_from_document` that concern them: the players, a line for every player in every round;
    and, with ``refuse_after_end`` (the web page, which must not save such a round), no round after the
    one that ended the game (otherwise :func:`pad_report` reports it).  :func:`dump_pad` writes the
    same pad as YAML.

    Raises:
        InputError: as :func:`load_flip7_pad` (without line and column: there is no file); a round
            after the end of the game, with ``refuse_after_end``.
    """
    doc = Document(file, {})
    problems: list[Problem] = []
    names = _players(list(players), doc, problems)
    for i, r in enumerate(rounds):
        missing = [p for p in names if p not in r]
        extra = [p for p in r if p not in names]
        if missing or extra:
            problems.append(
                Problem(
                    file,
                    0,
                    0,
                    f"round {i + 1}: "
                    + (
                        f"no line for {', '.join(missing)}"
                        if missing
                        else f"{', '.join(extra)} is not one of the players"
                    ),
                )
            )
    if problems:
        raise InputError(problems)
    warnings = tuple(Problem(file, 0, 0, m, "warning") for m in player_count_warnings(len(names)))
    pad = Pad(file, names, target, tuple(rounds), warnings, flip7_bonus)
    if refuse_after_end:
        end = game_end(check_pad(pad), pad.target)
        if end is not None:
            raise InputError([Problem(file, 0, 0, _after_end_text(pad, end))])
    return pad


def _players(names: list[str], doc: Document, problems: list[Problem]) -> tuple[str, ...]:
    if not names:
        problems.append(doc.problem(("players",), "players: name at least one player, e.g. [Ann, Bob, Cy]"))
    if len(names) > MAX_PLAYERS:
        problems.append(
            doc.problem(
                ("players",),
                f"{len(names)} players; Flip 7 plays up to {PLAYERS_PER_DECK} with one deck and up to "
                f"{MAX_PLAYERS} with two: split the table into two games",
            )
        )
    seen: set[str] = set()
    for j, name in enumerate(names):
        if not name.strip():
            problems.append(doc.problem(("players", j), "a player's name is empty"))
        elif name in seen:
            problems.append(
                doc.problem(("players", j), f"{shown(name)} is listed twice; give each player their own name")
            )
        seen.add(name)
    return tuple(names)


def _round(raw: Any, i: int, players: tuple[str, ...], doc: Document, problems: list[Problem]) -> dict[str, ScoreLine]:
    where = ("rounds", i)
    label = f"round {i + 1}"
    if not isinstance(raw, dict):
        problems.append(
            doc.problem(
                where, f"{label} must be a mapping of player: line (e.g. 'Ann: [3, 5]' under '- '), not {_what(raw)}"
            )
        )
        return {}
    out: dict[str, ScoreLine] = {}
    for name, value in raw.items():
        if name not in players:
            close = difflib.get_close_matches(name, list(players), n=1, cutoff=0.6)
            hint = f"did you mean '{close[0]}'?" if close else f"the players are {', '.join(players)}"
            problems.append(
                doc.problem(where + (name,), f"{label}: {shown(name)} is not one of the players; {hint}", key=True)
            )
            continue
        line = _line(value, where + (name,), f"{label}, {name}", doc, problems)
        if line is not None:
            out[name] = line
    missing = [p for p in players if p not in raw]
    if missing:
        problems.append(
            doc.problem(
                where,
                f"{label} has no line for {', '.join(missing)}; every player needs one each round "
                "(write 'bust', or {score: 0} for a round without points)",
            )
        )
    return out


def _line(value: Any, path: PathKey, label: str, doc: Document, problems: list[Problem]) -> ScoreLine | None:
    if isinstance(value, list):
        cards = _cards(value, path, label, doc, problems)
        return None if cards is None else ScoreLine(cards=cards)
    if isinstance(value, str) and value.strip().lower() == "bust":
        return ScoreLine(bust=True)
    if isinstance(value, dict):
        bad = [k for k in value if k not in ("cards", "score")]
        for k in bad:
            close = difflib.get_close_matches(k, ["cards", "score"], n=1, cutoff=0.5)
            hint = f"did you mean '{close[0]}'?" if close else "allowed: cards, score"
            problems.append(doc.problem(path + (k,), f"{label}: unknown key {shown(k)}; {hint}", key=True))
        if bad:
            return None
        if not value:
            problems.append(doc.problem(path, f"{label}: empty mapping; write {_LINE_HELP}"))
            return None
        written = None
        if "score" in value:
            s = value["score"]
            if type(s) is not int or s < 0:
                problems.append(
                    doc.problem(
                        path + ("score",), f"{label}: the score must be a whole number 0 or more, not {_what(s)}"
                    )
                )
                return None
            written = s
        if "cards" not in value:
            return ScoreLine(written=written)
        c = value["cards"]
        if isinstance(c, str) and c.strip().lower() == "bust":
            return ScoreLine(bust=True, written=written)
        if not isinstance(c, list):
            problems.append(
                doc.problem(
                    path + ("cards",), f"{label}: cards must be a list like [3, 5, x2] or 'bust', not {_what(c)}"
                )
            )
            return None
        cards = _cards(c, path + ("cards",), label, doc, problems)
        return None if cards is None else ScoreLine(cards=cards, written=written)
    if type(value) is int:
        problems.append(
            doc.problem(path, f"{label}: a score alone is written {{score: {value}}}; or write {_LINE_HELP}")
        )
        return None
    problems.append(doc.problem(path, f"{label}: write {_LINE_HELP}, not {_what(value)}"))
    return None


def _cards(
    items: list[Any], path: PathKey, label: str, doc: Document, problems: list[Problem]
) -> tuple[Card, ...] | None:
    out: list[Card] = []
    ok = True
    for j, item in enumerate(items):
        card, message = parse_card_value(item, doc.nodes.get(path + (j,)))
        if message is not None:
            problems.append(doc.problem(path + (j,), f"{label}: {message}"))
            ok = False
        else:
            out.append(card)  # type: ignore[arg-type]
    return tuple(out) if ok else None


def parse_card_value(value: Any, node: yaml.Node | None) -> tuple[Card | None, str | None]:
    """One card token → ``(card, None)`` or ``(None, message)``."""
    raw = str(node.value).strip() if isinstance(node, yaml.ScalarNode) else None
    if type(value) is int:
        if raw is not None and raw.startswith("+"):
            token = f"+{value}"
            if token in PLUS:
                return token, None
            return None, f"{raw} is not a modifier; the modifiers are x2, {', '.join(PLUS)}"
        if 0 <= value <= 12:
            return value, None
        return None, f"{value} is not a Flip 7 card; write {_CARD_HELP}"
    if isinstance(value, str):
        text = value.strip()
        word = re.sub(r"[\s-]+", "_", text.lower())
        if word in ("x2", "×2", "*2"):
            return X2, None
        if word in PLUS:
            return word, None
        if re.fullmatch(r"[0-9]{1,2}", word) and int(word) <= 12:
            return int(word), None
        if word in _ACTION_WORDS:
            return None, (
                f"{shown(text)} is an action card; action cards are never in front of a player "
                "when the round is scored (Freeze and Flip Three act at once, Second Chances are discarded at round "
                "end): "
                "leave it out"
            )
        if word.startswith("+"):
            return None, f"{shown(text)} is not a modifier; the modifiers are x2, {', '.join(PLUS)}"
        return None, f"{shown(text)} is not a Flip 7 card; write {_CARD_HELP}"
    return None, f"{_what(value)} is not a Flip 7 card; write {_CARD_HELP}"


def _what(value: Any) -> str:
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "an empty value"
    return repr(value)


@dataclass(frozen=True)
class CheckedPad:
    """Every line and round of a pad scored and checked: the rows of counted scores, the problems
    (report shape) and the places to correct, in the order of the rounds."""

    rows: list[dict[str, int]]
    problems: list[dict[str, Any]]
    impossible: list[dict[str, Any]]


def check_pad(pad: Pad) -> CheckedPad:
    decks, bonus = pad.decks, pad.flip7_bonus
    rows: list[dict[str, int]] = []
    problems: list[dict[str, Any]] = []
    impossible: list[dict[str, Any]] = []
    for i, r in enumerate(pad.rounds, start=1):
        row: dict[str, int] = {}
        for p in pad.players:
            checked = score_line(r[p], decks=decks, flip7_bonus=bonus)
            row[p] = checked.score
            problems += [{"round": i, "player": p, "message": m} for m in checked.problems]
            if checked.impossible:
                impossible.append({"round": i, "player": p})
        whole = round_problems(r, decks=decks, flip7_bonus=bonus)
        problems += [{"round": i, "player": None, "message": m} for m in whole]
        if whole:
            impossible.append({"round": i, "player": None})
        rows.append(row)
    return CheckedPad(rows, problems, impossible)


def game_end(checked: CheckedPad, target: int | None = None) -> tuple[int, str, int] | None:
    """``(k, winner, total)`` when the game ended after round ``k`` (rulebook *End of the game*: someone at
    the target, leading alone) and rounds follow it; ``None`` otherwise.  An end that rests on an impossible
    line or round is no end (the pad is corrected first), so the rounds after it are read as played."""
    target = DEFAULT_TARGET if target is None else target
    totals: dict[str, int] = {}
    bad = {q["round"] for q in checked.impossible}
    for k, row in enumerate(checked.rows[:-1], start=1):
        for p, score in row.items():
            totals[p] = totals.get(p, 0) + score
        if k in bad:
            return None
        status, winner = game_status(totals, target)
        if status == "finished":
            return k, winner, totals[winner]  # type: ignore[return-value, index]
    return None


def _after_end_text(pad: Pad, end: tuple[int, str, int], extra: int | None = None) -> str:
    k, winner, total = end
    extra = len(pad.rounds) - k if extra is None else extra
    return (
        f"the game ended after round {k} ({winner} leads alone with {total}, target {pad.target}); "
        f"remove the {extra} round{'s' if extra > 1 else ''} after it"
    )


def pad_report(pad: Pad, *, rows_held: Mapping[str, int] | None = None) -> dict:
    """The report (docs/formats.md, "Flip 7 score pad (typed-in)") as plain data, ready for ``json.dumps``.

    Shape::

        {"game": "flip7", "decks": 1,
         "rounds": [{"Ann": 72, "Bob": 0, ...}, ...],     # the score that counts, per round
         "totals": {"Ann": 88, ...},
         "status": "in_progress" | "finished" | "tied_play_another_round" | "needs_correction",
         "winners": ["Ann"],                               # [] while nobody has won
         "winner": "Ann" | None,                           # deprecated: winners[0] or None
         "impossible": [{"round": 1, "player": "Cy" | None}],
         "problems": [{"round": 1, "player": "Ann" | None, "message": "..."}],
         "warnings": [{"round": None, "player": None, "message": "..."}]}

    Rounds are numbered from 1.  The score that counts is the computed one
    when a line lists its cards (or says bust), otherwise the written one
    (scored with the pad's Flip 7 bonus).
    ``player`` is ``None`` for a problem of the whole round (a card more often
    than the deck holds, two Flip 7s, written scores that need more than the
    round has).  Each problem is listed once, where it is.  ``impossible`` lists
    the lines (and rounds) no game can produce: when there is one, the status is
    ``needs_correction`` and no winner is named, since the totals rest on a
    line that must be corrected first.  A round played after the game ended
    (rulebook *End of the game*) is one of them, at the first such round
    (``"player": None``; with ``rows_held``, each tick pad's player → its number
    of rows, at each pad that holds such a round).  Otherwise status and winners
    follow :func:`~generator.games.flip7.rules.game_status` on the final totals.
    ``decks`` is 2 for 19 to 36 players (card counts are checked against two
    decks).  ``warnings`` (1 or 2 players) do not make the pad wrong.
    """
    checked = check_pad(pad)
    problems, impossible = checked.problems, checked.impossible
    end = game_end(checked, pad.target)
    if end is not None:
        k = end[0]
        if rows_held is None:
            problems.append({"round": k + 1, "player": None, "message": _after_end_text(pad, end)})
            impossible.append({"round": k + 1, "player": None})
        for p, held in (rows_held or {}).items():
            if held > k:
                problems.append({"round": k + 1, "player": p, "message": _after_end_text(pad, end, held - k)})
                impossible.append({"round": k + 1, "player": p})
        problems.sort(key=lambda q: q["round"])  # stable: in the round where each is
        impossible.sort(key=lambda q: q["round"])
    totals = {p: sum(row[p] for row in checked.rows) for p in pad.players}
    status: PadStatus
    status, winner = game_status(totals, pad.target)
    if impossible:
        status, winner = "needs_correction", None
    return {
        "game": "flip7",
        "decks": pad.decks,
        "rounds": checked.rows,
        "totals": totals,
        "status": status,
        "winners": [winner] if winner is not None else [],
        "winner": winner,
        "impossible": impossible,
        "problems": problems,
        "warnings": [{"round": None, "player": None, "message": w.message} for w in pad.warnings],
    }


def dump_pad(
    players: list[str] | tuple[str, ...],
    rounds: list[dict[str, ScoreLine]],
    *,
    target: int = DEFAULT_TARGET,
    flip7_bonus: int = FLIP7_BONUS,
    comment: str = "A Flip 7 score pad, typed in by sheetsmith. Check it: sheetsmith verify FILE",
) -> str:
    """The typed-in pad YAML (module docstring) of ``players``, ``target``, ``flip7_bonus`` (written when not 15)
    and ``rounds``; :func:`load_flip7_pad` reads it back.

    A line with cards is written as the list (``[3, 5, x2, "+4"]``), a bust as
    ``bust``, a score alone as ``{score: N}``, cards and a score as
    ``{cards: [...], score: N}``; every name is quoted where YAML would read it otherwise.
    """
    from generator.core.yamlpos import yaml_scalar

    def cards(line: ScoreLine) -> str:
        return (
            "["
            + ", ".join(f'"{c}"' if isinstance(c, str) and c.startswith("+") else str(c) for c in line.cards or ())
            + "]"
        )

    def text(line: ScoreLine) -> str:
        if line.bust:
            return "bust" if line.written is None else f"{{cards: bust, score: {line.written}}}"
        if line.cards is None:
            return f"{{score: {line.written}}}"
        return cards(line) if line.written is None else f"{{cards: {cards(line)}, score: {line.written}}}"

    out = [f"# {comment}"] if comment else []
    out += ["game: flip7", "players: [" + ", ".join(yaml_scalar(p) for p in players) + "]", f"target: {target}"]
    if flip7_bonus != FLIP7_BONUS:
        out.append(f"flip7_bonus: {flip7_bonus}")
    out.append("rounds:" if rounds else "rounds: []")
    for r in rounds:
        for j, p in enumerate(p for p in players if p in r):
            out.append(("  - " if j == 0 else "    ") + f"{yaml_scalar(p)}: {text(r[p])}")
    return "\n".join(out) + "\n"
