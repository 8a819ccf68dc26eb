"""Every file a phone, a scanner or a browser makes: 1-bit and dithered pictures, grey and colour deeper than 8 bits
(12-bit data stored in 16 bits too), transparency, EXIF orientation, files of several pages or frames, and faults
inside the reader, which end in a one-line refusal (exit 2), never a traceback.

The truth of each photo is the typed-in sheet it was drawn from; pixel conversions are checked against values worked
out by hand and against Pillow's own conversions.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageOps

from generator.core.errors import InputError
from generator.core.shipped import resolve_layout
from generator.games.allin.bot import simulate_game
from generator.games.allin.layout import load_layout
from generator.printing.paper import paper
from generator.reader.errors import PhotoError
from generator.reader.image import _rgb8, _scaled, _upright, load_photo
from generator.reader.read import read_photo
from tests.synth.sheet_photos import HandStyle, Pen, clean_params, synth_photo


@pytest.fixture(scope="module")
def game():
    lay = load_layout(resolve_layout("q-diamonds"))
    return simulate_game(lay, ["Ann", "Bob"], 11).result


@pytest.fixture(scope="module")
def photos(game):
    """Ann's and Bob's sheets, each a clean 1600 × 1200 photo, as RGB arrays."""
    p = clean_params(rotation=-95.0, jpeg=95)
    style = HandStyle(Pen("blue", (0.12, 0.25, 0.65), 0.4), box_mark="tick", bubble="full")
    out = []
    for i, sheet in enumerate(game.sheets):
        jpeg = synth_photo(sheet, paper("a4"), 11 + i, params=p, style=style, dpi=150, game=game.score).jpeg
        out.append(np.asarray(Image.open(io.BytesIO(jpeg)).convert("RGB")))
    return out


def assert_reads(path: Path, sheet) -> None:
    reading = read_photo(path)
    assert reading.uncertain == []
    assert {c: cr.card.code for c, cr in reading.cells.items() if cr.card} == {
        c: k.code for c, k in sheet.cards.items()
    }
    assert (reading.chips_earned.value, reading.chips_spent.value) == (sheet.chips_earned, sheet.chips_spent)


def assert_never_wrong(path: Path, sheet) -> None:
    """Every field read is right; the others are flagged (``?``)."""
    reading = read_photo(path)
    truth = {c: k.code for c, k in sheet.cards.items()}
    for cell, cr in reading.cells.items():
        if cr.status != "uncertain":
            assert (cr.card.code if cr.card else None) == truth.get(cell), cell
    for count, value in ((reading.chips_earned, sheet.chips_earned), (reading.chips_spent, sheet.chips_spent)):
        assert count.value in (None, value)


def save(tmp_path: Path, name: str, im: Image.Image, **kw) -> Path:
    path = tmp_path / name
    im.save(path, **kw)
    return path


def grey16(rgb: np.ndarray, bits: int) -> np.ndarray:
    """The photo's grey (0–255) stored in ``bits`` bits (rounded), in a ``uint16`` array."""
    grey = np.asarray(Image.fromarray(rgb).convert("L")).astype(np.float64)
    return np.round(grey / 255 * (2**bits - 1)).astype(np.uint16)


# --- the pixel conversions, by hand and against Pillow -------------------------------------------------------


def test_values_deeper_than_8_bits_are_scaled_by_the_smallest_depth_that_holds_them():
    twelve = np.array([0, 2048, 4095], np.uint16)  # 12-bit data in a 16-bit file
    assert _scaled(twelve).tolist() == pytest.approx([0.0, 2048 / 4095, 1.0])
    sixteen = np.array([0, 4096, 65535], np.uint16)  # 4096 needs 13 bits: the file's data is 14-bit at least
    assert _scaled(sixteen).tolist() == pytest.approx([0.0, 4096 / 65535, 1.0])
    eight_in_16 = np.array([0, 128, 255], np.uint16)
    assert _scaled(eight_in_16).tolist() == pytest.approx([0.0, 128 / 255, 1.0])
    floats = np.array([-0.5, 0.25, np.nan, 1.0], np.float32)  # negative and NaN are black
    assert _scaled(floats).tolist() == pytest.approx([0.0, 0.25, 0.0, 1.0])


