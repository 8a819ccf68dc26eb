"""The user jobs of sheetsmith, each a plain function: paths or data in, data out.

The command line (:mod:`generator.cli`) and the web page (:mod:`generator.web`) are
thin faces over these functions: they parse arguments, call a job, then print or
serve what it returns.  No job prints, and no face does a job's work.

* :mod:`.check` — validate layout, deck, chip sheet, pad and ledger files;
* :mod:`.render` — one item on one paper (:func:`~.render.render_item`), every shipped
  item (:func:`~.render.build_items`); :mod:`.targets` — where they are written;
  :mod:`.watch` — check and render a file again on every save;
* :mod:`.verify` — finished paper by its ``game:``: All In sheets (typed in or
  photographed, :mod:`.photos`), Flip 7 pads, Fundex and Flip Flop round logs;
* :mod:`.play` — referee an All In game log, bot games, is my sheet fair?;
* :mod:`.show`, :mod:`.new`, :mod:`.schema` — what a layout holds, a sheet of your
  own to start from, the JSON Schemas of the file kinds.

Results carry their findings as :class:`~generator.core.errors.Problem` lists and
an ``exit_code``: 0 nothing wrong, 1 problems found.  Input that cannot be read
raises :class:`~generator.core.errors.InputError` (exit code 2); a rule broken
where no report can follow raises :class:`~generator.core.errors.FindingsError`
(exit code 1).
"""
