"""DPO loss with implicit rewards in PyTorch."""
import torch
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps,
             chosen_mask, rejected_mask, beta=0.1):
    """-mean log sigmoid(beta * ((pi_c - ref_c) - (pi_r - ref_r))) over pairs, with sequence log-probs
    summed over each response's valid tokens; stats hold the implicit rewards and their accuracy.

    *_logps: float tensors [B, T] of per-token log-probs; *_mask: bool tensors [B, T].
    Returns (loss, {"chosen_rewards": [B], "rejected_rewards": [B], "reward_accuracy": float}).
    """
    if not beta > 0:
        raise ValueError("beta must be positive")
    for logps, mask in ((policy_chosen_logps, chosen_mask), (ref_chosen_logps, chosen_mask),
                        (policy_rejected_logps, rejected_mask), (ref_rejected_logps, rejected_mask)):
        if logps.shape != mask.shape:
            raise ValueError("log-probs and their mask must have the same shape")
    if not (chosen_mask.any(-1).all() and rejected_mask.any(-1).all()):
        raise ValueError("every response needs at least one valid token")

    def sequence_logp(logps, mask):
        # Select, don't multiply: padding may hold anything.
        return torch.where(mask, logps, torch.zeros_like(logps)).sum(-1)

    pi_c = sequence_logp(policy_chosen_logps, chosen_mask)
    pi_r = sequence_logp(policy_rejected_logps, rejected_mask)
    # The reference model is frozen: no gradient may reach it.
    ref_c = sequence_logp(ref_chosen_logps.detach(), chosen_mask)
    ref_r = sequence_logp(ref_rejected_logps.detach(), rejected_mask)

    pi_logratios = pi_c - pi_r
    ref_logratios = ref_c - ref_r
    logits = pi_logratios - ref_logratios
    losses = -beta * F.logsigmoid(logits)
    loss = losses.mean()

    chosen_rewards = beta * (pi_c - ref_c).detach()
    rejected_rewards = beta * (pi_r - ref_r).detach()
    reward_accuracy = (chosen_rewards > rejected_rewards).float().mean().item()
    stats = {"chosen_rewards": chosen_rewards, "rejected_rewards": rejected_rewards,
             "reward_accuracy": reward_accuracy}
    return loss, stats
