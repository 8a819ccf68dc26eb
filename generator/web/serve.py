"""Running the web page: the address, the access token and its QR code for ``--lan``, then uvicorn."""

from __future__ import annotations

import secrets
import socket
from pathlib import Path
from typing import Callable, Optional


def lan_address() -> str:
    """This computer's address on the local network (the one a phone on the same Wi-Fi reaches), or 127.0.0.1.

    Asks the system which interface it would use for an outside address; no packet is sent.
    """
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere; connect() on UDP sends nothing
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def new_token() -> str:
    """A random access token (URL-safe, 128 bits)."""
    return secrets.token_urlsafe(16)


def qr_text(url: str, *, ansi: bool = False) -> str:
    """``url`` as a QR code of block characters for a terminal, two modules a character high, four modules of quiet
    zone.

    Dark modules are drawn with the text colour (``█ ▀ ▄``).  With ``ansi`` the
    code is drawn black on white by colour codes, so it reads on dark and light
    terminals alike; without, it suits dark text on a light background.
    """
    import segno

    qr = segno.make(url, error="m")
    border = 4
    rows = [[bool(v) for v in row] for row in qr.matrix]
    width = len(rows[0]) + 2 * border
    rows = (
        [[False] * width for _ in range(border)]
        + [[False] * border + r + [False] * border for r in rows]
        + [[False] * width for _ in range(border)]
    )
    if len(rows) % 2:
        rows.append([False] * width)
    chars = {(True, True): "█", (False, False): " ", (True, False): "▀", (False, True): "▄"}
    lines = ["".join(chars[(top, bottom)] for top, bottom in zip(rows[y], rows[y + 1])) for y in range(0, len(rows), 2)]
    if ansi:
        lines = [f"\033[30;107m{line}\033[0m" for line in lines]
    return "\n".join(lines)


LOCAL_HOSTS = ("127.0.0.1", "localhost")
"""The host names a page served to this computer only answers to (a page of another site that makes its name
point here, DNS rebinding, gets 400)."""


def _listen(host: str, port: int):
    """A socket bound to ``host``:``port`` and listening, before any address is printed.

    Raises:
        SheetsmithError: the port is taken (another server?) or may not be used.
    """
    import errno
    import socket

    from generator.core.errors import SheetsmithError

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        why = (
            "is in use (another sheetsmith serve, or another server?)"
            if exc.errno == errno.EADDRINUSE
            else f"cannot be used ({exc.strerror})"
        )
        raise SheetsmithError(f"port {port} {why}; pick another with --port") from None
    return sock


def serve(
    *,
    port: int = 8000,
    lan: bool = False,
    data_dir: Optional[Path] = None,
    workers: int = 2,
    say: Optional[Callable[[str], None]] = None,
) -> None:
    """Serve the web page until Ctrl-C.

    Args:
        port: the TCP port.
        lan: bind every interface, require a random token and print the address with it (text and QR code);
            otherwise bind 127.0.0.1 only.
        data_dir: where games are kept (default: the user's data folder).
        workers: worker processes reading photos.
        say: prints one line (or block) for the person who started the server (default: stdout).

    Raises:
        SheetsmithError: the port is taken or the data folder cannot be used (before any address is printed).
    """
    import sys

    import uvicorn

    def default_say(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    say = say or default_say

    from generator.web.app import create_app, default_data_dir

    folder = data_dir or default_data_dir()
    token = new_token() if lan else None
    host = "0.0.0.0" if lan else "127.0.0.1"
    public = f"http://{lan_address()}:{port}" if lan else None
    app = create_app(folder, token=token, photo_workers=workers, hosts=None if lan else LOCAL_HOSTS, public_url=public)
    listening = _listen(host, port)
    if lan:
        url = f"{public}/?token={token}"
        say(f"sheetsmith serve: open {url}")
        say("on a phone on the same network (scan the code with the camera):")
        say(qr_text(url, ansi=sys.stdout.isatty()))
        say("Without the token in the address a page answers 401.")
    else:
        say(f"sheetsmith serve: open http://127.0.0.1:{port}/ (this computer only; --lan for phones)")
    say(f"games are kept in {folder}; Ctrl-C stops the server")
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[listening])
