import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    rewards, values, dones = rewards.float(), values.float(), dones.float()
    advantages = torch.zeros_like(rewards)
    lastgaelam = 0
    T = rewards.shape[1]
    for t in reversed(range(T)):
        nextnonterminal = 1.0 - dones[:, t]
        nextvalues = values[:, t + 1]
        delta = rewards[:, t] + gamma * nextvalues * nextnonterminal - values[:, t]
        advantages[:, t] = lastgaelam = delta + gamma * lam * nextnonterminal * lastgaelam
    returns = advantages + values[:, :T]
    return advantages, returns
