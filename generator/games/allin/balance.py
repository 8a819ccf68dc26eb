"""Is my sheet fair?  Bot games on a layout beside the Q♦ starter sheet (the ``balance`` job).

All In (flip&write) sheets differ in shape, hand lengths, rewards and
bonuses (the All In rulebook, *Setup*: a group plays one
sheet, Q♦ suggested for a first game).  A designer wants to know whether a
new sheet plays like the shipped ones: about as many points, hands that get
finished, a Golden Card that gets surrounded.  The ``balance`` job
(:func:`generator.jobs.play.balance_layouts`) plays the
same games on the layout and on Q♦ — the same deals and the same bots, game
``i`` dealt from :func:`game_seed` ``(seed, i)`` on both sheets — with the
simulator's bot (:class:`~generator.games.allin.bot.SimpleBot`, refereed by
:mod:`generator.games.allin.game`) and compares the figures.

Figures, each over *sheets*: one sheet per player per game (``games ×
players`` sheets, every player a bot of the same kind):

* ``mean_total``, ``p10_total``, ``p90_total``: the final total (hands +
  Best Scoring Hand bonuses + chips left); percentiles by linear
  interpolation between the closest ranks (position ``(n − 1)·p`` in the
  sorted totals, :func:`percentile`);
* ``mean_hand_points``, ``mean_bonus_points``, ``mean_chips_left``: the
  three parts of the total; ``mean_chips_earned``: chips won by completing
  hands;
* ``golden_surround_rate``: the share of sheets whose 8 spaces round the
  Golden Card are all written at the end (a sheet is surrounded at most once
  and only a surround brings a Golden Deck card, so this is the share of
  sheets that surrounded it during the game);
* per hand letter: ``completion_rate`` (share of sheets on which every
  space of the hand holds a card at the end) and ``mean_points`` (its
  category points, complete or not, bonus not included).

Warnings (:func:`fairness_warnings`; a warning never changes the exit status):

* the layout's mean total is more than :data:`MEAN_TOTAL_TOLERANCE` (10 %)
  above or below Q♦'s;
* a hand is completed on fewer than :data:`RARE_COMPLETION` (5 %) of sheets.

Results do not depend on the number of worker processes: each game's seed
comes from the run seed and the game's index alone, and the figures are
computed from the games in index order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Optional

from generator.core.errors import EXIT_OK, Problem
from generator.games.allin.grid import cell_name, golden_ring
from generator.games.allin.layout import AllInLayout

__all__ = [
    "BASELINE",
    "MEAN_TOTAL_TOLERANCE",
    "RARE_COMPLETION",
    "SheetResult",
    "HandFigures",
    "SheetFigures",
    "BalanceWarning",
    "Compared",
    "Balance",
    "game_seed",
    "play_games",
    "percentile",
    "summarize",
    "fairness_warnings",
]

BASELINE = "q-diamonds"
"""The sheet every layout is compared with: Q♦, the rulebook's suggested first sheet."""
MEAN_TOTAL_TOLERANCE = 0.10
"""Warn when a layout's mean total is more than this share above or below the baseline's."""
RARE_COMPLETION = 0.05
"""Warn when a hand is completed on fewer than this share of sheets."""
MAX_PLAYERS = 8
"""Most players simulated (one Golden Deck card each at most: 8 cards)."""
MAX_GAMES = 100_000
"""Most games per sheet in one run."""

# --------------------------------------------------------------------------- one game's sheets


