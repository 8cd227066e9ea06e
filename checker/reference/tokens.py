"""Token-level pieces of LLM PPO on right-padded batches: per-token log-probs and entropy from logits
(with the one-position shift), and GAE over responses that end at their last valid token.

Like the rest of the reference core these are float64 and written for clarity. Padding never leaks:
positions outside the mask are selected away with `torch.where` (never multiplied by 0, since
`NaN * 0` is NaN), so whatever padded slots hold, NaN and inf included, the valid results are the same.
"""
from __future__ import annotations

import torch

from checker.reference._tensor import f64
from checker.reference.gae import gae


def token_logprobs(logits, input_ids, response_mask) -> tuple[torch.Tensor, torch.Tensor]:
    """(log_probs, entropy), both [B, L - 1], from logits [B, L, V] and input_ids [B, L].

    The logit at position t is the model's distribution over the token at t + 1, so
    log_probs[:, t] = log_softmax(logits[:, t])[input_ids[:, t + 1]] and entropy[:, t] is the entropy
    of that same distribution. Both are 0 where response_mask[:, t + 1] is False (prompt or padding).
    """
    lg = f64(logits)[:, :-1]
    ids = torch.as_tensor(input_ids)[:, 1:].long()
    valid = torch.as_tensor(response_mask)[:, 1:].bool()
    safe = torch.where(valid.unsqueeze(-1), lg, torch.zeros((), dtype=lg.dtype))
    logp_all = torch.log_softmax(safe, dim=-1)
    picked = logp_all.gather(-1, ids.clamp(0, lg.shape[-1] - 1).unsqueeze(-1)).squeeze(-1)
    entropy = -(logp_all.exp() * logp_all).sum(-1)
    zero = torch.zeros((), dtype=lg.dtype)
    return torch.where(valid, picked, zero), torch.where(valid, entropy, zero)


def token_gae(rewards, values, response_mask, gamma: float = 1.0, lam: float = 0.95):
    """(advantages, returns) [B, T] for right-padded responses.

    Each row is an episode that ends after its last valid token: nothing is bootstrapped past it
    (V = 0 there) and padded positions, whatever they hold, are not part of it. Row b is the
    reference `gae` on its valid prefix with a done at the last token; returns = A + V on valid
    tokens, and both outputs are 0 on padding.
    """
    r, v = f64(rewards), f64(values)
    m = torch.as_tensor(response_mask).bool()
    adv = torch.zeros_like(r)
    for b in range(r.shape[0]):
        n = int(m[b].sum())
        if n == 0:
            continue
        dones = torch.zeros(n, dtype=torch.float64)
        dones[-1] = 1.0
        a, _ = gae(r[b, :n], torch.cat([v[b, :n], torch.zeros(1, dtype=torch.float64)]), dones, gamma, lam)
        adv[b, :n] = a
    zero = torch.zeros((), dtype=torch.float64)
    adv = torch.where(m, adv, zero)
    return adv, torch.where(m, adv + torch.where(m, v, zero), zero)
