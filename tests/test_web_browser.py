"""The web page in a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``, driven by Selenium).

Nothing is downloaded: the driver and the browser are the installed
binaries, and Selenium's own manager is kept offline.  The tests are skipped
only when the binaries are missing and ``SHEETSMITH_REQUIRE_BROWSER`` is not
set (``.ci/run`` sets it, and installs them).

Each scenario takes a phone-sized screenshot; with ``SHEETSMITH_SCREENSHOTS=1``
they are written to ``docs/`` (for the README), otherwise to the test's temporary folder.
"""

from __future__ import annotations

import base64
import contextlib
import os
import socket
import threading
import time
from pathlib import Path

import pytest

from generator.games.allin.scoring import score_game

from . import webphotos

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
PHONE = {"width": 412, "height": 915, "deviceScaleFactor": 2, "mobile": True}
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--lang=en-US",
)


@contextlib.contextmanager
def serving(app):
    """Serve ``app`` on a free loopback port in a thread, with uvicorn; gives its address."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(300):
        if srv.started:
            break
        time.sleep(0.05)
    assert srv.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(15)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The web page on a free loopback port, served by uvicorn in a thread, on a fresh data folder."""
    from generator.web.app import create_app

    with serving(create_app(tmp_path_factory.mktemp("web-data"), photo_workers=2)) as base:
        yield base


def chromium(profile: Path):
    """Headless Chromium at phone size (412 × 915 CSS pixels, 2× density), from the installed binaries only."""
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        if os.environ.get("SHEETSMITH_REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} and {CHROMEDRIVER} are needed: apt-get install -y chromium chromium-driver")
        pytest.skip("no Chromium here (apt-get install -y chromium chromium-driver)")
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never download a browser or a driver
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    opts = Options()
    opts.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={profile}")
    opts.add_argument("--window-size=412,915")
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=opts)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    driver.set_page_load_timeout(120)
    return driver


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """The phone's browser the scenarios share (:func:`chromium`)."""
    driver = chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


def shot(driver, name: str, tmp_path: Path, max_height: int = 2600) -> Path:
    """A full-page screenshot at phone width (docs/NAME with SHEETSMITH_SCREENSHOTS=1)."""
    driver.execute_script(
        "window.scrollTo(0, 0);"  # a full-page picture: sticky bars drawn where they stand in the page
        "const s = document.createElement('style'); s.id = 'shot-style';"
        "s.textContent = '.top, .sticky-save { position: static !important; }';"
        "document.head.appendChild(s);"
    )
    height = min(max_height, int(driver.execute_script("return document.documentElement.scrollHeight")))
    data = driver.execute_cdp_cmd(
        "Page.captureScreenshot",
        {
            "format": "png",
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": PHONE["width"], "height": height, "scale": 1},
        },
    )["data"]
    folder = REPO / "docs" if os.environ.get("SHEETSMITH_SCREENSHOTS") else tmp_path
    path = folder / name
    path.write_bytes(base64.b64decode(data))
    driver.execute_script("document.getElementById('shot-style').remove()")
    return path


def shot_of(element, name: str, tmp_path: Path) -> Path:
    """A screenshot of one element of the page (docs/NAME with SHEETSMITH_SCREENSHOTS=1)."""
    element.parent.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    folder = REPO / "docs" if os.environ.get("SHEETSMITH_SCREENSHOTS") else tmp_path
    path = folder / name
    path.write_bytes(element.screenshot_as_png)
    return path


