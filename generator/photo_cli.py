"""``sheetsmith verify`` with photos: read each photo into a typed-in sheet, then score as usual.

The lead's ``verify`` command calls :func:`verify_photo_inputs` when any of its
files is a photo (:func:`has_photos`); photos and typed-in sheet YAML files may
be mixed in one game.  For every photo ``ann.jpg`` the reader writes, next to
it:

* ``ann.read.yaml`` — the sheet as read, in the typed-in form
  (docs/formats.md), with comments naming every uncertain field, which is
  written ``?`` so the file does not verify until a person has looked;
* ``ann.read.png`` — the page as the reader saw it, with what was read in
  green and what is uncertain in red.

Then the game is scored by :func:`generator.sheetverify.verify_sheets` on the
typed-in files (the ``.read.yaml`` files in place of the photos), so the
report is exactly the one typed-in sheets give.  When a field is uncertain,
nothing is scored: every uncertain field is reported as an error at its ``?``
in the ``.read.yaml`` (``FILE:LINE:COL``) and the exit status is 1; correct
the file and run ``sheetsmith verify`` on it.

A photo that cannot be read (not an image, too large, too small, no sheet,
too blurred, another layout or version, …) stops the run before anything is
written (exit status 2).  A ``.read.yaml`` the user has edited since
sheetsmith wrote it is never overwritten.

The work is done by the jobs of :mod:`generator.photos` (photos read in
parallel worker processes, results returned as data); this module only
prints: a progress bar per photo on standard error (when it is a terminal),
the notes, the problems and the report.

Also runnable alone for testing: ``python -m generator.photo_cli FILE... [--layout ID] [--json]``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Sequence

from .errors import SheetsmithError
from .names import shown
from .photos import photo_inputs, read_outputs, read_photos
from .reader.errors import PhotoError
from .reader.image import looks_like_photo


def has_photos(paths: Sequence[Path]) -> bool:
    """True when any of ``paths`` is a photo (by its ending or, for other endings, its first bytes)."""
    return any(looks_like_photo(p) for p in paths)


class PhotoBars:
    """A rich progress bar per photo on ``console`` (a :data:`generator.photos.Progress` callback).

    The live display starts at the first report, and only on a terminal (elsewhere — a pipe,
    a test — nothing is shown).
    """

    WEIGHT = {"waiting": 0, "reading": 10, "drawing": 85, "done": 100, "failed": 100}

    def __init__(self, names: Sequence[str], console):
        self.names = list(names)
        self.console = console
        self.progress = None
        self.tasks: list = []

    def __call__(self, index: int, stage: str) -> None:
        if not self.console.is_terminal:
            return
        if self.progress is None:
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self.progress = Progress(TextColumn("{task.description}", markup=False), BarColumn(),
                                     TextColumn("{task.fields[stage]}", markup=False), TimeElapsedColumn(),
                                     console=self.console, transient=False)
            self.tasks = [self.progress.add_task(name, total=100, stage="waiting", start=False) for name in self.names]
            self.progress.start()
        task = self.tasks[index]
        if stage == "reading":
            self.progress.start_task(task)
        self.progress.update(task, completed=self.WEIGHT[stage], stage=stage)
        if stage in ("done", "failed"):
            self.progress.stop_task(task)

    def stop(self) -> None:
        """End the live display (if it was started)."""
        if self.progress is not None:
            self.progress.stop()


def verify_photo_inputs(paths: Sequence[Path], *, layout: str | None, as_json: bool, out, notes=None):
    """``sheetsmith verify`` over photos and typed-in sheets: read, write, then score as usual (prints).

    The face of :func:`generator.photos.photo_inputs` and :func:`generator.sheetverify.verify_sheets`.

    Args:
        paths: photos (JPEG, PNG, HEIC, WebP, TIFF …) and typed-in All In sheet YAML files, one game.
        layout: ``--layout ID`` (a shipped id or a layout file) for photos whose sheet code
            cannot be read; when the code is read too, the two must agree.
        as_json: print the verifier report as JSON on stdout (notes go to ``notes``).
        out: the rich console the report tables go to.
        notes: the rich console for the progress bars and "read into …" lines (default: standard error).

    Returns:
        the :class:`~generator.rules.allin_sheet.GameScore`, as :func:`generator.sheetverify.verify_sheets` returns it.

    Raises:
        InputError: a photo that cannot be read, or a ``.read.yaml`` that must not be
            (re)written — nothing is written then (exit status 2); any problem the typed-in
            sheets or the game have.
        FindingsError: an uncertain field in any photo, after the pairs are written (exit status 1).
    """
    from rich.console import Console

    from .sheetverify import verify_sheets

    notes = notes or Console(stderr=True)
    photos = [Path(p) for p in paths if looks_like_photo(p)]
    bars = PhotoBars([shown(p.name) for p in photos], notes)
    lines: list[str] = []
    try:
        inputs = photo_inputs(paths, layout=layout, notes=lines, progress=bars)
    finally:
        bars.stop()
        for line in lines:
            notes.print(line, highlight=False, markup=False, soft_wrap=True)
    return verify_sheets(inputs, as_json=as_json, out=out)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m generator.photo_cli FILE... [--layout ID] [--json]``: the photo path of ``sheetsmith verify``, alone.

    Prints errors as ``FILE[:LINE:COL]: error: message`` on standard error (control characters
    escaped); returns the exit status: 0, 1 (uncertain fields or rule problems) or 2 (a photo
    or file that cannot be read, a usage error).
    """
    import argparse

    from rich.console import Console

    ap = argparse.ArgumentParser(prog="python -m generator.photo_cli", description="Verify All In sheets given as photos and typed-in YAML files.")
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--layout", help="the sheet's layout, when its code cannot be read from a photo")
    ap.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    args = ap.parse_args(argv)
    err = Console(stderr=True, soft_wrap=True)
    try:
        verify_photo_inputs(args.files, layout=args.layout, as_json=args.json, out=Console(soft_wrap=True), notes=err)
    except SheetsmithError as exc:
        problems = getattr(exc, "problems", None)
        text = "\n".join(shown(str(p)) for p in problems) if problems else f"error: {shown(str(exc))}"
        err.print(text, markup=False, highlight=False)
        return getattr(exc, "exit_code", 1)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


__all__ = ["verify_photo_inputs", "has_photos", "read_photos", "read_outputs", "PhotoError", "PhotoBars", "main"]
