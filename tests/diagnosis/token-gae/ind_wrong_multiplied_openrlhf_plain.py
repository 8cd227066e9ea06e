# expect: tgae-mask-multiplied
# framework: torch
# style: OpenRLHF get_advantages_and_returns as written (values * mask, rewards * mask)
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    action_mask = response_mask.to(values.dtype)
    values = action_mask * values
    rewards = action_mask * rewards
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
    return advantages, returns
