"""Tests for ppo_policy_loss (PyTorch, [B, T]). Add tests until every known bug is caught."""
import torch

from solution import ppo_policy_loss


def test_returns_a_scalar_tensor():
    logp = torch.tensor([[-1.0, -2.0]])
    loss = ppo_policy_loss(logp, logp.clone(), torch.tensor([[1.0, -1.0]]))
    assert loss.dim() == 0
