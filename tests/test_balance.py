"""``sheetsmith balance``: the statistics over hand-made game results, the warning thresholds,
figures that do not depend on the worker count, a deliberately unfair layout, the JSON keys and
the exit status of bad options.

Expected values are worked out by hand in each test's comments, never taken from the code's output.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections import deque

import pytest

import generator.games.allin.balance as bal
import generator.jobs.play as play
from generator.core.errors import SheetsmithError
from generator.core.shipped import resolve_layout
from generator.games.allin.balance import (
    MEAN_TOTAL_TOLERANCE,
    RARE_COMPLETION,
    SheetResult,
    fairness_warnings,
    percentile,
    summarize,
)
from generator.games.allin.grid import golden_ring
from generator.games.allin.layout import load_layout
from generator.jobs.play import balance_layouts as balance

Q = load_layout(resolve_layout("q-diamonds"))


def run(*args):
    return subprocess.run([sys.executable, "-m", "generator.cli.app", *args], capture_output=True, text=True)


def sheet(total, *, complete=(), points=None, chips=0, left=0, surrounded=False, hand_points=0, bonus=0):
    return SheetResult(total, hand_points, bonus, chips, left, surrounded, frozenset(complete), points or {})


# --------------------------------------------------------------------------- statistics, by hand


def test_percentile_interpolates_between_closest_ranks():
    # sorted 10 20 30 40 50: position (5-1)*0.1 = 0.4 -> 10 + 0.4*10 = 14; (5-1)*0.9 = 3.6 -> 40 + 0.6*10 = 46
    assert percentile([30, 10, 50, 20, 40], 0.1) == pytest.approx(14)
    assert percentile([30, 10, 50, 20, 40], 0.9) == pytest.approx(46)
    assert percentile([30, 10, 50, 20, 40], 0.5) == 30
    assert percentile([7], 0.1) == 7 == percentile([7], 0.9)
    assert percentile([0, 100], 0.1) == pytest.approx(10)
    with pytest.raises(ValueError):
        percentile([], 0.5)


def test_summarize_a_hand_made_set_of_games():
    # two games of two players on Q♦: four sheets
    games = [
        [
            sheet(10, complete="AB", points={"A": 2, "C": 6}, chips=1, left=0, hand_points=8, bonus=2),
            sheet(40, complete="A", points={"A": 0}, chips=2, left=1, surrounded=True, hand_points=30, bonus=9),
        ],
        [
            sheet(20, complete="AF", points={"A": 6}, chips=3, left=3, hand_points=17, bonus=0),
            sheet(30, complete="", points={"A": 4, "C": 2}, chips=6, left=4, hand_points=20, bonus=6),
        ],
    ]
    f = summarize(Q, games, file="q.yaml")
    assert f.sheets == 4 and f.file == "q.yaml" and f.name == "Q♦"
    assert f.mean_total == 25  # (10 + 40 + 20 + 30) / 4
    # sorted 10 20 30 40: p10 at position 0.3 -> 13; p90 at 2.7 -> 30 + 0.7*10 = 37
    assert f.p10_total == pytest.approx(13)
    assert f.p90_total == pytest.approx(37)
    assert f.mean_hand_points == pytest.approx(18.75)  # (8 + 30 + 17 + 20) / 4
    assert f.mean_bonus_points == pytest.approx(4.25)  # (2 + 9 + 0 + 6) / 4
    assert f.mean_chips_earned == 3  # (1 + 2 + 3 + 6) / 4
    assert f.mean_chips_left == 2  # (0 + 1 + 3 + 4) / 4
    assert f.golden_surround_rate == 0.25  # one sheet of four
    a, b, c, fh = f.hands["A"], f.hands["B"], f.hands["C"], f.hands["F"]
    assert a.completion_rate == 0.75 and b.completion_rate == 0.25 and fh.completion_rate == 0.25
    assert c.completion_rate == 0 and f.hands["J"].completion_rate == 0
    assert a.mean_points == 3  # (2 + 0 + 6 + 4) / 4
    assert c.mean_points == 2  # (6 + 0 + 0 + 2) / 4
    assert f.mean_hands_completed == pytest.approx(1.25)  # 0.75 + 0.25 + 0.25
    # Q♦'s hands (DESIGN.md grid): A = a1–d1, F = column a, H = c2–c5 through the Golden Card
    assert (a.cells, a.length, a.reward, a.bonus) == ("a1–d1", 4, "single", 2)
    assert (fh.cells, fh.length) == ("a1–a5", 5)
    assert (f.hands["H"].cells, f.hands["H"].length) == ("c2–c5", 4)
    assert list(f.hands) == list("ABCDEFGHIJ")
    with pytest.raises(ValueError):
        summarize(Q, [])


def _figures(mean_total: float, rates: dict[str, float]) -> bal.SheetFigures:
    f = summarize(Q, [[sheet(0)]], file="x.yaml")
    hands = {k: dataclasses.replace(h, completion_rate=rates.get(k, 1.0)) for k, h in f.hands.items()}
    return dataclasses.replace(f, mean_total=mean_total, hands=hands)


def test_warning_thresholds():
    assert MEAN_TOTAL_TOLERANCE == 0.10 and RARE_COMPLETION == 0.05
    base = _figures(50.0, {})
    assert fairness_warnings(base, base) == []
    # 55 and 45 are exactly 10 % away: not "more than 10 %"
    assert fairness_warnings(_figures(55.0, {}), base) == []
    assert fairness_warnings(_figures(45.0, {}), base) == []
    above = fairness_warnings(_figures(55.5, {}), base)  # 11 % above
    below = fairness_warnings(_figures(44.5, {}), base)  # 11 % below
    assert [w.kind for w in above] == ["mean_total"] == [w.kind for w in below]
    assert "11.0% above" in above[0].message and "11.0% below" in below[0].message
    # a hand on exactly 5 % of sheets is fine; just under is warned about, with its letter and cells
    assert fairness_warnings(_figures(50.0, {"C": 0.05}), base) == []
    rare = fairness_warnings(_figures(50.0, {"C": 0.0499, "H": 0.0}), base)
    assert [(w.kind, w.hand) for w in rare] == [("rare_hand", "C"), ("rare_hand", "H")]
    assert "a3–e3" in rare[0].message and "c2–c5" in rare[1].message
    # a baseline scoring nothing gives no gap rather than a division by zero
    assert bal.mean_total_gap(base, _figures(0.0, {})) is None


# --------------------------------------------------------------------------- runs


def test_figures_do_not_depend_on_the_worker_count(monkeypatch):
    monkeypatch.setattr(play, "BALANCE_CHUNK", 1)  # one game per task: tasks finish out of order on two workers
    one = balance(["k-spades"], games=3, players=2, seed=7, workers=1).report()
    two = balance(["k-spades"], games=3, players=2, seed=7, workers=2).report()
    assert one == two
    other = balance(["k-spades"], games=3, players=2, seed=8, workers=1).report()
    assert other["baseline"]["mean_total"] != one["baseline"]["mean_total"] or other["layouts"] != one["layouts"]


def test_figures_are_played_here_when_no_worker_process_can_start(no_worker_processes):
    one = balance(["k-spades"], games=2, players=2, seed=7, workers=1).report()  # one worker: no pool at all
    assert balance(["k-spades"], games=2, players=2, seed=7, workers=2).report() == one


def test_chunks_a_broken_pool_did_not_play_are_played_here(monkeypatch):
    """A worker that cannot fork (or dies) breaks the pool: the chunks it left are played in this process."""
    import concurrent.futures
    from concurrent.futures.process import BrokenProcessPool

    one = balance(["k-spades"], games=4, players=2, seed=7, workers=1).report()
    real = concurrent.futures.as_completed

    def first_then_broken(futures):
        for k, future in enumerate(real(futures)):
            if k == 1:
                raise BrokenProcessPool("a worker could not start")
            yield future

    monkeypatch.setattr(play, "BALANCE_CHUNK", 1)
    monkeypatch.setattr(concurrent.futures, "as_completed", first_then_broken)
    assert balance(["k-spades"], games=4, players=2, seed=7, workers=2).report() == one


UNFAIR = """\
game: allin
golden: 3C
name: "3♣"
grid: |
  *---*---o---o---o---o---o---o
                              |
  o---o---o---o---o---o---o---o
  |
  o---o---o---o---o---o---o---o
                              |
  o---o---o---o---o---o---o---o
  |       |
  o   G   o
  |       |
  o---o---o
