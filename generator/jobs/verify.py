"""The ``verify`` job: finished paper checked with the rules engine, by each file's ``game:``.

All In sheets (typed in or photographed: :mod:`generator.jobs.photos`), Flip 7
score pads and tick pads, Fundex and Flip Flop round logs.  :data:`VERIFIERS`
maps each game to its check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from generator.core.errors import (
    EXIT_OK,
    EXIT_PROBLEMS,
    FindingsError,
    InputError,
    Problem,
    SheetsmithError,
    UnreadableError,
)
from generator.jobs.check import NOWHERE

VERIFY_READS = (
    "verify reads typed-in sheets, score pads and round logs (YAML) or photos of sheets (JPEG, PNG); "
    "to check a printed sheet, photograph it or type it in"
)
"""What ``verify`` says it reads when given a PDF, an office document or another kind of file."""


GAMES_VERIFIED = ("allin", "flip7", "fundex", "flipflop")
"""Values of ``game:`` that :func:`verify` checks (each has its verifier in :data:`VERIFIERS`)."""


def _exit_code(problems: Sequence[Problem]) -> int:
    return EXIT_PROBLEMS if any(p.is_error for p in problems) else EXIT_OK


@dataclass
class Verdict:
    """What :func:`verify` or :func:`replay_log` found.

    Attributes:
        game: ``allin``, ``flip7``, ``fundex`` or ``flipflop``.
        report: the JSON report of docs/formats.md (``winners`` is a list in every game).
        problems: findings, located ``FILE:LINE:COL`` where the file says where:
            a rule broken, a written score that differs, an impossible sheet.
        score: All In: the :class:`~generator.games.allin.scoring.GameScore` (for tables).
        notes: facts for the person (files written, a sheet scored alone, a game not finished).
    """

    game: str
    report: dict
    problems: list[Problem] = field(default_factory=list)
    score: Any = None
    notes: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """1 when an error was found, else 0."""
        return _exit_code(self.problems)


def verify(paths: Sequence[Path], *, layout: Optional[str] = None, progress=None) -> Verdict:
    """Check finished paper with the rules engine, by the first file's ``game:``.

    Args:
        paths: All In typed-in sheets and photos of sheets (several = one game), or
            one Flip 7 score pad, Fundex or Flip Flop round log.
        layout: photos only: the layout id or file, when a photo's sheet code cannot be read.
        progress: photos only: called as each photo's reading moves on (:data:`generator.jobs.photos.Progress`).

    Raises:
        InputError: a file cannot be read or is not a valid file of its game (exit 2);
            unknown or mixed games; several files of a game verified one file at a time.
        FindingsError: a photo field that needs a person (exit 1).
    """
    from generator.core.paths import display_path
    from generator.core.yamlpos import load_yaml
    from generator.jobs.photos import has_photos

    paths = [Path(p) for p in paths]
    if not paths:
        raise SheetsmithError("give at least one file to verify")
    if has_photos(paths):
        return _verify_photos(paths, layout, progress)
    if layout is not None:
        raise SheetsmithError("--layout names the layout of photos whose QR code cannot be read; no photo was given")
    return verify_documents([load_yaml(path, display=display_path(path), reads=VERIFY_READS) for path in paths], paths)


def verify_texts(files: Sequence[tuple[str, str | bytes]]) -> Verdict:
    """:func:`verify` for files given as ``(name, YAML text or bytes)`` (the web page, uploads): typed-in
    All In sheets of one game, or one Flip 7 pad or round log.

    A typed-in sheet's ``layout:`` must be a shipped id here (there is no folder to find a file in).

    Raises:
        InputError, FindingsError: as :func:`verify`.
    """
    from generator.core.yamlpos import parse_yaml_bytes

    if not files:
        raise SheetsmithError("give at least one file to verify")
    from generator.core.shipped import shipped_layouts

    docs = [
        parse_yaml_bytes(t.encode("utf-8") if isinstance(t, str) else t, name, reads=VERIFY_READS) for name, t in files
    ]
    shipped = [s.id for s in shipped_layouts() if s.game == "allin"]
    for doc in docs:
        ref = doc.data.get("layout")
        if doc.data.get("game") == "allin" and ref is not None and ref not in shipped:
            raise InputError(
                [
                    doc.problem(
                        ("layout",),
                        f"layout {ref!r}: name a shipped layout ({', '.join(shipped)}); "
                        "layout files cannot be named here",
                    )
                ]
            )
    return verify_documents(docs, [NOWHERE / Path(name).name for name, _ in files])


def verify_documents(docs, paths: Sequence[Path]) -> Verdict:
    """:func:`verify` on parsed documents (``paths``: where each came from, for relative layout paths and default
    names)."""
    from generator.core.kinds import wrong_command
    from generator.core.validation import quote

    games = []
    for doc in docs:
        game = doc.data.get("game")
        hint = wrong_command(doc.data, "verify")
        if hint:
            raise UnreadableError([doc.problem((), hint)])  # a file for another command: unreadable here (exit 2)
        if game not in GAMES_VERIFIED:
            where = ("game",) if "game" in doc.data else ()
            said = quote(doc.written(where) or repr(game)) if where else "(none)"
            raise InputError(
                [doc.problem(where, f"game {said} cannot be verified; games: {', '.join(GAMES_VERIFIED)}")]
            )
        games.append((doc, game))
    first = games[0][1]
    for doc, game in games[1:]:
        if game != first:
            raise InputError(
                [
                    doc.problem(
                        ("game",),
                        f"this file is game '{game}' but {games[0][0].file} is '{first}'; verify one game at a time",
                    )
                ]
            )
    return VERIFIERS[first]([doc for doc, _ in games], paths)


def _single(docs, paths: Sequence[Path], game: str):
    """The one file of a game whose file holds the whole game (a score pad, a round log).

    Raises:
        InputError: more than one file.
    """
    if len(paths) > 1:
        raise InputError([Problem(docs[1].file, 0, 0, f"a {game} file holds a whole game; verify one file at a time")])
    return docs[0]


def _log_verdict(game: str, doc, report: dict) -> Verdict:
    """A round log's report, its problems located at the round and player they name."""
    problems = [
        Problem(doc.file, p.get("line", 0), p.get("col", 0), _who(p) + p["message"]) for p in report.get("problems", [])
    ]
    return Verdict(game, report, problems)


