"""Per-token log-probs and entropy of a response from a causal language model's logits, in PyTorch."""
import torch


def token_logprobs(logits, input_ids, response_mask):
    """(log_probs, entropy) of the response tokens, both [B, L - 1].

    logits: float [B, L, V]; input_ids: int64 [B, L]; response_mask: bool [B, L], True on response
    tokens (False on the prompt and on right padding). The logits at position t score the token at
    t + 1, so everything is shifted by one: log_probs[:, t] = log p(input_ids[:, t + 1]).
    Positions whose next token is not a response token are 0 in both outputs.
    """
    # The last position predicts a token after the sequence: it scores nothing.
    shifted_logits = logits[:, :-1, :]
    labels = input_ids[:, 1:]
    valid = response_mask[:, 1:]

    # log_softmax subtracts logsumexp: finite even where softmax underflows to 0.
    logp_all = torch.log_softmax(shifted_logits, dim=-1)
    picked = torch.gather(logp_all, dim=-1, index=labels.unsqueeze(-1)).squeeze(-1)
    entropy = -(logp_all.exp() * logp_all).sum(dim=-1)

    zero = torch.zeros((), dtype=picked.dtype)
    log_probs = picked * valid
    entropy = entropy * valid
    return log_probs, entropy
