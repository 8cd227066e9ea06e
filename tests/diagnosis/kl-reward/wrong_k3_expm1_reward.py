# expect: reward-kl-not-k1
# style: expm1 form of k3
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    d = ref_log_probs - log_probs
    kl = torch.expm1(d) - d
    r = (-kl_coef * kl).masked_fill(~response_mask, 0.0)
    idx = response_mask.long().sum(1, keepdim=True) - 1
    return r.scatter_add(1, idx, scores[:, None].to(r.dtype))
