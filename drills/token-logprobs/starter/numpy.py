"""Per-token log-probs and entropy from logits in NumPy: write token_logprobs (see prompt.md)."""
import numpy as np


def token_logprobs(logits, input_ids, response_mask):
    """Log-probs of the response tokens and the entropy of the distributions that scored them.

    Args:
        logits: float array [B, L, V] (float32 or float64), the model's output on input_ids.
        input_ids: int64 array [B, L], prompt then response then right padding.
        response_mask: bool array [B, L], True on response tokens, False on the prompt and padding.

    Returns:
        (log_probs, entropy): two float arrays [B, L - 1]. Position t belongs to the token at
        t + 1 and is 0 where response_mask[:, t + 1] is False.
    """
    raise NotImplementedError
