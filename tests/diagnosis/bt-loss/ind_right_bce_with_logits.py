# expect: right
# framework: torch
# style: binary_cross_entropy_with_logits against label 1 ("chosen wins")
import torch
import torch.nn.functional as F


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.shape != r_rejected.shape:
        raise ValueError("shape mismatch")
    if r_chosen.dim() != 1 or len(r_chosen) == 0:
        raise ValueError("expected a non-empty 1-D batch")
    logits = r_chosen - r_rejected - margin
    return F.binary_cross_entropy_with_logits(logits, torch.ones_like(logits))