@dataclass(frozen=True)
class SheetResult:
    """One player's final sheet in one simulated game, reduced to what :func:`summarize` needs.

    Attributes:
        total: final total (``hand_points + bonus_points + chips_left``).
        hand_points: category points of all hands.
        bonus_points: Best Scoring Hand bonuses won.
        chips_earned: chips won by completing hands.
        chips_left: chips earned minus chips spent.
        surrounded: all 8 spaces round the Golden Card written at the end.
        complete: letters of the hands complete at the end.
        points: letter → the hand's category points (0 when it scores nothing).
    """

    total: int
    hand_points: int
    bonus_points: int
    chips_earned: int
    chips_left: int
    surrounded: bool
    complete: frozenset[str]
    points: Mapping[str, int]


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a run seeded ``seed``: a 64-bit number from SHA-256.

    Depends on nothing else (not the layout, not the worker), so game ``i``
    is dealt the same cards on every sheet and in every process.
    """
    digest = hashlib.sha256(f"sheetsmith-balance/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def play_games(layout: AllInLayout, indices: Sequence[int], players: int, seed: int) -> list[list[SheetResult]]:
    """Play games ``indices`` of a run on ``layout`` with the simulator's bots; per game, its sheets in seat order.

    Pure: the same arguments give the same results in any process.
    """
    from generator.games.allin.bot import simulate_game

    ring = golden_ring(layout.golden_coord)
    games = []
    for index in indices:
        result = simulate_game(layout, players, game_seed(seed, index)).result
        sheets = []
        for sheet, score in zip(result.sheets, result.score.players):
            sheets.append(
                SheetResult(
                    total=score.total,
                    hand_points=score.hand_points,
                    bonus_points=score.bonus_points,
                    chips_earned=sheet.chips_earned,
                    chips_left=score.chips_left,
                    surrounded=all(c in sheet.cards for c in ring),
                    complete=frozenset(letter for letter, h in score.hands.items() if h.complete),
                    points={letter: h.points for letter, h in score.hands.items()},
                )
            )
        games.append(sheets)
    return games


# --------------------------------------------------------------------------- statistics


def percentile(values: Sequence[float], p: float) -> float:
    """The ``p`` quantile (0..1) of ``values`` by linear interpolation between the closest ranks.

    The value at position ``(n − 1)·p`` of the sorted values (numpy's default
    ``linear`` method): for 10, 20, 30, 40, 50 the 10th percentile is 14.

    Raises:
        ValueError: no values, or ``p`` outside 0..1.
    """
    import numpy as np

    if not len(values):
        raise ValueError("a percentile needs at least one value")
    if not 0 <= p <= 1:
        raise ValueError(f"p must be within 0..1, not {p}")
    return float(np.percentile(np.asarray(values, dtype=float), 100 * p, method="linear"))


@dataclass(frozen=True)
class HandFigures:
    """How one hand fared over a run (rates 0..1).

    Attributes:
        letter: the hand letter.
        cells: its first and last space, ``a1–d1``.
        length: its spaces (the Golden Card included).
        reward: ``single`` or ``double``.
        bonus: its Best Scoring Hand points.
        completion_rate: share of sheets on which it was complete at the end.
        mean_points: its mean category points per sheet (bonus not included).
    """

    letter: str
    cells: str
    length: int
    reward: str
    bonus: int
    completion_rate: float
    mean_points: float

    @property
    def rarely_completed(self) -> bool:
        """True when the hand is completed on fewer than :data:`RARE_COMPLETION` of sheets (a warning's cause)."""
        return self.completion_rate < RARE_COMPLETION


@dataclass(frozen=True)
class SheetFigures:
    """A layout's figures over a run (see the module docstring for each one's definition).

    Attributes:
        id, name, file: the layout's id, its name (``Q♦``) and its file as messages show it.
        sheets: how many sheets the figures are over (games × players).
        mean_total, p10_total, p90_total: final totals.
        mean_hand_points, mean_bonus_points, mean_chips_left: the parts of the mean total.
        mean_chips_earned: chips won per sheet.
        golden_surround_rate: share of sheets that surrounded the Golden Card.
        hands: letter → :class:`HandFigures`, in letter order.
    """

    id: str
    name: str
    file: str
    sheets: int
    mean_total: float
    p10_total: float
    p90_total: float
    mean_hand_points: float
    mean_bonus_points: float
    mean_chips_earned: float
    mean_chips_left: float
    golden_surround_rate: float
    hands: dict[str, HandFigures]

    @property
    def mean_hands_completed(self) -> float:
        """Hands complete on a sheet at the end, on average (the sum of the completion rates)."""
        return sum(h.completion_rate for h in self.hands.values())

    def as_dict(self) -> dict[str, Any]:
        """Plain data for JSON (``hands`` keyed by letter)."""
        return {
            "id": self.id,
            "name": self.name,
            "file": self.file,
            "sheets": self.sheets,
            "mean_total": self.mean_total,
            "p10_total": self.p10_total,
            "p90_total": self.p90_total,
            "mean_hand_points": self.mean_hand_points,
            "mean_bonus_points": self.mean_bonus_points,
            "mean_chips_earned": self.mean_chips_earned,
            "mean_chips_left": self.mean_chips_left,
            "golden_surround_rate": self.golden_surround_rate,
            "mean_hands_completed": self.mean_hands_completed,
            "hands": {
                h.letter: {
                    "cells": h.cells,
                    "length": h.length,
                    "reward": h.reward,
                    "bonus": h.bonus,
                    "completion_rate": h.completion_rate,
                    "mean_points": h.mean_points,
                }
                for h in self.hands.values()
            },
        }


def summarize(layout: AllInLayout, games: Sequence[Sequence[SheetResult]], *, file: str = "") -> SheetFigures:
    """The figures of ``layout`` over ``games`` (each a game's sheets): means, percentiles, rates.

    Every sheet of every game counts once.

    Raises:
        ValueError: no sheets at all.
    """
    sheets = [s for game in games for s in game]
    n = len(sheets)
    if not n:
        raise ValueError("no sheets to summarize")

    def mean(values) -> float:
        return sum(values) / n

    totals = [s.total for s in sheets]
    hands = {}
    for letter, hand in layout.hands.items():
        hands[letter] = HandFigures(
            letter=letter,
            cells=f"{cell_name(hand.cells[0])}–{cell_name(hand.cells[-1])}",
            length=len(hand.cells),
            reward=hand.reward,
            bonus=hand.bonus,
            completion_rate=mean(letter in s.complete for s in sheets),
            mean_points=mean(s.points.get(letter, 0) for s in sheets),
        )
    return SheetFigures(
        id=layout.id,
        name=layout.name,
        file=file or str(layout.source),
        sheets=n,
        mean_total=mean(totals),
        p10_total=percentile(totals, 0.1),
        p90_total=percentile(totals, 0.9),
        mean_hand_points=mean(s.hand_points for s in sheets),
        mean_bonus_points=mean(s.bonus_points for s in sheets),
        mean_chips_earned=mean(s.chips_earned for s in sheets),
        mean_chips_left=mean(s.chips_left for s in sheets),
        golden_surround_rate=mean(s.surrounded for s in sheets),
        hands=hands,
    )


@dataclass(frozen=True)
class BalanceWarning:
    """A reason to look at a layout again.

    Attributes:
        kind: ``mean_total`` (too far from the baseline's) or ``rare_hand`` (hardly ever completed).
        message: what was measured, against which threshold.
        hand: the hand letter of a ``rare_hand`` warning, else ``None``.
        file, line, col: where to look (the hand's entry under ``hands:``; line 0 when unknown).
    """

    kind: str
    message: str
    hand: Optional[str] = None
    file: str = ""
    line: int = 0
    col: int = 0

    @property
    def problem(self) -> Problem:
        """The warning as a located :class:`~generator.core.errors.Problem` (severity ``warning``)."""
        return Problem(self.file, self.line, self.col, self.message, "warning")

    def as_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "kind": self.kind,
            "hand": self.hand,
            "message": self.message,
            "file": self.file,
            "line": self.line,
            "col": self.col,
        }


