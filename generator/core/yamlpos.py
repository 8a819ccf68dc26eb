"""YAML reading that keeps positions, so every error can name ``FILE:LINE:COL``.

PyYAML's *composed* nodes carry ``start_mark`` (0-based line and column).  We
compose with the safe loader, build plain Python data from the nodes and keep
a map from each value's path (``("hands", "A", "reward")``) to the position of
that value and of its key.  Schema errors (pydantic) carry such paths as their
``loc``, so they map straight back to the file.

Only ``yaml.SafeLoader`` is used: no Python object tags are ever constructed.
"""

from __future__ import annotations

import errno
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from generator.core.errors import Problem, UnreadableError
from generator.core.validation import bad_char, describe_char, quote

__all__ = ["Pos", "Document", "load_yaml", "parse_yaml", "describe_char", "shown", "binary_kind", "MAX_BYTES"]

PathKey = tuple[Any, ...]


@dataclass(frozen=True)
class Pos:
    """A 1-based line and column in a file."""

    line: int
    col: int


@dataclass
class Document:
    """A parsed YAML file.

    Attributes:
        file: the path as given, for messages.
        data: the plain data (dicts, lists, str, int, float, bool, None).
        values: path → position of the value at that path (``()`` is the document).
        keys: path → position of the mapping key that leads to that path.
        nodes: path → the composed PyYAML node (to locate text inside block scalars).
        lines: the file's text split into lines (no line ends).
    """

    file: str
    data: Any
    values: dict[PathKey, Pos] = field(default_factory=dict)
    keys: dict[PathKey, Pos] = field(default_factory=dict)
    nodes: dict[PathKey, yaml.Node] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)

    def pos(self, path: PathKey, *, key: bool = False) -> Pos:
        """Position of ``path``'s value (or its key with ``key=True``).

        Falls back to the nearest enclosing path that is known, then to line 1.
        """
        table = self.keys if key else self.values
        p = tuple(path)
        while p:
            if p in table:
                return table[p]
            if key and p in self.values:
                return self.values[p]
            p = p[:-1]
        return self.values.get((), Pos(1, 1))

    def problem(self, path: PathKey, message: str, *, key: bool = False, severity: str = "error") -> Problem:
        """A :class:`Problem` located at ``path`` (see :meth:`pos`)."""
        at = self.pos(path, key=key)
        return Problem(self.file, at.line, at.col, message, severity)  # type: ignore[arg-type]

    def written(self, path: PathKey) -> str | None:
        """The text of the scalar at ``path`` exactly as the file spells it (``0012``, ``+4``, ``1.50``), or None.

        Messages quote this rather than the value it was read as, so that
        ``player: 0012`` is answered with "0012", not "12".
        """
        node = self.nodes.get(tuple(path))
        return str(node.value) if isinstance(node, yaml.ScalarNode) else None

    def block_text_pos(self, path: PathKey, line_index: int, char_index: int) -> Pos:
        """File position of character ``char_index`` on line ``line_index`` of a string value.

        Exact for literal/folded block scalars (``grid: |``); for other scalar
        styles it returns the value's own position.
        """
        node = self.nodes.get(tuple(path))
        if not isinstance(node, yaml.ScalarNode) or node.style not in ("|", ">"):
            return self.pos(path)
        file_line0 = node.start_mark.line + 1 + line_index  # content starts below the indicator
        if file_line0 >= len(self.lines):
            return self.pos(path)
        raw = self.lines[file_line0]
        value_lines = str(node.value).split("\n")
        text = value_lines[line_index] if line_index < len(value_lines) else ""
        indent = raw.find(text) if text.strip() else len(raw) - len(raw.lstrip(" "))
        indent = max(indent, 0)
        return Pos(file_line0 + 1, indent + char_index + 1)


def _mark(node: yaml.Node) -> Pos:
    return Pos(node.start_mark.line + 1, node.start_mark.column + 1)


MAX_BYTES = 1_000_000
"""Largest YAML file sheetsmith reads (layouts and sheets are a few kilobytes)."""
MAX_NODES = 20_000
"""Most values one document may expand to, aliases included (stops alias bombs)."""
MAX_DEPTH = 40
"""Deepest nesting of mappings and lists one document may have."""


