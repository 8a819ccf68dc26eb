"""Page 2: score an All In game.  Each player's sheet comes from a photo (read by :mod:`.photos`),
a typed-in grid, or a typed-in sheet file; uncertain fields are corrected by tapping; the game is
scored by :func:`generator.jobs.verify.verify_texts`, the job behind ``sheetsmith verify``.

A player's sheet is kept as one token per card space (a card code, ``.`` for
empty, ``?`` for a field a person must look at) and the two chip counts; a
correction is kept beside the reading, so the reading itself is never lost.
The typed-in file of a player is :func:`generator.jobs.allin_sheets.sheet_file` of
those tokens: the download is what ``verify`` reads.
"""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any, Optional
from urllib.parse import urlencode

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from generator.core.cards import RANK_LABELS, SHEET_RANK_ORDER, SUIT_SYMBOLS, SUITS, CardCodeError, parse_card
from generator.core.errors import InputError
from generator.core.names import file_stem
from generator.jobs import verify
from generator.jobs.allin_sheets import allin_layouts, problems_by_cell, read_sheet_file, sheet_file, sheet_form
from generator.jobs.photo_reads import page_boxes_on_picture
from generator.web.common import (
    attachment,
    busy_page,
    error_page,
    image_suffix,
    no_room_page,
    page,
    read_upload,
    share_link,
)
from generator.web.photos import Busy, PhotoTimeout
from generator.web.store import StorageFull, new_id

router = APIRouter()


# --------------------------------------------------------------------------- a player's sheet


def effective(player: dict) -> tuple[dict[str, str], Any, Any]:
    """The player's tokens and chip counts with the corrections applied (``None`` counts are still uncertain)."""
    tokens = dict(player.get("tokens", {}))
    fixes = player.get("corrections", {})
    for field, value in fixes.items():
        if not field.startswith("chips."):
            tokens[field] = value
    chips = player.get("chips", {})
    earned = fixes.get("chips.earned", chips.get("earned"))
    spent = fixes.get("chips.spent", chips.get("spent"))
    return tokens, earned, spent


def open_fields(player: dict) -> list[dict]:
    """The uncertain fields not corrected yet, with their reasons."""
    fixes = player.get("corrections", {})
    return [u for u in player.get("uncertain", []) if u["field"] not in fixes]


def state(player: dict) -> str:
    """``reading``, ``failed`` (the photo could not be read), ``uncertain``, ``invalid`` (typed errors) or ``ready``."""
    if player.get("reading"):
        return "reading"
    if player.get("error"):
        return "failed"
    if not player.get("tokens") and player.get("source") != "typed":
        return "failed"
    if open_fields(player):
        return "uncertain"
    if player.get("problems"):
        return "invalid"
    return "ready"


def file_names(players: list[dict]) -> dict[str, str]:
    """Player id → a typed-in file name made from the name (file-safe, unique)."""
    used: set[str] = set()
    out = {}
    for p in players:
        stem = file_stem(p["name"])
        name, k = stem, 2
        while name in used:
            name, k = f"{stem}-{k}", k + 1
        used.add(name)
        out[p["id"]] = f"{name}.yaml"
    return out


def player_text(layout_id: str, player: dict) -> str:
    """The player's typed-in sheet (``?`` where a field is still uncertain)."""
    tokens, earned, spent = effective(player)
    return sheet_file(
        layout_id,
        player["name"],
        tokens,
        "?" if earned is None else earned,
        "?" if spent is None else spent,
        comment="An All In sheet from sheetsmith serve. Score it: sheetsmith verify FILE",
    )


def check_sheet(layout_id: str, player: dict) -> tuple[dict[str, list[str]], list[str]]:
    """The player's sheet checked on its own, as ``sheetsmith verify`` checks it: ``(problems by cell`` (a bad card
    code …; {} when fine)``, why no game can produce it`` (chips spent over earned …; [] when it can be)``)``."""
    if state(player) in ("reading", "failed", "uncertain"):
        return {}, []
    text = player_text(layout_id, player)
    try:
        verdict = verify.verify_texts([("sheet.yaml", text)])
    except InputError as exc:
        return problems_by_cell(text, layout_id, exc.problems), []
    if not any(q.get("impossible") for q in verdict.report.get("players", [])):
        return {}, []
    return {}, [p.message for p in verdict.problems if p.severity == "error"]


