"""All In (flip&write): scoring finished sheets and a whole game's final scoring.

Pure rules core over plain data: a layout and the cards written on it in,
scores out.  No I/O, no drawing.  Rule readings (docs/rules.md, All In; the
All In rulebook, *End Game and Final Scoring*):

* a hand's cards are the cards in its spaces, the Golden Card included;
  empty spaces are skipped; a hand is complete when all its spaces hold a card;
* each hand scores its single best category (:func:`evaluate`);
* Best Scoring Hand, letter by letter: among the players whose hand of that
  letter scored, the strongest (:attr:`HandResult.key`) takes the bonus; a
  full tie gives it to every tied player;
* total = hand points + bonus points + chips left (earned − spent);
* winner: highest total, then most chips left; a remaining tie is shared;
* every sheet is also checked for what no game can produce
  (:mod:`generator.games.allin.plausible`): it is scored all the same, and
  its score is marked as coming from an impossible sheet.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.core.cards import Card
from generator.games.allin.filled import FilledSheet
from generator.games.allin.hands import HandResult, evaluate
from generator.games.allin.layout import AllInLayout
from generator.games.allin.plausible import SheetProblem, check_sheet


@dataclass(frozen=True)
class HandScore:
    """One hand of one sheet.

    Attributes:
        letter: the hand letter.
        cards: the cards in its spaces in run order, Golden Card included, empty spaces skipped.
        complete: every space of the hand holds a card.
        result: the evaluation (category, points, comparison key).
        bonus: Best Scoring Hand points won (0 when not won).
    """

    letter: str
    cards: tuple[Card, ...]
    complete: bool
    result: HandResult
    bonus: int = 0

    @property
    def points(self) -> int:
        """Points of the hand's category (0 when it scores nothing)."""
        return self.result.points


@dataclass
class PlayerScore:
    """One player's final score: every hand, the bonuses won, chips left and the total.

    ``problems`` lists what no game can produce on the sheet
    (:class:`~generator.games.allin.plausible.SheetProblem`); the score is
    computed all the same.
    """

    player: str
    hands: dict[str, HandScore]
    chips_left: int
    bonus_points: int = 0
    problems: list[SheetProblem] = field(default_factory=list)

    @property
    def impossible(self) -> bool:
        """True when no game can produce this sheet (it has plausibility problems)."""
        return bool(self.problems)

    @property
    def hand_points(self) -> int:
        """Sum of the hands' category points."""
        return sum(h.points for h in self.hands.values())

    @property
    def total(self) -> int:
        """Hand points + Best Scoring Hand bonuses + chips left."""
        return self.hand_points + self.bonus_points + self.chips_left


@dataclass
class GameScore:
    """A game's final scoring: every player's score (input order) and the winner(s).

    The winners are found from the totals whatever the sheets hold; a winner
    whose sheet is impossible is marked by :attr:`PlayerScore.impossible`.
    """

    layout: AllInLayout
    players: list[PlayerScore]
    winners: list[str] = field(default_factory=list)

    @property
    def problems(self) -> list[SheetProblem]:
        """Every sheet's plausibility problems, player by player."""
        return [pr for p in self.players for pr in p.problems]


def hand_cards(sheet: FilledSheet, letter: str) -> tuple[tuple[Card, ...], bool]:
    """The cards of hand ``letter`` on ``sheet`` (Golden Card included, empty spaces skipped) and whether it is
    complete.

    Raises:
        KeyError: ``letter`` is not a hand of the layout.
    """
    layout = sheet.layout
    hand = layout.hands[letter]
    cards: list[Card] = []
    complete = True
    for coord in hand.cells:
        if coord == layout.golden_coord:
            cards.append(layout.golden)
        elif coord in sheet.cards:
            cards.append(sheet.cards[coord])
        else:
            complete = False
    return tuple(cards), complete


def score_sheet(sheet: FilledSheet) -> PlayerScore:
    """Score one sheet on its own: every hand's category and points, and chips left (no bonuses).

    Bonuses need the other players' sheets: see :func:`score_game`.
    """
    hands: dict[str, HandScore] = {}
    for letter in sheet.layout.hands:
        cards, complete = hand_cards(sheet, letter)
        hands[letter] = HandScore(letter, cards, complete, evaluate(cards))
    return PlayerScore(sheet.player, hands, sheet.chips_left)


def score_game(sheets: list[FilledSheet], *, golden_card_links: bool = False) -> GameScore:
    """Final scoring of a game: every sheet scored and checked, Best Scoring Hand bonuses awarded, winners found.

    One sheet alone is a game of one: each of its scoring hands is the best of
    its letter and wins the bonus.  Every sheet is checked with
    :func:`~generator.games.allin.plausible.check_sheet` (``golden_card_links``:
    the referee's option, the printed Golden Card counting as written for
    placement); its problems go into its :class:`PlayerScore`.

    Raises:
        ValueError: no sheets, or sheets of different layouts.
    """
    if not sheets:
        raise ValueError("a game needs at least one sheet")
    layout = sheets[0].layout
    if any(s.layout.id != layout.id for s in sheets):
        raise ValueError("every sheet of a game must use the same layout")
    scores = [score_sheet(s) for s in sheets]
    for score, sheet in zip(scores, sheets):
        score.problems = check_sheet(sheet, golden_card_links=golden_card_links)
    for letter, hand in layout.hands.items():
        scoring = [p for p in scores if p.hands[letter].result.scores]
        if not scoring:
            continue
        best = max(p.hands[letter].result.key for p in scoring)
        for p in scoring:
            hs = p.hands[letter]
            if hs.result.key == best:
                p.hands[letter] = HandScore(hs.letter, hs.cards, hs.complete, hs.result, hand.bonus)
                p.bonus_points += hand.bonus
    return GameScore(layout, scores, winners(scores))


def winners(scores: list[PlayerScore]) -> list[str]:
    """Names of the winner(s): highest total, then most chips left; a remaining tie is shared (input order)."""
    if not scores:
        return []
    top = max((p.total, p.chips_left) for p in scores)
    return [p.player for p in scores if (p.total, p.chips_left) == top]


def report(game: GameScore) -> dict:
    """The verifier report (docs/formats.md, "Verifier report") as plain data, ready for ``json.dumps``.

    Beyond the scores: ``impossible`` per player and the report's
    ``problems``.
    """
    return {
        "game": "allin",
        "layout": game.layout.id,
        "players": [
            {
                "player": p.player,
                "hands": {
                    letter: {
                        "cards": [c.code for c in h.cards],
                        "complete": h.complete,
                        "category": h.result.category.name if h.result.category is not None else None,
                        "points": h.points,
                        "bonus": h.bonus,
                    }
                    for letter, h in p.hands.items()
                },
                "hand_points": p.hand_points,
                "bonus_points": p.bonus_points,
                "chips_left": p.chips_left,
                "total": p.total,
                "impossible": p.impossible,
            }
            for p in game.players
        ],
        "winners": game.winners,
        "problems": [problem_entry(pr) for pr in game.problems],
    }


def problem_entry(problem: SheetProblem) -> dict:
    """One entry of a report's ``problems``: player, cell, rule, message, and where (``at``, ``line``, ``col``; null
    when unknown)."""
    file, line, col = problem.at if problem.at else (None, None, None)
    return {
        "player": problem.player,
        "cell": problem.cell,
        "rule": problem.rule,
        "message": problem.message,
        "at": f"{file}:{line}:{col}" if problem.at else None,
        "line": line,
        "col": col,
    }
