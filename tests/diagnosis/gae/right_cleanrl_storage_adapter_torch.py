# expect: right
# framework: torch
# style: CleanRL's own loop, verbatim, after converting to its storage convention (dones[t] = "obs t starts a
#        new episode", next_done / next_value for the step after the rollout)
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    num_envs, num_steps = rewards.shape
    # CleanRL stores [num_steps, num_envs]; its dones[t] is the done flag of transition t - 1
    rewards_ = rewards.T
    values_ = values[:, :num_steps].T
    starts = torch.cat([torch.zeros(1, num_envs, dtype=dones.dtype), dones.T[:-1]], dim=0)
    next_done = dones[:, -1]
    next_value = values[:, -1]
    with torch.no_grad():
        advantages = torch.zeros_like(rewards_)
        lastgaelam = 0
        for t in reversed(range(num_steps)):
            if t == num_steps - 1:
                nextnonterminal = 1.0 - next_done
                nextvalues = next_value
            else:
                nextnonterminal = 1.0 - starts[t + 1]
                nextvalues = values_[t + 1]
            delta = rewards_[t] + gamma * nextvalues * nextnonterminal - values_[t]
            advantages[t] = lastgaelam = delta + gamma * lam * nextnonterminal * lastgaelam
        returns = advantages + values_
    return advantages.T.contiguous(), returns.T.contiguous()
