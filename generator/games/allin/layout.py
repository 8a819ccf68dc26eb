"""All In (flip&write) sheet layouts: the YAML format, its validator and the resolved model.

File format: docs/layouts.md (the shipped layouts are ``layouts/allin/<id>.yaml``).
Besides its grid and hands a layout may give ``description`` (one line for listings),
``chips`` (how many chip circles the sheet prints; default: the most a player
can earn, 1 per single-reward hand and 2 per double-reward hand),
``extends`` (a template of ``templates/``, default ``allin-sheet``), and
``style`` / ``strings`` overrides of that template's keys.  Printed labels
come from the message catalogue of the language drawn
(``templates/lang/<code>.yaml``, section ``allin``: :mod:`generator.printing.i18n`);
a template's or a layout's ``strings:`` win over the catalogue in every
language.

Rules checked, with the passage of the All In rulebook each rests on
(docs/rules.md, All In, *The sheet*):

* exactly one Golden Card with a card space on all 8 sides ("surrounds the
  Golden Card with the 8th card");
* at least 2 starting spaces (rounds 1 and 2 are written in starting spaces);
* every space reachable from a starting space along links, the Golden Card
  not counting as written ("The Golden Card is not considered as an empty
  card space"; placement follows the lines);
* hand letters exactly those of the grid's runs;
* a warning when the writable spaces are not 24 (23 rounds plus one Golden
  Deck card).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, ValidationError, model_validator

from generator.core.cards import SUIT_SYMBOLS, Card, CardCodeError, parse_card
from generator.core.errors import InputError, Problem
from generator.core.kinds import CHECK_READS, COMPONENT_KINDS, check_item_file, unknown_kind
from generator.core.models import StrictModel, problem_from_error, pydantic_problems
from generator.core.paths import display_path
from generator.core.yamlpos import Document, load_yaml
from generator.games.allin.grid import Grid, HandRun, cell_name, golden_ring, parse_grid

WRITABLE_SPACES = 24
"""23 rounds of the main deck plus one card from the Golden Deck."""
MAX_LATTICE = 8
"""Largest lattice (columns or rows) that still prints a playable card space."""
MAX_HANDS = 16
"""Most hands the score table can hold on one line."""


class TemplateNotFound(Exception):
    """``extends:`` names no usable template; the message says why."""


class HandSpec(StrictModel):
    """One hand's entry under ``hands:``: its completion reward and Best Scoring Hand bonus."""

    reward: Literal["single", "double"] = Field(
        description="single: 1 chip to the first completer(s); double: 2 to the first, 1 to later ones"
    )
    bonus: int = Field(ge=1, le=99, strict=True, description="points for the Best Scoring Hand of this letter")


class Style(StrictModel):
    """Lengths (mm) and colours of an All In sheet; every key comes from the template or the layout."""

    margin: float = Field(ge=5, le=30)
    card_width: float = Field(ge=20, le=50)
    card_height: float = Field(ge=24, le=60)
    gap_x: float = Field(ge=8, le=30)
    gap_y: float = Field(ge=7, le=30)
    ink: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    soft: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    accent: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    red: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    black: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    dropout: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    golden_fill: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    golden_edge: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    panel: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")

    @model_validator(mode="after")
    def _proportions(self) -> "Style":
        ratio = self.card_height / self.card_width
        if not 1.0 <= ratio <= 1.6:
            raise ValueError(
                f"card_height / card_width is {ratio:.2f}; keep it between 1.0 and 1.6 so the rank boxes and suits fit"
            )
        return self


_STRING_KEYS = (
    "title subtitle sheet player aid_title weaker stronger aid_numbers "
    "pair pair_note two_pair two_pair_note three_of_a_kind three_of_a_kind_note "
    "straight straight_note full_house full_house_note four_of_a_kind four_of_a_kind_note "
    "straight_flush straight_flush_note aid_rule hand points best_hand best_hand_help "
    "chips_left total total_help fold chips chips_help golden reward_single reward_double start_help space_help"
).split()

