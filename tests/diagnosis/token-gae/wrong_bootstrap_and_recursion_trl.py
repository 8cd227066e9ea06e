# expect: tgae-bootstrap-padding tgae-recursion-through-padding
# style: plain TRL loop, mask only at the end
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    lastgaelam = 0
    advantages_reversed = []
    gen_length = rewards.shape[1]
    for t in reversed(range(gen_length)):
        nextvalues = values[:, t + 1] if t < gen_length - 1 else 0.0
        delta = rewards[:, t] + gamma * nextvalues - values[:, t]
        lastgaelam = delta + gamma * lam * lastgaelam
        advantages_reversed.append(lastgaelam)
    advantages = torch.stack(advantages_reversed[::-1], axis=1)
    zero = torch.zeros((), dtype=advantages.dtype)
    advantages = torch.where(response_mask, advantages, zero)
    returns = torch.where(response_mask, advantages + values, zero)
    return advantages, returns
