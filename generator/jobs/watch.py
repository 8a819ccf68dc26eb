"""``sheetsmith watch FILE``: check and render a layout again on every save (a live preview for designers).

:func:`check_and_render` is one round: the job of ``render``, timed, its
problems kept as data instead of raised.  :func:`watch_rounds` runs a round
at once and then after every save of the file (the ``watchfiles`` library;
the file's folder is watched, so editors that save by renaming a temporary
file are seen too), and never stops on a broken file: the next save gets its
own round.  Output files follow ``render``'s rule; the first round refuses to
replace a file that exists unless ``force`` is given, later rounds replace
what the session wrote.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Optional

from generator.core.errors import Problem, SheetsmithError


@dataclass
class Round:
    """One check-and-render of :func:`check_and_render`.

    Attributes:
        problems: errors and warnings, located ``FILE:LINE:COL`` (errors mean nothing was written).
        written: the files written (empty when the file has errors).
        seconds: how long the round took (reading, checking, drawing, writing).
    """

    problems: list[Problem] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """True when the file had no error and the output was written."""
        return bool(self.written)


def default_target(file: Path, *, fmt: str, paper: str, output: Optional[Path], lang: str = "en") -> Optional[Path]:
    """Where a round writes, when it is known before reading the file (a user's file or ``-o``); None for a shipped
    file."""
    from generator.core.shipped import is_shipped
    from generator.jobs.render import output_stem

    if output is not None:
        return output
    if is_shipped(file):
        return None
    return file.parent / f"{output_stem(file.stem, paper, lang)}.{fmt}"


def check_and_render(
    file: Path,
    *,
    fmt: str = "pdf",
    paper: str = "a4",
    output: Optional[Path] = None,
    overwrite: bool = True,
    dpi: int = 150,
    **render_options: Any,
) -> Round:
    """Check ``file`` and, when it has no error, render it as ``sheetsmith render`` does.

    Never raises for a bad file: its problems are in the :class:`Round`
    (a file that cannot be read, a layout error, an output that may not be replaced).
    """
    from generator.jobs.render import render_item
    from generator.jobs.targets import output_target, write_rendered

    start = time.perf_counter()
    try:
        done = render_item(file, fmt=fmt, paper=paper, dpi=dpi, **render_options)
        target, may_replace = output_target(done, output=output, force=overwrite)
        written, manifest = write_rendered(done, target, may_replace)
    except SheetsmithError as exc:
        problems = list(getattr(exc, "problems", []) or [Problem(str(file), 0, 0, str(exc))])
        return Round(problems, [], time.perf_counter() - start)
    files = written + ([manifest] if manifest else [])
    return Round(list(done.warnings), files, time.perf_counter() - start)


def watch_rounds(
    file: str | Path,
    *,
    fmt: str = "pdf",
    paper: str = "a4",
    output: Optional[Path] = None,
    force: bool = False,
    stop_event=None,
    **render_options: Any,
) -> Iterator[Round]:
    """A :class:`Round` now, then one after every change to ``file``, until ``stop_event`` is set
    (or Ctrl-C: the ``KeyboardInterrupt`` reaches the caller).

    Raises:
        UnreadableError: before the first round, when ``file`` is not there (a misspelt name would be watched
            for ever).
        OutputError: before the first round, when the output exists and ``force`` is False.
    """
    from watchfiles import watch

    from generator.core.errors import OutputError, Problem, UnreadableError

    file = Path(file)
    if not file.is_file():
        what = "is a folder" if file.is_dir() else "not found"
        raise UnreadableError(
            [
                Problem(
                    str(file),
                    0,
                    0,
                    f"{what}; watch follows a layout file that exists (start one with: sheetsmith new allin FILE)",
                )
            ]
        )
    target = default_target(file, fmt=fmt, paper=paper, output=output, lang=render_options.get("lang", "en"))
    if target is not None and target.exists() and not force:
        raise OutputError(f"{target}: already exists; pass --force to let watch replace it")
    me = file.resolve()

    def stamp() -> Optional[tuple[int, int, int]]:
        """What a save changes: modification time, size, inode (None: no file)."""
        try:
            st = me.stat()
        except OSError:
            return None
        return st.st_mtime_ns, st.st_size, st.st_ino

    def mine(_change, path: str) -> bool:
        return Path(path).resolve() == me

    seen = stamp()  # taken before the first round, so a save during it is not missed
    first = check_and_render(file, fmt=fmt, paper=paper, output=output, overwrite=force, **render_options)
    wrote = first.ok
    yield first
    # Events only wake the loop; the file's stamp decides.  Waking every second as well catches a save
    # made before the watcher started and files on filesystems that send no events.
    for _changes in watch(
        me.parent,
        watch_filter=mine,
        debounce=300,
        step=50,
        stop_event=stop_event,
        rust_timeout=1000,
        yield_on_timeout=True,
        recursive=False,
        raise_interrupt=True,
    ):
        now = stamp()
        if now == seen:
            continue
        seen = now
        done = check_and_render(file, fmt=fmt, paper=paper, output=output, overwrite=force or wrote, **render_options)
        wrote = wrote or done.ok
        yield done
