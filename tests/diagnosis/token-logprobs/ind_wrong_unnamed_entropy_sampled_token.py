# expect:
# expect-unnamed: entropy estimated as -log p of the sampled token (one-sample estimate), not the full sum
# framework: torch
import torch


def token_logprobs(logits, input_ids, response_mask):
    valid = response_mask[:, 1:]
    x = torch.where(valid[..., None], logits[:, :-1], torch.zeros((), dtype=logits.dtype))
    lp = torch.log_softmax(x, -1).gather(-1, input_ids[:, 1:, None]).squeeze(-1)
    lp = torch.where(valid, lp, 0.0)
    return lp, -lp
