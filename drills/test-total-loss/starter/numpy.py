"""Tests for ppo_total_loss (NumPy). Add tests until every known bug is caught."""
import numpy as np

from solution import ppo_total_loss


def test_returns_a_number():
    z = np.zeros(2)
    assert np.isfinite(float(ppo_total_loss(z, z, z, z, z, z, z)))
