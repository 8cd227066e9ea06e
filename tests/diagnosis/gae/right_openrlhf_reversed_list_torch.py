# expect: right
# framework: torch
# style: OpenRLHF / TRL: advantages_reversed list, then stack along time
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    lastgaelam = 0
    advantages_reversed = []
    response_length = rewards.size(1)
    for t in reversed(range(response_length)):
        nextvalues = values[:, t + 1]
        notdone = 1.0 - dones[:, t]
        delta = rewards[:, t] + gamma * nextvalues * notdone - values[:, t]
        lastgaelam = delta + gamma * lam * notdone * lastgaelam
        advantages_reversed.append(lastgaelam)
    advantages = torch.stack(advantages_reversed[::-1], dim=1)
    returns = advantages + values[:, :response_length]
    return advantages, returns
