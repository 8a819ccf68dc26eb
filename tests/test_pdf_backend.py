"""The PDF backend writes a colour, width, dash or font only when it changes: every object must still
carry its own (read back from the PDF with pypdfium2), and merged marker/QR squares cover exactly
the black cells.
"""

from __future__ import annotations

import ctypes

import pypdfium2 as pdfium
import pypdfium2.raw as raw
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.printing.backends.pdf import MM, render_pdf
from generator.printing.readable import squares_ops
from generator.printing.scene import Line, Paint, Rect, Scene, Text


def _objects(pdf: bytes) -> list[dict]:
    """Every page object of page 1 with its kind, fill/stroke colour, stroke width (pt), dash count, text, font size."""
    doc = pdfium.PdfDocument(pdf)
    page = doc[0]
    text_page = page.get_textpage()
    found = []
    for obj in page.get_objects():
        h = obj.raw
        kind = raw.FPDFPageObj_GetType(h)
        rgba = [ctypes.c_uint() for _ in range(4)]
        raw.FPDFPageObj_GetFillColor(h, *(ctypes.byref(v) for v in rgba))
        fill = tuple(v.value for v in rgba[:3])
        raw.FPDFPageObj_GetStrokeColor(h, *(ctypes.byref(v) for v in rgba))
        stroke = tuple(v.value for v in rgba[:3])
        width = ctypes.c_float()
        raw.FPDFPageObj_GetStrokeWidth(h, ctypes.byref(width))
        item = {
            "kind": kind,
            "fill": fill,
            "stroke": stroke,
            "width": round(width.value, 2),
            "dashes": raw.FPDFPageObj_GetDashCount(h),
        }
        if kind == raw.FPDF_PAGEOBJ_TEXT:
            size = ctypes.c_float()
            raw.FPDFTextObj_GetFontSize(h, ctypes.byref(size))
            n = raw.FPDFTextObj_GetText(h, text_page, None, 0)
            buf = (ctypes.c_ushort * n)()
            raw.FPDFTextObj_GetText(h, text_page, buf, n * 2)
            item["text"] = bytes(buf).decode("utf-16-le").rstrip("\x00")
            item["size"] = round(size.value, 2)
        found.append(item)
    return found


def test_every_object_keeps_its_own_colour_width_dash_and_size_when_states_repeat_and_alternate():
    red, blue, black = "#ff0000", "#0000ff", "#000000"
    scene = Scene(100, 100)
    scene.add(Text(10, 10, "one", 8, color=red))
    scene.add(Text(10, 20, "two", 8, color=red))  # same colour and size: nothing set again
    scene.add(Rect(10, 30, 20, 10, Paint(None, black)))  # the fill switches to black
    scene.add(Text(10, 50, "three", 12, color=red))  # ... and back to red, at another size
    scene.add(Text(50, 50, "turned", 8, color=blue, angle=90))  # set inside its own saved state
    scene.add(Text(10, 60, "four", 12, color=red))  # still red and 12 after that state is restored
    scene.add(Line(10, 70, 90, 70, Paint(blue, None, 0.5, (1.0, 1.0))))  # dashed blue
    scene.add(Line(10, 75, 90, 75, Paint(blue, None, 0.5)))  # solid again: the dash must be cleared
    scene.add(Rect(10, 80, 20, 10, Paint(red, None, 0.2)))  # another width and stroke colour
    got = _objects(render_pdf([scene]))
    texts = {o["text"]: o for o in got if o["kind"] == raw.FPDF_PAGEOBJ_TEXT}
    assert (
        texts["one"]["fill"] == texts["two"]["fill"] == texts["three"]["fill"] == texts["four"]["fill"] == (255, 0, 0)
    )
    assert texts["turned"]["fill"] == (0, 0, 255)
    assert (texts["one"]["size"], texts["three"]["size"], texts["turned"]["size"], texts["four"]["size"]) == (
        8,
        12,
        8,
        12,
    )
    paths = [o for o in got if o["kind"] == raw.FPDF_PAGEOBJ_PATH]
    assert paths[0]["fill"] == (0, 0, 0)
    dashed, solid, outline = paths[1], paths[2], paths[3]
    assert dashed["stroke"] == solid["stroke"] == (0, 0, 255)
    assert dashed["dashes"] == 2 and solid["dashes"] == 0
    assert dashed["width"] == solid["width"] == round(0.5 * MM, 2)
    assert outline["stroke"] == (255, 0, 0) and outline["width"] == round(0.2 * MM, 2)


def _cells_of(ops: tuple, cell: float, n: int) -> set[tuple[int, int]]:
    """The (row, column) cells of an n × n grid covered by the path's rectangles; each cell covered once."""
    covered: list[tuple[int, int]] = []
    i = 0
    while i < len(ops):
        (m, x0, y0), (_, x1, _y), (_, _x, y1) = ops[i], ops[i + 1], ops[i + 2]
        assert m == "M" and ops[i + 4] == ("Z",)
        for r in range(round(y0 / cell), round(y1 / cell)):
            for c in range(round(x0 / cell), round(x1 / cell)):
                covered.append((r, c))
        i += 5
    assert len(covered) == len(set(covered)), "rectangles overlap"
    return set(covered)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.booleans(), min_size=7, max_size=7), min_size=7, max_size=7), st.booleans())
def test_merged_squares_cover_exactly_the_black_cells(matrix, by_columns):
    cell = 1.7
    # the list in row order (a marker as drawn upright) or column order (a page turned a quarter)
    order = [(r, c) for c in range(7) for r in range(7)] if by_columns else [(r, c) for r in range(7) for c in range(7)]
    squares = [(c * cell, r * cell, cell) for r, c in order if matrix[r][c]]
    ops = squares_ops(squares)
    assert _cells_of(ops, cell, 7) == {(r, c) for r in range(7) for c in range(7) if matrix[r][c]}
    assert len(ops) <= 5 * len(squares)


def test_a_run_of_black_modules_is_one_rectangle():
    # one row of three touching squares, then a lone square below the first: two rectangles
    ops = squares_ops([(0, 0, 2), (2, 0, 2), (4, 0, 2), (0, 2, 2)])
    assert ops == (
        ("M", 0, 0),
        ("L", 6, 0),
        ("L", 6, 2),
        ("L", 0, 2),
        ("Z",),
        ("M", 0, 2),
        ("L", 2, 2),
        ("L", 2, 4),
        ("L", 0, 4),
        ("Z",),
    )
