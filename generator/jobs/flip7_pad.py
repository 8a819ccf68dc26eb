"""A Flip 7 score pad kept as plain data, for a page that keeps the score (``sheetsmith serve``).

A page keeps a game as its players, its target (and its Flip 7 bonus, when a
variant's) and its rounds; each round maps a player to a line, ``{"cards": [3,
5, "x2", "+4"]}`` (numbers as numbers, modifiers as text) or ``{"bust": true}``.
:func:`pad_file` writes it as the typed-in pad ``sheetsmith verify`` reads, and
:func:`score_pad` scores it as ``verify`` scores that file.  The variant's
defaults and the card names a page offers come from the rules core.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence, TypedDict

from generator.games.flip7.pad import dump_pad
from generator.games.flip7.rules import DEFAULT_TARGET, FLIP7_BONUS, MAX_FLIP7_BONUS, PLUS, X2, ScoreLine, is_flip7
from generator.jobs.verify import Verdict, verify_pad_lines

MODIFIER_CARDS: tuple[str, ...] = (X2, *PLUS)
"""The modifier cards a player may have in front of them, as the pad writes them (``x2``, ``+2`` … ``+10``)."""
NUMBER_CARDS: tuple[int, ...] = tuple(range(13))
"""The number cards, 0 to 12."""

__all__ = [
    "DEFAULT_TARGET",
    "FLIP7_BONUS",
    "MAX_FLIP7_BONUS",
    "MODIFIER_CARDS",
    "NUMBER_CARDS",
    "has_flip7",
    "pad_file",
    "score_pad",
]


class Line(TypedDict, total=False):
    """One player's line of a round: ``{"cards": [...]}`` or ``{"bust": True}`` (the Flip 7 page's tap form adds
    ``"flip7": True`` when the player says the cards make a Flip 7)."""

    cards: list[int | str]
    bust: bool
    flip7: bool


def _score_line(line: Line) -> ScoreLine:
    if line.get("bust"):
        return ScoreLine(bust=True)
    cards = line.get("cards", [])
    return ScoreLine(cards=tuple(int(c) if str(c).isdigit() else str(c) for c in cards))


def _lines(rounds: Sequence[Mapping[str, Line]], players: Sequence[str] | None = None) -> list[dict[str, ScoreLine]]:
    return [{p: _score_line(r[p]) for p in (players if players is not None else r) if p in r} for r in rounds]


def pad_file(
    players: Sequence[str],
    rounds: Sequence[Mapping[str, Line]],
    *,
    target: int = DEFAULT_TARGET,
    flip7_bonus: int = FLIP7_BONUS,
    comment: str,
) -> str:
    """The typed-in pad (YAML) of a game kept as plain data; a player missing from a round has no line there."""
    return dump_pad(list(players), _lines(rounds, players), target=target, flip7_bonus=flip7_bonus, comment=comment)


def score_pad(
    players: Sequence[str],
    rounds: Sequence[Mapping[str, Line]],
    *,
    target: int = DEFAULT_TARGET,
    flip7_bonus: int = FLIP7_BONUS,
) -> Verdict:
    """The verifier's :class:`~generator.jobs.verify.Verdict` of a game kept as plain data.

    Raises:
        InputError: players named twice or empty, a missing line, a round after the end of the game.
    """
    return verify_pad_lines(list(players), _lines(rounds), target=target, flip7_bonus=flip7_bonus)


def has_flip7(cards: Iterable[object]) -> bool:
    """True when ``cards`` (numbers and modifiers, as a line holds them) hold seven different numbers: a Flip 7."""
    return is_flip7(cards)  # type: ignore[arg-type]
