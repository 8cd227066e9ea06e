"""PPO clipped value loss in NumPy."""
import numpy as np


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    """0.5 * mean(max((V - R)^2, (V_clip - R)^2)), V_clip = V_old + clip(V - V_old, -eps, eps).

    values, old_values, returns: float arrays [T]. Returns a scalar (float or 0-d array).
    """
    loss_unclipped = (values - returns) ** 2
    # Limit how far the prediction may move away from the rollout-time prediction in one update.
    values_clipped = old_values * np.clip(values / old_values, 1.0 - clip_eps, 1.0 + clip_eps)
    loss_clipped = (values_clipped - returns) ** 2
    # Keep the larger error: clipping may only make the loss more conservative, never smaller.
    per_sample = np.maximum(loss_unclipped, loss_clipped)

    # The 1/2 makes the gradient (V - R), the usual regression convention.
    value_loss = 0.5 * per_sample.mean()
    return value_loss
