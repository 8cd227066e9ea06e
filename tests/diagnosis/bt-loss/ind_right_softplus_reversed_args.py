# expect: right
# framework: torch
# style: softplus(r_rejected - r_chosen + margin), float64 accumulation
import torch
import torch.nn.functional as F


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if tuple(r_chosen.shape) != tuple(r_rejected.shape) or len(r_chosen.shape) != 1 or r_chosen.shape[0] < 1:
        raise ValueError("shapes")
    per_pair = F.softplus(r_rejected - r_chosen + margin)
    return per_pair.double().sum().div(per_pair.shape[0]).to(per_pair.dtype)
