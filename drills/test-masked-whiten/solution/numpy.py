"""Reference tests for masked_whiten (NumPy): statistics, padding, eps and the two modes."""
import numpy as np

from solution import masked_whiten

A = np.array([[1.0, 2.0, 3.0], [4.0, 100.0, -50.0]])
MASK = np.array([[True, True, True], [True, False, False]])


def close(a, b):
    return np.allclose(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64), rtol=1e-4, atol=1e-6)


def test_worked_example():
    assert close(masked_whiten(A, MASK), [[-1.3416, -0.4472, 0.4472], [1.3416, 0.0, 0.0]])


def test_without_the_mean_shift_the_mean_is_added_back():
    assert close(masked_whiten(A, MASK, shift_mean=False), [[1.1584, 2.0528, 2.9472], [3.8416, 0.0, 0.0]])


def test_padding_never_matters_and_stays_zero():
    other = A.copy()
    other[1, 1:] = [np.nan, np.inf]
    out = np.asarray(masked_whiten(other, MASK), dtype=np.float64)
    assert close(out, masked_whiten(A, MASK)) and np.all(out[~MASK] == 0.0)


def test_valid_tokens_get_mean_zero_and_population_variance_one():
    rng = np.random.default_rng(0)
    adv = rng.normal(3.0, 2.0, size=(3, 5))
    mask = np.array([[True] * 5, [True] * 2 + [False] * 3, [True] + [False] * 4])
    out = np.asarray(masked_whiten(adv, mask), dtype=np.float64)[mask]
    assert abs(out.mean()) < 1e-6 and abs(out.var() - 1.0) < 1e-4  # np.var divides by N


def test_statistics_are_over_the_whole_batch_not_per_row():
    out = np.asarray(masked_whiten(A, MASK), dtype=np.float64)
    assert abs(out[1, 0]) > 1.0  # per-row statistics would make a one-token row 0


def test_constant_advantages_give_zeros_not_nan():
    out = masked_whiten(np.full((2, 3), 5.0), np.ones((2, 3), dtype=bool))
    assert np.all(np.isfinite(out)) and close(out, np.zeros((2, 3)))
