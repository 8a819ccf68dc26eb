"""The ``sheetsmith`` command (typer + rich).

Commands: ``build`` (every shipped layout into ``output/``), ``render`` (one
layout, any format), ``layouts`` (what ships), ``check`` (validate files).
Bad input prints ``FILE:LINE:COL: error: message`` lines on stderr and exits
with status 1; nothing is half-written.
"""

from __future__ import annotations

import signal
import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from . import __version__
from .backends import render_bytes
from .backends.png import pdf_to_png
from .errors import InputError, Problem, SheetsmithError
from .output import write_atomic
from .paper import paper as get_paper
from .registry import display_path, load_layout, resolve_layout, shipped_layouts
from .sheets.allin import build_allin_sheet

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="sheetsmith: printable game sheets from YAML layouts, checked by the same rules engine.",
    context_settings={"help_option_names": ["-h", "--help"]},
)
out = Console()
err = Console(stderr=True)


class Format(str, Enum):
    pdf = "pdf"
    svg = "svg"
    png = "png"


class PaperChoice(str, Enum):
    a4 = "a4"
    letter = "letter"


def _fail(problems: list[Problem] | str, code: int = 1) -> None:
    lines = problems if isinstance(problems, str) else "\n".join(str(p) for p in problems)
    err.print(lines, markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def _render(layout, paper_id: str, fmt: str, dpi: int) -> bytes:
    scene = build_allin_sheet(layout, get_paper(paper_id))
    for note in scene.notes:
        err.print(f"{layout.source}: warning: {note}; shorten it in strings:", markup=False, highlight=False, soft_wrap=True)
    return render_bytes([scene], fmt, dpi=dpi)


@app.command()
def build(
    out_dir: Path = typer.Option(Path("output"), "--out-dir", "-d", help="Folder for the generated files."),
    papers: List[PaperChoice] = typer.Option(
        [PaperChoice.a4, PaperChoice.letter], "--paper", "-p", case_sensitive=False,
        help="Paper size(s); repeat for several (--paper a4 --paper letter).",
    ),
    dpi: int = typer.Option(150, min=50, max=600, help="Resolution of the PNG previews."),
) -> None:
    """Render every shipped layout into OUT_DIR: a PDF to print and a PNG preview per paper size."""
    shipped = shipped_layouts()
    jobs = [(s, p.value) for s in shipped for p in papers]
    rows: list[tuple[str, str, str, str, str]] = []
    problems: list[Problem] = []
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=False,
    ) as progress:
        task = progress.add_task("building", total=len(jobs))
        cache: dict[str, object] = {}
        for item, paper_id in jobs:
            progress.update(task, description=f"{item.id} ({paper_id})")
            try:
                layout = cache.get(item.id) or load_layout(item.path)
                cache[item.id] = layout
                pdf = _render(layout, paper_id, "pdf", dpi)
                png = pdf_to_png(pdf, dpi=dpi)
            except SheetsmithError as exc:
                problems.extend(getattr(exc, "problems", []) or [Problem(display_path(item.path), 0, 0, str(exc))])
                progress.advance(task)
                continue
            folder = out_dir / item.game
            pdf_path = write_atomic(folder / f"{item.id}-{paper_id}.pdf", pdf)
            png_path = write_atomic(folder / f"{item.id}-{paper_id}.png", png)
            warn = "; ".join(w.message for w in layout.warnings)  # type: ignore[attr-defined]
            rows.append((item.id, get_paper(paper_id).label, pdf_path.name, png_path.name, f"{len(pdf) / 1024:.0f} KB"))
            if warn:
                problems.extend(layout.warnings)  # type: ignore[attr-defined]
            progress.advance(task)
    table = Table(title=f"sheetsmith build: {len(rows)} of {len(jobs)} sheets written to {out_dir / 'allin'}")
    for col in ("layout", "paper", "PDF (print)", "PNG (preview)", "PDF size"):
        table.add_column(col)
    for row in rows:
        table.add_row(*row)
    out.print(table)
    errors = [p for p in problems if p.is_error]
    if problems:
        err.print("\n".join(str(p) for p in dict.fromkeys(problems)), markup=False, highlight=False, soft_wrap=True)
    if errors:
        raise typer.Exit(1)


