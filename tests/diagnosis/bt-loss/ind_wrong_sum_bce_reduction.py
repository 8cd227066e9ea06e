# expect: bt-sum-over-pairs
# framework: torch
# style: BCE with logits, reduction="sum"
import torch
import torch.nn.functional as F


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.shape != r_rejected.shape or r_chosen.dim() != 1 or r_chosen.numel() == 0:
        raise ValueError("bad shapes")
    z = r_chosen - r_rejected - margin
    return F.binary_cross_entropy_with_logits(z, torch.ones_like(z), reduction="sum")
