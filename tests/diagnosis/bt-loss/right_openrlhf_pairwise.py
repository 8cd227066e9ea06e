# expect: right
# framework: torch
# style: OpenRLHF PairWiseLoss idiom (softplus of the negated gap)
import torch
import torch.nn.functional as F


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.shape != r_rejected.shape:
        raise ValueError("r_chosen and r_rejected differ in shape")
    if r_chosen.dim() != 1 or r_chosen.numel() < 1:
        raise ValueError("expected a non-empty 1-D batch")
    logits = r_chosen - r_rejected - margin
    return F.softplus(-logits).mean()
