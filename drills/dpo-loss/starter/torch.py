"""DPO loss with implicit rewards in PyTorch: write dpo_loss (see prompt.md)."""
import torch


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps,
             chosen_mask, rejected_mask, beta=0.1):
    """The DPO loss of a batch of preference pairs.

    Args:
        policy_chosen_logps, policy_rejected_logps: float tensors [B, T], per-token log-probs of the
            chosen / rejected response under the policy being trained (require grad).
        ref_chosen_logps, ref_rejected_logps: float tensors [B, T], the same under the frozen reference
            model; may arrive with requires_grad=True and must receive no gradient.
        chosen_mask, rejected_mask: bool tensors [B, T], True on the response's valid tokens.
        beta: the KL-regularisation strength (temperature of the implicit reward).

    Returns:
        (loss, stats): loss a 0-d tensor; stats a dict with "chosen_rewards" [B], "rejected_rewards" [B]
        (detached tensors) and "reward_accuracy" (a float).
    """
    raise NotImplementedError
