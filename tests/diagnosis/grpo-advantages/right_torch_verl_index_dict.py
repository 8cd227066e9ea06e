# expect: right
# framework: torch
# style: verl idiom (index -> list of scores), torch.std per group
from collections import defaultdict

import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    bsz = scores.shape[0]
    if group_size < 1 or bsz % group_size != 0:
        raise ValueError(f"{bsz} responses do not form groups of {group_size}")
    index = [i // group_size for i in range(bsz)]
    id2score = defaultdict(list)
    for i in range(bsz):
        id2score[index[i]].append(scores[i])
    id2mean, id2std = {}, {}
    for idx, group in id2score.items():
        if len(group) == 1:
            id2mean[idx] = group[0]
            id2std[idx] = torch.tensor(1.0, dtype=scores.dtype)
        else:
            stacked = torch.stack(group)
            id2mean[idx] = stacked.mean()
            id2std[idx] = stacked.std()
    out = scores.clone()
    for i in range(bsz):
        if norm_by_std:
            out[i] = (scores[i] - id2mean[index[i]]) / (id2std[index[i]] + eps)
        else:
            out[i] = scores[i] - id2mean[index[i]]
    return torch.where(response_mask, out.unsqueeze(-1), torch.zeros_like(out).unsqueeze(-1))
