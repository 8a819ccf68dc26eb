"""Photo input and output: formats by content (HEIC), files that are not photos, the pair written
as one unit, the checksum over the whole ``.read.yaml``, file names with control characters,
photos read in parallel, the reader's on-disk cache (issue 11).

The expected messages are the ones docs/photos.md promises; the photos are synthetic
(``tests/synth/sheet_photos.py``), their truth the typed-in sheet they were drawn from.
"""

from __future__ import annotations

import errno
import hashlib
import io
import os
import struct
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from generator.core.errors import InputError, OutputError
from generator.core.filetypes import looks_like_photo, sniff
from generator.core.shipped import resolve_layout
from generator.games.allin.bot import simulate_game
from generator.games.allin.layout import load_layout
from generator.printing.paper import paper
from generator.reader.errors import PhotoError
from generator.reader.image import MAX_BYTES, load_photo
from tests.synth.sheet_photos import HandStyle, Pen, clean_params, synth_photo

READS = "sheetsmith reads photos (JPEG, PNG, HEIC, WebP, TIFF) or typed-in sheets (.yaml)"


def run_cli(*args, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "generator", "verify", *map(str, args)], capture_output=True, cwd=cwd, timeout=timeout
    )


@pytest.fixture(scope="module")
def game():
    lay = load_layout(resolve_layout("q-diamonds"))
    return simulate_game(lay, ["Ann", "Bob"], 11).result


@pytest.fixture(scope="module")
def photo(game):
    """A clean 1600 × 1200 JPEG of Ann's sheet (bytes)."""
    p = clean_params(rotation=-95.0)
    style = HandStyle(Pen("blue", (0.12, 0.25, 0.65), 0.4), box_mark="tick", bubble="full")
    return synth_photo(game.sheets[0], paper("a4"), 11, params=p, style=style, dpi=150, game=game.score).jpeg


def assert_reads(reading, sheet) -> None:
    assert reading.uncertain == []
    assert {c: cr.card.code for c, cr in reading.cells.items() if cr.card} == {
        c: k.code for c, k in sheet.cards.items()
    }
    assert (reading.chips_earned.value, reading.chips_spent.value) == (sheet.chips_earned, sheet.chips_spent)


def error_of(path: Path) -> str:
    with pytest.raises(PhotoError) as exc:
        load_photo(path, path.name)
    return exc.value.message


# --- formats, judged by content ------------------------------------------------------------------------


def heic_bytes(rgb: np.ndarray, quality: int = 90) -> bytes:
    import pillow_heif
    from PIL import Image

    buf = io.BytesIO()
    pillow_heif.from_pillow(Image.fromarray(rgb)).save(buf, quality=quality)
    return buf.getvalue()


def test_a_heic_photo_named_jpg_is_decoded_by_its_content(tmp_path):
    # a tiny HEIC: left half pure red, right half pure blue (RGB); sent as ".jpg" as phones do
    rgb = np.zeros((640, 800, 3), np.uint8)
    rgb[:, :400] = (255, 0, 0)
    rgb[:, 400:] = (0, 0, 255)
    path = tmp_path / "IMG_0001.jpg"
    path.write_bytes(heic_bytes(rgb))
    assert path.read_bytes()[4:12] == b"ftypheic"
    assert sniff(path.read_bytes()[:64]) == ("photo", "HEIC")
    img = load_photo(path, "IMG_0001.jpg")
    assert img.shape == (640, 800, 3)
    # BGR order: red is (0, 0, 255), blue (255, 0, 0); HEVC is lossy, so within a margin
    assert np.abs(img[320, 100].astype(int) - (0, 0, 255)).max() < 40
    assert np.abs(img[320, 700].astype(int) - (255, 0, 0)).max() < 40


