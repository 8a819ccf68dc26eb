"""Page 3: the Flip 7 scorer.  Each round, each player's cards are tapped; the score pad is scored by
:func:`generator.jobs.flip7_pad.score_pad` (the report of ``sheetsmith verify PAD.yaml``) after every change.

A game's state is the pad itself: players, target (and ``flip7_bonus`` when a tick pad photo printed
a variant's, 15 otherwise) and rounds, each line the
cards in front of a player at the round's end, or a bust.  The page writes
it as the typed-in pad (:func:`generator.jobs.flip7_pad.pad_file`), so the
download is exactly the file ``verify`` reads, and every score, total,
status, winner and problem on the page is the verifier's.
"""

from __future__ import annotations

from typing import Any, Optional

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, RedirectResponse

from generator.core.errors import InputError
from generator.core.validation import quote, text_problem
from generator.jobs import verify
from generator.jobs.flip7_pad import (
    DEFAULT_TARGET,
    FLIP7_BONUS,
    MAX_FLIP7_BONUS,
    MODIFIER_CARDS,
    NUMBER_CARDS,
    Line,
    has_flip7,
    pad_file,
    score_pad,
)
from generator.web.common import attachment, busy_page, error_page, image_suffix, page, read_upload, share_link

router = APIRouter()

MIN_PLAYERS, MAX_PLAYERS = 3, 18
"""Players one deck serves (rulebook *Setup*)."""
MODIFIER_KEYS = MODIFIER_CARDS
NUMBER_KEYS = tuple(str(n) for n in NUMBER_CARDS)
PAD_FILE = "flip7-pad.yaml"


def pad_text(game: dict, rounds: Optional[list[dict]] = None) -> str:
    """The game as a typed-in pad (``rounds`` instead of the stored ones, when given)."""
    rounds = game["rounds"] if rounds is None else rounds
    return pad_file(
        game["players"],
        rounds,
        target=game["target"],
        flip7_bonus=game.get("flip7_bonus", FLIP7_BONUS),
        comment=f"Flip 7: {game.get('title') or 'a game'}, kept with sheetsmith serve. "
        "Check it: sheetsmith verify FILE",
    )


def score(game: dict, rounds: Optional[list[dict]] = None) -> dict:
    """The verifier's report of the game, with ``error`` (messages) when the pad cannot be scored."""
    rounds = game["rounds"] if rounds is None else rounds
    try:
        verdict = score_pad(
            game["players"], rounds, target=game["target"], flip7_bonus=game.get("flip7_bonus", FLIP7_BONUS)
        )
    except InputError as exc:
        return {
            "error": [p.message for p in exc.problems],
            "rounds": [],
            "totals": {p: 0 for p in game["players"]},
            "status": "in_progress",
            "winners": [],
            "problems": [],
        }  # for the page only
    return dict(verdict.report)


def winners_of(report: dict) -> list[str]:
    """The report's winners (a list; reports of the older format name one ``winner``)."""
    if "winners" in report:
        return list(report["winners"])
    return [report["winner"]] if report.get("winner") else []


def _parse_round(form, players: list[str]) -> dict[str, Line]:
    """One round from the tap form: ``p{i}`` the cards tapped for player i, ``b{i}`` bust, ``f{i}`` Flip 7."""
    out: dict[str, Line] = {}
    for i, name in enumerate(players):
        picked = set(form.getlist(f"p{i}"))
        if form.get(f"b{i}"):
            out[name] = {"bust": True}
            continue
        cards: list[Any] = [int(n) for n in NUMBER_KEYS if n in picked] + [m for m in MODIFIER_KEYS if m in picked]
        line: Line = {"cards": cards}
        if form.get(f"f{i}"):
            line["flip7"] = True
        out[name] = line
    return out


