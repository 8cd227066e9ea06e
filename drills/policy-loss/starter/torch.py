"""PPO clipped policy loss in PyTorch: write ppo_policy_loss (see prompt.md)."""
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    """The PPO clipped surrogate loss.

    Args:
        new_logp: float tensor [B, T], log-probs under the policy being trained (requires grad).
        old_logp: float tensor [B, T], log-probs recorded at sampling time; may arrive with
            requires_grad=True and must receive no gradient.
        advantages: float tensor [B, T]; may arrive with requires_grad=True and must receive no gradient.
        clip_eps: half-width of the clip band [1 - clip_eps, 1 + clip_eps] around ratio 1.

    Returns:
        The loss to minimise: a 0-d tensor, the mean over all B * T elements.
    """
    raise NotImplementedError