def score_game(game: dict) -> dict:
    """The game's score when every sheet is clear: ``{"ready", "waiting", "report", "problems", "notes"}``."""
    players = game["players"]
    waiting = [p["name"] for p in players if state(p) != "ready"]
    out: dict[str, Any] = {"ready": False, "waiting": waiting, "report": None, "problems": [], "notes": []}
    if waiting or not players:
        return out
    names = file_names(players)
    try:
        verdict = verify.verify_texts([(names[p["id"]], player_text(game["layout"], p)) for p in players])
    except InputError as exc:
        out["problems"] = [str(p) for p in exc.problems]
        return out
    out.update(ready=True, report=verdict.report, problems=[str(p) for p in verdict.problems], notes=verdict.notes)
    return out


def card_html(code: str) -> dict:
    """A card code as ``{"text": "Q♥", "red": True}`` for a page."""
    try:
        card = parse_card(code)
    except CardCodeError:
        return {"text": code, "red": False}
    symbol = SUIT_SYMBOLS.get(card.suit, "") if card.suit is not None else ""  # (a Joker has none)
    return {"text": f"{card.rank_label}{symbol}", "red": card.is_red}


# --------------------------------------------------------------------------- pages


def _game(request: Request, game_id: str):
    g = request.app.state.store.game(game_id, "allin")
    if g is None:
        raise HTTPException(404)
    return g


def _player(g, player_id: str) -> dict:
    p = next((p for p in g.data["players"] if p["id"] == player_id), None)
    if p is None:
        raise HTTPException(404)
    return p


def _change_and_check(request: Request, game_id: str, player_id: str, change) -> dict:
    """Apply ``change`` to the stored game, then check the player's sheet as it now stands and keep the
    problems found with it (written at once); returns them (field → message)."""
    store = request.app.state.store
    store.change(game_id, "allin", change)
    g = store.game(game_id, "allin")
    found, impossible = check_sheet(g.data["layout"], _player(g, player_id))
    store.change(game_id, "allin", lambda d: _player_in(d, player_id).update(problems=found, impossible=impossible))
    return found


@router.get("/allin")
def allin_list(request: Request):
    """The games kept, and a form to start one."""
    return page(request, "allin_list.html", games=request.app.state.store.games("allin"), layouts=allin_layouts())


@router.post("/allin")
async def allin_new(request: Request):
    """Start a game on a shipped sheet."""
    form = await request.form()
    layout_id = str(form.get("layout", "q-diamonds"))
    if layout_id not in {x["id"] for x in allin_layouts()}:
        return error_page(request, "No such sheet", [f"{layout_id!r} is not a shipped All In sheet"], back="/allin")
    title = str(form.get("title", "")).strip()[:60] or f"{sheet_form(layout_id).name} game"
    g = request.app.state.store.create_game("allin", title, {"title": title, "layout": layout_id, "players": []})
    return RedirectResponse(f"/allin/{g.id}", status_code=303)


@router.get("/allin/{game_id}")
def allin_game(request: Request, game_id: str):
    """The game: its players and their sheets' state, the add-a-player form, the score table when all are clear."""
    g = _game(request, game_id)
    result = score_game(g.data)
    rows = []
    if result["report"]:
        ordered = sorted(result["report"]["players"], key=lambda q: (-q["total"], -q["chips_left"]))
        for q in ordered:
            hands = [
                {
                    "letter": k,
                    **h,
                    "cards": [card_html(c) for c in h["cards"]],
                    "category": (h["category"] or "").replace("_", " "),
                }
                for k, h in q["hands"].items()
            ]
            rows.append(
                {
                    **q,
                    "hands": hands,
                    "winner": q["player"] in result["report"]["winners"],
                    "impossible": q.get("impossible"),
                }
            )
    impossible = {q["player"] for q in (result["report"] or {}).get("players", []) if q.get("impossible")}
    impossible |= {p["name"] for p in g.data["players"] if p.get("impossible")}  # known before all are clear
    players = [
        {**p, "state": "impossible" if p["name"] in impossible and state(p) == "ready" else state(p)}
        | {"open": open_fields(p)}
        for p in g.data["players"]
    ]
    return page(
        request,
        "allin_game.html",
        share=share_link(request, f"/allin/{g.id}", g.id),
        game=g,
        data=g.data,
        players=players,
        result=result,
        rows=rows,
        layout=sheet_form(g.data["layout"]),
    )


