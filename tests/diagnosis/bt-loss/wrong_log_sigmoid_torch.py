# expect: bt-log-of-sigmoid
# framework: torch
# style: torch.sigmoid then torch.log
import torch


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.shape != r_rejected.shape or r_chosen.dim() != 1 or r_chosen.numel() == 0:
        raise ValueError("shapes")
    prob_chosen_wins = torch.sigmoid(r_chosen - r_rejected - margin)
    return -torch.log(prob_chosen_wins).mean()
