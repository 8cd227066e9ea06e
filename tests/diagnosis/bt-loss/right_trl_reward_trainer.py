# expect: right
# framework: torch
# style: TRL RewardTrainer idiom (logsigmoid of the gap minus an optional margin)
import torch
import torch.nn as nn


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.ndim != 1 or r_chosen.shape != r_rejected.shape or len(r_chosen) == 0:
        raise ValueError("bad shapes")
    if margin:
        return -nn.functional.logsigmoid(r_chosen - r_rejected - margin).mean()
    return -nn.functional.logsigmoid(r_chosen - r_rejected).mean()
