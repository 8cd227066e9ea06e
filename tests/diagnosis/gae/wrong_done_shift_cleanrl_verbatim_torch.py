# expect: gae-done-shift
# framework: torch
# style: CleanRL's loop pasted without converting conventions: dones[t + 1] read as "next step non-terminal",
#        next_done taken as the last done flag
import torch


def compute_gae(rewards, values, dones, gamma=0.99, lam=0.95):
    num_steps = rewards.shape[1]
    next_done = dones[:, -1]
    next_value = values[:, -1]
    with torch.no_grad():
        advantages = torch.zeros_like(rewards)
        lastgaelam = 0
        for t in reversed(range(num_steps)):
            if t == num_steps - 1:
                nextnonterminal = 1.0 - next_done
                nextvalues = next_value
            else:
                nextnonterminal = 1.0 - dones[:, t + 1]
                nextvalues = values[:, t + 1]
            delta = rewards[:, t] + gamma * nextvalues * nextnonterminal - values[:, t]
            advantages[:, t] = lastgaelam = delta + gamma * lam * nextnonterminal * lastgaelam
        returns = advantages + values[:, :num_steps]
    return advantages, returns
