"""The web page at a busy table: photos in a bounded line, stored by hash within storage limits, a full disk,
photos and typed-in sheets racing each other, each game's own share code, workers that end with the server.

Races are played for real: one request is held inside the photo reader (a gate) while another phone's request
is served, then let go.  Expected values are the documented example sheets (docs/examples) and the bot game's
truth (tests/webphotos.py), never what the page shows.
"""

from __future__ import annotations

import asyncio
import html
import io
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from generator.web.app import create_app

from . import webphotos
from .test_web_api import EXAMPLES, SAME_SITE, add_typed, grid_form, new_allin, new_flip7, store, tap


def client(folder: Path, **kw) -> TestClient:
    kw.setdefault("photo_workers", 1)
    return TestClient(create_app(folder, **kw), raise_server_exceptions=False, headers=SAME_SITE)


@pytest.fixture
def web(tmp_path):
    with client(tmp_path) as c:
        yield c


class Gate:
    """Holds the first photo reading, once read, until :meth:`open` (later readings pass); ``arrived`` is set when
    it is held."""

    def __init__(self, c: TestClient):
        self.pool = c.app.app.state.photos
        self.opened = threading.Event()
        self.arrived = threading.Event()
        real = self.pool.read

        async def held(*args, **kwargs):
            result = await real(*args, **kwargs)
            if self.arrived.is_set():
                return result
            self.arrived.set()
            while not self.opened.is_set():
                await asyncio.sleep(0.02)
            return result

        self.pool.read = held

    def open(self) -> None:
        self.opened.set()


def in_thread(fn, *args, **kwargs) -> tuple[threading.Thread, dict]:
    """Run ``fn`` in a thread (another phone); its answer lands in the returned dict's ``"r"``."""
    out: dict = {}
    t = threading.Thread(target=lambda: out.update(r=fn(*args, **kwargs)))
    t.start()
    return t, out


def wait_until(test, seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def player(c: TestClient, gid: str, name: str) -> dict:
    return next(p for p in store(c).game(gid).data["players"] if p["name"] == name)


def blob_count(c: TestClient, gid: str) -> int:
    with sqlite3.connect(store(c).path) as db:
        return db.execute("SELECT COUNT(*) FROM blobs WHERE game_id = ?", (gid,)).fetchone()[0]


def white_jpeg() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (1200, 900), (250, 250, 245)).save(buf, "JPEG")
    return buf.getvalue()


BOB_TYPED = grid_form(EXAMPLES / "bob.yaml")
BOB_CARDS = {k: v for k, v in BOB_TYPED.items() if not k.startswith("chips")}


# --------------------------------------------------------------------------- races of photos and typed sheets


@pytest.mark.slow
def test_a_photo_still_being_read_is_not_stored_over_a_sheet_typed_in_meanwhile(tmp_path):
    with client(tmp_path) as c:
        gid = new_allin(c)
        pid, _ = add_typed(c, gid, "Bob", BOB_TYPED)
        gate = Gate(c)
        photo = {"photo": ("b.jpg", webphotos.photo(1), "image/jpeg")}
        t, _ = in_thread(c.post, f"/allin/{gid}/p/{pid}/photo", files=photo)
        gate.arrived.wait(60)
        c.post(f"/allin/{gid}/p/{pid}/grid", data=BOB_TYPED)  # typed in again on another phone
        gate.open()
        t.join(60)
        bob = player(c, gid, "Bob")
        assert {k: v for k, v in bob["tokens"].items() if v != "."} == BOB_CARDS  # the typed sheet stands
        assert not bob.get("reading") and blob_count(c, gid) == 0  # and the photo read too late is not kept


