# expect: right
# framework: torch
# style: loop-free: the recursion A_t - c_t A_{t+1} = delta_t solved as an upper-bidiagonal system
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    B, T = rewards.shape
    keep = 1.0 - dones
    deltas = rewards + gamma * values[:, 1:] * keep - values[:, :-1]
    coupling = gamma * lam * keep[:, :-1]                      # c_t for t = 0..T-2
    eye = torch.eye(T, dtype=rewards.dtype).expand(B, T, T).clone()
    system = eye - torch.diag_embed(coupling, offset=1)
    adv = torch.linalg.solve_triangular(system, deltas.unsqueeze(-1), upper=True).squeeze(-1)
    return adv, adv + values[:, :-1]
