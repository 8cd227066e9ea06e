# expect: right
# framework: torch
# style: OpenRLHF's log_probs_from_logits plus entropy = logsumexp - sum p * logits
import torch
import torch.nn.functional as F


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    lg = logits[:, :-1].masked_fill(~valid.unsqueeze(-1), 0.0)
    labels = input_ids[:, 1:]
    log_probs = F.log_softmax(lg, dim=-1).gather(-1, labels.unsqueeze(-1)).squeeze(-1)
    p = F.softmax(lg, dim=-1)
    entropy = torch.logsumexp(lg, dim=-1) - (p * lg).sum(-1)
    return log_probs.masked_fill(~valid, 0.0), entropy.masked_fill(~valid, 0.0)