@pytest.mark.slow
def test_an_older_photo_finishing_last_does_not_replace_a_newer_one(tmp_path):
    truth = {i: webphotos.game().sheets[i] for i in (1, 2)}
    with client(tmp_path, photo_workers=2) as c:
        gid = new_allin(c)
        r = c.post(f"/allin/{gid}/players", data={"name": "Bob"}, files={"photo": ("1.jpg", webphotos.photo(1))})
        pid = str(r.url).split("/p/")[1]
        gate = Gate(c)
        old, _ = in_thread(c.post, f"/allin/{gid}/p/{pid}/photo", files={"photo": ("a.jpg", webphotos.photo(1))})
        gate.arrived.wait(60)
        newer = c.post(f"/allin/{gid}/p/{pid}/photo", files={"photo": ("b.jpg", webphotos.photo(2))})
        assert newer.status_code == 200
        gate.open()
        old.join(60)
        cards = {k: v for k, v in player(c, gid, "Bob")["tokens"].items() if v not in ".?"}
        from generator.games.allin.grid import cell_name

        assert cards == {cell_name(k): card.code for k, card in truth[2].cards.items()}  # the newer photo's sheet
        assert blob_count(c, gid) == 2  # its photo and read-back only


@pytest.mark.slow
def test_a_new_photo_that_cannot_be_read_keeps_the_sheet_read_before(web):
    gid = new_allin(web)
    r = web.post(f"/allin/{gid}/players", data={"name": "Bob"}, files={"photo": ("b.jpg", webphotos.photo(1))})
    pid = str(r.url).split("/p/")[1]
    before = player(web, gid, "Bob")
    r = web.post(f"/allin/{gid}/p/{pid}/photo", files={"photo": ("w.jpg", white_jpeg(), "image/jpeg")})
    text = html.unescape(r.text)
    assert r.status_code == 422 and "no All In sheet found" in text and "the sheet read before is kept" in text
    after = player(web, gid, "Bob")
    assert after["tokens"] == before["tokens"] and after["photo"] == before["photo"]
    assert blob_count(web, gid) == 2  # the refused photo is not kept


def test_a_rename_to_a_name_given_meanwhile_on_another_phone_is_refused(web, monkeypatch):
    """Two phones rename two players "Cy" at once: each page checked the name before the other's was stored (as
    if the early check saw no Cy); the store, checking as it writes, keeps the first."""
    import generator.web.allin_pages as pages

    gid = new_allin(web)
    ann, _ = add_typed(web, gid, "Ann", grid_form(EXAMPLES / "ann.yaml"))
    bob, _ = add_typed(web, gid, "Bob", BOB_TYPED)
    monkeypatch.setattr(pages, "_name_problem", lambda *args, **kwargs: None)  # each request's stale view
    first = web.post(f"/allin/{gid}/p/{ann}/grid", data={**grid_form(EXAMPLES / "ann.yaml"), "name": "Cy"})
    second = web.post(f"/allin/{gid}/p/{bob}/grid", data={**BOB_TYPED, "name": "cy"})
    assert first.status_code == 200 and second.status_code == 400 and "already plays" in second.text
    assert sorted(p["name"] for p in store(web).game(gid).data["players"]) == ["Bob", "Cy"]


def test_an_impossible_typed_sheet_is_shown_so_while_another_player_is_unfinished(web):
    gid = new_allin(web)
    form = grid_form(EXAMPLES / "ann.yaml")
    form["chips_spent"] = str(int(form["chips_earned"]) + 3)  # more chips spent than earned: no game gives it
    add_typed(web, gid, "Ann", form)
    bob, _ = add_typed(web, gid, "Bob", {**BOB_TYPED, "a1": "ZZ"})  # Bob still has a box to correct
    page = html.unescape(web.get(f"/allin/{gid}").text)
    ann_part = page[page.index(">Ann<") : page.index(">Bob<")]
    assert "✗ impossible sheet" in ann_part and "✓ clear" not in ann_part
    assert f"{form['chips_spent']} chips spent but only {form['chips_earned']} earned" in ann_part


# --------------------------------------------------------------------------- Flip 7 edits from two phones


