# expect: right
# framework: torch
# style: float32 compute (inputs upcast/downcast with .float()), CleanRL term names
import torch


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    newlogprob, b_logprobs = new_logp.float(), old_logp.detach().float()
    mb_advantages = advantages.detach().float()
    ratio = (newlogprob - b_logprobs).exp()
    pg_loss = torch.max(-mb_advantages * ratio,
                        -mb_advantages * torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)).mean()
    newvalue, b_values, b_returns = values.float(), old_values.detach().float(), returns.detach().float()
    v_clipped = b_values + torch.clamp(newvalue - b_values, -clip_eps, clip_eps)
    v_loss = 0.5 * torch.max((newvalue - b_returns) ** 2, (v_clipped - b_returns) ** 2).mean()
    entropy_loss = entropy.float().mean()
    return pg_loss - ent_coef * entropy_loss + v_loss * vf_coef
