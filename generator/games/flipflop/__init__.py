"""Flip Flop — the rummy-style betting game with three pots: :mod:`.rules` (hands, pots and
settlement) and :mod:`.log` (typed-in round logs)."""
