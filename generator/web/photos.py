"""Photos sent by the phones, read by the photo service's workers with a time limit per photo.

The reading itself is the job :func:`generator.jobs.photo_reads.read_sheet` (or
:func:`~generator.jobs.photo_reads.read_tick_pad`), run in a worker of a
:class:`~generator.jobs.photo_service.PhotoService`; here a request waits for it
without holding up the server, so that one slow photo never holds up the other phones.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
from typing import Callable, Optional

from generator.jobs.photo_reads import read_sheet
from generator.jobs.photo_service import PhotoService

TIMEOUT_S = 90.0
"""Longest a photo may take to read before the request is answered with an error."""


class PhotoTimeout(Exception):
    """A photo took longer than the pool's time limit."""


class PhotoPool:
    """The server's photo workers (a :class:`~generator.jobs.photo_service.PhotoService`), with a time limit per photo.

    Args:
        workers: how many photos are read at once (each in its own process).
        timeout: seconds a photo may take; past it the request gets :class:`PhotoTimeout`
            while the worker finishes in the background and the server keeps serving.
    """

    def __init__(self, workers: int = 2, timeout: float = TIMEOUT_S):
        self.workers = max(1, workers)
        self.timeout = timeout
        self._service = PhotoService(self.workers, short_lived=False, max_tasks_per_child=200)
        self._slots: Optional[asyncio.Semaphore] = None

    def start(self) -> None:
        """Start the workers."""
        self._service.start()

    def shutdown(self) -> None:
        """Stop the workers (waiting for none)."""
        self._service.shutdown(wait=False, cancel=True)

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
        :func:`~generator.jobs.photo_reads.read_tick_pad`) in a worker.  Photos wait their turn for a free
        worker; the time limit counts from the moment a worker takes the photo.

        Raises:
            PhotoTimeout: the photo took longer than ``timeout`` seconds.
        """
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        async with self._slots:
            fut = self._service.submit(job or read_sheet, data, suffix, layout=layout, player=player, display=display)
            try:
                return await asyncio.wait_for(asyncio.wrap_future(fut), self.timeout)
            except asyncio.TimeoutError:
                fut.cancel()
                raise PhotoTimeout() from None
            except cf.process.BrokenProcessPool:
                self._service.restart()  # a worker died (out of memory?): a fresh pool for the next photo
                return {
                    "error": "the photo reader stopped while reading this photo (too large for this computer?); "
                    "try again, or take a smaller photo"
                }
