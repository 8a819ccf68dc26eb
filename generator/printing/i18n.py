"""Printed words in several languages: one message catalogue (a YAML file) per language.

Every word sheetsmith prints on paper (All In sheets, Flip 7 pads and tick
pads, ledgers, instruction and reference cards, card faces) comes from the
catalogue of the language asked for: ``templates/lang/<code>.yaml``.  Adding a
language is adding a file there, with the same keys as ``en.yaml``; no code
changes.  A catalogue is nested YAML; a message is addressed by its dotted
path (``pads.score_pad``, ``cards.flipflop.spreads.body``).  Messages may hold
``{name}`` fields filled in when drawn (``"first to {target} …"``).

A key missing from a catalogue is printed in English and reported
(:attr:`Messages.missing`); a key that English does not have is an error of
the catalogue (:func:`catalogue_problems`).  Product text is our own wording,
never a rulebook's sentences (docs/rules.md points at passages, never quotes them).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from generator.core.errors import InputError, Problem, SheetsmithError

DEFAULT_LANG = "en"
"""The language of the reference catalogue: every other catalogue has exactly its keys."""

ALLIN_MAX = 160
"""Longest label of an All In sheet (the layout schema's limit for ``strings:``)."""
_CODE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{2,8})?$")
"""A language code as a file name: ``it``, ``de``, ``pt-br`` (lower case)."""


def lang_dir() -> Path:
    """The folder of the catalogues: ``templates/lang/`` of the checkout (``SHEETSMITH_HOME`` moves it)."""
    from generator.core.paths import TEMPLATES_DIR

    return TEMPLATES_DIR / "lang"


def languages(folder: Path | None = None) -> list[str]:
    """The language codes that have a catalogue in ``folder`` (default :func:`lang_dir`), English first."""
    folder = folder or lang_dir()
    codes = sorted(p.stem for p in folder.glob("*.yaml") if _CODE.match(p.stem))
    return sorted(codes, key=lambda c: c != DEFAULT_LANG)


def check_lang(lang: str, folder: Path | None = None) -> str:
    """``lang`` if a catalogue exists for it (``--lang`` values are case-insensitive).

    Raises:
        SheetsmithError: no catalogue for ``lang``; the message lists the languages there are (exit 2).
    """
    code = (lang or "").strip().lower()
    known = languages(folder)
    if code not in known:
        raise SheetsmithError(
            f"--lang '{lang}': no catalogue for this language; languages: {', '.join(known)} "
            f"(add one as templates/lang/<code>.yaml, with the keys of {DEFAULT_LANG}.yaml)"
        )
    return code


def flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    """A nested mapping as ``{dotted.key: leaf}``; lists and scalars are leaves."""
    if not isinstance(data, dict):
        return {prefix: data} if prefix else {}
    out: dict[str, Any] = {}
    for key, value in data.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict):
            out.update(flatten(value, path))
        else:
            out[path] = value
    return out


