# expect: tgae-lam-ignored
# style: advantage as reward-to-go minus V
import torch


def token_gae(rewards, values, response_mask, gamma=1.0, lam=0.95):
    zero = torch.zeros((), dtype=values.dtype)
    r = torch.where(response_mask, rewards, zero)
    v = torch.where(response_mask, values, zero)
    T = r.shape[1]
    ret = torch.zeros_like(r)
    run = torch.zeros_like(r[:, 0])
    for t in reversed(range(T)):
        run = r[:, t] + gamma * run
        ret[:, t] = run
    adv = torch.where(response_mask, ret - v, zero)
    return adv, torch.where(response_mask, adv + v, zero)
