"""Each game's report as terminal tables (rich): :data:`VERDICT_TABLES` maps a game to its printer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from generator.core.cards import SUIT_SYMBOLS, Card, parse_card
from generator.core.validation import cap_repeats, capped_lines, for_terminal, message_shape

if TYPE_CHECKING:  # pragma: no cover
    from generator.games.allin.scoring import GameScore
    from generator.jobs.verify import Verdict

TABLE_NOTES = ("one sheet scored alone", "the log stops")
"""The starts of the notes printed under an All In game's tables (they qualify the scores)."""


def in_tables(verdict: Verdict, note: str) -> bool:
    """True when :func:`print_verdict` prints ``note`` under the tables (so it is not said again on standard error)."""
    return verdict.game == "allin" and note.startswith(TABLE_NOTES)


def print_verdict(verdict: Verdict, console: Console) -> None:
    """Print a :class:`~generator.jobs.verify.Verdict` as its game's tables (:data:`VERDICT_TABLES`), its
    problems (each once, ``FILE:LINE:COL: severity: message``), then its notes about scoring."""
    VERDICT_TABLES[verdict.game](verdict, console)


def _allin_verdict(verdict: Verdict, console: Console) -> None:
    print_game(verdict.score, console)
    for line in capped_lines(verdict.problems):  # spelled out for the terminal, a few of each kind
        console.print(
            line, style="yellow" if ": warning: " in line else "red", markup=False, highlight=False, soft_wrap=True
        )
    for note in verdict.notes:
        if in_tables(verdict, note):
            console.print(Text(note, style="dim" if note.startswith("one sheet") else "yellow"))


def _flip7_verdict(verdict: Verdict, console: Console) -> None:
    errors = [for_terminal(str(p)) for p in verdict.problems if p.is_error]
    print_pad(verdict.report, console, located=errors if len(errors) == len(verdict.report["problems"]) else None)


def card_text(card: Card) -> Text:
    """A card as rich text with its suit symbol, red for hearts and diamonds."""
    assert card.suit is not None  # a card of a hand: never a Joker (hands are scored without them)
    return Text(f"{card.rank_label}{SUIT_SYMBOLS[card.suit]}", style="red" if card.is_red else "")


def print_game(game: GameScore, out: Console, *, detail: bool = True) -> None:
    """Print a scored game: with ``detail`` a table per player (hands, cards, category, points, bonus), then the
    ranking."""
    for p in game.players if detail else []:
        title = f"{p.player} — {game.layout.name} sheet ({game.layout.id})" + (
            " — IMPOSSIBLE SHEET" if p.impossible else ""
        )
        table = Table(title=Text(for_terminal(title)), title_justify="left")
        for col, just in (
            ("hand", "center"),
            ("cards", "left"),
            ("complete", "center"),
            ("category", "left"),
            ("points", "right"),
            ("best hand", "right"),
        ):
            table.add_column(col, justify=just)  # type: ignore[arg-type]
        for letter, h in p.hands.items():
            cards = Text(" ").join(card_text(c) for c in h.cards) if h.cards else Text("—", style="dim")
            category = h.result.category.name.replace("_", " ") if h.result.category is not None else "—"
            table.add_row(
                letter, cards, "yes" if h.complete else "no", category, str(h.points), f"+{h.bonus}" if h.bonus else ""
            )
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
        ranking.add_row(
            str(place),
            Text(for_terminal(q.player)),
            str(q.hand_points),
            str(q.bonus_points),
            str(q.chips_left),
            str(q.total),
            mark,
        )
    out.print(ranking)


def print_sheet_problems(game: GameScore, out: Console) -> None:
    """Say which sheets no game can produce (the problems themselves are listed with the command's findings)."""
    if not game.problems:
        return
    who = [p.player for p in game.players if p.impossible]
    count = len(game.problems)
    out.print(
        Text(
            f"No game can produce the sheet of {', '.join(who)} ({count} problem{'s' if count != 1 else ''}, "
            "listed at the end): scored as written, marked impossible",
            style="bold red",
        )
    )


