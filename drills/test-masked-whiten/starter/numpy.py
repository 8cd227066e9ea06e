"""Tests for masked_whiten (NumPy). Add tests until every known bug is caught."""
import numpy as np

from solution import masked_whiten


def test_shape():
    out = masked_whiten(np.array([[1.0, 2.0]]), np.array([[True, True]]))
    assert np.shape(out) == (1, 2)
