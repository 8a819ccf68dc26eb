"""Benchmark: All In hand evaluation against treys over every five-card hand.

Scores all 2,598,960 five-card hands of a 52-card deck with
``generator.games.allin.hands.evaluate`` and, in the same run, with treys
(``treys.Evaluator().evaluate(hand, [])``, lookup tables, lower is better),
then prints the times, hands per second and the ratio ours / treys.  Each
side gets its own card representation built up front (``Card`` objects for
us, treys' ints for treys) and is timed over the same loop shape; the best of
``--repeat`` rounds counts.  One-off setup (our rank table, built on the first
call; treys' lookup tables, built by ``Evaluator()``) is timed separately.

Run from the repository root::

    python benchmarks/bench_hands.py [--repeat 3]

treys is a test extra (``pip install -e .[test]``).  A round takes a few seconds.
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.core.cards import Card, standard_deck  # noqa: E402
from generator.games.allin.hands import evaluate  # noqa: E402

HANDS = 2_598_960


def treys_card(card: Card) -> int:
    from treys import Card as TreysCard

    label = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}.get(card.rank, str(card.rank))
    return TreysCard.new(label + card.suit.lower())


def time_ours(deck: list[Card]) -> float:
    start = time.perf_counter()
    for hand in combinations(deck, 5):
        evaluate(hand)
    return time.perf_counter() - start


def time_treys(evaluator, deck: list[int]) -> float:
    start = time.perf_counter()
    for hand in combinations(deck, 5):
        evaluator.evaluate(list(hand), [])
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="rounds per evaluator; the best counts (default 3)")
    args = parser.parse_args(argv)
    try:
        import treys
    except ImportError:
        print("treys is not installed (pip install treys, or the project's test extra)", file=sys.stderr)
        return 2

    deck = standard_deck()
    start = time.perf_counter()
    evaluate(deck[:5])
    ours_setup = time.perf_counter() - start
    start = time.perf_counter()
    evaluator = treys.Evaluator()
    treys_setup = time.perf_counter() - start
    treys_deck = [treys_card(c) for c in deck]

    print(f"Python {sys.version.split()[0]}; {HANDS:,} five-card hands; best of {args.repeat} round(s)")
    print(f"setup: ours (rank table) {ours_setup * 1e3:.1f} ms, treys (Evaluator()) {treys_setup * 1e3:.1f} ms")
    ours_times, treys_times = [], []
    for round_no in range(1, args.repeat + 1):
        ours_times.append(time_ours(deck))
        treys_times.append(time_treys(evaluator, treys_deck))
        print(f"  round {round_no}: ours {ours_times[-1]:.3f} s, treys {treys_times[-1]:.3f} s")
    ours, theirs = min(ours_times), min(treys_times)
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"all {HANDS:,} five-card hands, best of {args.repeat}")
    for col in ("evaluator", "seconds", "hands/s", "µs/hand", "setup ms"):
        table.add_column(col, justify="right" if col != "evaluator" else "left")
    for name, seconds, setup in (("sheetsmith", ours, ours_setup), ("treys", theirs, treys_setup)):
        table.add_row(
            name, f"{seconds:.3f}", f"{HANDS / seconds:,.0f}", f"{seconds / HANDS * 1e6:.3f}", f"{setup * 1e3:.1f}"
        )
    Console().print(table)
    print(f"ratio ours/treys: {ours / theirs:.3f}  (target: <= 1.0)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
