# expect: kl-direction-swapped
# style: estimates KL(pi_ref || pi)
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    diff = ref_log_probs - log_probs
    estimates = {"k1": diff, "k2": 0.5 * diff ** 2, "k3": torch.exp(-diff) - 1 + diff}
    if estimator not in estimates:
        raise ValueError(estimator)
    kl = estimates[estimator]
    kl = torch.where(response_mask, kl, 0.0)
    return kl, kl.sum() / response_mask.sum()
