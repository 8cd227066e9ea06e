"""KL estimators k1, k2, k3 per token and their masked token-mean, in PyTorch."""
import torch


def token_kl(log_probs, ref_log_probs, response_mask, estimator="k3"):
    """(kl, kl_mean): per-token estimates of KL(pi || pi_ref) and their mean over valid tokens.

    log_probs, ref_log_probs: float [B, T], log-probs of the sampled tokens under the policy pi (which
    sampled them) and under the reference model. response_mask: bool [B, T], right padded.
    kl is [B, T] with 0 on padding; kl_mean is a 0-d tensor, the token-mean over the whole batch.
    """
    if estimator not in ("k1", "k2", "k3"):
        raise ValueError(f"unknown estimator {estimator!r}; expected 'k1', 'k2' or 'k3'")
    valid = response_mask

    # log pi(x) - log pi_ref(x) for x ~ pi: its expectation is KL(pi || pi_ref).
    log_ratio = log_probs - ref_log_probs
    if estimator == "k1":
        kl = log_ratio
    elif estimator == "k2":
        kl = 0.5 * log_ratio ** 2
    else:
        # r = pi_ref / pi; (r - 1) - log r >= 0 and has expectation KL(pi || pi_ref).
        kl = torch.exp(-log_ratio) - 1 + log_ratio

    zero = torch.zeros((), dtype=kl.dtype)
    kl_mean = kl.sum() / valid.sum()
    return kl, kl_mean