def test_transparency_is_laid_over_white_paper():
    # black ink at full, half and no opacity over white paper: black, mid grey, white
    rgba = np.array([[[0, 0, 0, 255], [0, 0, 0, 128], [0, 0, 0, 0], [200, 100, 50, 255]]], np.uint8)
    assert _rgb8(rgba)[0].tolist() == [[0, 0, 0], [127, 127, 127], [255, 255, 255], [200, 100, 50]]
    grey_alpha16 = np.array([[[0, 65535], [0, 0]]], np.uint16)
    assert _rgb8(grey_alpha16)[0].tolist() == [[0, 0, 0], [255, 255, 255]]


@pytest.mark.parametrize("orientation", range(1, 9))
def test_every_exif_orientation_turns_the_picture_as_pillow_does(orientation):
    rgb = np.arange(5 * 7 * 3, dtype=np.uint8).reshape(5, 7, 3)
    im = Image.fromarray(rgb)
    exif = im.getexif()
    exif[0x0112] = orientation
    buf = io.BytesIO()
    im.save(buf, "PNG", exif=exif)
    expected = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(buf.getvalue()))))
    assert np.array_equal(_upright(rgb, orientation), expected)


def test_a_rotated_tiff_is_turned_upright_by_its_orientation_tag(tmp_path, photos):
    upright = photos[0][:700, :900]
    im = Image.fromarray(np.ascontiguousarray(np.rot90(upright, 1)))  # stored turned left: tag 6 turns it back
    exif = im.getexif()
    exif[0x0112] = 6
    path = save(tmp_path, "scan.tif", im, exif=exif)
    assert np.array_equal(load_photo(path, "scan.tif")[:, :, ::-1], upright)


# --- photos in every form, read as the sheet says ------------------------------------------------------------


@pytest.mark.slow
def test_a_dithered_1_bit_photo_reads_exactly(tmp_path, photos, game):
    path = save(tmp_path, "dithered.png", Image.fromarray(photos[0]).convert("1"))  # Floyd–Steinberg
    assert_reads(path, game.sheets[0])


