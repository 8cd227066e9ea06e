# expect: right
# framework: torch
# style: OpenRLHF get_advantages_and_returns, padding sanitised with where instead of "* action_mask"
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    values = torch.where(response_mask, values, torch.zeros_like(values))
    rewards = torch.where(response_mask, rewards, torch.zeros_like(rewards))
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
