# expect: kl-mean-unmasked
# style: torch.mean over the zeroed tensor
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    x = ref_log_probs - log_probs
    if estimator == "k1":
        kl = -x
    elif estimator == "k2":
        kl = x.pow(2).mul(0.5)
    elif estimator == "k3":
        kl = x.exp().sub(1).sub(x)
    else:
        raise ValueError(estimator)
    kl = torch.where(response_mask, kl, torch.zeros((), dtype=kl.dtype))
    return kl, torch.mean(kl)
