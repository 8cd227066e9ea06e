# expect: right
# framework: torch
# style: TRL RewardTrainer: -logsigmoid(chosen - rejected - margin).mean()
import torch
import torch.nn as nn


def bradley_terry_loss(r_chosen, r_rejected, margin=0.0):
    if r_chosen.shape != r_rejected.shape or r_chosen.dim() != 1 or r_chosen.numel() == 0:
        raise ValueError("r_chosen and r_rejected must be non-empty 1-D tensors of the same shape")
    return -nn.functional.logsigmoid(r_chosen - r_rejected - margin).mean()
