"""All In (Fundex) — the dice-guessing betting game: :mod:`.rules` (chips, bets and rounds) and
:mod:`.log` (typed-in round logs)."""
