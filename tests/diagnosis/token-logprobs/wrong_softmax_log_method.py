# expect: logprob-softmax-then-log
# style: softmax(...).log()
import torch


def token_logprobs(logits, input_ids, response_mask):
    probs = logits[:, :-1].softmax(dim=-1)
    logp = probs.log()
    chosen = logp.gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    entropy = -(probs * logp).sum(-1)
    m = response_mask[:, 1:]
    return torch.where(m, chosen, 0.0), torch.where(m, entropy, 0.0)
