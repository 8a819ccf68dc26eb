"""Names that come from the file system, made safe to print and to write into YAML.

A photo's file name is whatever the phone, the chat app or the user made of
it: it may hold a newline, an escape sequence that recolours a terminal, a
bidirectional override that makes ``gpj.exe`` look like ``exe.jpg``, or bytes
that are not UTF-8 at all (Python keeps those as lone surrogates).  Such a
name must never reach a terminal raw, nor break the structure of a YAML file
(a newline in a comment starts a new line of YAML; a control character makes
the YAML reader refuse the whole file).

* :func:`shown` escapes a text for terminals, messages and YAML comments;
* :func:`display_name` is a path as messages show it, escaped;
* :func:`player_name` is the player's name taken from a photo's file name.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories escaped by :func:`shown`: controls, format characters (bidi overrides,
zero-width joiners), surrogates (undecodable bytes), private use, unassigned, line and paragraph separators."""

PLAYER_MAX = 60
"""Longest player name a typed-in sheet takes (``generator/games/allin/typed_sheet.py``)."""


def _escape(ch: str) -> str:
    o = ord(ch)
    if ch in "\n\r\t":
        return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}[ch]
    if 0xDC80 <= o <= 0xDCFF:  # a byte that was not UTF-8 (os.fsdecode's surrogateescape): show the byte
        return f"\\x{o - 0xDC00:02x}"
    if o <= 0xFF:
        return f"\\x{o:02x}"
    if o <= 0xFFFF:
        return f"\\u{o:04x}"
    return f"\\U{o:08x}"


def _unsafe(ch: str) -> bool:
    return unicodedata.category(ch) in UNSAFE_CATEGORIES


def shown(text: str) -> str:
    """``text`` with every character a terminal or a YAML file must not get raw written as an escape.

    Controls (``\\n``, ``\\x1b``, DEL, C1), format characters (``\\u202e``), line separators and
    undecodable bytes (``\\xff``) become backslash escapes; everything printable — accented
    letters, CJK, emoji — stays as it is.  The result is one line of printable text.

    >>> shown("ann\\nbob\\x1b[31m.jpg")
    'ann\\\\nbob\\\\x1b[31m.jpg'
    >>> shown("Zoë.jpg")
    'Zoë.jpg'
    """
    if text.isprintable():
        return text
    return "".join(_escape(ch) if _unsafe(ch) else ch for ch in text)


def display_name(path: str | Path) -> str:
    """``path`` as messages show it (relative to the working folder when inside it), escaped by :func:`shown`."""
    from generator.core.paths import display_path

    return shown(display_path(Path(path)))


def player_name(path: str | Path) -> str:
    """The player's name for a photo: its file name without the ending (``ann.jpg`` → ``ann``), made safe by
    :func:`clean_name`."""
    return clean_name(Path(path).stem)


def clean_name(text: str) -> str:
    """``text`` as a player's name a typed-in sheet accepts.

    Characters :func:`shown` would escape become spaces, runs of spaces one, and the name is
    cut to :data:`PLAYER_MAX` characters, so the ``.read.yaml`` it goes into is always valid;
    a name with nothing printable left is ``player``.
    """
    clean = "".join(" " if _unsafe(ch) else ch for ch in text)
    clean = " ".join(clean.split())[:PLAYER_MAX].strip()
    return clean or "player"


def file_stem(name: str) -> str:
    """A player's name as a file name without its ending: lower-case letters, digits and '-', at most 40
    characters (``"Ann Lee"`` → ``ann-lee``); ``player`` when nothing of the name is left."""
    stem = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return stem[:40] or "player"


__all__ = ["shown", "display_name", "player_name", "clean_name", "file_stem"]
