"""The ``sheetsmith`` command (typer + rich): a thin face over :mod:`generator.jobs`.

Commands: ``build``, ``render``, ``layouts``, ``check``, ``verify``,
``replay``, ``simulate``.  Each parses its options, calls one job and prints
what the job returns.  Problems print as ``FILE:LINE:COL: error: message``
lines on stderr; nothing is half-written.

Exit status, every command (DESIGN.md "Exit codes"): 0 everything read and
nothing wrong (warnings alone included); 1 read, but problems found (a rule
broken, a written score that differs, an impossible sheet, a photo field
that needs a person, validation errors in ``check``); 2 an input could not
be read at all (missing, not YAML, not an image, wrong format) or a usage
error.

Modules are imported by the command that needs them, so that ``--help`` and
a plain render start quickly.
"""

from __future__ import annotations

import os
import signal
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

import typer

from . import __version__
from .errors import Problem, SheetsmithError

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

EXIT_HELP = """Exit status: 0 everything read and nothing wrong (warnings alone included); 1 read, but
problems found (a rule broken, a written score that differs, an impossible sheet, a photo field that needs
a person, validation errors); 2 an input could not be read at all (missing, not YAML, not an image,
wrong format) or a usage error."""

app = typer.Typer(
    add_completion=False,
    help="sheetsmith: printable game sheets from YAML layouts, checked by the same rules engine.\n\n" + EXIT_HELP,
    context_settings={"help_option_names": ["-h", "--help"]},
)

_consoles: dict[str, "Console"] = {}


def out() -> "Console":
    """The console for results (stdout)."""
    if "out" not in _consoles:
        from rich.console import Console

        _consoles["out"] = Console(markup=False, emoji=False)  # names from files are never read as [markup] or :emoji:
    return _consoles["out"]


def err() -> "Console":
    """The console for problems, notes and progress bars (stderr)."""
    if "err" not in _consoles:
        from rich.console import Console

        _consoles["err"] = Console(stderr=True, markup=False, emoji=False)
    return _consoles["err"]


def _say(text: str, *, to_err: bool = True) -> None:
    """Print plain text (no markup, no highlighting, never wrapped); each line escaped so that nothing
    taken from a file or a file name (an escape sequence, a bidi override) reaches the terminal raw."""
    from .validation import for_terminal

    (err() if to_err else out()).print(for_terminal(text, keep_newlines=True), markup=False, highlight=False, soft_wrap=True)


def _problems(problems, *, to_err: bool = True) -> None:
    """Print problems one per line; a run of similar ones is cut to a few and "… and N more like this"."""
    from .validation import capped_lines

    if problems:
        _say("\n".join(capped_lines(problems)), to_err=to_err)


class Format(str, Enum):
    pdf = "pdf"
    svg = "svg"
    png = "png"


class PaperChoice(str, Enum):
    a4 = "a4"
    letter = "letter"


def _progress():
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err(), transient=False)


BLEED = typer.Option(3.0, "--bleed", min=0.0, max=6.0, help="Decks: art beyond the cut line, mm (less is used if the paper is too small).")
BACKS = typer.Option(True, "--backs/--no-backs", help="Decks: a mirrored backs page after each fronts page (long-edge duplex).")
OFFSET = typer.Option("0,0", "--back-offset", help="Decks: DX,DY mm to move every back: +DX right, +DY down, as seen on the printed backs page.")
CARD_SIZE = typer.Option(None, "--card-size", help="Decks: poker (63×88 mm), poker-in (2.5×3.5 in) or bridge (2.25×3.5 in).")


