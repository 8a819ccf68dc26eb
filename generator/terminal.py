"""Terminal output of the command line: reports as rich tables (a face, no job is done here).

Each game's table printer lives beside its format for now (:func:`generator.sheetverify.print_game`,
:func:`generator.flip7_pad.print_pad`, :func:`generator.fundex_log.print_fundex_report`,
:func:`generator.flipflop_log.print_flipflop_report`); :func:`print_verdict` picks the right one.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .sheetverify import print_game
from .validation import capped_lines, for_terminal


def print_verdict(verdict: Any, console: Console) -> None:
    """Print a :class:`~generator.jobs.Verdict` as its game's tables, its problems (each once,
    ``FILE:LINE:COL: severity: message``), then its notes about scoring."""
    if verdict.game == "allin":
        print_game(verdict.score, console)
        for line in capped_lines(verdict.problems):  # spelled out for the terminal, a few of each kind
            console.print(line, style="yellow" if ": warning: " in line else "red", markup=False, highlight=False, soft_wrap=True)
        for note in verdict.notes:
            if note.startswith("one sheet scored alone") or note.startswith("the log stops"):
                console.print(Text(note, style="dim" if note.startswith("one sheet") else "yellow"))
    elif verdict.game == "flip7":
        from .flip7_pad import print_pad

        errors = [for_terminal(str(p)) for p in verdict.problems if p.is_error]
        print_pad(verdict.report, console, located=errors if len(errors) == len(verdict.report["problems"]) else None)
    elif verdict.game == "fundex":
        from .fundex_log import print_fundex_report

        print_fundex_report(verdict.report, console)
    else:
        from .flipflop_log import print_flipflop_report

        print_flipflop_report(verdict.report, console)


def print_flip7_simulation(stats: dict, console: Console) -> None:
    """The table of :func:`generator.jobs.simulate_flip7`'s figures."""
    decks = f", {stats['decks']} decks" if stats.get("decks", 1) > 1 else ""
    table = Table(title=f"Flip 7: {stats['games']} games, {stats['players']} players{decks}, {stats['strategy']}, "
                        f"target {stats['target']}, seed {stats['seed']}")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("bust rate", f"{stats['bust_rate']:.1%}")
    table.add_row("mean round score", f"{stats['mean_round_score']:.2f}")
    table.add_row("Flip 7 rate", f"{stats['flip7_rate']:.2%}")
    table.add_row(f"rounds until someone reaches {stats['target']}", f"{stats['mean_rounds_to_target']:.2f}")
    table.add_row("rounds per game (tie-breaks included)", f"{stats['rounds_per_game']:.2f}")
    table.add_row("wins by seat", ", ".join(f"{k} {v}" for k, v in stats["wins"].items()))
    console.print(table)


__all__ = ["print_verdict", "print_game", "print_flip7_simulation"]
