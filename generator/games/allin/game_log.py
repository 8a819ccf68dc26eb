"""All In game logs (YAML): reading them with located errors, writing them, and writing final typed-in sheets.

A game log records a whole game of *All In: A Flip&Write Showdown* (format:
docs/formats.md, "All In game log")::

    game: allin
    kind: game-log
    layout: q-diamonds          # a shipped layout id, or a path relative to this file
    players: [Ann, Bob]
    golden_deck: [3C, JK, 9D, AS, 5H, 2D, KC, 7S]
    rounds:
      - round: 1                # optional; checked when given
        revealed: [QH, 10S]
        moves:
          Ann: {cell: a1, card: QH}
          Bob: {cell: e5, card: 10H, chips: 2}
      # ...
      - revealed: [4C, 8D]
        moves:
          Ann: {cell: b3, card: 4D, golden: {card: JK, cell: e2, as: AH}}
          Bob: pass             # only when no space is legal

Reading (:func:`load_game_log`) checks the file's shape — keys, types, card
codes, space names — and reports every problem at once, each as
``FILE:LINE:COL``.  Replaying (:meth:`LogFile.replay`) hands the log to the
referee core (:func:`generator.games.allin.game.replay`) and turns the first
illegal move into a problem located at the offending value, e.g.
``game.yaml:41:16: error: round 7, Bob, d4: not linked to a written card``.

Writing (:func:`write_game_log`, :func:`write_sheet`,
:func:`write_final_sheets`) goes through :func:`generator.core.output.write_atomic`;
a written log reads back to the same :class:`GameLog`, and a written sheet is
a typed-in sheet ``sheetsmith verify`` accepts.
"""

from __future__ import annotations

import difflib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Callable, Literal, Sequence

from pydantic import ConfigDict, Field, StringConstraints

from generator.core.cards import Card, CardCodeError, parse_card
from generator.core.errors import FindingsError, InputError, Problem, UnreadableError
from generator.core.models import StrictModel
from generator.core.names import file_stem
from generator.core.output import check_targets, write_atomic
from generator.core.paths import display_path
from generator.core.shipped import shipped_layouts, unknown_layout
from generator.core.validation import text_problem
from generator.core.yamlpos import Document, PathKey, load_yaml, shown, yaml_scalar
from generator.games.allin.filled import FilledSheet
from generator.games.allin.game import (
    PASS,
    GameLog,
    GoldenPick,
    IllegalMove,
    Move,
    ReplayResult,
    Round,
    RoundOutcome,
    Ruleset,
    replay,
)
from generator.games.allin.grid import Coord, cell_name
from generator.games.allin.layout import AllInLayout, load_layout
from generator.games.allin.typed_sheet import find_layout

__all__ = [
    "LOG_KIND",
    "LogFile",
    "load_game_log",
    "game_log_from_document",
    "replay_log_file",
    "parse_cell",
    "dump_game_log",
    "write_game_log",
    "dump_sheet",
    "write_sheet",
    "write_final_sheets",
    "final_sheet_paths",
    "layout_ref_for",
]

LOG_KIND = "game-log"
"""The ``kind:`` of a game log file (``game: allin`` alone is a typed-in sheet)."""


class GoldenPickSpec(StrictModel):
    """A Golden Deck pick in a move: the card taken, the space it is written in, and what a Joker stands for."""

    model_config = ConfigDict(populate_by_name=True)
    card: str = Field(description="the Golden Deck card taken, e.g. 5H or JK")
    cell: str = Field(description="the empty space it is written in, e.g. e1")
    as_: str | None = Field(default=None, alias="as", description="for a Joker: the card it is written as, e.g. AH")


class MoveSpec(StrictModel):
    """One player's move in a round: the space, the card written there, chips spent, a Golden Deck pick."""

    cell: str = Field(description="the space written in, column letter and row number, e.g. c3")
    card: str = Field(description="the card written, e.g. QH")
    chips: int = Field(default=0, ge=0, strict=True, description="chips spent to change a revealed card")
    golden: GoldenPickSpec | None = None


class RoundSpec(StrictModel):
    """One round of a game log: the two cards revealed and every player's move."""

    round: int | None = Field(default=None, description="optional; checked against the round's place in the list")
    revealed: list[str] = Field(description="the two cards turned this round, e.g. [QH, 10S]")
    moves: dict[str, Annotated[str, StringConstraints(pattern=r"^\s*[Pp][Aa][Ss][Ss]\s*$")] | MoveSpec] = Field(
        description="player: move, or 'pass' when no space is legal"
    )


