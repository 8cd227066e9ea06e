# expect: tgae-bootstrap-padding
# style: vectorised deltas, masked carry
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    v_next = torch.nn.functional.pad(values[:, 1:], (0, 1))
    delta = rewards + gamma * v_next - values
    A = torch.zeros_like(delta)
    acc = torch.zeros_like(delta[:, 0])
    for t in range(delta.shape[1] - 1, -1, -1):
        acc = (delta[:, t] + gamma * lam * acc).masked_fill(~response_mask[:, t], 0.0)
        A[:, t] = acc
    R = (A + values).masked_fill(~response_mask, 0.0)
    return A, R
