# expect: total-value-sign
# framework: numpy
# style: "maximise the objective" written out, then negated only partly
import numpy as np


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    ratio = np.exp(new_logp - old_logp)
    surrogate = np.mean(np.minimum(ratio * advantages, np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * advantages))
    v_clip = old_values + np.clip(values - old_values, -clip_eps, clip_eps)
    critic = 0.5 * np.mean(np.maximum((values - returns) ** 2, (v_clip - returns) ** 2))
    objective = surrogate + vf_coef * critic + ent_coef * np.mean(entropy)
    return -objective
