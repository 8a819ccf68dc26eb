"""The ``sheetsmith`` command (typer + rich): a thin face over :mod:`generator.jobs`.

Commands: ``build``, ``render``, ``layouts``, ``check``, ``verify``,
``replay``, ``simulate``, ``balance``, ``serve``.  Each parses its options, calls one job and prints
what the job returns.  Problems print as ``FILE:LINE:COL: error: message``
lines on stderr; nothing is half-written.

Exit status, every command (docs/formats.md, "Exit status"): 0 everything read and
nothing wrong (warnings alone included); 1 read, but problems found (a rule
broken, a written score that differs, an impossible sheet, a photo field
that needs a person, validation errors in ``check``); 2 an input could not
be read at all (missing, not YAML, not an image, wrong format) or a usage
error.

Modules are imported by the command that needs them, so that ``--help`` and
a plain render start quickly.
"""

from __future__ import annotations

import signal
import sys
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

import typer

from generator import __version__
from generator.cli.streams import STREAM_ERRORS, guard_standard_streams, output_failed
from generator.core.errors import Interrupted, Problem, SheetsmithError

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

EXIT_HELP = """Exit status: 0 everything read and nothing wrong (warnings alone included); 1 read, but
problems found (a rule broken, a written score that differs, an impossible sheet, a photo field that needs
a person, validation errors); 2 an input could not be read at all (missing, not YAML, not an image,
wrong format) or a usage error."""


def _plain_arguments() -> None:
    """Show arguments in help as ``FILE...`` (their metavar), not typer 0.2x's ``{files}...`` and ``<list[Path]>``.

    Only the help text changes; a typer without these hooks is left as it is.
    """
    from typer.core import TyperArgument

    if hasattr(TyperArgument, "_usage_display_name"):

        def usage(self) -> str:
            name = self.metavar or (self.name or "").upper()
            return name if self.required else f"[{name}]"

        TyperArgument._usage_display_name = usage  # type: ignore[method-assign]
    if hasattr(TyperArgument, "display_type_rich"):
        TyperArgument.display_type_rich = lambda self, ctx: None  # type: ignore[method-assign]


_plain_arguments()

app = typer.Typer(
    add_completion=True,
    rich_markup_mode=None,  # plain help: flag names without <bool>, no rich import for --help
    help="sheetsmith: printable game sheets from YAML layouts, checked by the same rules engine.\n\n" + EXIT_HELP,
    context_settings={"help_option_names": ["-h", "--help"]},
)

_consoles: dict[str, "Console"] = {}

UNWRAPPED = 100_000
"""Console width when the output is not a terminal: lines piped to another program are never wrapped."""


def _console(stderr: bool) -> "Console":
    from rich.console import Console

    console = Console(
        stderr=stderr, markup=False, emoji=False
    )  # names from files are never read as [markup] or :emoji:
    if not console.is_terminal:  # a pipe or a file: no wrapping at 80 columns, tables at their natural width
        console.width = UNWRAPPED
    return console


def out() -> "Console":
    """The console for results (stdout); never wraps when stdout is not a terminal."""
    if "out" not in _consoles:
        _consoles["out"] = _console(stderr=False)
    return _consoles["out"]


def err() -> "Console":
    """The console for problems, notes and progress bars (stderr); never wraps when stderr is not a terminal."""
    if "err" not in _consoles:
        _consoles["err"] = _console(stderr=True)
    return _consoles["err"]


def _say(text: str, *, to_err: bool = True) -> None:
    """Print plain text (no markup, no highlighting, never wrapped), without loading rich; each line
    escaped so that nothing taken from a file or a file name (an escape sequence, a bidi override)
    reaches the terminal raw."""
    from generator.core.validation import for_terminal

    text = for_terminal(text, keep_newlines=True)
    stream = sys.stderr if to_err else sys.stdout
    try:
        try:
            print(text, file=stream, flush=True)
        except UnicodeEncodeError:  # a terminal that cannot show ♦ and –
            data = (text + "\n").encode(stream.encoding or "ascii", errors="replace")
            stream.buffer.write(data) if hasattr(stream, "buffer") else stream.write(data.decode("ascii", "replace"))
            stream.flush()
    except OSError:
        if not to_err:
            raise  # standard output: the report is incomplete (main, output_failed)
        _lose_stderr()  # a full disk behind 2>FILE: nothing can be said; the exit status still tells