READS = "sheetsmith reads YAML text files here"
"""What :func:`load_yaml` says a command reads, when it is given a file of another kind."""


def load_yaml(path: str | Path, *, display: str | None = None, reads: str = READS) -> Document:
    """Read a YAML file into a :class:`Document` with positions.

    Args:
        path: the file to read.
        display: how to name the file in messages (defaults to ``str(path)``).
        reads: what the command reads, for the message given when the file is a
            PDF, an image, an archive or another binary format
            (``"verify reads typed-in sheets, pads and logs (YAML) or photos"``).

    Raises:
        InputError: the file is missing, unreadable, a symlink loop, not a
            regular file, over :data:`MAX_BYTES`, a binary format (PDF, image,
            archive, office document: named), not UTF-8, empty, not a YAML
            mapping, has a syntax error (with its real line and column), a
            control character (written or as an escape such as ``"\\0"``), an
            unsupported tag or merge key, a repeated key, a number too large
            to hold, or expands past :data:`MAX_NODES` values or
            :data:`MAX_DEPTH` levels.
    """
    name = display or str(path)
    p = Path(path)
    try:
        if p.is_dir():
            raise UnreadableError([Problem(name, 0, 0, "is a folder, not a YAML file")])
        if p.exists() and not p.is_file():
            raise UnreadableError([Problem(name, 0, 0, "is not a regular file (a device or pipe?); give a YAML file")])
        with p.open("rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise UnreadableError([Problem(name, 0, 0, "file not found")]) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnreadableError(
                [
                    Problem(
                        name,
                        0,
                        0,
                        "is a symbolic link that leads back to itself (a link loop); give the file it should point to",
                    )
                ]
            ) from None
        raise UnreadableError([Problem(name, 0, 0, f"cannot read the file: {exc.strerror}")]) from None
    return parse_yaml_bytes(raw, name, reads=reads)


def parse_yaml_bytes(raw: bytes, file: str = "<bytes>", *, reads: str = READS) -> Document:
    """Parse the bytes of a YAML file (an upload, a file's contents) into a :class:`Document`.

    The same limits as :func:`load_yaml`: not a binary format (``reads`` says
    what the command reads instead), at most :data:`MAX_BYTES`, UTF-8 (a
    byte-order mark is allowed), then :func:`parse_yaml`.

    Raises:
        InputError: as :func:`load_yaml`.
    """
    kind = binary_kind(raw)
    if kind is not None:
        raise UnreadableError([Problem(file, 0, 0, f"this is {kind}, not YAML text; {reads}")])
    if len(raw) > MAX_BYTES:
        raise UnreadableError(
            [Problem(file, 0, 0, f"larger than {MAX_BYTES // 1000} kB; is this really a sheetsmith YAML file?")]
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise UnreadableError([Problem(file, line, 0, "not UTF-8 text; save the file as UTF-8")]) from None
    return parse_yaml(text, file)


_OTHER_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x1f\x8b", "a gzip archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Microsoft Office document (.doc, .xls)"),
    (b"{\\rtf", "an RTF document"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"\x7fELF", "a program (ELF)"),
    (b"\xff\xfe", "UTF-16 text (save it as UTF-8)"),
    (b"\xfe\xff", "UTF-16 text (save it as UTF-8)"),
)
_FAMILIES = {
    "PDF": "a PDF document",
    "video": "a video ({kind})",
    "raw": "a camera RAW file ({kind})",
    "JPEG XL": "a JPEG XL image",
    "archive": "a ZIP archive (an office document such as .docx, .xlsx or .odt is one)",
    "photo": "a {kind} image",
}


