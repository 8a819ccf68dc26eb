"""The web page of ``sheetsmith serve`` (see :mod:`generator.web.app`)."""