def _lose_stderr() -> None:
    """Standard error cannot be written: point it at the null device, so that what is still buffered for it
    (and every later message) goes nowhere instead of failing again at exit (Python would end with 120)."""
    from generator.core.process import point_at_null

    try:
        point_at_null(sys.stderr.fileno())
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def _problems(problems, *, to_err: bool = True) -> None:
    """Print problems one per line; a run of similar ones is cut to a few and "… and N more like this"."""
    from generator.core.validation import capped_lines

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

    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err(),
        transient=False,
    )


BLEED = typer.Option(
    3.0,
    "--bleed",
    min=0.0,
    max=6.0,
    metavar="MM",
    help="Decks: art beyond the cut line, mm (less is used if the paper is too small).",
)
BACKS = typer.Option(
    True, "--backs/--no-backs", help="Decks: a mirrored backs page after each fronts page (long-edge duplex)."
)
OFFSET = typer.Option(
    "0,0",
    "--back-offset",
    metavar="DX,DY",
    help="Decks: DX,DY mm to move every back: +DX right, +DY down, as seen on the printed backs page.",
)
CARD_SIZE = typer.Option(
    None, "--card-size", metavar="SIZE", help="Decks: poker (63×88 mm), poker-in (2.5×3.5 in) or bridge (2.25×3.5 in)."
)
LANG_HELP = "Language of every printed word: en, it, fr, de (one catalogue per language in templates/lang/)."


