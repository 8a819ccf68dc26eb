"""The ``sheetsmith`` command: argument parsing and printing over :mod:`generator.jobs`.

:mod:`.launch` is the console entry point, :mod:`.app` the commands, :mod:`.terminal`
the tables they print.
"""
