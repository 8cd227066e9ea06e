# expect: right
# framework: torch
# style: verl compute_grpo_outcome_advantage: id2score lists, torch.std, singleton -> mean of itself
from collections import defaultdict

import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    if group_size < 1 or scores.shape[0] % group_size != 0:
        raise ValueError("batch size must be a positive multiple of group_size")
    bsz = scores.shape[0]
    index = [i // group_size for i in range(bsz)]
    id2score = defaultdict(list)
    id2mean, id2std = {}, {}
    for i in range(bsz):
        id2score[index[i]].append(scores[i])
    for idx, group in id2score.items():
        if len(group) == 1:
            id2mean[idx] = group[0]
            id2std[idx] = torch.tensor(1.0, dtype=scores.dtype)
        else:
            stacked = torch.stack(group)
            id2mean[idx] = torch.mean(stacked)
            id2std[idx] = torch.std(stacked)
    adv = scores.clone()
    for i in range(bsz):
        if norm_by_std:
            adv[i] = (scores[i] - id2mean[index[i]]) / (id2std[index[i]] + eps)
        else:
            adv[i] = scores[i] - id2mean[index[i]]
    return torch.where(response_mask, adv.unsqueeze(-1), torch.zeros((), dtype=scores.dtype))
