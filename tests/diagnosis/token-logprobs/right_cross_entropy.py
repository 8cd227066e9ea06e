# expect: right
# style: F.cross_entropy per token, masked_fill
import torch
import torch.nn.functional as F


def token_logprobs(logits, input_ids, response_mask):
    B, L, V = logits.shape
    pred = logits[:, :-1].reshape(-1, V)
    target = input_ids[:, 1:].reshape(-1)
    logp = -F.cross_entropy(pred, target, reduction="none").view(B, L - 1)
    probs = torch.softmax(logits[:, :-1], dim=-1)
    ent = -(probs * torch.log_softmax(logits[:, :-1], dim=-1)).sum(-1)
    pad = ~response_mask[:, 1:]
    return logp.masked_fill(pad, 0.0), ent.masked_fill(pad, 0.0)