hands:
  A: {reward: single, bonus: 2}
  B: {reward: single, bonus: 2}
  C: {reward: single, bonus: 2}
  D: {reward: single, bonus: 2}
  E: {reward: single, bonus: 2}
  F: {reward: single, bonus: 2}
  G: {reward: single, bonus: 2}
  H: {reward: single, bonus: 2}
  I: {reward: single, bonus: 2}
  J: {reward: single, bonus: 2}
"""


def _distances(layout) -> dict:
    """Fewest links from a starting space to each space (the Golden Card is no stepping stone)."""
    grid = layout.grid
    dist = {c: 0 for c in grid.starts}
    todo = deque(grid.starts)
    while todo:
        c = todo.popleft()
        for n in grid.neighbours(c):
            if n not in dist and n != layout.golden_coord:
                dist[n] = dist[c] + 1
                todo.append(n)
    return dist


@pytest.mark.slow
def test_an_unfair_layout_is_warned_about(write_yaml):
    """A snake of four rows of eight from two starting spaces a1, b1, the Golden Card at b5 below it.

    Why six hands can never be completed, by hand: rounds 1 and 2 write starting spaces (0 links
    from a start); from round 3 a card goes next to a written card, so round r writes at most
    r − 2 links away and round 23 at most 21.  The snake runs a1→h1 (0–6), h2→a2 (7–14),
    a3→h3 (15–22), h4→a4 (23–30), and the spaces below it lie further still.  Surrounding the
    Golden Card needs all eight spaces round it, the nearest of them (c4) 28 links away: never,
    so no Golden Deck card is ever written (the only card placed without a link), and
    every space 22 or more links away stays empty: h3, row 4, a5, c5 and row 6.  Hands C (a3–h3),
    D (row 4), E (a6–c6), G (a4–a6), H (c4–c6) and J (h3–h4) each hold one of them: completed on
    0 % of sheets, under the 5 % threshold; the Golden Card is surrounded on none.
    """
    path = write_yaml(UNFAIR, "unfair.yaml")
    lay = load_layout(path)
    dist = _distances(lay)
    far = {c for c, d in dist.items() if d >= 22}
    never = {k for k, h in lay.hands.items() if far & set(h.cells)}
    assert never == set("CDEGHJ")  # the premise of the argument, checked on the parsed grid
    assert min(dist[c] for c in golden_ring(lay.golden_coord)) == 28  # c4, the nearest space round it

    done = run("balance", str(path), "--games", "2", "--players", "2", "--workers", "1", "--json")
    assert done.returncode == 0, done.stderr  # warnings alone exit 0
    rep = json.loads(done.stdout)
    (sheet_,) = rep["layouts"]
    assert sheet_["golden_surround_rate"] == 0
    for letter in "CDEGHJ":
        assert sheet_["hands"][letter]["completion_rate"] == 0
    rare = {w["hand"]: w for w in sheet_["warnings"] if w["kind"] == "rare_hand"}
    assert set("CDEGHJ") <= set(rare)
    lines = UNFAIR.splitlines()
    for letter in "CDEGHJ":  # each warning points at the hand's entry under hands:
        assert rare[letter]["line"] == lines.index(f"  {letter}: {{reward: single, bonus: 2}}") + 1
        assert rare[letter]["col"] == 3
        assert f"unfair.yaml:{rare[letter]['line']}:3: warning: hand {letter} " in done.stderr
    # the layout's own warning (37 spaces, not 24) comes along
    assert any("37 writable spaces" in w for w in sheet_["layout_warnings"])


def test_json_keys_and_q_diamonds_against_itself():
    done = run("balance", "q-diamonds", "--games", "2", "--players", "1", "--workers", "1", "--seed", "3", "--json")
    assert done.returncode == 0, done.stderr
    rep = json.loads(done.stdout)
    sheet_keys = {
        "id",
        "name",
        "file",
        "sheets",
        "mean_total",
        "p10_total",
        "p90_total",
        "mean_hand_points",
        "mean_bonus_points",
        "mean_chips_earned",
        "mean_chips_left",
        "golden_surround_rate",
        "mean_hands_completed",
        "hands",
    }
    assert set(rep) == {"games", "players", "seed", "thresholds", "baseline", "layouts"}
    assert (rep["games"], rep["players"], rep["seed"]) == (2, 1, 3)
    assert rep["thresholds"] == {"mean_total_gap": 0.1, "min_completion_rate": 0.05}
    assert set(rep["baseline"]) == sheet_keys
    (q,) = rep["layouts"]
    assert set(q) == sheet_keys | {"mean_total_gap", "warnings", "layout_warnings"}
    assert set(q["hands"]["A"]) == {"cells", "length", "reward", "bonus", "completion_rate", "mean_points"}
    assert list(q["hands"]) == list("ABCDEFGHIJ")
    # same deals, same bots: Q♦ measured against itself is the baseline exactly
    assert {k: q[k] for k in sheet_keys} == rep["baseline"]
    assert q["mean_total_gap"] == 0 and q["warnings"] == []
    assert rep["baseline"]["sheets"] == 2  # 2 games x 1 player
    # the totals' parts add up: total = hand points + bonuses + chips left, so the means do too
    b = rep["baseline"]
    assert b["mean_total"] == pytest.approx(b["mean_hand_points"] + b["mean_bonus_points"] + b["mean_chips_left"])
    assert b["p10_total"] <= b["mean_total"] <= b["p90_total"]


def test_table_output(write_yaml):
    # a name with rich markup in it is printed as written, not read as markup
    path = write_yaml(UNFAIR.replace('name: "3♣"', 'name: "[b]3♣[/b]"'), "markup.yaml")
    done = run("balance", str(path), "--games", "1", "--players", "1", "--workers", "1")
    assert done.returncode == 0, done.stderr
    assert "Q♦ (baseline)" in done.stdout and "[b]3♣[/b] (markup)" in done.stdout
    assert "Hands of [b]3♣[/b] (markup) beside Q♦'s" in done.stdout
    row_d = next(line for line in done.stdout.splitlines() if " a4–h4 " in line)
    assert row_d.split()[:6] == ["D", "a4–h4", "8", "single", "2", "0%"]  # hand D, never complete (see above)
    assert "markup.yaml:20:3: warning: hand D (a4–h4, 8 spaces) was completed on 0.0% of sheets" in done.stderr


@pytest.mark.parametrize(
    "args, says",
    [
        (["k-spades", "--games", "0"], "--games"),
        (["k-spades", "--players", "9"], "--players"),
        (["k-spades", "--players", "0"], "--players"),
        (["k-spades", "--workers", "0"], "--workers"),
        (["k-spades", "--games", "many"], "--games"),
        (["no-such-sheet"], "no shipped layout"),
        (["missing.yaml"], "file not found"),
        (["poker-deck"], "poker-deck.yaml:2:7: error: this is a deck, not an All In sheet layout"),
        (["fundex-chips"], "this is a chip sheet, not an All In sheet layout"),
        (["flip7-pad"], "this is a score pad, not an All In sheet layout"),
        (["flip7-tick-pad"], "this is a tick pad, not an All In sheet layout"),
        (["fundex-ledger"], "this is a ledger, not an All In sheet layout"),
        ([], "Missing argument"),
    ],
)
def test_bad_options_and_unreadable_layouts_exit_2(args, says):
    done = run("balance", *args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert says in done.stderr
    assert "Traceback" not in done.stderr


def test_an_invalid_layout_exits_2_before_any_game(write_yaml):
    path = write_yaml(UNFAIR.replace("golden: 3C", "golden: 3X"), "broken.yaml")
    done = run("balance", str(path))
    assert done.returncode == 2
    assert "broken.yaml:2:9: error: golden:" in done.stderr
    assert "playing" not in done.stderr


def test_job_refuses_bad_options_itself():
    with pytest.raises(SheetsmithError):
        balance([], games=1)
    with pytest.raises(SheetsmithError):
        balance(["k-spades"], games=0)
    with pytest.raises(SheetsmithError):
        balance(["k-spades"], games=1, players=9)
    assert play.check_balance_options(1, 1, 10_000) >= 1  # more workers than CPUs: cut down, not refused
