# expect: bt-chosen-rejected-swapped
# framework: torch
# style: pair helper (winner, loser) called with the arguments reversed
import torch
import torch.nn.functional as F


def _pair_nll(winner, loser, margin):
    return F.softplus(-(winner - loser - margin))


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.shape != r_rejected.shape or r_chosen.dim() != 1 or r_chosen.numel() == 0:
        raise ValueError("bad shapes")
    return _pair_nll(r_rejected, r_chosen, margin).mean()
