"""Printing: everything between a validated item and the file a printer takes.

The scene (primitives in millimetres) and its PDF, SVG and PNG backends;
fonts, paper sizes and the message catalogues of printed words; the
print-and-play components (decks and their faces, chips, pads and ledgers,
imposition with bleed and crop marks); and the marks a machine reads back
(fiducial markers and the sheet code).  Imports only :mod:`generator.core`.
"""
