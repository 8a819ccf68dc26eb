"""The web page's memory: games in progress, their photos and custom layouts, in one SQLite file.

Every change is written (and committed) at once, so a closed tab, a sleeping
laptop or a restarted server finds each game where it was.  A game is a row
holding its state as JSON (the players, the rounds, the corrections); its
photos are rows of their own, deleted with it.  Nothing here is named after
anything a request sends: ids are made by :func:`new_id`.

The store is shared by the server's threads: each change takes the store's
lock, reads the game, applies the change and writes it back in one
transaction, so two phones tapping at once never lose each other's change.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

from generator.core.errors import OutputError

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,            -- 'allin' or 'flip7'
    title TEXT NOT NULL,
    data TEXT NOT NULL,            -- the game's state as JSON
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS blobs (
    id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    media_type TEXT NOT NULL,
    data BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS blobs_game ON blobs(game_id);
CREATE TABLE IF NOT EXISTS layouts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    created REAL NOT NULL
);
"""

DB_NAME = "sheetsmith-web.sqlite3"
"""The database's file name in the data folder."""

GAME_LIMIT = 400 * 1024 * 1024
"""Most bytes of photos and pictures one game keeps (some 30 players' photos of 12 MB and their read-backs)."""
TOTAL_LIMIT = 4 * 1024 * 1024 * 1024
"""Most bytes of photos and pictures all games together keep."""


RESERVE_NAME = "sheetsmith-web.reserve"
"""A file of :data:`RESERVE_BYTES` beside the database, given up on a full disk so that deletions find room."""
RESERVE_BYTES = 4 * 1024 * 1024


class StorageFull(OutputError):
    """A photo cannot be kept: the game's or the server's storage limit is reached, or the disk is full.

    Nothing of the photo is kept; deleting a game (or a player) still works and frees the space.
    """


def new_id() -> str:
    """A fresh random id (URL-safe, 12 characters)."""
    return secrets.token_urlsafe(9)


@dataclass
class Game:
    """One stored game: ``kind`` (``allin`` or ``flip7``), a ``title``, its ``data`` (plain JSON data), times in epoch
    seconds."""

    id: str
    kind: str
    title: str
    data: dict
    created: float
    updated: float


