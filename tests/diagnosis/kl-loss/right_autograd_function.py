# expect: right
# framework: torch
# style: the straight-through estimate as a custom autograd Function
import torch


class _K3ValueK2Grad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, d):
        ctx.save_for_backward(d)
        return torch.exp(-d) - 1 + d

    @staticmethod
    def backward(ctx, grad):
        (d,) = ctx.saved_tensors
        return grad * d


def kl_loss(log_prob, ref_log_prob, response_mask, kl_type="k3"):
    if kl_type not in ("k1", "k2", "k3", "k3+"):
        raise ValueError("kl_type")
    d = torch.where(response_mask, log_prob - ref_log_prob.detach(), torch.zeros_like(log_prob))
    if kl_type == "k1":
        per = d
    elif kl_type == "k2":
        per = 0.5 * d.pow(2)
    elif kl_type == "k3":
        per = (-d).exp() - 1 + d
    else:
        per = _K3ValueK2Grad.apply(d)
    per = torch.where(response_mask, per, torch.zeros_like(per))
    return per.sum() / response_mask.sum()
