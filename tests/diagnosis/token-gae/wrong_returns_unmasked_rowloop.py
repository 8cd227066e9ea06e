# expect: tgae-padding-nonzero
# style: per-row loop, returns added afterwards
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    A = torch.zeros_like(values)
    for b in range(B):
        n = int(response_mask[b].sum())
        acc = 0.0
        for t in reversed(range(n)):
            v_next = values[b, t + 1] if t + 1 < n else 0.0
            acc = rewards[b, t] + gamma * v_next - values[b, t] + gamma * lam * acc
            A[b, t] = acc
    return A, A + values
