# Right properties, but compares floats with == and asserts a dtype: false alarms on right answers.
import numpy as np

from solution import compute_gae

R = np.array([1.0, 2.0, 3.0, 4.0])
V = np.array([0.5, 0.4, 0.3, 0.2, 0.7])


def test_worked_example():
    adv, _ = compute_gae(R, V, np.zeros(4), gamma=0.9, lam=0.8)
    assert list(np.round(adv, 5)) == [5.35288, 6.24011, 6.0696, 4.43]


def test_returns():
    adv, ret = compute_gae(R, V, np.zeros(4), gamma=0.9, lam=0.8)
    assert (ret - adv == V[:-1]).all()


def test_dtype():
    adv, _ = compute_gae(R, V, np.zeros(4))
    assert adv.dtype == np.float64
