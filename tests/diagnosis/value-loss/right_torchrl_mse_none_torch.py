# expect: right
# framework: torch
# style: TorchRL _clip_value_loss: F.mse_loss(reduction="none") on both, max, then 0.5 * mean
import torch
import torch.nn.functional as F


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    target_return = returns.detach()
    old_state_value = old_values.detach()
    loss_value = F.mse_loss(values, target_return, reduction="none")
    state_value_clipped = old_state_value + (values - old_state_value).clamp(-clip_eps, clip_eps)
    loss_value_clipped = F.mse_loss(state_value_clipped, target_return, reduction="none")
    loss_value = torch.maximum(loss_value, loss_value_clipped)
    return 0.5 * loss_value.mean()
