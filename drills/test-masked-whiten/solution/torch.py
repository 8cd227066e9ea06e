"""Reference tests for masked_whiten (PyTorch): statistics, padding, eps and the two modes."""
import torch

from solution import masked_whiten

A = torch.tensor([[1.0, 2.0, 3.0], [4.0, 100.0, -50.0]], dtype=torch.float64)
MASK = torch.tensor([[True, True, True], [True, False, False]])


def close(a, b):
    a, b = torch.as_tensor(a, dtype=torch.float64), torch.as_tensor(b, dtype=torch.float64)
    return a.shape == b.shape and torch.allclose(a, b, rtol=1e-4, atol=1e-6)


def test_worked_example():
    assert close(masked_whiten(A, MASK), [[-1.3416, -0.4472, 0.4472], [1.3416, 0.0, 0.0]])


def test_without_the_mean_shift_the_mean_is_added_back():
    assert close(masked_whiten(A, MASK, shift_mean=False), [[1.1584, 2.0528, 2.9472], [3.8416, 0.0, 0.0]])


def test_padding_never_matters_and_stays_zero():
    other = A.clone()
    other[1, 1:] = torch.tensor([float("nan"), float("inf")])
    out = masked_whiten(other, MASK)
    assert close(out, masked_whiten(A, MASK)) and bool((out[~MASK] == 0).all())


def test_valid_tokens_get_mean_zero_and_population_variance_one():
    gen = torch.Generator().manual_seed(0)
    adv = 3.0 + 2.0 * torch.randn(3, 5, generator=gen, dtype=torch.float64)
    mask = torch.tensor([[True] * 5, [True] * 2 + [False] * 3, [True] + [False] * 4])
    out = masked_whiten(adv, mask).double()[mask]
    assert abs(float(out.mean())) < 1e-6 and abs(float(out.var(unbiased=False)) - 1.0) < 1e-4


def test_statistics_are_over_the_whole_batch_not_per_row():
    assert abs(float(masked_whiten(A, MASK)[1, 0])) > 1.0


def test_constant_advantages_give_zeros_not_nan():
    out = masked_whiten(torch.full((2, 3), 5.0, dtype=torch.float64), torch.ones(2, 3, dtype=torch.bool))
    assert bool(torch.isfinite(out).all()) and close(out, torch.zeros(2, 3))
