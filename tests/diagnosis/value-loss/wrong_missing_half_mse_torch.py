# expect: value-missing-half
# framework: torch
# style: TorchRL "l2" distance (F.mse_loss, no 0.5)
import torch
import torch.nn.functional as F


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    tgt = returns.detach()
    old = old_values.detach()
    clipped = old + (values - old).clamp(-clip_eps, clip_eps)
    loss = torch.max(F.mse_loss(values, tgt, reduction="none"), F.mse_loss(clipped, tgt, reduction="none"))
    return loss.mean()
