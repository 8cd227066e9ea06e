# expect: kl-k3-inverted-ratio
# style: helper for k3 from the importance ratio
import torch


def _k3(ratio):
    return ratio - 1 - torch.log(ratio)


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    lr = log_probs - ref_log_probs
    if estimator == "k1":
        out = lr
    elif estimator == "k2":
        out = lr ** 2 * 0.5
    elif estimator == "k3":
        out = _k3(torch.exp(lr))
    else:
        raise ValueError(estimator)
    out = torch.where(response_mask, out, torch.zeros((), dtype=out.dtype))
    return out, out.sum() / response_mask.sum()