@app.command()
def build(
    out_dir: Path = typer.Option(Path("output"), "--out-dir", "-d", help="Folder for the generated files."),
    papers: List[PaperChoice] = typer.Option(
        [PaperChoice.a4, PaperChoice.letter], "--paper", "-p", case_sensitive=False,
        help="Paper size(s); repeat for several (--paper a4 --paper letter).",
    ),
    dpi: int = typer.Option(150, min=50, max=600, help="Resolution of the PNG previews."),
    bleed: float = BLEED,
    backs: bool = BACKS,
    back_offset: str = OFFSET,
) -> None:
    """Render everything shipped into OUT_DIR: per paper size a PDF to print and a PNG preview;
    decks and chips also get a manifest (JSON) and decks a preview of the backs."""
    from rich.table import Table

    import time

    from .jobs import build_items, print_options, shipped_count
    from .output import remove_stale_temporaries, write_atomic

    started = time.time()
    options = print_options(bleed, backs, back_offset)  # every option checked before anything is written
    total = shipped_count() * len(papers)
    rows: list[tuple[str, ...]] = []
    problems: list[Problem] = []
    with _progress() as progress:
        task = progress.add_task("building", total=total)
        for built in build_items([p.value for p in papers], dpi=dpi, options=options):
            progress.update(task, description=f"{built.id} ({built.paper})")
            problems.extend(built.problems)
            if built.files:
                remove_stale_temporaries(out_dir / built.folder, built.files, before=started)  # left by a killed run
                for name, data in built.files.items():
                    write_atomic(out_dir / built.folder / name, data)
                stem = f"{built.id}-{built.paper}"
                kinds = " ".join(n[len(stem):].lstrip(".-").replace(".png", " png") for n in built.files)
                rows.append((built.id, built.folder, built.paper, str(built.pages), kinds, f"{built.pdf_size / 1024:.0f} KB"))
            progress.advance(task)
    table = Table(title=f"sheetsmith build: {len(rows)} of {total} written to {out_dir}/<folder>/<id>-<paper>.*")
    for col in ("id", "folder", "paper", "pages", "files", "PDF"):
        table.add_column(col, no_wrap=col != "files", justify="right" if col in ("pages", "PDF") else "left")
    for row in rows:
        table.add_row(*row)
    out().print(table)
    _problems(problems)
    if any(p.is_error for p in problems):
        raise typer.Exit(1)


