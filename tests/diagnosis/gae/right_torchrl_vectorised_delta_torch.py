# expect: right
# framework: torch
# style: TorchRL-like: next_state_value and terminated tensors, vectorised delta, in-place reverse scan
import torch


@torch.no_grad()
def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    state_value = values[..., :-1]
    next_state_value = values[..., 1:]
    not_terminated = 1.0 - dones
    delta = rewards + gamma * not_terminated * next_state_value - state_value
    advantage = torch.empty_like(delta)
    gae = torch.zeros_like(delta[..., 0])
    for t in range(delta.shape[-1] - 1, -1, -1):
        gae = delta[..., t] + gamma * lam * not_terminated[..., t] * gae
        advantage[..., t] = gae
    value_target = advantage + state_value
    return advantage, value_target
