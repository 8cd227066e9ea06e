"""PPO clipped value loss in NumPy: write ppo_value_loss (see prompt.md)."""
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    """The PPO clipped value loss.

    Args:
        values: float array [T], the critic's current predictions V(s_t).
        old_values: float array [T], the critic's predictions recorded at rollout time.
        returns: float array [T], the regression targets (advantages + old values).
        clip_eps: how far the prediction may move away from old_values before it is clipped.

    Returns:
        The loss to minimise: a scalar (a Python float or a 0-d array).
    """
    raise NotImplementedError
