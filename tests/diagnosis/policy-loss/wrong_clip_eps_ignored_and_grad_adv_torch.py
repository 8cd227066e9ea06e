# expect: clip-eps-ignored grad-into-advantages
# framework: torch
# style: CleanRL-style with a literal band and the advantages not detached
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    logratio = new_logp - old_logp.detach()
    ratio = logratio.exp()
    pg_loss1 = -advantages * ratio
    pg_loss2 = -advantages * torch.clamp(ratio, 1 - 0.2, 1 + 0.2)
    return torch.max(pg_loss1, pg_loss2).mean()