def print_problems(problems: Sequence[dict], console: Console) -> None:
    """Print a report's problems, one per line: ``FILE:LINE:COL: round N, Player: message``."""
    if not problems:
        console.print(Text("No rule broken.", style="green"))
        return
    console.print(Text(f"{len(problems)} rule {'break' if len(problems) == 1 else 'breaks'}:", style="bold red"))
    shown_, more = cap_repeats(list(problems), lambda pr: message_shape(pr["message"]))  # a few of each kind
    extra = {id(pr): n for pr, n in more}
    for pr in shown_:
        who = f", {pr['player']}" if pr.get("player") else ""
        console.print(
            for_terminal(f"{pr['at']}: round {pr['round']}{who}: {pr['message']}"),
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
        if id(pr) in extra:
            console.print(f"… and {extra[id(pr)]:,} more like this", markup=False, highlight=False)


def print_ranking(report: Mapping[str, Any], unit: str, console: Console) -> None:
    """The closing ranking table of a report (place, player, ``unit``, note)."""
    table = Table(title="Ranking", title_justify="left")
    for col, just in (("#", "right"), ("player", "left"), (unit, "right"), ("", "left")):
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    shared = len(report["winners"]) > 1
    for row in report["ranking"]:
        note = ""
        if row["winner"]:
            note = "shared win" if shared else "winner"
        elif row["out_in_round"] is not None:
            note = f"out in round {row['out_in_round']}"
        table.add_row(
            str(row["place"]), row["player"], str(row[unit]), Text(note, style="bold" if row["winner"] else "dim")
        )
    console.print(table)


def print_fundex_report(report: Mapping[str, Any], console: Console) -> None:
    """Print a :func:`fundex_report` with rich: chips after every round as a table, rule breaks, the ranking.

    Each player's cell shows the chips after the round and, dimmed, the card
    played; the winner's cell is bold; a player out of the game shows ``out``.
    """
    players = report["players"]
    table = Table(title=for_terminal(f"All In (Fundex) — {report['file']}"), title_justify="left")
    for col, just in (("round", "right"), ("lead", "left"), ("dice", "right"), ("roll", "right")):
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for p in players:
        table.add_column(p, justify="right")
    table.add_column("won by", justify="left")
    table.add_column("pot left", justify="right")
    start = report["rules"]["start"]
    table.add_row("start", "", "", "", *[str(start) for _ in players], "", "0")
    gone: set[str] = set()
    for r in report["rounds"]:
        cells: list[Text] = []
        for p in players:
            if p in gone:
                cells.append(Text("out", style="dim"))
                continue
            cell = Text(str(r["chips"][p]), style="bold" if p in r["winners"] else "")
            if p in r["cards"]:
                cell.append(f" ({r['cards'][p]})", style="dim")
            cells.append(cell)
        gone.update(r["eliminated"])
        if r["winners"]:
            who = ", ".join(f"{w} +{r['won'][w]}" for w in r["winners"])
            if r["lone_bettor"]:
                who += " (others passed)"
        else:
            who = "nobody (all over)"
        table.add_row(str(r["round"]), r["lead"], str(r["dice"]), str(r["roll"]), *cells, who, str(r["carried"]))
    console.print(table)
    print_problems(report["problems"], console)
    if report["status"] != "finished":
        console.print(
            Text(
                f"The game is not over: {len(report['rounds'])} of {report['rules']['rounds']} rounds logged.",
                style="yellow",
            )
        )
    print_ranking(report, "chips", console)


def _card_text(code: str) -> Text:
    card = parse_card(code)
    assert card.suit is not None  # a Flip Flop up card: the log refuses a Joker
    return Text(f"{card.rank_label}{SUIT_SYMBOLS[card.suit]}", style="red" if card.is_red else "")


def print_flipflop_report(report: Mapping[str, Any], console: Console) -> None:
    """Print a :func:`flipflop_report` with rich: stakes after every round as a table, rule breaks, the ranking.

    Columns: round, dealer, up card, each player's stakes (bold when the
    player took the game pot), flip and flop winners, how the round ended,
    and the pots left (game/flip/flop, explained in the caption).
    """
    players = report["players"]
    table = Table(
        title=for_terminal(f"Flip Flop — {report['file']}"),
        title_justify="left",
        caption="pots: stakes left in the game/flip/flop pots for the next round; bold: took the game pot",
        caption_justify="left",
    )
    for col, just in (("round", "right"), ("dealer", "left"), ("up", "center")):
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for p in players:
        table.add_column(p, justify="right")
    for col in ("flip", "flop", "end", "pots"):
        table.add_column(col, justify="right" if col == "pots" else "left")
    table.add_row("start", "", "", *[str(report["start"]) for _ in players], "", "", "", "0/0/0")
    gone: set[str] = set()
    for r in report["rounds"]:
        cells = []
        for p in players:
            if p in gone:
                cells.append(Text("out", style="dim"))
            else:
                cells.append(Text(str(r["stakes"][p]), style="bold" if p in r["game_winners"] else ""))
        gone.update(r["eliminated"])
        flip = f"{r['flip']['player']} +{r['flip']['won']}" if r["flip"] else "kept"
        flop = f"{r['flop']['player']} +{r['flop']['won']}" if r["flop"] else "kept"
        end = " ".join([r["end"]["kind"], *r["end"]["players"]])
        if r["game_winners"]:
            end += " → " + ", ".join(f"{w} +{r['won'][w].get('game', 0)}" for w in r["game_winners"])
        c = r["carried"]
        table.add_row(
            str(r["round"]),
            r["dealer"],
            _card_text(r["up"]),
            *cells,
            flip,
            flop,
            end,
            f"{c['game']}/{c['flip']}/{c['flop']}",
        )
    console.print(table)
    print_problems(report["problems"], console)
    print_ranking(report, "stakes", console)


_STATUS_TEXT = {
    "in_progress": "in progress: nobody has reached the target yet",
    "finished": "finished",
    "tied_play_another_round": "tied for the lead at or past the target: play another round",
    "needs_correction": "the pad needs correcting",
}


def _places(impossible: list[dict]) -> str:
    """``round 1, Cy; round 2 (the whole round)``: where a pad needs correcting."""
    return "; ".join(
        f"round {q['round']}, {q['player']}" if q["player"] is not None else f"round {q['round']} (the whole round)"
        for q in impossible
    )


def print_pad(
    report: dict, console: Console, *, target: int | None = None, located: Sequence[str] | None = None
) -> None:
    """Print a :func:`pad_report` as a rich table (rounds as rows; per player the round score and running total),
    then the problems, the status and the winner.

    ``target``, when given, is shown in the title.  A cell with a problem is
    marked ``!`` and drawn in red.  ``located``, when given, replaces the
    report's problems by these lines (``FILE:LINE:COL: error: …``, one per problem).
    """
    players = list(report["totals"])
    flagged = {(p["round"], p["player"]) for p in report["problems"]}
    winners = set(report["winners"])
    title = "Flip 7 score pad" + (f" — target {target}" if target is not None else "")
    if report.get("decks", 1) > 1:
        title += f" — {report['decks']} decks"
    table = Table(title=title, title_justify="left")
    table.add_column("round", justify="right")
    for p in players:
        table.add_column(f"{p}\nscore  total", justify="right")
    running = {p: 0 for p in players}
    for i, row in enumerate(report["rounds"], start=1):
        cells: list[Text | str] = [Text(str(i), style="red") if (i, None) in flagged else str(i)]
        for p in players:
            running[p] += row[p]
            bad = (i, p) in flagged
            cell = Text(f"{'!' if bad else ''}{row[p]}", style="red" if bad else "")
            cell.append(f"  {running[p]:>4}", style="dim")
            cells.append(cell)
        table.add_row(*cells)
    table.add_section()
    top = max(report["totals"].values(), default=0)
    table.add_row(
        Text("total", style="bold"),
        *[
            Text(str(t), style="bold green" if p in winners else ("bold" if t == top else ""))
            for p, t in report["totals"].items()
        ],
    )
    console.print(table)
    for w in report.get("warnings", []):
        console.print(Text(f"warning: {w['message']}", style="yellow"))
    if report["problems"]:
        console.print(
            Text(f"{len(report['problems'])} problem{'s' if len(report['problems']) != 1 else ''}:", style="bold red")
        )
        texts: Sequence[str | None] = located or [None] * len(report["problems"])
        for prob, text in zip(report["problems"], texts):
            who = f", {prob['player']}" if prob["player"] is not None else ""
            console.print(Text(text or f"  round {prob['round']}{who}: {prob['message']}"), soft_wrap=True)
    status = _STATUS_TEXT.get(report["status"], report["status"])
    line = Text("status: ", style="bold").append(
        status, style="bold red" if report["status"] == "needs_correction" else ""
    )
    if report["status"] == "needs_correction":
        line.append(f" at {_places(report['impossible'])}; no winner is named until then")
    if report["winners"]:
        line.append("; winner: ").append(", ".join(report["winners"]), style="bold green")
    console.print(line)


VERDICT_TABLES: dict[str, Callable[[Verdict, Console], None]] = {
    "allin": _allin_verdict,
    "flip7": _flip7_verdict,
    "fundex": lambda verdict, console: print_fundex_report(verdict.report, console),
    "flipflop": lambda verdict, console: print_flipflop_report(verdict.report, console),
}
"""Each game's printer of a verdict (by ``verdict.game``)."""
