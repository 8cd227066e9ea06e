"""PPO clipped value loss in PyTorch: write ppo_value_loss (see prompt.md)."""
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    """The PPO clipped value loss.

    Args:
        values: float tensor [B, T], the critic's current predictions (requires grad).
        old_values: float tensor [B, T], predictions recorded at rollout time; may arrive with
            requires_grad=True and must receive no gradient.
        returns: float tensor [B, T], the regression targets; must receive no gradient.
        clip_eps: how far the prediction may move away from old_values before it is clipped.

    Returns:
        The loss to minimise: a 0-d tensor.
    """
    raise NotImplementedError