def mean_total_gap(figures: SheetFigures, baseline: SheetFigures) -> Optional[float]:
    """``(mean − baseline mean) / baseline mean``; ``None`` when the baseline's mean is 0."""
    if baseline.mean_total == 0:
        return None
    return (figures.mean_total - baseline.mean_total) / baseline.mean_total


def fairness_warnings(figures: SheetFigures, baseline: SheetFigures) -> list[BalanceWarning]:
    """The warnings of ``figures`` against ``baseline``: mean total beyond ±10 %, hands completed on < 5 % of sheets.

    A gap of exactly 10 % and a rate of exactly 5 % are not warned about.
    Hand warnings carry the hand letter; their position is filled in by
    :func:`balance`.
    """
    found = []
    gap = mean_total_gap(figures, baseline)
    if gap is not None and abs(gap) > MEAN_TOTAL_TOLERANCE:
        side = "above" if gap > 0 else "below"
        found.append(
            BalanceWarning(
                "mean_total",
                f"mean total {figures.mean_total:.1f} is {abs(gap):.1%} {side} {baseline.name}'s "
                f"{baseline.mean_total:.1f} "
                f"(more than {MEAN_TOTAL_TOLERANCE:.0%}): adjust hand bonuses or rewards, or the grid",
                file=figures.file,
            )
        )
    for h in figures.hands.values():
        if h.completion_rate < RARE_COMPLETION:
            found.append(
                BalanceWarning(
                    "rare_hand",
                    f"hand {h.letter} ({h.cells}, {h.length} spaces) was completed on {h.completion_rate:.1%} of "
                    "sheets "
                    f"(under {RARE_COMPLETION:.0%}): its reward is hardly ever earned; bring it closer to a starting "
                    "space "
                    "or shorten it",
                    hand=h.letter,
                    file=figures.file,
                )
            )
    return found


