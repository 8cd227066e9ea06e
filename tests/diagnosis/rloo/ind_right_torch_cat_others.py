# expect: right
# framework: torch
# style: per sample, cat the others and take their mean; lists then stack
import torch


def rloo_advantages(rewards):
    if rewards.dim() != 2 or rewards.size(0) == 0 or rewards.size(1) < 2:
        raise ValueError("rewards: [P, K], P >= 1, K >= 2")
    K = rewards.size(1)
    cols = []
    for i in range(K):
        others = torch.cat([rewards[:, :i], rewards[:, i + 1:]], dim=1)
        cols.append(rewards[:, i] - others.mean(dim=1))
    return torch.stack(cols, dim=1)
