# expect: bt-margin-wrong-side
# framework: torch
# style: margin added to the chosen reward before the difference
import torch


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.ndim != 1 or r_chosen.shape != r_rejected.shape or r_chosen.numel() == 0:
        raise ValueError("bad shapes")
    boosted = r_chosen + margin
    return torch.nn.functional.softplus(r_rejected - boosted).mean()
