# expect: right
# framework: torch
# style: softplus(-gap), the log-sigmoid in its other spelling
import torch
import torch.nn.functional as F


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.ndim != 1 or r_chosen.shape != r_rejected.shape:
        raise ValueError("expected two 1-D tensors of equal shape")
    if r_chosen.shape[0] == 0:
        raise ValueError("no pairs")
    gap = r_chosen - r_rejected - margin
    return F.softplus(-gap).mean()
