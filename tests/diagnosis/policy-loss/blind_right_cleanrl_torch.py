# expect: right
# framework: torch
# style: CleanRL ppo.py (pg_loss1/pg_loss2, max of negated)
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    mb_advantages = advantages.detach()
    logratio = new_logp - old_logp.detach()
    ratio = logratio.exp()
    pg_loss1 = -mb_advantages * ratio
    pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    pg_loss = torch.max(pg_loss1, pg_loss2).mean()
    return pg_loss
