"""Tests for ppo_value_loss (PyTorch, [B, T]). Add tests until every known bug is caught."""
import torch

from solution import ppo_value_loss


def test_zero_when_values_hit_the_returns():
    x = torch.tensor([[1.0]])
    assert float(ppo_value_loss(x, x.clone(), x.clone())) == 0.0