def _cells(game: dict, report: dict) -> list[dict]:
    """Per player: name, total, and per round the score, running total and the problems found there."""
    by_cell: dict[tuple, list[str]] = {}
    for p in report.get("problems", []):
        by_cell.setdefault((p["round"], p.get("player")), []).append(p["message"])
    rows = []
    for name in game["players"]:
        running, cells = 0, []
        for i, r in enumerate(report.get("rounds", []), start=1):
            running += r.get(name, 0)
            line = game["rounds"][i - 1].get(name, {}) if i <= len(game["rounds"]) else {}
            cells.append(
                {
                    "round": i,
                    "score": r.get(name, 0),
                    "running": running,
                    "bust": bool(line.get("bust")),
                    "cards": line.get("cards", []),
                    "problems": by_cell.get((i, name), []),
                }
            )
        rows.append(
            {
                "name": name,
                "total": report.get("totals", {}).get(name, 0),
                "cells": cells,
                "winner": name in winners_of(report),
            }
        )
    return rows


def _entry_hints(round_data: dict) -> dict[str, list[str]]:
    """Notes while tapping: Flip 7 tapped but fewer than seven different numbers tapped."""
    out: dict[str, list[str]] = {}
    for name, line in round_data.items():
        cards = line.get("cards", [])
        if line.get("flip7") and not has_flip7(cards):
            n = len({c for c in cards if isinstance(c, int)})
            out.setdefault(name, []).append(f"Flip 7 is tapped, but {n} different numbers are: tap all seven")
    return out


@router.get("/flip7")
def flip7_list(request: Request):
    """The games kept, and a form to start one."""
    return page(
        request,
        "flip7_list.html",
        games=request.app.state.store.games("flip7"),
        target=DEFAULT_TARGET,
        bonus=FLIP7_BONUS,
        max_bonus=MAX_FLIP7_BONUS,
    )


def _whole_number(text: str, low: int, high: int) -> bool:
    """True when a form field holds a whole number from ``low`` to ``high`` in ASCII digits (at most six of them)."""
    return text.isascii() and text.isdigit() and len(text) <= 6 and low <= int(text) <= high


@router.post("/flip7")
async def flip7_new(request: Request):
    """Start a game: players (3 to 18, one per line or separated by commas), target, Flip 7 bonus (a house
    variant, 0 to 100; the rulebook's 15 when left as it is) and title."""
    form = await request.form()
    raw = str(form.get("players", ""))
    names = [n.strip() for n in raw.replace(",", "\n").split("\n") if n.strip()]
    target_text = str(form.get("target", DEFAULT_TARGET)).strip()
    bonus_text = str(form.get("flip7_bonus", FLIP7_BONUS)).strip() or str(FLIP7_BONUS)
    title = str(form.get("title", "")).strip()[:60]
    problems = []
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        problems.append(f"{len(names)} players named; Flip 7 is played by {MIN_PLAYERS} to {MAX_PLAYERS} with one deck")
    if not _whole_number(target_text, 50, 1000):
        problems.append(f"target {target_text!r}: give a whole number from 50 to 1000 (the usual game: 200)")
    if not _whole_number(bonus_text, 0, MAX_FLIP7_BONUS):
        problems.append(
            f"Flip 7 bonus {bonus_text!r}: give a whole number from 0 to {MAX_FLIP7_BONUS} (the rulebook's: "
            f"{FLIP7_BONUS})"
        )
    if any(len(n) > 30 for n in names):
        problems.append("a name is longer than 30 characters; shorten it")
    problems += [p for n in names if (p := text_problem(n, f"the name {quote(n)}"))]
    if problems:
        return error_page(request, "The game cannot start yet", problems, back="/flip7")
    game = {"title": title or f"{len(names)} players", "players": names, "target": int(target_text), "rounds": []}
    if int(bonus_text) != FLIP7_BONUS:  # a house variant: every round is scored with it, and the pad file says so
        game["flip7_bonus"] = int(bonus_text)
    rep = score(game)
    if rep.get("error"):
        return error_page(request, "The game cannot start yet", rep["error"], back="/flip7")
    stored = request.app.state.store.create_game("flip7", game["title"], game)
    return RedirectResponse(f"/flip7/{stored.id}", status_code=303)


