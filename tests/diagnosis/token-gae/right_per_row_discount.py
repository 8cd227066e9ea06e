# expect: right
# style: per-row loop with explicit lengths
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    adv = torch.zeros(B, T, dtype=torch.float64)
    for b in range(B):
        n = int(response_mask[b].sum())
        r = rewards[b, :n].double()
        v = torch.cat([values[b, :n].double(), torch.zeros(1, dtype=torch.float64)])
        carry = 0.0
        for t in range(n - 1, -1, -1):
            carry = r[t] + gamma * v[t + 1] - v[t] + gamma * lam * carry
            adv[b, t] = carry
    ret = adv.clone()
    ret[response_mask] += values[response_mask].double()
    return adv, ret
