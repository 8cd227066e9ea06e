"""GAE in NumPy: write compute_gae (see prompt.md for every convention)."""
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    """Generalized advantage estimates and value targets for one rollout.

    Args:
        rewards: float array [T], the reward of each step.
        values: float array [T+1], V(s_0) .. V(s_T); values[T] is the bootstrap value.
        dones: float array [T] of 0.0 / 1.0; dones[t] = 1.0 means the episode ends at step t.
        gamma: discount factor.
        lam: GAE lambda (0 gives the one-step TD error, 1 the Monte-Carlo advantage).

    Returns:
        (advantages, returns), both float arrays [T], with returns = advantages + values[:T].
    """
    raise NotImplementedError
