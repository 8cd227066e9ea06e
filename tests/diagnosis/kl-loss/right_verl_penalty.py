# expect: right
# framework: torch
# style: verl's kl_penalty_forward / kl_penalty split, low_var_kl written as exp(ref - logp) - (ref - logp) - 1
import torch


def _forward(logprob, ref_logprob, kind):
    if kind == "k1":
        return logprob - ref_logprob
    if kind == "k2":
        return 0.5 * (logprob - ref_logprob).square()
    kl = ref_logprob - logprob
    return torch.exp(kl) - kl - 1


def kl_loss(log_prob, ref_log_prob, response_mask, kl_type="k3"):
    if kl_type not in {"k1", "k2", "k3", "k3+"}:
        raise ValueError(kl_type)
    zero = torch.zeros_like(log_prob)
    lp = torch.where(response_mask, log_prob, zero)
    ref = torch.where(response_mask, ref_log_prob, zero).detach()
    if kl_type.endswith("+"):
        forward = _forward(lp, ref, kl_type[:-1])
        backward = 0.5 * (lp - ref).square()
        per_token = backward - backward.detach() + forward.detach()
    else:
        per_token = _forward(lp, ref, kl_type)
    per_token = torch.where(response_mask, per_token, zero)
    return per_token.sum() / response_mask.sum()
