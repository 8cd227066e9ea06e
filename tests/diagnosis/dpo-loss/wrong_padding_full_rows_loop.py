# expect: dpo-padding-summed
# framework: torch
# style: loop over rows, every position summed
import torch
import torch.nn.functional as F


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
    B = policy_chosen_logps.shape[0]
    cr, rr = [], []
    for i in range(B):
        cr.append(beta * (policy_chosen_logps[i].sum() - ref_chosen_logps[i].detach().sum()))
        rr.append(beta * (policy_rejected_logps[i].sum() - ref_rejected_logps[i].detach().sum()))
    cr, rr = torch.stack(cr), torch.stack(rr)
    loss = -F.logsigmoid(cr - rr).mean()
    return loss, {"chosen_rewards": cr.detach(), "rejected_rewards": rr.detach(),
                  "reward_accuracy": (cr > rr).float().mean().item()}
