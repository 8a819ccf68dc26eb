"""The photo jobs of ``sheetsmith verify``: read photos (in parallel), write what was read, return data.

Jobs, then faces: nothing here prints.  The command line
(:mod:`generator.cli.photo_bars`, ``sheetsmith verify``) and a web page call

* :func:`read_photos` — every photo read, in worker processes, into a list in
  input order of :class:`~generator.reader.reading.PhotoReading` (annotated
  picture drawn) or :class:`PhotoFailure` (the photo cannot be read: the
  reason, exit status 2);
* :func:`plan_pairs` and :func:`write_pairs` — where each reading goes
  (``NAME.read.yaml`` and ``NAME.read.png`` next to the photo), refusing to
  overwrite a ``.read.yaml`` the user edited, then each pair written as one unit;
* :func:`photo_inputs` — all of it for ``verify``: photos in, the typed-in files
  to score out.

Names from the file system are escaped wherever they are shown
(:mod:`generator.core.names`), and the player's name taken from a photo's file name
is made safe for the typed-in sheet.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Protocol, Sequence

from generator.core.errors import EXIT_UNREADABLE, FindingsError, InputError, Problem
from generator.core.filetypes import looks_like_photo
from generator.core.names import display_name, player_name, shown
from generator.jobs.photo_service import PhotoService, ensure_fork_server, report_stage, worker_count

Progress = Callable[[int, str], None]
"""Called as ``progress(index, stage)`` while photo ``index`` (0-based, input order) is read; ``stage`` is
one of :data:`STAGES`.  In the calling process, from the thread that called :func:`read_photos`."""
STAGES = ("waiting", "reading", "drawing", "done", "failed")
"""A photo's stages, in order: waiting for a worker, being read, its annotated picture being drawn, then done or
failed."""


@dataclass(frozen=True)
class PhotoFailure:
    """A photo that cannot be read at all: its path, its name as shown, and why (one problem or more).

    ``exit_code`` is 2 (an input could not be read at all).
    """

    path: Path
    display: str
    problems: tuple[Problem, ...]
    exit_code: int = EXIT_UNREADABLE

    @property
    def message(self) -> str:
        """The reasons, ``; ``-joined (without the file name)."""
        return "; ".join(p.message for p in self.problems)


def has_photos(paths: Sequence[str | Path]) -> bool:
    """True when any of ``paths`` is a photo (by its ending or, for other endings, its first bytes)."""
    return any(looks_like_photo(p) for p in paths)


def start_early(paths: Sequence[str | Path]) -> None:
    """Start what reading the photos among ``paths`` will need while the rest of sheetsmith is imported.

    One photo (which :func:`read_photos` reads in this process): its decoding, in a background
    thread (:mod:`.reader.early`).  Several, read by worker processes: the fork server the workers
    start from, which imports the reader (0.4 s) on another core meanwhile
    (:func:`~generator.jobs.photo_service.ensure_fork_server`).
    """
    photos = [Path(p) for p in paths if looks_like_photo(p)]
    if len(photos) == 1:
        from generator.reader.early import read_early

        read_early(photos[0], display_name(photos[0]))
    elif len(photos) > 1 and worker_count(len(photos)) > 1:
        ensure_fork_server()


def read_photos(
    paths: Sequence[str | Path],
    *,
    layout: str | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
) -> list:
    """Read every photo of ``paths``; one result per photo, in input order.

    Photos are read in parallel worker processes (at most one per CPU, see
    :func:`~generator.jobs.photo_service.worker_count`); a single photo, or ``workers=1``, is read in this process.

    Args:
        paths: the photos.
        layout: ``--layout``: a shipped layout id or a layout file, for photos whose sheet code
            cannot be read (checked against the code when both are there).
        workers: how many worker processes (default :func:`~generator.jobs.photo_service.worker_count`).
        progress: called with each photo's stage as it changes (:data:`Progress`).

    Returns:
        for each photo a :class:`~generator.reader.reading.PhotoReading` with its annotated picture
        (``.annotated``, PNG bytes) drawn, or a :class:`PhotoFailure`.

    Raises:
        InputError: ``layout`` is not a shipped id or a valid layout file.
    """
    if layout is not None:  # one clear error for a bad --layout, not one per photo
        from generator.core.shipped import resolve_layout
        from generator.games.allin.layout import load_layout
        from generator.reader.kinds import item_of_layout

        if item_of_layout(layout) is None:  # a tick pad (generator.reader.kinds), else an All In layout
            load_layout(resolve_layout(layout))
    jobs = [(i, Path(p), display_name(p), player_name(p), layout) for i, p in enumerate(paths)]
    report = progress or (lambda i, stage: None)
    n = worker_count(len(jobs)) if workers is None else max(1, min(workers, len(jobs)))
    pooled = _read_in_pool(jobs, n, report) if n > 1 else None
    return pooled if pooled is not None else [_read_one(job, report) for job in jobs]


def _read_one(job: tuple, report: Progress):
    """Read one photo and draw its annotated picture; a :class:`PhotoFailure` when it cannot be read."""
    from generator.reader.output import annotated_png
    from generator.reader.read import read_photo, reader_fault

    index, path, display, player, layout = job
    report(index, "reading")
    try:
        reading = read_photo(path, layout=layout, display=display, player=player)
        report(index, "drawing")
        reading.annotated = reading.annotated_png() if hasattr(reading, "annotated_png") else annotated_png(reading)
    except InputError as exc:
        report(index, "failed")
        return PhotoFailure(path, display, tuple(exc.problems))
    except Exception as exc:  # drawing the picture failed: a fault of sheetsmith's, refused like one in reading
        report(index, "failed")
        return PhotoFailure(path, display, tuple(reader_fault(display, exc).problems))
    reading.preview = None  # drawn into .annotated; not sent back from a worker (3 MB)
    if hasattr(reading, "canvas"):
        reading.canvas = None
    report(index, "done")
    return reading


# --- worker processes ---------------------------------------------------------------------------------


def _read_in_worker(job: tuple):
    return _read_one(job, report_stage)


def _read_in_pool(jobs: list[tuple], workers: int, report: Progress) -> list | None:
    """Read ``jobs`` in ``workers`` worker processes; None when no worker process can start here."""
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool

    service = None
    try:
        service = PhotoService(workers, stages=True)
        futures = {service.submit(_read_in_worker, job): job for job in jobs}
    except (OSError, RuntimeError):  # no process or thread can start (a sandbox, no slots): the caller reads them
        if service is not None:
            service.shutdown(wait=False, cancel=True)
        return None
    results: list = [None] * len(jobs)
    order = {stage: n for n, stage in enumerate(STAGES)}
    state = ["waiting"] * len(jobs)

    def advance(i: int, stage: str) -> None:
        if order[stage] > order[state[i]]:  # stages only move forward (messages may arrive late)
            state[i] = stage
            report(i, stage)

    try:
        for i in range(len(jobs)):
            report(i, "waiting")
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
            for i, stage in service.stages():
                advance(i, stage)
            for fut in done:
                job = futures[fut]
                try:
                    results[job[0]] = fut.result()
                except BrokenProcessPool:
                    results[job[0]] = PhotoFailure(
                        job[1],
                        job[2],
                        (
                            Problem(
                                job[2], 0, 0, "the process reading this photo stopped (out of memory?); read it alone"
                            ),
                        ),
                    )
                advance(job[0], "failed" if isinstance(results[job[0]], PhotoFailure) else "done")
    except BaseException:
        service.shutdown(wait=False, cancel=True)
        raise
    service.shutdown(wait=True)
    return results


# --- where the readings go -------------------------------------------------------------------------


def read_outputs(photo: str | Path) -> tuple[Path, Path]:
    """Where reading ``photo`` writes: ``(NAME.read.yaml, NAME.read.png)`` next to it."""
    photo = Path(photo)
    return photo.with_name(photo.stem + ".read.yaml"), photo.with_name(photo.stem + ".read.png")


class Reading(Protocol):
    """What a pair plan uses of a photo's reading (:class:`~generator.reader.reading.PhotoReading`, or the
    reading of a sheet kind of :mod:`generator.reader.kinds`)."""

    @property
    def uncertain(self) -> list[tuple[str, str]]:
        """Every unclear field as ``(field, reason)``."""
        ...


@dataclass
class PairPlan:
    """One photo's reading and where it goes: the ``.read.yaml`` text and the annotated PNG bytes."""

    photo: Path
    reading: Reading
    yaml_path: Path
    png_path: Path
    text: str
    png: bytes = field(repr=False, default=b"")