Strings: type[StrictModel] = type(
    "Strings",
    (StrictModel,),
    {
        "__annotations__": {k: str for k in _STRING_KEYS},
        "__doc__": "Every label printed on an All In sheet (our own words; see templates/allin-sheet.yaml).",
        "__module__": __name__,  # so that layouts pickle (photos read in worker processes return them)
        **{k: Field(min_length=1, max_length=160) for k in _STRING_KEYS},
    },
)


class TemplateSpec(StrictModel):
    """A template file of ``templates/`` for All In sheets (``kind: template``)."""

    kind: Literal["template"]
    id: str
    style: dict[str, Any]
    strings: dict[str, Any] = {}


class LayoutSpec(StrictModel):
    """The YAML of an All In layout file, as written (before the grid is read)."""

    game: Literal["allin"]
    id: str | None = Field(default=None, pattern=r"^[a-z0-9][a-z0-9-]{0,39}$")
    name: str | None = Field(default=None, max_length=24)
    description: str | None = Field(default=None, max_length=200)
    golden: Annotated[
        str, BeforeValidator(lambda v: str(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v)
    ]
    grid: str
    hands: dict[str, HandSpec]
    chips: int | None = Field(default=None, ge=1, le=40, strict=True)
    extends: str = "allin-sheet"
    style: dict[str, Any] | None = None
    strings: dict[str, Any] | None = None


@dataclass(frozen=True)
class Hand:
    """A hand of the resolved layout: its run of cells, completion reward and bonus."""

    letter: str
    run: HandRun
    reward: Literal["single", "double"]
    bonus: int

    @property
    def cells(self) -> tuple[tuple[int, int], ...]:
        """The run's lattice positions, left to right or top to bottom."""
        return self.run.cells

    @property
    def max_chips(self) -> int:
        """Most chips one player can earn from this hand (2 for double, 1 for single)."""
        return 2 if self.reward == "double" else 1


@dataclass
class AllInLayout:
    """A validated All In sheet layout, ready to draw, verify or referee.

    Attributes:
        id: layout id (file name without ``.yaml`` unless ``id:`` says otherwise).
        name: the sheet's name, by its Golden Card (``"Q♦"``).
        golden: the printed Golden Card.
        grid: the parsed grid.
        hands: letter → :class:`Hand`, in letter order.
        chips: chip circles printed on the sheet.
        style: resolved :class:`Style`.
        strings: resolved :class:`Strings` in English (see :meth:`strings_for` for another language).
        description: one line for listings ('' when not given).
        source: the layout file.
        warnings: non-fatal findings (e.g. not 24 writable spaces).
    """

    id: str
    name: str
    golden: Card
    grid: Grid
    hands: dict[str, Hand]
    chips: int
    style: Style
    strings: Any
    description: str = ""
    source: str = ""
    warnings: list[Problem] = field(default_factory=list)
    string_overrides: dict[str, str] = field(default_factory=dict)
    """Labels the template or the layout writes itself (``strings:``): printed as written in every language."""

    def strings_for(self, lang: str = "en") -> Any:
        """The sheet's labels in ``lang``: the catalogue's ``allin`` section, then ``string_overrides`` on top.

        Raises:
            SheetsmithError: no catalogue for ``lang`` (:func:`generator.printing.i18n.check_lang`).
            InputError: a label of the catalogue is too long for a sheet (over 160 characters).
        """
        if lang == "en":
            return self.strings
        from generator.printing.i18n import messages

        t = messages(lang)
        try:
            return Strings.model_validate({**t.section("allin"), **self.string_overrides})
        except ValidationError as exc:
            raise InputError(
                [
                    Problem(t.file, 0, 0, f"allin.{'.'.join(map(str, e['loc']))}: {e['msg'].lower()}")
                    for e in exc.errors()
                ]
            ) from None

    @property
    def spaces(self) -> int:
        """Number of writable card spaces."""
        return len(self.grid.writable)

    @property
    def golden_coord(self) -> tuple[int, int]:
        """Lattice position of the Golden Card."""
        return self.grid.golden[0]


def _is_file(path: Path) -> bool:
    """``path.is_file()``, False where the file system cannot even look (a name too long)."""
    try:
        return path.is_file()
    except OSError:
        return False


def load_template(name: str, *, base: Path, templates_dir: Path) -> tuple[dict[str, Any], dict[str, Any], Document]:
    """Find and read a template by name (``templates/<name>.yaml``) or by path relative to ``base``.

    Returns:
        ``(style, strings, document)`` as written in the template.

    Raises:
        TemplateNotFound: no such template, a path outside the layout's folder, or a file that is not a template.
        InputError: the template file is malformed.
    """
    if Path(name).is_absolute() or ".." in Path(name).parts:
        raise TemplateNotFound(
            f"'{name}': name a template of templates/ or a file in the layout's folder (no absolute paths or '..')"
        )
    candidates = [templates_dir / f"{name}.yaml", base / name]
    path = next((p for p in candidates if _is_file(p)), None)
    if path is None:
        names = ", ".join(sorted(p.stem for p in templates_dir.glob("*.yaml") if p.stem != "paper"))
        raise TemplateNotFound(f"template '{name}' not found; known templates: {names}")
    doc = load_yaml(path)
    if doc.data.get("kind") != "template":
        raise TemplateNotFound(f"'{name}' is not a template (a template file starts with 'kind: template')")
    try:
        spec = TemplateSpec.model_validate(doc.data)
    except ValidationError as exc:
        raise InputError(pydantic_problems(exc, doc, model=TemplateSpec)) from None
    return spec.style, spec.strings, doc


def load_allin_layout(
    path: str | Path, *, display: str | None = None, templates_dir: Path | None = None
) -> AllInLayout:
    """Read, validate and resolve an All In layout file.

    Args:
        path: the layout YAML file.
        display: how to name it in messages (default ``str(path)``).
        templates_dir: where named templates live (default: the repo's ``templates/``).

    Returns:
        The :class:`AllInLayout`; warnings are on ``layout.warnings``.

    Raises:
        InputError: with every error found (and the warnings), each located
            ``FILE:LINE:COL``.
    """
    doc = load_yaml(path, display=display)
    return layout_from_document(doc, Path(path), templates_dir=templates_dir)


LAYOUT_GAMES = ("allin",)
"""Values of ``game:`` that sheet layout files may have."""


def load_layout(path: str | Path) -> AllInLayout:
    """Read and validate the All In sheet layout file ``path`` (a shipped one, or a user's own).

    Raises:
        InputError: every error found, located ``FILE:LINE:COL``; also when the file is a deck, chip sheet or
            pad rather than a sheet layout.
        UnreadableError: not a YAML file, or a file for another command (a typed-in sheet, a log).
    """
    path = Path(path)
    doc = load_yaml(path, display=display_path(path), reads=CHECK_READS)
    check_item_file(doc, path)
    kind = doc.data.get("kind")
    if kind in COMPONENT_KINDS:
        what = {"deck": "a deck", "chips": "a chip sheet", "pad": "a score pad", "tick-pad": "a tick pad"}
        raise InputError([doc.problem(("kind",), f"this is {what.get(kind, 'a ledger')}, not an All In sheet layout")])
    if doc.data.get("kind") is not None:
        raise unknown_kind(doc)
    return sheet_layout_from_document(doc, path)


def sheet_layout_from_document(doc: Document, path: Path) -> AllInLayout:
    """A parsed file without ``kind:`` validated as a sheet layout (by its ``game:``).

    Raises:
        InputError: no ``game:``, a game without sheet layouts, or every error of the layout.
    """
    game = doc.data.get("game")
    if game == "allin":
        return layout_from_document(doc, path)
    if game is None:
        raise InputError(
            [doc.problem((), f"missing key 'game'; add e.g. 'game: allin' (games: {', '.join(LAYOUT_GAMES)})")]
        )
    raise InputError(
        [doc.problem(("game",), f"game '{game}' has no layouts in this version; games: {', '.join(LAYOUT_GAMES)}")]
    )


def _id_from_name(layout_id: str, stem: str) -> bool:
    """True when ``layout_id`` is the file name made into an id, numbered or not, as ``sheetsmith new`` gives it
    (``my sheet.yaml`` → ``my-sheet``, or ``my-sheet-2`` when the folder has a ``my-sheet`` already)."""
    import re

    from generator.core.shipped import fresh_id

    return re.fullmatch(re.escape(fresh_id(stem)) + r"(-[0-9]+)?", layout_id) is not None


def layout_from_document(doc: Document, path: Path, *, templates_dir: Path | None = None) -> AllInLayout:
    """Validate a parsed layout document (see :func:`load_allin_layout`)."""
    from generator.core.paths import TEMPLATES_DIR

    templates_dir = templates_dir or TEMPLATES_DIR
    try:
        spec = LayoutSpec.model_validate(doc.data)
    except ValidationError as exc:
        problems = pydantic_problems(exc, doc, model=LayoutSpec)
        # Still read the grid so its problems show in the same pass.
        grid_text = doc.data.get("grid")
        if isinstance(grid_text, str):
            _, grid_problems, _ = _check_grid(grid_text, doc)
            problems += grid_problems
        if isinstance(doc.data.get("golden"), str):
            problems += _check_golden(doc.data["golden"], doc)[1]
        raise InputError(problems) from None

    problems = []
    warnings: list[Problem] = []

    golden, golden_problems = _check_golden(spec.golden, doc)
    problems += golden_problems

    grid, grid_problems, grid_warnings = _check_grid(spec.grid, doc)
    problems += grid_problems
    warnings += grid_warnings
    grid_ok = not grid_problems

    hands: dict[str, Hand] = {}
    expected = {run.letter: run for run in grid.hands} if grid_ok else {}
    for letter, hspec in spec.hands.items():
        if not grid_ok:
            break
        if letter not in expected:
            have = _letters(list(expected))
            hint = (
                f"; hand letters are capitals ('{letter.upper()}')"
                if isinstance(letter, str) and letter.upper() in expected and letter not in expected
                else "; letters go to rows top to bottom, then to columns left to right"
            )
            problems.append(
                doc.problem(
                    ("hands", letter),
                    f"hand '{letter}' is not in the grid, which has {len(expected)} hands ({have}){hint}",
                    key=True,
                )
            )
            continue
        hands[letter] = Hand(letter, expected[letter], hspec.reward, hspec.bonus)
    for letter, run in expected.items():
        if letter not in spec.hands:
            problems.append(
                doc.problem(
                    ("hands",),
                    f"hand '{letter}' ({describe_run(run)}) has no entry under hands:; "
                    f"add e.g. '{letter}: {{reward: single, bonus: 2}}' (letters follow reading order: after a grid "
                    "change, "
                    "check that every letter still names the run you meant)",
                    key=True,
                )
            )
    if len(expected) > MAX_HANDS:
        problems.append(
            doc.problem(
                ("grid",), f"the grid has {len(expected)} hands; a sheet's score table holds at most {MAX_HANDS}"
            )
        )

    style, strings, overrides = _resolve_template(spec, doc, path, templates_dir, problems)
    if spec.name is not None:
        problems += _printable(spec.name, ("name",), doc)
    for key, value in (spec.strings or {}).items():
        if isinstance(value, str):
            problems += _printable(value, ("strings", key), doc)

    if problems:
        raise InputError(problems + warnings)

    layout_id = spec.id or path.stem
    golden_name = f"{golden.rank_label}{SUIT_SYMBOLS[golden.suit]}"  # type: ignore[union-attr,index]
    name = spec.name or golden_name
    from generator.core.shipped import shipped_id_clash

    clash = shipped_id_clash(layout_id, path, doc)
    if clash is not None:
        warnings.append(clash)
    elif (
        spec.id
        and spec.id != path.stem
        and not _id_from_name(spec.id, path.stem)
        and shipped_id_clash(path.stem, path, doc) is None
    ):
        warnings.append(
            doc.problem(
                ("id",),
                f"id '{spec.id}' differs from the file name '{path.stem}'; typed-in sheets, game logs and the "
                "sheet code name a layout by its id (remove the id: line to use the file name)",
                severity="warning",
            )
        )
    if spec.name and _names_other_card(spec.name, golden):  # type: ignore[arg-type]
        warnings.append(
            doc.problem(
                ("name",),
                f"name '{spec.name}' names another card than the Golden Card {golden_name}; sheets are named by their "
                f"Golden Card (remove the name: line to use '{golden_name}')",
                severity="warning",
            )
        )
    ordered = {k: hands[k] for k in sorted(hands)}
    most = sum(h.max_chips for h in ordered.values())
    chips = spec.chips if spec.chips is not None else most
    if chips < most:
        warnings.append(
            doc.problem(
                ("chips",),
                f"{chips} chip circles, but a player can earn up to {most} on this sheet "
                "(1 per single hand, 2 per double hand)",
                severity="warning",
            )
        )
    return AllInLayout(
        id=layout_id,
        name=name,
        golden=golden,  # type: ignore[arg-type]
        grid=grid,
        hands=ordered,
        chips=chips,
        style=style,  # type: ignore[arg-type]
        strings=strings,
        description=spec.description or "",
        source=doc.file,
        warnings=warnings,
        string_overrides=overrides,
    )


def _printable(text: str, path: tuple[str, ...], doc: Document) -> list[Problem]:
    """Problems with text that will be printed: control characters, line breaks, characters the sheet font lacks."""
    from generator.printing.text import printed_text_problem

    message = printed_text_problem(text, ".".join(path))
    return [doc.problem(path, message)] if message else []


def _names_other_card(name: str, golden: Card) -> bool:
    """True when ``name`` is a card code (``Q♦``, ``5C``) for a card other than ``golden``."""
    try:
        card = parse_card(name.replace(" ", ""))
    except CardCodeError:
        return False
    return card != golden


def _check_golden(code: str, doc: Document) -> tuple[Card | None, list[Problem]]:
    """The Golden Card of ``golden:`` (a real card, not a Joker) and any problem with it."""
    try:
        card = parse_card(code)
    except CardCodeError as exc:
        return None, [doc.problem(("golden",), f"golden: {exc}")]
    if card.is_joker:
        return None, [doc.problem(("golden",), "the Golden Card must be a real card, not a Joker (e.g. golden: QD)")]
    return card, []


def _check_grid(text: str, doc: Document) -> tuple[Grid, list[Problem], list[Problem]]:
    node = doc.nodes.get(("grid",))
    if getattr(node, "style", None) == ">":
        return (
            Grid(0, 0),
            [
                doc.problem(
                    ("grid",), "write the grid as 'grid: |' (a literal block); 'grid: >' joins its lines into one"
                )
            ],
            [],
        )
    grid, issues = parse_grid(text)
    problems: list[Problem] = []
    warnings: list[Problem] = []

    def at(line: int, char: int, message: str, severity: str = "error") -> Problem:
        pos = doc.block_text_pos(("grid",), line, char)
        return Problem(doc.file, pos.line, pos.col, message, severity)  # type: ignore[arg-type]

    def at_cell(coord: tuple[int, int], message: str) -> Problem:
        line, char = grid.source[coord]
        return at(line, char, message)

    for issue in issues:
        problems.append(at(issue.line, issue.char, f"grid: {issue.message}"))
    if issues or not grid.cells:
        # A malformed line shifts what follows it; checks built on a broken
        # reading would only bury the real mistake under follow-on errors.
        return grid, problems, warnings
    if grid.cols > MAX_LATTICE or grid.rows > MAX_LATTICE:
        problems.append(
            doc.problem(
                ("grid",),
                f"grid: {grid.cols}×{grid.rows} cells; a printable sheet holds at most {MAX_LATTICE}×{MAX_LATTICE}",
            )
        )
        return grid, problems, warnings
    goldens = grid.golden
    if not goldens:
        problems.append(doc.problem(("grid",), "grid: no Golden Card; put one 'G' where the Golden Card is printed"))
    for extra in goldens[1:]:
        problems.append(
            at_cell(
                extra,
                f"grid: a second 'G' at {cell_name(extra)}; a sheet has one Golden Card (the first is at "
                f"{cell_name(goldens[0])})",
            )
        )
    if goldens:
        g = goldens[0]
        missing = [n for n in golden_ring(g) if n not in grid.cells or not grid.cells[n].writable]
        if g[0] == 0 or g[1] == 0 or g[0] == grid.cols - 1 or g[1] == grid.rows - 1:
            problems.append(
                at_cell(
                    g,
                    "grid: the Golden Card is on the edge of the grid; it needs a card space on all 8 sides, so move "
                    "it inward",
                )
            )
        elif missing:
            names = ", ".join(cell_name(n) for n in missing)
            problems.append(
                at_cell(
                    g,
                    "grid: the Golden Card needs a card space on all 8 sides (it is surrounded to draw from the "
                    f"Golden Deck); missing: {names}",
                )
            )
    starts = grid.starts
    if len(starts) < 2:
        problems.append(
            doc.problem(
                ("grid",),
                f"grid: {len(starts)} starting space(s) '*'; rounds 1 and 2 are written in starting spaces, so mark at "
                "least 2",
            )
        )
    if starts:
        reach = grid.reachable()
        for coord in grid.writable:
            if coord not in reach:
                problems.append(
                    at_cell(
                        coord,
                        f"grid: space {cell_name(coord)} cannot be reached from a starting space along links "
                        "(the Golden Card does not count as written); link it with '---' or '|'",
                    )
                )
    n = len(grid.writable)
    if n != WRITABLE_SPACES and not problems:
        warnings.append(
            Problem(
                doc.file,
                doc.pos(("grid",)).line,
                doc.pos(("grid",)).col,
                f"the grid has {n} writable spaces; a game fills {WRITABLE_SPACES} "
                "(23 rounds plus one Golden Deck card)",
                "warning",
            )
        )
    return grid, problems, warnings


def _resolve_template(
    spec: LayoutSpec, doc: Document, path: Path, templates_dir: Path, problems: list[Problem]
) -> tuple[Style | None, Any, dict[str, str]]:
    """The layout's style and English labels, and the labels its template and ``strings:`` write themselves.

    Labels: the English catalogue's ``allin`` section, then the template's
    ``strings:``, then the layout's; each error is located in the file that wrote the value.
    """
    from generator.printing.i18n import messages

    try:
        t_style, t_strings, t_doc = load_template(spec.extends, base=path.parent, templates_dir=templates_dir)
    except TemplateNotFound as exc:
        problems.append(doc.problem(("extends",), f"extends: {exc}"))
        return None, None, {}
    except InputError as exc:
        problems.append(doc.problem(("extends",), f"extends: template '{spec.extends}' has errors (listed below)"))
        problems.extend(exc.problems)
        return None, None, {}
    catalogue = messages("en").section("allin")
    overrides = {**t_strings, **(spec.strings or {})}
    resolved: list[Any] = []
    for section, model, base_values in (("style", Style, t_style), ("strings", Strings, {**catalogue, **t_strings})):
        override = getattr(spec, section) or {}
        merged = {**base_values, **override}
        try:
            resolved.append(model.model_validate(merged))
        except ValidationError as exc:
            for err in exc.errors():
                key = err["loc"][0] if err["loc"] else None
                problems.append(problem_from_error(err, doc if key in override else t_doc, (section,), model))
            resolved.append(None)
    return resolved[0], resolved[1], {k: v for k, v in overrides.items() if isinstance(v, str)}


def describe_run(run: HandRun) -> str:
    """Human description of a hand run: ``'the row a1–d1'`` or ``'the column c2–c5'``."""
    return f"the {run.orientation} {cell_name(run.cells[0])}–{cell_name(run.cells[-1])}"


def _letters(letters: list[str]) -> str:
    if not letters:
        return "none"
    if len(letters) > 2 and all(ord(b) - ord(a) == 1 for a, b in zip(letters, letters[1:])):
        return f"{letters[0]}–{letters[-1]}"
    return ", ".join(letters)