@pytest.mark.parametrize("cut", ["at 128", "at 90", "at 170", "adaptive 31", "adaptive 51", "otsu"])
def test_a_picture_cut_to_black_and_white_is_refused_never_read(tmp_path, photos, cut):
    """Every grey cut to black or white at one level (a scanner's black-and-white mode, a document app): faint
    marks and the colours that tell print from ink are gone, and reading such pictures gave wrong fields without
    a flag (a spent count of 17 for 7, hearts for spades)."""
    import cv2

    grey = np.asarray(Image.fromarray(photos[0]).convert("L"))
    cuts = {
        "at 128": lambda g: np.where(g > 128, 255, 0),
        "at 90": lambda g: np.where(g > 90, 255, 0),
        "at 170": lambda g: np.where(g > 170, 255, 0),
        "adaptive 31": lambda g: cv2.adaptiveThreshold(
            g, 255, cv2.ADAPTIVE_THRESH_GAUSSIAN_C, cv2.THRESH_BINARY, 31, 10
        ),
        "adaptive 51": lambda g: cv2.adaptiveThreshold(g, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 51, 15),
        "otsu": lambda g: cv2.threshold(g, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[1],
    }
    path = save(tmp_path, "bw.png", Image.fromarray(cuts[cut](grey).astype(np.uint8)))
    with pytest.raises(PhotoError) as exc:
        load_photo(path, "bw.png")
    assert exc.value.message.startswith("this is a black-and-white picture (each pixel black or white, no grey)")


def test_lone_dots_tell_a_dithered_picture_from_a_cut_one():
    from generator.reader.image import _lone_dots

    checker = (np.indices((8, 8)).sum(axis=0) % 2 * 255).astype(np.uint8)  # every black pixel alone
    assert _lone_dots(checker) == 1.0
    block = np.full((8, 8), 255, np.uint8)
    block[2:6, 2:6] = 0  # a solid square: no black pixel alone
    assert _lone_dots(block) == 0.0
    block[0, 7] = 0  # one lone dot beside 16 solid pixels
    assert _lone_dots(block) == pytest.approx(1 / 17)


@pytest.mark.slow
@pytest.mark.parametrize("bits", [16, 12])
def test_a_grey_tiff_deeper_than_8_bits_reads_exactly(tmp_path, photos, game, bits):
    path = save(tmp_path, "grey.tif", Image.fromarray(grey16(photos[0], bits)))
    assert_reads(path, game.sheets[0])


@pytest.mark.slow
@pytest.mark.parametrize("bits", [16, 12])
@pytest.mark.parametrize("ext", [".png", ".tif"])
def test_a_colour_file_of_16_bits_per_channel_reads_exactly(tmp_path, photos, game, bits, ext):
    import cv2

    deep = np.round(photos[0].astype(np.float64) / 255 * (2**bits - 1)).astype(np.uint16)
    path = tmp_path / f"deep{ext}"
    assert cv2.imwrite(str(path), deep[:, :, ::-1])
    assert_reads(path, game.sheets[0])


@pytest.mark.slow
def test_a_sheet_whose_paper_is_transparent_reads_exactly(tmp_path, photos, game):
    # black everywhere, the darkness in the alpha channel: what a "remove background" tool saves
    darkness = 255 - np.asarray(Image.fromarray(photos[0]).convert("L"))
    rgba = np.zeros(darkness.shape + (4,), np.uint8)
    rgba[..., 3] = darkness
    path = save(tmp_path, "cut-out.png", Image.fromarray(rgba, "RGBA"))
    assert_reads(path, game.sheets[0])
    la = save(tmp_path, "cut-out-grey.png", Image.fromarray(rgba[..., 2:], "LA"))
    assert_reads(la, game.sheets[0])


@pytest.mark.parametrize(
    "name, kw, message",
    [
        ("two.tif", {}, "this TIFF file holds 2 pages"),
        ("two.webp", {"quality": 90}, "this WebP file holds 2 frames"),
        ("two.gif", {}, "this GIF file holds 2 frames"),
        ("two.png", {}, "this PNG file holds 2 frames"),
    ],
)
def test_a_file_of_several_pages_or_frames_is_refused_never_cut_to_its_first(tmp_path, name, kw, message):
    a = Image.fromarray(np.full((700, 900, 3), 240, np.uint8))
    b = Image.fromarray(np.full((700, 900, 3), 40, np.uint8))
    path = save(tmp_path, name, a, save_all=True, append_images=[b], **kw)
    with pytest.raises(PhotoError) as exc:
        load_photo(path, name)
    assert exc.value.message.startswith(message + "; sheetsmith reads one sheet per photo file")


@pytest.mark.parametrize("fmt, kind", [("HEIF", "HEIC"), ("AVIF", "AVIF")])
def test_an_iphone_or_avif_file_of_several_pictures_is_refused(tmp_path, fmt, kind):
    import pillow_heif

    pillow_heif.register_heif_opener()
    a = Image.fromarray(np.full((700, 900, 3), 240, np.uint8))
    b = Image.fromarray(np.full((700, 900, 3), 40, np.uint8))
    path = save(tmp_path, "two." + kind.lower(), a, format=fmt, save_all=True, append_images=[b])
    with pytest.raises(PhotoError) as exc:
        load_photo(path, path.name)
    assert exc.value.message.startswith(f"this {kind} file holds 2 frames; sheetsmith reads one sheet per photo file")


def test_a_tiff_whose_second_page_is_damaged_is_refused_not_read_as_one(tmp_path, recwarn):
    import struct

    a = Image.fromarray(np.full((700, 900, 3), 240, np.uint8))
    b = Image.fromarray(np.full((700, 900, 3), 40, np.uint8))
    buf = io.BytesIO()
    a.save(buf, "TIFF", save_all=True, append_images=[b])
    data = bytearray(buf.getvalue())
    first = struct.unpack_from("<I", data, 4)[0]  # (Pillow writes little-endian TIFF: "II")
    entries = struct.unpack_from("<H", data, first)[0]
    struct.pack_into("<I", data, first + 2 + 12 * entries, len(data) + 4096)  # page 2 is announced past the end
    path = tmp_path / "damaged.tif"
    path.write_bytes(bytes(data))
    with pytest.raises(PhotoError) as exc:
        load_photo(path, path.name)
    assert "announces more than one page, and a later one is damaged" in exc.value.message
    assert not [w for w in recwarn if "TIFF" in str(w.message) or "IFD" in str(w.message)]


@pytest.mark.parametrize("orientation", range(1, 9))
def test_a_16_bit_colour_tiff_is_turned_upright_once_by_its_orientation_tag(tmp_path, orientation):
    """What a scanner saves turned: the stored pixels are the upright page turned by the inverse of the tag
    (worked out from Pillow's own turning of each tag), written with tifffile."""
    import tifffile

    upright = np.zeros((700, 900, 3), np.uint8)
    upright[:200, :300] = 250  # a bright corner block top left, a red one bottom right: every turn differs
    upright[500:, 700:, 0] = 120
    stored = next(
        c
        for c in (
            np.ascontiguousarray(t(upright))
            for t in (
                lambda x: x,
                lambda x: x[:, ::-1],
                lambda x: x[::-1],
                lambda x: x[::-1, ::-1],
                lambda x: x.swapaxes(0, 1),
                lambda x: x.swapaxes(0, 1)[:, ::-1],
                lambda x: x.swapaxes(0, 1)[::-1],
                lambda x: x.swapaxes(0, 1)[::-1, ::-1],
            )
        )
        if _pillow_upright(c, orientation).shape == upright.shape and (_pillow_upright(c, orientation) == upright).all()
    )
    path = tmp_path / "scan.tif"
    tifffile.imwrite(
        path, stored.astype(np.uint16) * 257, photometric="rgb", extratags=[(274, 3, 1, orientation, False)]
    )
    assert np.array_equal(load_photo(path, path.name)[:, :, ::-1], upright)


def _pillow_upright(rgb: np.ndarray, orientation: int) -> np.ndarray:
    """``rgb`` turned as Pillow turns a picture tagged with EXIF ``orientation``."""
    im = Image.fromarray(rgb)
    exif = im.getexif()
    exif[0x0112] = orientation
    buf = io.BytesIO()
    im.save(buf, "PNG", exif=exif)
    return np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(buf.getvalue()))))


