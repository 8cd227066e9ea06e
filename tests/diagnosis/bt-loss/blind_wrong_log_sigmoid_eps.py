# expect: bt-log-of-sigmoid
# framework: torch
# style: log of sigmoid with a 1e-8 floor
import torch


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.shape != r_rejected.shape or r_chosen.dim() != 1 or r_chosen.numel() == 0:
        raise ValueError("need two 1-D tensors of one shape")
    p = torch.sigmoid(r_chosen - r_rejected - margin)
    return -torch.log(p + 1e-8).mean()
