"""GAE in PyTorch: write compute_gae for a batch of rollouts (see prompt.md)."""
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    """Generalized advantage estimates and value targets for B rollouts.

    Args:
        rewards: float tensor [B, T].
        values: float tensor [B, T+1]; values[:, T] is the bootstrap value V(s_T).
        dones: float tensor [B, T] of 0.0 / 1.0; dones[b, t] = 1.0 means episode b ends at step t.
        gamma: discount factor.
        lam: GAE lambda.

    Returns:
        (advantages, returns), both float tensors [B, T], with returns = advantages + values[:, :T].
    """
    raise NotImplementedError
