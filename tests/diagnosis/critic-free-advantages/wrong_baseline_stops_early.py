# expect: rpp-baseline-not-whitened
# framework: torch
# style: the two group estimators share one branch that returns the centred scores
import torch


def critic_free_advantages(scores, old_log_prob, ref_log_prob, response_mask, group_size=1,
                           estimator="reinforce_pp", kl_coef=0.01):
    if estimator not in ("reinforce_pp", "reinforce_pp_baseline", "dr_grpo"):
        raise ValueError(estimator)
    if group_size < 1 or scores.numel() % group_size:
        raise ValueError(group_size)
    m = response_mask
    z = torch.zeros((), dtype=scores.dtype)
    if estimator != "dr_grpo" and m.sum() < 2:
        raise ValueError("too few")
    if estimator in ("dr_grpo", "reinforce_pp_baseline"):
        g = scores.reshape(-1, group_size)
        return torch.where(m, (g - g.mean(1, keepdim=True)).reshape(-1, 1), z)
    r = torch.where(m, -kl_coef * (old_log_prob - ref_log_prob), z)
    r[torch.arange(scores.numel()), m.sum(1) - 1] += scores
    x = torch.where(m, r.flip(1).cumsum(1).flip(1), z)
    v = x[m]
    return torch.where(m, (x - v.mean()) / torch.sqrt(v.var() + 1e-8), z)
