"""Synthetic phone photos of a simulated All In game, for the web page's tests (made once per test run).

The truth is the bot game's final sheets and the referee's score of them
(:func:`generator.games.allin.bot.simulate_game`), never what the page shows.
"""

from __future__ import annotations

from functools import lru_cache

from generator.core.shipped import resolve_layout
from generator.games.allin.bot import simulate_game
from generator.games.allin.grid import cell_name
from generator.games.allin.layout import load_layout
from generator.printing.paper import paper
from tests.synth.sheet_photos import HandStyle, Pen, PhotoParams, clean_params, synth_photo

PLAYERS = ("Ann", "Bob", "Cy")
BLUE = HandStyle(Pen("blue", (0.12, 0.25, 0.65), 0.4), box_mark="tick", bubble="full")


def params(**kw) -> PhotoParams:
    """A clean photo of the sheet, 1600 × 1200 (as tests/test_reader.py)."""
    return clean_params(**kw)


@lru_cache(maxsize=4)
def game(layout_id: str = "q-diamonds", seed: int = 7):
    """A refereed bot game of three players: ``.sheets`` (the truth) and ``.score``."""
    lay = load_layout(resolve_layout(layout_id))
    return simulate_game(lay, list(PLAYERS), seed).result


@lru_cache(maxsize=8)
def photo(i: int, layout_id: str = "q-diamonds", seed: int = 7) -> bytes:
    """A JPEG photo of player ``i``'s finished sheet."""
    result = game(layout_id, seed)
    return synth_photo(
        result.sheets[i],
        paper("a4"),
        seed * 10 + i,
        params=params(rotation=90.0 - 20 * i),
        style=BLUE,
        dpi=150,
        game=result.score,
    ).jpeg


@lru_cache(maxsize=2)
def uncertain_photo(i: int = 0, layout_id: str = "q-diamonds", seed: int = 7) -> tuple[bytes, str, str]:
    """A photo of player ``i``'s sheet with a second rank ticked in one space: ``(jpeg, cell, the true card's
    code)``."""
    result = game(layout_id, seed)
    sheet = result.sheets[i]
    coord, card = sorted(sheet.cards.items())[5]
    name = cell_name(coord)
    other = "K" if card.rank_label != "K" else "2"
    jpeg = synth_photo(
        sheet,
        paper("a4"),
        seed * 10 + i,
        params=params(),
        style=BLUE,
        dpi=150,
        game=result.score,
        extra={"ranks": [(name, other)]},
    ).jpeg
    return jpeg, name, card.code
