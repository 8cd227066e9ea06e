# expect: klpen-per-minibatch
# framework: torch
# style: controller object updated per step
import torch


class _AdaptiveKL:
    def __init__(self, beta, target):
        self.beta, self.target = beta, target

    def update(self, kl_value):
        if kl_value > 1.5 * self.target:
            self.beta *= 2
        elif kl_value < self.target / 1.5:
            self.beta /= 2


def kl_penalty_iteration(new_logp, old_logp, advantages, kl, beta=1.0, kl_target=0.01):
    if new_logp.dim() != 2 or not (new_logp.shape == old_logp.shape == advantages.shape == kl.shape):
        raise ValueError("shapes")
    if new_logp.numel() == 0 or kl_target <= 0 or beta < 0:
        raise ValueError("bad input")
    ctl = _AdaptiveKL(beta, kl_target)
    losses = []
    for m in range(kl.shape[0]):
        r = (new_logp[m] - old_logp[m].detach()).exp()
        losses.append(-(r * advantages[m].detach()).mean() + ctl.beta * kl[m].mean())
        ctl.update(float(kl[m].detach().mean()))
    return torch.stack(losses), ctl.beta