@app.command()
def build(
    out_dir: Path = typer.Option(
        Path("output"), "--out-dir", "-d", metavar="DIR", help="Folder for the generated files."
    ),
    papers: List[PaperChoice] = typer.Option(
        [PaperChoice.a4, PaperChoice.letter],
        "--paper",
        "-p",
        case_sensitive=False,
        metavar="a4|letter",
        help="Paper size(s); repeat for several (--paper a4 --paper letter).",
    ),
    dpi: int = typer.Option(150, min=50, max=600, metavar="N", help="Resolution of the PNG previews."),
    bleed: float = BLEED,
    backs: bool = BACKS,
    back_offset: str = OFFSET,
    langs: List[str] = typer.Option(
        ["en"],
        "--lang",
        "-l",
        metavar="LANG",
        help=LANG_HELP
        + " Repeat or separate by commas for several; 'all' for every one. Files in another language than English end "
        "in -LANG.",
    ),
) -> None:
    """Render everything shipped into OUT_DIR: per paper size a PDF to print and a PNG preview;
    decks and chips also get a manifest (JSON) and a preview of the backs."""
    import time

    from rich.table import Table

    from generator.core.output import remove_stale_temporaries, write_atomic
    from generator.jobs.render import build_items, languages_asked, print_options, shipped_count

    started = time.time()
    options = print_options(bleed, backs, back_offset)  # every option checked before anything is written
    langs = languages_asked(langs)
    total = shipped_count() * len(papers) * len(langs)
    rows: list[tuple[str, ...]] = []
    problems: list[Problem] = []
    with _progress() as progress:
        task = progress.add_task("building", total=total)
        for built in build_items([p.value for p in papers], dpi=dpi, options=options, langs=langs):
            progress.update(
                task, description=f"{built.id} ({built.paper}{', ' + built.lang if built.lang != 'en' else ''})"
            )
            problems.extend(built.problems)
            if built.files:
                remove_stale_temporaries(out_dir / built.folder, built.files, before=started)  # left by a killed run
                for name, data in built.files.items():
                    write_atomic(out_dir / built.folder / name, data)
                stem = built.stem
                kinds = " ".join(n[len(stem) :].lstrip(".-").replace(".png", " png") for n in built.files)
                rows.append(
                    (
                        built.id,
                        built.folder,
                        built.paper + ("" if built.lang == "en" else f" {built.lang}"),
                        str(built.pages),
                        kinds,
                        f"{built.pdf_size / 1024:.0f} KB",
                    )
                )
            progress.advance(task)
    table = Table(
        title=f"sheetsmith build: {len(rows)} of {total} written to "
        f"{out_dir}/<folder>/<id>-<paper>{'[-<lang>]' if langs != ['en'] else ''}.*"
    )
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
    layout: str = typer.Argument(
        ...,
        metavar="ID|FILE",
        help="A shipped id (see 'sheetsmith layouts') or a path to a layout, deck, chip sheet or pad YAML file.",
    ),
    fmt: Optional[Format] = typer.Option(
        None,
        "--format",
        "-f",
        case_sensitive=False,
        metavar="pdf|svg|png",
        help="Output format; default: from -o's extension, else pdf.",
    ),
    paper: PaperChoice = typer.Option(
        PaperChoice.a4, "--paper", "-p", case_sensitive=False, metavar="a4|letter", help="Paper size."
    ),
    output: Optional[Path] = typer.Option(
        None,
        "-o",
        "--output",
        metavar="FILE",
        help="Output file; default: output/<folder>/<id>-<paper>.<format> for a shipped id, <file>-<paper>.<format> "
        "next to your own file (with --fill: next to the filled-in file); a --variant or deck options add what they "
        "change (flip7-pad-a4-target300.pdf).",
    ),
    force: bool = typer.Option(
        False,
        "--force",
        help="Replace an existing output of your own file, of --fill or -o (and its manifest); shipped items' outputs "
        "are replaced freely.",
    ),
    page: Optional[str] = typer.Option(
        None,
        "--page",
        "--pages",
        metavar="N|all",
        help="One page (1, 2, ...) in any format, or 'all': one SVG or PNG per page, NAME-p01.png, NAME-p02.png, ...",
    ),
    dpi: int = typer.Option(150, min=50, max=600, metavar="N", help="PNG resolution."),
    bleed: float = BLEED,
    backs: bool = BACKS,
    back_offset: str = OFFSET,
    card_size: Optional[str] = CARD_SIZE,
    variant: Optional[str] = typer.Option(
        None,
        "--variant",
        metavar="target=N,flip7_bonus=N",
        help="Flip 7 pads: target=N,flip7_bonus=N printed in the header (default from the layout).",
    ),
    fill: Optional[Path] = typer.Option(
        None,
        "--fill",
        metavar="FILE",
        help="Draw a typed-in file on the item as a player fills it: an All In sheet on its layout, a Flip 7 pad on "
        "the score pad or tick pad (a page per player).",
    ),
    others: List[Path] = typer.Option(
        [],
        "--with",
        metavar="SHEET",
        help="With --fill on an All In sheet: another sheet of the same game (repeat --with for each), so bonuses are "
        "crossed as the game decides.",
    ),
    lang: str = typer.Option(
        "en",
        "--lang",
        "-l",
        metavar="LANG",
        help=LANG_HELP + " The default file name ends in -LANG for another language than English.",
    ),
) -> None:
    """Render one layout, deck, chip sheet, pad or ledger to PDF (every page), SVG or PNG (one page).

    A deck or chip sheet rendered to PDF also gets its manifest, a .json file next to the PDF."""
    from generator.jobs.render import print_options, render_item
    from generator.jobs.targets import output_target, parse_page, write_rendered

    fmt = _format(fmt, output)
    options = print_options(bleed, backs, back_offset, card_size)
    done = render_item(
        layout,
        fmt=fmt.value,
        paper=paper.value,
        dpi=dpi,
        options=options,
        variant=variant,
        fill=fill,
        others=others,
        page=parse_page(page),
        lang=lang,
    )
    target, overwrite = output_target(done, output=output, force=force)
    written, manifest = write_rendered(done, target, overwrite)
    _problems(done.warnings)
    for note in done.notes:
        _say(f"note: {note}")
    _say(_rendered_line(done, written, manifest), to_err=False)


