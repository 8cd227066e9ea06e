# expect: logprob-softmax-then-log logprob-padding-kept
# framework: torch
# style: log(softmax) with no masking at all (garbage positions sanitised by nan_to_num)
import torch


def token_logprobs(logits, input_ids, response_mask):
    x = torch.where(response_mask[:, 1:, None], logits[:, :-1], torch.zeros((), dtype=logits.dtype))
    probs = x.softmax(-1)
    lp = probs.gather(-1, input_ids[:, 1:, None]).squeeze(-1).log()
    ent = -(probs * x.log_softmax(-1)).sum(-1)
    return lp, ent
