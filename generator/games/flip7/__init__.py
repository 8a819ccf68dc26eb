"""Flip 7 — the press-your-luck card game.

Rules core: :mod:`.rules` (a round's score, the game's end), :mod:`.round` (a round
played card by card), :mod:`.sim` (bot games).  Formats: :mod:`.pad` (typed-in
score pads) and :mod:`.ticks` (typed-in tick pads).  Sheets: :mod:`.pad_fill`
(a pad drawn as a player fills it in).
"""