@router.post("/flip7/photos")
async def flip7_from_photos(request: Request):
    """Start a game from photos of Flip 7 tick pads, one per player (3 to 18), each player named in the form (a
    box per photo, or a list in the photos' order; "Player 3" when left empty, never the file's name). Every pad is
    read in a worker (:func:`generator.jobs.photo_reads.read_tick_pad`), the pads are checked together by the
    verifier (:func:`generator.jobs.verify.verify_texts`), and the rounds read become the game's rounds.  A tick the
    reader is unsure of, an impossible row or a photo it cannot read is listed instead, and no game is started:
    nothing is guessed."""
    import hashlib

    from generator.jobs.photo_reads import read_tick_pad
    from generator.web.photos import Busy, PhotoTimeout

    form = await request.form()
    title = str(form.get("title", "")).strip()[:60]
    uploads = [u for u in form.getlist("photos") if not isinstance(u, str)]
    problems: list[str] = []
    if not MIN_PLAYERS <= len(uploads) <= MAX_PLAYERS:
        problems.append(
            f"{len(uploads)} photos; give one tick pad photo per player, {MIN_PLAYERS} to {MAX_PLAYERS} players"
        )
    typed = [str(n).strip() for n in form.getlist("player")]  # a box per photo (the page's script makes them)
    if not any(typed):  # else the list, in the photos' order
        typed = [n.strip() for n in str(form.get("players", "")).replace(",", "\n").split("\n") if n.strip()]
    if typed and len(typed) != len(uploads) and not problems:
        problems.append(f"{len(typed)} names for {len(uploads)} photos: give one name per photo, in the photos' order")
    names_given = [typed[k] if k < len(typed) and typed[k] else f"Player {k + 1}" for k in range(len(uploads))]
    if any(len(n) > 30 for n in names_given):
        problems.append("a name is longer than 30 characters; shorten it")
    problems += [p for n in names_given if (p := text_problem(n, f"the name {quote(n)}"))]
    if len({n.casefold() for n in names_given}) < len(names_given):
        problems.append("two photos are given the same player's name: name each pad's player")
    readings = []
    seen: dict[str, str] = {}  # a photo's SHA-256 → the player it was read for
    pool = request.app.state.photos
    for k, upload in enumerate(uploads if not problems else []):
        name = names_given[k]
        try:
            async with pool.turn(str(form.get("ticket", ""))):  # each photo waits spooled on disk for its turn
                data = await read_upload(upload)
                digest = hashlib.sha256(data).hexdigest()
                if digest in seen:
                    problems.append(
                        f"{name}: the same photo as {seen[digest]}'s (identical files): one pad would count twice; "
                        "give each player's pad its own photo"
                    )
                    continue
                seen[digest] = name
                suffix = image_suffix(data)
                if suffix is None:
                    problems.append(f"{name}: not a photo sheetsmith reads (JPEG, PNG, WebP, TIFF, HEIC, AVIF)")
                    continue
                try:
                    result = await pool.read(
                        data, suffix, layout=None, player=name, display=f"the photo of {name}", job=read_tick_pad
                    )
                except PhotoTimeout:
                    result = {
                        "error": f"reading the photo took longer than {pool.timeout:.0f} s; take it again, closer"
                    }
        except Busy as exc:
            return busy_page(request, exc, back="/flip7")
        if result.get("error"):
            problems.append(f"{name}: {result['error']}")
            continue
        problems += [f"{name}, {u['field']}: uncertain in the photo: {u['reason']}" for u in result["uncertain"]]
        readings.append(result)
    names = [r["player"] for r in readings]
    if not problems:
        try:
            verdict = verify.verify_texts([(f"{r['player']}.read.yaml", r["read_yaml"]) for r in readings])
            problems += [
                p.message for p in verdict.problems if p.severity == "error" and verdict.report.get("impossible")
            ]
        except InputError as exc:
            problems += [p.message for p in exc.problems]
    if problems:
        return error_page(
            request,
            "The tick pads cannot be scored yet",
            problems + ["look at the pads, then take the photos again, or start a game and tap the rounds in"],
            back="/flip7",
        )
    n = max((len(r["rows"]) for r in readings), default=0)
    rounds = []
    for i in range(n):
        rnd: dict[str, Line] = {}
        for r in readings:
            tokens = r["rows"][i] if i < len(r["rows"]) else []
            if "bust" in tokens:
                rnd[r["player"]] = {"bust": True}
            else:
                rnd[r["player"]] = {"cards": [int(t) if t.isdigit() else t for t in tokens]}
        rounds.append(rnd)
    game = {
        "title": title or f"{len(names)} tick pads",
        "players": names,
        "target": readings[0]["target"],
        "rounds": rounds,
    }
    if readings[0].get("flip7_bonus", FLIP7_BONUS) != FLIP7_BONUS:  # a variant's pad: scored with the bonus it printed
        game["flip7_bonus"] = readings[0]["flip7_bonus"]
    rep = score(game)
    if rep.get("error"):
        return error_page(request, "The tick pads cannot be scored yet", rep["error"], back="/flip7")
    stored = request.app.state.store.create_game("flip7", game["title"], game)
    return RedirectResponse(f"/flip7/{stored.id}", status_code=303)


