# expect: right
# style: OpenRLHF loop after selecting the padding away
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    values = values.masked_fill(~response_mask, 0.0)
    rewards = rewards.masked_fill(~response_mask, 0.0)
    lastgaelam = 0
    advantages_reversed = []
    response_length = rewards.size(1)
    for t in reversed(range(response_length)):
        nextvalues = values[:, t + 1] if t < response_length - 1 else 0.0
        delta = rewards[:, t] + gamma * nextvalues - values[:, t]
        lastgaelam = delta + gamma * lam * lastgaelam
        advantages_reversed.append(lastgaelam)
    advantages = torch.stack(advantages_reversed[::-1], dim=1)
    returns = advantages + values
    return advantages, returns
