"""Thin backends: each translates scene primitives (mm) to one output format.

* :mod:`.pdf` — vector PDF through reportlab, fonts embedded (the print file);
* :mod:`.svg` — SVG through svgwrite, fonts embedded as data;
* :mod:`.png` — a raster preview rendered *from the PDF* with pypdfium2, so a
  preview shows exactly what prints.

Every backend returns bytes; :func:`generator.core.output.write_atomic` puts them on disk.
"""

from __future__ import annotations

from typing import Sequence

from generator.printing.scene import Scene

FORMATS = ("pdf", "svg", "png")


def render_bytes(pages: Sequence[Scene], fmt: str, *, dpi: int = 150) -> bytes:
    """Render pages to ``fmt`` (``pdf``, ``svg`` or ``png``) and return the file's bytes.

    SVG and PNG hold one page; for several pages they show the first (use PDF
    for the whole document).

    Raises:
        ValueError: unknown format.
    """
    if fmt == "pdf":
        from generator.printing.backends.pdf import render_pdf

        return render_pdf(pages)
    if fmt == "svg":
        from generator.printing.backends.svg import render_svg

        return render_svg(pages[0])
    if fmt == "png":
        from generator.printing.backends.png import render_png

        return render_png(pages, dpi=dpi)
    raise ValueError(f"unknown format '{fmt}'; use one of {', '.join(FORMATS)}")