@pytest.mark.slow
def test_a_heic_photo_of_a_sheet_reads_like_the_jpeg(tmp_path, game, photo):
    import cv2

    from generator.reader import read_photo

    rgb = cv2.cvtColor(cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    path = tmp_path / "ann.heic"
    path.write_bytes(heic_bytes(rgb, quality=92))
    assert_reads(read_photo(path), game.sheets[0])


def test_heic_without_pillow_heif_says_how_to_get_a_jpeg(tmp_path, monkeypatch):
    import generator.reader.image as image

    path = tmp_path / "IMG_0002.jpg"
    path.write_bytes(heic_bytes(np.full((640, 800, 3), 200, np.uint8)))
    monkeypatch.setattr(image, "_HEIF_READY", [])
    monkeypatch.setitem(sys.modules, "pillow_heif", None)  # import fails as if it were not installed
    assert error_of(path) == (
        "this is a HEIC photo, and pillow-heif, which sheetsmith reads HEIC with, is not installed: "
        "install it (pip install pillow-heif), or save the photo as JPEG (on an iPhone: Settings > Camera > Formats > "
        "Most Compatible)"
    )


def tiff_header(tags: list[tuple[int, int, int]]) -> bytes:
    """A little-endian TIFF whose first directory holds ``tags`` as (tag, type, value), type 3 SHORT or 4 LONG."""
    entries = b"".join(
        struct.pack("<HHI", tag, typ, 1) + struct.pack("<I" if typ == 4 else "<HH", value, *(() if typ == 4 else (0,)))
        for tag, typ, value in tags
    )
    return (
        b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", len(tags)) + entries + b"\x00\x00\x00\x00" + b"\x00" * 256
    )


@pytest.mark.parametrize(
    "name, content, message",
    [
        (
            "scan.jpg",
            b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n" + b"\x00" * 100,
            f"this is a PDF document; {READS}: photograph the printed sheet, or save the page as a PNG or JPEG image",
        ),
        (
            "IMG_0003.CR3",
            b"\x00\x00\x00\x18ftypcrx \x00\x00\x00\x01crx isom" + b"\x00" * 100,
            f"this is a camera RAW file (Canon CR3); {READS}: export it as JPEG from the camera's or computer's photo "
            "app, "
            "or set the camera to save JPEG",
        ),
        (
            "IMG_0004.jpg",
            tiff_header([(254, 4, 0), (256, 4, 6000), (50706, 4, 0x00000401)]),
            f"this is a camera RAW file (Adobe DNG); {READS}: export it as JPEG from the camera's or computer's photo "
            "app, "
            "or set the camera to save JPEG",
        ),
        (
            "DSC_0005.NEF",
            tiff_header([(254, 4, 1), (256, 4, 160), (330, 4, 4000)]),
            f"this is a camera RAW file (Nikon NEF); {READS}: export it as JPEG from the camera's or computer's photo "
            "app, "
            "or set the camera to save JPEG",
        ),
        (
            "IMG_0006.jpg",
            b"\x00\x00\x00\x14ftypqt  \x00\x00\x02\x00qt  " + b"\x00" * 100,
            f"this is a video (QuickTime MOV); {READS}: take a still photo of the sheet, or save one frame of the "
            "video as a JPEG",
        ),
        (
            "clip.jpg",
            b"\x00\x00\x00\x20ftypisom\x00\x00\x02\x00isomiso2avc1mp41" + b"\x00" * 100,
            f"this is a video (MP4); {READS}: take a still photo of the sheet, "
            "or save one frame of the video as a JPEG",
        ),
        ("noise.jpg", bytes(range(256)) * 4, f"not an image: {READS}"),
    ],
    ids=["pdf", "cr3", "dng", "nef", "mov", "mp4", "unknown"],
)
def test_formats_that_are_not_photos_are_named_with_how_to_get_a_jpeg(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    assert looks_like_photo(path)
    assert error_of(path) == message


def test_an_ordinary_tiff_and_png_are_photos_by_content_whatever_their_name(tmp_path):
    import cv2

    img = np.full((700, 900, 3), 128, np.uint8)
    img[:, :450] = (0, 0, 255)  # red, BGR
    for name, ext in (("a.bin", ".tif"), ("b", ".png")):
        ok, data = cv2.imencode(ext, img)
        path = tmp_path / name
        path.write_bytes(data.tobytes())
        assert looks_like_photo(path)  # no photo ending: its first bytes decide
        assert sniff(data.tobytes()[:64])[0] == "photo"
        assert (load_photo(path, name)[350, 100] == (0, 0, 255)).all()
    assert not looks_like_photo(tmp_path / "missing")


# --- input that is not a regular file ---------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_called_jpg_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "f.jpg")
    res = run_cli("f.jpg", cwd=tmp_path, timeout=60)  # today it would block forever waiting for a writer
    assert res.returncode == 2
    assert res.stderr.decode() == "f.jpg: error: is a named pipe (FIFO), not a photo file: give the photo itself\n"
    # and an unknown ending is looked at without opening the pipe
    os.mkfifo(tmp_path / "pipe")
    answer = []
    t = threading.Thread(target=lambda: answer.append(looks_like_photo(tmp_path / "pipe")), daemon=True)
    t.start()
    t.join(10)
    assert answer == [False]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_link_to_dev_zero_called_jpg_is_refused_before_reading(tmp_path):
    os.symlink("/dev/zero", tmp_path / "z.jpg")
    res = run_cli("z.jpg", cwd=tmp_path, timeout=60)
    assert res.returncode == 2
    assert (
        res.stderr.decode()
        == "z.jpg: error: is a link to /dev/zero, a device file, not a photo file: give the photo itself\n"
    )


def test_a_3_gb_file_with_a_jpeg_header_is_refused_by_its_size(tmp_path):
    path = tmp_path / "big.jpg"
    with open(path, "wb") as fh:  # sparse: takes no room on the disk
        fh.write(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00")
        fh.truncate(3_000_000_000)
    res = run_cli("big.jpg", cwd=tmp_path, timeout=60)
    assert res.returncode == 2
    assert res.stderr.decode() == (
        "big.jpg: error: the file is 3.0 GB; sheetsmith reads photo files up to 100 MB "
        "(a phone photo is 2 to 10 MB): give a single photo, saved as JPEG\n"
    )
    assert MAX_BYTES == 100_000_000


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda p: p.mkdir(), "is a folder, not a photo file: give the photo itself"),
        (lambda p: p.write_bytes(b""), "the file is empty (0 bytes): copy the photo again"),
        (lambda p: os.symlink("gone.jpg", p), "is a link to gone.jpg, which does not exist"),
    ],
    ids=["folder", "empty", "dangling-link"],
)
def test_other_files_that_are_not_photos(tmp_path, make, message):
    path = tmp_path / "x.jpg"
    make(path)
    assert error_of(path) == message


# --- the pair, written as one unit ------------------------------------------------------------------------


