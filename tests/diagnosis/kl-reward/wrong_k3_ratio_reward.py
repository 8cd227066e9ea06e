# expect: reward-kl-not-k1
# style: k3 from the ratio pi_ref / pi
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    ratio = torch.exp(ref_log_probs - log_probs)
    kl = ratio - 1 - torch.log(ratio)
    B = kl.shape[0]
    out = torch.where(response_mask, -kl_coef * kl, torch.zeros((), dtype=kl.dtype))
    out[torch.arange(B), response_mask.sum(-1) - 1] += scores.to(out.dtype)
    return out
