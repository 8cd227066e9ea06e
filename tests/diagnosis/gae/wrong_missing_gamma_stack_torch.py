# expect: gae-missing-gamma
# framework: torch
# style: OpenRLHF-like reversed list, the decay written as lambd alone
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    lambd = lam
    lastgaelam = 0
    advantages_reversed = []
    for t in reversed(range(rewards.size(1))):
        nonterminal = 1 - dones[:, t]
        delta = rewards[:, t] + gamma * values[:, t + 1] * nonterminal - values[:, t]
        lastgaelam = delta + lambd * nonterminal * lastgaelam
        advantages_reversed.append(lastgaelam)
    advantages = torch.stack(advantages_reversed[::-1], dim=1)
    return advantages, advantages + values[:, :-1]
