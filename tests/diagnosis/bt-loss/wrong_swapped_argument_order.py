# expect: bt-chosen-rejected-swapped
# framework: torch
# style: helper called with the pair in the wrong order
import torch


def _pair_nll(winner, loser, m):
    return -torch.nn.functional.logsigmoid(winner - loser - m)


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.shape != r_rejected.shape or r_chosen.ndim != 1 or r_chosen.shape[0] == 0:
        raise ValueError("expected matching 1-D rewards")
    return _pair_nll(r_rejected, r_chosen, margin).mean()
