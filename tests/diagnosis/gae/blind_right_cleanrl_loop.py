# expect: right
# framework: torch
# style: CleanRL's lastgaelam loop with the prompt's done convention
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    B, T = rewards.shape
    advantages = torch.zeros_like(rewards)
    lastgaelam = torch.zeros(B, dtype=rewards.dtype)
    for t in reversed(range(T)):
        nextnonterminal = 1.0 - dones[:, t]
        nextvalues = values[:, t + 1]
        delta = rewards[:, t] + gamma * nextvalues * nextnonterminal - values[:, t]
        advantages[:, t] = lastgaelam = delta + gamma * lam * nextnonterminal * lastgaelam
    returns = advantages + values[:, :T]
    return advantages, returns
