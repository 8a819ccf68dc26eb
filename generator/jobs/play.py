"""Games played from a log or by bots: ``replay``, ``simulate`` and ``balance``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from generator.core.errors import OutputError, SheetsmithError
from generator.jobs.verify import Verdict


@dataclass
class ReplayVerdict(Verdict):
    """:func:`replay_log`'s result: a :class:`Verdict` of the final sheets, plus the game itself.

    Attributes:
        result: the referee's :class:`~generator.games.allin.game.ReplayResult`.
        finished: True when all 23 rounds were played.
        rounds: how many rounds the log holds.
        written: the final sheets written (with ``sheets_dir``).
    """

    result: Any = None
    finished: bool = True
    rounds: int = 0
    written: list[Path] = field(default_factory=list)


def replay_log(path: Path, *, sheets_dir: Optional[Path] = None, force: bool = False) -> ReplayVerdict:
    """Referee an All In game log and score its final sheets; optionally write them as typed-in sheets.

    Raises:
        InputError: a malformed log (exit 2).
        FindingsError: the first illegal move, located and worded
            ``round N, PLAYER, CELL: rule broken`` (exit 1).
        OutputError: a sheet file exists in ``sheets_dir`` and ``force`` is False
            (nothing is written then).
    """
    from generator.core.paths import display_path
    from generator.games.allin.game_log import load_game_log, write_final_sheets

    log_file = load_game_log(path, display=display_path(Path(path)))
    result = log_file.replay()
    written = write_final_sheets(sheets_dir, result.sheets, overwrite=force) if sheets_dir is not None else []
    report = result.report()
    notes = []
    if not result.finished:
        notes.append(f"the log stops after round {len(result.rounds)} of 23: scores as they stand")
    return ReplayVerdict(
        "allin",
        report,
        [],
        score=result.score,
        notes=notes,
        result=result,
        finished=result.finished,
        rounds=len(result.rounds),
        written=list(written),
    )


@dataclass
class SimulatedAllIn:
    """:func:`simulate_allin`'s result: the refereed game, where it was written."""

    score: Any
    folder: Path
    log_path: Path
    sheet_paths: list[Path]


def simulate_allin(
    players: int, seed: int, layout: str = "q-diamonds", out_dir: Optional[Path] = None, force: bool = False
) -> SimulatedAllIn:
    """A bot game of All In, refereed, written as a game log and final typed-in sheets.

    Args:
        players: 1 to 8.
        seed: same seed, same game.
        layout: a shipped id or a layout file.
        out_dir: the folder (default ``output/games/allin-LAYOUT-Np-seedS``: its files are written again
            freely while they are as sheetsmith wrote them; one edited since is replaced only with ``force``).
        force: replace files already in ``out_dir``.

    Raises:
        SheetsmithError: players out of range; OutputError: files exist (``out_dir``) or were edited (the
            default folder) and ``force`` is False. The log and the sheets are written as one unit.
    """
    from generator.core.output import check_targets, write_together
    from generator.core.shipped import resolve_layout
    from generator.games.allin.bot import simulate_game
    from generator.games.allin.game import replay
    from generator.games.allin.game_log import dump_game_log, dump_sheet, final_sheet_paths, layout_ref_for
    from generator.games.allin.layout import load_layout

    if not 1 <= players <= 8:
        raise SheetsmithError("--players: All In is simulated for 1 to 8 players")
    lay = load_layout(resolve_layout(layout))
    sim = simulate_game(lay, players, seed)
    result = replay(sim.log)  # the referee checks the bot's game, as it would a player's log
    folder = out_dir or Path("output") / "games" / f"allin-{lay.id}-{players}p-seed{seed}"
    ref = layout_ref_for(lay, folder)
    sheet_paths = final_sheet_paths(folder, result.sheets)
    files = [(folder / "game.yaml", dump_game_log(sim.log, layout_ref=ref, result=result).encode("utf-8"))]
    files += [(p, dump_sheet(s, layout_ref=ref).encode("utf-8")) for p, s in zip(sheet_paths, result.sheets)]
    if out_dir is None and not force:  # the default folder: the same game written again is no change; an edit is kept
        edited = [p for p, data in files if p.is_file() and p.read_bytes() != data]
        if edited:
            raise OutputError(
                f"{edited[0]}: changed since sheetsmith wrote it; pass --force to replace it, "
                "or -o DIR to write this game elsewhere"
            )
    check_targets([p for p, _ in files], overwrite=force or out_dir is None)  # before writing any
    write_together(files)
    return SimulatedAllIn(result.score, folder, files[0][0], list(sheet_paths))


