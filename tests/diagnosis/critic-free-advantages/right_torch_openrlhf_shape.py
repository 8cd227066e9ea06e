# expect: right
# framework: torch
# style: OpenRLHF-like cumulative returns and a masked normalisation, with verl's unbiased variance
import torch


def _returns(rewards, mask):
    out = torch.zeros_like(rewards)
    acc = torch.zeros(rewards.shape[0], dtype=rewards.dtype)
    for t in range(rewards.shape[1] - 1, -1, -1):
        acc = torch.where(mask[:, t], acc + rewards[:, t], torch.zeros_like(acc))
        out[:, t] = acc
    return out


def critic_free_advantages(scores, old_log_prob, ref_log_prob, response_mask, group_size=1,
                           estimator="reinforce_pp", kl_coef=0.01):
    if estimator not in ("reinforce_pp", "reinforce_pp_baseline", "dr_grpo"):
        raise ValueError(estimator)
    if group_size < 1 or scores.numel() % group_size:
        raise ValueError("group_size")
    m = response_mask
    z = torch.zeros((), dtype=scores.dtype)
    if estimator == "reinforce_pp":
        kl = torch.where(m, old_log_prob - ref_log_prob, z)
        eos = (torch.arange(m.shape[1])[None, :] == (m.sum(1) - 1)[:, None])
        rewards = -kl_coef * kl + eos.to(scores.dtype) * scores[:, None]
        x = _returns(rewards, m)
    else:
        g = scores.reshape(-1, group_size)
        x = torch.where(m, (g - g.mean(1, keepdim=True)).reshape(-1, 1), z)
        if estimator == "dr_grpo":
            return x
    n = m.sum()
    if n < 2:
        raise ValueError("too few tokens")
    mean = x[m].mean()
    var = x[m].var(unbiased=True)
    return torch.where(m, (x - mean) / torch.sqrt(var + 1e-8), z)
