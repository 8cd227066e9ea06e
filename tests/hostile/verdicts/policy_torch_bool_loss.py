# drill: policy-loss
# framework: torch
# expect: output-type
# A 0-d boolean tensor where the loss is asked.
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    return (new_logp.sum() > -1e300)