def parse_strategy(text: str) -> str:
    """``stop-at-T`` with T from 1 to 999 in ASCII digits; returned unchanged.

    Raises:
        SheetsmithError: anything else (stop-at-0 stays before any card: nobody ever scores, no game ends).
    """
    t = text[8:]
    if not (text.startswith("stop-at-") and t.isascii() and t.isdigit() and len(t) <= 3 and int(t) >= 1):
        raise SheetsmithError(
            f"--strategy '{text}': use stop-at-T with T from 1 to 999 in ASCII digits, e.g. stop-at-25 (stay once "
            "your numbers reach T)"
        )
    return text


def simulate_flip7(
    players: int, seed: int, strategy: str, games: int, target: int, progress: Optional[Callable[[int], None]] = None
) -> dict:
    """Whole Flip 7 games with one stop-at-T strategy for everybody.

    Returns:
        ``{"games", "players", "strategy", "target", "seed", "bust_rate", "mean_round_score",
        "flip7_rate", "mean_rounds_to_target", "rounds_per_game", "wins", "decks", "warnings"}``
        (rates 0..1; ``decks`` 2 from 19 players; ``warnings`` for 1 or 2 players).

    Args:
        progress: called with the number of games just finished (for a progress bar).

    Raises:
        SheetsmithError: players out of range or a malformed strategy.
    """
    from generator.games.flip7.rules import MAX_PLAYERS, decks_for, player_count_warnings
    from generator.games.flip7.sim import SimulationResult, simulate_games

    if not 1 <= players <= MAX_PLAYERS:
        raise SheetsmithError(
            f"--players: Flip 7 is played by up to {MAX_PLAYERS} players (one deck up to 18, two decks beyond)"
        )
    parse_strategy(strategy)
    batches = max(1, min(20, games // 50))
    sizes = [games // batches + (1 if i < games % batches else 0) for i in range(batches)]
    parts: list[SimulationResult] = []
    for i, size in enumerate(sizes):
        parts.append(simulate_games(players, seed * 1000 + i, strategy, games=size, target=target))
        if progress:
            progress(size)
    pr = sum(p.player_rounds for p in parts)
    wins: dict[str, int] = {}
    for p in parts:
        for k, v in p.wins.items():
            wins[k] = wins.get(k, 0) + v
    return {
        "games": games,
        "players": players,
        "strategy": strategy,
        "target": target,
        "seed": seed,
        "bust_rate": sum(p.bust_rate * p.player_rounds for p in parts) / pr,
        "mean_round_score": sum(p.mean_round_score * p.player_rounds for p in parts) / pr,
        "flip7_rate": sum(p.flip7_rate * p.player_rounds for p in parts) / pr,
        "mean_rounds_to_target": sum(p.mean_rounds_to_target * p.games for p in parts) / games,
        "rounds_per_game": sum(p.rounds for p in parts) / games,
        "wins": wins,
        "decks": decks_for(players),
        "warnings": player_count_warnings(players),
    }


def balance_layouts(
    refs: Sequence[str | Path],
    *,
    games: int = 200,
    players: int = 4,
    seed: int = 1,
    workers: Optional[int] = None,
    progress: Optional[Callable[[int, int], None]] = None,
):
    """Is my sheet fair?  ``games`` bot games on each layout and on Q♦, same deals and bots, compared.

    Returns:
        A :class:`generator.games.allin.balance.Balance`: each sheet's mean and 10th/90th
        percentile totals, hand completion rates and points, chips earned and
        Golden Card surround rate, with warnings (mean total more than 10 %
        from Q♦'s, a hand completed on under 5 % of sheets); ``report()`` is
        the ``--json`` report.

    Args:
        refs: shipped ids or layout files.
        games: games per sheet; players: bots per game (1 to 8); seed: same seed, same figures.
        workers: processes (default one per CPU, never more); the figures do not depend on it.
        progress: called as ``progress(played, total)``.

    Raises:
        InputError: a layout cannot be read or is invalid (exit 2).
        SheetsmithError: options out of range (exit 2).
    """
    from generator.games.allin.balance import balance

    return balance(refs, games=games, players=players, seed=seed, workers=workers, progress=progress)