def _name_problem(g, name: str, player_id: Optional[str] = None) -> Optional[str]:
    """Why ``name`` cannot be a player's of game ``g`` (as the verifier would refuse the sheets), else None."""
    from generator.core.validation import quote, text_problem

    if not name:
        return "give the player's name"
    if len(name) > 40:
        return "the name is longer than 40 characters; shorten it"
    if problem := text_problem(name, "the name"):
        return problem
    if any(p["name"].casefold() == name.casefold() and p["id"] != player_id for p in g.data["players"]):
        return (
            f"{quote(name)} already plays in this game (names that differ only in capitals are one player); "
            "give each player their own name"
        )
    return None


@router.post("/allin/{game_id}/players")
async def allin_add_player(request: Request, game_id: str):
    """Add a player: with a photo (read at once), a typed-in sheet file, or to type the sheet in.  A photo that
    cannot be read adds nobody; a full line of photos is a 429 with a ``Retry-After``."""
    g = _game(request, game_id)
    form = await request.form()
    name = str(form.get("name", "")).strip()
    problem = _name_problem(g, name)
    if problem:
        return error_page(request, "The player cannot be added", [problem], back=f"/allin/{game_id}")
    upload, head, sent_as = None, b"", ""
    for key in ("photo", "file"):
        given = form.get(key)
        if given is not None and not isinstance(given, str) and upload is None:
            head = await _head(given)  # the upload stays spooled on disk while the photo waits in line
            if head:
                upload, sent_as = given, str(getattr(given, "filename", "") or "")
    player: dict[str, Any] = {  # the player's record in the game's document (JSON, more keys once read)
        "id": new_id(),
        "name": name,
        "source": "typed",
        "tokens": {},
        "chips": {"earned": 0, "spent": 0},
        "uncertain": [],
        "boxes": {},
        "corrections": {},
    }
    if upload is not None:
        if image_suffix(head):
            player["source"] = "photo"
        elif _named_as_photo(sent_as) or _not_a_sheet_file(head, sent_as):  # say what the file holds
            from generator.core.filetypes import format_error, sniff

            return error_page(
                request,
                "Not a photo",
                [format_error(*sniff(head, _suffix(sent_as))) or "not an image"],
                back=f"/allin/{game_id}",
                status_code=422,
            )
        else:
            filled = _typed_file(request, await read_upload(upload), g.data["layout"], name)
            if isinstance(filled, Response):
                return filled
            player.update(filled)
    elif form.get("mode") != "typed":
        return error_page(
            request,
            "No photo",
            ["take a photo of the sheet, choose a file, or press 'Type it in'"],
            back=f"/allin/{game_id}",
        )
    if player["source"] == "typed":  # the player exists once their sheet is saved, not before
        return RedirectResponse(f"/allin/{game_id}/new/grid?{urlencode({'name': name})}", status_code=303)
    if not _add_player(request, game_id, player):
        problem = _name_problem(_game(request, game_id), name) or f"{name} already plays in this game"
        return error_page(request, "The player cannot be added", [problem], back=f"/allin/{game_id}")
    if player["source"] == "photo":
        try:
            refused = await _read_photo(request, game_id, player["id"], upload, str(form.get("ticket", "")))
        except Busy as exc:
            _drop_unread(request, game_id, player["id"])
            return busy_page(request, exc, back=f"/allin/{game_id}#players")
        except StorageFull as exc:
            _drop_unread(request, game_id, player["id"])
            return no_room_page(request, exc, back=f"/allin/{game_id}#players")
        if refused is not None and _drop_unread(request, game_id, player["id"]):
            return error_page(  # a photo that cannot be read adds no player: the game never waits for one
                request,
                "This photo could not be read",
                [refused, f"{name} was not added: take the photo again, or type the sheet in"],
                back=f"/allin/{game_id}#players",
                status_code=422,
            )
        return RedirectResponse(f"/allin/{game_id}/p/{player['id']}", status_code=303)
    return RedirectResponse(f"/allin/{game_id}#players", status_code=303)


def in_page_words(message: str) -> str:
    """A reader's message in the page's words: on the page the game's sheet plays the part that ``--layout`` plays
    on the command line, and another sheet is scored in a game of its own."""
    message = re.sub(r" as --layout \S+ says", ", the sheet this game is played on", message)
    return re.sub(r"give --layout (\S+)", r"score it in a game on the \1 sheet", message)


def _suffix(filename: str) -> str:
    """A file name's ending, lower case (``""`` for none)."""
    from pathlib import PurePath

    return PurePath(filename).suffix.lower()


