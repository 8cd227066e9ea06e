# expect: right
# framework: torch
# style: compute on the valid tokens only (boolean indexing), scatter into zero buffers
import torch


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    flat_logits = logits[:, :-1][valid]          # [N, V], only positions that score a response token
    flat_ids = input_ids[:, 1:][valid]           # [N]
    logp = torch.log_softmax(flat_logits, dim=-1)
    lp_valid = logp[torch.arange(flat_ids.shape[0]), flat_ids]
    ent_valid = -(torch.exp(logp) * logp).sum(-1)
    shape = valid.shape
    log_probs = torch.zeros(shape, dtype=logits.dtype).masked_scatter(valid, lp_valid)
    entropy = torch.zeros(shape, dtype=logits.dtype).masked_scatter(valid, ent_valid)
    return log_probs, entropy
