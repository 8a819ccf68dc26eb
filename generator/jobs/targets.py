"""Where ``render`` and ``watch`` write, and writing there: one rule for every output.

* ``-o FILE``: that file, replaced only with ``--force``;
* a shipped item (a shipped id, or a file under ``layouts/``): ``output/<folder>/<id>-<paper>.<fmt>``,
  generated and replaced freely (``<id>-<paper>-<lang>.<fmt>`` in another language than English, and
  ``-target300``, ``-bridge-nobacks``, … after it for a ``--variant`` or deck options);
* a user's file: next to it, ``<file stem>-<paper>.<fmt>``, replaced only with ``--force``, so a copy
  of a shipped sheet never overwrites the shipped sheet's output.

``--page N`` adds ``-pNN`` to the default name of an item with several pages; ``--pages all``
writes ``NAME-p01.png``, ``NAME-p02.png``, … Every file goes through
:func:`generator.core.output.write_atomic`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from generator.core.errors import OutputError, SheetsmithError
from generator.jobs.forms import keep_user_form
from generator.jobs.render import Rendered, output_stem


def parse_page(text: Optional[str]) -> int | str | None:
    """``--page N`` (1-based, ASCII digits) or ``--pages all``; None stays None.

    Raises:
        SheetsmithError: anything else.
    """
    if text is None:
        return None
    if text.strip().lower() == "all":
        return "all"
    if text.isascii() and text.isdigit() and len(text) <= 4 and int(text) >= 1:
        return int(text)
    raise SheetsmithError(f"--page '{text}': give a page number from 1, or 'all' for one file per page")


def output_target(done: Rendered, *, output: Optional[Path] = None, force: bool = False) -> tuple[Path, bool]:
    """Where ``render`` writes ``done`` and whether an existing file there may be replaced.

    * ``-o FILE``: that file, replaced only with ``force``;
    * a shipped item: ``output/<folder>/<id>-<paper>.<fmt>`` (generated, replaced freely);
    * a user's file: next to it, ``<file stem>-<paper>.<fmt>``, replaced only with ``force``,
      so a copy of a shipped sheet never overwrites the shipped sheet's output;
    * ``--fill SHEET``: a player's filled sheet is theirs, never the blank sheet's file: next to the
      typed-in file, ``<its stem>-<paper>.<fmt>`` (``ann.yaml`` → ``ann-a4.pdf``), replaced only with ``force``.

    A single page asked with ``--page N`` adds ``-pNN`` to the default name; another language than
    English adds ``-LANG`` after the paper (``q-diamonds-a4-it.pdf``), so it never replaces the English file;
    a ``--variant`` or deck options add what they changed (``flip7-pad-a4-target300.pdf``,
    :attr:`~generator.jobs.render.Rendered.variation`), so they never replace the plain item's file.
    """
    from generator.games.registry import kind_of_item

    if output is not None:
        return output, force
    page = f"-p{done.page:02d}" if done.page is not None and done.pages > 1 else ""
    if done.fill is not None:
        return done.fill.parent / f"{output_stem(done.fill.stem, done.paper, done.lang)}{page}.{done.fmt}", force
    varied = f"-{done.variation}" if done.variation else ""
    if done.shipped or done.source is None:
        return Path("output") / kind_of_item(
            done.item
        ).folder / f"{output_stem(done.item.id, done.paper, done.lang)}{varied}{page}.{done.fmt}", True
    return (
        done.source.parent / f"{output_stem(done.source.stem, done.paper, done.lang)}{varied}{page}.{done.fmt}",
        force,
    )


def write_rendered(done: Rendered, target: Path, overwrite: bool) -> tuple[list[Path], Optional[Path]]:
    """Write what :func:`~generator.jobs.render.render_item` drew to ``target`` (atomically); a deck's or chip sheet's
    PDF gets its manifest.

    With ``--pages all`` every page goes to its own file (:func:`page_files`).

    Returns:
        ``(files written, manifest written or None)``.

    Raises:
        OutputError: a file exists and ``overwrite`` is False (then nothing is written).
    """
    import json

    from generator.core.output import check_targets, write_together

    files = list(zip(page_files(target, done.pages), done.each_page)) if done.each_page else [(target, done.data)]
    manifest = target.with_suffix(".json") if (done.manifest is not None and done.fmt == "pdf") else None
    if manifest is not None:
        files.append((manifest, (json.dumps(done.manifest, indent=1) + "\n").encode()))
    check_targets([path for path, _ in files], overwrite=overwrite)  # every file, before the first is written
    written = write_together(files)  # all of them or none
    try:
        kept = keep_user_form(done)
    except OutputError as exc:
        kept = None
        done.notes.append(
            f"could not keep this printing's form ({exc}): photos of it will not read once the layout changes"
        )
    if kept is not None:
        done.notes.append(
            f"kept this printing's form in {kept}: sheets printed now stay readable after the layout changes"
        )
    return (written[:-1] if manifest is not None else written), manifest


def page_files(target: Path, count: int) -> list[Path]:
    """The files of ``--pages all``: ``NAME-p01.png``, ``NAME-p02.png``, … next to ``target``."""
    return [target.with_name(f"{target.stem}-p{i + 1:02d}{target.suffix}") for i in range(count)]
