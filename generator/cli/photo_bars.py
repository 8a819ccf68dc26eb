"""Progress bars for ``sheetsmith verify`` with photos: one bar per photo on standard error, on a terminal.

The photos are read by :mod:`generator.jobs.photos` (in parallel worker
processes, results returned as data, nothing printed); :class:`PhotoBars` is
the :data:`~generator.jobs.photos.Progress` callback the command gives it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID


class PhotoBars:
    """A rich progress bar per photo on ``console`` (a :data:`generator.jobs.photos.Progress` callback).

    The live display starts at the first report, and only on a terminal (elsewhere — a pipe,
    a test — nothing is shown).  Call :meth:`stop` when the photos are read.
    """

    WEIGHT = {"waiting": 0, "reading": 10, "drawing": 85, "done": 100, "failed": 100}

    def __init__(self, names: Sequence[str], console):
        self.names = list(names)
        self.console = console
        self.progress: Progress | None = None
        self.tasks: list[TaskID] = []

    def __call__(self, index: int, stage: str) -> None:
        if not self.console.is_terminal:
            return
        if self.progress is None:
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self.progress = Progress(
                TextColumn("{task.description}", markup=False),
                BarColumn(),
                TextColumn("{task.fields[stage]}", markup=False),
                TimeElapsedColumn(),
                console=self.console,
                transient=False,
            )
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
