"""All In: A Flip&Write Showdown — player sheets written with poker cards.

Rules core: :mod:`.hands` (poker hands), :mod:`.scoring` (a finished sheet and a
game), :mod:`.game` (the referee of a whole game), :mod:`.plausible` (can a
game produce this sheet?), :mod:`.bot` (simple players).  Layouts:
:mod:`.grid` (the ASCII grid) and :mod:`.layout` (the validated layout).
Formats: :mod:`.typed_sheet` (typed-in sheets) and :mod:`.game_log` (game
logs).  Sheets: :mod:`.sheet` (drawing the player sheet).  :mod:`.balance`
compares layouts by bot games.
"""