def _game(request: Request, game_id: str):
    g = request.app.state.store.game(game_id, "flip7")
    if g is None:
        raise HTTPException(404)
    return g


@router.get("/flip7/{game_id}")
def flip7_game(request: Request, game_id: str, edit: int = 0):
    """The game: standings by player and round, status, winner, and the tap form for the next round (or round
    ``edit``)."""
    g = _game(request, game_id)
    report = score(g.data)
    n = len(g.data["rounds"])
    editing = edit if 1 <= edit <= n else 0
    draft = g.data.get("draft") or {}
    if editing:
        current = g.data["rounds"][editing - 1]
    else:  # the taps of a round not saved yet (a closed tab, a phone gone to sleep) come back
        current = draft.get("lines", {}) if draft.get("round") == n + 1 else {}
    open_round = editing or (report["status"] != "finished" and not report.get("error"))
    return page(
        request,
        "flip7_game.html",
        share=share_link(request, f"/flip7/{g.id}", g.id),
        game=g,
        data=g.data,
        report=report,
        winners=winners_of(report),
        rows=_cells(g.data, report),
        editing=editing,
        current=current,
        open_round=open_round,
        numbers=NUMBER_KEYS,
        modifiers=MODIFIER_KEYS,
        next_round=editing or n + 1,
        was=round_digest(current) if editing else "",
    )


def round_digest(round_data: dict) -> str:
    """A short fingerprint of a round as stored: an edit form carries the one of the round it shows, so that an
    edit made on a round changed meanwhile on another phone is told, not saved over it."""
    import hashlib
    import json

    return hashlib.sha256(json.dumps(round_data, sort_keys=True).encode()).hexdigest()[:16]


def _round_number(form) -> int:
    """The form's ``round`` field: 0 (absent or empty) for a new round, else the round edited.

    Raises:
        HTTPException: 422 when it is not a whole number (a file, words, a sign).
    """
    text = form.get("round", "") or ""
    if isinstance(text, str) and (not text or _whole_number(text, 0, 999_999)):
        return int(text or 0)
    raise HTTPException(422, "round: give the number of the round edited, or leave it empty for a new round")


def _with_round(data: dict, number: int, round_data: dict) -> list[dict]:
    rounds = list(data["rounds"])
    if 1 <= number <= len(rounds):
        rounds[number - 1] = round_data
    else:
        rounds.append(round_data)
    return rounds


@router.post("/flip7/{game_id}/preview")
async def flip7_preview(request: Request, game_id: str):
    """While tapping: each player's round score and problems, and the totals, as the verifier would give them (JSON)."""
    g = _game(request, game_id)
    form = await request.form()
    number = _round_number(form)
    round_data = _parse_round(form, g.data["players"])
    rounds = _with_round(g.data, number, round_data)
    report = score(g.data, rounds)
    i = number if 1 <= number <= len(g.data["rounds"]) else len(rounds)
    if not number and str(form.get("next", "")) == str(
        len(g.data["rounds"]) + 1
    ):  # keep the new round's taps as they come
        request.app.state.store.change(game_id, "flip7", lambda d: d.update(draft={"round": i, "lines": round_data}))
    row = report["rounds"][i - 1] if len(report.get("rounds", [])) >= i else {}
    hints = _entry_hints(round_data)
    players = {}
    for j, name in enumerate(g.data["players"]):
        line = round_data[name]
        msgs = [p["message"] for p in report.get("problems", []) if p["round"] == i and p.get("player") == name]
        players[str(j)] = {
            "score": row.get(name),
            "flip7": has_flip7(line.get("cards", [])),
            "bust": bool(line.get("bust")),
            "problems": msgs + hints.get(name, []),
            "total": report["totals"].get(name, 0),
        }
    whole = [p["message"] for p in report.get("problems", []) if p["round"] == i and p.get("player") is None]
    return JSONResponse(
        {
            "players": players,
            "round_problems": whole,
            "error": report.get("error", []),
            "status": report["status"],
            "winners": winners_of(report),
        }
    )