# --------------------------------------------------------------------------- the job


@dataclass
class Compared:
    """One layout measured against the baseline.

    Attributes:
        figures: its :class:`SheetFigures`.
        mean_total_gap: ``(mean − baseline mean) / baseline mean`` (``None`` when the baseline's mean is 0).
        warnings: :func:`fairness_warnings`, hand warnings located at their ``hands:`` entry.
        layout_warnings: the layout file's own warnings (as ``sheetsmith check`` gives them).
    """

    figures: SheetFigures
    mean_total_gap: Optional[float]
    warnings: list[BalanceWarning] = field(default_factory=list)
    layout_warnings: list[Problem] = field(default_factory=list)


@dataclass
class Balance:
    """What the ``balance`` job (:func:`generator.jobs.play.balance_layouts`) measured.

    Attributes:
        games, players, seed: the run (every sheet played the same ``games`` deals).
        baseline: Q♦'s figures.
        compared: each layout asked about, in the order given.
    """

    games: int
    players: int
    seed: int
    baseline: SheetFigures
    compared: list[Compared]

    @property
    def warnings(self) -> list[BalanceWarning]:
        """Every layout's warnings, in order."""
        return [w for c in self.compared for w in c.warnings]

    @property
    def problems(self) -> list[Problem]:
        """Every warning to print, located: each layout's own warnings, then the fairness warnings."""
        out: list[Problem] = []
        for c in self.compared:
            out += [p for p in c.layout_warnings if p not in out] + [w.problem for w in c.warnings]
        return out

    @property
    def exit_code(self) -> int:
        """Always 0: warnings alone do not fail a run."""
        return EXIT_OK

    def report(self) -> dict[str, Any]:
        """The ``--json`` report::

            {"games", "players", "seed",
             "thresholds": {"mean_total_gap", "min_completion_rate"},
             "baseline": SHEET,
             "layouts": [SHEET + {"mean_total_gap", "warnings": [{"kind", "hand", "message", "file", "line", "col"}],
                                  "layout_warnings": ["FILE:LINE:COL: warning: message"]}]}

        where SHEET is :meth:`SheetFigures.as_dict` (rates 0..1).
        """
        return {
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "thresholds": {"mean_total_gap": MEAN_TOTAL_TOLERANCE, "min_completion_rate": RARE_COMPLETION},
            "baseline": self.baseline.as_dict(),
            "layouts": [
                {
                    **c.figures.as_dict(),
                    "mean_total_gap": c.mean_total_gap,
                    "warnings": [w.as_dict() for w in c.warnings],
                    "layout_warnings": [str(p) for p in c.layout_warnings],
                }
                for c in self.compared
            ],
        }
