# expect: gae-returns-offset
# expect-unnamed: advantages rounded through float16
# framework: torch
# style: half-precision buffer for the advantages and targets on the next values
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    B, T = rewards.shape
    adv = torch.zeros(B, T, dtype=torch.float16)
    gae = torch.zeros(B, dtype=rewards.dtype)
    for t in reversed(range(T)):
        nd = 1.0 - dones[:, t]
        delta = rewards[:, t] + gamma * values[:, t + 1] * nd - values[:, t]
        gae = delta + gamma * lam * nd * gae
        adv[:, t] = gae.to(torch.float16)
    adv = adv.to(rewards.dtype)
    return adv, adv + values[:, 1:]
