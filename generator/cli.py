"""The ``sheetsmith`` command (typer + rich).

Commands: ``build`` (every shipped layout into ``output/``), ``render`` (one
layout, any format), ``layouts`` (what ships), ``check`` (validate files).
Bad input prints ``FILE:LINE:COL: error: message`` lines on stderr and exits
with status 1; nothing is half-written.
"""

from __future__ import annotations

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
    return render_bytes([scene], fmt, dpi=dpi)


@app.command()
def build(
    out_dir: Path = typer.Option(Path("output"), "--out-dir", "-d", help="Folder for the generated files."),
    papers: List[PaperChoice] = typer.Option(
        [PaperChoice.a4, PaperChoice.letter], "--paper", "-p", help="Paper size(s); repeat for several."
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
            rows.append((item.id, get_paper(paper_id).label, str(pdf_path), str(png_path), f"{len(pdf) / 1024:.0f} KB"))
            if warn:
                problems.extend(layout.warnings)  # type: ignore[attr-defined]
            progress.advance(task)
    table = Table(title=f"sheetsmith build: {len(rows)} of {len(jobs)} written")
    for col in ("layout", "paper", "PDF (print)", "PNG (preview)", "PDF size"):
        table.add_column(col)
    for row in rows:
        table.add_row(*row)
    out.print(table)
    errors = [p for p in problems if p.is_error]
    if problems:
        err.print("\n".join(str(p) for p in dict.fromkeys(problems)), markup=False, highlight=False)
    if errors:
        raise typer.Exit(1)


@app.command()
def render(
    layout: str = typer.Argument(..., help="A shipped layout id (see 'sheetsmith layouts') or a path to a layout YAML file."),
    fmt: Optional[Format] = typer.Option(None, "--format", "-f", help="Output format; default: from -o's extension, else pdf."),
    paper: PaperChoice = typer.Option(PaperChoice.a4, "--paper", "-p", help="Paper size."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Output file; default output/<id>-<paper>.<format>."),
    force: bool = typer.Option(False, "--force", help="Replace OUTPUT if it already exists."),
    dpi: int = typer.Option(150, min=50, max=600, help="PNG resolution."),
) -> None:
    """Render one layout to PDF, SVG or PNG."""
    path = resolve_layout(layout)
    lay = load_layout(path)
    if fmt is None:
        suffix = output.suffix.lower().lstrip(".") if output else ""
        fmt = Format(suffix) if suffix in Format.__members__ else Format.pdf
    if output is None:
        target = Path("output") / f"{lay.id}-{paper.value}.{fmt.value}"
        overwrite = True
    else:
        target = output
        overwrite = force
    data = _render(lay, paper.value, fmt.value, dpi)
    written = write_atomic(target, data, overwrite=overwrite)
    for w in lay.warnings:
        err.print(str(w), markup=False, highlight=False)
    out.print(f"wrote {written} ({fmt.value.upper()}, {get_paper(paper.value).label}, {len(data) / 1024:.0f} KB)", highlight=False)


@app.command("layouts")
def list_layouts() -> None:
    """List the shipped layouts."""
    table = Table(title="Shipped layouts")
    for col in ("id", "game", "sheet", "hands", "spaces", "rewards", "about"):
        table.add_column(col)
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
    """Console entry point: run the app, turning sheetsmith errors into messages and exit status 1."""
    try:
        # Without standalone mode click returns the exit code of typer.Exit instead of raising it.
        code = app(standalone_mode=False)
        sys.exit(code if isinstance(code, int) else 0)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except SheetsmithError as exc:
        problems = getattr(exc, "problems", None)
        err.print("\n".join(str(p) for p in problems) if problems else f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
        sys.exit(1)
    except KeyError as exc:  # unknown paper and similar look-ups carry a full message
        err.print(f"error: {exc.args[0] if exc.args else exc}", markup=False, highlight=False)
        sys.exit(1)
    except KeyboardInterrupt:
        err.print("interrupted; nothing half-written was left behind")
        sys.exit(130)
    except Exception as exc:  # click usage errors and the like
        import click

        if isinstance(exc, click.exceptions.ClickException):
            exc.show()
            sys.exit(exc.exit_code)
        if isinstance(exc, click.exceptions.Abort):
            sys.exit(1)
        raise


if __name__ == "__main__":  # pragma: no cover
    main()