def _not_a_sheet_file(data: bytes, filename: str) -> bool:
    """True when an upload is, by its content, a kind of file sheetsmith names (a PDF, a video, a camera RAW …)
    rather than text that might be a typed-in sheet: its message then says what it is, not why it is no YAML."""
    from generator.core.filetypes import sniff

    return sniff(data[:4096], _suffix(filename))[0] not in ("unknown", "text", "photo")


def _named_as_photo(filename: str) -> bool:
    """True when an upload's file name ends like a photo's (``IMG_1.jpg``): what it holds is meant as one."""
    from generator.core.filetypes import PHOTO_SUFFIXES

    return _suffix(filename) in PHOTO_SUFFIXES


def _typed_file(request: Request, data: bytes, layout_id: str, name: str):
    """A typed-in sheet file's tokens and chips, or an error page."""
    try:
        sheet = read_sheet_file(data)
    except InputError as exc:
        return error_page(
            request,
            "This file is not a typed-in sheet sheetsmith can read",
            ["Not an image, and not a valid typed-in sheet:"],
            problems=exc.problems,
            status_code=422,
        )
    if sheet["layout"] != layout_id:
        return error_page(
            request,
            "Another sheet",
            [f"this sheet is for layout {sheet['layout']!r}; this game is played on {layout_id!r}"],
            status_code=422,
        )
    return {"source": "file", "tokens": sheet["tokens"], "chips": sheet["chips"]}


async def _read_photo(request: Request, game_id: str, player_id: str, photo, ticket: str = "") -> Optional[str]:
    """Read a player's photo in a worker and store the reading with the photo, replacing the player's sheet.

    The photo waits in line spooled on disk (``photo``: the form's upload, or the bytes of a kept photo).
    Until it is read the player's sheet stays as it was; a photo that cannot be read changes nothing and is
    not kept.  A reading that finishes after a newer photo of the player, or their typed-in sheet, was saved
    is dropped: the newer one stands.

    Returns:
        None when the reading is stored (or dropped for a newer one), else the reader's message in the page's words.

    Raises:
        Busy: the line of photos is full.
        StorageFull: the game's or the server's room for photos is used up, or the disk is full (nothing kept).
    """
    import hashlib

    store = request.app.state.store
    pool = request.app.state.photos
    job = new_id()

    before: list[Optional[str]] = []

    def start(d: dict) -> None:
        p = _player_in(d, player_id)
        before.append(p.get("job"))  # a photo of the player still in line: it stands if this one is refused
        p.update(reading=True, job=job)

    def stop(d: dict) -> None:
        p = next((q for q in d["players"] if q["id"] == player_id), None)
        if p is not None and p.get("job") == job:
            p.update(reading=bool(before and before[0]), job=before[0] if before else None)

    def stopped() -> None:
        try:
            store.change(game_id, "allin", stop)
        except KeyError:  # the game deleted meanwhile
            pass

    try:
        store.change(game_id, "allin", start)
    except KeyError:
        raise HTTPException(404) from None
    kept: list[str] = []
    digest = ""
    try:
        async with pool.turn(ticket):
            data = photo if isinstance(photo, bytes) else await read_upload(photo)
            g = _game(request, game_id)
            player = _player(g, player_id)
            digest = hashlib.sha256(data).hexdigest()
            same = store.blob_with_hash(game_id, digest, but=(player.get("photo"),))
            twin = next((q["name"] for q in g.data["players"] if same and q.get("photo") == same), None)
            if twin is not None:
                result = {"error": _same_photo(twin)}
            else:
                try:
                    result = await pool.read(
                        data,
                        image_suffix(data) or ".jpg",
                        layout=g.data["layout"],
                        player=player["name"],
                        display=f"the photo of {player['name']}",
                    )
                except PhotoTimeout:
                    result = {
                        "error": f"reading this photo took longer than {pool.timeout:.0f} s and was stopped; take "
                        "it again, smaller or closer, or type the sheet in"
                    }
        if "error" in result:
            stopped()
            return in_page_words(result["error"])
        kept.append(store.put_blob(game_id, "image/*", data))
        kept.append(store.put_blob(game_id, "image/jpeg", result.pop("jpeg")))
    except KeyError:  # the game deleted while the photo waited or was read
        stopped()
        raise HTTPException(404) from None
    except BaseException:  # the line full, no room, the request gone: the sheet stays as it was
        store.delete_blobs(game_id, kept)
        stopped()
        raise
    old: list[str] = []
    twins: list[str] = []

    def done(d: dict) -> bool:
        p = next((q for q in d["players"] if q["id"] == player_id), None)
        if p is None or p.get("job") != job:
            return False  # the player removed, or a newer photo or a typed-in sheet saved meanwhile
        twins.extend(q["name"] for q in d["players"] if q["id"] != player_id and q.get("photo_sha256") == digest)
        if twins:  # the same photo read for another player at the same moment
            p.update(reading=False, job=None)
            return False
        old.extend(b for b in (p.get("photo"), p.get("annotated")) if b)
        p["revision"] = p.get("revision", 0) + 1  # a tap made on the page of the old reading is refused
        p.update(
            source="photo",
            photo=kept[0],
            photo_sha256=digest,
            annotated=kept[1],
            reading=False,
            job=None,
            error=None,
            tokens=result["tokens"],
            chips=result["chips"],
            uncertain=result["uncertain"],
            boxes=result["boxes"],
            boxes_on="picture",
            corrections={},
            problems={},
            summary=result["summary"],
            read_yaml=result["read_yaml"],
        )
        return True

    try:
        _, stored = store.change(game_id, "allin", done)
    except KeyError:
        raise HTTPException(404) from None
    store.delete_blobs(game_id, old if stored else kept)
    return _same_photo(twins[0]) if twins else None


