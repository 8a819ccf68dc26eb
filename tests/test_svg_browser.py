"""The SVG as a real browser draws it matches the PDF (issue 15, item 7).

Headless Chromium (Debian's ``chromium``; nothing here downloads a browser) takes a
screenshot of the Q♦ sheet's SVG; pdfium rasterises the PDF of the same scene at the same
scale.  For every line of text, the browser's picture of the text's box is matched
against the PDF's, shifted pixel by pixel up to 1.3 mm each way; the best match must be
within 0.3 mm of no shift: a space dropped at the start of a text run ("7♠7 ♥" instead
of "7♠ 7♥", the old bug) moves the glyphs after it by a space's width, 0.7 mm at the
aid's 6.4 pt.

Skipped only when chromium is not installed and SHEETSMITH_REQUIRE_BROWSER is unset.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from generator.core.shipped import resolve_layout
from generator.games.registry import load_any, pages_for
from generator.printing.backends.pdf import render_pdf
from generator.printing.backends.svg import render_svg
from generator.printing.paper import paper
from generator.printing.scene import PT, Text, text_width

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCALE = 2  # device pixels per CSS pixel
PX_PER_MM = 96 / 25.4 * SCALE
TOLERANCE_MM = 0.3

pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("SHEETSMITH_REQUIRE_BROWSER"),
    reason="chromium is not installed (apt-get install chromium); set SHEETSMITH_REQUIRE_BROWSER=1 to fail instead",
)


def test_the_svg_keeps_spaces_at_the_ends_of_text_runs():
    scene = pages_for(load_any(resolve_layout("q-diamonds")), paper("a4"))[0][0]
    svg = render_svg(scene).decode("utf-8")
    assert 'xml:space="preserve"' in svg.split(">", 1)[0] and "white-space: pre" in svg
    assert any(t.text.startswith(" ") for t in scene.items if isinstance(t, Text))  # the case exists on Q♦


def _chromium_png(svg_path, png_path, width_mm: float, height_mm: float) -> Image.Image:
    size = f"{round(width_mm * 96 / 25.4)},{round(height_mm * 96 / 25.4)}"
    subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            f"--force-device-scale-factor={SCALE}",
            f"--window-size={size}",
            f"--screenshot={png_path}",
            svg_path.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return Image.open(png_path).convert("L")


def _pdf_png(pdf: bytes) -> Image.Image:
    doc = pdfium.PdfDocument(pdf)
    try:
        return doc[0].render(scale=PX_PER_MM * 25.4 / 72, fill_color=(255, 255, 255, 255)).to_pil().convert("L")
    finally:
        doc.close()


SEARCH = 10  # pixels each way (1.3 mm at 7.56 px/mm)


def _shift(printed: np.ndarray, browser: np.ndarray, box: tuple[int, int, int, int]) -> tuple[int, int] | None:
    """The (dx, dy) in pixels that best lays the browser's window on the PDF's window ``box``; None without ink."""
    x0, y0, x1, y1 = box
    ref = 255.0 - printed[y0:y1, x0:x1].astype(float)
    if ref.sum() < 255 * 6:
        return None
    best, at = None, (0, 0)
    for dy in range(-SEARCH // 2, SEARCH // 2 + 1):
        for dx in range(-SEARCH, SEARCH + 1):
            win = 255.0 - browser[y0 + dy : y1 + dy, x0 + dx : x1 + dx].astype(float)
            cost = np.abs(win - ref).sum() + 1e-3 * (dx * dx + dy * dy)  # ties go to the smaller shift
            if best is None or cost < best:
                best, at = cost, (dx, dy)
    return at


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_chromium_draws_the_svg_text_where_the_pdf_has_it(tmp_path):
    scene = pages_for(load_any(resolve_layout("q-diamonds")), paper("a4"))[0][0]
    (tmp_path / "q.svg").write_bytes(render_svg(scene))
    browser = np.asarray(_chromium_png(tmp_path / "q.svg", tmp_path / "q.png", scene.width, scene.height))
    printed = np.asarray(_pdf_png(render_pdf([scene])))
    h = min(browser.shape[0], printed.shape[0])
    w = min(browser.shape[1], printed.shape[1])
    browser, printed = browser[:h, :w], printed[:h, :w]
    compared, worst = 0, (0.0, "")
    for item in scene.items:
        if not isinstance(item, Text) or item.angle or not item.text.strip():
            continue
        width = text_width(item.text, item.size, item.weight)
        left = item.x - {"start": 0.0, "middle": width / 2, "end": width}[item.anchor]
        pad = 0.3
        box = (
            int((left - pad) * PX_PER_MM),
            int((item.y - item.size * PT * 0.85 - pad) * PX_PER_MM),
            int((left + width + pad) * PX_PER_MM) + 1,
            int((item.y + item.size * PT * 0.25 + pad) * PX_PER_MM) + 1,
        )
        if box[0] - SEARCH < 0 or box[1] - SEARCH < 0 or box[2] + SEARCH > w or box[3] + SEARCH > h:
            continue
        at = _shift(printed, browser, box)
        if at is None:
            continue
        off = max(abs(at[0]), abs(at[1])) / PX_PER_MM
        compared += 1
        if off > worst[0]:
            worst = (off, item.text)
    assert compared > 200  # the scoring aid, labels, letters, rank boxes: most of the sheet's text
    assert worst[0] <= TOLERANCE_MM, f"{worst[1]!r} is {worst[0]:.2f} mm away from where the PDF prints it"
