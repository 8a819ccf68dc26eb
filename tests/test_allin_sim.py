"""The bot and simulator: simulated games replay legally, score the same through every path, repeat by seed.

Also the agreement of move generation with the referee: every generated
move is accepted (and a random-move game made only of generated moves
replays), every other cell or card is refused.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from generator.core.cards import standard_deck
from generator.core.shipped import shipped_layouts
from generator.games.allin.bot import SimpleBot, simulate_game
from generator.games.allin.filled import FilledSheet
from generator.games.allin.game import (
    GameState,
    GoldenPick,
    IllegalMove,
    Move,
    compose_cost,
    golden_cells,
    replay,
    surrounds_golden,
)
from generator.games.allin.game_log import dump_game_log, load_game_log, write_final_sheets, write_game_log
from generator.games.allin.grid import cell_name
from generator.games.allin.layout import load_layout
from generator.games.allin.scoring import report, score_game
from generator.games.allin.typed_sheet import load_allin_sheet

REPO = Path(__file__).resolve().parents[1]
LAYOUTS = [load_layout(s.path) for s in shipped_layouts() if s.game == "allin"]
Q = next(lay for lay in LAYOUTS if lay.id == "q-diamonds")
DECK54 = sorted(c.code for c in standard_deck(jokers=2))


def _games(n: int):
    for seed in range(n):
        yield seed, simulate_game(LAYOUTS[seed % len(LAYOUTS)], 4, seed)


@pytest.mark.slow
def test_200_simulated_games_replay_legally_and_score_the_same():
    totals = []
    for seed, sim in _games(200):
        log, result = sim.log, sim.result
        assert result.finished and len(log.rounds) == 23
        res = replay(log)  # the log alone, refereed again from scratch
        # the verifier, on sheets rebuilt from plain data, agrees with the replay
        rebuilt = [FilledSheet(s.layout, s.player, dict(s.cards), s.chips_earned, s.chips_spent) for s in res.sheets]
        assert report(score_game(rebuilt)) == res.report() == result.report(), seed
        assert res.totals == result.totals
        # a refereed game's sheets pass every plausibility check (rules/allin_plausible.py)
        assert res.score.problems == [] and not any(p["impossible"] for p in res.report()["players"])
        # the whole 54-card deck is dealt: 8 Golden Deck cards, 46 revealed
        dealt = [c.code for c in log.golden_deck] + [c.code for r in log.rounds for c in r.revealed]
        assert sorted(dealt) == DECK54
        for sheet in res.sheets:
            name = sheet.player
            moves = [r.moves[name] for r in log.rounds]
            picks = [m.golden for m in moves if m.golden is not None]
            assert len(sheet.cards) == 23 + len(picks) - sum(m.is_pass for m in moves)
            assert sheet.chips_earned == sum(o.earned[name] for o in res.rounds)
            assert sheet.chips_spent == sum(m.chips for m in moves) <= sheet.chips_earned
            # the bot spends exactly what its card costs
            for r, m in zip(log.rounds, moves):
                if not m.is_pass:
                    assert m.chips == compose_cost(r.revealed, m.card)
            totals.append(res.totals[name])
    # a reasonable bot: far above random play (about 16 a player on the Q♦ sheet)
    assert statistics.mean(totals) > 55


def test_same_seed_same_game_other_seed_other_game():
    a = dump_game_log(simulate_game(Q, 3, seed=11).log)
    b = dump_game_log(simulate_game(Q, 3, seed=11).log)
    c = dump_game_log(simulate_game(Q, 3, seed=12).log)
    assert a == b and a != c
    rng = random.Random(11)
    assert dump_game_log(simulate_game(Q, 3, seed=rng).log) == a  # a Random seeded alike plays alike


@pytest.mark.slow
def test_same_seed_same_game_in_another_process():
    code = (
        "import hashlib, sys;"
        "from generator.core.shipped import shipped_layouts; from generator.games.allin.layout import load_layout;"
        "from generator.games.allin.bot import simulate_game;"
        "from generator.games.allin.game_log import dump_game_log;"
        "lay = load_layout(next(s.path for s in shipped_layouts() if s.id == 'q-diamonds'));"
        "print(hashlib.sha256(dump_game_log(simulate_game(lay, 4, seed=5).log).encode()).hexdigest())"
    )
    here = hashlib.sha256(dump_game_log(simulate_game(Q, 4, seed=5).log).encode()).hexdigest()
    for hash_seed in ("1", "2"):  # sets and dicts of cards iterate differently under each
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env, timeout=120
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == here


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_round_trip_through_the_written_files(tmp_path, seed):
    layout = LAYOUTS[seed % len(LAYOUTS)]
    sim = simulate_game(layout, 4, seed)
    log_path = write_game_log(tmp_path / "game.yaml", sim.log, result=sim.result)
    res = load_game_log(log_path).replay()
    assert res.report() == sim.result.report()
    paths = write_final_sheets(tmp_path / "sheets", res.sheets)
    assert [p.name for p in paths] == ["ann.yaml", "bob.yaml", "cy.yaml", "dee.yaml"]
    sheets = [load_allin_sheet(p) for p in paths]
    assert report(score_game(sheets)) == res.report()


def test_sheetsmith_verify_accepts_the_written_sheets(tmp_path):
    sim = simulate_game(Q, ["Ann", "Bob: the 2nd", "true"], seed=9)
    paths = write_final_sheets(tmp_path, sim.result.sheets)
    out = subprocess.run(
        [sys.executable, "-m", "generator.cli.app", "verify", *map(str, paths), "--json"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == sim.result.report()


def test_log_and_sheets_on_a_layout_file_outside_the_shipped_ones(tmp_path):
    src = next(s.path for s in shipped_layouts() if s.id == "k-spades")
    own = tmp_path / "mine" / "wide.yaml"
    own.parent.mkdir()
    own.write_text(src.read_text(encoding="utf-8").replace("id: k-spades", "id: wide"), encoding="utf-8")
    sim = simulate_game(load_layout(own), 2, seed=4)
    log_path = write_game_log(tmp_path / "logs" / "game.yaml", sim.log)
    assert "layout: ../mine/wide.yaml" in log_path.read_text(encoding="utf-8")
    assert load_game_log(log_path).replay().report() == sim.result.report()
    sheets = [load_allin_sheet(p) for p in write_final_sheets(tmp_path / "out", sim.result.sheets)]
    assert report(score_game(sheets)) == sim.result.report()


# --------------------------------------------------------------------------
# Move generation agrees with the referee.


class RandomBot(SimpleBot):
    """Plays a uniformly random generated move, random surplus chips, a random Golden Deck pick."""

    def choose_move(self, state, player, revealed):
        legal = state.legal_moves(player, revealed)
        move = self.rng.choice(list(legal.moves()))
        if move.is_pass:
            return move
        chips = self.rng.randint(move.chips, legal.chips)
        pick = None
        me = state.players[player]
        if surrounds_golden(state.layout, me.cards, move.cell) and state.golden_deck:
            after = {**me.cards, move.cell: move.card}
            card = self.rng.choice(state.golden_deck)
            written = self.rng.choice(standard_deck()) if card.is_joker else None
            pick = GoldenPick(card, self.rng.choice(golden_cells(state.layout, after)), written)
        return Move(move.cell, move.card, chips, pick)


@pytest.mark.parametrize("seed", range(6))
def test_games_of_random_generated_moves_replay_legally(seed):
    sim = simulate_game(LAYOUTS[seed % len(LAYOUTS)], 3, seed, bot=RandomBot)
    assert replay(sim.log).report() == sim.result.report()


def test_bot_beats_random_play_on_the_same_deals():
    bot = [t for s in range(10) for t in simulate_game(Q, 4, s).result.totals.values()]
    rand = [t for s in range(10) for t in simulate_game(Q, 4, s, bot=RandomBot).result.totals.values()]
    assert statistics.mean(bot) > statistics.mean(rand) + 25


class CheckingBot(SimpleBot):
    """Plays like SimpleBot, but first checks the generated moves against the referee, exhaustively."""

    checked = 0

    def choose_move(self, state: GameState, player, revealed):
        legal = state.legal_moves(player, revealed)
        me = state.players[player]
        layout = state.layout
        lattice = [(x, y) for x in range(-1, layout.grid.cols + 1) for y in range(-1, layout.grid.rows + 1)]
        for cell in lattice:
            for card in standard_deck():
                cost = compose_cost(revealed, card)
                ok = cell in legal.cells and cost <= legal.chips
                move = Move(cell, card, max(cost, 0) if ok else min(cost, legal.chips))
                try:
                    state.check_move(player, revealed, move)
                    accepted = True
                except IllegalMove as err:
                    accepted = False
                    assert err.round == state.round + 1 and err.player == player and err.move == cell_name(cell)
                assert accepted == ok, (cell_name(cell), card.code, cost, legal.chips)
                if ok:
                    state.check_move(player, revealed, Move(cell, card, legal.chips))  # any surplus up to all chips
                    CheckingBot.checked += 1
                    if surrounds_golden(layout, me.cards, cell):
                        after = {**me.cards, cell: card}
                        for g in state.golden_deck:
                            for gc in golden_cells(layout, after)[:3]:
                                state.check_move(
                                    player,
                                    revealed,
                                    Move(cell, card, cost, GoldenPick(g, gc, card if g.is_joker else None)),
                                )
                    elif me.cards:
                        with pytest.raises(IllegalMove, match="does not write the 8th space"):
                            pick = GoldenPick(state.golden_deck[0], cell, None)
                            state.check_move(player, revealed, Move(cell, card, cost, pick))
                else:
                    # more chips than the player has is refused whatever the card
                    with pytest.raises(IllegalMove):
                        state.check_move(player, revealed, Move(cell, card, legal.chips + 1))
        return super().choose_move(state, player, revealed)


@pytest.mark.slow
def test_move_generation_agrees_with_the_referee():
    CheckingBot.checked = 0
    for seed in (0, 1):
        sim = simulate_game(LAYOUTS[seed], 2, seed, bot=CheckingBot)
        assert replay(sim.log).report() == sim.result.report()
    assert CheckingBot.checked > 1000


def test_random_variations_of_legal_moves_are_refused():
    rng = random.Random(7)
    refused = 0
    for seed in range(4):
        sim = simulate_game(Q, 2, seed)
        state = GameState(Q, sim.log.players, sim.log.golden_deck)
        for rnd in sim.log.rounds:
            for name, move in rnd.moves.items():
                if move.is_pass:
                    continue
                p = state.players[name]
                variations = [
                    Move(
                        rng.choice(list(p.cards)) if p.cards else Q.golden_coord, move.card, move.chips
                    ),  # written space
                    Move(Q.golden_coord, move.card, move.chips),  # the Golden Card
                    Move(move.cell, move.card, p.chips_left + 1 + rng.randrange(3)),  # chips not there
                ]
                dear = [c for c in standard_deck() if compose_cost(rnd.revealed, c) > p.chips_left]
                if dear:
                    variations.append(Move(move.cell, rng.choice(dear), p.chips_left))  # too dear a card
                variations.append(Move((Q.grid.cols + 2, 0), move.card, move.chips))  # off the sheet
                for bad in variations:
                    with pytest.raises(IllegalMove) as info:
                        state.check_move(name, rnd.revealed, bad)
                    assert str(info.value).startswith(f"round {state.round + 1}, {name}, ")
                    refused += 1
            state.play_round(rnd.revealed, rnd.moves)
    assert refused >= 4 * 2 * 23 * 4