def _format(fmt: Optional[Format], output: Optional[Path]) -> Format:
    """The output format from ``--format`` and ``-o``'s extension, which must agree."""
    suffix = output.suffix.lower().lstrip(".") if output else ""
    if output is not None and suffix not in Format.__members__:
        raise SheetsmithError(
            f"{output}: sheetsmith writes .pdf, .svg or .png files; end the file name with one of those"
        )
    if fmt is None:
        return Format(suffix) if suffix else Format.pdf
    if suffix and suffix != fmt.value:
        raise SheetsmithError(f"{output}: the name ends in .{suffix} but --format is {fmt.value}; make them agree")
    return fmt


def _rendered_line(done, written: list[Path], manifest: Optional[Path]) -> str:
    """The line ``render`` prints for what :func:`generator.jobs.targets.write_rendered` wrote."""
    n, label, kind = done.pages, done.paper_label, done.fmt.upper()
    if done.each_page:
        size = sum(len(d) for d in done.each_page)
        return (
            f"wrote {written[0]} … {written[-1].name} ({n} {kind} files, {label}, one per page, {size / 1024:.0f} KB)"
        )
    if done.page is not None:
        extent = f"page {done.page} of {n}"
    else:
        extent = f"{n} pages" if done.fmt == "pdf" and n > 1 else (f"page 1 of {n}" if n > 1 else "1 page")
    extra = f", manifest {manifest}" if manifest else ""
    return f"wrote {written[0]} ({kind}, {label}, {extent}, {len(done.data) / 1024:.0f} KB{extra})"


@app.command("layouts")
def list_layouts(
    as_json: bool = typer.Option(
        False, "--json", help="Print every shipped item's id, kind, game, paper sizes and file as JSON."
    ),
) -> None:
    """List what ships: sheet layouts, decks, chip sheets, score pads and ledgers."""
    if as_json:
        import json

        from generator.jobs.show import shipped_items

        rows, found = shipped_items()
        sys.stdout.write(json.dumps(rows, indent=2, ensure_ascii=False) + "\n")
        _problems(found)
        raise typer.Exit(1 if any(p.is_error for p in found) else 0)
    from rich.table import Table
    from rich.text import Text

    from generator.core.shipped import shipped_layouts
    from generator.jobs.check import check_files

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
def new(
    game: str = typer.Argument(..., metavar="allin", help="The game: allin (All In player sheets)."),
    file: Path = typer.Argument(..., metavar="FILE.yaml", help="The new layout file; its name gives the sheet's id."),
    source: Optional[str] = typer.Option(
        None,
        "--from",
        metavar="ID|FILE",
        help="Copy this sheet (a shipped id such as q-diamonds, or a layout file); "
        "default: a small commented skeleton.",
    ),
    force: bool = typer.Option(False, "--force", help="Replace FILE if it exists."),
) -> None:
    """Start a sheet of your own: a copy of a shipped sheet or a commented skeleton, with a fresh id that is
    never a shipped one. Then: sheetsmith watch FILE (or check, show, render)."""
    from generator.jobs.new import new_layout

    made = new_layout(game.lower(), file, source=source, force=force)
    what = f"a copy of {made.copied_from}" if made.copied_from else "a skeleton: a 5×5 grid with ten hands"
    _say(f"wrote {made.path} ({what}, id '{made.id}')", to_err=False)
    import shlex

    file_arg = shlex.quote(str(made.path))  # a name with spaces, pasted back into a shell
    _say(
        f"next: sheetsmith show {file_arg} (its hands), sheetsmith watch {file_arg} (a PDF next to it on every save)",
        to_err=False,
    )


