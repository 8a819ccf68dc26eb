"""``sheetsmith verify`` with photos: read each photo into a typed-in sheet, then score as usual.

The ``verify`` job (:func:`generator.jobs.verify`) calls :func:`photo_inputs` when any of its
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
written.  A ``.read.yaml`` the user has edited since sheetsmith wrote it is
never overwritten.

Also runnable alone for testing: ``python -m generator.photo_cli FILE... [--layout ID] [--json]``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Sequence


from .errors import FindingsError, InputError, Problem
from .output import write_atomic
from .reader.errors import PhotoError
from .reader.image import looks_like_photo
from .registry import display_path


def has_photos(paths: Sequence[Path]) -> bool:
    """True when any of ``paths`` is a photo (by its ending or, for other endings, its first bytes)."""
    return any(looks_like_photo(p) for p in paths)


def read_outputs(photo: Path) -> tuple[Path, Path]:
    """Where reading ``photo`` writes: ``(NAME.read.yaml, NAME.read.png)`` next to it."""
    return photo.with_name(photo.stem + ".read.yaml"), photo.with_name(photo.stem + ".read.png")


def read_photos(paths: Sequence[Path], *, layout: str | None = None) -> list:
    """Read every photo of ``paths`` (in order); return their :class:`~generator.reader.PhotoReading` s.

    Raises:
        InputError: every photo that cannot be read, one problem each (nothing is written).
    """
    from .reader.read import read_photo

    problems: list[Problem] = []
    readings = []
    for path in paths:
        try:
            readings.append(read_photo(path, layout=layout, display=display_path(Path(path))))
        except InputError as exc:
            problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    return readings


def photo_inputs(paths: Sequence[Path], *, layout: str | None, notes: list[str] | None = None) -> list[Path]:
    """Read every photo of ``paths`` into ``NAME.read.yaml`` and ``NAME.read.png``; return the typed-in inputs.

    Args:
        paths: photos (JPEG, PNG, WebP, TIFF …) and typed-in All In sheet YAML files, one game.
        layout: ``--layout ID`` (a shipped id or a layout file) for photos whose sheet code
            cannot be read; when the code is read too, the two must agree.
        notes: receives one "read into …" line per photo.

    Returns:
        ``paths`` with every photo replaced by its ``.read.yaml``, in order.

    Raises:
        InputError: a photo that cannot be read, or a ``.read.yaml`` that cannot be
            (re)written — nothing is written then (exit 2).
        FindingsError: an uncertain field in any photo — after the ``.read.yaml`` and
            ``.read.png`` files are written, one problem per field, located at its ``?`` (exit 1).
    """
    from .reader.output import annotated_png, edited_by_user, read_yaml

    notes = notes if notes is not None else []
    paths = [Path(p) for p in paths]
    photos = [p for p in paths if looks_like_photo(p)]
    if not photos:
        return paths
    readings = read_photos(photos, layout=layout)
    # decide every output before writing any
    problems: list[Problem] = []
    planned: dict[Path, tuple] = {}
    given = {p.resolve() for p in paths if not looks_like_photo(p)}
    for photo, reading in zip(photos, readings):
        yaml_path, png_path = read_outputs(photo)
        shown = display_path(yaml_path)
        if yaml_path.resolve() in given:
            problems.append(Problem(shown, 0, 0, f"is given on the command line and would also be written from the photo {display_path(photo)}; give one or the other"))
            continue
        if yaml_path.resolve() in {k.resolve() for k in planned}:
            problems.append(Problem(display_path(photo), 0, 0, f"another photo of the same name also reads into {shown}; rename one of them"))
            continue
        if yaml_path.exists():
            try:
                old = yaml_path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                old = ""
            if edited_by_user(old):
                problems.append(Problem(
                    shown, 0, 0,
                    f"has been edited since sheetsmith read {display_path(photo)} into it; score it with "
                    f"'sheetsmith verify {shown}', or delete it to read the photo again",
                ))
                continue
        from .allin_log import layout_ref_for

        ref = layout_ref_for(reading.layout, yaml_path.parent)
        planned[yaml_path] = (photo, reading, png_path, read_yaml(reading, layout_ref=ref, file_name=shown))
    if problems:
        raise InputError(problems)
    pngs = {yaml_path: annotated_png(reading) for yaml_path, (_, reading, _, _) in planned.items()}
    for yaml_path, (photo, reading, png_path, text) in planned.items():
        write_atomic(yaml_path, text.encode("utf-8"))
        write_atomic(png_path, pngs[yaml_path])
        state = f"{len(reading.uncertain)} uncertain" if reading.uncertain else "all clear"
        notes.append(f"{display_path(photo)}: read into {display_path(yaml_path)} and {display_path(png_path)} ({state})")
    uncertain: list[Problem] = []
    for yaml_path, (photo, reading, png_path, text) in planned.items():
        for field, reason in reading.uncertain:
            line, col = _locate(text, reading, field)
            uncertain.append(Problem(
                display_path(yaml_path), line, col,
                f"{field}: uncertain in the photo {display_path(photo)}: {reason}; look at the sheet "
                f"(and {display_path(png_path)}), write what is there in place of '?', then run "
                f"'sheetsmith verify' on this file",
            ))
    if uncertain:
        raise FindingsError(uncertain)
    return [read_outputs(p)[0] if looks_like_photo(p) else p for p in paths]


def _locate(text: str, reading, field: str) -> tuple[int, int]:
    """1-based line and column of a field's ``?`` in a ``.read.yaml`` text."""
    lines = text.split("\n")
    if field.startswith("chips."):
        key = field.split(".")[1]
        for i, ln in enumerate(lines):
            if ln.startswith("chips:"):
                return i + 1, ln.find(key) + 1
        return 0, 0
    start = next(i for i, ln in enumerate(lines) if ln.startswith("grid:")) + 1
    for coord, cr in reading.cells.items():
        if cr.cell == field:
            c, r = coord
            ln = lines[start + r]
            tokens = list(re.finditer(r"\S+", ln))
            return start + r + 1, tokens[c].start() + 1
    return 0, 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m generator.photo_cli FILE... [--layout ID] [--json]``: ``sheetsmith verify`` under another name.

    Returns the exit status (0, 1 or 2; see :mod:`generator.cli`).
    """
    from .cli import main as cli_main

    sys.argv = ["sheetsmith", "verify", *(sys.argv[1:] if argv is None else argv)]
    try:
        cli_main()
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


__all__ = ["photo_inputs", "has_photos", "read_photos", "read_outputs", "PhotoError", "main"]