def _same_photo(twin: str) -> str:
    """Why a photo already read for player ``twin`` is not read for another."""
    return (
        f"the same photo as {twin}'s (identical files): one sheet would count twice; take a photo of this player's "
        "own sheet"
    )


async def _head(upload) -> bytes:
    """The first 4 KB of an upload (its kind is judged by them), leaving the rest spooled on disk, unread."""
    head = await upload.read(4096)
    await upload.seek(0)
    return head


def _player_in(data: dict, player_id: str) -> dict:
    p = next((p for p in data["players"] if p["id"] == player_id), None)
    if p is None:
        raise HTTPException(404)
    return p


def _picture_boxes(request: Request, game_id: str, p: dict) -> dict[str, list[float]]:
    """A photo player's field boxes as shares of its annotated picture. Players read before the picture carried its
    column of reasons kept their boxes as shares of the page alone: those are moved onto the picture's page part,
    whose size the stored picture's header gives."""
    boxes = p.get("boxes", {})
    if p.get("boxes_on") == "picture" or not boxes or not p.get("annotated"):
        return boxes
    found = request.app.state.store.blob(game_id, p["annotated"])
    return boxes if found is None else page_boxes_on_picture(boxes, found[1])


@router.get("/allin/{game_id}/p/{player_id}")
def allin_player(request: Request, game_id: str, player_id: str):
    """A player's sheet: the annotated read-back with every field to tap, the uncertain ones highlighted."""
    g = _game(request, game_id)
    p = _player(g, player_id)
    if p.get("source") != "photo":
        return RedirectResponse(f"/allin/{game_id}/p/{player_id}/grid", status_code=303)
    tokens, earned, spent = effective(p)
    uncertain = {u["field"]: u["reason"] for u in p.get("uncertain", [])}
    fields = []
    for field, box in _picture_boxes(request, game_id, p).items():
        value = (earned if field == "chips.earned" else spent) if field.startswith("chips.") else tokens.get(field, ".")
        fields.append(
            {
                "field": field,
                "box": box,
                "value": value,
                "uncertain": field in uncertain,
                "fixed": field in p.get("corrections", {}),
                "reason": uncertain.get(field, ""),
                "shown": "?"
                if value in (None, "?")
                else (card_html(value)["text"] if isinstance(value, str) and value != "." else value),
            }
        )
    return page(
        request,
        "allin_player.html",
        game=g,
        player=p,
        state=state(p),
        fields=fields,
        open=open_fields(p),
        ranks=[RANK_LABELS[r] for r in SHEET_RANK_ORDER],
        suits=[(s, SUIT_SYMBOLS[s]) for s in SUITS],
        chips_max=sheet_form(g.data["layout"]).chips,
    )


