"""Terminal output of the command line that is no game's report: simulations, balance figures, a shown layout.

The games' reports are printed by :mod:`generator.cli.tables`.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from generator.core.validation import for_terminal


def print_flip7_simulation(stats: dict, console: Console) -> None:
    """The table of :func:`generator.jobs.play.simulate_flip7`'s figures."""
    decks = f", {stats['decks']} decks" if stats.get("decks", 1) > 1 else ""
    table = Table(
        title=f"Flip 7: {stats['games']} games, {stats['players']} players{decks}, {stats['strategy']}, "
        f"target {stats['target']}, seed {stats['seed']}"
    )
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("bust rate", f"{stats['bust_rate']:.1%}")
    table.add_row("mean round score", f"{stats['mean_round_score']:.2f}")
    table.add_row("Flip 7 rate", f"{stats['flip7_rate']:.2%}")
    table.add_row(f"rounds until someone reaches {stats['target']}", f"{stats['mean_rounds_to_target']:.2f}")
    table.add_row("rounds per game (tie-breaks included)", f"{stats['rounds_per_game']:.2f}")
    table.add_row("wins by seat", ", ".join(f"{k} {v}" for k, v in stats["wins"].items()))
    console.print(table)


def print_balance(result: Any, console: Console) -> None:
    """The tables of :func:`generator.jobs.play.balance_layouts`: the figures side by side, then each layout's hands
    beside Q♦'s."""

    def escape(
        text: str,
    ) -> str:  # names and ids come from layout files: the consoles read no markup; spell out controls
        return for_terminal(text)

    def label(f) -> str:
        return escape(f"{f.name} ({f.id})")

    base = result.baseline
    players = f"{result.players} player" + ("s" if result.players != 1 else "")
    table = Table(
        title=f"Balance: {result.games} games of {players} on each sheet, seed {result.seed} (same deals, same bots)"
    )
    table.add_column("per sheet")
    table.add_column(escape(f"{base.name} (baseline)"), justify="right")
    for c in result.compared:
        table.add_column(label(c.figures), justify="right")

    def row(measure: str, fmt) -> None:
        table.add_row(measure, fmt(base, None), *(fmt(c.figures, c) for c in result.compared))

    def total(f, c) -> Text:
        gap = "" if c is None or c.mean_total_gap is None else f" ({c.mean_total_gap:+.1%})"
        style = "yellow" if any(w.kind == "mean_total" for w in (c.warnings if c else [])) else ""
        return Text(f"{f.mean_total:.1f}{gap}", style=style)

    row("mean total", total)
    row("10th / 90th percentile", lambda f, c: f"{f.p10_total:.1f} / {f.p90_total:.1f}")
    row("  hand points", lambda f, c: f"{f.mean_hand_points:.1f}")
    row("  Best Scoring Hand bonuses", lambda f, c: f"{f.mean_bonus_points:.1f}")
    row("  chips left", lambda f, c: f"{f.mean_chips_left:.1f}")
    row("chips earned", lambda f, c: f"{f.mean_chips_earned:.1f}")
    row("hands completed", lambda f, c: f"{f.mean_hands_completed:.1f} of {len(f.hands)}")
    row("Golden Card surrounded", lambda f, c: f"{f.golden_surround_rate:.0%}")
    row("warnings", lambda f, c: "" if c is None else str(len(c.warnings)))
    console.print(table)

    def hands(f) -> list[tuple]:
        out = []
        for h in f.hands.values():
            rate = Text(f"{h.completion_rate:.0%}", style="yellow" if h.rarely_completed else "")
            out.append((h.letter, h.cells, str(h.length), h.reward, str(h.bonus), rate, f"{h.mean_points:.1f}"))
        return out

    from rich import box

    base_rows = hands(base)
    for c in result.compared:
        f = c.figures
        t = Table(
            title=f"Hands of {label(f)} beside {escape(base.name)}'s: complete = share of sheets, points = mean",
            box=box.SIMPLE_HEAD,
            collapse_padding=True,
            pad_edge=False,
        )
        numeric = ("len", "bonus", "complete", "points")
        for col in ("hand", "cells", "len", "reward", "bonus", "complete", "points"):
            t.add_column(col, justify="right" if col in numeric else "left", no_wrap=True)
        for col in (escape(base.name), "len", "complete", "points"):
            t.add_column(col, justify="right" if col in numeric else "left", no_wrap=True, style="dim")
        mine = hands(f)
        for i in range(max(len(mine), len(base_rows))):
            left = mine[i] if i < len(mine) else ("",) * 7
            right = base_rows[i] if i < len(base_rows) else ("",) * 7
            t.add_row(*left, right[0], right[2], right[5], right[6])
        console.print(t)


def print_show(data: dict, console: Console) -> None:
    """``sheetsmith show``: an All In sheet's grid, its hands and counts; other items in a few lines."""
    from rich.text import Text

    if data["kind"] != "allin-layout":
        table = Table(
            title=for_terminal(f"{data['name']} ({data['id']}, {data['kind']}, {data['file']})"), show_header=False
        )
        table.add_column("what", style="bold")
        table.add_column("value")
        for key, value in data.items():
            if key not in ("name", "id", "kind", "file") and value not in ("", None):
                table.add_row(
                    key.replace("_", " "),
                    for_terminal(
                        ", ".join(f"{k}: {v}" for k, v in value.items()) if isinstance(value, dict) else str(value)
                    ),
                )
        console.print(table)
        return
    counts = data["counts"]
    title = for_terminal(f"{data['name']} ({data['id']}, {data['file']})")
    console.print(Text(title, style="bold"))
    if data["description"]:
        console.print(Text(data["description"], style="dim"))
    console.print()
    golden = data["golden"]["label"]
    for n, line in enumerate(data["picture"]):
        text = Text(line)
        if n:  # not the column header
            text.highlight_regex(
                r"(?<![\[\w])[A-Z](?![\w♠♥♦♣])", "bold red"
            )  # hand letters, not the Golden Card's rank
            text.highlight_regex("•", "bold")
            text.highlight_regex(r"\[" + golden + r"\s*\]", "bold yellow")
        console.print(text, soft_wrap=True)
    console.print(
        Text(
            f"• starting space   [{golden}] the Golden Card   A B C … hands: a row's letter right of it, "
            "a column's under it",
            style="dim",
        ),
        soft_wrap=True,
    )
    console.print()
    table = Table(title="Hands")
    for col in ("hand", "cells", "length", "reward", "bonus"):
        table.add_column(col, justify="right" if col in ("length", "bonus") else "left", no_wrap=True)
    for h in data["hands"]:
        cells = h["span"] + (f" (with {golden})" if h["golden"] else "")
        reward = "single: 1 chip to the first" if h["reward"] == "single" else "double: 2 to the first, 1 later"
        table.add_row(h["letter"], cells, str(h["length"]), reward, f"+{h['bonus']}")
    console.print(table)
    by_length = ", ".join(f"{n} of {k}" for k, n in counts["hands_by_length"].items() if n)
    console.print(
        f"{counts['spaces']} writable spaces ({counts['starting_spaces']} starting), Golden Card at "
        f"{data['golden']['cell']}; {counts['hands']} hands ({by_length} spaces); "
        f"{counts['single']} single, {counts['double']} double rewards; chip track {counts['chip_track']} "
        f"circles, a player can earn {counts['chips_to_earn']}",
        soft_wrap=True,
        highlight=False,
    )


__all__ = ["print_flip7_simulation", "print_show", "print_balance"]
