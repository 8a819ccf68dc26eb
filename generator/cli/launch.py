"""The ``sheetsmith`` console script: answer ``sheetsmith`` and ``sheetsmith --help`` at once, else run the CLI.

The top-level help is the text typer prints (for a terminal 80 columns wide or
wider, where it does not depend on the width), kept in :data:`TOP_HELP` so that
asking for it does not load typer; ``tests/test_rough_edges.py`` checks that it
is what typer prints today (regenerate with ``python -m generator.cli.launch``).
Everything else goes to :func:`generator.cli.app.main`.
"""

from __future__ import annotations

import sys

from generator.cli.streams import guard_standard_streams, output_failed
from generator.core.process import DISPOSABLE_THREAD, GC_THRESHOLDS, keep_freed_memory

TOP_HELP = """\
Usage: sheetsmith [OPTIONS] COMMAND [ARGS]...

  sheetsmith: printable game sheets from YAML layouts, checked by the same rules
  engine.

  Exit status: 0 everything read and nothing wrong (warnings alone included); 1
  read, but problems found (a rule broken, a written score that differs, an
  impossible sheet, a photo field that needs a person, validation errors); 2 an
  input could not be read at all (missing, not YAML, not an image, wrong format)
  or a usage error.

Options:
  --version             Print the version and exit.
  --install-completion  Install completion for the current shell.
  --show-completion     Show completion for the current shell, to copy it or
                        customize the installation.
  -h, --help            Show this message and exit.

Commands:
  build     Render everything shipped into OUT_DIR: per paper size a PDF to...
  render    Render one layout, deck, chip sheet, pad or ledger to PDF...
  layouts   List what ships: sheet layouts, decks, chip sheets, score pads...
  new       Start a sheet of your own: a copy of a shipped sheet or a...
  watch     Check and render FILE now and again on every save: the...
  show      Show a sheet as a player and a designer see it: the grid with...
  schema    Print the JSON Schema of a file kind, for editors: with the...
  check     Validate layout files: every problem as FILE:LINE:COL.
  verify    Check finished paper with the rules engine, dispatching on each...
  replay    Referee a whole All In game from its log: stop at the first...
  simulate  Play games with simple bots: All In writes a game log and the...
  balance   Is my sheet fair? Bots play the same games on each layout and...
  serve     Serve the web page for the table: print sheets, score All In...
"""


def typer_help() -> str:
    """The top-level help as typer prints it on an 80-column terminal (imports the CLI)."""
    from typer.testing import CliRunner

    from generator.cli.app import app

    return CliRunner().invoke(app, ["--help"], env={"COLUMNS": "80"}, prog_name="sheetsmith").output


def main() -> None:
    """Console entry point: the kept help for ``sheetsmith``, ``-h``, ``--help``; else
    :func:`generator.cli.app.main`."""
    guard_standard_streams()
    if sys.argv[1:] in ([], ["--help"], ["-h"]) and "_SHEETSMITH_COMPLETE" not in __import__("os").environ:
        import shutil

        if shutil.get_terminal_size().columns >= 80:  # narrower: typer wraps to the width
            try:
                sys.stdout.write(TOP_HELP)
                sys.stdout.flush()
            except OSError as exc:  # a closed pipe, a full disk, a closed standard output
                sys.exit(output_failed(exc))
            sys.exit(0)
    quick_start()
    if sys.argv[1:2] == ["verify"]:
        _verify_early(sys.argv[2:])
    from generator.cli.app import main as cli_main

    code: str | int | None
    try:
        cli_main()
        code = 0
    except SystemExit as exc:
        code = exc.code
    quick_exit(code)


def _verify_early(args: list[str]) -> None:
    """``sheetsmith verify ARGS``: start decoding its one photo now, before the command line library and the
    rest of sheetsmith are imported (:func:`generator.jobs.photos.start_early`; ``verify`` starts it again, which
    does nothing, if this finds nothing).  Only ``--json`` and ``--layout ID`` are known here: with anything
    else that looks like an option, nothing is started."""
    files: list[str] = []
    it = iter(args)
    for arg in it:
        if arg == "--json" or arg.startswith("--layout="):
            continue
        if arg == "--layout":
            next(it, None)
        elif arg == "--":
            files.extend(it)
        elif arg.startswith("-"):
            return
        else:
            files.append(arg)
    from generator.jobs.photos import start_early

    start_early(files)


def quick_start() -> None:
    """Make a short-lived ``sheetsmith`` process start faster; called before anything else is imported.

    Python's cyclic garbage collector runs a young-generation pass every 700 new container
    objects: about 120 passes (70 ms) while a render imports its libraries and builds its
    scene, and none of them frees anything (those objects live until the process ends;
    reference counting frees the rest).  A threshold of 100,000 keeps cycle collection for
    long runs (``serve``, ``watch``, ``simulate``) at a fraction of the cost.
    ``benchmarks/bench_startup.py`` measures the effect.  (The environment sheetsmith's
    libraries start in is set by :func:`generator.cli.app.main`, for every entry.)
    """
    import gc

    gc.set_threshold(*GC_THRESHOLDS)
    if not LONG_RUNNING.intersection(sys.argv[1:]):  # a server keeps only what it needs
        keep_freed_memory()


LONG_RUNNING = frozenset({"serve", "watch"})
"""Commands that run until stopped: their process gives freed memory back as usual."""


def quick_exit(code: str | int | None) -> None:
    """End the process with ``code`` (``SystemExit``'s: ``None`` is 0, a text is printed and is 1) without teardown.

    A finished command has written its files (every write is closed, then renamed) and its
    messages; what Python does after that, tearing down some 400 modules and collecting
    their objects, takes about 0.18 s of a 0.7 s render.  So the exit handlers run
    (temporary folders, worker pools), standard output and error are flushed, and
    ``os._exit`` ends the process.  While another thread still runs (the web server's),
    the ordinary exit is taken instead, which waits for it (a :data:`DISPOSABLE_THREAD` is not waited for).  Output that
    cannot be flushed
    ends the run as :func:`generator.cli.streams.output_failed` says (1 for a closed pipe, else 2).

    Raises:
        SystemExit: only on that ordinary exit.
    """
    import atexit
    import os
    import threading

    if any(
        t is not threading.current_thread() and t.is_alive() and t.name != DISPOSABLE_THREAD
        for t in threading.enumerate()
    ):
        sys.exit(code)
    if code is None:
        code = 0
    elif not isinstance(code, int):
        try:
            sys.stderr.write(f"{code}\n")
        except (OSError, ValueError, AttributeError):
            pass
        code = 1
    atexit._run_exitfuncs()  # what the interpreter would run first on its way out
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError as exc:  # the last of the output did not go out: a closed pipe, a full disk
        code = output_failed(exc)
    except ValueError:  # closed
        pass
    try:
        if sys.stderr is not None:
            sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover - regenerate TOP_HELP
    from pathlib import Path

    path = Path(__file__)
    text = path.read_text(encoding="utf-8")
    start = text.index('TOP_HELP = """\\\n') + len('TOP_HELP = """\\\n')
    end = text.index('"""', start)
    path.write_text(text[:start] + typer_help() + text[end:], encoding="utf-8")
    print(f"rewrote TOP_HELP in {path}")