@app.command()
def render(
    layout: str = typer.Argument(..., help="A shipped layout id (see 'sheetsmith layouts') or a path to a layout YAML file."),
    fmt: Optional[Format] = typer.Option(None, "--format", "-f", case_sensitive=False, help="Output format; default: from -o's extension, else pdf."),
    paper: PaperChoice = typer.Option(PaperChoice.a4, "--paper", "-p", case_sensitive=False, help="Paper size."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Output file; default output/<game>/<id>-<paper>.<format>."),
    force: bool = typer.Option(False, "--force", help="Replace OUTPUT if it already exists."),
    dpi: int = typer.Option(150, min=50, max=600, help="PNG resolution."),
) -> None:
    """Render one layout to PDF, SVG or PNG."""
    path = resolve_layout(layout)
    lay = load_layout(path)
    suffix = output.suffix.lower().lstrip(".") if output else ""
    if output is not None and suffix not in Format.__members__:
        raise SheetsmithError(
            f"{output}: sheetsmith writes .pdf, .svg or .png files; end the file name with one of those"
        )
    if fmt is None:
        fmt = Format(suffix) if suffix else Format.pdf
    elif suffix and suffix != fmt.value:
        raise SheetsmithError(f"{output}: the name ends in .{suffix} but --format is {fmt.value}; make them agree")
    if output is None:
        target = Path("output") / "allin" / f"{lay.id}-{paper.value}.{fmt.value}"
        overwrite = True
    else:
        target = output
        overwrite = force
    data = _render(lay, paper.value, fmt.value, dpi)
    written = write_atomic(target, data, overwrite=overwrite)
    for w in lay.warnings:
        err.print(str(w), markup=False, highlight=False, soft_wrap=True)
    out.print(f"wrote {written} ({fmt.value.upper()}, {get_paper(paper.value).label}, {len(data) / 1024:.0f} KB)", highlight=False)


@app.command("layouts")
def list_layouts() -> None:
    """List the shipped layouts."""
    table = Table(title="Shipped layouts")
    for col in ("id", "game", "sheet", "hands", "spaces", "rewards"):
        table.add_column(col, no_wrap=True)
    table.add_column("about", ratio=1)
    problems: list[Problem] = []
    for item in shipped_layouts():
        try:
            lay = load_layout(item.path)
        except InputError as exc:
            problems.extend(exc.problems)
            table.add_row(item.id, item.game, "[red]invalid[/red]", "", "", "", "run 'sheetsmith check'")
            continue
        doubles = sum(1 for h in lay.hands.values() if h.reward == "double")
        table.add_row(
            item.id,
            item.game,
            lay.name,
            str(len(lay.hands)),
            str(lay.spaces),
            f"{len(lay.hands) - doubles} single, {doubles} double",
            lay.description,
        )
    out.print(table)
    if problems:
        _fail(problems)


@app.command()
def check(files: List[Path] = typer.Argument(..., help="Layout YAML files to validate.")) -> None:
    """Validate layout files: every problem as FILE:LINE:COL; exit 1 if any file has an error."""
    bad = 0
    for f in files:
        name = display_path(f)
        try:
            lay = load_layout(f)
        except InputError as exc:
            bad += 1
            err.print("\n".join(str(p) for p in exc.problems), markup=False, highlight=False, soft_wrap=True)
            continue
        for w in lay.warnings:
            err.print(str(w), markup=False, highlight=False, soft_wrap=True)
        out.print(f"{name}: ok ({lay.name}, {len(lay.hands)} hands, {lay.spaces} spaces)", highlight=False)
    if len(files) > 1:
        out.print(f"{len(files)} files: {len(files) - bad} valid, {bad} with errors", highlight=False)
    if bad:
        raise typer.Exit(1)


@app.command()
def verify(
    sheets: List[Path] = typer.Argument(..., help="Typed-in sheet YAML files; several sheets are one game."),
    as_json: bool = typer.Option(False, "--json", help="Print the report of DESIGN.md as JSON on stdout."),
) -> None:
    """Score finished sheets: one sheet scores that player; several are one game (Best Scoring Hand, winner)."""
    from .sheetverify import verify_sheets

    verify_sheets(sheets, as_json=as_json, out=out)


@app.callback(invoke_without_command=True)
def _root(
    version: bool = typer.Option(False, "--version", help="Print the version and exit."),
) -> None:
    if version:
        out.print(f"sheetsmith {__version__}")
        raise typer.Exit(0)


def main() -> None:
    """Console entry point.

    typer runs in standalone mode, so a usage mistake (missing argument, bad
    option value) prints typer's short message and exits 2.  sheetsmith's own
    errors print ``FILE:LINE:COL: error: message`` lines and exit 1.
    """
    def stop(signum, _frame):  # TERM and HUP end the run like Ctrl-C: temporary files are removed
        raise SystemExit(128 + signum)

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), stop)
    try:
        app()
    except SheetsmithError as exc:
        problems = getattr(exc, "problems", None)
        text = "\n".join(str(p) for p in problems) if problems else f"error: {exc}"
        err.print(text, markup=False, highlight=False, soft_wrap=True)
        sys.exit(1)
    except KeyboardInterrupt:
        err.print("interrupted; nothing half-written was left behind")
        sys.exit(130)


if __name__ == "__main__":  # pragma: no cover
    main()