def test_flip7_an_edit_of_a_round_changed_meanwhile_on_another_phone_is_refused(web):
    gid = new_flip7(web)
    web.post(f"/flip7/{gid}/rounds", data={**tap({0: ["3"], 1: ["4"], 2: ["5"]}), "next": "1"})
    page = web.get(f"/flip7/{gid}?edit=1").text
    import re

    was = re.search(r'name="was" value="([^"]+)"', page).group(1)
    first = {**tap({0: ["6"], 1: ["4"], 2: ["5"]}, number=1), "was": was}
    second = {**tap({0: ["3"], 1: ["9"], 2: ["5"]}, number=1), "was": was}
    assert web.post(f"/flip7/{gid}/rounds", data=first).status_code == 200
    assert web.post(f"/flip7/{gid}/rounds", data=first).status_code == 200  # the same edit again: no change
    r = web.post(f"/flip7/{gid}/rounds", data=second)
    assert r.status_code == 409 and "round 1 was changed on another phone" in r.text
    assert store(web).game(gid).data["rounds"][0]["Ann"]["cards"] == [6]
    assert store(web).game(gid).data["rounds"][0]["Bob"]["cards"] == [4]


def test_flip7_an_edit_of_a_round_no_longer_on_the_pad_adds_nothing(web):
    gid = new_flip7(web)
    for k in (1, 2):
        web.post(f"/flip7/{gid}/rounds", data={**tap({0: ["3"], 1: ["4"], 2: ["5"]}), "next": str(k)})
    web.post(f"/flip7/{gid}/undo", data={"rounds": "2"})  # round 2 removed on one phone …
    r = web.post(f"/flip7/{gid}/rounds", data=tap({0: ["8"], 1: ["4"], 2: ["5"]}, number=2))  # … edited on another
    assert r.status_code == 409 and "round 2 is no longer on the pad" in r.text
    assert len(store(web).game(gid).data["rounds"]) == 1


# --------------------------------------------------------------------------- the line of photos


@pytest.mark.slow
def test_a_waiting_phone_is_told_its_place_and_a_full_line_is_429_adding_nobody(tmp_path):
    with client(tmp_path, photo_line=1) as c:
        gid = new_allin(c)
        gate = Gate(c)
        first, _ = in_thread(
            c.post,
            f"/allin/{gid}/players",
            data={"name": "Ann", "ticket": "t-ann"},
            files={"photo": ("a.jpg", webphotos.photo(0))},
        )
        gate.arrived.wait(60)
        assert c.get("/photos/line?ticket=t-ann").json() == {"known": True, "ahead": 0, "reading": True, "wait_s": 0}
        second, got = in_thread(
            c.post,
            f"/allin/{gid}/players",
            data={"name": "Bob", "ticket": "t-bob"},
            files={"photo": ("b.jpg", webphotos.photo(1))},
        )
        wait_until(lambda: c.get("/photos/line?ticket=t-bob").json()["known"])
        place = c.get("/photos/line?ticket=t-bob").json()
        assert place["ahead"] == 0 and place["reading"] is False and place["wait_s"] >= 1
        r = c.post(f"/allin/{gid}/players", data={"name": "Cy"}, files={"photo": ("c.jpg", webphotos.photo(2))})
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1 and "nothing was added" in r.text
        assert c.get("/photos/line?ticket=nobody").json() == {"known": False}
        gate.open()
        first.join(60)
        second.join(60)
        assert got["r"].status_code == 200
        assert sorted(p["name"] for p in store(c).game(gid).data["players"]) == ["Ann", "Bob"]


def test_the_same_photo_is_found_by_its_hash_without_reading_stored_photos(web, monkeypatch):
    import hashlib

    gid = new_allin(web)
    jpeg = webphotos.photo(1)
    st = store(web)
    blob = st.put_blob(gid, "image/*", jpeg)
    st.change(gid, "allin", lambda d: d["players"].append({"id": "bob-id-0000", "name": "Bob", "photo": blob}))
    monkeypatch.setattr(type(st), "blob", lambda *a: pytest.fail("a stored photo was read to compare"))
    r = web.post(f"/allin/{gid}/players", data={"name": "Cy"}, files={"photo": ("c.jpg", jpeg, "image/jpeg")})
    assert r.status_code == 422 and "the same photo as Bob" in html.unescape(r.text)
    assert st.blob_with_hash(gid, hashlib.sha256(jpeg).hexdigest()) == blob


