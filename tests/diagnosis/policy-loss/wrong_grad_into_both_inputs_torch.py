# expect: grad-into-advantages grad-into-old-logp
# framework: torch
# style: CleanRL verbatim shape, nothing detached (the buffer tensors were assumed constant)
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    logratio = new_logp - old_logp
    ratio = logratio.exp()
    pg_loss1 = -advantages * ratio
    pg_loss2 = -advantages * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    return torch.max(pg_loss1, pg_loss2).mean()
