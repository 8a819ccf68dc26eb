"""Rules every reader applies to what a user writes, and how user text is shown on a terminal.

One place for the limits of docs/formats.md ("Limits"), so that a layout, a
deck, a typed-in sheet, a pad, a game log and a command-line option all
refuse the same things with the same words:

* **numbers** are written in ASCII digits ``0-9`` only, with a bounded number
  of digits (:func:`ascii_number`); ``²``, ``٣`` or ``５`` are refused, as are
  strings of thousands of digits;
* **text** holds no control character: no C0/C1 control codes (tab, line feed
  and carriage return excepted in multi-line text), no lone surrogates, no
  bidirectional override or isolate (they reorder what a terminal or a PDF
  viewer shows: a name could then read as another) (:func:`bad_char`);
* **names** (players, sheets, decks) are one line: no tab, no line break
  either (:func:`text_problem`);
* everything shown on a terminal that came from a file or a file name goes
  through :func:`for_terminal`, which spells out any character a terminal
  would act on (``ESC``, ``BEL``, bidi controls) as ``\\x1b``-style escapes;
* long runs of similar messages are cut to a few and one "… and N more like
  this" line (:func:`cap_repeats`).

No I/O here: pure functions over strings.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Callable, Iterable, Sequence, TypeVar

MAX_DIGITS = 6
"""Most digits a whole number written as text may have (a bet, a spread number, a card, an option value)."""
_ASCII_NUMBER = re.compile(r"[-+]?[0-9]+")


class NumberError(ValueError):
    """Text that should be a whole number is not one sheetsmith reads; ``str(err)`` says what to write."""


def ascii_number(text: str, *, limit: int = MAX_DIGITS) -> int:
    """The whole number written in ``text``: ASCII digits ``0-9`` only, an optional sign, at most ``limit`` digits.

    ``str.isdigit`` and ``\\d`` also accept ``²``, ``٣`` or ``５`` (and ``int``
    then fails or reads a digit the ledger's readers may not); a round log
    takes ASCII digits only, and few enough of them that ``int`` never meets
    Python's limit on digits.

    >>> ascii_number("12"), ascii_number("-3")
    (12, -3)
    >>> ascii_number("²")
    Traceback (most recent call last):
    ...
    generator.core.validation.NumberError: write the number with the digits 0-9 only (at most 6 digits), not '²'

    Raises:
        NumberError: anything else (other digits, a fraction, ``nan``, more than ``limit`` digits).
    """
    if not _ASCII_NUMBER.fullmatch(text):
        raise NumberError(f"write the number with the digits 0-9 only (at most {limit} digits), not {quote(text)}")
    digits = text.lstrip("+-")
    if len(digits) > limit:
        raise NumberError(f"a number here has at most {limit} digits; {quote(text)} has {len(digits)}")
    return int(text)


def looks_numeric(text: str) -> bool:
    """True when ``text`` holds a digit of any script (``2``, ``²``, ``٣``): the writer meant a number."""
    return any(ch.isnumeric() for ch in text)


BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): refused in every text."""

LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
"""Characters that end a line for Python, YAML or a terminal."""

T = TypeVar("T")


def bad_char(text: str, *, multiline: bool = False) -> str | None:
    """The first character of ``text`` that no user text may hold, or None.

    Refused everywhere: C0 and C1 control codes and DEL (category Cc), lone
    surrogates (Cs), noncharacters such as U+FFFE, and the bidirectional
    controls of :data:`BIDI_CONTROLS`.  Tab, line feed and carriage return
    are allowed when ``multiline`` is True (grids, paragraphs); a one-line
    text (``multiline=False``) also refuses every line break and tab.
    """
    for ch in text:
        if multiline and ch in "\t\n\r":
            continue
        if not multiline and (ch in LINE_BREAKS or ch == "\t"):
            return ch
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs") or ch in BIDI_CONTROLS or _noncharacter(ch):
            return ch
    return None


def _noncharacter(ch: str) -> bool:
    o = ord(ch)
    return 0xFDD0 <= o <= 0xFDEF or (o & 0xFFFE) == 0xFFFE


_CONTROL_NAMES = {
    "\0": "NULL",
    "\a": "BELL",
    "\b": "BACKSPACE",
    "\t": "TAB",
    "\n": "LINE FEED",
    "\v": "LINE TABULATION",
    "\f": "FORM FEED",
    "\r": "CARRIAGE RETURN",
    "\x1b": "ESCAPE",
    "\x7f": "DELETE",
    "\x85": "NEXT LINE",
    "\x9b": "CONTROL SEQUENCE INTRODUCER",
}


def describe_char(ch: str) -> str:
    """A character as a message shows it: ``'x'``, or its code point and name when it is not plain ASCII."""
    if " " < ch < "\x7f":
        return f"'{ch}'"
    name = _CONTROL_NAMES.get(ch) or unicodedata.name(
        ch, "control character" if ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 else "unnamed"
    )
    shown_ = f"'{ch}' " if ch.isprintable() and ch not in BIDI_CONTROLS else ""
    return f"{shown_}(U+{ord(ch):04X} {name})"


def text_problem(text: str, what: str, *, max_length: int | None = None, multiline: bool = False) -> str | None:
    """The message for a user text that breaks :func:`bad_char` or is too long, else None.

    Args:
        text: the value as read.
        what: how the message names the field (``"player"``, ``"players[2]"``).
        max_length: most characters allowed.
        multiline: whether tabs and line breaks are allowed (a name: no).
    """
    ch = bad_char(text, multiline=multiline)
    if ch is not None:
        kind = "a line break or tab" if ch in LINE_BREAKS or ch == "\t" else "a control character"
        return (
            f"{what} holds {kind} {describe_char(ch)}; remove it (names and labels are one line of visible characters)"
        )
    if max_length is not None and len(text) > max_length:
        return f"{what} has {len(text)} characters; at most {max_length} are allowed"
    return None


def quote(text: str, limit: int = 40) -> str:
    """User text quoted for a message: every character a terminal could act on escaped, long text cut to ``limit``."""
    cut = text if len(text) <= limit else text[: limit - 1] + "…"
    return "'" + for_terminal(cut) + "'"


def for_terminal(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` safe to print: control codes, bidi controls and other invisible formatting spelled out.

    ``ESC`` becomes ``\\x1b``, U+202E becomes ``\\u202e``; printable text (any
    script) is unchanged (:func:`generator.core.names.shown`, the one escaping
    rule).  With ``keep_newlines`` a line feed stays a line feed (for many
    lines printed at once).
    """
    from generator.core.names import shown

    if keep_newlines:
        return "\n".join(shown(line) for line in text.split("\n"))
    return shown(text)


def json_for_terminal(text: str) -> str:
    """JSON text with every character a terminal acts on written as a ``\\uXXXX`` escape (the same JSON value).

    ``json.dumps(..., ensure_ascii=False)`` escapes C0 controls but leaves DEL,
    C1 controls (``\\x9b`` starts a sequence on some terminals) and bidi
    controls as they are; a file name can hold them.
    """
    from generator.core.names import UNSAFE_CATEGORIES

    if text.replace("\n", "").isprintable():
        return text
    return "".join(
        ch
        if ch == "\n" or unicodedata.category(ch) not in UNSAFE_CATEGORIES
        else "".join(f"\\u{u:04x}" for u in _utf16(ch))
        for ch in text
    )


def _utf16(ch: str) -> list[int]:
    o = ord(ch)
    if o < 0x10000:
        return [o]
    o -= 0x10000
    return [0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF)]


REPEATS_SHOWN = 10
"""How many messages of one kind are printed before the rest are counted."""

_SHAPE = re.compile(r"'[^']*'|\"[^\"]*\"|\b[a-z]{1,2}[0-9]+\b|[0-9]+")


def message_shape(message: str) -> str:
    """What messages "like this" share: the message with quoted text, cell names and numbers blanked.

    >>> message_shape("hands.B: missing key 'reward'") == message_shape("hands.C7: missing key 'bonus'")
    False
    >>> message_shape("round 3, c4: 'QX' is not a card") == message_shape("round 12, d1: '9Z' is not a card")
    True
    """
    return _SHAPE.sub("#", message)


def cap_repeats(
    items: Sequence[T], key: Callable[[T], str], *, shown_per_kind: int = REPEATS_SHOWN
) -> tuple[list[T], list[tuple[T, int]]]:
    """Keep at most ``shown_per_kind`` items of each kind (``key``); count the rest.

    Returns:
        ``(kept, more)``: the items to show, in their order, and for each kind
        cut short its last shown item and how many more there were.
    """
    seen: dict[str, int] = {}
    last: dict[str, T] = {}
    kept: list[T] = []
    for item in items:
        k = key(item)
        seen[k] = seen.get(k, 0) + 1
        if seen[k] <= shown_per_kind:
            kept.append(item)
            last[k] = item
    more = [(last[k], n - shown_per_kind) for k, n in seen.items() if n > shown_per_kind]
    return kept, more


def capped_lines(problems: Iterable, *, shown_per_kind: int = REPEATS_SHOWN) -> list[str]:
    """Problems (anything with ``file`` and ``message``) as printable lines, repeats of one kind cut short.

    Each kind cut short ends with ``FILE: … and 5,990 more like this``; every
    line goes through :func:`for_terminal`.
    """
    items = list(dict.fromkeys(problems))
    kept, more = cap_repeats(
        items,
        lambda p: (
            f"{getattr(p, 'file', '')}\0{getattr(p, 'severity', '')}\0{message_shape(getattr(p, 'message', str(p)))}"
        ),
        shown_per_kind=shown_per_kind,
    )
    extra = {id(p): n for p, n in more}
    lines = []
    for p in kept:
        lines.append(for_terminal(str(p)))
        if id(p) in extra:
            where = for_terminal(getattr(p, "file", "") or "")
            lines.append(f"{where + ': ' if where else ''}… and {extra[id(p)]:,} more like this")
    return lines
