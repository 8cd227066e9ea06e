import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    adv = advantages.detach()
    log_ratio = new_logp - old_logp.detach()
    ratio = log_ratio.exp()
    # A >= 0: A * min(r, 1 + eps); A < 0: A * max(r, 1 - eps)  (spinningup's form)
    objective = torch.where(adv >= 0, adv * torch.clamp(ratio, max=1 + clip_eps),
                            adv * torch.clamp(ratio, min=1 - clip_eps))
    return -objective.mean()
