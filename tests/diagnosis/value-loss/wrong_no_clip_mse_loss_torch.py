# expect: value-no-clip
# framework: torch
# style: 0.5 * F.mse_loss, the clipped prediction computed but not used
import torch
import torch.nn.functional as F


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    old = old_values.detach()
    v_clipped = old + torch.clamp(values - old, -clip_eps, clip_eps)  # noqa: F841
    return 0.5 * F.mse_loss(values, returns.detach())
