# expect: right
# style: verl kl_penalty: low_var_kl from ref - logp
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    if estimator == "k1":
        per_token = log_probs - ref_log_probs
    elif estimator == "k2":
        per_token = 0.5 * (log_probs - ref_log_probs).square()
    elif estimator == "k3":
        x = torch.clamp(ref_log_probs - log_probs, min=-20, max=20)
        per_token = torch.clamp(torch.exp(x) - x - 1, min=-10, max=10)
    else:
        raise ValueError(f"bad estimator {estimator}")
    per_token = torch.where(response_mask, per_token, torch.zeros_like(per_token))
    n = response_mask.sum()
    return per_token, per_token.sum() / n
