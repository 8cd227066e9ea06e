# expect: right
# framework: torch
# style: OpenRLHF "rloo" estimator layout, float64 accumulate, cast back
import torch


def rloo_advantages(rewards):
    if len(rewards.shape) != 2:
        raise ValueError("rewards must be 2-D [P, K]")
    n_samples_per_prompt = rewards.shape[1]
    if rewards.shape[0] == 0 or n_samples_per_prompt < 2:
        raise ValueError("bad batch")
    r = rewards.double()
    baseline = (r.sum(-1, keepdim=True) - r) / (n_samples_per_prompt - 1)
    return (r - baseline).to(rewards.dtype)
