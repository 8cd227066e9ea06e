# expect: right
# framework: torch
# style: torch.distributions.Categorical on sanitised logits
import torch
from torch.distributions import Categorical


def token_logprobs(logits, input_ids, response_mask):
    mask = response_mask[:, 1:]
    x = logits[:, :-1]
    x = torch.where(mask[..., None], x, torch.zeros((), dtype=x.dtype))
    dist = Categorical(logits=x)
    lp = dist.log_prob(input_ids[:, 1:])
    ent = dist.entropy()
    return torch.where(mask, lp, 0.0), torch.where(mask, ent, 0.0)
