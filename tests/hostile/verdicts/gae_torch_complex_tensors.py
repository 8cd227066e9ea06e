# drill: gae
# framework: torch
# expect: output-type
# The right values as complex128 tensors with an imaginary part.
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = rewards.shape[-1]
    adv = torch.zeros_like(rewards)
    last = torch.zeros_like(rewards[..., 0])
    for t in reversed(range(T)):
        nonterminal = 1.0 - dones[..., t]
        delta = rewards[..., t] + gamma * values[..., t + 1] * nonterminal - values[..., t]
        last = delta + gamma * lam * nonterminal * last
        adv[..., t] = last
    ret = adv + values[..., :T]
    return adv.to(torch.complex128) + 1000j, ret.to(torch.complex128) + 1000j
