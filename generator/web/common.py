"""What every page shares: the templates, the access token, the upload limit, error pages, uploads judged by content."""

from __future__ import annotations

import base64
import hmac
import re
import secrets
from pathlib import Path
from typing import Any, Callable, Optional
from urllib.parse import parse_qs, parse_qsl, quote, urlencode

from fastapi import HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates

from generator.core.errors import Problem

HERE = Path(__file__).resolve().parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.filters["b64"] = lambda text: base64.b64encode(str(text).encode("utf-8")).decode("ascii")

MAX_UPLOAD = 30 * 1024 * 1024
"""Largest request body accepted (a phone photo is 2 to 12 MB)."""
TOKEN_COOKIE = "sheetsmith_token"


def page(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """Render template ``name`` with ``context`` (plus the request)."""
    return templates.TemplateResponse(request, name, context, status_code=status_code)


def error_page(
    request: Request,
    title: str,
    messages: list[str] | None = None,
    *,
    status_code: int = 400,
    back: Optional[str] = None,
    problems: Optional[list[Problem]] = None,
) -> HTMLResponse:
    """A page telling what went wrong (never a traceback): a title, messages and located problems."""
    return page(
        request,
        "error.html",
        status_code=status_code,
        title=title,
        messages=messages or [],
        problems=[problem_dict(p) for p in problems or []],
        back=back or request.headers.get("referer") or "/",
    )


def busy_page(request: Request, busy: Any, *, back: str) -> HTMLResponse:
    """429 for a photo refused because the line of photos is full (``busy``: a
    :class:`~generator.web.photos.Busy`): nothing was added, and ``Retry-After`` says when to send it again."""
    response = error_page(
        request,
        "Many photos are being read",
        [f"the line of photos to read is full; nothing was added. Send this photo again in about {busy.retry_after} s"],
        status_code=429,
        back=back,
    )
    response.headers["Retry-After"] = str(busy.retry_after)
    return response


def no_room_page(request: Request, full: Exception, *, back: str) -> HTMLResponse:
    """507 for a photo that could not be kept (``full``: a :class:`~generator.web.store.StorageFull`, whose
    message says which limit and what to delete); nothing of it was kept."""
    return error_page(request, "No room for this photo", [str(full)], status_code=507, back=back)


def share_link(request: Request, path: str, game_id: str) -> Optional[dict]:
    """How the host shares a game with its players (``--lan`` only, else None): ``{"url", "qr"}``, the game's
    address with its share code, and that address as a QR code (an SVG data URI)."""
    if not getattr(request.app.state, "lan", False):
        return None
    import segno

    code = request.app.state.store.share_code(game_id, make=True)
    if code is None:
        return None
    base = getattr(request.app.state, "public_url", None) or str(request.base_url)
    url = f"{base.rstrip('/')}{path}?code={code}"
    return {"url": url, "qr": segno.make(url, error="m").svg_data_uri(scale=4, border=2)}


def problem_dict(p: Problem) -> dict:
    """A problem as plain data for a page or JSON: file, line, col, message, severity, and the one-line text."""
    return {"file": p.file, "line": p.line, "col": p.col, "message": p.message, "severity": p.severity, "text": str(p)}


class TooLarge(HTTPException):
    """The request body is over :data:`MAX_UPLOAD`."""

    def __init__(self, limit: int):
        super().__init__(
            413,
            f"the upload is larger than {limit // (1024 * 1024)} MB; take the photo at a lower "
            "resolution, or send a smaller file",
        )


GAME_PATH = re.compile(r"/(?:allin|flip7)/([A-Za-z0-9_-]{12})(?:/|$)")
"""A game's pages: ``/allin/<game id>…`` or ``/flip7/<game id>…``."""
FORM_COOKIE = "sheetsmith_form"
"""The cookie every page leaves, which a request that changes something and names no ``Origin`` must carry."""
GAME_COOKIE = "sheetsmith_game_"
"""Start of the name of the cookie that keeps a game's share code (the game's id follows)."""


class Guard:
    """ASGI middleware in front of every page: the access codes (``--lan``), the body size limit, and
    form posts from other sites refused.

    With a ``token`` (the host's code), a request is let in when its query has ``token=…`` (then a cookie keeps it
    for the next requests, and a page asked for so is redirected to its address without the code) or its cookie
    holds the token: the host sees every game.  A game's players are let in with that game's share code
    (``share_code(game id)``) the same way, ``code=…`` then a cookie, but only into that game's pages (and the
    page's style and script); any other request gets 401.  A body over ``limit`` bytes is refused with 413 before it
    is read (by its Content-Length) or as soon as it passes the limit.
    """

    def __init__(
        self,
        app,
        *,
        token: Optional[str] = None,
        limit: int = MAX_UPLOAD,
        share_code: Optional[Callable[[str], Optional[str]]] = None,
    ):
        self.app = app
        self.token = token
        self.limit = limit
        self.share_code = share_code or (lambda game_id: None)
        self.form_secret = secrets.token_urlsafe(16)
        self._form_cookie = f"{FORM_COOKIE}={self.form_secret}; Path=/; HttpOnly; SameSite=Strict".encode()

    def _foreign(self, headers: dict[str, str], has_form_cookie: bool) -> Optional[str]:
        """Why a request that changes something does not come from a page of this server, or None.

        A browser names the page that sent a form in ``Origin``: it must be this server (``null``, a sandboxed
        frame or a file, is none of its pages).  A request without ``Origin`` must carry the form cookie, which
        every page of this server leaves (``SameSite=Strict``: a browser sends it only with requests made by this
        server's own pages), and must not be marked as sent from another site (``Sec-Fetch-Site``)."""
        origin = headers.get("origin")
        if origin is not None:
            if origin.split("://", 1)[-1] != headers.get("host", ""):
                return "sheetsmith: a form from another site was refused"
            return None
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return "sheetsmith: a form from another site was refused"
        if not has_form_cookie:
            return (
                "sheetsmith: a form that does not come from this server's page was refused; open the page and send "
                "it from there"
            )
        return None

    def _guest(self, scope, query: dict, cookies: str) -> tuple[Optional[str], bool]:
        """For a request without the host's code: ``(the game id whose share code it gives in its query, or None;
        whether it may pass)``."""
        path = scope.get("path", "")
        m = GAME_PATH.match(path)
        if m:
            code = self.share_code(m.group(1))
            if not code:
                return None, False
            given = query.get("code", [""])[0]
            if given and _same(given, code):
                return m.group(1), True
            kept = _cookie(cookies, GAME_COOKIE + m.group(1))
            return None, bool(kept and _same(kept, code))
        if path.startswith("/static/") or path == "/photos/line":  # a game's page needs its style and script
            for part in cookies.split(";"):
                name, _, value = part.strip().partition("=")
                if name.startswith(GAME_COOKIE) and value:
                    code = self.share_code(name[len(GAME_COOKIE) :])
                    if code and _same(value, code):
                        return None, True
        return None, False

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        set_cookie: Optional[str] = None
        if self.token is not None:
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
            given = query.get("token", [""])[0]
            cookie = _cookie(headers.get("cookie", ""), TOKEN_COOKIE)
            if given and _same(given, self.token):
                set_cookie = f"{TOKEN_COOKIE}={self.token}"
            elif not (cookie and _same(cookie, self.token)):
                game_id, may = self._guest(scope, query, headers.get("cookie", ""))
                if not may:
                    return await _plain(
                        send,
                        401,
                        "sheetsmith: this page needs an access code. Open the address 'sheetsmith serve --lan' "
                        "printed (or scan its QR code), or the link to your game that the host shares",
                    )
                if game_id is not None:
                    set_cookie = f"{GAME_COOKIE}{game_id}={query['code'][0]}"
            if set_cookie and scope["method"] in ("GET", "HEAD"):  # the code out of the address bar and the history
                return await _to_cookie(send, scope, set_cookie)
        has_form_cookie = _same(_cookie(headers.get("cookie", ""), FORM_COOKIE), self.form_secret)
        if scope["method"] in ("POST", "PUT", "DELETE", "PATCH"):
            if refused := self._foreign(headers, has_form_cookie):
                return await _plain(send, 403, refused)
            length = headers.get("content-length")
            if length and length.isdigit() and int(length) > self.limit:
                return await _plain(send, 413, str(TooLarge(self.limit).detail))
        seen = 0
        limit = self.limit

        async def limited():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise TooLarge(limit)
            return message

        async def send_with_cookie(message):
            if message["type"] == "http.response.start":
                extra = [] if has_form_cookie else [(b"set-cookie", self._form_cookie)]
                if set_cookie:
                    extra.append((b"set-cookie", f"{set_cookie}; {COOKIE_FLAGS}".encode()))
                message = {**message, "headers": list(message.get("headers", [])) + extra}
            await send(message)

        await self.app(scope, limited, send_with_cookie)


COOKIE_FLAGS = "Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000"


def _same(given: str, token: str) -> bool:
    """True when ``given`` is the token (compared in constant time, whatever characters it holds)."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), token.encode("utf-8"))


def _cookie(header: str, name: str) -> str:
    for part in header.split(";"):
        k, _, v = part.strip().partition("=")
        if k == name:
            return v
    return ""


async def _to_cookie(send, scope, cookie: str) -> None:
    """Answer a page asked for with an access code in its address: the code kept in a cookie (``cookie``:
    ``name=value``), and a redirect (303) to the same address without it, so that it is neither shown, nor kept in
    the history, nor sent on."""
    kept = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
    query = urlencode([(k, v) for k, v in kept if k not in ("token", "code")])
    # one leading slash: "//host/…" would send the browser to another site
    location = "/" + quote((scope.get("path", "/") or "/").lstrip("/\\")) + (f"?{query}" if query else "")
    await send(
        {
            "type": "http.response.start",
            "status": 303,
            "headers": [
                (b"location", location.encode("latin-1", "replace")),
                (b"set-cookie", f"{cookie}; {COOKIE_FLAGS}".encode()),
                (b"cache-control", b"no-store"),
                (b"referrer-policy", b"no-referrer"),
                (b"content-length", b"0"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": b""})


async def _plain(send, status: int, text: str) -> None:
    body = (
        f"<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>"
        f"<title>sheetsmith</title><p style='font:1.1rem sans-serif;margin:2rem'>{_esc(text)}</p>"
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# --- uploads judged by content


IMAGE_SIGNATURES = (
    (b"\xff\xd8\xff", ".jpg"),
    (b"\x89PNG\r\n\x1a\n", ".png"),
    (b"GIF8", ".gif"),
    (b"BM", ".bmp"),
    (b"II*\x00", ".tif"),
    (b"MM\x00*", ".tif"),
)


def image_suffix(data: bytes) -> Optional[str]:
    """The file ending of an image by its first bytes (JPEG, PNG, WebP, TIFF, BMP, GIF, HEIC, AVIF), or None."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return ".webp"
    if data[4:8] == b"ftyp" and data[8:12] in (b"avif", b"avis"):
        return ".avif"
    if is_heic(data):  # read as the command line reads it (pillow-heif)
        return ".heic"
    for sig, suffix in IMAGE_SIGNATURES:
        if data.startswith(sig):
            return suffix
    return None


def is_heic(data: bytes) -> bool:
    """True for an HEIC/HEIF picture (an iPhone's own format)."""
    return data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"mif1", b"msf1", b"hevc")


async def read_upload(upload) -> bytes:
    """All bytes of an uploaded file (the size limit is kept by :class:`Guard`)."""
    data = await upload.read()
    await upload.close()
    return data


def attachment(data: bytes, media_type: str, name: str) -> Response:
    """A download: ``name`` is made by the server, never taken from a request."""
    return Response(data, media_type=media_type, headers={"Content-Disposition": f'attachment; filename="{name}"'})
