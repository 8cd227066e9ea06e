# expect: right
# framework: torch
# style: float32 buffer allocated up front, explicit batch-by-time loop over columns
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    batch, steps = rewards.shape
    advantages = torch.zeros(batch, steps, dtype=torch.float32)
    running = torch.zeros(batch, dtype=torch.float32)
    for t in reversed(range(steps)):
        nonterminal = 1.0 - dones[:, t]
        delta = rewards[:, t] + gamma * values[:, t + 1] * nonterminal - values[:, t]
        running = delta + gamma * lam * nonterminal * running
        advantages[:, t] = running
    returns = advantages + values[:, :steps].to(torch.float32)
    return advantages, returns
