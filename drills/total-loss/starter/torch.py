"""PPO total loss in PyTorch: write ppo_total_loss (see prompt.md)."""
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    """The loss PPO minimises in one update: policy + value - entropy bonus.

    Args:
        new_logp, old_logp, advantages: float tensors [B, T], as in the policy-loss drill.
        values, old_values, returns: float tensors [B, T], as in the value-loss drill.
        entropy: float tensor [B, T], the policy's entropy at each sampled state (requires grad).
        clip_eps: clip half-width shared by the policy and the value term.
        vf_coef: weight of the value loss.
        ent_coef: weight of the entropy bonus.

    Returns:
        A 0-d tensor. Gradient may reach new_logp, values and entropy only.
    """
    raise NotImplementedError
