# expect:
# expect-unnamed: a Huber (smooth L1) error instead of the squared error
# framework: torch
# style: smooth_l1
import torch
import torch.nn.functional as F


def ppo_value_loss(values, old_values, returns, clip_eps=0.2):
    ov, r = old_values.detach(), returns.detach()
    vc = ov + torch.clamp(values - ov, -clip_eps, clip_eps)
    l1 = F.smooth_l1_loss(values, r, reduction="none")
    l2 = F.smooth_l1_loss(vc, r, reduction="none")
    return 0.5 * torch.max(l1, l2).mean()