def pair_problems(photos: Sequence[Path], *, given: Sequence[Path] = ()) -> list[Problem]:
    """What forbids writing the photos' pairs, found from their paths alone (see :func:`plan_pairs`): checked
    before any photo is read, so that a refusal comes at once, not after seconds of reading."""
    given_set = {Path(p).resolve() for p in given}
    taken: set[Path] = set()
    return [p for p in (_blocked(photo, given_set, taken) for photo in photos) if p is not None]


def _blocked(photo: Path, given_set: set[Path], taken: set[Path]) -> Problem | None:
    """Why ``photo``'s pair must not be written (``None`` when it may): its ``.read.yaml`` is given on the command
    line too, another photo of ``taken`` reads into it, or the user edited it since sheetsmith wrote it."""
    from generator.reader.output import edited_by_user

    yaml_path, _ = read_outputs(photo)
    shown_yaml = display_name(yaml_path)
    where = yaml_path.resolve()
    if where in given_set:
        return Problem(
            shown_yaml,
            0,
            0,
            f"is given on the command line and would also be written from the photo "
            f"{display_name(photo)}; give one or the other",
        )
    if where in taken:
        return Problem(
            display_name(photo),
            0,
            0,
            f"another photo of the same name also reads into {shown_yaml}; rename one of them",
        )
    taken.add(where)
    if os.path.lexists(yaml_path):
        try:
            old = yaml_path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            old = ""
        if edited_by_user(old):
            return Problem(
                shown_yaml,
                0,
                0,
                f"has been edited since sheetsmith read {display_name(photo)} into it; score it with "
                f"'sheetsmith verify {shown_yaml}', or delete it to read the photo again",
            )
    return None


