"""generator.reader.numeric.median: the value numpy.median gives, for every array the reader takes medians of.

The oracle is NumPy's own median (a published implementation, independent of the partition the reader
uses); hypothesis draws the arrays: odd and even counts, float32 and float64, 1-D and 2-D, ties, NaN.
"""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from generator.reader.numeric import median

FINITE = st.floats(-1e6, 1e6, allow_nan=False, width=32)


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


@settings(max_examples=300, deadline=None)
@given(
    arrays(st.sampled_from([np.float32, np.float64]), st.tuples(st.integers(1, 9), st.integers(1, 9)), elements=FINITE)
)
def test_median_of_arrays_is_numpys(a):
    assert _same(median(a), float(np.median(a)))
    assert _same(median(a[:, 0]), float(np.median(a[:, 0])))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-10, 10, allow_nan=False), min_size=1, max_size=40))
def test_median_of_lists_is_numpys(values):
    assert median(values) == float(np.median(values))


def test_median_by_hand():
    assert median([3.0, 1.0, 2.0]) == 2.0
    assert median([4.0, 1.0, 3.0, 2.0]) == 2.5
    assert median(np.array([[1, 9], [5, 7]], np.float32)) == 6.0
    # the middle pair of float32 values is averaged in float32, as NumPy does
    pair = np.array([0.1, 0.2], np.float32)
    assert median(pair) == float((pair[0] + pair[1]) / np.float32(2)) == float(np.median(pair))


def test_median_nan_and_empty():
    assert math.isnan(median([1.0, float("nan"), 2.0]))
    assert math.isnan(median(np.array([], np.float32)))


def test_reading_does_not_load_numpy_ma():
    """numpy.median loads numpy.ma on its first call (5 ms of a fresh process); the reader's medians do not."""
    code = (
        "import sys, numpy as np; from generator.reader.numeric import median; "
        "median(np.arange(10, dtype=np.float32)); print('numpy.ma' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "False"
