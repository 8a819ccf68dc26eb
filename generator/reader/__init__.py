"""Reading phone photos of filled All In sheets (docs/photos.md; how the reader decides: docs/reader.md).

* :mod:`.image` — opening a photo safely (size checked from the header first);
* :mod:`.detect` — finding the ArUco markers in a photo (OpenCV only);
* :mod:`.markers` — the paper the markers name, the homography and its residual;
* :mod:`.early` — work done ahead in threads: one photo decoded while sheetsmith imports, parts of a reading made side
by side;
* :mod:`.code` — the sheet code (QR): layout, format version, geometry hash;
* :mod:`.marks` — rectify, flatten the light, register each space, measure the ink of every target;
* :mod:`.read` — the whole chain and the decisions (:func:`read_photo`);
* :mod:`.reading` — what one photo gave: every space, the chip counts, how sure (:class:`PhotoReading`);
* :mod:`.output` — the ``.read.yaml`` typed-in sheet and the annotated PNG;
* synthetic phone photos for the tests and the benchmark are made outside the package, in ``tests/synth``.
"""

from generator.core.filetypes import looks_like_photo
from generator.reader.errors import PhotoError

_LAZY = {"CellReading", "CountReading", "PhotoReading", "read_photo"}


def __getattr__(name: str):
    """The reading chain (numpy, OpenCV, the layouts) is imported on first use, so that asking
    whether a file is a photo (:func:`looks_like_photo`) stays cheap."""
    if name in _LAZY:
        from generator.reader import read

        return getattr(read, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["PhotoError", "PhotoReading", "CellReading", "CountReading", "read_photo", "looks_like_photo"]