class GameLogSpec(StrictModel):
    """An All In game log (``kind: game-log``), as written.  The reader checks its keys against these models."""

    game: Literal["allin"]
    kind: Literal["game-log"]
    layout: str = Field(description="a shipped layout id, or a path relative to this file")
    players: list[str]
    golden_deck: list[str] = Field(description="the Golden Deck's cards, top first")
    rounds: list[RoundSpec]


def _keys(model) -> tuple[str, ...]:
    return tuple(f.alias or name for name, f in model.model_fields.items())


def _required(model) -> tuple[str, ...]:
    return tuple(f.alias or name for name, f in model.model_fields.items() if f.is_required())


_TOP_KEYS = _keys(GameLogSpec)  # the keys the reader accepts come from the models, so schema and reader agree
_ROUND_KEYS = _keys(RoundSpec)
_MOVE_KEYS = _keys(MoveSpec)
_GOLDEN_KEYS = _keys(GoldenPickSpec)
_CELL = re.compile(r"([a-z]{1,2})([1-9][0-9]{0,2})")
_MAX_NAME = 60  # as the typed-in sheet's player:


def parse_cell(text: str) -> Coord | None:
    """A space name (``c3``, any case) as ``(col, row)``; ``None`` when it is not a space name.

    >>> parse_cell("c3"), parse_cell("A1"), parse_cell("3c")
    ((2, 2), (0, 0), None)
    """
    m = _CELL.fullmatch(text.strip().lower()) if isinstance(text, str) else None
    if m is None:
        return None
    col = 0
    for ch in m.group(1):
        col = col * 26 + (ord(ch) - 96)
    return col - 1, int(m.group(2)) - 1


# --------------------------------------------------------------------------
# Reading.


@dataclass
class LogFile:
    """A game log read from a file, with the positions needed to locate a replay error.

    Attributes:
        log: the game, ready for :func:`generator.games.allin.game.replay`.
        document: the parsed YAML with positions.
        path: the file.
        layout_ref: the ``layout:`` value as written.
    """

    log: GameLog
    document: Document
    path: Path
    layout_ref: str

    def path_of(self, err: IllegalMove) -> PathKey:
        """The YAML path of the value an :class:`IllegalMove` is about (the nearest written value)."""
        fld = err.field or ""
        parts: list[Any] = [int(p) if p.isdigit() else p for p in fld.split(".")] if fld else []
        if err.round is None:
            return tuple(parts)
        base: tuple[Any, ...] = ("rounds", err.round - 1)
        if parts and parts[0] == "revealed":
            return base + tuple(parts)
        if err.player is not None:
            move = base + ("moves", err.player)
            if parts == ["moves"]:
                return move if move in self.document.values else base + ("moves",)
            return move + tuple(p for p in parts if p != "moves")
        return base

    def locate(self, err: IllegalMove) -> Problem:
        """An :class:`IllegalMove` as a :class:`Problem` at its value in the file (``FILE:LINE:COL``)."""
        path = self.path_of(err)
        key = err.rule == "unknown-player"
        return self.document.problem(path, str(err), key=key)

    def replay(self, ruleset: Ruleset = Ruleset()) -> ReplayResult:
        """Referee the logged game (see :func:`generator.games.allin.game.replay`).

        Raises:
            FindingsError: the first illegal move (or setup or deck problem),
                located at its value in the file and worded as
                ``round N, PLAYER, CELL: rule broken``.
        """
        try:
            return replay(self.log, ruleset)
        except IllegalMove as err:
            raise FindingsError([self.locate(err)]) from None


def load_game_log(path: str | Path, *, display: str | None = None) -> LogFile:
    """Read and check the shape of a game log file.

    Args:
        path: the YAML file.
        display: how to name it in messages (default: relative to the working folder).

    Returns:
        A :class:`LogFile`; call :meth:`LogFile.replay` to referee it.

    Raises:
        InputError: every problem of shape found, each ``FILE:LINE:COL``:
            unknown or missing keys, wrong types, card codes, space names,
            round numbers out of sequence, an unknown layout (the layout
            file's own problems are reported against it).
    """
    from generator.core.kinds import wrong_command

    path = Path(path)
    doc = load_yaml(path, display=display or display_path(path))
    hint = wrong_command(doc.data, "replay", doc.file)
    if hint:
        raise UnreadableError([doc.problem((), hint)])  # a file for another command: unreadable here (exit 2)
    return game_log_from_document(doc, path)


