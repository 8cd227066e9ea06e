# expect: tgae-forward-scan
# style: per-row loop from the first token
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = values.shape
    adv = torch.zeros_like(values)
    for b in range(B):
        n = int(response_mask[b].sum())
        g = 0.0
        for t in range(n):
            v_next = values[b, t + 1] if t + 1 < n else 0.0
            g = rewards[b, t] + gamma * v_next - values[b, t] + gamma * lam * g
            adv[b, t] = g
    ret = torch.where(response_mask, adv + values, torch.zeros_like(adv))
    return adv, ret