def _fail_on(kind: str, when: str, monkeypatch):
    """Make the ``when``-th (``second``) temporary write or rename fail with a full disk (or Ctrl-C)."""
    import generator.core.output as output

    calls = {"n": 0}
    real = {"write": output._write_temp, "place": output._place}[kind]

    def failing(*args):
        calls["n"] += 1
        if calls["n"] == 2:
            if when == "interrupt":
                raise KeyboardInterrupt
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(*args)

    monkeypatch.setattr(output, {"write": "_write_temp", "place": "_place"}[kind], failing)


@pytest.mark.parametrize(
    "kind, when", [("write", "full"), ("place", "full"), ("write", "interrupt"), ("place", "interrupt")]
)
def test_a_failing_second_file_leaves_neither_new_file(tmp_path, monkeypatch, kind, when):
    from generator.reader.output import write_pair

    y, p = tmp_path / "ann.read.yaml", tmp_path / "ann.read.png"
    _fail_on(kind, when, monkeypatch)
    with pytest.raises(KeyboardInterrupt if when == "interrupt" else OutputError):
        write_pair(y, "game: allin\n", p, b"\x89PNG new")
    assert sorted(os.listdir(tmp_path)) == []  # no pair, no temporaries
    # with an older pair there: it stays as it was, both files
    y.write_text("old yaml\n")
    p.write_bytes(b"old png")
    _fail_on(kind, when, monkeypatch)
    with pytest.raises(KeyboardInterrupt if when == "interrupt" else OutputError):
        write_pair(y, "game: allin\n", p, b"\x89PNG new")
    assert sorted(os.listdir(tmp_path)) == ["ann.read.png", "ann.read.yaml"]
    assert (y.read_text(), p.read_bytes()) == ("old yaml\n", b"old png")
    monkeypatch.undo()
    write_pair(y, "game: allin\n", p, b"\x89PNG new")
    assert (y.read_text(), p.read_bytes()) == ("game: allin\n", b"\x89PNG new")
    assert sorted(os.listdir(tmp_path)) == ["ann.read.png", "ann.read.yaml"]


@pytest.mark.slow
def test_a_full_disk_while_verifying_a_photo_writes_no_pair_and_exits_2(tmp_path, monkeypatch, photo):
    from generator.jobs.photos import photo_inputs

    (tmp_path / "ann.jpg").write_bytes(photo)
    monkeypatch.setenv("SHEETSMITH_CACHE", "off")  # (the reader's cache writes files too: the pair's are counted)
    _fail_on("write", "full", monkeypatch)
    with pytest.raises(OutputError) as exc:
        photo_inputs([tmp_path / "ann.jpg"], layout=None, workers=1)
    assert exc.value.exit_code == 2 and "ann.read.png: cannot write (No space left on device)" in str(exc.value)
    assert sorted(os.listdir(tmp_path)) == ["ann.jpg"]


# --- the checksum covers the whole file ---------------------------------------------------------------------


def checksummed(text: str) -> str:
    return text + f"# sheetsmith read checksum: {hashlib.sha256(text.encode()).hexdigest()[:12]}\n"


def test_the_checksum_covers_the_whole_file():
    from generator.reader.output import edited_by_user

    body = "# Read by sheetsmith from the photo ann.jpg\ngame: allin\nlayout: q-diamonds\nplayer: ann\n"
    text = checksummed(body)
    assert not edited_by_user(text)
    assert edited_by_user(text + "chips: {earned: 3, spent: 1}\n")  # a line added after the checksum line
    assert edited_by_user(text.replace("player: ann", "player: Ann"))
    assert edited_by_user(text.replace("ann.jpg", "bob.jpg"))  # comments count too
    assert edited_by_user(body)  # no checksum line
    assert edited_by_user(text + text.splitlines(keepends=True)[-1])  # two checksum lines


@pytest.mark.slow
def test_a_written_read_yaml_is_unedited_and_any_added_line_is_an_edit(tmp_path, photo, monkeypatch):
    import generator.jobs.photos as photos
    from generator.jobs.photos import photo_inputs
    from generator.reader.output import edited_by_user

    (tmp_path / "ann.jpg").write_bytes(photo)
    photo_inputs([tmp_path / "ann.jpg"], layout=None, workers=1)
    text = (tmp_path / "ann.read.yaml").read_text(encoding="utf-8")
    assert text.splitlines()[-1].startswith("# sheetsmith read checksum: ")
    assert not edited_by_user(text)
    (tmp_path / "ann.read.yaml").write_text(text + "player: Annie\n", encoding="utf-8")
    # refused at once: the photo is not read first (that took seconds, to then write nothing)
    monkeypatch.setattr(photos, "read_photos", lambda *a, **k: pytest.fail("the photo was read"))
    with pytest.raises(
        InputError, match="ann.read.yaml: error: has been edited since sheetsmith read .*ann.jpg into it"
    ):
        photo_inputs([tmp_path / "ann.jpg"], layout=None, workers=1)
    assert (tmp_path / "ann.read.yaml").read_text(encoding="utf-8").endswith("player: Annie\n")


# --- names from the file system ----------------------------------------------------------------------------