def test_a_two_page_tiff_of_two_players_exits_2_through_the_command_line(tmp_path, photos):
    Image.fromarray(photos[0]).save(tmp_path / "both.tif", save_all=True, append_images=[Image.fromarray(photos[1])])
    r = subprocess.run(
        [sys.executable, "-m", "generator", "verify", "--json", "both.tif"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert r.returncode == 2
    assert r.stderr.strip() == (
        "both.tif: error: this TIFF file holds 2 pages; sheetsmith reads one sheet per photo file and never drops "
        'one: save each page as its own image (a scanner\'s "one file per page" setting) and give them all'
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["both.tif"]


FAULT = """
import sys
import generator.reader.read as read

def fault(*args, **kwargs):
    raise ValueError("zero-size array to reduction operation maximum which has no identity")

read.measure = fault
from generator.cli.launch import main
sys.argv = ["sheetsmith", "verify", *sys.argv[1:]]
main()
"""


def test_a_fault_inside_the_reader_is_a_one_line_refusal_with_exit_2(tmp_path, photos):
    Image.fromarray(photos[0]).save(tmp_path / "ann.png")
    r = subprocess.run(
        [sys.executable, "-c", FAULT, "--json", "ann.png"], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert r.returncode == 2
    assert r.stdout == ""
    assert r.stderr.splitlines() == [
        "ann.png: error: sheetsmith failed while reading this photo (ValueError: zero-size array to reduction "
        "operation maximum which has no identity); this is a fault of sheetsmith's, not of the photo: please send "
        "the photo in with this message, and meanwhile type the sheet in"
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ann.png"]


# --- any image at all: a read, a flagged read, or a clean refusal ---------------------------------------------

MODES = ["1", "L", "LA", "P", "Pt", "RGB", "RGBA", "I;16", "I", "F", "CMYK"]
"""Pillow's modes; ``Pt`` is a palette with one colour transparent."""
FORMATS = {  # the modes each format saves (Pillow)
    "PNG": {"1", "L", "LA", "P", "Pt", "RGB", "RGBA", "I;16"},
    "TIFF": {"1", "L", "LA", "P", "RGB", "RGBA", "I;16", "I", "F", "CMYK"},
    "WEBP": {"RGB", "RGBA"},
    "GIF": {"L", "P", "Pt"},
    "BMP": {"1", "L", "P", "RGB"},
    "JPEG": {"L", "RGB", "CMYK"},
}


def _in_mode(rgb: np.ndarray, mode: str, rng: np.random.Generator) -> Image.Image:
    im = Image.fromarray(rgb)
    if mode in ("I;16", "I", "F"):
        grey = np.asarray(im.convert("L")).astype(np.float64) / 255
        top = {"I;16": float(2 ** int(rng.choice([10, 12, 16])) - 1), "I": 2.0**31 - 1, "F": 1.0}[mode]
        data = grey * top
        return Image.fromarray(
            data.astype({"I;16": np.uint16, "I": np.int32, "F": np.float32}[mode]), mode if mode != "I;16" else None
        )
    if mode in ("LA", "RGBA"):  # transparent in places, or the paper transparent and the print opaque
        lum = np.asarray(im.convert("L"))
        alpha = Image.fromarray(
            rng.choice([0, 128, 255], size=rgb.shape[:2]).astype(np.uint8) if rng.random() < 0.5 else 255 - lum
        )
        base = im.convert(mode[:-1])
        base.putalpha(alpha)
        return base
    if mode == "Pt":
        pal = im.convert("P")
        pal.info["transparency"] = int(rng.integers(0, 256))
        return pal
    return im.convert(mode)


@st.composite
def images(draw, sheet_photo: np.ndarray):
    """An image of any mode, size and format: noise, a flat page, or the sheet's photo cut and scaled."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    mode = draw(st.sampled_from(MODES))
    fmt = draw(st.sampled_from(sorted(f for f, modes in FORMATS.items() if mode in modes)))
    content = draw(st.sampled_from(["noise", "flat", "photo", "photo"]))
    if content == "photo" and draw(st.integers(0, 3)):  # mostly large enough to read, near the photo's own shape
        w = draw(st.integers(1300, 1800))
        h = draw(st.integers(int(w * 0.7), int(w * 0.8)))
    else:
        w, h = draw(st.integers(1, 1800)), draw(st.integers(1, 1800))
    if content == "photo":
        rgb = np.asarray(Image.fromarray(sheet_photo).resize((w, h)))
    elif content == "flat":
        rgb = np.full((h, w, 3), draw(st.integers(0, 255)), np.uint8)
    else:
        rgb = rng.integers(0, 256, size=(h, w, 3), dtype=np.uint8)
    buf = io.BytesIO()
    _in_mode(rgb, mode, rng).save(buf, fmt)
    return fmt, buf.getvalue()


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_any_image_is_read_or_refused_cleanly(tmp_path_factory, photos, data):
    fmt, raw = data.draw(images(photos[0]))
    path = tmp_path_factory.mktemp("any") / f"photo.{fmt.lower()}"
    path.write_bytes(raw)
    try:
        read_photo(path)
        event("read")
    except InputError as exc:
        event("refused")  # a refusal: one message, naming the photo
        assert len(exc.problems) == 1 and exc.problems[0].file.endswith("photo." + fmt.lower())
        assert "sheetsmith failed while reading this photo" not in exc.problems[0].message


def test_12_bit_data_in_16_bits_decodes_as_its_8_bit_picture(tmp_path, photos):
    # the same picture stored in 8 bits and as 12-bit data in 16 bits decodes to within one level
    grey8 = np.asarray(Image.fromarray(photos[0]).convert("L"))
    save(tmp_path, "g8.png", Image.fromarray(grey8))
    save(tmp_path, "g12.tif", Image.fromarray(grey16(photos[0], 12)))
    a = load_photo(tmp_path / "g8.png", "g8.png").astype(int)
    b = load_photo(tmp_path / "g12.tif", "g12.tif").astype(int)
    assert a.shape == b.shape and np.abs(a - b).max() <= 1


@pytest.mark.slow
@pytest.mark.parametrize("seed, scale, angle", [(0, 0.9, 1.0), (1, 1.0, -3.0), (2, 1.2, 5.0), (3, 1.4, 0.5)])
def test_a_photo_of_the_sheet_on_a_screen_is_never_read_wrong(tmp_path, photos, game, seed, scale, angle):
    from tests.synth.screen import screen_photo

    path = save(tmp_path, "screen.jpg", Image.fromarray(screen_photo(photos[0], seed, scale, angle)), quality=90)
    assert_never_wrong(path, game.sheets[0])