def binary_kind(raw: bytes) -> str | None:
    """What a file that is not text is, from its first bytes ("a PDF document", "a PNG image"), or None.

    Images, PDF, videos, camera RAW files and ZIP archives are told apart by
    :func:`generator.core.filetypes.sniff`; gzip, 7-Zip, old
    Office, RTF, SQLite, ELF and UTF-16 here; any other file with NUL bytes
    near its start is "a binary file".
    """
    from generator.core.filetypes import sniff

    family, kind = sniff(raw[:4096])
    if family in _FAMILIES:
        return _FAMILIES[family].format(kind=kind)
    for magic, what in _OTHER_MAGIC:
        if raw.startswith(magic):
            return what
    if b"\x00" in raw[:1024]:
        return "a binary file"
    return None


def parse_yaml(text: str, file: str = "<string>") -> Document:
    """Parse YAML ``text`` (a single document whose top level is a mapping) into a :class:`Document`.

    Scalars are typed strictly (YAML 1.2 style): ``true``/``false`` are booleans,
    plain decimal numbers are numbers, and everything else (``yes``, ``no``,
    ``0x10``, ``1:05``, dates) stays text, so a value is never silently
    reinterpreted.

    Raises:
        InputError: as :func:`load_yaml`.
    """
    loader = None
    try:
        node = _compose_fast(text)
        if node is _NOT_READ:
            loader = yaml.SafeLoader(text)
            node = loader.get_single_node()
    except yaml.reader.ReaderError as exc:
        before = text[: exc.position]
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        char = chr(exc.character) if isinstance(exc.character, int) else str(exc.character)
        raise UnreadableError(
            [Problem(file, line, col, f"control character {describe_char(char)} in the file; remove it")]
        ) from None
    except yaml.MarkedYAMLError as exc:
        raise UnreadableError([_syntax_problem(exc, text, file)]) from None
    except RecursionError:
        raise UnreadableError(
            [Problem(file, 0, 0, f"nested too deeply; sheetsmith files nest at most {MAX_DEPTH} levels")]
        ) from None
    except (ValueError, OverflowError):  # an escape such as "\U00110000" names no character
        at = Pos(loader.line + 1, loader.column + 1) if loader is not None else Pos(0, 0)
        raise UnreadableError(
            [
                Problem(
                    file,
                    at.line,
                    at.col,
                    "an escape in quotes (\\x, \\u or \\U) names a character "
                    "that does not exist; write the character itself",
                )
            ]
        ) from None
    except yaml.YAMLError as exc:  # pragma: no cover - other parser errors carry marks
        raise UnreadableError([Problem(file, 0, 0, f"YAML error: {exc}")]) from None
    finally:
        if loader is not None:
            loader.dispose()
    if node is None:
        raise UnreadableError([Problem(file, 1, 1, "the file is empty; expected a YAML mapping such as 'game: allin'")])
    doc = Document(file=file, data=None, lines=text.splitlines())
    problems: list[Problem] = []
    budget = [MAX_NODES]
    doc.data = _build(node, (), doc, problems, budget, set())
    if problems:
        raise UnreadableError(problems[:50])
    if not isinstance(doc.data, dict):
        at = _mark(node)
        raise UnreadableError([Problem(file, at.line, at.col, "the top level must be a mapping of 'key: value' lines")])
    return doc


_NOT_READ = object()


def _compose_fast(text: str) -> Any:
    """The document's node tree through libyaml when PyYAML has it, else :data:`_NOT_READ`.

    libyaml builds the same nodes with the same marks, several times faster.  Whatever it
    refuses (and any text with a character YAML forbids) is left to the pure-Python parser,
    whose messages sheetsmith's hints are written for.  libyaml marks plain scalars with
    style ``''``; they get PyYAML's ``None``, so nodes look the same whichever parser read them.
    """
    fast = getattr(yaml, "CSafeLoader", None)
    if fast is None or yaml.reader.Reader.NON_PRINTABLE.search(text):
        return _NOT_READ
    loader = fast(text)
    try:
        root = loader.get_single_node()
    except yaml.YAMLError:
        return _NOT_READ
    finally:
        loader.dispose()
    todo, seen = [root], set()
    while todo:  # no recursion: a deeply nested file is refused later, by _build
        node = todo.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.style == "":
                node.style = None
        elif isinstance(node, yaml.MappingNode):
            todo.extend(n for pair in node.value for n in pair)
        elif isinstance(node, yaml.SequenceNode):
            todo.extend(node.value)
    return root