# --------------------------------------------------------------------------- storage


@pytest.mark.slow
def test_a_game_over_its_storage_limit_is_507_and_keeps_nothing(tmp_path):
    jpeg = webphotos.photo(0)
    with client(tmp_path, game_limit=len(jpeg) + 1000) as c:
        gid = new_allin(c)
        r = c.post(f"/allin/{gid}/players", data={"name": "Ann"}, files={"photo": ("a.jpg", jpeg, "image/jpeg")})
        text = html.unescape(r.text)
        limit = f"{(len(jpeg) + 1000) / 2**20:.1f} MB"
        assert r.status_code == 507 and f"the most one game may keep is {limit}" in text and "remove a player" in text
        assert store(c).game(gid).data["players"] == [] and blob_count(c, gid) == 0


def test_a_full_disk_keeps_nothing_and_a_game_can_still_be_deleted(tmp_path):
    from generator.web.store import StorageFull, Store

    st = Store(tmp_path)
    g = st.create_game("allin", "t", {"players": []})
    st.put_blob(g.id, "image/*", os.urandom(200_000))
    pages = st._db.execute("PRAGMA page_count").fetchone()[0]
    st._db.execute(f"PRAGMA max_page_count = {pages + 2}")  # the disk holds a few more pages, no more
    with pytest.raises(StorageFull, match="is full: the photo was not kept"):
        st.put_blob(g.id, "image/*", os.urandom(200_000))
    assert st.usage() == (200_000, 1)
    assert st.delete_game(g.id) and st.usage() == (0, 0)


def test_a_database_made_before_photos_had_hashes_is_brought_up_to_date(tmp_path):
    from generator.web.store import DB_NAME, Store

    with sqlite3.connect(tmp_path / DB_NAME) as db:
        db.executescript(
            "CREATE TABLE games (id TEXT PRIMARY KEY, kind TEXT NOT NULL, title TEXT NOT NULL, data TEXT NOT NULL,"
            " created REAL NOT NULL, updated REAL NOT NULL);"
            "CREATE TABLE blobs (id TEXT PRIMARY KEY, game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
            " media_type TEXT NOT NULL, data BLOB NOT NULL);"
            "INSERT INTO games VALUES ('g', 'allin', 't', '{}', 0, 0);"
            "INSERT INTO blobs VALUES ('b', 'g', 'image/*', x'00112233');"
        )
    st = Store(tmp_path)
    assert st.usage() == (4, 1) and st.blob("g", "b") == ("image/*", b"\x00\x11\x22\x33")


# --------------------------------------------------------------------------- share codes and the access code


