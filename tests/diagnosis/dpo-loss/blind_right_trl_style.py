# expect: right
# framework: torch
# style: TRL's dpo_loss (pi_logratios - ref_logratios, sigmoid loss)
import torch
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps,
             chosen_mask, rejected_mask, beta=0.1):
    if not beta > 0:
        raise ValueError("beta must be positive")
    for lp, m in ((policy_chosen_logps, chosen_mask), (ref_chosen_logps, chosen_mask),
                  (policy_rejected_logps, rejected_mask), (ref_rejected_logps, rejected_mask)):
        if lp.shape != m.shape:
            raise ValueError("log-probs and mask differ in shape")
    if not chosen_mask.any(-1).all() or not rejected_mask.any(-1).all():
        raise ValueError("a response has no valid token")

    def seq(lp, m):
        return (lp * m).sum(-1)
    pc = seq(policy_chosen_logps, chosen_mask)
    pr = seq(policy_rejected_logps, rejected_mask)
    with torch.no_grad():
        rc = seq(ref_chosen_logps, chosen_mask)
        rr = seq(ref_rejected_logps, rejected_mask)
    pi_logratios = pc - pr
    ref_logratios = rc - rr
    logits = pi_logratios - ref_logratios
    losses = -F.logsigmoid(beta * logits)
    chosen_rewards = beta * (pc - rc).detach()
    rejected_rewards = beta * (pr - rr).detach()
    acc = (chosen_rewards > rejected_rewards).float().mean().item()
    return losses.mean(), {"chosen_rewards": chosen_rewards, "rejected_rewards": rejected_rewards,
                           "reward_accuracy": acc}
