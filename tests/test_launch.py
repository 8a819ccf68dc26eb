"""The console script ends a finished command without Python's teardown (generator/cli/launch.py): its exit
code, its whole output (also through a pipe), exit handlers and still-running threads must come out as
an ordinary exit would leave them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _python(code: str, tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)


def _script(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    """``sheetsmith ARGS`` as the console script runs it (generator.cli.launch.main), output through pipes."""
    code = "import sys; sys.argv = ['sheetsmith', *sys.argv[1:]]\nfrom generator.cli.launch import main\nmain()\n"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )


def test_exit_codes_pass_through_unchanged(tmp_path):
    assert _python("from generator.cli.launch import quick_exit; quick_exit(None)", tmp_path).returncode == 0
    assert _python("from generator.cli.launch import quick_exit; quick_exit(2)", tmp_path).returncode == 2
    text = _python("from generator.cli.launch import quick_exit; quick_exit('stopped: the disk is full')", tmp_path)
    assert (text.returncode, text.stderr) == (1, "stopped: the disk is full\n")  # as Python prints SystemExit('...')


def test_exit_handlers_run_and_buffered_output_is_flushed_first(tmp_path):
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('handler ran'))\n"
        "from generator.cli.launch import quick_exit\n"
        "sys.stdout.write('x' * 200000); sys.stderr.write('no newline')\n"
        "quick_exit(3)\n"
    )
    res = _python(code, tmp_path)
    assert res.returncode == 3
    assert res.stdout == "x" * 200000 + "handler ran\n"
    assert res.stderr == "no newline"


def test_a_running_thread_is_waited_for(tmp_path):
    code = (
        "import threading, time, pathlib\n"
        "def late():\n    time.sleep(0.3); pathlib.Path('late.txt').write_text('done')\n"
        "threading.Thread(target=late).start()\n"
        "from generator.cli.launch import quick_exit\nquick_exit(0)\n"
    )
    res = _python(code, tmp_path)
    assert res.returncode == 0 and (tmp_path / "late.txt").read_text() == "done"


def test_a_disposable_thread_is_not_waited_for(tmp_path):
    # the photo decoded early (generator/reader/early.py) writes nothing: a finished command does not wait for it
    code = (
        "import threading, time\n"
        "from generator.core.process import DISPOSABLE_THREAD\nfrom generator.cli.launch import quick_exit\n"
        "threading.Thread(target=time.sleep, args=(60,), name=DISPOSABLE_THREAD, daemon=True).start()\n"
        "quick_exit(3)\n"
    )
    started = __import__("time").monotonic()
    res = _python(code, tmp_path)
    assert res.returncode == 3 and __import__("time").monotonic() - started < 30


@pytest.mark.parametrize(
    "args, started",
    [
        (["ann.jpg"], ["ann.jpg"]),
        (["--layout", "q-diamonds", "ann.jpg", "--json"], ["ann.jpg"]),
        (["--layout=q-diamonds", "--", "-odd.jpg"], ["-odd.jpg"]),
        (["ann.jpg", "bob.yaml"], ["ann.jpg", "bob.yaml"]),  # start_early picks the photo among them
        (["--jsn", "ann.jpg"], None),  # an option not known here: typer will say what is wrong; nothing started
        (["--help"], None),
    ],
)
def test_verify_starts_decoding_its_photo_from_the_command_line_alone(monkeypatch, args, started):
    import generator.cli.launch as launch
    import generator.jobs.photos as photos

    seen = []
    monkeypatch.setattr(photos, "start_early", lambda files: seen.append(list(files)))
    launch._verify_early(args)
    assert seen == ([started] if started is not None else [])


def test_the_photo_starts_decoding_before_the_layouts_are_imported(tmp_path):
    """The early decoding is only worth it if it starts before the heavy imports (the layouts import
    pydantic: 0.2 s): naming the photo for messages must not pull them in."""
    code = (
        "import sys\n"
        "from generator.cli.launch import _verify_early\n"
        "from generator.reader import early\n"
        "_verify_early(['ann.jpg'])\n"
        "print(sorted(k[1] for k in early._PENDING), 'generator.games.registry' in sys.modules,"
        " 'generator.games.allin.layout' in sys.modules, 'pydantic' in sys.modules, 'cv2' in sys.modules)\n"
    )
    (tmp_path / "ann.jpg").write_bytes(b"\xff\xd8\xff\xe0 not really a JPEG")
    res = _python(code, tmp_path)
    # (OpenCV is imported before the thread starts: the thread then spends its time decoding, not importing)
    assert res.stdout.split() == ["['ann.jpg']", "False", "False", "False", "True"], res.stderr


@pytest.mark.slow
def test_the_console_script_keeps_codes_and_whole_output_through_a_pipe(tmp_path):
    listing = _script(["layouts", "--json"], tmp_path)
    assert listing.returncode == 0
    ids = {item["id"] for item in json.loads(listing.stdout)}  # the whole document arrived
    assert {"q-diamonds", "flip7-deck", "flip7-tick-pad"} <= ids
    missing = _script(["render", "no-such-sheet"], tmp_path)
    assert missing.returncode == 2 and "no shipped layout 'no-such-sheet'" in missing.stderr
    out = tmp_path / "q.pdf"
    made = _script(["render", "q-diamonds", "-o", str(out)], tmp_path)
    assert made.returncode == 0 and made.stdout.startswith(f"wrote {out}")
    assert out.read_bytes().startswith(b"%PDF") and out.read_bytes().rstrip().endswith(b"%%EOF")
    again = _script(["render", "q-diamonds", "-o", str(out)], tmp_path)  # a file of the user's: not replaced
    assert again.returncode != 0 and "--force" in again.stderr


def _full_disk_run(cmd: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    with open("/dev/full", "w") as full:  # every write fails with "No space left on device"
        return subprocess.run(cmd, stdout=full, stderr=subprocess.PIPE, text=True, cwd=tmp_path, timeout=120)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
def test_output_to_a_full_disk_is_an_error_not_a_traceback_nor_a_success(tmp_path):
    entry = "import sys; sys.argv[0] = 'sheetsmith'; from generator.{} import main; main()"
    for module in ("cli.launch", "cli.app"):  # the console script, and python -m generator.cli.app
        for args in (
            ["layouts", "--json"],
            ["layouts"],
            ["render", "q-diamonds", "-o", str(tmp_path / "q.pdf"), "--force"],
        ):
            res = _full_disk_run([sys.executable, "-c", entry.format(module), *args], tmp_path)
            assert res.returncode == 2, (module, args, res.stderr)
            assert res.stderr.endswith(
                "error: the output could not be written (No space left on device): what was printed is incomplete\n"
            ), (module, args, res.stderr)
            assert "Traceback" not in res.stderr


def test_a_reader_that_stops_early_ends_the_run_quietly(tmp_path):
    for args in (["layouts"], ["layouts", "--json"]):
        code = "import sys; sys.argv[0] = 'sheetsmith'; from generator.cli.launch import main; main()"
        p = subprocess.Popen(
            [sys.executable, "-c", code, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path
        )
        p.stdout.close()  # the reader went away before the first line
        err = p.stderr.read().decode()
        assert p.wait(timeout=120) == 1 and err == "", (args, err)


ENTRIES = {"console script": "cli.launch", "python -m generator.cli.app": "cli.app"}
"""Both ways in: ``sheetsmith`` (generator.cli.launch.main, ending with the quick exit) and ``python -m
generator.cli.app``."""


def _closed_run(
    module: str, args: list[str], closed: int, cwd: Path, stderr=subprocess.PIPE
) -> subprocess.CompletedProcess:
    """Run ``sheetsmith ARGS`` with file descriptor ``closed`` (1 or 2) closed, as ``>&-`` / ``2>&-`` start it."""
    import os

    code = f"import sys; sys.argv[0] = 'sheetsmith'; from generator.{module} import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE if closed != 1 else None,
        stderr=stderr if closed != 2 else None,
        text=True,
        cwd=cwd,
        timeout=120,
        preexec_fn=lambda: os.close(closed),
    )


@pytest.mark.slow
@pytest.mark.parametrize("module", ENTRIES.values(), ids=ENTRIES.keys())
def test_a_closed_standard_error_leaves_the_exit_status_and_the_report_alone(module, tmp_path):
    """``2>&-``: the messages are lost, but the status is the contract's (0 / 1 / 2), and no message lands in the
    report on standard output (Python's ``print(file=None)`` prints to standard output)."""
    listing = _closed_run(module, ["layouts", "--json"], 2, tmp_path)
    assert listing.returncode == 0
    assert "q-diamonds" in {item["id"] for item in json.loads(listing.stdout)}
    pad = _closed_run(module, ["verify", "flip7-pad.yaml", "--json"], 2, REPO / "docs" / "examples")
    assert pad.returncode == 1  # Cy's written 22 in round 7 is 8 + 12 = 20 by the cards
    assert json.loads(pad.stdout)["totals"] == {"Ann": 198, "Bob": 201, "Cy": 225}
    missing = _closed_run(module, ["verify", "no-such-sheet.yaml"], 2, tmp_path)
    assert (missing.returncode, missing.stdout) == (2, "")
    usage = _closed_run(module, ["verify"], 2, tmp_path)
    assert (usage.returncode, usage.stdout) == (2, "")


@pytest.mark.slow
@pytest.mark.parametrize("module", ENTRIES.values(), ids=ENTRIES.keys())
def test_a_closed_standard_output_is_output_that_cannot_be_written(module, tmp_path):
    """``>&-``: a report that cannot be written at all ends as a full disk does (status 2, one line), never a
    traceback nor a success; a run that failed anyway keeps its own status."""
    said = "error: the output could not be written (standard output is closed): what was printed is incomplete\n"
    for args in (["layouts"], ["layouts", "--json"], ["verify", "flip7-pad.yaml", "--json"], []):
        res = _closed_run(module, args, 1, REPO / "docs" / "examples")
        assert (res.returncode, res.stderr[-len(said) :]) == (2, said), (args, res.stderr)
        assert "Traceback" not in res.stderr
    missing = _closed_run(module, ["verify", "no-such-sheet.yaml"], 1, tmp_path)
    assert missing.returncode == 2 and missing.stderr == "no-such-sheet.yaml: error: file not found\n"


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("module", ENTRIES.values(), ids=ENTRIES.keys())
def test_standard_error_on_a_full_disk_leaves_the_exit_status_alone(module, tmp_path):
    """``2>/dev/full``: the error message cannot be written; the status must still say what happened
    (it was 1, "problems found", for a missing file)."""
    code = f"import sys; sys.argv[0] = 'sheetsmith'; from generator.{module} import main; main()"
    with open("/dev/full", "w") as full:

        def run(*args, cwd=tmp_path):
            return subprocess.run(
                [sys.executable, "-c", code, *args],
                stdout=subprocess.PIPE,
                stderr=full,
                text=True,
                cwd=cwd,
                timeout=120,
            )

        assert run("verify", "no-such-sheet.yaml").returncode == 2
        assert run("verify").returncode == 2  # a usage error
        pad = run("verify", "flip7-pad.yaml", "--json", cwd=REPO / "docs" / "examples")
        assert pad.returncode == 1 and json.loads(pad.stdout)["totals"]["Cy"] == 225
        assert run("layouts", "--json").returncode == 0


_FAULTS = """
import ctypes, resource, sys
from generator.cli import launch
if sys.argv[1] == "tuned":
    launch.keep_freed_memory()
libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
size = 24 << 20  # an array of a rectified page
first = libc.malloc(size); ctypes.memset(first, 1, size); libc.free(first)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
again = libc.malloc(size); ctypes.memset(again, 1, size)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
def test_a_short_process_reuses_the_memory_it_freed_and_a_server_keeps_the_default(tmp_path, monkeypatch):
    # 24 MB freed and asked for again: fresh pages from the system (some 6,000 page faults), or the same pages
    plain = int(
        subprocess.run([sys.executable, "-c", _FAULTS, "plain"], capture_output=True, text=True, check=True).stdout
    )
    tuned = int(
        subprocess.run([sys.executable, "-c", _FAULTS, "tuned"], capture_output=True, text=True, check=True).stdout
    )
    if plain < 1000:
        pytest.skip(f"this system's allocator already reuses the memory ({plain} page faults)")
    assert tuned < plain / 10
    # the console script tunes a command's process, not a long-running one's
    import gc

    import generator.cli.launch as launch

    calls = []
    monkeypatch.setattr(launch, "keep_freed_memory", lambda: calls.append(True))
    monkeypatch.setattr(gc, "set_threshold", lambda *a: None)  # (the test process keeps its own)
    for argv, tuned_ in (
        (["sheetsmith", "verify", "ann.jpg"], True),
        (["sheetsmith", "serve", "--port", "0"], False),
        (["sheetsmith", "watch", "layouts/q-diamonds.yaml"], False),
    ):
        calls.clear()
        monkeypatch.setattr(sys, "argv", argv)
        launch.quick_start()
        assert calls == ([True] if tuned_ else [])
