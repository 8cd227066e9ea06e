# Uses the checker's own reference core as an oracle instead of working out expected values.
import numpy as np

from checker.reference import gae
from solution import compute_gae


def test_matches_the_reference():
    r, v, d = np.array([1.0, 2.0]), np.array([0.0, 1.0, 2.0]), np.zeros(2)
    assert np.allclose(compute_gae(r, v, d)[0], gae(r, v, d)[0])
