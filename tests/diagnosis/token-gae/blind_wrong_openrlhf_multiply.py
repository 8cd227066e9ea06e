# expect: tgae-mask-multiplied
# framework: torch
# style: OpenRLHF's get_advantages_and_returns (rewards and values multiplied by the mask)
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    m = response_mask.to(values.dtype)
    values = m * values
    rewards = m * rewards
    lastgaelam = 0
    advantages_reversed = []
    T = rewards.size(1)
    for t in reversed(range(T)):
        nextvalues = values[:, t + 1] if t < T - 1 else 0.0
        delta = rewards[:, t] + gamma * nextvalues - values[:, t]
        lastgaelam = delta + gamma * lam * lastgaelam
        advantages_reversed.append(lastgaelam)
    advantages = torch.stack(advantages_reversed[::-1], dim=1)
    returns = advantages + values
    return advantages * m, returns * m
