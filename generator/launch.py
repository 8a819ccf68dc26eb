"""The ``sheetsmith`` console script: answer ``sheetsmith`` and ``sheetsmith --help`` at once, else run the CLI.

The top-level help is the text typer prints (for a terminal 80 columns wide or
wider, where it does not depend on the width), kept in :data:`TOP_HELP` so that
asking for it does not load typer; ``tests/test_rough_edges.py`` checks that it
is what typer prints today (regenerate with ``python -m generator.launch``).
Everything else goes to :func:`generator.cli.main`.
"""

from __future__ import annotations

import sys

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

    from .cli import app

    return CliRunner().invoke(app, ["--help"], env={"COLUMNS": "80"}, prog_name="sheetsmith").output


def main() -> None:
    """Console entry point: the kept help for ``sheetsmith``, ``-h``, ``--help``; else :func:`generator.cli.main`."""
    if sys.argv[1:] in ([], ["--help"], ["-h"]) and "_SHEETSMITH_COMPLETE" not in __import__("os").environ:
        import shutil

        if shutil.get_terminal_size().columns >= 80:  # narrower: typer wraps to the width
            sys.stdout.write(TOP_HELP)
            sys.exit(0)
    from .cli import main as cli_main

    cli_main()


if __name__ == "__main__":  # pragma: no cover - regenerate TOP_HELP
    from pathlib import Path

    path = Path(__file__)
    text = path.read_text(encoding="utf-8")
    start = text.index('TOP_HELP = """\\\n') + len('TOP_HELP = """\\\n')
    end = text.index('"""', start)
    path.write_text(text[:start] + typer_help() + text[end:], encoding="utf-8")
    print(f"rewrote TOP_HELP in {path}")
