# expect: right
# framework: torch
# style: logits from chosen/rejected log-ratios, loss as softplus(-beta * h), float32 kept
import torch
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps,
             chosen_mask, rejected_mask, beta=0.1):
    pairs = ((policy_chosen_logps, chosen_mask), (ref_chosen_logps, chosen_mask),
             (policy_rejected_logps, rejected_mask), (ref_rejected_logps, rejected_mask))
    for t, m in pairs:
        if t.shape != m.shape:
            raise ValueError("a log-prob tensor and its mask differ in shape")
        if not bool(m.sum(-1).gt(0).all()):
            raise ValueError("every response needs at least one valid token")
    if beta <= 0:
        raise ValueError("beta must be > 0")
    seq = lambda t, m: t.masked_fill(~m, 0.0).sum(dim=-1)  # noqa: E731
    chosen_logratios = seq(policy_chosen_logps, chosen_mask) - seq(ref_chosen_logps, chosen_mask).detach()
    rejected_logratios = seq(policy_rejected_logps, rejected_mask) - seq(ref_rejected_logps, rejected_mask).detach()
    h = chosen_logratios - rejected_logratios
    loss = F.softplus(-beta * h).mean()
    cr = beta * chosen_logratios.detach()
    rj = beta * rejected_logratios.detach()
    return loss, {"chosen_rewards": cr, "rejected_rewards": rj,
                  "reward_accuracy": float((cr > rj).to(torch.float64).mean())}