@app.command()
def watch(
    file: Path = typer.Argument(
        ..., metavar="FILE", help="A layout, deck, chip sheet or pad file to check and render on every save."
    ),
    fmt: Optional[Format] = typer.Option(
        None,
        "--format",
        "-f",
        case_sensitive=False,
        metavar="pdf|svg|png",
        help="Output format; default: from -o's extension, else pdf.",
    ),
    paper: PaperChoice = typer.Option(
        PaperChoice.a4, "--paper", "-p", case_sensitive=False, metavar="a4|letter", help="Paper size."
    ),
    output: Optional[Path] = typer.Option(
        None, "-o", "--output", metavar="FILE", help="Output file; default <file>-<paper>.<format> next to FILE."
    ),
    force: bool = typer.Option(
        False, "--force", help="Replace the output if it exists when watch starts (later saves always replace it)."
    ),
    dpi: int = typer.Option(150, min=50, max=600, metavar="N", help="PNG resolution."),
    lang: str = typer.Option("en", "--lang", "-l", metavar="LANG", help=LANG_HELP),
) -> None:
    """Check and render FILE now and again on every save: the problems, or "ok, wrote FILE (0.12 s)".
    Keeps running through errors; Ctrl-C stops it (exit status 0 when the last save was written, 1 when it had
    errors)."""
    from generator.jobs.render import check_language
    from generator.jobs.watch import default_target, watch_rounds

    fmt = _format(fmt, output)
    lang = check_language(lang)
    target = (
        default_target(file, fmt=fmt.value, paper=paper.value, output=output, lang=lang)
        or f"output/<folder>/<id>-{paper.value}.{fmt.value}"
    )
    rounds = watch_rounds(file, fmt=fmt.value, paper=paper.value, output=output, force=force, dpi=dpi, lang=lang)
    last_ok = True
    try:
        for n, done in enumerate(rounds):
            last_ok = done.ok
            if n == 0:
                _say(f"watching {file}: every save is checked and written to {target}; Ctrl-C stops", to_err=False)
            _problems(done.problems)
            if done.ok:
                _say(f"ok, wrote {', '.join(str(p) for p in done.written)} ({done.seconds:.2f} s)", to_err=False)
            else:
                errors = sum(1 for p in done.problems if p.is_error)
                _say(
                    f"not written: {errors} error{'s' if errors != 1 else ''} ({done.seconds:.2f} s); fix them and "
                    "save again",
                    to_err=False,
                )
            sys.stdout.flush()
    except (KeyboardInterrupt, Interrupted):
        _say("stopped", to_err=False)
    raise typer.Exit(0 if last_ok else 1)  # as 'check' would say of the file as it was last saved


@app.command()
def show(
    item: str = typer.Argument(
        ..., metavar="ID|FILE", help="A shipped id or a layout file (also decks, chip sheets, pads)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the description as JSON on stdout."),
) -> None:
    """Show a sheet as a player and a designer see it: the grid with hand letters, starting spaces and the
    Golden Card; each hand's cells, length, reward and bonus; the counts (spaces, hands by length, chip track)."""
    from generator.jobs.show import show_item

    data, warnings = show_item(item)
    _problems(warnings)
    if as_json:
        import json

        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        return
    from generator.cli import terminal

    terminal.print_show(data, out())


@app.command()
def schema(
    kind: str = typer.Argument(
        ...,
        metavar="KIND",
        help="allin-layout, deck, chips, pad, allin-sheet, flip7-pad, allin-game-log, fundex-log or flipflop-log.",
    ),
) -> None:
    """Print the JSON Schema of a file kind, for editors: with the YAML language server, a line
    '# yaml-language-server: $schema=PATH' in a file completes keys and flags mistakes as you type.
    The schemas are also in docs/schema/."""
    from generator.jobs.schema import KINDS, schema_text

    if kind not in KINDS:
        import difflib

        close = difflib.get_close_matches(kind, list(KINDS), n=1)
        hint = f"did you mean {close[0]}? " if close else ""
        raise SheetsmithError(f"no schema '{kind}'; {hint}kinds: {', '.join(KINDS)}")
    sys.stdout.write(schema_text(kind))


