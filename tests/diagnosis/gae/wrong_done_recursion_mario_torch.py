# expect: gae-done-recursion
# framework: torch
# style: "gae = gae * gamma * tau" carry, vectorised masked TD errors, python list then cat
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    tau = lam
    td = rewards + gamma * values[:, 1:] * (1 - dones) - values[:, :-1]
    gae = 0
    R = []
    for t in reversed(range(td.size(1))):
        gae = gae * gamma * tau
        gae = gae + td[:, t]
        R.append(gae.unsqueeze(1))
    R = torch.cat(R[::-1], dim=1)
    return R, R + values[:, :-1]
