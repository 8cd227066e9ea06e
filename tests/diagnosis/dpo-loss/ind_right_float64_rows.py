# expect: right
# framework: torch
# style: row loop with masked_select, float64 sums, lists then stack
import torch
import torch.nn.functional as F


def _check(logps, mask, name):
    if logps.shape != mask.shape:
        raise ValueError(f"{name}: log-probs {tuple(logps.shape)} and mask {tuple(mask.shape)} differ")
    if not bool(mask.any(dim=-1).all()):
        raise ValueError(f"{name}: a response has no valid token")


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps,
             chosen_mask, rejected_mask, beta=0.1):
    _check(policy_chosen_logps, chosen_mask, "policy_chosen_logps")
    _check(ref_chosen_logps, chosen_mask, "ref_chosen_logps")
    _check(policy_rejected_logps, rejected_mask, "policy_rejected_logps")
    _check(ref_rejected_logps, rejected_mask, "ref_rejected_logps")
    if not beta > 0:
        raise ValueError("beta must be positive")
    def sums(x, m):
        return torch.stack([torch.masked_select(x[b], m[b]).double().sum() for b in range(x.shape[0])])

    pc, pr = sums(policy_chosen_logps, chosen_mask), sums(policy_rejected_logps, rejected_mask)
    with torch.no_grad():
        rc, rr = sums(ref_chosen_logps, chosen_mask), sums(ref_rejected_logps, rejected_mask)
    logits = beta * ((pc - pr) - (rc - rr))
    loss = (-F.logsigmoid(logits)).mean().to(policy_chosen_logps.dtype)
    chosen_rewards = (beta * (pc - rc)).detach().to(policy_chosen_logps.dtype)
    rejected_rewards = (beta * (pr - rr)).detach().to(policy_chosen_logps.dtype)
    return loss, {"chosen_rewards": chosen_rewards, "rejected_rewards": rejected_rewards,
                  "reward_accuracy": torch.gt(chosen_rewards, rejected_rewards).to(torch.float64).mean().item()}