def wait(driver, condition, timeout: float = 120.0):
    """Poll ``condition(driver)`` until it is true; an element replaced while the page redraws is looked up again
    (Chromium reports one replaced between its lookup and its read either as stale or as "Node with given id does
    not belong to the document")."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    def redrawn_is_false(d):
        try:
            return condition(d)
        except WebDriverException as exc:
            if "does not belong to the document" in str(exc):
                return False
            raise

    return WebDriverWait(
        driver, timeout, poll_frequency=0.1, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)
    ).until(redrawn_is_false)


def css(driver, selector: str):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, selector)


def tap(element) -> None:
    """Click ``element`` after scrolling it to the middle of the screen (never under the sticky header or save bar)."""
    element.parent.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def click_label(scope, text: str) -> None:
    """Tap the button-like label whose text is ``text`` within ``scope``."""
    from selenium.webdriver.common.by import By

    for label in scope.find_elements(By.CSS_SELECTOR, "label"):
        if label.text.strip() == text:
            tap(label)
            return
    raise AssertionError(f"no button {text!r}")


@pytest.mark.slow
def test_score_a_game_from_photos_correcting_a_field_by_tapping(server, browser, tmp_path):
    jpeg, cell, truth = webphotos.uncertain_photo(0)
    photos = {"Ann": tmp_path / "ann.jpg", "Bob": tmp_path / "bob.jpg"}
    photos["Ann"].write_bytes(jpeg)
    photos["Bob"].write_bytes(webphotos.photo(1))
    expected = score_game(webphotos.game().sheets[:2]).winners  # the referee's score of the true sheets

    browser.get(server + "/allin")
    css(browser, "input[name=title]").send_keys("Friday")
    tap(css(browser, "form[action='/allin'] button"))
    wait(browser, lambda d: "/allin/" in d.current_url)
    game_url = browser.current_url.split("#")[0]

    # Ann: the photo has a space with two ranks ticked; the page asks, the player taps the right card
    css(browser, "input[name=name]").send_keys("Ann")
    css(browser, "input[name=photo]").send_keys(str(photos["Ann"]))
    tap(css(browser, "button[value=photo]"))
    wait(browser, lambda d: "/p/" in d.current_url)
    field = css(browser, f"a.field.uncertain[data-field='{cell}']")
    shot(browser, "web-allin-readback.png", tmp_path)
    tap(field)
    dialog = css(browser, "#picker")
    wait(browser, lambda d: dialog.is_displayed())
    click_label(dialog, truth[:-1])
    click_label(dialog, {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[truth[-1]])
    shot(browser, "web-allin-tap.png", tmp_path, max_height=915)
    tap(css(browser, "#picker-save"))
    wait(browser, lambda d: "clear" in css(d, "#sheet-state").text)
    assert css(browser, f"a.field.fixed[data-field='{cell}']")

    browser.get(game_url)
    wait(browser, lambda d: css(d, "input[name=name]").is_displayed())  # the game page, not the read-back
    css(browser, "input[name=name]").send_keys("Bob")
    css(browser, "input[name=photo]").send_keys(str(photos["Bob"]))
    tap(css(browser, "button[value=photo]"))
    wait(browser, lambda d: "/p/" in d.current_url)
    browser.get(game_url + "#score")
    winner = css(browser, "#winner").text
    assert winner == f"★ {expected[0]} wins"
    shot(browser, "web-allin-score.png", tmp_path)


@pytest.mark.slow
def test_flip7_three_rounds_by_clicks(server, browser, tmp_path):
    browser.get(server + "/flip7")
    css(browser, "input[name=title]").send_keys("Sunday")
    css(browser, "textarea[name=players]").send_keys("Ann\nBob\nCy")
    tap(css(browser, "form[action='/flip7'] button"))
    wait(browser, lambda d: "/flip7/" in d.current_url)
    rounds = [
        {
            0: ["3", "5", "7", "10", "11"],
            1: ["3", "5", "7", "10", "11", "×2"],
            2: ["Bust"],
        },  # 36, 72, 0 (rulebook example)
        {0: ["12", "+10"], 1: ["Bust"], 2: ["1", "2", "3", "4", "5", "6", "8"]},  # 22, 0, 29 + 15 = 44
        {0: ["×2"], 1: ["9", "+4"], 2: ["11", "12"]},  # 0, 13, 23
    ]
    for n, taps in enumerate(rounds, start=1):
        for i, labels in taps.items():
            scope = css(browser, f"#pr-{i}")
            for text in labels:
                click_label(scope, text)
        live = {
            1: ["36 pts", "72 pts", "bust · 0"],
            2: ["22 pts", "bust · 0", "44 pts"],
            3: ["0 pts", "13 pts", "23 pts"],
        }[n]
        wait(browser, lambda d: [css(d, f"#score-{i}").text for i in range(3)] == live)  # scored while tapping
        if n == 3:
            shot(browser, "web-flip7.png", tmp_path)
        tap(css(browser, "#save-round"))
        wait(browser, lambda d: css(d, "h2").text == f"Round {n + 1}")
    totals = {
        row.get_attribute("data-player"): row.find_element("css selector", "td.total").text
        for row in browser.find_elements("css selector", "table.standings tbody tr")
    }
    assert totals == {"Ann": "58", "Bob": "85", "Cy": "67"}


@pytest.mark.slow
def test_editor_shows_the_message_of_a_broken_grid(server, browser, tmp_path):
    from selenium.webdriver.common.keys import Keys

    browser.get(server + "/editor?start=q-diamonds")
    wait(browser, lambda d: css(d, "#editor-form").get_attribute("data-ready") == "1")
    assert "10 hands" in css(browser, "#messages").text
    shot(browser, "web-editor.png", tmp_path)
    code = css(browser, "#code")
    text = code.get_attribute("value")
    broken = text.replace("*---o---o---o   o", "*---o---o---o   x", 1)
    line = broken.split("\n").index("  *---o---o---o   x") + 1
    code.click()
    code.send_keys(Keys.CONTROL, "a")
    code.send_keys(Keys.DELETE)
    code.send_keys(broken)
    wait(browser, lambda d: "unexpected 'x'" in css(d, "#messages").text)
    message = css(browser, "#messages li.error")
    assert message.get_attribute("data-line") == str(line) and f"line {line}, col 19" in message.text
    assert "x" in css(browser, "#code-back span.err").text  # the line is highlighted
    assert "stale" in css(browser, "#preview").get_attribute("class")
    shot(browser, "web-editor-error.png", tmp_path, max_height=1400)


@pytest.mark.slow
def test_print_page(server, browser, tmp_path):
    browser.get(server + "/print")
    browser.execute_script("document.querySelectorAll('img').forEach(i => i.loading = 'eager')")
    wait(
        browser,
        lambda d: d.execute_script(
            "return Array.from(document.images).slice(0, 9).every(i => i.complete && i.naturalWidth > 0)"
        ),
    )
    links = [a.get_attribute("href") for a in browser.find_elements("css selector", "#item-q-diamonds a.button")]
    assert [u.split("/print/")[1] for u in links] == ["pdf/q-diamonds?paper=a4", "pdf/q-diamonds?paper=letter"]
    shot(browser, "web-print.png", tmp_path, max_height=1800)


def printed_centres(layout_id: str, paper_id: str) -> dict[str, tuple[float, float]]:
    """Each field's printed centre on the page, mm: a card space's rank boxes, suits and value; a chip track's
    circles or boxes (from the sheet's scene, as the printer draws it)."""
    from generator.core.shipped import resolve_layout
    from generator.games.allin.layout import load_layout
    from generator.games.allin.sheet import build_allin_sheet
    from generator.printing.paper import paper

    scene = build_allin_sheet(load_layout(resolve_layout(layout_id)), paper(paper_id))
    groups: dict[str, list] = {}
    for t in scene.marks:
        name = {"chip_earned": "chips.earned", "chip_spent": "chips.spent"}.get(t.kind, t.owner)
        if t.kind in ("rank", "suit", "value", "chip_earned", "chip_spent"):
            groups.setdefault(name, []).append(t)
    centres = {}
    for name, ts in groups.items():
        x0, x1 = min(t.x for t in ts), max(t.x + t.w for t in ts)
        y0, y1 = min(t.y for t in ts), max(t.y + t.h for t in ts)
        centres[name] = ((x0 + x1) / 2, (y0 + y1) / 2)
    return centres


PICTURE_PPM = 4.0
"""The annotated picture's scale: the page at 4 pixels per mm at its top left (docs/web.md)."""


@pytest.mark.slow
def test_every_field_of_a_read_back_opens_where_it_is_printed(server, browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains

    photo = tmp_path / "ann.jpg"
    photo.write_bytes(webphotos.photo(0))
    browser.get(server + "/allin")
    css(browser, "input[name=title]").send_keys("Taps")
    tap(css(browser, "form[action='/allin'] button"))
    wait(browser, lambda d: "/allin/" in d.current_url)
    css(browser, "input[name=name]").send_keys("Ann")
    css(browser, "input[name=photo]").send_keys(str(photo))
    tap(css(browser, "button[value=photo]"))
    wait(browser, lambda d: "/p/" in d.current_url)
    img = css(browser, "#readback img")
    wait(browser, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", img))
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", img)
    centres = printed_centres("q-diamonds", "a4")
    hits = browser.execute_script(
        """
        const img = arguments[0], centres = arguments[1], ppm = arguments[2];
        const r = img.getBoundingClientRect();
        const out = {};
        for (const [name, [x, y]] of Object.entries(centres)) {
          const px = r.left + x * ppm * r.width / img.naturalWidth, py = r.top + y * ppm * r.height / img.naturalHeight;
          const el = document.elementFromPoint(px, py);
          const a = el && el.closest('a.field');
          out[name] = a ? a.getAttribute('data-field') : null;
        }
        return out;
        """,
        img,
        centres,
        PICTURE_PPM,
    )
    assert len(centres) == 26  # 24 card spaces and the two chip tracks
    assert hits == {name: name for name in centres}

    # a real tap on the printed centre of e2 opens e2's picker
    scale = img.size["width"] / browser.execute_script("return arguments[0].naturalWidth", img)
    x, y = centres["e2"]
    ActionChains(browser).move_to_element_with_offset(
        img, x * PICTURE_PPM * scale - img.size["width"] / 2, y * PICTURE_PPM * scale - img.size["height"] / 2
    ).click().perform()
    dialog = css(browser, "#picker")
    wait(browser, lambda d: dialog.is_displayed())
    assert css(browser, "#picker-title").text == "e2"


@pytest.mark.slow
def test_a_typed_in_box_with_a_mistake_keeps_the_grids_columns(server, browser, tmp_path):
    from selenium.webdriver.common.by import By

    browser.get(server + "/allin")
    css(browser, "input[name=title]").send_keys("Grid")
    tap(css(browser, "form[action='/allin'] button"))
    wait(browser, lambda d: "/allin/" in d.current_url)
    css(browser, "input[name=name]").send_keys("Ann")
    tap(css(browser, "button[value=typed]"))
    wait(browser, lambda d: "/grid" in d.current_url)

    def widths():
        return [td.size["width"] for td in browser.find_elements(By.CSS_SELECTOR, ".sheet-grid tr:first-child td")]

    before = widths()
    css(browser, "input[name=b1]").send_keys("QX")  # not a card
    tap(css(browser, "form.stack button.big"))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#cell-problems"))
    assert css(browser, "input[name=b1]").get_attribute("aria-invalid") == "true"
    assert "b1" in css(browser, "#cell-problems").text and "QX" in css(browser, "#cell-problems").text
    assert widths() == before


@pytest.mark.slow
def test_each_tick_pad_photo_chosen_gets_a_name_box(server, browser, tmp_path):
    from selenium.webdriver.common.by import By

    paths = []
    for name in ("IMG_1234.jpg", "IMG_1235.jpg", "IMG_1236.jpg"):
        (tmp_path / name).write_bytes(base64.b64decode(TINY_JPEG))
        paths.append(str(tmp_path / name))
    browser.get(server + "/flip7")
    css(browser, "#pad-photos").send_keys("\n".join(paths))
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#pad-names input[name=player]")) == 3)
    boxes = browser.find_elements(By.CSS_SELECTOR, "#pad-names input[name=player]")
    assert [b.get_attribute("placeholder") for b in boxes] == ["Player 1", "Player 2", "Player 3"]
    assert [b.get_attribute("value") for b in boxes] == ["", "", ""]  # never the file's name
    assert not css(browser, "#pad-list").is_displayed()


TINY_JPEG = (
    "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////"
    "////////////wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAAA//EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AN//Z"
)
"""A 1 × 1 JPEG: a file for the photo picker (never read)."""


@pytest.mark.slow
def test_a_phone_waiting_in_line_shows_its_place_and_a_shared_game_opens_alone(tmp_path):
    """One worker, held on Ann's photo: Bob's phone, sending his photo from the page, shows that his is next, then
    his read-back.  Then the host shares the game: a phone opening the share link sees that game, and a page of
    another game answers 401."""
    import asyncio

    import httpx

    from generator.web.app import create_app

    app = create_app(tmp_path / "data", photo_workers=1, token="host-code")
    pool = app.app.state.photos
    held, let_go = threading.Event(), threading.Event()
    real = pool.read

    async def read(*args, **kwargs):
        result = await real(*args, **kwargs)
        if kwargs.get("player") == "Ann":
            held.set()
            while not let_go.is_set():
                await asyncio.sleep(0.05)
        return result

    pool.read = read
    (tmp_path / "bob.jpg").write_bytes(webphotos.photo(1))
    browser = chromium(tmp_path / "profile")
    with serving(app) as base:
        host = httpx.Client(base_url=base, headers={"Origin": base}, timeout=120, follow_redirects=True)
        host.get("/?token=host-code")
        game = host.post("/allin", data={"title": "Friday", "layout": "q-diamonds"}).url.path
        other = host.post("/flip7", data={"players": "Ann, Bob, Cy"}).url.path
        ann = threading.Thread(
            target=host.post,
            args=(f"{game}/players",),
            kwargs={"data": {"name": "Ann"}, "files": {"photo": ("a.jpg", webphotos.photo(0))}},
        )
        ann.start()
        assert held.wait(120)
        browser.get(f"{base}{game}?token=host-code")
        css(browser, "input[name=name]").send_keys("Bob")
        css(browser, "input[name=photo]").send_keys(str(tmp_path / "bob.jpg"))
        # the answer is loaded in a frame of the page, so that the page itself can be watched while it waits
        browser.execute_script(
            "const f = document.createElement('iframe'); f.name = 'answer'; document.body.appendChild(f);"
            "document.querySelector('form.add-player').target = 'answer';"
        )
        tap(css(browser, "button[value=photo]"))
        status = css(browser, ".add-player .line-status")
        wait(browser, lambda d: status.text.startswith("Your photo is next"), 60)
        shot_of(css(browser, ".add-player"), "web-allin-line.png", tmp_path)
        let_go.set()
        answer = "return document.querySelector('iframe[name=answer]').contentWindow.location.pathname"
        wait(browser, lambda d: "/p/" in d.execute_script(answer))
        ann.join(120)

        browser.get(f"{base}/allin")
        browser.get(f"{base}{game}#share")
        tap(css(browser, "#share summary"))
        link = css(browser, "#share input").get_attribute("value")
        assert link.startswith(f"{base}{game}?code=")
        shot_of(css(browser, "#share"), "web-allin-share.png", tmp_path)
        browser.delete_all_cookies()  # a player's phone
        browser.get(link)
        wait(browser, lambda d: d.current_url == f"{base}{game}")
        names = [e.text for e in browser.find_elements("css selector", ".player-name")]
        assert names == ["Ann", "Bob"]
        browser.get(f"{base}{other}")
        assert "needs an access code" in browser.page_source
    browser.quit()
