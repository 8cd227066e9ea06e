# expect: bt-log-of-sigmoid
# framework: torch
# style: log of a clamped sigmoid
import torch


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.shape != r_rejected.shape or r_chosen.dim() != 1 or r_chosen.numel() == 0:
        raise ValueError("shapes")
    p = torch.sigmoid(r_chosen - r_rejected - margin).clamp(min=1e-12)
    return -p.log().mean()
