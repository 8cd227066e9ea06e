import numpy as np


def ppo_total_loss(new_logp, old_logp, advantages, values, old_values, returns, entropy,
                   clip_eps=0.2, vf_coef=0.5, ent_coef=0.01):
    f = lambda x: np.asarray(x, dtype=np.float32)
    ratio = np.exp(f(new_logp) - f(old_logp))
    adv = f(advantages)
    policy = np.mean(np.maximum(-ratio * adv, -np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * adv))
    v, old, r = f(values), f(old_values), f(returns)
    value = 0.5 * np.mean(np.maximum((v - r) ** 2, (old + np.clip(v - old, -clip_eps, clip_eps) - r) ** 2))
    return float(policy + vf_coef * value - ent_coef * f(entropy).mean())