def shown(text: str, limit: int = 40) -> str:
    """Quote user text for a message: control characters escaped, long text cut to ``limit`` characters."""
    return quote(text, limit)


def _syntax_problem(exc: yaml.MarkedYAMLError, text: str, file: str) -> Problem:
    """A YAML syntax error as a problem at the line to fix, with a hint where one helps."""
    mark = exc.problem_mark or exc.context_mark
    what = exc.problem or "YAML syntax error"
    ctx = exc.context_mark
    if mark is None:
        return Problem(file, 0, 0, f"YAML syntax error: {what}")
    line, col = mark.line + 1, mark.column + 1
    if exc.context and ctx is not None and ctx.line != mark.line and "flow" in exc.context:
        # An unclosed '{' or '[' is only noticed on a later line: point at the bracket.
        what += (
            f" (noticed at line {line}, column {col}); close the {'{' if 'mapping' in exc.context else '['} opened here"
        )
        line, col = ctx.line + 1, ctx.column + 1
    elif exc.context and ctx is not None and ctx.line != mark.line:
        what += f" ({exc.context} that starts at line {ctx.line + 1}, column {ctx.column + 1})"
    lines = text.splitlines()
    hint = ""
    if "tab" in what.lower() or "\\t" in what:
        hint = "; indent with spaces, not tabs"
    elif _in_grid_block(lines, mark.line) or (ctx is not None and _in_grid_block(lines, ctx.line)):
        if not _in_grid_block(lines, mark.line):  # a grid row slipped to column 0 reads as a key: point at it
            line, col = ctx.line + 1, ctx.column + 1
        hint = (
            "; inside 'grid: |' every line must be indented at least as far as the first one "
            "(if the first row starts with a blank, write 'grid: |2')"
        )
    elif "expected <block end>" in what and ctx is not None and mark.column > ctx.column:
        hint = (
            f"; this line is indented {mark.column} spaces but the entries above it in the same block "
            f"(from line {ctx.line + 1}) are indented {ctx.column}: line them up"
        )
    elif "indent" in what.lower() or "expected <block end>" in what:
        hint = "; check the indentation of this line"
    return Problem(file, line, col, f"YAML syntax error: {what}{hint}")


def _in_grid_block(lines: list[str], index: int) -> bool:
    """True when 0-based line ``index`` belongs to a top-level ``grid: |`` block.

    That is: the nearest top-level key above it is ``grid:``, and the line is
    indented or holds only grid characters (a row that slipped to column 0).
    """
    own = lines[index] if index < len(lines) else ""
    for ln in reversed(lines[:index]):
        if not ln.strip() or ln.startswith((" ", "#")):
            continue
        if not ln.startswith("grid:"):
            return False
        return own.startswith(" ") or (bool(own.strip()) and set(own.strip()) <= set("o*G-| ."))
    return False


_STANDARD_TAGS = {
    f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp", "value")
}
_MERGE_TAG = "tag:yaml.org,2002:merge"


