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
    """Is my sheet fair?  ``games`` bot games on each layout and on Q♦, same deals and bots, compared
    (:mod:`generator.games.allin.balance`).

    Args:
        refs: layouts to measure: shipped ids or layout files (at least one).
        games: games per sheet (1 to 100,000); players: bots per game (1 to 8).
        seed: run seed; game ``i`` is dealt from :func:`~generator.games.allin.balance.game_seed` ``(seed, i)``.
        workers: processes to play on (default one per CPU this process may use, never more); the figures do
            not depend on it.
        progress: called as ``progress(played, total)`` with the games just played and the games of the whole
            run (for a progress bar); first with 0 once every layout has been read, before any game.

    Returns:
        A :class:`generator.games.allin.balance.Balance`: each sheet's mean and 10th/90th
        percentile totals, hand completion rates and points, chips earned and
        Golden Card surround rate, with warnings (mean total more than 10 %
        from Q♦'s, a hand completed on under 5 % of sheets); ``report()`` is
        the ``--json`` report; its ``exit_code`` is 0 (warnings alone do not fail).

    Raises:
        InputError: a layout cannot be read, is invalid, or is not an All In sheet (exit 2).
        SheetsmithError: options out of range (exit 2).
    """
    from generator.core.paths import display_path
    from generator.core.shipped import resolve_layout
    from generator.games.allin.balance import BASELINE, Balance, Compared, fairness_warnings, mean_total_gap, summarize
    from generator.games.allin.layout import load_layout

    if not refs:
        raise SheetsmithError("give at least one layout (a shipped id or a layout file)")
    workers = check_balance_options(games, players, workers)
    base_path = resolve_layout(BASELINE)
    paths = [resolve_layout(str(r)) for r in refs]
    layouts = [load_layout(p) for p in paths]  # every layout read and checked before any game is played
    unique = [base_path]
    for p in paths:
        if p.resolve() not in [u.resolve() for u in unique]:
            unique.append(p)
    to_play = [load_layout(base_path)] + [layouts[paths.index(p)] for p in unique[1:]]
    played = _play_all(to_play, [str(p) for p in unique], games, players, seed, workers, progress)
    figures = [summarize(lay, res, file=display_path(p)) for lay, res, p in zip(to_play, played, unique)]
    by_path = {p.resolve(): f for p, f in zip(unique, figures)}
    baseline = figures[0]
    compared = []
    for p, lay in zip(paths, layouts):
        fig = by_path[p.resolve()]
        found = _locate(fairness_warnings(fig, baseline), p, fig.file)
        compared.append(Compared(fig, mean_total_gap(fig, baseline), found, list(lay.warnings)))
    return Balance(games, players, seed, baseline, compared)


def check_balance_options(games: int, players: int, workers: Optional[int]) -> int:
    """Validate a ``balance`` run's options; the number of worker processes to use (1 to the CPUs this process
    may use; ``None``: one per CPU; more is cut down).

    Raises:
        SheetsmithError: games, players or workers out of range (exit 2).
    """
    from generator.core.process import usable_cpus
    from generator.games.allin.balance import MAX_GAMES, MAX_PLAYERS

    if not 1 <= games <= MAX_GAMES:
        raise SheetsmithError(f"--games {games}: play 1 to {MAX_GAMES:,} games")
    if not 1 <= players <= MAX_PLAYERS:
        raise SheetsmithError(f"--players {players}: All In is simulated for 1 to {MAX_PLAYERS} players")
    cpus = usable_cpus()
    if workers is None:
        return cpus
    if workers < 1:
        raise SheetsmithError(f"--workers {workers}: use at least 1 (1 plays every game in this process)")
    return min(workers, cpus)


BALANCE_CHUNK = 5
"""Games per task handed to a worker process (small, for an even spread and a lively progress bar)."""

BALANCE_MODULES = ["generator.games.allin.balance", "generator.games.allin.layout"]
"""What a ``balance`` worker needs: imported once by the fork server, before it forks the workers."""

_WORKER_LAYOUTS: list = []
"""In a ``balance`` worker: the layouts of the run, loaded once (:func:`_init_balance_worker`)."""


def _init_balance_worker(paths: Sequence[str]) -> None:
    """Worker process start: leave Ctrl-C and TERM to the parent, load the layouts once."""
    import signal

    from generator.games.allin.layout import load_layout

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _WORKER_LAYOUTS[:] = [load_layout(p) for p in paths]


def _play_chunk(sheet: int, start: int, stop: int, players: int, seed: int) -> tuple[int, int, list]:
    from generator.games.allin.balance import play_games

    return sheet, start, play_games(_WORKER_LAYOUTS[sheet], range(start, stop), players, seed)


def _play_all(
    layouts: Sequence,
    paths: Sequence[str],
    games: int,
    players: int,
    seed: int,
    workers: int,
    progress: Optional[Callable[[int, int], None]],
) -> list[list[list]]:
    """Every game of every layout, in game order per layout, on ``workers`` processes (1, or none that can
    start: this process)."""
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    from generator.core.process import main_module_hidden, worker_context
    from generator.games.allin.balance import play_games

    results: list[list[Any]] = [[None] * games for _ in layouts]
    tasks = [
        (i, start, min(start + BALANCE_CHUNK, games))
        for i in range(len(layouts))
        for start in range(0, games, BALANCE_CHUNK)
    ]

    def store(i: int, start: int, played: list) -> None:
        results[i][start : start + len(played)] = played
        if progress:
            progress(len(played), games * len(layouts))

    def here() -> list[list[list]]:
        for i, start, stop in tasks:
            store(i, start, play_games(layouts[i], range(start, stop), players, seed))
        return results

    if progress:
        progress(0, games * len(layouts))
    if workers <= 1:
        return here()
    pool = None
    try:
        pool = ProcessPoolExecutor(
            workers,
            mp_context=worker_context(BALANCE_MODULES),
            initializer=_init_balance_worker,
            initargs=(list(paths),),
        )
        with main_module_hidden():  # the workers start during the submits
            futures = [pool.submit(_play_chunk, i, start, stop, players, seed) for i, start, stop in tasks]
    except (OSError, RuntimeError):  # no process or thread can start here (a sandbox, no slots)
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        return here()
    done = set()
    try:
        for future in as_completed(futures):
            store(*future.result())
            done.add(future)
    except BrokenProcessPool:  # a worker could not start or died: the chunks not played are played here
        pool.shutdown(wait=False, cancel_futures=True)
        for future, (i, start, stop) in zip(futures, tasks):
            if future not in done:
                store(i, start, play_games(layouts[i], range(start, stop), players, seed))
        return results
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return results


def _locate(warnings: list, path: Path, display: str) -> list:
    """Hand warnings pointed at the hand's entry under ``hands:`` in the layout file."""
    from generator.core.yamlpos import load_yaml
    from generator.games.allin.balance import BalanceWarning

    doc = load_yaml(path, display=display)
    out = []
    for w in warnings:
        if w.hand is not None:
            at = doc.pos(("hands", w.hand), key=True)
            w = BalanceWarning(w.kind, w.message, w.hand, display, at.line, at.col)
        out.append(w)
    return out