@router.post("/allin/{game_id}/p/{player_id}/fix")
async def allin_fix(request: Request, game_id: str, player_id: str):
    """Correct one field by tapping: a rank and a suit, or empty, for a card space; a number for a chip count."""
    g = _game(request, game_id)
    p = _player(g, player_id)
    form = await request.form()
    field = str(form.get("field", ""))
    chips_max = sheet_form(g.data["layout"]).chips
    if field.startswith("chips."):
        if field not in ("chips.earned", "chips.spent"):
            raise HTTPException(404)
        text = str(form.get("count", "")).strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 3 and int(text) <= chips_max):
            return error_page(
                request, "Not a chip count", [f"{field}: give a whole number from 0 to {chips_max}"], status_code=422
            )
        value: Any = int(text)
    else:
        if field not in p.get("boxes", {}) and field not in p.get("tokens", {}):
            raise HTTPException(404)
        if form.get("empty"):
            value = "."
        else:
            rank, suit = str(form.get("rank", "")), str(form.get("suit", ""))
            try:
                value = parse_card(rank + suit).code
            except CardCodeError:
                message = f"{field}: tap one rank and one suit, or Empty"
                return error_page(request, "Pick a rank and a suit", [message], status_code=422)

    seen = form.get("revision")  # the player's sheet as the page showed it
    stale = []

    def change(d: dict) -> None:
        q = _player_in(d, player_id)
        if isinstance(seen, str) and seen and seen != str(q.get("revision", 0)):
            stale.append(True)  # the photo was taken again (or typed in) meanwhile: this tap was for the old one
            return
        q.setdefault("corrections", {})[field] = value
        q["problems"] = {}

    _change_and_check(request, game_id, player_id, change)
    if stale:
        message = (
            f"{field}: {p['name']}'s sheet was taken again or typed in on another phone since this page was opened; "
            "reload it and correct the new reading"
        )
        if request.headers.get("accept", "").startswith("application/json"):
            return JSONResponse({"ok": False, "error": message}, status_code=409)
        return error_page(
            request, "This changed on another phone", [message], back=f"/allin/{game_id}/p/{player_id}", status_code=409
        )
    if request.headers.get("accept", "").startswith("application/json"):
        return JSONResponse({"ok": True, "value": value})
    return RedirectResponse(f"/allin/{game_id}/p/{player_id}", status_code=303)


@router.post("/allin/{game_id}/p/{player_id}/photo")
async def allin_retake(request: Request, game_id: str, player_id: str):
    """Take the player's photo again (or read the kept photo again: ``again=1``).  The sheet read before stays
    until the new photo is read; a new photo that cannot be read changes nothing."""
    g = _game(request, game_id)
    p = _player(g, player_id)
    form = await request.form()
    upload = form.get("photo")
    photo: Any = None
    if upload is not None and not isinstance(upload, str):
        head = await _head(upload)
        photo = upload if head else None
    else:
        head = b""
    if photo is None and form.get("again") and p.get("photo"):
        kept = request.app.state.store.blob(game_id, p["photo"])
        photo = head = kept[1] if kept else b""
    if not photo:
        return error_page(request, "No photo", ["take a photo of the sheet first"])
    if not image_suffix(head):
        return error_page(
            request,
            "Not an image",
            ["this file is not a photo (JPEG, PNG, WebP, TIFF, HEIC, AVIF); take the photo again"],
            status_code=422,
        )
    back = f"/allin/{game_id}/p/{player_id}"
    try:
        refused = await _read_photo(request, game_id, player_id, photo, str(form.get("ticket", "")))
    except Busy as exc:
        return busy_page(request, exc, back=back)
    except StorageFull as exc:
        return no_room_page(request, exc, back=back)
    if refused is not None:
        kept_as = "the sheet read before is kept" if p.get("tokens") else "nothing was kept"
        return error_page(
            request,
            "This photo could not be read",
            [refused, f"{p['name']}: {kept_as}; take the photo again, or type the sheet in"],
            back=back,
            status_code=422,
        )
    return RedirectResponse(back, status_code=303)


@router.get("/allin/{game_id}/p/{player_id}/grid")
def allin_grid(request: Request, game_id: str, player_id: str):
    """Type the sheet in (or correct any field of a read sheet): one box per card space, the chip counts."""
    g = _game(request, game_id)
    p = _player(g, player_id)
    return _grid_page(request, g, p, f"/allin/{game_id}/p/{player_id}/grid")


def _add_player(request: Request, game_id: str, player: dict) -> bool:
    """Append ``player`` to the stored game unless a player of that name (in any capitals) is there already; the
    name is checked in the same transaction as it is written, so two phones adding "Ann" at once make one Ann."""

    def add(d: dict) -> bool:
        if any(q["name"].casefold() == player["name"].casefold() for q in d["players"]):
            return False
        d["players"].append(player)
        return True

    return bool(request.app.state.store.change(game_id, "allin", add)[1])