def _build(
    node: yaml.Node, path: PathKey, doc: Document, problems: list[Problem], budget: list[int], active: set[int]
) -> Any:
    at = _mark(node)
    doc.values[path] = at
    doc.nodes[path] = node
    budget[0] -= 1
    if budget[0] < 0:
        if budget[0] == -1:
            problems.append(
                Problem(
                    doc.file,
                    at.line,
                    at.col,
                    f"the file expands to more than {MAX_NODES} values (aliases repeated over and over?)",
                )
            )
        return None
    if len(path) > MAX_DEPTH:
        problems.append(
            Problem(doc.file, at.line, at.col, f"nested too deeply; sheetsmith files nest at most {MAX_DEPTH} levels")
        )
        return None
    if node.tag not in _STANDARD_TAGS and not (
        isinstance(node, yaml.MappingNode) or isinstance(node, yaml.SequenceNode)
    ):
        problems.append(
            Problem(doc.file, at.line, at.col, f"the tag '{node.tag}' is not used by sheetsmith; remove it")
        )
        return None
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
        if id(node) in active:
            problems.append(
                Problem(
                    doc.file, at.line, at.col, "an alias refers to the mapping or list it is inside; remove the loop"
                )
            )
            return None
        if node.tag not in _STANDARD_TAGS:
            problems.append(
                Problem(doc.file, at.line, at.col, f"the tag '{node.tag}' is not used by sheetsmith; remove it")
            )
            return None
        active = active | {id(node)}
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for knode, vnode in node.value:
            kat = _mark(knode)
            if not isinstance(knode, yaml.ScalarNode):
                problems.append(
                    Problem(doc.file, kat.line, kat.col, "a key must be a plain word, not a list or mapping")
                )
                continue
            if knode.tag == _MERGE_TAG:
                problems.append(
                    Problem(doc.file, kat.line, kat.col, "merge keys (<<) are not supported; write the keys out")
                )
                continue
            key = str(knode.value)  # keys are always text: '1', 'yes' and 'A' alike
            ch = bad_char(key, multiline=False)
            if ch is not None:
                problems.append(
                    Problem(
                        doc.file,
                        kat.line,
                        kat.col,
                        f"the key {shown(key)} holds {describe_char(ch)}; "
                        "remove it (keys are one line of visible characters)",
                    )
                )
                continue
            if key in out:
                problems.append(Problem(doc.file, kat.line, kat.col, f"key {shown(key)} appears twice; keep one"))
                continue
            doc.keys[path + (key,)] = kat
            out[key] = _build(vnode, path + (key,), doc, problems, budget, active)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, path + (i,), doc, problems, budget, active) for i, item in enumerate(node.value)]
    return _checked_scalar(node, doc, problems)


def _checked_scalar(node: yaml.ScalarNode, doc: Document, problems: list[Problem]) -> Any:
    """A scalar value, or None with a problem when it holds a control character or is a number too large."""
    at = _mark(node)
    ch = bad_char(str(node.value), multiline=True)
    if ch is not None:
        problems.append(
            Problem(
                doc.file,
                at.line,
                at.col,
                f"{quote(str(node.value))} holds the control character "
                f"{describe_char(ch)}; remove it (sheetsmith files hold visible text only)",
            )
        )
        return None
    value = _scalar(node)
    if isinstance(value, float) and not math.isfinite(value):
        problems.append(
            Problem(
                doc.file,
                at.line,
                at.col,
                f"{quote(str(node.value))} is too large a number; "
                "sheetsmith numbers are written with at most 15 digits",
            )
        )
        return None
    return value


_INT = re.compile(r"[-+]?[0-9]{1,15}")
_FLOAT = re.compile(r"[-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")


def _scalar(node: yaml.ScalarNode) -> Any:
    """Type one scalar strictly: null, true/false, decimal int or float from plain text; text otherwise."""
    value = str(node.value)
    if node.style is not None or node.tag == "tag:yaml.org,2002:str":
        return value  # quoted, block or explicitly text
    if value in ("", "~", "null", "Null", "NULL"):
        return None
    if value in ("true", "True", "TRUE"):
        return True
    if value in ("false", "False", "FALSE"):
        return False
    if _INT.fullmatch(value):
        return int(value)
    if _FLOAT.fullmatch(value):
        return float(value)
    return value


# --- writing YAML -------------------------------------------------------------------

_PLAIN_SCALAR = re.compile(r"[A-Za-z0-9_./][A-Za-z0-9_./' -]*")


_NUMBER_LIKE = re.compile(r"[-+0-9._eExXoO:]*")


_YAML_WORDS = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "pass", "~"}


def yaml_scalar(text: str) -> str:
    """``text`` as a YAML scalar that reads back as the same text: plain when safe, else double-quoted."""
    if (
        _PLAIN_SCALAR.fullmatch(text)
        and text == text.strip()
        and text.lower() not in _YAML_WORDS
        and not _NUMBER_LIKE.fullmatch(text)
    ):
        return text
    return json.dumps(text, ensure_ascii=False)
