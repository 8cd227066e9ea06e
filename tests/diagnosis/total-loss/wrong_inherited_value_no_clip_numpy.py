# expect: value-no-clip
# framework: numpy
# style: total loss with a plain MSE critic (CleanRL clip_vloss=False)
import numpy as np


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    r = np.exp(new_logp - old_logp)
    pg = -np.minimum(r * advantages, np.clip(r, 1 - clip_eps, 1 + clip_eps) * advantages).mean()
    v_loss = 0.5 * ((values - returns) ** 2).mean()
    return pg - ent_coef * entropy.mean() + vf_coef * v_loss
