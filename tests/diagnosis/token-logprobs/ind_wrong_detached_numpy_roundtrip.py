# expect: logprob-detached
# framework: torch
# style: NumPy round trip for the gather
import numpy as np
import torch


def token_logprobs(logits, input_ids, response_mask):
    mask = response_mask[:, 1:]
    x = torch.where(mask[..., None], logits[:, :-1], torch.zeros((), dtype=logits.dtype))
    logp = torch.log_softmax(x, dim=-1).detach().cpu().numpy()
    ids = input_ids[:, 1:].cpu().numpy()
    picked = np.take_along_axis(logp, ids[..., None], axis=-1)[..., 0]
    ent = -(np.exp(logp) * logp).sum(-1)
    m = mask.cpu().numpy()
    picked = np.where(m, picked, 0.0)
    ent = np.where(m, ent, 0.0)
    return torch.from_numpy(picked).to(logits.dtype), torch.from_numpy(ent).to(logits.dtype)
