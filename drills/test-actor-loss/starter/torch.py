"""Tests for compute_actor_loss. Add tests until every known bug is caught."""
import torch

from solution import compute_actor_loss


def test_returns_a_loss_and_metrics():
    loss, metrics = compute_actor_loss(torch.zeros(1, 2), torch.zeros(1, 2), torch.ones(1, 2))
    assert loss.dim() == 0 and set(metrics) == {"approx_kl", "clip_fraction", "valid_tokens"}