def _fields(text: str) -> set[str]:
    """The ``{name}`` fields of a message."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _read(path: Path) -> tuple[dict[str, Any], str]:
    """A catalogue file as flat messages, and the file's name as messages show it (re-read when it changes).

    Raises:
        InputError: the file is missing, not YAML, not a mapping, or holds a value that is not text or a list of text.
    """
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        raise InputError([Problem(str(path), 0, 0, "message catalogue not found")]) from None
    return _read_at(path, stamp)


@lru_cache(maxsize=32)
def _read_at(path: Path, stamp: int) -> tuple[dict[str, Any], str]:
    """A well-formed catalogue is read by libyaml's plain loader (a few ms: every command that draws
    pays it); anything else goes through the position-keeping reader for ``FILE:LINE:COL`` errors."""
    import yaml

    from generator.core.yamlpos import load_yaml

    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        data = None
    if isinstance(data, dict):
        flat = flatten(data)
        if all(
            isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, str) for x in v)) for v in flat.values()
        ):
            return flat, str(path)
    doc = load_yaml(path)
    if not isinstance(doc.data, dict):
        raise InputError([doc.problem((), "a message catalogue is a mapping of keys to texts")])
    flat = flatten(doc.data)
    problems = []
    for key, value in flat.items():
        ok = isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))
        if not ok:
            problems.append(
                doc.problem(tuple(key.split(".")), f"{key}: a message is text in quotes, or a list of texts")
            )
    if problems:
        raise InputError(problems)
    return flat, doc.file


@dataclass(frozen=True)
class Messages:
    """The printed words of one language.

    Attributes:
        lang: the language code (``it``).
        messages: dotted key → text (or list of texts, for paragraphs).
        missing: keys of English this catalogue lacks (printed in English instead).
        file: the catalogue file, for messages.
    """

    lang: str
    messages: dict[str, Any] = field(repr=False)
    missing: tuple[str, ...] = ()
    file: str = ""

    def __call__(self, key: str, **values: Any) -> str:
        """The text of ``key`` with its ``{fields}`` filled from ``values``.

        Raises:
            KeyError: no such key in English either (a programming error, not a user's).
        """
        text = self.messages[key]
        if isinstance(text, list):
            text = "\n".join(text)
        return text.format(**values) if values else text

    def get(self, key: str, default: Any = None) -> Any:
        """The raw message of ``key`` (text or list), or ``default``."""
        return self.messages.get(key, default)

    def section(self, prefix: str) -> dict[str, Any]:
        """Every message under ``prefix.`` with the prefix removed: ``section("allin")["title"]``."""
        cut = len(prefix) + 1
        return {k[cut:]: v for k, v in self.messages.items() if k.startswith(prefix + ".")}

    def warnings(self) -> list[Problem]:
        """A warning naming the keys printed in English because this catalogue lacks them (empty if none)."""
        if not self.missing:
            return []
        shown = ", ".join(self.missing[:5]) + (", …" if len(self.missing) > 5 else "")
        return [
            Problem(self.file, 0, 0, f"{len(self.missing)} message(s) missing, printed in English: {shown}", "warning")
        ]


def messages(lang: str = DEFAULT_LANG, folder: Path | None = None) -> Messages:
    """The catalogue of ``lang`` (see :func:`check_lang`), with English filling any key it lacks.

    Raises:
        SheetsmithError: no catalogue for ``lang``.
        InputError: a catalogue file cannot be read.
    """
    folder = folder or lang_dir()
    code = check_lang(lang, folder)
    english, _ = _read(folder / f"{DEFAULT_LANG}.yaml")
    if code == DEFAULT_LANG:
        return Messages(code, english, (), str(folder / f"{DEFAULT_LANG}.yaml"))
    own, file = _read(folder / f"{code}.yaml")
    missing = tuple(k for k in english if k not in own)
    merged = {k: own.get(k, v) for k, v in english.items()}
    return Messages(code, merged, missing, file)


def catalogue_problems(folder: Path | None = None) -> list[Problem]:
    """Every way the catalogues in ``folder`` differ from English.

    Per language: keys English has and it lacks, keys English does not have,
    a message whose ``{fields}`` differ from English's (it would fail or lose a
    number when drawn), text where English has a list or the reverse, and
    characters the sheet font cannot print.

    Raises:
        InputError: a catalogue that is not well-formed YAML (a key written twice, …), located.
    """
    from generator.core.yamlpos import load_yaml
    from generator.printing.scene import missing_glyphs

    folder = folder or lang_dir()
    for code in languages(folder):
        load_yaml(folder / f"{code}.yaml")  # the strict reader: a key written twice, tabs, … (InputError)
    english, _ = _read(folder / f"{DEFAULT_LANG}.yaml")
    problems: list[Problem] = []
    for code in languages(folder):
        own, file = _read(folder / f"{code}.yaml")
        for key in english:
            if key not in own:
                problems.append(Problem(file, 0, 0, f"{key}: missing (English: {str(english[key])[:40]!r})"))
        for key, value in own.items():
            if key not in english:
                problems.append(
                    Problem(file, 0, 0, f"{key}: not a key of {DEFAULT_LANG}.yaml; remove it or fix its spelling")
                )
                continue
            ref = english[key]
            if isinstance(ref, list) != isinstance(value, list):
                problems.append(
                    Problem(
                        file,
                        0,
                        0,
                        f"{key}: {'a list of paragraphs' if isinstance(ref, list) else 'one text'}, as in English",
                    )
                )
                continue
            texts = value if isinstance(value, list) else [value]
            if not isinstance(ref, list) and _fields(value) != _fields(ref):
                problems.append(
                    Problem(
                        file, 0, 0, f"{key}: fields {sorted(_fields(value))} but English has {sorted(_fields(ref))}"
                    )
                )
            if key.startswith("allin.") and len(value) > ALLIN_MAX:
                problems.append(
                    Problem(file, 0, 0, f"{key}: {len(value)} characters; a sheet label holds at most {ALLIN_MAX}")
                )
            for text in texts:
                for weight in ("regular", "bold"):
                    lacking = missing_glyphs(text, weight)
                    if lacking:
                        problems.append(Problem(file, 0, 0, f"{key}: the sheet font cannot print {' '.join(lacking)}"))
                        break
    return problems
