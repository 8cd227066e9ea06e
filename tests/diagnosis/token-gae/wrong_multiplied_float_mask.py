# expect: tgae-mask-multiplied
# style: mask as floats multiplied into every step
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    mask = response_mask.float().to(values.dtype)
    T = values.shape[-1]
    adv = torch.zeros_like(values)
    gae = torch.zeros_like(values[..., 0])
    for t in reversed(range(T)):
        nxt = values[..., t + 1] * mask[..., t + 1] if t + 1 < T else 0.0
        delta = (rewards[..., t] + gamma * nxt - values[..., t]) * mask[..., t]
        gae = (delta + gamma * lam * gae) * mask[..., t]
        adv[..., t] = gae
    return adv, (adv + values) * mask