def _verify_flip7(docs, paths: Sequence[Path]) -> Verdict:
    """Flip 7: one score pad (the whole table), or every player's tick pad of one game."""
    from generator.games.flip7.pad import pad_from_document, pad_report
    from generator.games.flip7.ticks import is_tick_pad

    ticks = [is_tick_pad(doc.data) for doc in docs]
    if all(ticks):
        return verify_tick_pads(docs)
    if any(ticks):
        other = docs[ticks.index(False)]
        raise InputError(
            [other.problem((), "this is a Flip 7 score pad; verify it alone, or give only tick pads (one per player)")]
        )
    doc = _single(docs, paths, "flip7")
    pad = pad_from_document(doc)
    report = pad_report(pad)
    problems = [_round_problem(doc, p) for p in report.get("problems", [])] + list(pad.warnings)
    return Verdict("flip7", report, problems)


def _verify_fundex(docs, paths: Sequence[Path]) -> Verdict:
    """All In (Fundex): one round log, played through the rules core."""
    from generator.games.fundex.log import fundex_log_from_document, fundex_report

    doc = _single(docs, paths, "fundex")
    return _log_verdict("fundex", doc, fundex_report(fundex_log_from_document(doc, paths[0])))


def _verify_flipflop(docs, paths: Sequence[Path]) -> Verdict:
    """Flip Flop: one round log, played through the rules core."""
    from generator.games.flipflop.log import flipflop_log_from_document, flipflop_report

    doc = _single(docs, paths, "flipflop")
    return _log_verdict("flipflop", doc, flipflop_report(flipflop_log_from_document(doc, paths[0])))


def _read_each(items, read) -> list:
    """``read(item)`` for every item, every file's problems gathered before any is raised.

    Raises:
        InputError: the problems of every file that is not valid (exit 2), first;
        FindingsError: else the ``?`` fields a photo's reading left, of every file (exit 1).
    """
    out, problems, unsure = [], [], []
    for item in items:
        try:
            out.append(read(item))
        except FindingsError as exc:  # a '?' left from a photo's reading: a person looks
            unsure.extend(exc.problems)
        except InputError as exc:
            problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    if unsure:
        raise FindingsError(unsure)
    return out


def verify_tick_pads(docs) -> Verdict:
    """Flip 7 tick pads (one player each, typed in or read from photos) scored as one game.

    Raises:
        InputError: a file that is not a valid tick pad; two pads of one player; different targets.
        FindingsError: a ``?`` left from a photo's reading (exit 1).
    """
    from generator.games.flip7.ticks import tick_pad_from_document, tick_pads_report

    pads = _read_each(docs, tick_pad_from_document)
    report, found = tick_pads_report(pads)
    notes = []
    if len(pads) == 1:
        notes.append("one tick pad scored alone: give every player's pad to score the game")
    return Verdict("flip7", report, found, notes=notes)


def verify_pad_lines(
    players: Sequence[str], rounds: Sequence[dict], *, target: int = 200, flip7_bonus: int = 15
) -> Verdict:
    """:func:`verify` of a Flip 7 pad given as data (the web page's scorer): ``rounds`` maps each player to a
    :class:`~generator.games.flip7.rules.ScoreLine`.  The report is the one ``verify`` gives the same pad as a file
    (:func:`generator.games.flip7.pad.dump_pad` writes that file).  ``flip7_bonus``: a variant's Flip 7 bonus.

    Raises:
        InputError: players named twice or empty, a missing line, a round after the end of the game.
    """
    from generator.games.flip7.pad import pad_from_lines, pad_report

    pad = pad_from_lines(list(players), list(rounds), target=target, flip7_bonus=flip7_bonus)
    report = pad_report(pad)
    problems = [Problem(pad.file, 0, 0, _who(p) + p["message"]) for p in report.get("problems", [])]
    return Verdict("flip7", report, problems + list(pad.warnings))