def plan_pairs(
    photos: Sequence[Path], readings: Sequence, *, given: Sequence[Path] = ()
) -> tuple[list[PairPlan], list[Problem]]:
    """Decide, for every photo read, what is written where — before anything is written.

    Args:
        photos: the photos, in order; ``readings`` their :class:`~generator.reader.reading.PhotoReading` s.
        given: typed-in files also on the command line (a ``.read.yaml`` among them is not overwritten).

    Returns:
        the plans, and the problems that forbid writing (a ``.read.yaml`` the user edited since
        sheetsmith wrote it, one given on the command line too, two photos reading into one file).
    """
    from generator.games.allin.game_log import layout_ref_for
    from generator.reader.output import annotated_png, read_yaml

    problems: list[Problem] = []
    plans: list[PairPlan] = []
    taken: set[Path] = set()
    given_set = {Path(p).resolve() for p in given}
    for photo, reading in zip(photos, readings):
        yaml_path, png_path = read_outputs(photo)
        shown_yaml = display_name(yaml_path)
        problem = _blocked(photo, given_set, taken)
        if problem is not None:
            problems.append(problem)
            continue
        if hasattr(reading, "to_yaml"):  # a sheet of another kind (generator.reader.kinds) writes its own file
            text = reading.to_yaml(file_name=shown_yaml)
            png = reading.annotated if reading.annotated is not None else reading.annotated_png()
        else:
            ref = layout_ref_for(reading.layout, yaml_path.parent)
            text = read_yaml(reading, layout_ref=ref, file_name=shown_yaml)
            png = reading.annotated if reading.annotated is not None else annotated_png(reading)
        plans.append(PairPlan(photo, reading, yaml_path, png_path, text, png))
    return plans, problems


def write_pairs(plans: Sequence[PairPlan]) -> list[str]:
    """Write each plan's ``.read.yaml`` and ``.read.png`` as one unit (both or neither); one note per photo.

    Raises:
        OutputError: a pair cannot be written (that pair is left as it was; pairs before it are written).
    """
    from generator.reader.output import write_pair

    notes = []
    for plan in plans:
        write_pair(plan.yaml_path, plan.text, plan.png_path, plan.png)
        unc = plan.reading.uncertain
        state = f"{len(unc)} uncertain" if unc else "all clear"
        notes.append(
            f"{display_name(plan.photo)}: read into {display_name(plan.yaml_path)} and {display_name(plan.png_path)} "
            f"({state})"
        )
    return notes


def uncertain_problems(plans: Sequence[PairPlan]) -> list[Problem]:
    """One problem per uncertain field, located at its ``?`` in the ``.read.yaml`` (``FILE:LINE:COL``)."""
    out: list[Problem] = []
    for plan in plans:
        for name, reason in plan.reading.uncertain:
            line, col = _locate(plan.text, plan.reading, name)
            out.append(
                Problem(
                    display_name(plan.yaml_path),
                    line,
                    col,
                    f"{name}: uncertain in the photo {display_name(plan.photo)}: {shown(reason)}; look at the sheet "
                    f"(and {display_name(plan.png_path)}), write what is there in place of '?', then run "
                    f"'sheetsmith verify' on this file",
                )
            )
    return out


