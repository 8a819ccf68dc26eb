"""The reader's errors: every one names the photo, as ``PHOTO: error: message``."""

from __future__ import annotations

from generator.core.errors import InputError, Problem


class PhotoError(InputError):
    """A photo cannot be read (not an image, no sheet, too small, too blurred, another layout …).

    ``problems`` holds one :class:`~generator.core.errors.Problem` naming the photo (no line or column).
    """

    def __init__(self, display: str, message: str):
        super().__init__([Problem(display, 0, 0, message)])
        self.display = display
        self.message = message

    def __reduce__(self):  # (sent back whole from a worker process)
        return (type(self), (self.display, self.message))
