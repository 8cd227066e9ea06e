# expect: bt-chosen-rejected-swapped
# framework: torch
# style: F.logsigmoid, reversed difference
import torch
import torch.nn.functional as F


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.shape != r_rejected.shape or r_chosen.dim() != 1 or r_chosen.numel() == 0:
        raise ValueError("shapes")
    diff = r_rejected - r_chosen
    return -F.logsigmoid(diff - margin).mean()
