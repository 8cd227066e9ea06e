# expect: reward-kl-sign
# style: penalty from ref - logp
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    rewards = -kl_coef * (ref_log_probs - log_probs)
    rewards = rewards.masked_fill(~response_mask, 0.0)
    last = response_mask.long().sum(-1) - 1
    rewards = rewards.scatter_add(1, last[:, None], scores[:, None].to(rewards.dtype))
    return rewards
