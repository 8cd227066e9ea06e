# expect: right
# style: one-hot of the last position, float64
import torch


def kl_shaped_rewards(log_probs, ref_log_probs, scores, response_mask, kl_coef=0.1):
    T = response_mask.shape[-1]
    pos = torch.arange(T)
    last = (response_mask * pos).max(dim=-1).values
    onehot = (pos[None, :] == last[:, None]).double()
    penalty = torch.where(response_mask, -kl_coef * (log_probs.double() - ref_log_probs.double()),
                          torch.zeros((), dtype=torch.float64))
    return penalty + onehot * scores.double()[:, None]
