"""The ``sheetsmith`` command (typer + rich).

Commands: ``build`` (every shipped layout into ``output/``), ``render`` (one
layout, any format), ``layouts`` (what ships), ``check`` (validate files).
Bad input prints ``FILE:LINE:COL: error: message`` lines on stderr and exits
with status 1; nothing is half-written.
"""

from __future__ import annotations

import json
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
from .backends.pdf import render_pdf
from .components.deck import card_sizes
from .registry import display_path, load_any, resolve_layout, shipped_layouts
from .render import PrintOptions, describe, output_folder, pages_for

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


def _pages(item, paper_id: str, options: PrintOptions):
    pages, manifest = pages_for(item, get_paper(paper_id), options)
    for scene in pages:
        for note in scene.notes:
            err.print(f"{item.source}: warning: {note}; shorten it in strings:", markup=False, highlight=False, soft_wrap=True)
    return pages, manifest


def _options(bleed: float, backs: bool, back_offset: str, card_size: Optional[str]) -> PrintOptions:
    try:
        dx, dy = (float(v) for v in back_offset.split(","))
    except ValueError:
        raise SheetsmithError(f"--back-offset '{back_offset}': give two millimetre values as DX,DY, e.g. 0.5,-0.3") from None
    if abs(dx) > 10 or abs(dy) > 10:
        raise SheetsmithError("--back-offset: keep each shift within ±10 mm")
    return PrintOptions(bleed=bleed, backs=backs, back_offset=(dx, dy), card_size=card_size)


def _filled(item, scene, fill: Path, others: list[Path]):
    from .layout.allin import AllInLayout
    from .rules.allin_sheet import score_game
    from .sheetfile import load_allin_sheet
    from .sheets.allin import fill_allin_sheet

    if not isinstance(item, AllInLayout):
        raise SheetsmithError("--fill draws a typed-in sheet on an All In sheet layout")
    sheets = [load_allin_sheet(p) for p in [fill, *others]]
    for path, sheet in zip([fill, *others], sheets):
        if sheet.layout.id != item.id:
            raise SheetsmithError(f"{path}: this sheet is for layout '{sheet.layout.id}', not '{item.id}'")
    return fill_allin_sheet(scene, sheets[0], score_game(sheets))


def _apply_variant(item, text: str):
    from .sheets.pads import Pad, with_variant

    if not isinstance(item, Pad) or item.game != "flip7":
        raise SheetsmithError("--variant applies to Flip 7 score pads and tick pads")
    values: dict[str, int] = {}
    for part in text.split(","):
        key, _, value = part.partition("=")
        key = key.strip()
        if key not in ("target", "flip7_bonus") or not value.strip().isdigit():
            raise SheetsmithError(f"--variant '{text}': write target=N and/or flip7_bonus=N, e.g. target=150,flip7_bonus=15")
        values[key] = int(value)
    if not 50 <= values.get("target", 200) <= 1000 or not 0 <= values.get("flip7_bonus", 15) <= 100:
        raise SheetsmithError("--variant: target must be 50 to 1000 and flip7_bonus 0 to 100")
    return with_variant(item, **values)


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
    options = _options(bleed, backs, back_offset, None)
    shipped = shipped_layouts()
    jobs = [(s, p.value) for s in shipped for p in papers]
    rows: list[tuple[str, ...]] = []
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
                thing = cache.get(item.id) or load_any(item.path)
                cache[item.id] = thing
                pages, manifest = _pages(thing, paper_id, options)
                pdf = render_pdf(pages)
                previews = [pdf_to_png(pdf, dpi=dpi)]
                if manifest and len(pages) > 1 and manifest["pages"][1]["side"] == "back":
                    previews.append(pdf_to_png(pdf, dpi=dpi, page=1))
            except SheetsmithError as exc:
                problems.extend(getattr(exc, "problems", []) or [Problem(display_path(item.path), 0, 0, str(exc))])
                progress.advance(task)
                continue
            folder = out_dir / item.game
            stem = f"{item.id}-{paper_id}"
            write_atomic(folder / f"{stem}.pdf", pdf)
            write_atomic(folder / f"{stem}.png", previews[0])
            written = [f"{stem}.pdf", f"{stem}.png"]
            if len(previews) > 1:
                write_atomic(folder / f"{stem}-back.png", previews[1])
                written.append(f"{stem}-back.png")
            if manifest is not None:
                write_atomic(folder / f"{stem}.json", (json.dumps(manifest, indent=1) + "\n").encode())
                written.append(f"{stem}.json")
            kinds = " ".join(w[len(stem):].lstrip(".-").replace(".png", " png") for w in written)
            rows.append((item.id, item.game, get_paper(paper_id).id, str(len(pages)), kinds, f"{len(pdf) / 1024:.0f} KB"))
            problems.extend(thing.warnings)  # type: ignore[attr-defined]
            progress.advance(task)
    table = Table(title=f"sheetsmith build: {len(rows)} of {len(jobs)} written to {out_dir}/<folder>/<id>-<paper>.*")
    for col in ("id", "folder", "paper", "pages", "files", "PDF"):
        table.add_column(col, no_wrap=col != "files", justify="right" if col in ("pages", "PDF") else "left")
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
    path = resolve_layout(layout)
    item = load_any(path)
    if variant is not None:
        item = _apply_variant(item, variant)
    from .components.deck import Deck

    if not isinstance(item, Deck) and (card_size is not None or not backs or back_offset != "0,0" or bleed != 3.0):
        raise SheetsmithError("--card-size, --bleed, --no-backs and --back-offset apply to decks only")
    if card_size is not None and card_size not in card_sizes():
        raise SheetsmithError(f"--card-size '{card_size}': use one of {', '.join(card_sizes())}")
    options = _options(bleed, backs, back_offset, card_size)
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
        target = Path("output") / output_folder(item) / f"{item.id}-{paper.value}.{fmt.value}"
        overwrite = True
    else:
        target = output
        overwrite = force
    pages, manifest = _pages(item, paper.value, options)
    if fill is not None:
        pages = [_filled(item, pages[0], fill, others)]
    elif others:
        raise SheetsmithError("--with goes with --fill")
    data = render_bytes(pages, fmt.value, dpi=dpi)
    manifest_path = target.with_suffix(".json") if (manifest is not None and fmt == Format.pdf) else None
    if not overwrite and target.exists():
        raise SheetsmithError(f"{target}: already exists; pass --force to replace it")
    if manifest_path is not None and manifest_path.exists() and not overwrite:
        raise SheetsmithError(f"{manifest_path} (the manifest next to {target.name}): already exists; pass --force to replace it")
    written = write_atomic(target, data, overwrite=overwrite)
    if manifest_path is not None:
        write_atomic(manifest_path, (json.dumps(manifest, indent=1) + "\n").encode(), overwrite=True)
    for w in item.warnings:
        err.print(str(w), markup=False, highlight=False, soft_wrap=True)
    if manifest is not None and "bleed" in manifest and isinstance(manifest["bleed"], dict):
        b = manifest["bleed"]
        if (b["x"], b["y"]) != (b["requested"], b["requested"]):
            err.print(f"note: bleed {b['x']:g} mm left/right and {b['y']:g} mm top/bottom ({b['requested']:g} asked): "
                      "the paper has no room for more beside the crop marks", markup=False, highlight=False, soft_wrap=True)
    extent = f"{len(pages)} pages" if fmt == Format.pdf and len(pages) > 1 else ("page 1 of " + str(len(pages)) if len(pages) > 1 else "1 page")
    extra = f", manifest {manifest_path}" if manifest_path else ""
    out.print(f"wrote {written} ({fmt.value.upper()}, {get_paper(paper.value).label}, {extent}, {len(data) / 1024:.0f} KB{extra})", highlight=False)