def replay_log_file(path: str | Path, ruleset: Ruleset = Ruleset(), *, display: str | None = None) -> ReplayResult:
    """Read a game log file and referee it: :func:`load_game_log` then :meth:`LogFile.replay`.

    Raises:
        InputError: a problem of shape, or the first illegal move, located.
    """
    return load_game_log(path, display=display).replay(ruleset)


class _Reader:
    """Collects located problems while converting the document's plain data."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.problems: list[Problem] = []

    def error(self, path: PathKey, message: str, *, key: bool = False) -> None:
        self.problems.append(self.doc.problem(path, message, key=key))

    def said(self, value: Any, path: PathKey) -> str:
        """A value as the file spells it (``0012``, not ``12``), for messages."""
        written = self.doc.written(path)
        if isinstance(value, str):
            return shown(value)
        return shown(written)[1:-1] if written is not None and value is not None else repr(value)

    def keys(self, data: dict, path: PathKey, allowed: Sequence[str], required: Sequence[str], what: str) -> bool:
        ok = True
        for k in data:
            if k not in allowed:
                close = difflib.get_close_matches(str(k), allowed, n=1, cutoff=0.6)
                hint = f"did you mean '{close[0]}'?" if close else f"allowed: {', '.join(allowed)}"
                self.error(path + (k,), f"unknown key {shown(str(k))} in {what}; {hint}", key=True)
                ok = False
        for k in required:
            if k not in data:
                self.error(path, f"missing key '{k}' in {what}", key=bool(path))
                ok = False
        return ok

    def text(self, value: Any, path: PathKey, what: str) -> str | None:
        if isinstance(value, str):
            return value
        got = (
            "a mapping" if isinstance(value, dict) else "a list" if isinstance(value, list) else self.said(value, path)
        )
        self.error(path, f"{what} must be text, not {got}")
        return None

    def card(self, value: Any, path: PathKey, what: str) -> Card | None:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            self.error(
                path,
                f"{what}: {self.said(value, path)} is a number, not a card code; write a rank and a suit, e.g. 10H",
            )
            return None
        text = self.text(value, path, what)
        if text is None:
            return None
        try:
            return parse_card(text)
        except CardCodeError as exc:
            self.error(path, f"{what}: {exc}")
            return None

    def cards(self, value: Any, path: PathKey, what: str) -> list[Card] | None:
        if not isinstance(value, list):
            self.error(path, f"{what} must be a list of card codes such as [QH, 10S]")
            return None
        out = [self.card(v, path + (i,), what) for i, v in enumerate(value)]
        return None if any(c is None for c in out) else out  # type: ignore[return-value]

    def cell(self, value: Any, path: PathKey, what: str) -> Coord | None:
        text = self.text(value, path, what)
        if text is None:
            return None
        coord = parse_cell(text)
        if coord is None:
            self.error(path, f"{what} {shown(text)} is not a space name; write column letter and row number, e.g. c3")
        return coord


def game_log_from_document(doc: Document, path: Path) -> LogFile:
    """Check a parsed game log document (see :func:`load_game_log`)."""
    r = _Reader(doc)
    data = doc.data
    r.keys(data, (), _TOP_KEYS, _required(GameLogSpec), "the game log")
    if r.problems and any("missing key 'game'" in p.message or "missing key 'kind'" in p.message for p in r.problems):
        if data.get("game") == "allin" and "grid" in data:
            r.problems = [
                doc.problem((), "this is a typed-in sheet, not a game log; score it with 'sheetsmith verify'")
            ]
        raise InputError(r.problems)
    if data.get("game") != "allin":
        r.error(("game",), f"game must be 'allin' for an All In game log, not {shown(str(data.get('game')))}")
    if data.get("kind") != LOG_KIND:
        r.error(("kind",), f"kind must be '{LOG_KIND}', not {shown(str(data.get('kind')))}")

    layout: AllInLayout | None = None
    ref = r.text(data.get("layout"), ("layout",), "layout")
    if ref is not None:
        layout_path = find_layout(ref, path)
        if layout_path is None:
            r.error(("layout",), unknown_layout(ref))
        else:
            layout = load_layout(layout_path)

    players: list[str] = []
    raw_players = data.get("players")
    if not isinstance(raw_players, list) or not raw_players:
        r.error(("players",), "players must be a list of names such as [Ann, Bob]")
    else:
        for i, name in enumerate(raw_players):
            text = r.text(name, ("players", i), "a player name")
            if text is None:
                continue
            if not text.strip() or len(text) > _MAX_NAME:
                r.error(("players", i), f"a player name has 1 to {_MAX_NAME} characters")
            elif text_problem(text, "a player name"):
                r.error(("players", i), text_problem(text, "a player name"))  # type: ignore[arg-type]
            elif text in players:
                r.error(("players", i), f"player {shown(text)} is listed twice; names must differ")
            players.append(text)

    golden = r.cards(data.get("golden_deck"), ("golden_deck",), "golden_deck")

    rounds: list[Round] = []
    raw_rounds = data.get("rounds")
    if raw_rounds is None:
        raw_rounds = []
    if not isinstance(raw_rounds, list):
        r.error(("rounds",), "rounds must be a list, one item per round ('- revealed: [..]' and 'moves:')")
        raw_rounds = []
    for i, item in enumerate(raw_rounds):
        rnd = _read_round(r, item, ("rounds", i), i + 1)
        if rnd is not None:
            rounds.append(rnd)
    if r.problems or layout is None or golden is None:
        raise InputError(r.problems)
    log = GameLog(layout, tuple(players), tuple(golden), tuple(rounds))
    return LogFile(log, doc, path, ref or layout.id)


def _read_round(r: _Reader, item: Any, path: PathKey, number: int) -> Round | None:
    if not isinstance(item, dict):
        r.error(path, f"round {number} must be a mapping with 'revealed:' and 'moves:'")
        return None
    before = len(r.problems)
    r.keys(item, path, _ROUND_KEYS, _required(RoundSpec), f"round {number}")
    if "round" in item and item["round"] != number:
        r.error(
            path + ("round",),
            f"this is round {number} (the {_ordinal(number)} item of rounds:), not "
            f"{r.said(item['round'], path + ('round',))}",
        )
    revealed = None
    if "revealed" in item:
        revealed = r.cards(item["revealed"], path + ("revealed",), f"round {number}: revealed")
        if revealed is not None and len(revealed) != 2:
            r.error(path + ("revealed",), f"round {number}: revealed holds the 2 cards turned, not {len(revealed)}")
    moves: dict[str, Move] = {}
    raw = item.get("moves")
    if "moves" in item and not isinstance(raw, dict):
        r.error(
            path + ("moves",), f"round {number}: moves must map each player to a move, e.g. Ann: {{cell: a1, card: QH}}"
        )
    elif isinstance(raw, dict):
        for name, value in raw.items():
            move = _read_move(r, value, path + ("moves", name), f"round {number}, {name}")
            if move is not None:
                moves[name] = move
    if len(r.problems) > before or revealed is None:
        return None
    return Round(tuple(revealed), moves)


def _read_move(r: _Reader, value: Any, path: PathKey, who: str) -> Move | None:
    if isinstance(value, str) and value.strip().lower() == "pass":
        return PASS
    if not isinstance(value, dict):
        r.error(path, f"{who}: a move is a mapping such as {{cell: c3, card: QH, chips: 1}}, or 'pass'")
        return None
    before = len(r.problems)
    r.keys(value, path, _MOVE_KEYS, _required(MoveSpec), f"{who}'s move")
    cell = r.cell(value["cell"], path + ("cell",), f"{who}: cell") if "cell" in value else None
    card = r.card(value["card"], path + ("card",), f"{who}: card") if "card" in value else None
    chips = value.get("chips", 0)
    if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
        r.error(
            path + ("chips",),
            f"{who}: chips is the number of chips spent, 0 or more, not {r.said(chips, path + ('chips',))}",
        )
    pick = None
    if "golden" in value:
        pick = _read_pick(r, value["golden"], path + ("golden",), who)
    if len(r.problems) > before or cell is None or card is None:
        return None
    return Move(cell, card, chips, pick)


def _read_pick(r: _Reader, value: Any, path: PathKey, who: str) -> GoldenPick | None:
    if not isinstance(value, dict):
        r.error(path, f"{who}: golden is a mapping such as {{card: 5H, cell: e1}} (add 'as: AH' for a Joker)")
        return None
    before = len(r.problems)
    r.keys(value, path, _GOLDEN_KEYS, _required(GoldenPickSpec), f"{who}'s Golden Deck pick")
    card = r.card(value["card"], path + ("card",), f"{who}: golden card") if "card" in value else None
    cell = r.cell(value["cell"], path + ("cell",), f"{who}: golden cell") if "cell" in value else None
    written = r.card(value["as"], path + ("as",), f"{who}: golden as") if "as" in value else None
    if len(r.problems) > before or card is None or cell is None:
        return None
    return GoldenPick(card, cell, written)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# --------------------------------------------------------------------------
# Writing.


def layout_ref_for(layout: AllInLayout, folder: str | Path) -> str:
    """What to write as ``layout:`` in a file saved in ``folder`` so that it finds ``layout`` again.

    The layout's id when it is a shipped layout (or has no known file);
    otherwise its file's path relative to ``folder`` (absolute when no
    relative path exists, e.g. another drive).
    """
    source = Path(layout.source) if layout.source else None
    for item in shipped_layouts():
        if item.id == layout.id and (source is None or _same_file(item.path, source)):
            return layout.id
    if source is None or not source.exists():
        return layout.id
    try:
        return Path(os.path.relpath(source.resolve(), Path(folder).resolve())).as_posix()
    except ValueError:
        return source.resolve().as_posix()


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _move_text(move: Move) -> str:
    if move.cell is None:
        return "pass"
    parts = [f"cell: {cell_name(move.cell)}", f"card: {move.card.code}"]  # type: ignore[union-attr]
    if move.chips:
        parts.append(f"chips: {move.chips}")
    if move.golden is not None:
        g = move.golden
        pick = [f"card: {g.card.code}", f"cell: {cell_name(g.cell)}"]
        if g.card.is_joker and g.written is not None:
            pick.append(f"as: {g.written.code}")
        parts.append("golden: {" + ", ".join(pick) + "}")
    return "{" + ", ".join(parts) + "}"


def _outcome_comment(outcome: RoundOutcome) -> str | None:
    said = [
        f"{name} completes {', '.join(letters)} (+{outcome.earned[name]})"
        for name, letters in outcome.completed.items()
        if letters
    ]
    if outcome.golden_removed:
        said.append("Golden Deck loses " + " ".join(c.code for c in outcome.golden_removed))
    return "; ".join(said) if said else None


def dump_game_log(log: GameLog, *, layout_ref: str | None = None, result: ReplayResult | None = None) -> str:
    """The YAML text of a game log, in the format :func:`load_game_log` reads.

    Args:
        log: the game.
        layout_ref: the ``layout:`` value (default: the layout's id).
        result: when given, each round gets a comment saying who completed
            which hands and the chips earned (comments only; the reader
            ignores them and the referee recomputes chips).
    """
    lines = [
        '# All In game log (sheetsmith). Format: docs/formats.md, "All In game log".',
        "game: allin",
        f"kind: {LOG_KIND}",
        f"layout: {yaml_scalar(layout_ref or log.layout.id)}",
        "players: [" + ", ".join(yaml_scalar(p) for p in log.players) + "]",
        "golden_deck: [" + ", ".join(c.code for c in log.golden_deck) + "]",
        "rounds:" if log.rounds else "rounds: []",
    ]
    outcomes = result.rounds if result is not None else []
    for i, rnd in enumerate(log.rounds):
        lines.append(f"  - round: {i + 1}")
        lines.append("    revealed: [" + ", ".join(c.code for c in rnd.revealed) + "]")
        lines.append("    moves:")
        for name, move in rnd.moves.items():
            lines.append(f"      {yaml_scalar(name)}: {_move_text(move)}")
        if i < len(outcomes):
            note = _outcome_comment(outcomes[i])
            if note:
                lines.append(f"    # {note}")
    return "\n".join(lines) + "\n"


def write_game_log(
    path: str | Path,
    log: GameLog,
    *,
    layout_ref: str | None = None,
    result: ReplayResult | None = None,
    overwrite: bool = True,
) -> Path:
    """Write a game log file (see :func:`dump_game_log`) atomically.

    ``layout_ref`` defaults to :func:`layout_ref_for` the file's folder.

    Raises:
        OutputError: the file exists and ``overwrite`` is False, or cannot be written.
    """
    path = Path(path)
    ref = layout_ref or layout_ref_for(log.layout, path.parent)
    return write_atomic(path, dump_game_log(log, layout_ref=ref, result=result).encode("utf-8"), overwrite=overwrite)


def grid_rows(layout: AllInLayout, token: Callable[[Coord], str]) -> list[str]:
    """The ``grid: |`` lines of a typed-in sheet: ``token(coord)`` for each card space,
    ``G`` for the Golden Card, ``-`` where the layout has no space, columns aligned."""
    grid = layout.grid
    rows = []
    for r in range(grid.rows):
        tokens = []
        for c in range(grid.cols):
            cell = grid.cells.get((c, r))
            tokens.append("-" if cell is None else "G" if cell.kind == "golden" else token((c, r)))
        rows.append("  " + " ".join(t.ljust(3) for t in tokens).rstrip())
    return rows


def dump_sheet(sheet: FilledSheet, *, layout_ref: str | None = None) -> str:
    """The typed-in sheet YAML of a filled sheet (docs/formats.md, "Typed-in All In sheet").

    One line per lattice row, one token per position: the card's code,
    ``.`` for an empty space, ``G`` for the Golden Card, ``-`` for no space.
    """
    layout = sheet.layout
    return sheet_text(
        layout,
        sheet.player,
        lambda coord: sheet.cards[coord].code if coord in sheet.cards else ".",
        sheet.chips_earned,
        sheet.chips_spent,
        layout_ref=layout_ref,
    )


def sheet_text(
    layout: AllInLayout,
    player: str,
    token: Callable[[Coord], str],
    earned: int | str,
    spent: int | str,
    *,
    layout_ref: str | None = None,
    comment: str = "A finished All In sheet, typed in by sheetsmith. Score it: sheetsmith verify FILE",
) -> str:
    """A typed-in sheet's YAML from one token per card space (``token(coord)``, written as given: a card
    code, ``.``, or ``?`` for a field still to be looked at) and the chip counts (a number, or text such as ``?``)."""

    def count(v: int | str) -> str:
        return str(v) if isinstance(v, int) else json.dumps(str(v))

    return (
        "\n".join(
            ([f"# {comment}"] if comment else [])
            + [
                "game: allin",
                f"layout: {yaml_scalar(layout_ref or layout.id)}",
                f"player: {yaml_scalar(player)}",
                "grid: |",
                *grid_rows(layout, token),
                f"chips: {{earned: {count(earned)}, spent: {count(spent)}}}",
            ]
        )
        + "\n"
    )


def write_sheet(path: str | Path, sheet: FilledSheet, *, layout_ref: str | None = None, overwrite: bool = True) -> Path:
    """Write one typed-in sheet file (see :func:`dump_sheet`) atomically.

    ``layout_ref`` defaults to :func:`layout_ref_for` the file's folder.

    Raises:
        OutputError: the file exists and ``overwrite`` is False, or cannot be written.
    """
    path = Path(path)
    ref = layout_ref or layout_ref_for(sheet.layout, path.parent)
    return write_atomic(path, dump_sheet(sheet, layout_ref=ref).encode("utf-8"), overwrite=overwrite)


def final_sheet_paths(folder: str | Path, sheets: Sequence[FilledSheet], *, prefix: str = "") -> list[Path]:
    """Where :func:`write_final_sheets` writes each sheet: ``FOLDER/<prefix><player>.yaml``, names made file-safe and
    unique."""
    folder = Path(folder)
    used: set[str] = set()
    paths = []
    for sheet in sheets:
        stem = prefix + file_stem(sheet.player)
        name, k = stem, 2
        while name.lower() in used:
            name, k = f"{stem}-{k}", k + 1
        used.add(name.lower())
        paths.append(folder / f"{name}.yaml")
    return paths


def write_final_sheets(
    folder: str | Path,
    sheets: Sequence[FilledSheet],
    *,
    prefix: str = "",
    layout_ref: str | None = None,
    overwrite: bool = True,
) -> list[Path]:
    """Write every sheet as ``FOLDER/<prefix><player>.yaml`` (see :func:`final_sheet_paths`).

    Every target is checked before the first is written: a refusal leaves nothing half done.

    Returns:
        The paths written, in the order of ``sheets``.

    Raises:
        OutputError: a file exists and ``overwrite`` is False, or cannot be written.
    """
    paths = final_sheet_paths(folder, sheets, prefix=prefix)
    check_targets(paths, overwrite=overwrite)
    return [write_sheet(path, sheet, layout_ref=layout_ref, overwrite=overwrite) for path, sheet in zip(paths, sheets)]
