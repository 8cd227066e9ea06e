# expect: kl-k1-for-k3
# framework: torch
# style: verl-style names with "low_var_kl" mapped to the plain "kl" branch
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    alias = {"k1": "kl", "k2": "mse", "k3": "kl"}
    if estimator not in alias:
        raise ValueError(estimator)
    kind = alias[estimator]
    d = (log_probs - ref_log_probs).masked_fill(~response_mask, 0.0)
    kl = d if kind == "kl" else 0.5 * d.square()
    return kl, kl.sum() / response_mask.sum()
