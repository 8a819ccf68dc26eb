"""The four games, one package each: its rules core, its file formats and its sheets.

* :mod:`~generator.games.allin` — All In: A Flip&Write Showdown;
* :mod:`~generator.games.flip7` — Flip 7;
* :mod:`~generator.games.fundex` — All In (Fundex);
* :mod:`~generator.games.flipflop` — Flip Flop.

Each rules core is pure functions over plain data.  The games import
:mod:`generator.printing` and :mod:`generator.core`, never each other.
"""
