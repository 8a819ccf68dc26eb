"""``sheetsmith serve``: the web page for phones and laptops at the table (a thin face over :mod:`generator.jobs`).

Four pages: *Print* (every shipped item, a custom layout), *All In* (score a
game from photos or typed-in sheets), *Flip 7* (keep the score round by
round), *Editor* (a layout with a live preview).  Every job is done by the same
functions the command line calls; this package only parses forms, keeps games
in SQLite (:mod:`.store`) and renders pages.

:func:`create_app` builds the ASGI application; :func:`generator.web.serve.serve`
runs it with uvicorn.
"""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Optional, Sequence

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from generator import __version__
from generator.core.errors import SheetsmithError
from generator.web.common import HERE, MAX_UPLOAD, Guard, error_page, page
from generator.web.photos import LINE, TIMEOUT_S, PhotoPool
from generator.web.store import GAME_LIMIT, TOTAL_LIMIT, Store

log = logging.getLogger("sheetsmith.web")


def default_data_dir() -> Path:
    """The user's data folder for sheetsmith (platformdirs), where games are kept."""
    import platformdirs

    return Path(platformdirs.user_data_dir("sheetsmith", appauthor=False))


def create_app(
    data_dir: Optional[Path] = None,
    *,
    token: Optional[str] = None,
    photo_workers: int = 2,
    photo_timeout: float = TIMEOUT_S,
    max_upload: int = MAX_UPLOAD,
    hosts: Optional[Sequence[str]] = None,
    photo_line: int = LINE,
    game_limit: int = GAME_LIMIT,
    total_limit: int = TOTAL_LIMIT,
    public_url: Optional[str] = None,
):
    """The web application (ASGI).

    Args:
        data_dir: where the SQLite file lives (default :func:`default_data_dir`).
        token: the access token (``--lan``): requests without it get 401.
        photo_workers: worker processes reading photos.
        photo_timeout: seconds a photo may take before its request is answered with an error.
        max_upload: the largest request body, bytes.
        hosts: the only host names requests may name in their ``Host`` header (None: any).
        photo_line: most photos waiting for a worker (more are answered 429).
        game_limit, total_limit: most bytes of photos one game, and all games, keep (more are answered 507).
        public_url: the address phones reach the server at (``--lan``), for the links a game is shared with
            (None: the address the page was asked for).

    Returns:
        The application wrapped in its :class:`~generator.web.common.Guard`; the
        FastAPI object is its ``.app`` (state: ``store``, ``photos``).
    """
    from generator.web import allin_pages, flip7_pages, print_pages

    store = Store(data_dir or default_data_dir(), game_limit=game_limit, total_limit=total_limit)
    photos = PhotoPool(photo_workers, photo_timeout, photo_line)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        photos.start()
        yield
        photos.shutdown()

    app = FastAPI(
        title="sheetsmith", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )
    if hosts is not None:  # another site's page naming this server (DNS rebinding) gets 400
        from starlette.middleware.trustedhost import TrustedHostMiddleware

        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))
    app.state.store = store
    app.state.photos = photos
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(print_pages.router)
    app.include_router(allin_pages.router)
    app.include_router(flip7_pages.router)

    @app.get("/")
    def home(request: Request):
        return page(request, "home.html", allin=store.games("allin")[:5], flip7=store.games("flip7")[:5])

    @app.get("/photos/line")
    def photo_line_place(ticket: str = ""):
        """Where the photo sent with ``ticket`` is: its place in line, or being read (JSON, for the waiting
        phone); ``{"known": false}`` before it arrives and once it is done."""
        found = photos.place(ticket[:64]) if ticket else None
        return JSONResponse({"known": False} if found is None else {"known": True, **found})

    @app.exception_handler(SheetsmithError)
    async def sheetsmith_error(request: Request, exc: SheetsmithError):
        problems = getattr(exc, "problems", None)
        return error_page(
            request,
            "That did not work",
            [] if problems else [str(exc)],
            problems=problems,
            status_code=422 if exc.exit_code == 1 else 400,
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        titles = {404: "Not found", 405: "Not allowed", 413: "Too large"}
        detail = (
            exc.detail
            if isinstance(exc.detail, str) and exc.status_code != 404
            else "there is nothing at this address (a game deleted, or an old link?)"
        )
        return error_page(
            request, titles.get(exc.status_code, "That did not work"), [detail], status_code=exc.status_code
        )

    @app.exception_handler(RequestValidationError)
    async def form_error(request: Request, exc: RequestValidationError):
        messages = []
        for e in exc.errors():
            where = ".".join(str(x) for x in e.get("loc", ())[1:]) or "form"
            messages.append(f"{where}: {e.get('msg', 'not valid')}")
        return error_page(request, "Something in the form is missing or wrong", messages, status_code=422)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception):
        log.exception("error on %s %s", request.method, request.url.path)
        return error_page(
            request,
            "Something went wrong on the server",
            [
                f"{type(exc).__name__}: the request could not be completed; nothing was changed. "
                "The details are in the terminal where sheetsmith serve runs."
            ],
            status_code=500,
        )

    app.state.lan = token is not None
    app.state.public_url = public_url
    return Guard(app, token=token, limit=max_upload, share_code=store.share_code)
