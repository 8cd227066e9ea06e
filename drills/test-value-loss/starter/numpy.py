"""Tests for ppo_value_loss (NumPy). Add tests until every known bug is caught."""
import numpy as np

from solution import ppo_value_loss


def test_zero_when_values_hit_the_returns():
    assert np.isclose(ppo_value_loss(np.array([1.0]), np.array([1.0]), np.array([1.0])), 0.0)
