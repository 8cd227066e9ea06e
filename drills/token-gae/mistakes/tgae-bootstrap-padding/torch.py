"""GAE over right-padded LLM responses (token-level rewards and values), in PyTorch."""
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    """(advantages, returns), both [B, T], for a right-padded batch of responses.

    rewards, values: float [B, T], per-token rewards and critic values; response_mask: bool [B, T],
    True on a prefix of each row. Each response ends after its last valid token: V = 0 past it and
    padded slots, whatever they hold, take no part. returns = advantages + values; both 0 on padding.
    """
    valid = response_mask
    B, T = rewards.shape
    zero = torch.zeros((), dtype=values.dtype)
    advantages = torch.zeros_like(values)
    last_gae = torch.zeros_like(values[:, 0])
    for t in reversed(range(T)):
        next_value = values[:, t + 1] if t + 1 < T else torch.zeros_like(last_gae)
        delta = rewards[:, t] + gamma * next_value - values[:, t]
        # Padded steps carry nothing back: the recursion restarts at each row's last valid token.
        last_gae = torch.where(valid[:, t], delta + gamma * lam * last_gae, zero)
        advantages[:, t] = last_gae

    returns = torch.where(valid, advantages + values, zero)
    return advantages, returns
