"""Typed-in Flip 7 tick pads (docs/formats.md, "Flip 7 tick pad (typed-in)"): one player's pad per file.

```yaml
game: flip7
sheet: tick-pad           # one player's tick pad; several files make one game
player: Ann
target: 200               # optional; default 200 (a photo's reading takes it from the pad's code)
flip7_bonus: 15           # optional; default 15, the bonus printed on the pad (a variant's otherwise)
rounds:                   # round by round, the boxes ticked
  - [3, 5, 7, 10, 11, x2]
  - [4, 9, bust]          # BUST ticked (beside the cards the player had): the round scores 0
  - bust
  - []                    # nothing ticked: 0
```

A photo's reading writes ``"7?"`` for a box it is unsure of and ``"?"`` for a
round it cannot read: such a file is read but not scored until a person has
written what the pad shows (:class:`~generator.core.errors.FindingsError`, exit 1).

Several tick pads make one game (:func:`tick_pads_report`): each file is one
player, the rounds line up by number, and the game is scored and checked as a
typed-in score pad would be (:func:`generator.games.flip7.pad.pad_report`), with the tick
pad's own check of a row (:func:`generator.games.flip7.rules.tick_row_problems`: BUST
ticked beside a Flip 7).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pydantic import Field

from generator.core.errors import FindingsError, InputError, Problem
from generator.core.models import OneLine, StrictModel, validate
from generator.core.yamlpos import Document, shown
from generator.games.flip7.rules import (
    DEFAULT_TARGET,
    FLIP7_BONUS,
    MAX_FLIP7_BONUS,
    Card,
    ScoreLine,
    decks_for,
    tick_row_problems,
)


class _TickPadSpec(StrictModel):
    game: str
    sheet: str
    player: OneLine = Field(min_length=1, max_length=60)
    target: int = Field(default=DEFAULT_TARGET, ge=1, le=100_000, strict=True)
    flip7_bonus: int = Field(default=FLIP7_BONUS, ge=0, le=MAX_FLIP7_BONUS, strict=True)
    rounds: list[Any] = Field(default_factory=list)


@dataclass(frozen=True)
class TickRowLine:
    """One round of a typed-in tick pad: the cards ticked and whether BUST is ticked."""

    cards: tuple[Card, ...]
    bust: bool

    def score_line(self) -> ScoreLine:
        """The line the rules core scores: a bust (0, whatever else is ticked), else the cards."""
        return ScoreLine(bust=True) if self.bust else ScoreLine(cards=self.cards)


@dataclass(frozen=True)
class TickPad:
    """A typed-in tick pad: the file (as messages name it), the player, the target, the Flip 7 bonus and the rows."""

    file: str
    player: str
    target: int
    flip7_bonus: int
    rounds: tuple[TickRowLine, ...]
    doc: Document


def is_tick_pad(data: Any) -> bool:
    """True when a parsed YAML document is a typed-in tick pad (``game: flip7``, ``sheet: tick-pad``)."""
    return isinstance(data, dict) and data.get("game") == "flip7" and data.get("sheet") == "tick-pad"


def tick_pad_from_document(doc: Document) -> TickPad:
    """Check a parsed tick pad file.

    Raises:
        InputError: a structural error (bad key or type, a token that is not a card), each ``FILE:LINE:COL``.
        FindingsError: ``?`` left from a photo's reading (a box or round a person must look at).
    """
    from generator.games.flip7.pad import parse_card_value

    unsure: list[Problem] = []
    target = doc.data.get("target")
    if isinstance(target, str) and target.strip().endswith(
        "?"
    ):  # the photo's code was not read: a person checks the target
        unsure.append(
            doc.problem(
                ("target",),
                f"target {shown(target)}: not checked in the photo; write the TARGET printed "
                "on the pad in place of the '?' value, then verify this file again",
            )
        )
        doc = replace(doc, data={**doc.data, "target": DEFAULT_TARGET})
    spec = validate(_TickPadSpec, doc)
    if spec.sheet != "tick-pad":
        raise InputError(
            [doc.problem(("sheet",), f"sheet: {shown(spec.sheet)}; a one-player Flip 7 pad is 'sheet: tick-pad'")]
        )
    problems: list[Problem] = []
    rows: list[TickRowLine] = []
    for i, raw in enumerate(spec.rounds):
        where = ("rounds", i)
        label = f"round {i + 1}"
        items = [raw] if isinstance(raw, str) else raw
        if not isinstance(items, list):
            problems.append(
                doc.problem(
                    where,
                    f"{label}: write the boxes ticked as a list like [3, 5, x2] or [4, bust], not {shown(str(raw))}",
                )
            )
            continue
        cards: list[Card] = []
        bust = False
        for j, item in enumerate(items):
            at = where + (j,) if isinstance(raw, list) else where
            text = str(item).strip()
            if text.endswith("?"):
                what = f"'{text[:-1]}' ticked or not" if text != "?" else "the whole round"
                unsure.append(
                    doc.problem(
                        at,
                        f"{label}: uncertain in the photo ({what}); look at the pad, write what it shows "
                        "in place of the '?' item, then verify this file again",
                    )
                )
                continue
            if text.lower() == "bust":
                if bust:
                    problems.append(
                        doc.problem(at, f"{label}: bust is written twice; the row has one BUST box: write it once")
                    )
                bust = True
                continue
            card, message = parse_card_value(item, doc.nodes.get(at))
            if message is not None:
                problems.append(doc.problem(at, f"{label}: {message}; or bust"))
            else:
                cards.append(card)  # type: ignore[arg-type]
        rows.append(TickRowLine(tuple(cards), bust))
    if problems:
        raise InputError(problems)
    if unsure:
        raise FindingsError(unsure)
    return TickPad(doc.file, spec.player, spec.target, spec.flip7_bonus, tuple(rows), doc)


def tick_pads_report(pads: list[TickPad]) -> tuple[dict, list[Problem]]:
    """Score several players' tick pads as one game.

    Returns:
        the report of a typed-in Flip 7 pad (docs/formats.md; ``rounds``, ``totals``,
        ``status``, ``winners``, ``impossible``, ``problems`` …) and its problems located
        ``FILE:LINE:COL`` at each player's row.  A pad with fewer rounds than the game
        counts 0 for the rounds it lacks, reported.  Rows after the round that ended the
        game are a problem of each pad holding them, at its first such row.  The pads are
        scored with their Flip 7 bonus (``flip7_bonus``, 15 unless the pad printed another).

    Raises:
        InputError: two pads of one player; pads of different targets or Flip 7 bonuses.
    """
    from generator.games.flip7.pad import check_pad, game_end, pad_from_lines, pad_report

    errors: list[Problem] = []
    seen: dict[str, TickPad] = {}
    for p in pads:
        if p.player in seen:
            errors.append(
                p.doc.problem(
                    ("player",),
                    f"{shown(seen[p.player].file)} is the pad of {shown(p.player)} too; "
                    "give each player's pad its own name",
                )
            )
        seen.setdefault(p.player, p)
        if p.target != pads[0].target:
            errors.append(
                p.doc.problem(
                    ("target",),
                    f"target {p.target}, but {shown(pads[0].file)} says {pads[0].target}; one game has one target",
                )
            )
        if p.flip7_bonus != pads[0].flip7_bonus:
            errors.append(
                p.doc.problem(
                    ("flip7_bonus",) if "flip7_bonus" in p.doc.data else (),
                    f"a Flip 7 bonus of {p.flip7_bonus}, but {shown(pads[0].file)} says "
                    f"{pads[0].flip7_bonus}; one game has one bonus",
                )
            )
    if errors:
        raise InputError(errors)
    players = [p.player for p in pads]
    n = max((len(p.rounds) for p in pads), default=0)
    empty = TickRowLine((), False)
    rounds = [{p.player: (p.rounds[i] if i < len(p.rounds) else empty).score_line() for p in pads} for i in range(n)]
    game = pad_from_lines(
        players,
        rounds,
        target=pads[0].target,
        file=pads[0].file,
        flip7_bonus=pads[0].flip7_bonus,
        refuse_after_end=False,
    )
    report = pad_report(game, rows_held={p.player: len(p.rounds) for p in pads})
    end = game_end(check_pad(game), game.target)
    played = n if end is None else end[0]  # the rounds the game had
    by_player = {p.player: p for p in pads}
    decks = decks_for(len(players))
    extra: list[dict] = []
    for p in pads:
        if len(p.rounds) < played:
            lack = played - len(p.rounds)
            extra.append(
                {
                    "round": len(p.rounds) + 1,
                    "player": p.player,
                    "message": f"this pad has {len(p.rounds)} round{'s' if len(p.rounds) != 1 else ''}, the game "
                    f"{played}; "
                    f"the round{'s' if lack != 1 else ''} it lacks count{'s' if lack == 1 else ''} 0",
                }
            )
        for i, row in enumerate(p.rounds, start=1):
            if row.bust:  # a busted row's cards are not scored: checked here
                found = tick_row_problems(row.cards, True, decks=decks)
                extra += [{"round": i, "player": p.player, "message": m} for m in found]
                if found:
                    report["impossible"].append({"round": i, "player": p.player})
    report["problems"] += extra
    if report["impossible"]:
        report.update(status="needs_correction", winners=[], winner=None)
    located = []
    for q in report["problems"]:
        pad = by_player.get(q.get("player")) or pads[0]
        r = q.get("round")
        path = ("rounds", r - 1) if r is not None and r - 1 < len(pad.rounds) else ("rounds",)
        who = f"round {r}, {q['player']}: " if q.get("player") else f"round {r}: "
        located.append(pad.doc.problem(path, who + q["message"]))
    return report, located
