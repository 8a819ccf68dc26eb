"""The game commands of ``sheetsmith``: ``verify`` (dispatch on ``game:``), ``replay`` and ``simulate``.

Each command reads user files through the located-error readers, calls a
pure rules core, and prints a rich table (or the JSON report with ``--json``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional, Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .errors import InputError, Problem, SheetsmithError
from .registry import display_path, load_layout, resolve_layout, wrong_command
from .yamlpos import load_yaml

GAMES_VERIFIED = ("allin", "flip7", "fundex", "flipflop")


def _json_out(report: dict) -> None:
    sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")


def verify_files(paths: Sequence[Path], *, as_json: bool, out: Console, layout: Optional[str] = None) -> None:
    """``sheetsmith verify``: read the first file's ``game:`` and hand all files to that game's verifier.

    Photos (All In sheets) may be mixed with typed-in sheets: they are read first
    (:mod:`generator.photo_cli`), then scored with the others.

    Raises:
        InputError: unknown or mixed games, or any problem the game's reader finds.
    """
    from .photo_cli import has_photos, verify_photo_inputs

    if has_photos(paths):
        verify_photo_inputs(paths, layout=layout, as_json=as_json, out=out)
        return
    if layout is not None:
        raise SheetsmithError("--layout names the layout of photos whose QR code cannot be read; no photo was given")
    games = []
    for path in paths:
        doc = load_yaml(path, display=display_path(path))
        game = doc.data.get("game")
        hint = wrong_command(doc.data, "verify")
        if hint:
            raise InputError([doc.problem((), hint)])
        if game not in GAMES_VERIFIED:
            raise InputError([doc.problem(("game",) if "game" in doc.data else (), f"game {game!r} cannot be verified; games: {', '.join(GAMES_VERIFIED)}")])
        games.append((doc, game))
    first = games[0][1]
    for doc, game in games[1:]:
        if game != first:
            raise InputError([doc.problem(("game",), f"this file is game '{game}' but {games[0][0].file} is '{first}'; verify one game at a time")])
    if first == "allin":
        from .sheetverify import verify_sheets

        verify_sheets(paths, as_json=as_json, out=out)
        return
    if len(paths) > 1:
        raise InputError([Problem(games[1][0].file, 0, 0, f"a {first} file holds a whole game; verify one file at a time")])
    doc = games[0][0]
    if first == "flip7":
        from .flip7_pad import pad_from_document, pad_report, print_pad

        pad = pad_from_document(doc)
        report = pad_report(pad)
        _json_out(report) if as_json else print_pad(report, out)
    elif first == "fundex":
        from .fundex_log import fundex_log_from_document, fundex_report, print_fundex_report

        report = fundex_report(fundex_log_from_document(doc, Path(paths[0])))
        _json_out(report) if as_json else print_fundex_report(report, out)
    else:
        from .flipflop_log import flipflop_log_from_document, flipflop_report, print_flipflop_report

        report = flipflop_report(flipflop_log_from_document(doc, Path(paths[0])))
        _json_out(report) if as_json else print_flipflop_report(report, out)


def replay_game(path: Path, *, as_json: bool, sheets_dir: Optional[Path], force: bool, out: Console) -> None:
    """``sheetsmith replay``: referee an All In game log; print the final scores; optionally write the final sheets.

    Raises:
        InputError: a malformed log, or the first illegal move (round, player, move and rule, located).
    """
    from .allin_log import load_game_log, write_final_sheets
    from .sheetverify import print_game

    log_file = load_game_log(path, display=display_path(path))
    result = log_file.replay()
    if sheets_dir is not None:
        written = write_final_sheets(sheets_dir, result.sheets, overwrite=force)
        if not as_json:
            out.print(f"final sheets: {', '.join(str(p) for p in written)}", highlight=False)
    if as_json:
        _json_out(result.report())
        return
    print_game(result.score, out)
    if not result.finished:
        out.print(f"[yellow]the log stops after round {len(result.rounds)} of 23: scores as they stand[/yellow]")


def simulate_allin(players: int, seed: int, layout: str, out_dir: Optional[Path], force: bool, out: Console) -> None:
    """``sheetsmith simulate allin``: a bot game, written as a game log and final typed-in sheets."""
    from .allin_log import write_final_sheets, write_game_log
    from .rules.allin_bot import simulate_game
    from .rules.allin_game import replay

    if not 1 <= players <= 8:
        raise SheetsmithError("--players: All In is simulated for 1 to 8 players")
    lay = load_layout(resolve_layout(layout))
    sim = simulate_game(lay, players, seed)
    result = replay(sim.log)  # the referee checks the bot's game, as it would a player's log
    folder = out_dir or Path("output") / "games" / f"allin-{lay.id}-{players}p-seed{seed}"
    log_path = write_game_log(folder / "game.yaml", sim.log, result=result, overwrite=force or out_dir is None)
    sheet_paths = write_final_sheets(folder, result.sheets, overwrite=force or out_dir is None)
    from .sheetverify import print_game

    print_game(result.score, out, detail=False)
    out.print(f"wrote {log_path} and {len(sheet_paths)} sheets in {folder}/ (replay: sheetsmith replay {log_path})", highlight=False)


def simulate_flip7(players: int, seed: int, strategy: str, games: int, target: int, out: Console) -> None:
    """``sheetsmith simulate flip7``: whole games with a stop-at-T strategy; bust rate, mean round score, rounds to the target."""
    from .rules.flip7 import MAX_PLAYERS, SimulationResult, decks_for, player_count_warnings, simulate_games

    if not 1 <= players <= MAX_PLAYERS:
        raise SheetsmithError(f"--players: Flip 7 is played by up to {MAX_PLAYERS} players (one deck up to 18, two decks beyond)")
    for warning in player_count_warnings(players):
        Console(stderr=True).print(f"warning: {warning}", markup=False, highlight=False, soft_wrap=True)
    if not strategy.startswith("stop-at-") or not strategy[8:].isdigit():
        raise SheetsmithError(f"--strategy '{strategy}': use stop-at-T, e.g. stop-at-25 (stay once your numbers reach T)")
    batches = max(1, min(20, games // 50))
    sizes = [games // batches + (1 if i < games % batches else 0) for i in range(batches)]
    parts: list[SimulationResult] = []
    with Progress(TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=Console(stderr=True)) as progress:
        task = progress.add_task("games", total=games)
        for i, size in enumerate(sizes):
            parts.append(simulate_games(players, seed * 1000 + i, strategy, games=size, target=target))
            progress.advance(task, size)
    rounds = sum(p.rounds for p in parts)
    pr = sum(p.player_rounds for p in parts)
    decks = f", {decks_for(players)} decks" if decks_for(players) > 1 else ""
    table = Table(title=f"Flip 7: {games} games, {players} players{decks}, {strategy}, target {target}, seed {seed}")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("bust rate", f"{sum(p.bust_rate * p.player_rounds for p in parts) / pr:.1%}")
    table.add_row("mean round score", f"{sum(p.mean_round_score * p.player_rounds for p in parts) / pr:.2f}")
    table.add_row("Flip 7 rate", f"{sum(p.flip7_rate * p.player_rounds for p in parts) / pr:.2%}")
    table.add_row(f"rounds until someone reaches {target}", f"{sum(p.mean_rounds_to_target * p.games for p in parts) / games:.2f}")
    table.add_row("rounds per game (tie-breaks included)", f"{rounds / games:.2f}")
    wins: dict[str, int] = {}
    for p in parts:
        for k, v in p.wins.items():
            wins[k] = wins.get(k, 0) + v
    table.add_row("wins by seat", ", ".join(f"{k} {v}" for k, v in wins.items()))
    out.print(table)
