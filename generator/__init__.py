"""sheetsmith: YAML layouts to printable game material, and a rules engine that checks finished sheets.

The import package is ``generator``; the command is ``sheetsmith`` (see ``generator.cli``).
"""

__version__ = "0.1.0"