@router.get("/allin/{game_id}/new/grid")
def allin_new_grid(request: Request, game_id: str, name: str = ""):
    """The grid of a player not added yet: saving it adds them (``name`` from the add-a-player form)."""
    g = _game(request, game_id)
    player = {"id": "", "name": name.strip()[:40], "source": "typed", "tokens": {}, "chips": {"earned": 0, "spent": 0}}
    return _grid_page(request, g, player, f"/allin/{game_id}/new/grid")


def _grid_page(request: Request, g, p: dict, action: str):
    form = sheet_form(g.data["layout"])
    tokens, earned, spent = effective(p)
    rows = []
    for grid_row in form.grid:
        row = []
        for name, kind in grid_row:
            value = tokens.get(name, ".")
            row.append(
                {
                    "name": name,
                    "kind": kind,
                    "value": "" if value == "." else value,
                    "problems": p.get("problems", {}).get(name, []),
                }
            )
        rows.append(row)
    return page(
        request,
        "allin_grid.html",
        game=g,
        player=p,
        action=action,
        rows=rows,
        earned=earned,
        spent=spent,
        golden=card_html(form.golden),
        cols=form.cols,
        sheet_problems=p.get("problems", {}),
    )


def _grid_values(g, form) -> tuple[dict[str, str], dict[str, Any]]:
    """The grid form's card tokens (``.`` for an empty box) and chip counts, as typed."""
    tokens = {}
    for name in sheet_form(g.data["layout"]).spaces:
        word = str(form.get(name, "")).strip().replace(" ", "")[:4] or "."
        tokens[name] = word
    counts: dict[str, Any] = {}
    for key in ("earned", "spent"):
        text = str(form.get(f"chips_{key}", "0")).strip() or "0"
        counts[key] = int(text) if text.isascii() and text.isdigit() and len(text) <= 3 else text[:6]
    return tokens, counts


@router.post("/allin/{game_id}/new/grid")
async def allin_new_grid_save(request: Request, game_id: str):
    """Add a player with their typed-in sheet; each problem is then shown next to its box."""
    g = _game(request, game_id)
    form = await request.form()
    name = str(form.get("name", "")).strip()
    if problem := _name_problem(g, name):
        return error_page(request, "The player cannot be added", [problem], back=f"/allin/{game_id}#players")
    tokens, counts = _grid_values(g, form)
    player_id = new_id()
    player = {"id": player_id, "name": name, "source": "typed", "tokens": tokens, "chips": counts}
    player.update(uncertain=[], boxes={}, corrections={})
    if not _add_player(request, game_id, player):
        problem = _name_problem(_game(request, game_id), name) or f"{name} already plays in this game"
        return error_page(request, "The player cannot be added", [problem], back=f"/allin/{game_id}#players")
    found = _change_and_check(request, game_id, player_id, lambda d: None)
    if found:
        return RedirectResponse(f"/allin/{game_id}/p/{player_id}/grid#problems", status_code=303)
    return RedirectResponse(f"/allin/{game_id}#players", status_code=303)


@router.post("/allin/{game_id}/p/{player_id}/grid")
async def allin_grid_save(request: Request, game_id: str, player_id: str):
    """Save the typed-in grid; each problem is shown next to its box."""
    g = _game(request, game_id)
    _player(g, player_id)
    form = await request.form()
    tokens, counts = _grid_values(g, form)
    name = str(form.get("name", "")).strip()
    if name and (problem := _name_problem(g, name, player_id)):
        return error_page(request, "The name cannot be changed", [problem], back=f"/allin/{game_id}/p/{player_id}/grid")

    taken = []

    def change(d: dict) -> None:
        q = _player_in(d, player_id)
        if name and any(o["name"].casefold() == name.casefold() and o["id"] != player_id for o in d["players"]):
            taken.append(name)  # another phone gave the name to another player meanwhile
            return
        if name:
            q["name"] = name
        q["revision"] = q.get("revision", 0) + 1
        q["reading"], q["job"] = False, None  # a photo still in line is not read over the typed sheet
        q["tokens"] = tokens
        q["chips"] = counts
        q["corrections"] = {}
        q["uncertain"] = []
        q["error"] = None
        if q.get("source") == "photo":
            q["source"] = "photo"  # the picture stays; every field is now as typed
        q["problems"] = {}

    found = _change_and_check(request, game_id, player_id, change)
    if taken:
        problem = _name_problem(_game(request, game_id), name, player_id) or f"{name} already plays in this game"
        return error_page(request, "The name cannot be changed", [problem], back=f"/allin/{game_id}/p/{player_id}/grid")
    if found:
        return RedirectResponse(f"/allin/{game_id}/p/{player_id}/grid#problems", status_code=303)
    return RedirectResponse(f"/allin/{game_id}#players", status_code=303)


