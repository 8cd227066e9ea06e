# expect: bt-margin-wrong-side
# framework: torch
# style: margin added to the gap
import torch
import torch.nn.functional as F


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.shape != r_rejected.shape or r_chosen.dim() != 1 or r_chosen.numel() == 0:
        raise ValueError("bad shapes")
    return -F.logsigmoid(r_chosen - r_rejected + margin).mean()