@app.command()
def check(
    files: List[Path] = typer.Argument(
        ..., metavar="FILE...", help="Layout, deck, chip sheet, pad or ledger YAML files to validate."
    ),
) -> None:
    """Validate layout files: every problem as FILE:LINE:COL.

    Exit status: 0 every file valid (warnings alone are fine), 1 a file has errors, 2 a file cannot be read at all."""
    from generator.jobs.check import check_exit_code, check_files

    results = check_files(files)
    for r in results:
        _problems(r.problems)
        if r.ok:
            _say(f"{r.file}: ok ({r.title}: {r.summary})", to_err=False)
    if len(results) > 1:
        bad = sum(1 for r in results if not r.ok)
        _say(f"{len(results)} files: {len(results) - bad} valid, {bad} with errors", to_err=False)
    raise typer.Exit(check_exit_code(results))


@contextmanager
def _findings_as_json(as_json: bool, status: str):
    """With ``--json``, a job stopped by a :class:`~generator.core.errors.FindingsError` (exit status 1: read, but a
    person must look, or a log's illegal move) still puts a report on stdout: ``{"status": status, "problems":
    [{"file", "line", "col", "message"}]}`` (docs/formats.md); the error then goes on as without ``--json``."""
    from generator.core.errors import FindingsError

    try:
        yield
    except FindingsError as exc:
        if as_json:
            import json

            from generator.core.validation import json_for_terminal

            rows = [{"file": p.file, "line": p.line, "col": p.col, "message": p.message} for p in exc.problems]
            sys.stdout.write(
                json_for_terminal(json.dumps({"status": status, "problems": rows}, indent=2, ensure_ascii=False)) + "\n"
            )
        raise


def _print_verdict(verdict, as_json: bool) -> None:
    """Print a :class:`~generator.jobs.verify.Verdict`: the JSON report on stdout, or tables; problems on stderr."""
    import json

    if as_json:
        notes = [n for n in verdict.notes if "read into" in n]
    else:
        from generator.cli import tables

        notes = [n for n in verdict.notes if not tables.in_tables(verdict, n)]  # (those are printed under the tables)
    for note in notes:
        _say(note)
    if as_json:  # the report on stdout, its problems located on stderr
        from generator.core.validation import json_for_terminal

        sys.stdout.write(json_for_terminal(json.dumps(verdict.report, indent=2, ensure_ascii=False)) + "\n")
        _problems(verdict.problems)
    else:  # the tables list every problem once, located
        tables.print_verdict(verdict, out())


@app.command()
def verify(
    files: List[Path] = typer.Argument(
        ...,
        metavar="FILE...",
        help="All In typed-in sheets or photos of sheets (several = one game), Flip 7 tick pads typed in or "
        "photographed (one per player = one game), or one Flip 7 score pad, Fundex or Flip Flop round log.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON on stdout (see docs/formats.md)."),
    layout: Optional[str] = typer.Option(
        None,
        "--layout",
        metavar="ID|FILE",
        help="Photos: the layout id (or flip7-tick-pad), when a photo's QR code cannot be read.",
    ),
) -> None:
    """Check finished paper with the rules engine, dispatching on each file's game: line.

    All In sheets (typed in, or photographed: each photo is read into NAME.read.yaml and an
    annotated NAME.read.png next to it): every hand, Best Scoring Hand bonuses, totals, ranking. Flip 7 pad, or
    tick pads (typed in or photographed, one per player): round scores, totals, status, winner and every problem. Fundex
    / Flip Flop logs:
    chips after each round, pots, eliminations, winner and every rule broken.

    Exit status: 0 all read and nothing wrong, 1 problems found (a rule broken, a written score
    that differs, an impossible sheet, a photo field that needs a person), 2 a file cannot be read."""
    from generator.jobs.photos import start_early

    start_early(files)  # one photo: decoded while the modules below are imported
    from generator.cli.photo_bars import PhotoBars
    from generator.core.names import shown
    from generator.jobs.photos import has_photos
    from generator.jobs.verify import verify as verify_job

    bars = PhotoBars([shown(f.name) for f in files if has_photos([f])], err())  # a bar per photo, on a terminal
    try:
        with _findings_as_json(as_json, "uncertain"):
            verdict = verify_job(files, layout=layout, progress=bars)
    finally:
        bars.stop()
    _print_verdict(verdict, as_json)
    raise typer.Exit(verdict.exit_code)


