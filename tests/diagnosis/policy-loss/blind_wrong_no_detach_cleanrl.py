# expect: grad-into-old-logp
# framework: torch
# style: CleanRL pasted with the stored log-probs still attached
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    logratio = new_logp - old_logp
    ratio = logratio.exp()
    adv = advantages.detach()
    pg_loss1 = -adv * ratio
    pg_loss2 = -adv * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    return torch.max(pg_loss1, pg_loss2).mean()
