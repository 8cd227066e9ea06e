# expect: policy-advantages-normalised
# framework: numpy
# style: advantages standardised inside the total loss (CleanRL norm_adv habit)
import numpy as np


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    adv = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    r = np.exp(new_logp - old_logp)
    pg = -np.mean(np.minimum(r * adv, np.clip(r, 1 - clip_eps, 1 + clip_eps) * adv))
    vc = old_values + np.clip(values - old_values, -clip_eps, clip_eps)
    vf = 0.5 * np.mean(np.maximum((values - returns) ** 2, (vc - returns) ** 2))
    return pg + vf_coef * vf - ent_coef * np.mean(entropy)