def test_a_games_share_code_opens_that_game_and_no_other(tmp_path):
    with client(tmp_path, token="host-code") as c:
        c.get("/?token=host-code")
        ours = c.post("/flip7", data={"players": "Ann, Bob, Cy"})
        theirs = c.post("/allin", data={"title": "other table", "layout": "q-diamonds"})
        ours_id, theirs_id = (str(r.url).rstrip("/").split("/")[-1] for r in (ours, theirs))
        assert "Share this game" in ours.text and f"http://testserver/flip7/{ours_id}?code=" in ours.text
        code = store(c).share_code(ours_id)
        assert code and code != store(c).share_code(theirs_id)
        c.cookies.clear()  # a player's phone
        r = c.get(f"/flip7/{ours_id}?code={code}", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == f"/flip7/{ours_id}"
        assert f"sheetsmith_game_{ours_id}={code}" in r.headers["set-cookie"]
        assert c.get(f"/flip7/{ours_id}").status_code == 200
        assert c.get("/static/style.css").status_code == 200
        form = {**tap({0: ["3"], 1: ["4"], 2: ["5"]}), "next": "1"}
        assert c.post(f"/flip7/{ours_id}/rounds", data=form).status_code == 200
        for url in ("/", "/allin", f"/allin/{theirs_id}", f"/allin/{theirs_id}?code={code}", "/print"):
            assert c.get(url).status_code == 401, url
        assert c.post(f"/allin/{theirs_id}/delete").status_code == 401
        assert store(c).game(theirs_id) is not None
        c.cookies.clear()
        assert c.get(f"/flip7/{ours_id}").status_code == 401
        assert c.get("/static/style.css").status_code == 401


@pytest.mark.parametrize("path", ["//evil.example/", "/\\evil.example/", "///evil.example"])
def test_the_access_code_redirect_stays_on_this_server(tmp_path, path):
    with client(tmp_path, token="host-code") as c:
        r = c.get(f"http://testserver{path}?token=host-code", follow_redirects=False)
        assert r.status_code == 303
        location = r.headers["location"]
        assert location.startswith("/") and not location.startswith("//") and not location.startswith("/\\")


def test_an_avif_photo_is_taken_as_a_photo():
    from generator.web.common import image_suffix

    assert image_suffix(b"\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1") == ".avif"
    assert image_suffix(b"\x00\x00\x00\x1cftypavis\x00\x00\x00\x00avismif1") == ".avif"


# --------------------------------------------------------------------------- workers and their folders


def test_photo_folders_of_killed_workers_are_swept_and_others_left(tmp_path, monkeypatch):
    import tempfile

    from generator.jobs.photo_service import sweep_orphans, temp_folder

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (tmp_path / f"sheetsmith-photo-{dead.pid}-abc123").mkdir()
    (tmp_path / "sheetsmith-photo-notes").mkdir()  # not a worker's
    with temp_folder() as mine:
        assert sweep_orphans() == 1
        assert Path(mine).is_dir() and (tmp_path / "sheetsmith-photo-notes").is_dir()
        assert not (tmp_path / f"sheetsmith-photo-{dead.pid}-abc123").exists()


def _children(pid: int) -> set[int]:
    """Every process descended from ``pid`` (from /proc)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        kids = {c for c, q in parents.items() if q == p}
        todo += list(kids - found)
        found |= kids
    return found


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_photo_workers_end_when_the_server_is_killed(tmp_path):
    import httpx

    from tests.test_web_serve import free_port

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", "--port", str(port), "--data-dir", str(tmp_path / "data")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        web = httpx.Client(base_url=base, follow_redirects=True, timeout=60, headers={"Origin": base})
        wait_until(lambda: _answers(web), 60)
        gid = web.post("/allin", data={"layout": "q-diamonds"}).url.path.rstrip("/").split("/")[-1]
        r = web.post(f"/allin/{gid}/players", data={"name": "Ann"}, files={"photo": ("a.jpg", webphotos.photo(0))})
        assert r.status_code == 200
        photo = {"photo": ("b.jpg", webphotos.photo(1))}
        in_thread(_quietly, web.post, f"/allin/{gid}/players", data={"name": "Bob"}, files=photo)
        time.sleep(0.3)  # killed while Bob's photo is being read
        workers = _children(server.pid)
        assert workers  # the fork server, its workers
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    wait_until(lambda: not any(_alive(p) for p in workers), 20)


def _alive(pid: int) -> bool:
    """True while process ``pid`` runs (an ended one not yet reaped by its parent counts as ended)."""
    try:
        return (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]) not in "ZX"
    except OSError:
        return False


def _quietly(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except Exception:  # the server killed under the request
        return None


def _answers(web) -> bool:
    try:
        return web.get("/").status_code == 200
    except Exception:
        return False


@pytest.mark.parametrize("count", ["1e3", "9" * 5000, "-1", "٣", "16"])
def test_a_chip_count_that_is_no_count_on_the_sheet_is_422_and_changes_nothing(web, count):
    gid = new_allin(web)
    ann, _ = add_typed(web, gid, "Ann", grid_form(EXAMPLES / "ann.yaml"))
    r = web.post(f"/allin/{gid}/p/{ann}/fix", data={"field": "chips.earned", "count": count})
    assert r.status_code == 422 and "give a whole number from 0 to 15" in r.text  # the Q♦ sheet's 15 chip boxes
    r = web.post(f"/allin/{gid}/p/{ann}/fix", data={"field": "a1", "rank": "Z", "suit": "S"})
    assert r.status_code == 422 and "tap one rank and one suit" in r.text
    assert player(web, gid, "Ann").get("corrections", {}) == {}


def test_a_shared_link_names_the_address_phones_reach_the_server_at(tmp_path):
    """The host may open the page on the laptop itself (127.0.0.1): the link shared is the network address."""
    with client(tmp_path, token="host-code", public_url="http://192.168.1.20:8000") as c:
        c.get("/?token=host-code")
        r = c.post("/flip7", data={"players": "Ann, Bob, Cy"})
        gid = str(r.url).rstrip("/").split("/")[-1]
        assert f"http://192.168.1.20:8000/flip7/{gid}?code={store(c).share_code(gid)}" in r.text


@pytest.mark.slow
def test_a_refused_photo_leaves_the_players_earlier_photo_in_line_standing(tmp_path):
    with client(tmp_path, photo_line=1) as c:
        gid = new_allin(c)
        gate = Gate(c)
        zoe = in_thread(
            c.post, f"/allin/{gid}/players", data={"name": "Zoe"}, files={"photo": ("z.jpg", webphotos.photo(2))}
        )[0]
        gate.arrived.wait(60)  # Zoe's photo holds the one worker
        ann, got = in_thread(
            c.post,
            f"/allin/{gid}/players",
            data={"name": "Ann", "ticket": "ann"},
            files={"photo": ("a.jpg", webphotos.photo(0))},
        )
        wait_until(lambda: c.get("/photos/line?ticket=ann").json()["known"])  # Ann's photo waits in line
        pid = player(c, gid, "Ann")["id"]
        r = c.post(f"/allin/{gid}/p/{pid}/photo", files={"photo": ("a2.jpg", webphotos.photo(1))})  # another phone
        assert r.status_code == 429  # the line is full: refused, and it changes nothing
        gate.open()
        zoe.join(60)
        ann.join(60)
        assert got["r"].status_code == 200
        from generator.games.allin.grid import cell_name

        truth = {cell_name(k): card.code for k, card in webphotos.game().sheets[0].cards.items()}
        assert {k: v for k, v in player(c, gid, "Ann")["tokens"].items() if v not in ".?"} == truth


def test_a_game_of_another_kind_is_not_deleted_through_this_kinds_page(web):
    gid = new_flip7(web)
    assert web.post(f"/allin/{gid}/delete").status_code == 200
    assert store(web).game(gid) is not None


@pytest.mark.slow
def test_a_game_deleted_while_its_photo_is_read_is_a_404_page(tmp_path):
    with client(tmp_path) as c:
        gid = new_allin(c)
        gate = Gate(c)
        t, got = in_thread(
            c.post, f"/allin/{gid}/players", data={"name": "Ann"}, files={"photo": ("a.jpg", webphotos.photo(0))}
        )
        gate.arrived.wait(60)
        c.post(f"/allin/{gid}/delete")
        gate.open()
        t.join(60)
        assert got["r"].status_code == 404 and "a game deleted" in got["r"].text
        assert store(c).usage() == (0, 0)


@pytest.mark.slow
def test_the_same_photo_sent_for_two_players_at_once_is_kept_for_one(tmp_path):
    jpeg = webphotos.photo(1)
    with client(tmp_path, photo_workers=2) as c:
        gid = new_allin(c)
        gate = Gate(c)
        t, first = in_thread(c.post, f"/allin/{gid}/players", data={"name": "Bob"}, files={"photo": ("b.jpg", jpeg)})
        gate.arrived.wait(60)  # Bob's reading is done but not stored yet
        second = c.post(f"/allin/{gid}/players", data={"name": "Cy"}, files={"photo": ("c.jpg", jpeg)})
        gate.open()
        t.join(60)
        answers = sorted([first["r"].status_code, second.status_code])
        assert answers == [200, 422]
        assert len(store(c).game(gid).data["players"]) == 1 and store(c).usage()[1] == 2
