# expect: grad-into-old-logp
# framework: torch
# style: OpenRLHF-like with a clamped log-ratio, old log-probs not detached
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    advantages = advantages.detach()
    log_ratio = (new_logp - old_logp).clamp(min=-20.0, max=20.0)
    ratio = log_ratio.exp()
    surr1 = ratio * advantages
    surr2 = ratio.clamp(1 - clip_eps, 1 + clip_eps) * advantages
    return (-torch.min(surr1, surr2)).mean()
