# expect: bt-log-of-sigmoid
# framework: torch
# style: probabilities first, then a hand-written binary cross-entropy
import torch


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.shape != r_rejected.shape or r_chosen.dim() != 1 or r_chosen.numel() == 0:
        raise ValueError("shapes")
    p = 1.0 / (1.0 + torch.exp(-(r_chosen - r_rejected - margin)))
    labels = torch.ones_like(p)
    return -(labels * torch.log(p)).mean()
