# expect:
# expect-unnamed: relu(-x) + log1p(exp(-|x|)) has the right value but autograd gives gradient 0 at a zero gap
#   (relu'(0) = 0 and d|x|/dx = 0 there), where the true gradient of softplus(-x) is -1/2
# framework: torch
# style: relu(-x) + log1p(exp(-|x|)) written out in torch
import torch


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.shape != r_rejected.shape or r_chosen.ndim != 1 or not r_chosen.numel():
        raise ValueError("r_chosen and r_rejected must be matching non-empty 1-D tensors")
    x = (r_chosen - r_rejected) - margin
    losses = torch.relu(-x) + torch.log1p(torch.exp(-x.abs()))
    return losses.mean()
