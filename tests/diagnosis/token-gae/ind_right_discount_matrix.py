# expect: right
# framework: torch
# style: closed form A_t = sum_k (gamma*lam)^(k-t) delta_k with an upper-triangular discount matrix
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    B, T = rewards.shape
    m = response_mask
    v = torch.where(m, values, torch.zeros_like(values))
    r = torch.where(m, rewards, torch.zeros_like(rewards))
    v_next = torch.cat([v[:, 1:], torch.zeros_like(v[:, :1])], dim=1)
    v_next = torch.where(torch.cat([m[:, 1:], torch.zeros_like(m[:, :1])], dim=1), v_next, torch.zeros_like(v_next))
    delta = torch.where(m, r + gamma * v_next - v, torch.zeros_like(v))
    idx = torch.arange(T, dtype=rewards.dtype)
    expo = idx[None, :] - idx[:, None]                       # k - t
    gl = torch.tensor(gamma * lam, dtype=rewards.dtype)
    disc = torch.where(expo >= 0, gl ** expo.clamp(min=0), torch.zeros((), dtype=rewards.dtype))
    if gamma * lam == 0:
        disc = torch.eye(T, dtype=rewards.dtype)
    adv = delta @ disc.T
    adv = torch.where(m, adv, torch.zeros_like(adv))
    ret = torch.where(m, adv + v, torch.zeros_like(adv))
    return adv, ret
