# expect: logprob-naive-softmax
# framework: torch
# style: probabilities from exp / sum, then log of the picked probability
import torch


def token_logprobs(logits, input_ids, response_mask):
    keep = response_mask[:, 1:]
    scores = torch.where(keep[..., None], logits[:, :-1], torch.zeros((), dtype=logits.dtype))
    unnorm = scores.exp()
    probs = unnorm / unnorm.sum(dim=-1, keepdim=True)
    chosen = probs.gather(-1, input_ids[:, 1:, None]).squeeze(-1)
    lp = torch.log(chosen)
    ent = -(probs * torch.log(probs)).sum(-1)
    return torch.where(keep, lp, 0.0), torch.where(keep, ent, 0.0)
