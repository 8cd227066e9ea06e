"""Reference tests for compute_actor_loss: the loss per reduction, padding, the metrics, gradients."""
import math

import torch

from solution import compute_actor_loss


def close(a, b):
    return math.isclose(float(a), float(b), rel_tol=1e-5, abs_tol=1e-6)


def one(ratio, adv):
    return compute_actor_loss(torch.tensor([[math.log(ratio)]]), torch.tensor([[0.0]]), torch.tensor([[adv]]))


ZEROS = torch.zeros(2, 2, dtype=torch.float64)
ADV = torch.tensor([[1.0, 1.0], [3.0, 0.0]], dtype=torch.float64)
MASK = torch.tensor([[True, True], [True, False]])


def test_single_tokens_are_clipped_like_ppo():
    assert close(one(2.0, 1.0)[0], -1.2)
    assert close(one(0.5, -1.0)[0], 0.8)


def test_token_mean_weighs_every_valid_token():
    loss, _ = compute_actor_loss(ZEROS, ZEROS.clone(), ADV, MASK, reduction="token_mean")
    assert close(loss, -5 / 3)


def test_sequence_mean_weighs_every_response():
    loss, _ = compute_actor_loss(ZEROS, ZEROS.clone(), ADV, MASK, reduction="sequence_mean")
    assert close(loss, -2.0)


def test_default_reduction_is_token_mean():
    a, _ = compute_actor_loss(ZEROS, ZEROS.clone(), ADV, MASK)
    b, _ = compute_actor_loss(ZEROS, ZEROS.clone(), ADV, MASK, reduction="token_mean")
    assert close(a, b)


def test_padding_changes_nothing():
    new = torch.tensor([[0.1, -0.3], [0.2, 0.0]], dtype=torch.float64)
    old = torch.tensor([[0.0, 0.0], [0.0, 0.0]], dtype=torch.float64)
    new2, adv2 = new.clone(), ADV.clone()
    new2[1, 1], adv2[1, 1] = 2.5, -7.0   # padded slot
    for reduction in ("token_mean", "sequence_mean"):
        l1, m1 = compute_actor_loss(new, old, ADV, MASK, reduction=reduction)
        l2, m2 = compute_actor_loss(new2, old, adv2, MASK, reduction=reduction)
        assert close(l1, l2)
        assert close(m1["approx_kl"], m2["approx_kl"]) and close(m1["clip_fraction"], m2["clip_fraction"])
        assert m1["valid_tokens"] == m2["valid_tokens"] == 3


def test_an_overflowing_padded_slot_stays_out():
    # exp(709) * -3 is -inf in float64; multiplying it by a 0 in the mask would give NaN
    new = torch.tensor([[-1.0, 0.0]], dtype=torch.float64)
    old = torch.tensor([[-1.2, -709.0]], dtype=torch.float64)
    adv = torch.tensor([[1.0, -3.0]], dtype=torch.float64)
    mask = torch.tensor([[True, False]])
    for reduction in ("token_mean", "sequence_mean"):
        loss, _ = compute_actor_loss(new, old, adv, mask, reduction=reduction)
        assert close(loss, -min(math.exp(0.2), 1.2))


def test_clip_fraction_counts_both_sides_of_the_band():
    new = torch.log(torch.tensor([[1.5, 0.5, 1.0, 1.1]]))
    _, m = compute_actor_loss(new, torch.zeros(1, 4), torch.tensor([[1.0, 1.0, 1.0, 1.0]]))
    assert close(m["clip_fraction"], 0.5)


def test_approx_kl_is_k3():
    _, m = one(2.0, 1.0)
    assert close(m["approx_kl"], (2.0 - 1.0) - math.log(2.0))


def test_gradient_only_into_log_probs_new():
    new = torch.zeros(2, 2, dtype=torch.float64, requires_grad=True)
    old = torch.zeros(2, 2, dtype=torch.float64, requires_grad=True)
    adv = ADV.clone().requires_grad_(True)
    loss, _ = compute_actor_loss(new, old, adv, MASK)
    loss.backward()
    assert torch.allclose(new.grad, torch.where(MASK, -ADV / 3, 0.0))
    assert old.grad is None or torch.count_nonzero(old.grad) == 0
    assert adv.grad is None or torch.count_nonzero(adv.grad) == 0


def test_rejects_mismatched_shapes():
    try:
        compute_actor_loss(torch.zeros(2, 2), torch.zeros(2, 3), torch.zeros(2, 2))
    except ValueError:
        return
    raise AssertionError("mismatched shapes must raise ValueError")
