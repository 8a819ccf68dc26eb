"""``sheetsmith verify`` with photos: the face's part (progress bars), and the photo jobs it calls.

The ``verify`` job (:func:`generator.jobs.verify`) calls :func:`photo_inputs` when any of its
files is a photo (:func:`has_photos`); photos and typed-in sheet YAML files may
be mixed in one game.  For every photo ``ann.jpg`` the reader writes, next to
it:

* ``ann.read.yaml`` — the sheet as read, in the typed-in form
  (docs/formats.md), with comments naming every uncertain field, which is
  written ``?`` so the file does not verify until a person has looked;
* ``ann.read.png`` — the page as the reader saw it, with what was read in
  green and what is uncertain in red.

Then the game is scored by :func:`generator.jobs.verify` on the
typed-in files (the ``.read.yaml`` files in place of the photos), so the
report is exactly the one typed-in sheets give.  When a field is uncertain,
nothing is scored: every uncertain field is reported as an error at its ``?``
in the ``.read.yaml`` (``FILE:LINE:COL``) and the exit status is 1; correct
the file and run ``sheetsmith verify`` on it.

A photo that cannot be read (not an image, too large, too small, no sheet,
too blurred, another layout or version, …) stops the run before anything is
written (exit status 2).  A ``.read.yaml`` the user has edited since
sheetsmith wrote it is never overwritten.

The work is done by the jobs of :mod:`generator.jobs.photos` (photos read in
parallel worker processes, results returned as data, nothing printed);
:class:`PhotoBars` is what the command line shows meanwhile: a progress bar
per photo on standard error, when it is a terminal.

Also runnable alone for testing: ``python -m generator.cli.photo_bars FILE... [--layout ID] [--json]``.
"""

from __future__ import annotations

import sys
from typing import Sequence

from generator.jobs.photos import has_photos, photo_inputs, read_outputs, read_photos
from generator.reader.errors import PhotoError


class PhotoBars:
    """A rich progress bar per photo on ``console`` (a :data:`generator.jobs.photos.Progress` callback).

    The live display starts at the first report, and only on a terminal (elsewhere — a pipe,
    a test — nothing is shown).  Call :meth:`stop` when the photos are read.
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
            self.progress = None


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m generator.cli.photo_bars FILE... [--layout ID] [--json]``: ``sheetsmith verify`` under another name.

    Returns the exit status (0, 1 or 2; see :mod:`generator.cli.app`).
    """
    from generator.cli.app import main as cli_main

    sys.argv = ["sheetsmith", "verify", *(sys.argv[1:] if argv is None else argv)]
    try:
        cli_main()
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


__all__ = ["photo_inputs", "has_photos", "read_photos", "read_outputs", "PhotoBars", "PhotoError", "main"]
