"""All In (flip&write): a player's finished sheet as plain data, what scoring, the checks and the readers share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from generator.core.cards import Card
from generator.games.allin.grid import Coord
from generator.games.allin.layout import AllInLayout


@dataclass(frozen=True)
class FilledSheet:
    """A player's finished sheet.

    Attributes:
        layout: the sheet's layout.
        player: the player's name.
        cards: lattice position → the card written there (writable spaces only;
            the Golden Card is taken from the layout).
        chips_earned: chip circles filled.
        chips_spent: chips marked as spent (a game never spends more than it
            earns: :func:`~generator.games.allin.plausible.check_sheet` reports it).
        where: for a sheet read from a file, where each part was written, to
            locate problems: a space name (``"c2"``), ``"chips.earned"``,
            ``"chips.spent"`` or ``"grid"`` → ``(file, line, column)``, 1-based.
            Empty for sheets of a replayed game.  Not compared.
    """

    layout: AllInLayout
    player: str
    cards: dict[Coord, Card]
    chips_earned: int = 0
    chips_spent: int = 0
    where: Mapping[str, tuple[str, int, int]] = field(default_factory=dict, compare=False)

    @property
    def chips_left(self) -> int:
        """Chips earned minus chips spent: one point each at the end."""
        return self.chips_earned - self.chips_spent
