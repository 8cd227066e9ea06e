# expect: right
# framework: torch
# style: OpenRLHF-like, F.cross_entropy with reduction none, masked_fill
import torch
import torch.nn.functional as F


def token_logprobs(logits, input_ids, response_mask):
    B, L, V = logits.shape
    action_mask = response_mask[:, 1:]
    logits = logits[:, :-1].masked_fill(~action_mask.unsqueeze(-1), 0.0)
    labels = input_ids[:, 1:]
    log_probs = -F.cross_entropy(logits.reshape(-1, V), labels.reshape(-1), reduction="none").view(B, L - 1)
    logp_all = F.log_softmax(logits, dim=-1)
    entropy = -(logp_all.exp() * logp_all).sum(dim=-1)
    log_probs = log_probs.masked_fill(~action_mask, 0.0)
    entropy = entropy.masked_fill(~action_mask, 0.0)
    return log_probs, entropy
