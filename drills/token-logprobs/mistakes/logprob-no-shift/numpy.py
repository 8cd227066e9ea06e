"""Per-token log-probs and entropy of a response from a causal language model's logits, in NumPy."""
import numpy as np


def token_logprobs(logits, input_ids, response_mask):
    """(log_probs, entropy) of the response tokens, both [B, L - 1].

    logits: float [B, L, V]; input_ids: int64 [B, L]; response_mask: bool [B, L], True on response
    tokens (False on the prompt and on right padding). The logits at position t score the token at
    t + 1, so everything is shifted by one: log_probs[:, t] = log p(input_ids[:, t + 1]).
    Positions whose next token is not a response token are 0 in both outputs.
    """
    shifted_logits = logits[:, 1:, :]
    labels = input_ids[:, 1:]
    valid = response_mask[:, 1:]

    # Unused logits may be NaN or inf: silence NumPy's warnings about them.
    with np.errstate(invalid="ignore", over="ignore"):
        # log_softmax = x - max - log(sum(exp(x - max))): finite even where softmax underflows to 0.
        top = shifted_logits.max(axis=-1, keepdims=True)
        z = shifted_logits - top
        logp_all = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
        picked = np.take_along_axis(logp_all, labels[..., None], axis=-1)[..., 0]
        entropy = -(np.exp(logp_all) * logp_all).sum(axis=-1)

    # Select, never multiply: unused logits may hold NaN or inf, and NaN * 0 is NaN.
    log_probs = np.where(valid, picked, 0.0)
    entropy = np.where(valid, entropy, 0.0)
    return log_probs, entropy
