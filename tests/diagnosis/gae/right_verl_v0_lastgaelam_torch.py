# expect: right
# framework: torch
# style: verl v0 compute_gae_advantage_return shape, with the done mask added, under no_grad
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    with torch.no_grad():
        nextvalues = 0
        lastgaelam = 0
        advantages_reversed = []
        gen_len = rewards.shape[-1]
        for t in reversed(range(gen_len)):
            nextvalues = values[:, t + 1]
            mask = 1.0 - dones[:, t]
            delta = rewards[:, t] + gamma * nextvalues * mask - values[:, t]
            lastgaelam = delta + gamma * lam * lastgaelam * mask
            advantages_reversed.append(lastgaelam)
        advantages = torch.stack(advantages_reversed[::-1], dim=1)
        returns = advantages + values[:, :gen_len]
    return advantages, returns
