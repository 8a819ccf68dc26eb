"""``sheetsmith watch FILE`` (issue 15, item 4), run as a user runs it: a real process, real saves, Ctrl-C."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from generator.jobs.new import new_layout

TIMEOUT = 90.0  # seconds to wait for one line on a busy 2-core machine


class Lines:
    """The merged stdout and stderr of a process, line by line, read on a thread."""

    def __init__(self, proc: subprocess.Popen):
        self.q: queue.Queue = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, args=(proc.stdout,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def until(self, text: str) -> list[str]:
        """Every line up to and including the first one containing ``text``."""
        got = []
        deadline = time.monotonic() + TIMEOUT
        while True:
            line = self.q.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, f"the process ended before {text!r}; it printed {self.seen}"
            self.seen.append(line)
            got.append(line)
            if text in line:
                return got


def start_watch(folder: Path) -> subprocess.Popen:
    """``sheetsmith watch w.yaml`` in ``folder``, its output merged and read line by line."""
    return subprocess.Popen(
        [sys.executable, "-m", "generator.cli.app", "watch", "w.yaml"],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
    )


def ctrl_c(proc: subprocess.Popen) -> int:
    """Press Ctrl-C (SIGINT) and return the exit status (the process is killed if it does not end)."""
    proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(timeout=TIMEOUT)
    finally:
        proc.kill()


@pytest.mark.slow
def test_watch_rechecks_and_rerenders_on_every_save_and_stops_cleanly_on_ctrl_c(tmp_path):
    layout = tmp_path / "w.yaml"
    new_layout("allin", layout)
    good = layout.read_text(encoding="utf-8")
    proc = start_watch(tmp_path)
    try:
        lines = Lines(proc)
        first = lines.until("ok, wrote")
        assert first[0] == "watching w.yaml: every save is checked and written to w-a4.pdf; Ctrl-C stops"
        assert first[-1].startswith("ok, wrote w-a4.pdf (") and first[-1].endswith(" s)")
        pdf = tmp_path / "w-a4.pdf"
        assert pdf.read_bytes()[:5] == b"%PDF-"
        before = pdf.stat().st_mtime_ns

        layout.write_text(good.replace("golden: JH", "golden: JX"), encoding="utf-8")  # a typo: nothing written
        broken = lines.until("not written")
        # the skeleton: the schema line, 8 comment lines, game, id, description, then golden: on line 13
        assert any(line.startswith("w.yaml:13:9: error: golden: 'JX' is not a card code") for line in broken)
        assert broken[-1].startswith("not written: 1 error (")
        assert pdf.stat().st_mtime_ns == before

        layout.write_text(good.replace("golden: JH", "golden: 9C"), encoding="utf-8")  # fixed: written again
        assert lines.until("ok, wrote")[-1].startswith("ok, wrote w-a4.pdf (")
        assert pdf.stat().st_mtime_ns > before
    finally:
        code = ctrl_c(proc)
    rest = []
    while True:
        line = lines.q.get(timeout=5)
        if line is None:
            break
        rest.append(line)
    assert code == 0, rest
    assert rest == ["stopped"]
    assert not any("Traceback" in line for line in lines.seen + rest)


def test_watch_of_a_file_that_is_not_there_stops_at_once_with_exit_2(tmp_path):
    """A misspelt name would otherwise be watched for ever, 'not written' on a file that never comes."""
    res = subprocess.run(
        [sys.executable, "-m", "generator.cli.app", "watch", "nothere.yaml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert res.returncode == 2
    assert (
        "nothere.yaml: error: not found; watch follows a layout file that exists (start one with: sheetsmith new allin "
        "FILE)" in res.stdout + res.stderr
    )
    assert "watching" not in res.stdout
    assert list(tmp_path.iterdir()) == []


def test_watch_stopped_on_a_broken_save_exits_1_as_check_would(tmp_path):
    layout = tmp_path / "w.yaml"
    new_layout("allin", layout)
    layout.write_text(layout.read_text(encoding="utf-8").replace("golden: JH", "golden: JX"), encoding="utf-8")
    proc = start_watch(tmp_path)
    try:
        Lines(proc).until("not written")
    finally:
        code = ctrl_c(proc)
    assert code == 1
