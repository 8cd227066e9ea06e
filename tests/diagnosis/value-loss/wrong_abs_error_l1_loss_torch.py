# expect: value-abs-error
# framework: torch
# style: F.l1_loss(reduction="none") where TorchRL would take the "l2" distance
import torch
import torch.nn.functional as F


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    target = returns.detach()
    old = old_values.detach()
    clipped = old + (values - old).clamp(-clip_eps, clip_eps)
    loss = torch.max(F.l1_loss(values, target, reduction="none"), F.l1_loss(clipped, target, reduction="none"))
    return 0.5 * loss.mean()
