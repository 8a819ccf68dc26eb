"""sheetsmith: YAML layouts to printable game material, and a rules engine that checks finished sheets.

The import package is ``generator``; the command is ``sheetsmith`` (see ``generator.cli.app``).
"""

import os as _os

# sheetsmith's numpy work is many small products (a photo's marker fits: hundreds of dot products
# of 16,000 values), never large linear algebra.  OpenBLAS's thread pool makes each of those cost
# milliseconds instead of microseconds on a busy machine (measured: 7.8 ms against 0.004 ms for one
# dot product; a photo read 25 % faster end to end), so one BLAS thread unless the user says otherwise.
# Set before numpy is first imported (this package is imported before its modules import numpy).
_os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
