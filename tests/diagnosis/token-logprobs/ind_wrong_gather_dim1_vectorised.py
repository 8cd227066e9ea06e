# expect: logprob-gather-wrong-dim
# framework: torch
# style: torch.gather(x, 1, ...) on the [B, L-1, V] log-probs
import torch
import torch.nn.functional as F


def token_logprobs(logits, input_ids, response_mask):
    action_mask = response_mask[:, 1:]
    logits = logits[:, :-1]
    logits = torch.where(action_mask.unsqueeze(-1), logits, torch.zeros_like(logits))
    log_probs = F.log_softmax(logits, dim=-1)
    targets = input_ids[:, 1:]
    token_lp = torch.gather(log_probs, 1, targets.unsqueeze(-1)).squeeze(-1)
    entropy = -(log_probs.exp() * log_probs).sum(-1)
    zero = torch.zeros_like(token_lp)
    return torch.where(action_mask, token_lp, zero), torch.where(action_mask, entropy, zero)