@app.command()
def render(
    layout: str = typer.Argument(..., help="A shipped id (see 'sheetsmith layouts') or a path to a layout, deck or chips YAML file."),
    fmt: Optional[Format] = typer.Option(None, "--format", "-f", case_sensitive=False, help="Output format; default: from -o's extension, else pdf."),
    paper: PaperChoice = typer.Option(PaperChoice.a4, "--paper", "-p", case_sensitive=False, help="Paper size."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Output file; default output/<folder>/<id>-<paper>.<format>."),
    force: bool = typer.Option(False, "--force", help="Replace OUTPUT (and its manifest) if it already exists."),
    dpi: int = typer.Option(150, min=50, max=600, help="PNG resolution."),
    bleed: float = BLEED,
    backs: bool = BACKS,
    back_offset: str = OFFSET,
    card_size: Optional[str] = CARD_SIZE,
    variant: Optional[str] = typer.Option(None, "--variant", help="Flip 7 pads: target=N,flip7_bonus=N printed in the header (default from the layout)."),
    fill: Optional[Path] = typer.Option(None, "--fill", help="All In sheets: draw this typed-in sheet's cards and scores on it, as a player would."),
    others: List[Path] = typer.Option([], "--with", help="With --fill: another sheet of the same game (repeat --with for each), so bonuses are crossed as the game decides."),
) -> None:
    """Render one layout, deck, chip sheet, pad or ledger to PDF (every page), SVG or PNG (the first page).

    A deck or chip sheet rendered to PDF also gets its manifest, a .json file next to the PDF."""
    import json

    from .jobs import print_options, render_item
    from .output import write_atomic
    from .paper import paper as get_paper
    from .render import output_folder

    suffix = output.suffix.lower().lstrip(".") if output else ""
    if output is not None and suffix not in Format.__members__:
        raise SheetsmithError(f"{output}: sheetsmith writes .pdf, .svg or .png files; end the file name with one of those")
    if fmt is None:
        fmt = Format(suffix) if suffix else Format.pdf
    elif suffix and suffix != fmt.value:
        raise SheetsmithError(f"{output}: the name ends in .{suffix} but --format is {fmt.value}; make them agree")
    options = print_options(bleed, backs, back_offset, card_size)
    done = render_item(layout, fmt=fmt.value, paper=paper.value, dpi=dpi, options=options, variant=variant,
                       fill=fill, others=others)
    if output is None:
        target = Path("output") / output_folder(done.item) / f"{done.item.id}-{paper.value}.{fmt.value}"
        overwrite = True
    else:
        target, overwrite = output, force
    manifest_path = target.with_suffix(".json") if (done.manifest is not None and fmt == Format.pdf) else None
    if not overwrite and os.path.lexists(target):
        raise SheetsmithError(f"{target}: already exists; pass --force to replace it")
    if manifest_path is not None and os.path.lexists(manifest_path) and not overwrite:
        raise SheetsmithError(f"{manifest_path} (the manifest next to {target.name}): already exists; pass --force to replace it")
    written = write_atomic(target, done.data, overwrite=overwrite)
    if manifest_path is not None:
        write_atomic(manifest_path, (json.dumps(done.manifest, indent=1) + "\n").encode(), overwrite=True)
    _problems(done.warnings)
    for note in done.notes:
        _say(f"note: {note}")
    n = done.pages
    extent = f"{n} pages" if fmt == Format.pdf and n > 1 else (f"page 1 of {n}" if n > 1 else "1 page")
    extra = f", manifest {manifest_path}" if manifest_path else ""
    _say(f"wrote {written} ({fmt.value.upper()}, {get_paper(paper.value).label}, {extent}, {len(done.data) / 1024:.0f} KB{extra})", to_err=False)


@app.command("layouts")
def list_layouts() -> None:
    """List what ships: sheet layouts, decks, chip sheets, score pads and ledgers."""
    from rich.table import Table
    from rich.text import Text

    from .jobs import check_files
    from .registry import shipped_layouts

    shipped = shipped_layouts()
    table = Table(title="Shipped layouts and components")
    for col in ("id", "folder", "name"):
        table.add_column(col, no_wrap=True)
    table.add_column("contents", ratio=1)
    problems: list[Problem] = []
    for item, checked in zip(shipped, check_files([s.path for s in shipped])):
        if checked.ok:
            table.add_row(item.id, item.game, checked.title, checked.summary)
        else:
            problems.extend(checked.problems)
            table.add_row(item.id, item.game, Text("invalid", style="red"), "run 'sheetsmith check'")
    out().print(table)
    if any(p.is_error for p in problems):
        _problems(problems)
        raise typer.Exit(1)


@app.command()
def check(files: List[Path] = typer.Argument(..., help="Layout, deck, chip sheet, pad or ledger YAML files to validate.")) -> None:
    """Validate layout files: every problem as FILE:LINE:COL.

    Exit status: 0 every file valid (warnings alone are fine), 1 a file has errors, 2 a file cannot be read at all."""
    from .jobs import check_exit_code, check_files

    results = check_files(files)
    for r in results:
        _problems(r.problems)
        if r.ok:
            _say(f"{r.file}: ok ({r.title}: {r.summary})", to_err=False)
    if len(results) > 1:
        bad = sum(1 for r in results if not r.ok)
        _say(f"{len(results)} files: {len(results) - bad} valid, {bad} with errors", to_err=False)
    raise typer.Exit(check_exit_code(results))


def _print_verdict(verdict, as_json: bool) -> None:
    """Print a :class:`~generator.jobs.Verdict`: the JSON report on stdout, or tables; problems on stderr."""
    import json

    for note in verdict.notes if not as_json else [n for n in verdict.notes if "read into" in n]:
        _say(note)
    if as_json:  # the report on stdout, its problems located on stderr
        from .validation import json_for_terminal

        sys.stdout.write(json_for_terminal(json.dumps(verdict.report, indent=2, ensure_ascii=False)) + "\n")
        _problems(verdict.problems)
    else:  # the tables list every problem once, located
        from . import terminal

        terminal.print_verdict(verdict, out())


@app.command()
def verify(
    files: List[Path] = typer.Argument(..., help="All In typed-in sheets or photos of sheets (several = one game), or one Flip 7 score pad, Fundex or Flip Flop round log."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON on stdout (see docs/formats.md)."),
    layout: Optional[str] = typer.Option(None, "--layout", help="Photos: the layout id, when a photo's QR code cannot be read."),
) -> None:
    """Check finished paper with the rules engine, dispatching on each file's game: line.

    All In sheets (typed in, or photographed: each photo is read into NAME.read.yaml and an
    annotated NAME.read.png next to it): every hand, Best Scoring Hand bonuses, totals, ranking. Flip 7 pad:
    round scores, totals, status, winner and every problem. Fundex / Flip Flop logs:
    chips after each round, pots, eliminations, winner and every rule broken.

    Exit status: 0 all read and nothing wrong, 1 problems found (a rule broken, a written score
    that differs, an impossible sheet, a photo field that needs a person), 2 a file cannot be read."""
    from .jobs import verify as verify_job
    from .names import shown
    from .photo_cli import PhotoBars, has_photos

    bars = PhotoBars([shown(f.name) for f in files if has_photos([f])], err())  # a bar per photo, on a terminal
    try:
        verdict = verify_job(files, layout=layout, progress=bars)
    finally:
        bars.stop()
    _print_verdict(verdict, as_json)
    raise typer.Exit(verdict.exit_code)


@app.command()
def replay(
    log: Path = typer.Argument(..., help="An All In game log (docs/formats.md)."),
    as_json: bool = typer.Option(False, "--json", help="Print the verifier's report of the final sheets as JSON."),
    sheets: Optional[Path] = typer.Option(None, "--sheets", help="Write each player's final typed-in sheet into this folder."),
    force: bool = typer.Option(False, "--force", help="Replace sheets already in that folder."),
) -> None:
    """Referee a whole All In game from its log: stop at the first illegal move, else score the final sheets.

    Exit status: 0 a legal game, 1 an illegal move (named with its round, player and cell), 2 the log cannot be read."""
    from .jobs import replay_log

    verdict = replay_log(log, sheets_dir=sheets, force=force)
    if verdict.written and not as_json:
        _say(f"final sheets: {', '.join(str(p) for p in verdict.written)}", to_err=False)
    _print_verdict(verdict, as_json)
    raise typer.Exit(verdict.exit_code)


class Game(str, Enum):
    allin = "allin"
    flip7 = "flip7"


@app.command()
def simulate(
    game: Game = typer.Argument(..., case_sensitive=False, help="allin or flip7."),
    players: int = typer.Option(4, "--players", "-n", help="Number of players."),
    seed: int = typer.Option(1, "--seed", "-s", help="Same seed, same result."),
    layout: str = typer.Option("q-diamonds", "--layout", help="allin: the sheet layout (id or file)."),
    out_dir: Optional[Path] = typer.Option(None, "-o", "--out-dir", help="allin: folder for the game log and final sheets (default output/games/...)."),
    force: bool = typer.Option(False, "--force", help="allin: replace files already in --out-dir."),
    strategy: str = typer.Option("stop-at-23", "--strategy", help="flip7: stop-at-T, stay once your numbers add up to T."),
    games: int = typer.Option(2000, "--games", min=1, max=1_000_000, help="flip7: how many games."),
    target: int = typer.Option(200, "--target", min=50, max=1000, help="flip7: the target score."),
) -> None:
    """Play games with simple bots: All In writes a game log and the final sheets; Flip 7 reports bust rate,
    mean round score and rounds to the target."""
    from . import terminal
    from .jobs import simulate_allin, simulate_flip7

    if game == Game.allin:
        sim = simulate_allin(players, seed, layout, out_dir, force)
        terminal.print_game(sim.score, out(), detail=False)
        _say(f"wrote {sim.log_path} and {len(sim.sheet_paths)} sheets in {sim.folder}/ (replay: sheetsmith replay {sim.log_path})", to_err=False)
        return
    from .jobs import parse_strategy

    parse_strategy(strategy)  # before the progress bar starts
    with _progress() as progress:
        task = progress.add_task("simulating", total=games)
        stats = simulate_flip7(players, seed, strategy, games, target, progress=lambda n: progress.advance(task, n))
    for warning in stats["warnings"]:
        _say(f"warning: {warning}")
    terminal.print_flip7_simulation(stats, out())


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: bool = typer.Option(False, "--version", help="Print the version and exit."),
) -> None:
    if version:
        _say(f"sheetsmith {__version__}", to_err=False)
        raise typer.Exit(0)
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(0)


def main() -> None:
    """Console entry point.

    typer runs in standalone mode, so a usage mistake (missing argument, bad
    option value) prints typer's short message and exits 2.  sheetsmith's own
    errors print ``FILE:LINE:COL: error: message`` lines and exit with the
    error's code (1 problems found, 2 cannot be read or used).
    """
    def stop(signum, _frame):  # TERM and HUP end the run like Ctrl-C: temporary files are removed
        raise SystemExit(128 + signum)

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), stop)
    try:
        app()
    except SheetsmithError as exc:
        for note in getattr(exc, "notes", []):
            _say(note)
        problems = getattr(exc, "problems", None)
        if problems:
            _problems(problems)
        else:
            _say(f"error: {exc}")
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        _say("interrupted; nothing half-written was left behind")
        sys.exit(130)


if __name__ == "__main__":  # pragma: no cover
    main()