@app.command("layouts")
def list_layouts() -> None:
    """List what ships: sheet layouts, decks, chip sheets, score pads and ledgers."""
    table = Table(title="Shipped layouts and components")
    for col in ("id", "folder", "name"):
        table.add_column(col, no_wrap=True)
    table.add_column("contents", ratio=1)
    problems: list[Problem] = []
    for item in shipped_layouts():
        try:
            thing = load_any(item.path)
        except InputError as exc:
            problems.extend(exc.problems)
            table.add_row(item.id, item.game, "[red]invalid[/red]", "run 'sheetsmith check'")
            continue
        name, summary = describe(thing)
        table.add_row(item.id, item.game, name, summary)
    out.print(table)
    if problems:
        _fail(problems)


@app.command()
def check(files: List[Path] = typer.Argument(..., help="Layout, deck, chip sheet, pad or ledger YAML files to validate.")) -> None:
    """Validate layout files: every problem as FILE:LINE:COL; exit 1 if any file has an error."""
    bad = 0
    for f in files:
        name = display_path(f)
        try:
            thing = load_any(f)
        except InputError as exc:
            bad += 1
            err.print("\n".join(str(p) for p in exc.problems), markup=False, highlight=False, soft_wrap=True)
            continue
        for w in thing.warnings:
            err.print(str(w), markup=False, highlight=False, soft_wrap=True)
        title, summary = describe(thing)
        out.print(f"{name}: ok ({title}: {summary})", highlight=False)
    if len(files) > 1:
        out.print(f"{len(files)} files: {len(files) - bad} valid, {bad} with errors", highlight=False)
    if bad:
        raise typer.Exit(1)


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
    chips after each round, pots, eliminations, winner and every rule broken."""
    from .games_cli import verify_files

    verify_files(files, as_json=as_json, out=out, layout=layout)


@app.command()
def replay(
    log: Path = typer.Argument(..., help="An All In game log (docs/formats.md)."),
    as_json: bool = typer.Option(False, "--json", help="Print the verifier's report of the final sheets as JSON."),
    sheets: Optional[Path] = typer.Option(None, "--sheets", help="Write each player's final typed-in sheet into this folder."),
    force: bool = typer.Option(False, "--force", help="Replace sheets already in that folder."),
) -> None:
    """Referee a whole All In game from its log: stop at the first illegal move, else score the final sheets."""
    from .games_cli import replay_game

    replay_game(log, as_json=as_json, sheets_dir=sheets, force=force, out=out)


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
    from .games_cli import simulate_allin, simulate_flip7

    if game == Game.allin:
        simulate_allin(players, seed, layout, out_dir, force, out)
    else:
        simulate_flip7(players, seed, strategy, games, target, out)


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