@router.post("/flip7/{game_id}/rounds")
async def flip7_save_round(request: Request, game_id: str):
    """Save the tapped round (a new one, or round ``round`` when editing); written at once."""
    g = _game(request, game_id)
    form = await request.form()
    number = _round_number(form)
    made_for = _made_for(form, "next")
    was = form.get("was")  # the edited round's fingerprint as the page showed it
    round_data = _parse_round(form, g.data["players"])

    def change(data: dict) -> Optional[tuple[int, list[str]]]:
        """None when saved (or saved already); else the status and the messages of the refusal."""
        n = len(data["rounds"])
        if number > n:
            return 409, [
                f"round {number} is no longer on the pad (it has {n} round{'s' if n != 1 else ''} now: removed on "
                "another phone?); reload the page"
            ]
        if number and isinstance(was, str) and was and round_digest(data["rounds"][number - 1]) != was:
            if data["rounds"][number - 1] == round_data:
                return None  # the same edit sent again
            return 409, [f"round {number} was changed on another phone meanwhile: reload the page and edit it there"]
        if not number and made_for is not None and made_for != n + 1:  # the page was made before another save
            if 1 <= made_for <= n and data["rounds"][made_for - 1] == round_data:
                return None  # the same round sent again (a double tap, a resent form): saved once already
            return 409, [
                f"round {made_for} was saved on another phone meanwhile (the pad has {n} round"
                f"{'s' if n != 1 else ''} now): reload the page and tap your cards into it there"
            ]
        rounds = _with_round(data, number, round_data)
        report = score(data, rounds)
        if report.get("error"):
            return 422, report["error"]
        data["rounds"] = rounds
        data.pop("draft", None)
        return None

    _, refused = request.app.state.store.change(game_id, "flip7", change)
    if refused:
        status, messages = refused
        title = "This changed on another phone" if status == 409 else "This round cannot be saved"
        return error_page(request, title, messages, back=f"/flip7/{game_id}", status_code=status)
    return RedirectResponse(f"/flip7/{game_id}#standings", status_code=303)


def _made_for(form, key: str) -> Optional[int]:
    """The round count a form was made for (its hidden ``key`` field), or None when it carries none.

    Raises:
        HTTPException: 422 when the field is not a whole number.
    """
    text = form.get(key)
    if text is None or text == "":
        return None
    if isinstance(text, str) and _whole_number(text, 0, 999_999):
        return int(text)
    raise HTTPException(422, f"{key}: the page's round count, a whole number; reload the page")


@router.post("/flip7/{game_id}/undo")
async def flip7_undo(request: Request, game_id: str):
    """Remove the last round: the last the page showed (its ``rounds`` count), so a second tap removes nothing."""
    _game(request, game_id)
    form = await request.form()
    shown = _made_for(form, "rounds")

    def undo(d: dict) -> None:
        if d["rounds"] and (shown is None or shown == len(d["rounds"])):  # a second tap, or a stale page: no-op
            d["rounds"].pop()

    request.app.state.store.change(game_id, "flip7", undo)
    return RedirectResponse(f"/flip7/{game_id}", status_code=303)


@router.get("/flip7/{game_id}/pad.yaml")
def flip7_download(request: Request, game_id: str):
    """The pad as the typed-in file ``sheetsmith verify`` reads."""
    g = _game(request, game_id)
    return attachment(pad_text(g.data).encode("utf-8"), "application/yaml", "flip7-pad.yaml")


@router.get("/flip7/{game_id}/report.json")
def flip7_report(request: Request, game_id: str):
    """The verifier's JSON report of the pad (as ``sheetsmith verify --json``)."""
    g = _game(request, game_id)
    report = score(g.data)
    return JSONResponse(report, status_code=422 if report.get("error") else 200)


@router.post("/flip7/{game_id}/delete")
def flip7_delete(request: Request, game_id: str):
    """Delete the game."""
    request.app.state.store.delete_game(game_id, "flip7")
    return RedirectResponse("/flip7", status_code=303)
