# expect: right
# framework: torch
# style: per-row lengths, slices of the valid prefix, clone then fill
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    advantages = torch.zeros_like(rewards)
    returns = torch.zeros_like(rewards)
    lengths = response_mask.sum(dim=1).tolist()
    for b, n in enumerate(lengths):
        r = rewards[b, :n]
        v = values[b, :n]
        v_next = torch.cat([v[1:], v.new_zeros(1)])
        deltas = r + gamma * v_next - v
        gae = v.new_zeros(())
        out = [None] * n
        for t in range(n - 1, -1, -1):
            gae = deltas[t] + gamma * lam * gae
            out[t] = gae
        a = torch.stack(out)
        advantages[b, :n] = a
        returns[b, :n] = a + v
    return advantages, returns
