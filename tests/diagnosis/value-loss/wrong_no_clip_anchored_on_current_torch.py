# expect: value-no-clip
# framework: torch
# style: tf-agents bug shape: the clip anchored on the current prediction (old values "recomputed" as
#        values.detach()), so the clipped prediction is always the prediction itself
import torch


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    old_value_preds = values.detach()
    R = returns.detach()
    clipped_value_preds = old_value_preds + torch.clamp(values - old_value_preds, -clip_eps, clip_eps)
    value_errors = (values - R) ** 2
    clipped_value_errors = (clipped_value_preds - R) ** 2
    return 0.5 * torch.max(value_errors, clipped_value_errors).mean()
