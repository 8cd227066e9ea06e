# expect: right
# framework: torch
# style: F.cross_entropy(reduction='none') for the log-probs, Categorical-style entropy
import torch
import torch.nn.functional as F


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    lg = logits[:, :-1].masked_fill(~valid.unsqueeze(-1), 0.0)
    B, L1, V = lg.shape
    lp = -F.cross_entropy(lg.reshape(-1, V), input_ids[:, 1:].reshape(-1), reduction="none").view(B, L1)
    logp_all = F.log_softmax(lg, dim=-1)
    ent = -(logp_all.exp() * logp_all).sum(-1)
    return lp.masked_fill(~valid, 0.0), ent.masked_fill(~valid, 0.0)