@app.command()
def replay(
    log: Path = typer.Argument(..., metavar="GAME.yaml", help="An All In game log (docs/formats.md)."),
    as_json: bool = typer.Option(False, "--json", help="Print the verifier's report of the final sheets as JSON."),
    sheets: Optional[Path] = typer.Option(
        None, "--sheets", metavar="DIR", help="Write each player's final typed-in sheet into this folder."
    ),
    force: bool = typer.Option(False, "--force", help="Replace sheets already in that folder."),
) -> None:
    """Referee a whole All In game from its log: stop at the first illegal move, else score the final sheets.

    Exit status: 0 a legal game, 1 an illegal move (named with its round, player and cell), 2 the log cannot be read."""
    from generator.jobs.play import replay_log

    with _findings_as_json(as_json, "illegal_move"):
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
    game: Game = typer.Argument(..., case_sensitive=False, metavar="allin|flip7", help="allin or flip7."),
    players: int = typer.Option(4, "--players", "-n", metavar="N", help="Number of players."),
    seed: int = typer.Option(1, "--seed", "-s", min=0, metavar="S", help="Same seed, same result (0 or more)."),
    layout: str = typer.Option(
        "q-diamonds", "--layout", metavar="ID|FILE", help="allin: the sheet layout (id or file)."
    ),
    out_dir: Optional[Path] = typer.Option(
        None,
        "-o",
        "--out-dir",
        metavar="DIR",
        help="allin: folder for the game log and final sheets (default output/games/...).",
    ),
    force: bool = typer.Option(False, "--force", help="allin: replace files already in --out-dir."),
    strategy: str = typer.Option(
        "stop-at-23", "--strategy", metavar="stop-at-T", help="flip7: stop-at-T, stay once your numbers add up to T."
    ),
    games: int = typer.Option(2000, "--games", min=1, max=1_000_000, metavar="G", help="flip7: how many games."),
    target: int = typer.Option(200, "--target", min=50, max=1000, metavar="T", help="flip7: the target score."),
) -> None:
    """Play games with simple bots: All In writes a game log and the final sheets; Flip 7 reports bust rate,
    mean round score and rounds to the target."""
    from generator.cli import tables, terminal
    from generator.jobs.play import simulate_allin, simulate_flip7

    if game == Game.allin:
        sim = simulate_allin(players, seed, layout, out_dir, force)
        tables.print_game(sim.score, out(), detail=False)
        _say(
            f"wrote {sim.log_path} and {len(sim.sheet_paths)} sheets in {sim.folder}/ (replay: sheetsmith replay "
            f"{sim.log_path})",
            to_err=False,
        )
        return
    from generator.jobs.play import parse_strategy

    parse_strategy(strategy)  # before the progress bar starts
    with _progress() as progress:
        task = progress.add_task("simulating", total=games)
        stats = simulate_flip7(players, seed, strategy, games, target, progress=lambda n: progress.advance(task, n))
    for warning in stats["warnings"]:
        _say(f"warning: {warning}")
    terminal.print_flip7_simulation(stats, out())