def photo_inputs(
    paths: Sequence[str | Path],
    *,
    layout: str | None,
    notes: list[str] | None = None,
    progress: Progress | None = None,
    workers: int | None = None,
) -> list[Path]:
    """``sheetsmith verify``'s photo step: read every photo of ``paths`` into ``NAME.read.yaml`` and
    ``NAME.read.png``; return the typed-in files to score.

    Args:
        paths: photos (JPEG, PNG, HEIC, WebP, TIFF …) and typed-in files, one game: All In sheets, or
            Flip 7 tick pads (one per player).
        layout: ``--layout`` (see :func:`read_photos`).
        notes: receives one "read into …" line per photo.
        progress, workers: see :func:`read_photos` (indexes count the photos among ``paths``).

    Returns:
        ``paths`` with every photo replaced by its ``.read.yaml``, in order.

    Raises:
        InputError: a photo cannot be read, the same photo is given twice (identical files under two
            names: one player's sheet would count as two players), or a ``.read.yaml`` must not be
            (re)written — nothing is written then; every such photo is reported (exit status 2).
        OutputError: a pair cannot be written (exit status 2).
        FindingsError: a field is uncertain in some photo — after every pair is written, one
            problem per field, located at its ``?`` (exit status 1).
    """
    notes = notes if notes is not None else []
    files = [Path(p) for p in paths]
    photos = [p for p in files if looks_like_photo(p)]
    if not photos:
        return files
    twins = identical_photos(photos)
    if twins:
        raise InputError(twins)
    blocked = pair_problems(photos, given=[p for p in files if p not in photos])  # refused at once, before reading
    if blocked:
        raise InputError(blocked)
    results = read_photos(photos, layout=layout, progress=progress, workers=workers)
    failed = [r for r in results if isinstance(r, PhotoFailure)]
    if failed:
        raise InputError([p for f in failed for p in f.problems])
    plans, problems = plan_pairs(photos, results, given=[p for p in files if p not in photos])
    if problems:
        raise InputError(problems)
    notes.extend(write_pairs(plans))
    uncertain = uncertain_problems(plans)
    if uncertain:
        raise FindingsError(uncertain, notes=notes)
    return [read_outputs(p)[0] if p in photos else p for p in files]


def identical_photos(photos: Sequence[Path]) -> list[Problem]:
    """One problem per photo whose file is byte for byte another one's of ``photos`` (a copy under another
    name). Only files of equal size are compared (SHA-256 of their bytes); unreadable files are left to the reader."""
    import hashlib
    import os

    by_size: dict[int, list[Path]] = {}
    for p in photos:
        try:
            by_size.setdefault(os.stat(p).st_size, []).append(p)
        except OSError:
            continue
    problems = []
    for group in by_size.values():
        if len(group) < 2:
            continue
        seen: dict[str, Path] = {}
        for p in group:
            try:
                with open(p, "rb") as fh:
                    digest = hashlib.file_digest(fh, "sha256").hexdigest()
            except OSError:
                continue
            if digest in seen and seen[digest] != p:
                problems.append(
                    Problem(
                        display_name(p),
                        0,
                        0,
                        f"the same photo as {display_name(seen[digest])} (identical "
                        "files): one player's sheet would count twice; give each sheet its own photo",
                    )
                )
            seen.setdefault(digest, p)
    return problems


def _locate(text: str, reading, name: str) -> tuple[int, int]:
    """1-based line and column of a field's ``?`` in a ``.read.yaml`` text (``(0, 0)`` when not found)."""
    if hasattr(reading, "locate"):
        return reading.locate(text, name)
    lines = text.split("\n")
    if name.startswith("chips."):
        key = name.split(".")[1]
        for i, ln in enumerate(lines):
            if ln.startswith("chips:"):
                return i + 1, ln.find(key) + 1
        return 0, 0
    start = next(i for i, ln in enumerate(lines) if ln.startswith("grid:")) + 1
    for coord, cr in reading.cells.items():
        if cr.cell == name:
            c, r = coord
            tokens = list(re.finditer(r"\S+", lines[start + r]))
            return start + r + 1, tokens[c].start() + 1
    return 0, 0


__all__ = [
    "read_photos",
    "has_photos",
    "PhotoFailure",
    "pair_problems",
    "plan_pairs",
    "write_pairs",
    "uncertain_problems",
    "photo_inputs",
    "read_outputs",
    "worker_count",
    "PairPlan",
    "STAGES",
    "Progress",
]
