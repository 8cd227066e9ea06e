# expect: right
# framework: torch
# style: a table of lambdas over the masked log-ratio, the mean taken with boolean indexing
import torch

ESTIMATORS = {
    "k1": lambda d: d,
    "k2": lambda d: d * d / 2,
    "k3": lambda d: torch.expm1(-d) + d,
}


def kl_loss(log_prob, ref_log_prob, response_mask, kl_type="k3"):
    d = log_prob[response_mask] - ref_log_prob[response_mask].detach()
    if kl_type == "k3+":
        k2, k3 = ESTIMATORS["k2"](d), ESTIMATORS["k3"](d)
        values = k3.detach() + (k2 - k2.detach())
    elif kl_type in ESTIMATORS:
        values = ESTIMATORS[kl_type](d)
    else:
        raise ValueError(f"no estimator {kl_type}")
    return values.mean()
