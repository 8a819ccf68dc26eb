"""Photos sent by the phones: a line with a limit, then a worker of the photo service with a time limit per photo.

The reading itself is the job :func:`generator.jobs.photo_reads.read_sheet` (or
:func:`~generator.jobs.photo_reads.read_tick_pad`), run in a worker of a
:class:`~generator.jobs.photo_service.PhotoService`; here a request waits for it
without holding up the server, so that one slow photo never holds up the other phones.

A photo first takes its place in line (:meth:`PhotoPool.turn`): while it waits,
its upload stays where the form parser spooled it (a temporary file), and the
phone that sent it asks for its place (:meth:`PhotoPool.place`).  Past
:data:`LINE` photos waiting, a photo is refused with :class:`Busy` (the page
answers 429 with a ``Retry-After``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import math
import time
from contextlib import asynccontextmanager
from typing import AsyncIterator, Callable, Optional

from generator.jobs.photo_reads import read_sheet
from generator.jobs.photo_service import PhotoService, sweep_orphans

TIMEOUT_S = 90.0
"""Longest a photo may take to read before the request is answered with an error."""
LINE = 40
"""Most photos waiting for a worker at once; one more is refused (429) until the line moves."""
FIRST_GUESS_S = 2.0
"""Seconds a photo is expected to take before any has been read."""


class PhotoTimeout(Exception):
    """A photo took longer than the pool's time limit."""


class Busy(Exception):
    """The line of photos is full: ``retry_after`` seconds is when a place is expected to be free."""

    def __init__(self, retry_after: int):
        super().__init__(f"{retry_after} s")
        self.retry_after = retry_after


class PhotoPool:
    """The server's photo workers (a :class:`~generator.jobs.photo_service.PhotoService`), their line and a time
    limit per photo.

    Args:
        workers: how many photos are read at once (each in its own process).
        timeout: seconds a photo may take; past it the request gets :class:`PhotoTimeout`
            while the worker finishes in the background and the server keeps serving.
        line: most photos waiting for a worker (:data:`LINE`).
    """

    def __init__(self, workers: int = 2, timeout: float = TIMEOUT_S, line: int = LINE):
        self.workers = max(1, workers)
        self.timeout = timeout
        self.line = max(0, line)
        self._service = PhotoService(self.workers, short_lived=False, max_tasks_per_child=200)
        self._slots: Optional[asyncio.Semaphore] = None
        self._waiting: list[str] = []  # tickets in line, the first next
        self._reading: set[str] = set()
        self._seconds = FIRST_GUESS_S  # a running mean of a photo's reading time

    def start(self) -> None:
        """Start the workers, after removing the photo folders that killed workers left behind."""
        sweep_orphans()
        self._service.start()

    def shutdown(self) -> None:
        """Stop the workers (waiting for none)."""
        self._service.shutdown(wait=False, cancel=True)

    def place(self, ticket: str) -> Optional[dict]:
        """Where the photo of ``ticket`` is: ``{"ahead": photos before it in line, "reading": False, "wait_s"}``
        while it waits, ``{"ahead": 0, "reading": True, ...}`` while a worker reads it, None when unknown (not
        arrived yet, or done)."""
        if ticket in self._reading:
            return {"ahead": 0, "reading": True, "wait_s": 0}
        if ticket in self._waiting:
            ahead = self._waiting.index(ticket)
            return {"ahead": ahead, "reading": False, "wait_s": self._wait_s(ahead + 1)}
        return None

    def _wait_s(self, photos: int) -> int:
        """Seconds until ``photos`` more photos are read, at the mean reading time."""
        return max(1, math.ceil(photos / self.workers * self._seconds))

    @asynccontextmanager
    async def turn(self, ticket: str = "") -> AsyncIterator[None]:
        """Wait in line for a free worker; inside, the photo may be read (:meth:`read`).

        Raises:
            Busy: :data:`LINE` photos are waiting already.
        """
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        ticket = ticket or f"anonymous-{id(object())}-{time.monotonic_ns()}"
        if self._slots.locked() and len(self._waiting) >= self.line:
            raise Busy(self._wait_s(len(self._waiting) + 1))
        self._waiting.append(ticket)
        try:
            await self._slots.acquire()
        finally:
            self._waiting.remove(ticket)
        self._reading.add(ticket)
        try:
            yield
        finally:
            self._reading.discard(ticket)
            self._slots.release()

    async def read(
        self,
        data: bytes,
        suffix: str,
        *,
        layout: Optional[str],
        player: str,
        display: str,
        job: Optional[Callable[..., dict]] = None,
    ) -> dict:
        """:func:`~generator.jobs.photo_reads.read_sheet` (or ``job``, e.g.
        :func:`~generator.jobs.photo_reads.read_tick_pad`) in a worker; called inside :meth:`turn`.  The time
        limit counts from here.

        Raises:
            PhotoTimeout: the photo took longer than ``timeout`` seconds.
        """
        began = time.monotonic()
        fut = self._service.submit(job or read_sheet, data, suffix, layout=layout, player=player, display=display)
        try:
            result = await asyncio.wait_for(asyncio.wrap_future(fut), self.timeout)
        except asyncio.TimeoutError:
            fut.cancel()
            raise PhotoTimeout() from None
        except cf.process.BrokenProcessPool:
            self._service.restart()  # a worker died (out of memory?): a fresh pool for the next photo
            return {
                "error": "the photo reader stopped while reading this photo (too large for this computer?); "
                "try again, or take a smaller photo"
            }
        self._seconds = 0.8 * self._seconds + 0.2 * (time.monotonic() - began)
        return result
