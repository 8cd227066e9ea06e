# expect: logprob-detached
# framework: torch
# style: detaches the logits once at the top "to save memory"
import torch
import torch.nn.functional as F


def token_logprobs(logits, input_ids, response_mask):
    logits = logits.detach()
    valid = response_mask[:, 1:]
    shifted = logits[:, :-1]
    shifted = torch.where(valid.unsqueeze(-1), shifted, torch.zeros_like(shifted))
    log_probs_all = F.log_softmax(shifted, dim=-1)
    lp = torch.gather(log_probs_all, 2, input_ids[:, 1:].unsqueeze(2)).squeeze(2)
    h = -(F.softmax(shifted, dim=-1) * log_probs_all).sum(-1)
    z = torch.zeros_like(lp)
    return torch.where(valid, lp, z), torch.where(valid, h, z)
