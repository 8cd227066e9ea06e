# expect: right
# framework: torch
# style: OpenRLHF PolicyLoss / ValueLoss as nn.Module objects, masked_mean with mask None
import torch
import torch.nn as nn


def masked_mean(tensor, mask=None):
    if mask is None:
        return tensor.mean()
    return (tensor * mask).sum() / mask.sum()


class PolicyLoss(nn.Module):
    def __init__(self, clip_eps):
        super().__init__()
        self.clip_eps = clip_eps

    def forward(self, log_probs, old_log_probs, advantages):
        ratio = (log_probs - old_log_probs).exp()
        surr1 = ratio * advantages
        surr2 = ratio.clamp(1 - self.clip_eps, 1 + self.clip_eps) * advantages
        return masked_mean(-torch.min(surr1, surr2))


class ValueLoss(nn.Module):
    def __init__(self, clip_eps):
        super().__init__()
        self.clip_eps = clip_eps

    def forward(self, values, old_values, returns):
        values_clipped = old_values + (values - old_values).clamp(-self.clip_eps, self.clip_eps)
        surr1 = (values_clipped - returns) ** 2
        surr2 = (values - returns) ** 2
        return 0.5 * masked_mean(torch.max(surr1, surr2))


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    actor_loss = PolicyLoss(clip_eps)(new_logp, old_logp.detach(), advantages.detach())
    critic_loss = ValueLoss(clip_eps)(values, old_values.detach(), returns.detach())
    return actor_loss + vf_coef * critic_loss - ent_coef * entropy.mean()
