"""``sheetsmith serve`` as a person starts it: a real process, its printed address, the token on ``--lan``."""

from __future__ import annotations

import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import numpy as np
import pytest

from generator.web.serve import qr_text


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(tmp_path, *args):
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from generator.cli.app import main; main()",
            "serve",
            *args,
            "--data-dir",
            str(tmp_path / "data"),
            "--workers",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )


def read_until(proc, pattern: str, timeout: float = 120) -> str:
    seen = ""
    end = time.time() + timeout
    while time.time() < end:
        line = proc.stdout.readline()
        if not line:
            break
        seen += line
        if re.search(pattern, seen):
            return seen
    raise AssertionError(f"not printed: {pattern!r}; got:\n{seen}")


def get(url: str) -> tuple[int, str]:
    for _ in range(600):  # the address is printed just before uvicorn listens
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"{url}: no answer")


def stop(proc) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.mark.slow
def test_serve_prints_its_address_and_serves_this_computer_only(tmp_path):
    port = free_port()
    proc = start(tmp_path, "--port", str(port))
    try:
        out = read_until(proc, r"open http://127\.0\.0\.1:\d+/")
        assert f"http://127.0.0.1:{port}/" in out and "token" not in out
        status, body = get(f"http://127.0.0.1:{port}/")
        assert status == 200 and "At the table" in body
    finally:
        stop(proc)
    assert (tmp_path / "data" / "sheetsmith-web.sqlite3").exists()


@pytest.mark.slow
def test_serve_lan_needs_the_token_it_prints(tmp_path):
    port = free_port()
    proc = start(tmp_path, "--lan", "--port", str(port))
    try:
        out = read_until(proc, r"Without the token")
        token = re.search(r"\?token=([A-Za-z0-9_-]+)", out).group(1)
        assert len(token) >= 20 and "█" in out  # the QR code is drawn
        assert get(f"http://127.0.0.1:{port}/")[0] == 401
        assert get(f"http://127.0.0.1:{port}/?token=not-{token}")[0] == 401
        # a browser: the code is set in a cookie and taken out of the address
        jar = http.cookiejar.CookieJar()
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        with browser.open(f"http://127.0.0.1:{port}/?token={token}", timeout=10) as r:
            assert r.status == 200 and r.url == f"http://127.0.0.1:{port}/"
        assert {c.name: c.value for c in jar}["sheetsmith_token"] == token
    finally:
        stop(proc)


def test_the_terminal_qr_code_reads_back_as_the_address():
    import cv2

    url = "http://192.168.1.20:8000/?token=abcDEF123_-xyz"
    rows = qr_text(url).split("\n")
    # each character is one module wide and two high: █ dark/dark, ' ' light/light, ▀ dark over light, ▄ light over dark
    top = {"█": 0, " ": 255, "▀": 0, "▄": 255}
    bottom = {"█": 0, " ": 255, "▀": 255, "▄": 0}
    modules = np.array([[m[c] for c in row] for row in rows for m in (top, bottom)], dtype=np.uint8)
    img = cv2.resize(np.pad(modules, 4, constant_values=255), None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(img)
    assert text == url


def test_serve_on_a_port_in_use_says_so_before_printing_an_address(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        proc = start(tmp_path, "--port", str(port))
        out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert f"port {port} is in use" in out and "--port" in out
    assert "open http" not in out and "Traceback" not in out


@pytest.mark.parametrize("what", ["a file", "a damaged database"])
def test_serve_with_a_data_folder_it_cannot_use_says_which_and_exits_2(tmp_path, what):
    data = tmp_path / "data"
    if what == "a file":
        data.write_text("not a folder", encoding="utf-8")
        expected = "is a file, not a folder"
    else:
        data.mkdir()
        (data / "sheetsmith-web.sqlite3").write_bytes(os.urandom(4096))
        expected = "cannot be used as the games database"
    proc = start(tmp_path, "--port", str(free_port()))
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 2 and expected in out and "--data-dir" in out
    assert "open http" not in out and "Traceback" not in out


def test_a_database_damaged_past_its_header_is_refused_when_opened(tmp_path):
    from generator.core.errors import OutputError
    from generator.web.store import Store

    store = Store(tmp_path)
    for i in range(100):
        store.create_game("flip7", f"game {i}", {"players": ["Ann", "Bob", "Cy"], "note": "x" * 500})
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    db = tmp_path / "sheetsmith-web.sqlite3"
    data = bytearray(db.read_bytes())
    data[4096:8192] = b"\xff" * 4096  # the header (page 1) is whole; page 2 is not
    db.write_bytes(bytes(data))
    with pytest.raises(OutputError, match="cannot be used as the games database .*malformed.*move it away"):
        Store(tmp_path)
