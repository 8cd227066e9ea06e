"""The KL regulariser as a loss term: k1, k2, k3, or k3's value with k2's gradient."""
import torch


def kl_loss(log_prob, ref_log_prob, response_mask, kl_type="k3"):
    """Mean over valid tokens of the chosen per-token KL estimate (see prompt.md).

    log_prob: float tensor [B, T] (trainable); ref_log_prob: float tensor [B, T] (the frozen reference);
    response_mask: bool [B, T], right-padded. Returns a 0-d tensor.
    """
    if kl_type not in ("k1", "k2", "k3", "k3+"):
        raise ValueError(f"unknown kl_type {kl_type!r}")
    zero = torch.zeros((), dtype=log_prob.dtype)
    # d = log pi_theta - log pi_ref on valid tokens; padding may hold NaN or inf.
    d = torch.where(response_mask, log_prob - ref_log_prob.detach(), zero)

    k1 = d
    k2 = d ** 2
    # k3 = r - 1 - log r with r = pi_ref / pi_theta, so log r = -d.
    k3 = torch.exp(-d) - 1.0 + d

    if kl_type == "k1":
        per_token = k1
    elif kl_type == "k2":
        per_token = k2
    elif kl_type == "k3":
        per_token = k3
    else:
        # Straight-through: the forward value of k3, the backward gradient of k2.
        per_token = k2 - k2.detach() + k3.detach()

    per_token = torch.where(response_mask, per_token, zero)
    return per_token.sum() / response_mask.sum().clamp(min=1)
