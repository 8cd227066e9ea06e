# expect: bt-log-of-sigmoid
# framework: torch
# style: F.binary_cross_entropy on sigmoid probabilities (not the with-logits version)
import torch
import torch.nn.functional as F


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.shape != r_rejected.shape or r_chosen.dim() != 1 or r_chosen.numel() == 0:
        raise ValueError("bad shapes")
    p = torch.sigmoid(r_chosen - r_rejected - margin)
    return F.binary_cross_entropy(p, torch.ones_like(p))
