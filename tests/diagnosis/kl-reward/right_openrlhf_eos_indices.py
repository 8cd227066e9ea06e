# expect: right
# style: OpenRLHF compute_reward: fliplr argmax, scatter
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    kl = (log_probs - ref_log_probs).masked_fill(~response_mask, 0.0)
    kl_reward = -kl_coef * kl
    T = response_mask.size(1)
    eos = T - 1 - response_mask.long().fliplr().argmax(dim=1, keepdim=True)
    last_reward = torch.zeros_like(kl).scatter_(dim=1, index=eos, src=scores.unsqueeze(1).to(kl.dtype))
    return last_reward + kl_reward
