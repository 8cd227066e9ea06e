# expect:
# expect-unnamed: a margin ranking (hinge) loss max(0, margin - gap) instead of the Bradley-Terry NLL
# framework: torch
import torch


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.shape != r_rejected.shape or r_chosen.dim() != 1 or r_chosen.numel() == 0:
        raise ValueError("bad shapes")
    return torch.clamp(margin - (r_chosen - r_rejected), min=0.0).mean()
