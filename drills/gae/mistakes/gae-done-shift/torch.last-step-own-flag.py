"""GAE in PyTorch for a batch of B trajectories."""
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    """Advantages and value targets for B rollouts of T steps each.

    rewards [B, T], values [B, T+1] (values[:, T] is the bootstrap value), dones [B, T] with
    dones[b, t] = 1.0 when episode b ends at step t. Returns (advantages [B, T], returns [B, T]).
    """
    B, T = rewards.shape
    advantages = torch.zeros_like(rewards)
    last_adv = torch.zeros_like(rewards[:, 0])
    # A_t is built from A_{t+1}, so the scan must start at the last step; the batch is vectorised.
    for t in reversed(range(T)):
        next_value = values[:, t + 1]
        not_done = 1.0 - (dones[:, t + 1] if t + 1 < T else dones[:, t])
        delta = rewards[:, t] + gamma * next_value * not_done - values[:, t]
        # Accumulate the running advantage.
        last_adv = delta + gamma * lam * not_done * last_adv
        advantages[:, t] = last_adv
    # Value targets: the advantage added back onto the baseline it was measured against.
    returns = advantages + values[:, :T]
    return advantages, returns
