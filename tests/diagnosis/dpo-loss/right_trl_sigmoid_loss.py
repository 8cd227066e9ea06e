# expect: right
# framework: torch
# style: TRL DPOTrainer idiom: concatenated sums, then dpo_loss with loss_type sigmoid
import torch
import torch.nn.functional as F


def _get_batch_logps(per_token_logps, loss_mask):
    return (per_token_logps * loss_mask).sum(-1)


def _dpo(chosen_logps, rejected_logps, ref_chosen, ref_rejected, beta):
    logratios = chosen_logps - rejected_logps
    ref_logratios = ref_chosen - ref_rejected
    logits = logratios - ref_logratios
    losses = -F.logsigmoid(beta * logits)
    chosen_rewards = beta * (chosen_logps - ref_chosen).detach()
    rejected_rewards = beta * (rejected_logps - ref_rejected).detach()
    return losses, chosen_rewards, rejected_rewards


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps,
             chosen_mask, rejected_mask, beta=0.1):
    if beta <= 0:
        raise ValueError("beta must be > 0")
    pairs = [(policy_chosen_logps, chosen_mask), (ref_chosen_logps, chosen_mask),
             (policy_rejected_logps, rejected_mask), (ref_rejected_logps, rejected_mask)]
    if any(x.shape != m.shape for x, m in pairs):
        raise ValueError("shape mismatch")
    if (chosen_mask.sum(-1) == 0).any() or (rejected_mask.sum(-1) == 0).any():
        raise ValueError("empty response")
    with torch.no_grad():
        ref_c = _get_batch_logps(ref_chosen_logps, chosen_mask)
        ref_r = _get_batch_logps(ref_rejected_logps, rejected_mask)
    pol_c = _get_batch_logps(policy_chosen_logps, chosen_mask)
    pol_r = _get_batch_logps(policy_rejected_logps, rejected_mask)
    losses, cr, rr = _dpo(pol_c, pol_r, ref_c, ref_r, beta)
    acc = (cr > rr).float()
    return losses.mean(), {"chosen_rewards": cr, "rejected_rewards": rr, "reward_accuracy": acc.mean().item()}
