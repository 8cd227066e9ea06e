"""GAE over right-padded LLM responses (token-level rewards and values), in NumPy."""
import numpy as np


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    """(advantages, returns), both [B, T], for a right-padded batch of responses.

    rewards, values: float [B, T], per-token rewards and critic values; response_mask: bool [B, T],
    True on a prefix of each row. Each response ends after its last valid token: V = 0 past it and
    padded slots, whatever they hold, take no part. returns = advantages + values; both 0 on padding.
    """
    valid = response_mask
    B, T = rewards.shape
    zero = 0.0
    advantages = np.zeros((B, T))
    last_gae = np.zeros(B)
    for t in range(T):
        # V of the next token, 0 once the response has ended (padding never bootstraps).
        next_value = np.where(valid[:, t + 1], values[:, t + 1], zero) if t + 1 < T else np.zeros_like(last_gae)
        delta = rewards[:, t] + gamma * next_value - values[:, t]
        # Padded steps carry nothing back: the recursion restarts at each row's last valid token.
        next_adv = advantages[:, t + 1] if t + 1 < T else np.zeros_like(last_gae)
        last_gae = np.where(valid[:, t], delta + gamma * lam * next_adv, zero)
        advantages[:, t] = last_gae

    returns = np.where(valid, advantages + values, zero)
    return advantages, returns
