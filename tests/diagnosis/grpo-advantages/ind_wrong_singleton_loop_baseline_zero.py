# expect: grpo-singleton-raw-score
# framework: torch
# style: per-group loop; a lone sample gets baseline 0 and scale 1
import torch


def compute_grpo_advantages(scores, response_mask, group_size, eps=1e-6, norm_by_std=True):
    B = scores.shape[0]
    if group_size < 1 or B % group_size:
        raise ValueError("bad group_size")
    adv = []
    for s in range(0, B, group_size):
        grp = scores[s:s + group_size]
        if grp.numel() > 1:
            mu, sd = grp.mean(), grp.std()
        else:
            mu, sd = torch.zeros((), dtype=grp.dtype), torch.ones((), dtype=grp.dtype)
        adv.append((grp - mu) / (sd + eps) if norm_by_std else grp - mu)
    adv = torch.cat(adv)
    return torch.where(response_mask, adv[:, None], torch.zeros((), dtype=scores.dtype))
