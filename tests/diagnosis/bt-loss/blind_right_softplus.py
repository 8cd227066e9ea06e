# expect: right
# framework: torch
# style: softplus of the negated gap
import torch
import torch.nn.functional as F


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.shape != r_rejected.shape or r_chosen.dim() != 1 or r_chosen.numel() == 0:
        raise ValueError("need two 1-D tensors of one shape")
    return F.softplus(-(r_chosen - r_rejected - margin)).mean()
