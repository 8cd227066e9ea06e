# expect: gae-done-shift mc-return-for-lambda-return
# framework: torch
# style: CleanRL-style next-step done flag, and Monte-Carlo returns for the critic
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    B, T = rewards.shape
    adv = torch.zeros_like(rewards)
    ret = torch.zeros_like(rewards)
    lastgaelam = torch.zeros(B, dtype=rewards.dtype)
    running_return = values[:, T].clone()
    for t in reversed(range(T)):
        nnt = torch.ones(B, dtype=rewards.dtype) if t == T - 1 else 1.0 - dones[:, t + 1]
        delta = rewards[:, t] + gamma * values[:, t + 1] * nnt - values[:, t]
        lastgaelam = delta + gamma * lam * nnt * lastgaelam
        adv[:, t] = lastgaelam
        running_return = rewards[:, t] + gamma * nnt * running_return
        ret[:, t] = running_return
    return adv, ret