def _who(p: dict) -> str:
    parts = []
    if p.get("round") is not None:
        parts.append(f"round {p['round']}")
    if p.get("player"):
        parts.append(str(p["player"]))
    return ", ".join(parts) + ": " if parts else ""


def _round_problem(doc, p: dict) -> Problem:
    """A Flip 7 pad problem, located at the player's line of that round (or the round) in the file."""
    path: tuple = ("rounds", p["round"] - 1) + ((p["player"],) if p.get("player") else ())
    return doc.problem(path, _who(p) + p["message"])


def verify_allin(paths: Sequence[Path], docs=None) -> Verdict:
    """Score typed-in All In sheets as one game (one sheet alone is a game of one).

    Raises:
        InputError: every problem of every sheet; sheets of different layouts;
            two sheets with the same player name, or names that differ only in capitals.
        FindingsError: valid sheets with fields a photo's reading left as ``?`` (exit 1).
    """
    from generator.core.paths import display_path
    from generator.core.yamlpos import load_yaml
    from generator.games.allin.scoring import report, score_game
    from generator.games.allin.typed_sheet import sheet_from_document

    def read_one(i: int):
        doc = docs[i] if docs else load_yaml(paths[i], display=display_path(Path(paths[i])))
        return doc, sheet_from_document(doc, Path(paths[i]))

    read = _read_each(range(len(paths)), read_one)
    problems: list[Problem] = []
    first_doc, first = read[0]
    for doc, sheet in read[1:]:
        if sheet.layout.id != first.layout.id:
            problems.append(
                doc.problem(
                    ("layout",),
                    f"this sheet uses layout '{sheet.layout.id}' but {first_doc.file} uses "
                    f"'{first.layout.id}'; all sheets of one game use the same layout",
                )
            )
    names = [sheet.player for _, sheet in read]
    folded = [name.casefold() for name in names]
    for doc, sheet in read:
        if names.count(sheet.player) > 1:
            problems.append(
                doc.problem(
                    ("player",), f"two sheets name the player '{sheet.player}'; give each player their own name"
                )
            )
        elif folded.count(sheet.player.casefold()) > 1:  # 'ann' read from ann.jpg and 'Ann' typed in: one player twice?
            others = sorted({n for n in names if n.casefold() == sheet.player.casefold() and n != sheet.player})
            problems.append(
                doc.problem(
                    ("player",),
                    f"the player '{sheet.player}' and '{others[0]}' differ only in capitals: "
                    "the same player's sheet twice? give each player their own name",
                )
            )
    if problems:
        raise InputError(problems)
    game = score_game([sheet for _, sheet in read])
    rep = report(game)
    found = _sheet_problems(rep, read)
    notes = []
    for doc, sheet in read:
        if not sheet.cards and not sheet.chips_earned:
            notes.append(
                f"{doc.file}: nothing is written on {sheet.player}'s sheet (no card, no chip): "
                "is it the finished sheet?"
            )
    if len(read) == 1:
        notes.append(
            "one sheet scored alone: each hand that scores takes its Best Scoring Hand bonus; "
            "give every sheet of the game to compare hands"
        )
    return Verdict("allin", rep, found, score=game, notes=notes)


def _sheet_problems(rep: dict, read) -> list[Problem]:
    """The report's problems (impossible sheets) as located Problems, at the cell's token where known."""
    by_player = {sheet.player: doc for doc, sheet in read}
    out = []
    for p in rep.get("problems", []):
        doc = by_player.get(p.get("player"))
        file = p.get("file") or (doc.file if doc is not None else "")
        line, col = p.get("line") or 0, p.get("col") or 0
        cell = f"{p['cell']}: " if p.get("cell") else ""
        out.append(Problem(file, line, col, cell + p["message"]))
    return out


def _verify_photos(paths: list[Path], layout: Optional[str], progress=None) -> Verdict:
    """Photos (and typed-in files) of one game — All In sheets, or Flip 7 tick pads: read every photo (in
    parallel worker processes), then score as typed-in files."""
    from generator.core.paths import display_path
    from generator.core.yamlpos import load_yaml
    from generator.jobs.photos import photo_inputs

    notes: list[str] = []
    inputs = photo_inputs(paths, layout=layout, notes=notes, progress=progress)
    v = verify_documents(
        [load_yaml(p, display=display_path(Path(p))) for p in inputs], inputs
    )  # All In sheets or tick pads
    v.notes = notes + v.notes
    return v


VERIFIERS: dict[str, Callable[[list, Sequence[Path]], Verdict]] = {
    "allin": lambda docs, paths: verify_allin(paths, docs),
    "flip7": _verify_flip7,
    "fundex": _verify_fundex,
    "flipflop": _verify_flipflop,
}
"""Each game's verifier: ``verifier(documents, paths)`` checks the parsed files of one game (in the order given)."""
assert set(VERIFIERS) == set(GAMES_VERIFIED)
