# expect: total-value-sign
# expect-unnamed: value term is SB3's mse on the clipped prediction only (no max, no 0.5)
# framework: torch
# style: SB3 clip_range_vf value loss, subtracted
import torch
import torch.nn.functional as F


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    a = advantages.detach()
    ratio = torch.exp(new_logp - old_logp.detach())
    policy_loss = -torch.min(a * ratio, a * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)).mean()
    vo = old_values.detach()
    values_pred = vo + torch.clamp(values - vo, -clip_eps, clip_eps)
    value_loss = F.mse_loss(returns.detach(), values_pred)
    entropy_loss = -torch.mean(entropy)
    return policy_loss + ent_coef * entropy_loss - vf_coef * value_loss
