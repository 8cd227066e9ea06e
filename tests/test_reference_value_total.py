"""Properties of the reference value loss, entropy and total loss."""
from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings, strategies as st

from checker.reference import entropy_from_logits, policy_loss, total_loss, value_loss
from tests.strategies import arrays


@st.composite
def value_batch(draw, max_t=8):
    T = draw(st.integers(1, max_t))
    return draw(arrays((T,))), draw(arrays((T,))), draw(arrays((T,)))


def unclipped(v, r):
    return 0.5 * ((v - r) ** 2).mean()


@given(value_batch(), st.sampled_from([0.1, 0.2, 1.0]))
@settings(max_examples=60)
def test_value_loss_is_never_below_the_unclipped_loss(batch, eps):
    v, old, r = batch
    assert value_loss(v, old, r, clip=eps).item() >= unclipped(v, r).item() - 1e-12


@given(value_batch(), st.sampled_from([0.1, 0.2, 0.5]), st.data())
@settings(max_examples=60)
def test_value_loss_equals_unclipped_when_the_move_is_inside_the_band(batch, eps, data):
    v, old, r = batch
    step = data.draw(arrays(v.shape, -eps, eps))
    v = old + step
    torch.testing.assert_close(value_loss(v, old, r, clip=eps), unclipped(v, r), rtol=1e-12, atol=1e-12)


@given(value_batch())
@settings(max_examples=30)
def test_clip_none_is_half_mse(batch):
    v, old, r = batch
    torch.testing.assert_close(value_loss(v, old, r, clip=None), unclipped(v, r))


def test_notes_probe_3_4_value_loss():
    """V_new [1,1], V_old [0,0], R [2,0.5], clip 0.2 -> 0.8725 (verl, OpenRLHF, TRL, CleanRL)."""
    got = value_loss(torch.tensor([1.0, 1.0]), torch.zeros(2), torch.tensor([2.0, 0.5]), clip=0.2)
    assert got.item() == pytest.approx(0.8725, abs=1e-12)


def test_value_loss_masks_padding_and_sends_gradient_only_to_values():
    v = torch.tensor([1.0, 2.0, 99.0], requires_grad=True)
    old = torch.tensor([0.9, 2.5, 0.0], requires_grad=True)
    r = torch.tensor([1.5, 1.0, -50.0], requires_grad=True)
    mask = torch.tensor([True, True, False])
    loss = value_loss(v, old, r, mask, clip=0.2)
    ref = value_loss(v[:2], old[:2], r[:2], clip=0.2)
    torch.testing.assert_close(loss, ref)
    loss.backward()
    assert old.grad is None and r.grad is None and v.grad[2].item() == 0.0


@given(arrays((3, 5), -20.0, 20.0))
@settings(max_examples=30)
def test_entropy_from_logits_is_bounded_and_shift_invariant(logits):
    h = entropy_from_logits(logits)
    assert bool((h >= -1e-12).all()) and bool((h <= torch.log(torch.tensor(5.0)) + 1e-12).all())
    torch.testing.assert_close(h, entropy_from_logits(logits + 3.0))


def test_entropy_of_uniform_and_one_hot():
    assert entropy_from_logits(torch.zeros(4)).item() == pytest.approx(torch.log(torch.tensor(4.0)).item())
    assert entropy_from_logits(torch.tensor([0.0, -1e4])).item() == pytest.approx(0.0, abs=1e-12)


def test_total_loss_subtracts_the_entropy_bonus_with_typical_coefficients():
    got = total_loss(torch.tensor(1.0), torch.tensor(2.0), torch.tensor([0.5, 1.5]))
    assert got.item() == pytest.approx(1.0 + 0.5 * 2.0 - 0.01 * 1.0)
    h = torch.tensor([1.0], requires_grad=True)
    total_loss(torch.tensor(0.0), torch.tensor(0.0), h).backward()
    assert h.grad.item() == pytest.approx(-0.01)  # minimising the loss raises entropy


def test_total_loss_composes_policy_and_value():
    logp = torch.tensor([-1.0, -2.0]); old = torch.tensor([-1.1, -1.8]); adv = torch.tensor([1.0, -0.5])
    v = torch.tensor([0.3, 0.1]); vo = torch.tensor([0.2, 0.4]); R = torch.tensor([1.0, 0.0])
    ent = torch.tensor([0.7, 0.9])
    got = total_loss(policy_loss(logp, old, adv)[0], value_loss(v, vo, R), ent, vf_coef=0.25, ent_coef=0.1)
    expected = policy_loss(logp, old, adv)[0] + 0.25 * value_loss(v, vo, R) - 0.1 * ent.mean()
    torch.testing.assert_close(got, expected.double())
