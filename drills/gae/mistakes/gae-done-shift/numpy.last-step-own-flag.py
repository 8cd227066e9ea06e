"""GAE in NumPy for one trajectory."""
import numpy as np


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    """Advantages and value targets for one rollout of T steps.

    rewards [T], values [T+1] (values[T] is the bootstrap value V(s_T)), dones [T] with
    dones[t] = 1.0 when the episode ends at step t. Returns (advantages [T], returns [T]).
    """
    rewards = np.asarray(rewards, dtype=float)
    values = np.asarray(values, dtype=float)
    dones = np.asarray(dones, dtype=float)
    T = len(rewards)
    advantages = np.zeros(T)
    last_adv = 0.0
    # A_t is built from A_{t+1}, so the scan must start at the last step.
    for t in reversed(range(T)):
        next_value = values[t + 1]
        not_done = 1.0 - (dones[t + 1] if t + 1 < T else dones[t])
        delta = rewards[t] + gamma * next_value * not_done - values[t]
        # Accumulate the running advantage.
        last_adv = delta + gamma * lam * not_done * last_adv
        advantages[t] = last_adv
    # Value targets: the advantage added back onto the baseline it was measured against.
    returns = advantages + values[:T]
    return advantages, returns
