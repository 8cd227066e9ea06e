# expect: tgae-mask-multiplied
# style: OpenRLHF: values *= mask, rewards *= mask
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    m = response_mask.to(values.dtype)
    values = m * values
    rewards = m * rewards
    lastgaelam = 0
    rev = []
    T = rewards.size(1)
    for t in reversed(range(T)):
        nextvalues = values[:, t + 1] if t < T - 1 else 0.0
        delta = rewards[:, t] + gamma * nextvalues - values[:, t]
        lastgaelam = delta + gamma * lam * lastgaelam
        rev.append(lastgaelam)
    advantages = torch.stack(rev[::-1], dim=1)
    return advantages, advantages + values
