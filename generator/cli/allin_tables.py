"""Terminal tables of a scored All In game (the job itself is :func:`generator.jobs.verify`)."""

from __future__ import annotations


from rich.console import Console
from rich.table import Table
from rich.text import Text

from generator.core.cards import SUIT_SYMBOLS, Card
from generator.games.allin.scoring import GameScore
from generator.core.validation import for_terminal


def card_text(card: Card) -> Text:
    """A card as rich text with its suit symbol, red for hearts and diamonds."""
    return Text(f"{card.rank_label}{SUIT_SYMBOLS[card.suit]}", style="red" if card.is_red else "")


def print_game(game: GameScore, out: Console, *, detail: bool = True) -> None:
    """Print a scored game: with ``detail`` a table per player (hands, cards, category, points, bonus), then the ranking."""
    for p in game.players if detail else []:
        title = f"{p.player} — {game.layout.name} sheet ({game.layout.id})" + (" — IMPOSSIBLE SHEET" if p.impossible else "")
        table = Table(title=Text(for_terminal(title)), title_justify="left")
        for col, just in (("hand", "center"), ("cards", "left"), ("complete", "center"), ("category", "left"), ("points", "right"), ("best hand", "right")):
            table.add_column(col, justify=just)  # type: ignore[arg-type]
        for letter, h in p.hands.items():
            cards = Text(" ").join(card_text(c) for c in h.cards) if h.cards else Text("—", style="dim")
            category = h.result.category.name.replace("_", " ") if h.result.category is not None else "—"
            table.add_row(letter, cards, "yes" if h.complete else "no", category, str(h.points), f"+{h.bonus}" if h.bonus else "")
        table.add_section()
        table.add_row("", "hands", "", "", str(p.hand_points), f"+{p.bonus_points}")
        table.add_row("", "chips left", "", "", str(p.chips_left), "")
        table.add_row("", Text("total", style="bold"), "", "", Text(str(p.total), style="bold"), "")
        out.print(table)
    print_sheet_problems(game, out)
    ranking = Table(title="Ranking", title_justify="left")
    for col in ("#", "player", "hands", "best hand", "chips left", "total", ""):
        ranking.add_column(col, justify="right" if col not in ("player", "") else "left", no_wrap=not col)
    ordered = sorted(game.players, key=lambda q: (-q.total, -q.chips_left))
    place = 0
    last = None
    for i, q in enumerate(ordered, start=1):
        if (q.total, q.chips_left) != last:
            place, last = i, (q.total, q.chips_left)
        mark = "winner" if q.player in game.winners else ""
        if mark and len(game.winners) > 1:
            mark = "shared win"
        if q.impossible:
            mark = f"{mark} (impossible sheet)" if mark else "impossible sheet"
        ranking.add_row(str(place), Text(for_terminal(q.player)), str(q.hand_points), str(q.bonus_points), str(q.chips_left), str(q.total), mark)
    out.print(ranking)


def print_sheet_problems(game: GameScore, out: Console) -> None:
    """Say which sheets no game can produce (the problems themselves are listed with the command's findings)."""
    if not game.problems:
        return
    who = [p.player for p in game.players if p.impossible]
    count = len(game.problems)
    out.print(Text(f"No game can produce the sheet of {', '.join(who)} ({count} problem{'s' if count != 1 else ''}, "
                   "listed at the end): scored as written, marked impossible", style="bold red"))
