"""The seeds' worked numbers, reproduced exactly by the reference core.

seed 000 §8.2: the clip-gradient table (ratios 0.5 ... 2.0, A = +1 and -1, seq_mean_token_sum on one
row so each token's gradient is its raw weight) and the dual-clip example (loss 27 vs 8 with c = 3).
seed 003 Step 4: the actor-loss tests of the RLHF lesson, transcribed.
"""
from __future__ import annotations

import pytest
import torch

from checker.reference import compute_actor_loss, policy_loss

RATIOS = [0.5, 0.79, 1.0, 1.1, 1.3, 2.0]


@pytest.mark.parametrize(
    "adv, expected",
    [(1.0, [0.50, 0.79, 1.00, 1.10, 0.00, 0.00]), (-1.0, [0.00, 0.00, -1.00, -1.10, -1.30, -2.00])],
)
def test_seed000_clip_gradient_table(adv, expected):
    logp = torch.tensor([RATIOS], dtype=torch.float64).log().requires_grad_()
    loss, stats = policy_loss(logp, torch.zeros(1, 6), torch.tensor([adv]), torch.ones(1, 6),
                              mode="seq_mean_token_sum")
    loss.backward()
    assert (-logp.grad[0]).tolist() == pytest.approx(expected, abs=1e-12)
    assert round(stats.clip_frac_active, 2) == 0.33


@pytest.mark.parametrize("c, loss_value, grads", [(None, 27.0, [-2.0, -5.0, -20.0]), (3.0, 8.0, [-2.0, 0.0, 0.0])])
def test_seed000_dual_clip_example(c, loss_value, grads):
    logp = torch.tensor([[2.0, 5.0, 20.0]], dtype=torch.float64).log().requires_grad_()
    loss, _ = policy_loss(logp, torch.zeros(1, 3), torch.tensor([-1.0]), torch.ones(1, 3),
                          mode="seq_mean_token_sum", dual_clip=c)
    loss.backward()
    assert loss.item() == pytest.approx(loss_value, abs=1e-12)
    assert (-logp.grad[0]).tolist() == pytest.approx(grads, abs=1e-12)  # the seed prints -d loss/d logp


def _seed003_case():
    new = torch.tensor([[-2.0, -1.5], [-1.0, -0.5]], requires_grad=True)
    old = torch.tensor([[-2.1, -1.4], [-1.0, -0.6]], requires_grad=True)
    advantage = torch.tensor([[1.0, 0.5], [-1.0, -0.5]], requires_grad=True)
    mask = torch.tensor([[True, False], [True, True]])
    return new, old, advantage, mask


def test_seed003_ratio_and_loss():
    new, old, advantage, mask = _seed003_case()
    loss, metrics = compute_actor_loss(new, old, advantage, mask, clip_range=0.2)
    ratio = torch.exp(new - old.detach())
    targets = torch.minimum(ratio * advantage.detach(), torch.clamp(ratio, 0.8, 1.2) * advantage.detach())
    assert torch.allclose(loss.float(), -targets[mask].mean())
    assert metrics["valid_tokens"] == int(mask.sum())


def test_seed003_clipping_values():
    high = compute_actor_loss(torch.tensor([[2.0]]).log(), torch.zeros(1, 1), torch.ones(1, 1))[0]
    low = compute_actor_loss(torch.tensor([[0.5]]).log(), torch.zeros(1, 1), -torch.ones(1, 1))[0]
    assert high.item() == pytest.approx(-1.2) and low.item() == pytest.approx(0.8)


def test_seed003_reductions_and_metrics():
    new, old = torch.zeros(2, 2), torch.zeros(2, 2)
    advantage = torch.tensor([[1.0, 1.0], [3.0, 0.0]])
    mask = torch.tensor([[True, True], [True, False]])
    token_loss, metrics = compute_actor_loss(new, old, advantage, mask, reduction="token_mean")
    sequence_loss, _ = compute_actor_loss(new, old, advantage, mask, reduction="sequence_mean")
    assert token_loss.item() == pytest.approx(-5.0 / 3.0) and sequence_loss.item() == pytest.approx(-2.0)
    assert metrics["approx_kl"] == 0.0 and metrics["clip_fraction"] == 0.0


def test_seed003_gradient_reaches_only_the_current_policy():
    new, old, advantage, mask = _seed003_case()
    compute_actor_loss(new, old, advantage, mask)[0].backward()
    assert new.grad is not None and torch.isfinite(new.grad).all()
    assert old.grad is None and advantage.grad is None


@pytest.mark.parametrize("call", [
    lambda: compute_actor_loss(torch.zeros(1, 2), torch.zeros(1, 1), torch.zeros(1, 2)),
    lambda: compute_actor_loss(torch.empty(0, 2), torch.empty(0, 2), torch.empty(0, 2)),
    lambda: compute_actor_loss(torch.zeros(3), torch.zeros(3), torch.zeros(3)),
    lambda: compute_actor_loss(torch.tensor([[float("nan")]]), torch.zeros(1, 1), torch.ones(1, 1)),
    lambda: compute_actor_loss(torch.zeros(1, 1), torch.zeros(1, 1), torch.ones(1, 1), torch.ones(1, 1)),
    lambda: compute_actor_loss(torch.zeros(1, 2), torch.zeros(1, 2), torch.ones(1, 2), torch.tensor([[False, False]])),
    lambda: compute_actor_loss(torch.zeros(1, 1), torch.zeros(1, 1), torch.ones(1, 1), clip_range=float("inf")),
    lambda: compute_actor_loss(torch.zeros(1, 1), torch.zeros(1, 1), torch.ones(1, 1), clip_range=-0.1),
    lambda: compute_actor_loss(torch.zeros(1, 1), torch.zeros(1, 1), torch.ones(1, 1), reduction="sum"),
], ids=["shape", "empty", "not-2d", "nan", "float-mask", "empty-row", "inf-clip", "negative-clip", "reduction"])
def test_seed003_input_contract(call):
    with pytest.raises(ValueError):
        call()


def test_seed003_torchrl_cross_check_case():
    """The lesson's framework check inputs: clip fraction counts |ratio - 1| > eps over valid tokens."""
    old = torch.tensor([[-1.0, -1.2, -0.8], [-0.7, -1.1, -1.4]])
    new = torch.tensor([[-1.0, -0.9, -1.2], [-0.6, -1.5, -1.4]])
    adv = torch.tensor([[1.0, -0.5, 0.8], [-1.0, 0.4, 0.3]])
    mask = torch.tensor([[True, True, False], [True, True, True]])
    _, metrics = compute_actor_loss(new, old, adv, mask, 0.2)
    ratio = torch.exp(new - old)[mask]
    assert metrics["clip_fraction"] == pytest.approx(((ratio - 1).abs() > 0.2).float().mean().item())
    assert metrics["valid_tokens"] == 5
