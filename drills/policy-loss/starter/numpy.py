"""PPO clipped policy loss in NumPy: write ppo_policy_loss (see prompt.md)."""
import numpy as np


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    """The PPO clipped surrogate loss.

    Args:
        new_logp: float array [T], log pi_new(a_t | s_t) under the policy being trained.
        old_logp: float array [T], log pi_old(a_t | s_t) recorded when the actions were sampled.
        advantages: float array [T].
        clip_eps: half-width of the clip band [1 - clip_eps, 1 + clip_eps] around ratio 1.

    Returns:
        The loss to minimise: a scalar (a Python float or a 0-d array), the mean over all T samples.
    """
    raise NotImplementedError
