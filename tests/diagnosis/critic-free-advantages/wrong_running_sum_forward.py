# expect: rpp-forward-cumsum
# framework: torch
# style: a running return accumulated from the first token forwards
import torch


def critic_free_advantages(scores, old_log_prob, ref_log_prob, response_mask, group_size=1,
                           estimator="reinforce_pp", kl_coef=0.01):
    if estimator not in ("reinforce_pp", "reinforce_pp_baseline", "dr_grpo"):
        raise ValueError(estimator)
    if group_size < 1 or scores.numel() % group_size:
        raise ValueError(group_size)
    m = response_mask
    B, T = m.shape
    z = torch.zeros((), dtype=scores.dtype)
    if estimator != "dr_grpo" and m.sum() < 2:
        raise ValueError("too few")
    if estimator == "reinforce_pp":
        r = torch.where(m, -kl_coef * (old_log_prob - ref_log_prob), z)
        r[torch.arange(B), m.sum(1) - 1] += scores
        x = torch.zeros_like(r)
        running = torch.zeros(B, dtype=scores.dtype)
        for t in range(T):
            running = running + r[:, t]
            x[:, t] = torch.where(m[:, t], running, z)
    else:
        g = scores.reshape(-1, group_size)
        x = torch.where(m, (g - g.mean(1, keepdim=True)).reshape(-1, 1), z)
        if estimator == "dr_grpo":
            return x
    v = x[m]
    return torch.where(m, (x - v.mean()) / torch.sqrt(v.var() + 1e-8), z)
