"""PNG backend: the PDF rendered by pdfium (pypdfium2), so the preview shows exactly what prints."""

from __future__ import annotations

import io
import threading
from typing import Sequence

import pypdfium2 as pdfium

from generator.printing.backends.pdf import render_pdf
from generator.printing.scene import Scene

PDFIUM_LOCK = threading.Lock()
"""PDFium is not thread-safe: every use of it in one process goes through this lock (the web page renders
previews for several requests at once; two threads inside PDFium crash the process)."""


def pdf_to_images(pdf: bytes, *, dpi: int = 150) -> list:
    """Rasterise every page of a PDF (bytes) at ``dpi``; returns PIL images (RGB, white background)."""
    with PDFIUM_LOCK:
        doc = pdfium.PdfDocument(pdf)
        try:
            return [
                page.render(scale=dpi / 72, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB") for page in doc
            ]
        finally:
            doc.close()


def pdf_to_png(pdf: bytes, *, dpi: int = 150, page: int = 0) -> bytes:
    """Page ``page`` (0-based, default the first) of a PDF (bytes) as PNG bytes at ``dpi``."""
    with PDFIUM_LOCK:
        doc = pdfium.PdfDocument(pdf)
        try:
            image = doc[page].render(scale=dpi / 72, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB")
        finally:
            doc.close()
    buf = io.BytesIO()
    image.save(buf, format="PNG", dpi=(dpi, dpi), optimize=True)
    return buf.getvalue()


def render_png(pages: Sequence[Scene], *, dpi: int = 150) -> bytes:
    """The first page of ``pages`` as PNG bytes at ``dpi`` (rendered from the PDF)."""
    return pdf_to_png(render_pdf(pages[:1]), dpi=dpi)