@app.command()
def balance(
    layouts: List[str] = typer.Argument(
        ..., help="Layouts to measure: shipped ids or layout files (each is compared with Q♦)."
    ),
    games: int = typer.Option(
        200, "--games", "-g", min=1, max=100_000, help="Games played on each sheet (the same deals on every sheet)."
    ),
    players: int = typer.Option(4, "--players", "-n", min=1, max=8, help="Bots per game."),
    seed: int = typer.Option(1, "--seed", "-s", min=0, help="Same seed, same figures (0 or more)."),
    workers: Optional[int] = typer.Option(
        None,
        "--workers",
        "-w",
        min=1,
        help="Worker processes (default: one per CPU, never more); the figures do not depend on it.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON on stdout."),
) -> None:
    """Is my sheet fair? Bots play the same games on each layout and on Q♦; compare mean and 10th/90th
    percentile totals, how often each hand is completed and what it scores, chips earned and how often the
    Golden Card is surrounded.

    Warns when a layout's mean total is more than 10 % from Q♦'s, or a hand is completed on fewer than
    5 % of sheets. Exit status: 0 (warnings alone included), 2 a layout cannot be read or a bad option."""
    import json

    from generator.cli import terminal
    from generator.jobs.play import balance_layouts

    progress = _progress()
    tasks: list = []

    def advance(n: int, total: int) -> None:  # the bar appears once every layout has been read
        if not tasks:
            progress.start()
            tasks.append(progress.add_task("playing", total=total))
        progress.update(tasks[0], advance=n)

    try:
        result = balance_layouts(layouts, games=games, players=players, seed=seed, workers=workers, progress=advance)
    finally:
        progress.stop()
    if as_json:
        sys.stdout.write(json.dumps(result.report(), indent=2, ensure_ascii=False) + "\n")
    else:
        terminal.print_balance(result, out())
    _problems(result.problems)
    raise typer.Exit(result.exit_code)


@app.command()
def serve(
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="The TCP port."),
    lan: bool = typer.Option(
        False,
        "--lan",
        help="Serve phones on the same network: bind every interface, with a random access token (printed as an "
        "address and a QR code).",
    ),
    data_dir: Optional[Path] = typer.Option(
        None, "--data-dir", help="Where games in progress are kept (default: your user data folder)."
    ),
    workers: int = typer.Option(2, "--workers", min=1, max=16, help="Processes reading photos at once."),
) -> None:
    """Serve the web page for the table: print sheets, score All In photos, keep Flip 7 scores, edit layouts.

    Listens on http://127.0.0.1:PORT (this computer only) unless --lan is given; Ctrl-C stops it."""
    from generator.web.serve import serve as run

    run(port=port, lan=lan, data_dir=data_dir, workers=workers)


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
    import os

    guard_standard_streams()  # a closed stdout/stderr (>&-, 2>&-): see there
    # sheetsmith has no use for pydantic plugins; looking for them scans every installed package's entry points
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    # OpenBLAS (NumPy's linear algebra) on one thread: sheetsmith's products are small (a marker's blur models
    # against its patch) and photos are spread over worker processes; with a pool, each of the reader's first few
    # hundred small products waited about 8 ms for it to wake (0.3 s of a verify on a 2-core machine)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

    def stop(signum, _frame):  # Ctrl-C, TERM and HUP end the run: temporary files are removed on the way out
        raise Interrupted(signum)

    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), stop)
    try:
        app(prog_name="sheetsmith")  # the name users type, also under "python -m" and test runners
    except SheetsmithError as exc:
        for note in getattr(exc, "notes", []):
            _say(note)
        problems = getattr(exc, "problems", None)
        if problems:
            _problems(problems)
        else:
            _say(f"error: {exc}")
        sys.exit(exc.exit_code)
    except (KeyboardInterrupt, Interrupted) as exc:
        _say("interrupted; nothing half-written was left behind")
        sys.exit(exc.code if isinstance(exc, Interrupted) else 130)
    except OSError as exc:
        if exc.filename is not None or exc.errno not in STREAM_ERRORS:  # a file's error: sheetsmith names those itself
            raise
        sys.exit(output_failed(exc))


if __name__ == "__main__":  # pragma: no cover
    main()
