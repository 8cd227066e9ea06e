"""Properties of the reference GAE that follow from its definition."""
from __future__ import annotations

import numpy as np
import torch
from hypothesis import given, settings, strategies as st

from checker.reference import gae
from tests.strategies import gae_batch


def brute_force_gae(r, v, d, gamma, lam):
    """A_t = sum_l (gamma lam)^l * prod_{j<l} (1 - done_{t+j}) * delta_{t+l}, written as the definition."""
    r, v, d = (np.asarray(x, dtype=np.float64) for x in (r, v, d))
    T = r.shape[-1]
    delta = r + gamma * v[..., 1:] * (1 - d) - v[..., :T]
    adv = np.zeros_like(r)
    for t in range(T):
        for l in range(T - t):
            alive = np.prod(1 - d[..., t:t + l], axis=-1) if l > 0 else 1.0
            adv[..., t] += (gamma * lam) ** l * alive * delta[..., t + l]
    return adv


@given(gae_batch())
@settings(max_examples=60)
def test_gae_equals_brute_force_definition(batch):
    r, v, d, gamma, lam = batch
    adv, ret = gae(r, v, d, gamma, lam)
    np.testing.assert_allclose(adv.numpy(), brute_force_gae(r, v, d, gamma, lam), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(ret.numpy(), (adv + v[..., :-1]).numpy(), rtol=0, atol=0)


@given(gae_batch())
@settings(max_examples=40)
def test_lambda_zero_gives_one_step_td_error(batch):
    r, v, d, gamma, _ = batch
    adv, _ = gae(r, v, d, gamma, 0.0)
    td = r + gamma * v[..., 1:] * (1 - d) - v[..., :-1]
    torch.testing.assert_close(adv, td, rtol=1e-12, atol=1e-12)


@given(gae_batch())
@settings(max_examples=40)
def test_lambda_one_without_dones_gives_discounted_return_minus_value(batch):
    r, v, _, gamma, _ = batch
    d = torch.zeros_like(r)
    adv, _ = gae(r, v, d, gamma, 1.0)
    T = r.shape[-1]
    for t in range(T):
        ret = sum(gamma**k * r[..., t + k] for k in range(T - t)) + gamma ** (T - t) * v[..., T]
        torch.testing.assert_close(adv[..., t], ret - v[..., t], rtol=1e-9, atol=1e-9)


@given(gae_batch(max_batch=1), st.data())
@settings(max_examples=40)
def test_done_at_k_makes_earlier_advantages_independent_of_the_future(batch, data):
    r, v, d, gamma, lam = batch
    T = r.shape[-1]
    k = data.draw(st.integers(0, T - 1))
    d = d.clone()
    d[..., k] = 1.0
    before, _ = gae(r, v, d, gamma, lam)
    r2, v2, d2 = r.clone(), v.clone(), d.clone()
    r2[..., k + 1:] = r2[..., k + 1:] * -3.0 + 7.0
    v2[..., k + 1:] = v2[..., k + 1:] * 5.0 - 2.0
    d2[..., k + 1:] = 1.0 - d2[..., k + 1:]
    after, _ = gae(r2, v2, d2, gamma, lam)
    torch.testing.assert_close(before[..., : k + 1], after[..., : k + 1], rtol=0, atol=0)


@given(gae_batch(max_batch=4))
@settings(max_examples=30)
def test_batched_equals_row_by_row(batch):
    r, v, d, gamma, lam = batch
    adv, ret = gae(r, v, d, gamma, lam)
    for b in range(r.shape[0]):
        a_b, r_b = gae(r[b], v[b], d[b], gamma, lam)
        torch.testing.assert_close(adv[b], a_b, rtol=0, atol=0)
        torch.testing.assert_close(ret[b], r_b, rtol=0, atol=0)


def test_any_leading_dims():
    g = torch.Generator().manual_seed(0)
    r = torch.randn(2, 3, 5, generator=g, dtype=torch.float64)
    v = torch.randn(2, 3, 6, generator=g, dtype=torch.float64)
    d = (torch.rand(2, 3, 5, generator=g) < 0.3).double()
    adv, _ = gae(r, v, d, 0.9, 0.8)
    flat, _ = gae(r.reshape(6, 5), v.reshape(6, 6), d.reshape(6, 5), 0.9, 0.8)
    torch.testing.assert_close(adv.reshape(6, 5), flat)


def test_bootstrap_value_is_used_only_without_done_at_last_step():
    r, v = torch.tensor([1.0]), torch.tensor([0.5, 10.0])
    assert gae(r, v, torch.tensor([0.0]), 0.9, 0.8)[0].item() == 1.0 + 0.9 * 10.0 - 0.5
    assert gae(r, v, torch.tensor([1.0]), 0.9, 0.8)[0].item() == 1.0 - 0.5


def test_values_must_have_t_plus_one_entries():
    import pytest

    with pytest.raises(ValueError, match="T\\+1"):
        gae(torch.zeros(3), torch.zeros(3), torch.zeros(3))


def test_notes_probe_p_gae_1_and_2():
    """shared/notes §3.1: gamma 0.9, lam 0.8, r [1,2,3,4], V [0.5,0.4,0.3,0.2], V(s_T) 0.7."""
    r, v = torch.tensor([1.0, 2, 3, 4]), torch.tensor([0.5, 0.4, 0.3, 0.2, 0.7])
    adv, _ = gae(r, v, torch.zeros(4), 0.9, 0.8)
    np.testing.assert_allclose(adv.numpy(), [5.35288, 6.24011, 6.0696, 4.43], atol=1e-5)
    adv, _ = gae(r, v, torch.tensor([0.0, 1, 0, 0]), 0.9, 0.8)
    np.testing.assert_allclose(adv.numpy(), [2.012, 1.6, 6.0696, 4.43], atol=1e-5)