def _drop_unread(request: Request, game_id: str, player_id: str) -> bool:
    """Remove a player just added whose photo was not read (refused, or the line full), unless their sheet was typed
    in meanwhile; True when removed (or gone already)."""

    def drop(d: dict) -> bool:
        p = next((q for q in d["players"] if q["id"] == player_id), None)
        if p is not None and (p.get("tokens") or p.get("reading")):
            return False
        if p is not None:
            d["players"].remove(p)
        return True

    return bool(request.app.state.store.change(game_id, "allin", drop, freeing=True)[1])


@router.post("/allin/{game_id}/p/{player_id}/delete")
def allin_delete_player(request: Request, game_id: str, player_id: str):
    """Remove a player (and their photo) from the game."""
    _player(_game(request, game_id), player_id)

    def remove(d: dict) -> list[str]:
        p = _player_in(d, player_id)
        d["players"].remove(p)
        return [p[k] for k in ("photo", "annotated") if p.get(k)]  # as stored now, a reading just saved too

    _, blobs = request.app.state.store.change(game_id, "allin", remove, freeing=True)
    request.app.state.store.delete_blobs(game_id, blobs)
    return RedirectResponse(f"/allin/{game_id}#players", status_code=303)


@router.get("/allin/{game_id}/blob/{blob_id}")
def allin_blob(request: Request, game_id: str, blob_id: str):
    """A photo or annotated picture kept with the game."""
    found = request.app.state.store.blob(game_id, blob_id)
    if found is None:
        raise HTTPException(404)
    media, data = found
    if media == "image/*":
        media = {
            ".jpg": "image/jpeg",
            ".png": "image/png",
            ".webp": "image/webp",
            ".gif": "image/gif",
            ".bmp": "image/bmp",
            ".tif": "image/tiff",
            ".heic": "image/heic",
            ".avif": "image/avif",
        }.get(image_suffix(data) or "", "application/octet-stream")
    return Response(
        data, media_type=media, headers={"Cache-Control": "private, max-age=86400", "X-Content-Type-Options": "nosniff"}
    )


@router.get("/allin/{game_id}/p/{player_id}/sheet.yaml")
def allin_player_yaml(request: Request, game_id: str, player_id: str):
    """One player's typed-in sheet file."""
    g = _game(request, game_id)
    p = _player(g, player_id)
    return attachment(
        player_text(g.data["layout"], p).encode("utf-8"), "application/yaml", file_names(g.data["players"])[player_id]
    )


@router.get("/allin/{game_id}/sheets.zip")
def allin_zip(request: Request, game_id: str):
    """Every player's typed-in sheet file, and the report when the game is scored, in one zip."""
    g = _game(request, game_id)
    names = file_names(g.data["players"])
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for p in g.data["players"]:
            z.writestr(names[p["id"]], player_text(g.data["layout"], p))
        result = score_game(g.data)
        if result["report"]:
            import json

            z.writestr("report.json", json.dumps(result["report"], indent=2, ensure_ascii=False) + "\n")
    return attachment(buf.getvalue(), "application/zip", "allin-game.zip")


@router.get("/allin/{game_id}/report.json")
def allin_report(request: Request, game_id: str):
    """The game's JSON report (as ``sheetsmith verify --json``); 409 while a sheet is not clear."""
    g = _game(request, game_id)
    result = score_game(g.data)
    if not result["report"]:
        return JSONResponse(
            {"error": "not every sheet is clear yet", "waiting": result["waiting"], "problems": result["problems"]},
            status_code=409,
        )
    return JSONResponse(result["report"])


@router.post("/allin/{game_id}/delete")
def allin_delete(request: Request, game_id: str):
    """Delete the game and its photos."""
    request.app.state.store.delete_game(game_id, "allin")
    return RedirectResponse("/allin", status_code=303)
