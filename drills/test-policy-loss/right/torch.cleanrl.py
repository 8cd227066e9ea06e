import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    logratio = new_logp - old_logp.detach()
    ratio = logratio.exp()
    mb_advantages = advantages.detach()
    pg_loss1 = -mb_advantages * ratio
    pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    return torch.max(pg_loss1, pg_loss2).mean()
