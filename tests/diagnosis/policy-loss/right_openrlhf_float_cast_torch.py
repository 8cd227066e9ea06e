# expect: right
# framework: torch
# style: OpenRLHF habit of upcasting log-probs with .float() before the ratio (float32 compute)
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    log_ratio = new_logp.float() - old_logp.detach().float()
    ratio = log_ratio.exp()
    adv = advantages.detach().float()
    surr1 = ratio * adv
    surr2 = ratio.clamp(1 - clip_eps, 1 + clip_eps) * adv
    return -torch.min(surr1, surr2).mean()
