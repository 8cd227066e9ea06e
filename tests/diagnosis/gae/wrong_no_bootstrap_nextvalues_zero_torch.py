# expect: gae-no-bootstrap
# framework: torch
# style: TRL / OpenRLHF "nextvalues = values[:, t + 1] if t < T - 1 else 0.0"
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = rewards.size(1)
    lastgaelam = 0
    advantages_reversed = []
    for t in reversed(range(T)):
        nextvalues = values[:, t + 1] if t < T - 1 else 0.0
        nonterminal = 1.0 - dones[:, t]
        delta = rewards[:, t] + gamma * nextvalues * nonterminal - values[:, t]
        lastgaelam = delta + gamma * lam * nonterminal * lastgaelam
        advantages_reversed.append(lastgaelam)
    advantages = torch.stack(advantages_reversed[::-1], dim=1)
    return advantages, advantages + values[:, :T]