class Store:
    """The SQLite store in ``folder`` (created if missing).

    Args:
        folder: the data folder; the database is ``folder/sheetsmith-web.sqlite3``.
        game_limit: most bytes of blobs (photos, pictures) one game keeps; ``total_limit``: all games together.

    Raises:
        OutputError: the folder cannot be made (a file there, no permission) or the database file is not one.
    """

    def __init__(self, folder: Path, *, game_limit: int = GAME_LIMIT, total_limit: int = TOTAL_LIMIT):
        self.folder = Path(folder)
        self.game_limit = game_limit
        self.total_limit = total_limit
        self._reserve = self.folder / RESERVE_NAME
        self.path = self.folder / DB_NAME
        self._lock = threading.RLock()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA foreign_keys = ON")
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.executescript(SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(blobs)")}
            if "sha256" not in columns:  # a database made before photos kept their hash
                self._db.execute("ALTER TABLE blobs ADD COLUMN sha256 TEXT")
                self._db.execute("ALTER TABLE blobs ADD COLUMN size INTEGER")
                self._db.execute("UPDATE blobs SET size = length(data)")
            self._db.execute("CREATE INDEX IF NOT EXISTS blobs_hash ON blobs(game_id, sha256)")
            self._keep_reserve()
            checked = self._db.execute("PRAGMA quick_check").fetchone()
            if checked is None or checked[0] != "ok":
                raise sqlite3.DatabaseError(f"damaged: {checked[0] if checked else 'no answer'}")
        except FileExistsError:
            raise OutputError(f"{self.folder}: is a file, not a folder; give --data-dir a folder") from None
        except OSError as exc:
            raise OutputError(f"{self.folder}: cannot make the data folder ({exc.strerror}); give --data-dir") from None
        except sqlite3.OperationalError as exc:  # no permission, a read-only file or folder
            raise OutputError(
                f"{self.path}: the games database cannot be opened for writing ({exc}); give --data-dir a folder "
                "you can write to"
            ) from None
        except sqlite3.DatabaseError as exc:
            raise OutputError(
                f"{self.path}: cannot be used as the games database ({exc}); move it away to start afresh, "
                "or give another --data-dir"
            ) from None

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                if self._db.in_transaction:  # (SQLite ends it itself on some errors: a full disk)
                    self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # --- games

    def create_game(self, kind: str, title: str, data: dict) -> Game:
        """Store a new game and return it; it gets its own share code (``data["share"]``, see :meth:`share_code`).

        Raises:
            StorageFull: the disk is full.
        """
        data = {**data, "share": data.get("share") or secrets.token_urlsafe(9)}
        now = time.time()
        game = Game(new_id(), kind, title, data, now, now)

        def write() -> None:
            with self._tx() as db:
                db.execute(
                    "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)", (game.id, kind, title, json.dumps(data), now, now)
                )

        self._room(write, False)  # a full disk: StorageFull, nothing made
        return game

    def game(self, game_id: str, kind: Optional[str] = None) -> Optional[Game]:
        """The game with this id (and kind, when given), or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, kind, title, data, created, updated FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        if row is None or (kind is not None and row[1] != kind):
            return None
        return Game(row[0], row[1], row[2], json.loads(row[3]), row[4], row[5])

    def share_code(self, game_id: str, *, make: bool = False) -> Optional[str]:
        """The code that lets a game's players into that game alone (``sheetsmith serve --lan``), or None (no such
        game; a game stored before games had codes, unless ``make``: it is given one then)."""
        g = self.game(game_id)
        if g is None:
            return None
        if not g.data.get("share") and make:
            self.change(game_id, g.kind, lambda d: d.setdefault("share", secrets.token_urlsafe(9)))
            g = self.game(game_id)
        return g.data.get("share") if g is not None else None

    def games(self, kind: str) -> list[Game]:
        """Every game of ``kind``, the last changed first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, kind, title, data, created, updated FROM games WHERE kind = ? ORDER BY updated DESC",
                (kind,),
            ).fetchall()
        return [Game(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5]) for r in rows]

    def change(self, game_id: str, kind: str, fn: Callable[[dict], Any], *, freeing: bool = False) -> tuple[Game, Any]:
        """Apply ``fn`` to the game's data (it changes the dict in place) and write it, in one transaction.

        Args:
            freeing: the change removes something (a player): on a full disk it is given the room kept for that
                (:meth:`_room`).

        Returns:
            ``(game, whatever fn returned)``.

        Raises:
            KeyError: no such game.
            StorageFull: the disk is full (nothing written).
            Exception: whatever ``fn`` raises (nothing is written then).
        """

        def write() -> tuple[Game, Any]:
            with self._tx() as db:
                row = db.execute(
                    "SELECT title, data, created FROM games WHERE id = ? AND kind = ?", (game_id, kind)
                ).fetchone()
                if row is None:
                    raise KeyError(game_id)
                data = json.loads(row[1])
                result = fn(data)
                now = time.time()
                title = data.get("title", row[0])
                db.execute(
                    "UPDATE games SET data = ?, title = ?, updated = ? WHERE id = ?",
                    (json.dumps(data), title, now, game_id),
                )
            return Game(game_id, kind, title, data, row[2], now), result

        return self._room(write, freeing)

    def _room(self, write: Callable[[], Any], freeing: bool) -> Any:
        """``write()``; on a full disk, a write that frees room is tried again once the reserve file (room kept
        for deletions, :data:`RESERVE_BYTES`) is given up and the write-ahead log emptied; any other raises
        :class:`StorageFull`."""
        try:
            return write()
        except sqlite3.OperationalError as exc:
            if not _is_full(exc):
                raise
            if not freeing:
                raise StorageFull(
                    f"the disk holding {self.folder} is full: nothing was changed; delete games that are over, or "
                    "free space on that disk"
                ) from None
        self._reserve.unlink(missing_ok=True)
        with self._lock:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.OperationalError:
                pass
        result = write()
        self._keep_reserve()
        return result

    def _keep_reserve(self) -> None:
        """Keep :data:`RESERVE_BYTES` of the disk for deletions (quietly nothing while the disk is full)."""
        try:
            if not self._reserve.exists():
                with open(self._reserve, "wb") as fh:
                    fh.write(b"\0" * RESERVE_BYTES)
        except OSError:
            self._reserve.unlink(missing_ok=True)

    def delete_game(self, game_id: str, kind: Optional[str] = None) -> bool:
        """Delete a game (of ``kind``, when given) and its photos; True when it existed (on a full disk too:
        :meth:`_room`)."""
        if kind is not None and self.game(game_id, kind) is None:
            return False
        return self._freeing("DELETE FROM games WHERE id = ?", [(game_id,)]) > 0

    def _freeing(self, sql: str, rows: list[tuple]) -> int:
        """Run a deletion for each of ``rows``; return the rows deleted (on a full disk too: :meth:`_room`)."""

        def write() -> int:
            with self._tx() as db:
                return sum(db.execute(sql, row).rowcount for row in rows)

        return self._room(write, True)

    # --- blobs (photos, annotated pictures)

    def put_blob(self, game_id: str, media_type: str, data: bytes) -> str:
        """Store bytes belonging to a game (with their SHA-256, see :meth:`blob_with_hash`); return their id.

        Raises:
            KeyError: the game was deleted.
            StorageFull: the game would keep more than ``game_limit`` bytes, all games more than ``total_limit``,
                or the disk is full; nothing is stored then.
        """
        import hashlib

        blob_id = new_id()
        digest = hashlib.sha256(data).hexdigest()
        try:
            with self._tx() as db:
                kept = db.execute("SELECT coalesce(sum(size), 0) FROM blobs WHERE game_id = ?", (game_id,)).fetchone()
                if kept[0] + len(data) > self.game_limit:
                    raise StorageFull(
                        f"this game keeps {_mb(kept[0])} of photos, the most one game may keep is "
                        f"{_mb(self.game_limit)}: remove a player you no longer need, or start a new game"
                    )
                total = db.execute("SELECT coalesce(sum(size), 0) FROM blobs").fetchone()
                if total[0] + len(data) > self.total_limit:
                    raise StorageFull(
                        f"the games kept on this computer hold {_mb(total[0])} of photos, the most is "
                        f"{_mb(self.total_limit)}: delete games that are over"
                    )
                db.execute(
                    "INSERT INTO blobs (id, game_id, media_type, data, sha256, size) VALUES (?, ?, ?, ?, ?, ?)",
                    (blob_id, game_id, media_type, data, digest, len(data)),
                )
        except sqlite3.IntegrityError:  # the game deleted meanwhile
            raise KeyError(game_id) from None
        except sqlite3.OperationalError as exc:
            if not _is_full(exc):
                raise
            raise StorageFull(
                f"the disk holding {self.folder} is full: the photo was not kept; delete games that are over, "
                "or free space on that disk"
            ) from None
        return blob_id

    def blob_with_hash(self, game_id: str, digest: str, *, but: tuple[str, ...] = ()) -> Optional[str]:
        """The id of a blob of this game whose SHA-256 is ``digest`` (hex), other than those in ``but``, or None:
        a photo sent before, found without reading any photo."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM blobs WHERE game_id = ? AND sha256 = ?", (game_id, digest)
            ).fetchall()
        return next((r[0] for r in rows if r[0] not in but), None)

    def blob(self, game_id: str, blob_id: str) -> Optional[tuple[str, bytes]]:
        """``(media type, bytes)`` of a game's blob, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT media_type, data FROM blobs WHERE id = ? AND game_id = ?", (blob_id, game_id)
            ).fetchone()
        return (row[0], bytes(row[1])) if row else None

    def delete_blobs(self, game_id: str, blob_ids: list[str]) -> None:
        """Delete some of a game's blobs (a photo taken again)."""
        self._freeing("DELETE FROM blobs WHERE id = ? AND game_id = ?", [(b, game_id) for b in blob_ids if b])

    def usage(self) -> tuple[int, int]:
        """``(bytes kept by blobs of every game, their count)``."""
        with self._lock:
            row = self._db.execute("SELECT coalesce(sum(size), 0), count(*) FROM blobs").fetchone()
        return row[0], row[1]

    # --- custom layouts

    def add_layout(self, name: str, text: str) -> str:
        """Store a custom layout's YAML text; return its id."""
        layout_id = new_id()
        with self._tx() as db:
            db.execute("INSERT INTO layouts VALUES (?, ?, ?, ?)", (layout_id, name, text, time.time()))
        return layout_id

    def layouts(self) -> list[dict]:
        """Every custom layout as ``{"id", "name", "text", "created"}``, the newest first."""
        with self._lock:
            rows = self._db.execute("SELECT id, name, text, created FROM layouts ORDER BY created DESC").fetchall()
        return [{"id": r[0], "name": r[1], "text": r[2], "created": r[3]} for r in rows]

    def layout(self, layout_id: str) -> Optional[dict]:
        """One custom layout, or None."""
        return next((x for x in self.layouts() if x["id"] == layout_id), None)

    def delete_layout(self, layout_id: str) -> bool:
        """Delete a custom layout; True when it existed."""
        with self._tx() as db:
            cur = db.execute("DELETE FROM layouts WHERE id = ?", (layout_id,))
        return cur.rowcount > 0


def _is_full(exc: sqlite3.OperationalError) -> bool:
    """True when SQLite could not write for lack of room (a full disk, or the database at its page limit)."""
    return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "full" in str(exc)


def _mb(size: int) -> str:
    mb = size / (1024 * 1024)
    return f"{mb:.1f} MB" if mb < 10 else f"{mb:.0f} MB"