def test_a_link_is_named_as_the_user_gave_it(tmp_path, monkeypatch):
    """Messages name the path typed (a link's own name), relative to the working folder when inside it."""
    from generator.core.paths import display_path

    (tmp_path / "photos").mkdir()
    (tmp_path / "photos" / "p0.jpg").write_bytes(b"")
    (tmp_path / "alias.jpg").symlink_to(tmp_path / "photos" / "p0.jpg")
    monkeypatch.chdir(tmp_path)
    assert display_path(Path("alias.jpg")) == "alias.jpg"
    assert display_path(tmp_path / "alias.jpg") == "alias.jpg"
    assert display_path(Path("photos/../alias.jpg")) == "alias.jpg"
    assert display_path(Path("/elsewhere/x.jpg")) == "/elsewhere/x.jpg"


def test_escaping_names():
    from generator.core.names import clean_name, shown

    assert shown("ann.jpg") == "ann.jpg"
    assert shown("Zoë 北.jpg") == "Zoë 北.jpg"
    assert shown("a\nb\tc\x1b[31m\x7f\x85.jpg") == "a\\nb\\tc\\x1b[31m\\x7f\\x85.jpg"
    assert shown("gpj\u202eexe.jpg") == "gpj\\u202eexe.jpg"  # a right-to-left override
    assert shown("line\u2028sep") == "line\\u2028sep"
    assert shown(os.fsdecode(b"caf\xe9.jpg")) == "caf\\xe9.jpg"  # a Latin-1 byte, not UTF-8
    assert clean_name("an\nn\x1b[31m") == "an n [31m"
    assert clean_name("\x00\x01") == "player"
    assert clean_name("x" * 80) == "x" * 60


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="file names with control characters are POSIX")
def test_a_photo_named_with_control_characters_round_trips(tmp_path, photo, game):
    from generator.games.allin.typed_sheet import load_allin_sheet

    name = "an\nn\x1b[31m\u202e.jpg"
    (tmp_path / name).write_bytes(photo)
    res = run_cli(name, "--json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    err = res.stderr.decode()
    assert "\x1b" not in err and "\u202e" not in err and err.count("\n") == 1  # one line, nothing raw
    assert err.startswith("an\\nn\\x1b[31m\\u202e.jpg: read into an\\nn\\x1b[31m\\u202e.read.yaml and ")
    yaml_path = tmp_path / "an\nn\x1b[31m\u202e.read.yaml"
    text = yaml_path.read_text(encoding="utf-8")
    assert "# Read by sheetsmith from the photo an\\nn\\x1b[31m\\u202e.jpg (1600 × 1200)." in text
    assert "\x1b" not in text and "\u202e" not in text
    sheet = load_allin_sheet(yaml_path)  # sheetsmith accepts what it wrote
    assert sheet.player == "an n [31m" and sheet.cards == game.sheets[0].cards
    # a name that is not UTF-8 at all
    raw = os.fsdecode(b"caf\xe9.jpg")
    (tmp_path / raw).write_bytes(photo)
    res = run_cli(raw, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stderr.decode().startswith("caf\\xe9.jpg: read into caf\\xe9.read.yaml and caf\\xe9.read.png")
    assert load_allin_sheet(tmp_path / os.fsdecode(b"caf\xe9.read.yaml")).player == "caf"


# --- photos read in parallel ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_photos_are_read_in_parallel_in_input_order_with_errors_per_photo(tmp_path, photo, game):
    from generator.jobs.photos import PhotoFailure, read_photos

    (tmp_path / "ann.jpg").write_bytes(photo)
    (tmp_path / "bad.jpg").write_bytes(b"%PDF-1.4\n")
    (tmp_path / "ann2.jpg").write_bytes(photo)
    seen: list[tuple[int, str]] = []
    results = read_photos(
        [tmp_path / "ann.jpg", tmp_path / "bad.jpg", tmp_path / "ann2.jpg"],
        workers=2,
        progress=lambda i, stage: seen.append((i, stage)),
    )
    assert [type(r).__name__ for r in results] == ["PhotoReading", "PhotoFailure", "PhotoReading"]
    assert [r.player for r in (results[0], results[2])] == ["ann", "ann2"]
    for r in (results[0], results[2]):
        assert_reads(r, game.sheets[0])
        assert r.annotated[:8] == b"\x89PNG\r\n\x1a\n"
    fail = results[1]
    assert isinstance(fail, PhotoFailure) and fail.exit_code == 2
    assert fail.message.startswith("this is a PDF document;")
    order = ["waiting", "reading", "drawing", "done", "failed"]
    for i in range(3):
        stages = [s for j, s in seen if j == i]
        assert stages == sorted(stages, key=order.index) and stages[-1] == ("failed" if i == 1 else "done")


def test_photos_are_read_here_when_no_worker_process_can_start(tmp_path, photo, no_worker_processes):
    """A sandbox that refuses the fork server's socket: the photos are read one by one in this process."""
    from generator.jobs.photos import PhotoFailure, read_photos

    (tmp_path / "ann.jpg").write_bytes(photo)
    (tmp_path / "bad.jpg").write_bytes(b"%PDF-1.4\n")
    results = read_photos([tmp_path / "ann.jpg", tmp_path / "bad.jpg"], workers=2)
    assert type(results[0]).__name__ == "PhotoReading" and results[0].player == "ann"
    assert isinstance(results[1], PhotoFailure) and results[1].message.startswith("this is a PDF document;")


@pytest.mark.slow
def test_photos_and_a_typed_in_sheet_verify_as_one_game_through_the_command_line(tmp_path, photo, game):
    import io
    import json

    from PIL import Image

    from generator.games.allin.filled import FilledSheet
    from generator.games.allin.game_log import write_sheet
    from generator.games.allin.scoring import report, score_game

    (tmp_path / "ann.jpg").write_bytes(photo)
    # cy's sheet is filled like ann's; its photo is another file (the same file twice is refused as one sheet twice)
    Image.open(io.BytesIO(photo)).save(tmp_path / "cy.jpg", quality=95)
    write_sheet(tmp_path / "bob.yaml", game.sheets[1])
    res = run_cli("ann.jpg", "bob.yaml", "cy.jpg", "--json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    ann = game.sheets[0]
    want = report(
        score_game(
            [
                FilledSheet(ann.layout, "ann", ann.cards, ann.chips_earned, ann.chips_spent),
                game.sheets[1],
                FilledSheet(ann.layout, "cy", ann.cards, ann.chips_earned, ann.chips_spent),
            ]
        )
    )
    assert json.loads(res.stdout) == want
    assert res.stderr.decode().splitlines() == [
        "ann.jpg: read into ann.read.yaml and ann.read.png (all clear)",
        "cy.jpg: read into cy.read.yaml and cy.read.png (all clear)",
    ]


# --- one photo decoded while sheetsmith is imported (generator/reader/early.py) ---------------------------


@pytest.mark.slow
def test_a_photo_decoded_early_reads_exactly_as_one_decoded_in_turn(tmp_path, monkeypatch, photo, game):
    import generator.reader.read as read
    from generator.reader import read_photo
    from generator.reader.early import read_early

    path = tmp_path / "ann.jpg"
    path.write_bytes(photo)
    plain = read_photo(path, display="ann.jpg")
    read_early(path, "ann.jpg")
    monkeypatch.setattr(read, "load_photo", lambda *a, **k: pytest.fail("decoded in turn although decoded early"))
    early = read_photo(path, display="ann.jpg")
    assert_reads(early, game.sheets[0])
    assert {k: v.ink for k, v in early.measurement.inks.items()} == {
        k: v.ink for k, v in plain.measurement.inks.items()
    }
    # taken once: the next reading decodes in turn
    monkeypatch.undo()
    assert_reads(read_photo(path, display="ann.jpg"), game.sheets[0])


def test_an_early_decoding_of_a_file_changed_since_is_not_used(tmp_path, photo):
    import os

    from generator.reader import early

    path = tmp_path / "ann.jpg"
    path.write_bytes(photo)
    early.read_early(path, "ann.jpg")
    early._PENDING[(str(path), "ann.jpg")][1].result()  # (the decoding finished)
    os.utime(path, ns=(1, 1))  # the photo replaced by another (only its time differs here)
    assert early.take_early(path, "ann.jpg") is None
    assert early.take_early(path, "ann.jpg") is None  # nothing was started for it any more


@pytest.mark.slow
def test_an_early_decoding_of_a_file_rewritten_in_place_with_its_time_put_back_is_not_used(tmp_path, photo):
    from generator.reader import early

    path = tmp_path / "ann.jpg"
    path.write_bytes(photo)
    before = os.stat(path)
    early.read_early(path, "ann.jpg")
    early._PENDING[(str(path), "ann.jpg")][1].result()  # (the decoding finished)
    with open(path, "r+b") as fh:  # another photo of the same size written over it, as rsync --inplace --times does
        fh.write(photo)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # same inode, size and modification time
    assert early.take_early(path, "ann.jpg") is None


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_an_early_decoding_fails_with_the_message_of_one_in_turn(tmp_path):
    from generator.reader.early import read_early, take_early

    text = tmp_path / "notes.jpg"
    text.write_text("not a photo at all\n")
    fifo = tmp_path / "f.jpg"
    os.mkfifo(fifo)  # must not hang: the file's type is checked before a byte is read
    for path in (text, fifo):
        read_early(path, path.name)
        with pytest.raises(PhotoError) as exc:
            take_early(path, path.name)
        assert exc.value.message == error_of(path)
    assert take_early(tmp_path / "missing.jpg", "missing.jpg") is None  # nothing could be started


# --- the reader's cache ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_blank_sheet_comes_from_the_disk_cache_and_a_changed_layout_misses_it(tmp_path, monkeypatch, photo, game):
    import generator.printing.backends.pdf as pdf
    import generator.reader.marks as marks
    import generator.reader.read as read
    from generator.reader import read_photo

    monkeypatch.setenv("SHEETSMITH_CACHE", str(tmp_path / "cache"))
    (tmp_path / "ann.jpg").write_bytes(photo)

    def forget():  # what a fresh process does not have
        marks._TEMPLATES.clear()
        marks._DARKNESS.clear()
        marks.marker_models.cache_clear()
        marks._ideal_markers.cache_clear()
        read._SCENES.clear()

    forget()
    first = read_photo(tmp_path / "ann.jpg")
    names = sorted({p.name.split("-")[0] for p in (tmp_path / "cache").iterdir()})
    assert names == ["darkness", "markers", "scene", "template"]
    # a fresh process: nothing in memory, and nothing may be drawn, rendered or made from the rendering again
    forget()
    monkeypatch.setattr(pdf, "render_pdf", lambda *a, **k: pytest.fail("rendered again"))
    monkeypatch.setattr(marks, "template_darkness", lambda *a, **k: pytest.fail("darkness made again"))
    monkeypatch.setattr(marks, "_ideal_marker", lambda *a, **k: pytest.fail("marker models made again"))
    monkeypatch.setattr(read, "build_allin_sheet", lambda *a, **k: pytest.fail("drawn again"))
    again = read_photo(tmp_path / "ann.jpg")
    assert_reads(again, game.sheets[0])
    assert again.scene.marks == first.scene.marks
    # only the layout the code names is loaded (not every shipped one)
    loaded = []
    real = read._shipped
    monkeypatch.setattr(read, "_shipped", lambda p: loaded.append(p.stem) or real(p))
    read_photo(tmp_path / "ann.jpg")
    assert loaded == ["q-diamonds"]
    # with the cache off, everything is made anew
    monkeypatch.undo()
    monkeypatch.setenv("SHEETSMITH_CACHE", "off")
    forget()
    assert_reads(read_photo(tmp_path / "ann.jpg"), game.sheets[0])


def test_a_changed_layout_file_is_a_cache_miss(tmp_path, monkeypatch):
    from generator.reader.cache import sheet_key

    monkeypatch.setenv("SHEETSMITH_CACHE", str(tmp_path / "cache"))
    src = Path(resolve_layout("q-diamonds"))
    mine = tmp_path / "q-diamonds.yaml"
    mine.write_bytes(src.read_bytes())
    a = sheet_key("q-diamonds", mine, "a4")
    assert a == sheet_key("q-diamonds", src, "a4")  # same bytes, same entry
    assert a != sheet_key("q-diamonds", mine, "letter")
    mine.write_bytes(src.read_bytes().replace(b"bonus: 3", b"bonus: 5", 1))
    assert sheet_key("q-diamonds", mine, "a4") != a
    assert sheet_key("q-diamonds", None, "a4") is None  # a layout without a file is not cached


def test_the_cache_folder_keeps_the_newest_entries_within_its_file_and_byte_bounds(tmp_path, monkeypatch):
    import os

    import generator.reader.cache as cache

    folder = tmp_path / "cache"
    folder.mkdir()
    monkeypatch.setattr(cache, "MAX_ENTRIES", 3)
    monkeypatch.setattr(cache, "MAX_BYTES", 2500)
    for k in range(5):  # 1000 bytes each, written one after another (mtimes 1, 2, ... s)
        cache._store(folder, f"scene-{k}.pickle", bytes(1000))
        os.utime(folder / f"scene-{k}.pickle", (k + 1, k + 1))
    # the byte bound (2500) keeps two of 1000 bytes, the newest; the file bound (3) alone would keep three
    cache._store(folder, "template-new.npy", bytes(1000))
    assert sorted(p.name for p in folder.iterdir()) == ["scene-4.pickle", "template-new.npy"]
    # one entry larger than the whole bound is still kept (the newest is never removed)
    cache._store(folder, "template-big.npy", bytes(4000))
    assert [p.name for p in folder.iterdir()] == ["template-big.npy"]


def test_an_entry_read_is_kept_before_one_unused_longer(tmp_path, monkeypatch):
    """The bounds remove the entries unused longest: a sheet's template read a moment ago outlives an older
    darkness entry of another photo sharpness, however much earlier it was written."""
    import os

    import generator.reader.cache as cache

    monkeypatch.setenv("SHEETSMITH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "MAX_ENTRIES", 2)
    src = Path(resolve_layout("q-diamonds"))
    key = ("q-diamonds", src, "abc", "a4")
    page = np.full((6, 4, 3), 200, np.uint8)
    cache.cached_template(key, 8.0, lambda: page)
    cache.cached_darkness(key, (8.0, 0.0, 0.0, 4, 6, 1.0), (6, 4), lambda: (np.zeros((6, 4), np.float32),) * 2)
    folder = tmp_path / "cache"
    by_kind = {p.name.split("-")[0]: p for p in folder.iterdir()}
    os.utime(by_kind["template"], (1, 1))  # written long ago ...
    os.utime(by_kind["darkness"], (2, 2))
    cache.cached_template(key, 8.0, lambda: pytest.fail("rendered again"))  # ... but read just now
    cache.cached_darkness(key, (8.0, 0.0, 0.0, 4, 6, 1.5), (6, 4), lambda: (np.ones((6, 4), np.float32),) * 2)
    assert sorted(p.name.split("-")[0] for p in folder.iterdir()) == ["darkness", "template"]
    assert by_kind["template"].exists() and not by_kind["darkness"].exists()


def test_the_cache_folder_removes_only_its_own_entries(tmp_path, monkeypatch):
    """SHEETSMITH_CACHE may name a folder with the user's own files (or another run's temporary file in it): the
    bounds count and remove only the cache's entries."""
    import generator.reader.cache as cache

    monkeypatch.setattr(cache, "MAX_ENTRIES", 2)
    monkeypatch.setattr(cache, "MAX_BYTES", 2500)
    folder = tmp_path / "photos"
    folder.mkdir()
    mine = ["ann.jpg", "notes.txt", "scene.pickle", "template-old.npy.bak", "README", ".darkness-x.npy.1a2b3c4d.tmp"]
    for k, name in enumerate(mine):  # older than any entry, and 3000 bytes each: over both bounds by themselves
        (folder / name).write_bytes(bytes(3000))
        os.utime(folder / name, (k + 1, k + 1))
    for k in range(3):
        cache._store(folder, f"scene-{k}.pickle", bytes(1000))
        os.utime(folder / f"scene-{k}.pickle", (100 + k, 100 + k))
    cache._store(folder, "darkness-new.npy", bytes(1000))
    assert sorted(p.name for p in folder.iterdir()) == sorted([*mine, "scene-2.pickle", "darkness-new.npy"])


def test_a_damaged_or_foreign_template_entry_is_rendered_anew(tmp_path, monkeypatch):
    import generator.reader.cache as cache

    monkeypatch.setenv("SHEETSMITH_CACHE", str(tmp_path / "cache"))
    src = Path(resolve_layout("q-diamonds"))
    page = np.full((6, 4, 3), 200, np.uint8)
    key = ("q-diamonds", src, "abc", "a4")
    assert cache.cached_template(key, 8.0, lambda: page) is page  # a miss: rendered, and kept
    (entry,) = (tmp_path / "cache").iterdir()
    assert entry.suffix == ".npy"
    kept = cache.cached_template(key, 8.0, lambda: pytest.fail("rendered again"))
    assert kept.dtype == np.uint8 and (kept == page).all()
    # the page's size is checked when it is known: an entry of another size is rendered anew
    assert cache.cached_template(key, 8.0, lambda: pytest.fail("rendered again"), (0.5, 0.75)) is not None  # 4 x 6 px
    other = np.full((7, 4, 3), 9, np.uint8)
    assert (
        cache.cached_template(key, 8.0, lambda: other, (0.5, 0.5)) is other
    )  # 4 x 4 px expected: 6 rows is 2 too many
    for bad in (b"not numpy at all", _npy(np.zeros((6, 4), np.float32)), _npy(np.zeros((2, 2), object))):
        entry.write_bytes(bad)  # garbage, another array's shape and type, an array of Python objects (never unpickled)
        again = np.full((6, 4, 3), 7, np.uint8)
        assert cache.cached_template(key, 8.0, lambda: again) is again


def test_the_blank_pages_darkness_is_kept_exactly_and_by_colour_softness(tmp_path, monkeypatch):
    import generator.reader.cache as cache

    monkeypatch.setenv("SHEETSMITH_CACHE", str(tmp_path / "cache"))
    src = Path(resolve_layout("q-diamonds"))
    key = ("q-diamonds", src, "abc", "a4")
    rng = np.random.default_rng(3)
    d, lum = rng.random((5, 7), dtype=np.float32), rng.random((5, 7), dtype=np.float32)
    made = cache.cached_darkness(key, (8.0, 1.0, 2.0, 7, 5, 1.25), (5, 7), lambda: (d, lum))
    assert all((a == b).all() for a, b in zip(made, (d, lum)))
    kept = cache.cached_darkness(key, (8.0, 1.0, 2.0, 7, 5, 1.25), (5, 7), lambda: pytest.fail("made again"))
    assert [a.dtype for a in kept] == [np.float32, np.float32]
    assert (kept[0] == d).all() and (kept[1] == lum).all()  # bit for bit: the reading does not change
    # another colour softness (another phone's photo) is another entry
    other = (np.zeros((5, 7), np.float32), np.ones((5, 7), np.float32))
    assert cache.cached_darkness(key, (8.0, 1.0, 2.0, 7, 5, 1.5), (5, 7), lambda: other)[1].all()
    assert len(list((tmp_path / "cache").iterdir())) == 2
    for entry in (tmp_path / "cache").iterdir():  # an entry of another type is made anew
        entry.write_bytes(_npy(np.zeros((2, 5, 7), np.uint8)))
    assert (cache.cached_darkness(key, (8.0, 1.0, 2.0, 7, 5, 1.25), (5, 7), lambda: (d, lum))[0] == d).all()
    # ... and one of another size (a foreign file under the entry's name): compared with a photo, it broke the reading
    for bad in ((2, 4, 7), (2, 5, 8), (3, 5, 7), (2, 5, 7, 1), (2, 35)):
        for entry in (tmp_path / "cache").iterdir():
            entry.write_bytes(_npy(np.zeros(bad, np.float32)))
        got = cache.cached_darkness(key, (8.0, 1.0, 2.0, 7, 5, 1.25), (5, 7), lambda: (d, lum))
        assert [a.shape for a in got] == [(5, 7), (5, 7)] and (got[0] == d).all() and (got[1] == lum).all()


def test_the_marker_blur_models_come_from_the_cache_exactly(tmp_path, monkeypatch):
    """The blur models of a corner marker are the same for every photo: made once, kept in the reader's cache, and
    read back bit for bit (the photo's measured blur must not change)."""
    import generator.reader.marks as marks

    monkeypatch.setenv("SHEETSMITH_CACHE", str(tmp_path / "cache"))
    marks.marker_models.cache_clear()
    marks._ideal_markers.cache_clear()
    table = marks.marker_models(3, 8.0, 2.0)
    (entry,) = (tmp_path / "cache").iterdir()
    assert entry.name.startswith("markers-") and entry.suffix == ".npy"
    for k, sigma in ((0, 0.0), (5, 0.25), (25, 1.25)):
        centred, _, var = marks._ideal_marker(3, sigma, 8.0, 2.0)
        assert table[k, 0] == var and (table[k, 1:] == centred).all()
    models, variances = marks._ideal_markers(3, (0.25, 1.25), 8.0, 2.0)
    assert models.flags.c_contiguous and (models == table[[5, 25], 1:]).all() and (variances == table[[5, 25], 0]).all()
    # a fresh process: read back, not made again
    marks.marker_models.cache_clear()
    real = marks._ideal_marker
    monkeypatch.setattr(marks, "_ideal_marker", lambda *a: pytest.fail("made again"))
    assert (np.asarray(marks.marker_models(3, 8.0, 2.0)) == table).all()
    # a damaged entry is made anew
    marks.marker_models.cache_clear()
    monkeypatch.setattr(marks, "_ideal_marker", real)
    entry.write_bytes(_npy(np.zeros((26, 5), np.float64)))
    assert (np.asarray(marks.marker_models(3, 8.0, 2.0)) == table).all()
    marks.marker_models.cache_clear()
    marks._ideal_markers.cache_clear()


def _npy(arr: np.ndarray) -> bytes:
    import io

    buf = io.BytesIO()
    np.save(buf, arr, allow_pickle=True)
    return buf.getvalue()


@pytest.mark.slow
def test_a_large_jpeg_is_decoded_at_reduced_size_and_reads_the_same(tmp_path, photo, game):
    import cv2

    from generator.reader import read_photo
    from generator.reader.image import KEEP_PX_PER_MM, _reduction
    from generator.reader.markers import detect_markers, fit_sheet

    img = cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_COLOR)
    ppm = fit_sheet(detect_markers(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))).px_per_mm  # about 5 px/mm
    big = cv2.resize(img, (8000, 6000), interpolation=cv2.INTER_CUBIC)  # 48 MP: about 25 px/mm
    ok, data = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    path = tmp_path / "ann.jpg"
    path.write_bytes(data.tobytes())
    want = 4 if 5 * ppm / 4 >= KEEP_PX_PER_MM else 2 if 5 * ppm / 2 >= KEEP_PX_PER_MM else 1
    assert want == 2 and _reduction(data.tobytes(), 8000, 6000) == want
    assert load_photo(path, "ann.jpg").shape == (3000, 4000, 3)
    assert_reads(read_photo(path), game.sheets[0])
    # a 12 MP photo is always decoded whole
    small = cv2.imencode(".jpg", cv2.resize(img, (4000, 3000)))[1].tobytes()
    assert _reduction(small, 4000, 3000) == 1


def test_several_photos_start_the_workers_fork_server_early_and_one_photo_its_decoding(tmp_path, monkeypatch):
    import sys
    from multiprocessing import forkserver

    import generator.jobs.photos as photos
    import generator.reader.early as early

    a, b, sheet = tmp_path / "ann.jpg", tmp_path / "bob.jpg", tmp_path / "cy.yaml"
    for p in (a, b, sheet):
        p.write_bytes(b"")
    calls = []
    # the fork server is told nothing of this process's main module (it would import it: the whole command line)
    monkeypatch.setattr(
        forkserver, "ensure_running", lambda: calls.append(sys.modules["__main__"].__dict__.get("__spec__"))
    )
    monkeypatch.setattr(early, "read_early", lambda path, display: calls.append(("decode", Path(path).name, display)))
    import generator.jobs.photo_service as photo_service

    if photo_service._context().get_start_method() != "forkserver":
        pytest.skip("no fork server on this system (workers are spawned)")
    monkeypatch.setattr(photos, "worker_count", lambda n: min(n, 2))
    photos.start_early([a, b, sheet])
    assert calls == [None]
    calls.clear()
    photos.start_early([a, sheet])  # one photo: decoded in this process
    assert calls == [("decode", "ann.jpg", photos.display_name(a))]
    calls.clear()
    monkeypatch.setattr(photos, "worker_count", lambda n: 1)  # one CPU: the photos are read one after another here
    photos.start_early([a, b])
    assert calls == []


def test_work_done_ahead_gives_its_value_or_none_when_it_failed():
    import threading

    from generator.core.process import DISPOSABLE_THREAD
    from generator.reader.early import Ahead

    names = []
    ok = Ahead(lambda a, b: names.append(threading.current_thread().name) or a * b, 6, 7)
    assert ok.result() == 42 and names == [DISPOSABLE_THREAD]  # made in a thread a finished command need not wait for
    assert Ahead(lambda: 1 / 0).result() is None  # the caller then does the work itself and meets the error


def test_a_photo_worker_starts_as_a_short_command_does(tmp_path):
    """A worker reads a photo or two and ends: its garbage collector runs as rarely as a short command's, and never
    walks what the fork server imported before forking it (frozen); one OpenCV thread (the photos are the parallel
    work)."""
    code = (
        "import gc, cv2\n"
        "import generator.jobs.photo_service as photo_service\n"
        "from generator.core.process import GC_THRESHOLDS\n"
        "photo_service._init_worker(None, True)\n"
        "print(gc.get_threshold() == GC_THRESHOLDS, gc.get_freeze_count() > 1000, cv2.getNumThreads())\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert res.stdout.split() == ["True", "True", "1"], res.stderr
