# expect: logprob-padding-kept
# framework: torch
# style: Categorical over every position, no masking of the outputs
import torch
from torch.distributions import Categorical


def token_logprobs(logits, input_ids, response_mask):
    x = logits[:, :-1]
    x = torch.nan_to_num(x, nan=0.0, posinf=0.0, neginf=0.0)
    x = torch.where(response_mask[:, 1:, None], x, torch.zeros_like(x))
    d = Categorical(logits=x)
    return d.log_prob(input_ids[:, 1:]), d.entropy()
